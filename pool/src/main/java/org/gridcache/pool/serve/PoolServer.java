package org.gridcache.pool.serve;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.gridcache.pool.http.AlignedBuffers;

/**
 * The pool's Netty transport: epoll where the native library loads, NIO elsewhere. The worker loops serve clients
 * and also run the HTTP origin fetches (same transport, no extra threads).
 */
public final class PoolServer implements AutoCloseable {
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Class<? extends ServerChannel> serverChannel;
    private final Class<? extends Channel> clientChannel;
    private Channel listener;

    public PoolServer(String poolName) {
        boolean epoll = Epoll.isAvailable();
        this.boss = epoll ? new EpollEventLoopGroup(1, new DefaultThreadFactory(poolName + "-accept", true))
                : new NioEventLoopGroup(1, new DefaultThreadFactory(poolName + "-accept", true));
        this.workers = epoll ? new EpollEventLoopGroup(0, new DefaultThreadFactory(poolName + "-io", true))
                : new NioEventLoopGroup(0, new DefaultThreadFactory(poolName + "-io", true));
        this.serverChannel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        this.clientChannel = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public EventLoopGroup workers() {
        return workers;
    }

    public Class<? extends Channel> clientChannel() {
        return clientChannel;
    }

    /** Binds and returns the bound port. */
    public int bind(String host, int port, PoolChannelInitializer initializer) throws InterruptedException {
        listener = new ServerBootstrap()
                .group(boss, workers)
                .channel(serverChannel)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, AlignedBuffers.ALLOCATOR)
                // a client that shuts its output down after its request (a FIN: HTTP/1.0 style, nc -N) is still
                // answered; PipeliningGate closes once nothing is left to answer
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(initializer)
                .bind(host, port).sync().channel();
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Stops accepting connections; those open stay until {@link #close}. */
    public void stopAccepting() {
        if (listener != null) {
            listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        stopAccepting();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
