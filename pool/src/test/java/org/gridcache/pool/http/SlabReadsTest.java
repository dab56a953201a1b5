package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An origin connection's socket reads land in reused slabs, in order, and the slabs come back when it closes. */
class SlabReadsTest {
    private static final int SIZE = 3 * ReceiveSlabs.SLAB + 123;

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void readsFillSlabsThatComeBackAndAreReusedByTheNextConnection(String transport) throws Exception {
        Assumptions.assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is Linux's");
        byte[] file = new byte[SIZE];
        new Random(5).nextBytes(file);
        ReceiveSlabs slabs = new ReceiveSlabs(8);
        EventLoopGroup group = transport.equals("epoll") ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        try (ServerSocket origin = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<ByteBuf> first = receive(transport, group, origin, file, slabs);
            int firstSlabs = slabsUnder(first);
            assertTrue(firstSlabs >= 4 && firstSlabs <= 5, firstSlabs + " slabs for 3 MiB and 123 bytes");
            assertEquals(0, slabs.waiting(), "every slab is held while the pieces are (the write-behind window)");
            first.forEach(ByteBuf::release);
            assertEquals(firstSlabs, slabs.waiting(), "back once the connection closed and its pieces were released");

            List<ByteBuf> second = receive(transport, group, origin, file, slabs);
            assertEquals(firstSlabs - slabsUnder(second), slabs.waiting(), "the second connection read into the same slabs");
            second.forEach(ByteBuf::release);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** One connection to {@code origin}, which sends {@code file} and closes; the pieces read, in order, held. */
    private static List<ByteBuf> receive(String transport, EventLoopGroup group, ServerSocket origin, byte[] file,
                                         ReceiveSlabs slabs) throws Exception {
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            try (Socket s = origin.accept(); OutputStream out = s.getOutputStream()) {
                out.write(file);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        List<ByteBuf> pieces = Collections.synchronizedList(new ArrayList<>());
        Channel ch = new Bootstrap().group(group)
                .channel(transport.equals("epoll") ? EpollSocketChannel.class : NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        SlabReads.install(c, new AdaptiveRecvByteBufAllocator(64 << 10, 64 << 10, 1 << 20), slabs);
                        c.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                pieces.add((ByteBuf) msg); // kept, as a fill keeps what the disk has not taken yet
                            }
                        });
                    }
                })
                .connect(origin.getInetAddress(), origin.getLocalPort()).sync().channel();
        sent.get(30, TimeUnit.SECONDS);
        assertTrue(ch.closeFuture().await(30, TimeUnit.SECONDS), "the origin's close is seen");
        ch.eventLoop().submit(() -> { }).sync(); // the close's listeners have run on the loop
        byte[] got = new byte[file.length];
        int at = 0;
        for (ByteBuf piece : pieces) {
            assertTrue(piece.isDirect());
            int n = piece.readableBytes();
            piece.getBytes(piece.readerIndex(), got, at, n);
            at += n;
        }
        assertEquals(file.length, at);
        assertArrayEquals(file, got);
        return pieces;
    }

    private static int slabsUnder(List<ByteBuf> pieces) {
        Set<ByteBuf> slabs = Collections.newSetFromMap(new IdentityHashMap<>());
        pieces.forEach(p -> slabs.add(p.unwrap()));
        return slabs.size();
    }
}
