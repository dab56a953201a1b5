package org.gridcache.pool.mover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.cluster.PoolRecord;
import org.junit.jupiter.api.Test;

class ActiveTransfersTest {
    @Test
    void aTransferIsListedWithItsProgressUntilItEnds() {
        ActiveTransfers transfers = new ActiveTransfers();
        AtomicLong moved = new AtomicLong();
        AtomicReference<String> kind = new AtomicReference<>(ActiveTransfer.MISS);
        ActiveTransfers.Transfer t = transfers.begin(kind::get, null, "/data/f.bin", 100, moved::get);
        moved.set(40);
        kind.set(ActiveTransfer.PEER);
        ActiveTransfer listed = transfers.snapshot().get(0);
        assertEquals(ActiveTransfer.PEER, listed.kind(), "asked again at each snapshot");
        assertEquals("anonymous", listed.subject());
        assertEquals("/data/f.bin", listed.path());
        assertEquals(40, listed.bytes());
        assertEquals(100, listed.size());
        assertTrue(listed.startedAt() <= System.currentTimeMillis());
        t.end();
        t.end();
        assertEquals(List.of(), transfers.snapshot());
    }

    @Test
    void theRecordListsTheLongestRunningWithinItsBound() {
        ActiveTransfers transfers = new ActiveTransfers();
        List<ActiveTransfers.Transfer> begun = new ArrayList<>();
        for (int i = 0; i < PoolRecord.MAX_TRANSFERS + 10; i++) {
            begun.add(transfers.begin(ActiveTransfer.HIT, null, "/f" + i, 1, () -> 0));
        }
        List<ActiveTransfer> listed = transfers.snapshot();
        assertEquals(PoolRecord.MAX_TRANSFERS, listed.size());
        assertEquals("/f0", listed.get(0).path());
        begun.forEach(ActiveTransfers.Transfer::end);
        assertEquals(0, transfers.snapshot().size());
    }
}
