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
    void aBearerSchemeInAnyCaseGoesOnAsBearerItsTokenUntouched() {
        for (String scheme : new String[] {"bearer", "BEARER", "Bearer"}) {
            assertEquals(Map.of("Authorization", "Bearer MDAxY2xvY2F0aW9uIGJ"),
                    TransferHeaders.of(new DefaultHttpHeaders().add("TransferHeaderAuthorization", scheme + " MDAxY2xvY2F0aW9uIGJ")), scheme);
        }
        assertEquals(Map.of("Authorization", "Basic YTpi", "X-Note", "bearer x"), TransferHeaders.of(new DefaultHttpHeaders()
                .add("TransferHeaderAuthorization", "Basic YTpi").add("TransferHeaderX-Note", "bearer x")));
        assertEquals(Map.of("Authorization", "Bearers x"),
                TransferHeaders.of(new DefaultHttpHeaders().add("TransferHeaderAuthorization", "Bearers x")));
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
