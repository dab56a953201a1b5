package org.gridcache.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.cluster.TransferList;
import org.gridcache.zk.PoolDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gridcache transfers}: the transfers in progress at every pool, from the pools' records in ZooKeeper (what
 * the door's status page and {@code /.gridcache/api/v1/transfers} show), once or, with {@code --watch}, redrawn as
 * the pools republish.
 */
@Command(name = "transfers", mixinStandardHelpOptions = true,
        description = "Show the transfers in progress at every pool, with a progress bar each (as the door's status page).")
final class TransfersCommand extends ZkAdminCommand {
    /** How often --watch redraws: the pools republish their records every 2 s. */
    static final Duration REFRESH = Duration.ofSeconds(2);
    private static final Duration FIRST_READ = Duration.ofSeconds(20);
    /** Clears a terminal and puts the cursor home (ANSI). */
    private static final String CLEAR = "\u001b[H\u001b[2J";

    @Option(names = "--watch", description = "Redraw every 2 s until interrupted (Ctrl-C), as top does.")
    boolean watch;

    @Option(names = "--count", paramLabel = "N",
            description = "With --watch: stop after N screens (default: run until interrupted).")
    Integer count;

    @Override
    void validate() {
        if (count != null && (count < 1 || !watch)) {
            throw new IllegalArgumentException("--count needs --watch and at least 1");
        }
    }

    @Override
    int run(CuratorFramework client) throws Exception {
        PrintStream out = System.out;
        boolean terminal = System.console() != null;
        try (PoolDirectory pools = new PoolDirectory(client).start(FIRST_READ)) {
            for (int screen = 1; ; screen++) {
                List<PoolRecord> live = pools.live();
                String text = TransferScreen.render(TransferList.of(live, System.currentTimeMillis()), live.size());
                out.print(watch && terminal ? CLEAR + text : text);
                out.flush();
                if (!watch || count != null && screen >= count) {
                    return 0;
                }
                if (!terminal) {
                    out.println();
                }
                Thread.sleep(REFRESH.toMillis());
            }
        }
    }
}
