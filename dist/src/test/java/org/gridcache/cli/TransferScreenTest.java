package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.gridcache.common.cluster.TransferList;
import org.junit.jupiter.api.Test;

class TransferScreenTest {
    @Test
    void theBarFillsInProportionAndShowsAnUnknownSize() {
        assertEquals("[........................]", TransferScreen.bar(0));
        assertEquals("[######..................]", TransferScreen.bar(0.25));
        assertEquals("[########################]", TransferScreen.bar(1));
        assertEquals("[????????????????????????]", TransferScreen.bar(-1));
    }

    @Test
    void eachTransferGetsWhoWhatAndAProgressLine() {
        TransferList list = new TransferList("2026-01-01T00:00:00Z", List.of(new TransferList.Entry("pool1", "miss", "Alice",
                "/data/big.bin", 16L << 20, 64L << 20, 4L << 20, "2026-01-01T00:00:00Z", 4, 12L)));
        String screen = TransferScreen.render(list, 2);
        assertEquals("""
                1 transfer in progress at 2 pools, 2026-01-01T00:00:00Z
                miss   pool1        Alice                /data/big.bin
                       [######..................]  25%  16.0 MiB of 64.0 MiB  4.0 MiB/s  elapsed 0:04  ETA 0:12
                """, screen);
        assertTrue(TransferScreen.render(new TransferList("t", List.of()), 1).startsWith("no transfer in progress at 1 pool"));
    }
}
