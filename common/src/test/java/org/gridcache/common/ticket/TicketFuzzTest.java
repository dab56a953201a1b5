package org.gridcache.common.ticket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;

/**
 * Ticket decoding (issue 15, R8): a pool given any string as a ticket, or a ticket the trusted door signed over any
 * claims, either admits a ticket or refuses it with {@link TicketException} (a 403 with a reason) — never another
 * exception, which would be a 500. CI replays the corpus; {@code bench/fuzz.sh} fuzzes.
 */
class TicketFuzzTest {
    private static final Clock NOW = Clock.fixed(Instant.ofEpochSecond(1_000_000), ZoneOffset.UTC);
    private static final TicketSigningKey DOOR = TicketSigningKey.generate();
    private static final TicketCodec POOL = new TicketCodec(null, TicketKeys.of("door1", List.of(DOOR)),
            TicketCodec.DEFAULT_MAX_LIFETIME, NOW);
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    @FuzzTest
    void anyTicketIsAdmittedOrRefusedWithAReason(FuzzedDataProvider data) {
        String token;
        if (data.consumeBoolean()) {
            // the door's signature over claims the fuzzer writes: the claim decoding is what is tried
            String header = B64.encodeToString(("{\"alg\":\"EdDSA\",\"kid\":\"" + DOOR.kid() + "\"}").getBytes(StandardCharsets.UTF_8));
            String payload = B64.encodeToString(data.consumeRemainingAsBytes());
            String input = header + "." + payload;
            token = input + "." + B64.encodeToString(DOOR.sign(input.getBytes(StandardCharsets.US_ASCII)));
        } else {
            token = data.consumeRemainingAsString();
        }
        try {
            Ticket t = POOL.verify(token);
            assertEquals(t, POOL.verify(token), "a ticket admitted once is the same ticket the second time");
        } catch (TicketException refused) {
            // the 403 a pool answers
        }
    }
}
