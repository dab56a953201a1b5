package org.gridcache.pool.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** TransferHeader&lt;Name&gt; headers become &lt;Name&gt; on the pool's request to the remote. */
class TransferHeadersTest {

    @Test
    void prefixedHeadersArePassedOnWithoutThePrefixOthersNot() {
        HttpHeaders h = new DefaultHttpHeaders().add("TransferHeaderAuthorization", "Bearer abc")
                .add("transferheaderX-Trace", "1").add("Authorization", "Bearer mine").add("Source", "https://r/f")
                .add("TransferHeaderX-Multi", "a").add("TransferHeaderX-Multi", "b");
        assertEquals(Map.of("Authorization", "Bearer abc", "X-Trace", "1", "X-Multi", "a, b"), TransferHeaders.of(h));
    }

    @Test
    void framingAndTargetHeadersAreRefused() {
        for (String name : new String[] {"TransferHeaderHost", "TransferHeaderContent-Length", "TransferHeaderConnection",
                "TransferHeaderTransfer-Encoding", "TransferHeader"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TransferHeaders.of(new DefaultHttpHeaders().add(name, "x")), name);
            assertTrue(e.getMessage().contains("TransferHeader"), e.getMessage());
        }
    }
}
