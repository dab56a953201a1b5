package org.gridcache.common.transfer;

import org.gridcache.common.Json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TransferRecordTest {
    @Test
    void theStreamedLineIsTheMappersText() {
        TransferRecord[] records = {
            new TransferRecord("2026-11-24T01:00:00.123Z", "pool", "p1", "/DC=org/CN=Alice \"A\" \\ é", null, "127.0.0.1",
                    "GET", "/atlas/a\nb.root", 5939, 3, TransferRecord.HIT, 0, 200, true, "p1"),
            new TransferRecord("t", "door", "d1", null, "atlas", null, "COPY", "/x", Long.MAX_VALUE, 0, null, -1, 0, false, null),
            new TransferRecord("", "pool", "p\u0001\t2", "token https://iss/ \u2192 jti", "cms", "::1", "GET", "/a/\u007f/</b>",
                    0, Long.MIN_VALUE, TransferRecord.MISS, 7, 206, true, "p2", "token https://iss/ sha256:\u00e9\ud83d\ude00"),
        };
        for (TransferRecord r : records) {
            assertEquals(Json.string(r), r.toJson(), "same fields, order, escaping and nulls as the mapper writes");
        }
    }
}
