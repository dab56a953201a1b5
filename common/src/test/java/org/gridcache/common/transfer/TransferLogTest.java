package org.gridcache.common.transfer;

import org.gridcache.common.Json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class TransferLogTest {
    private static TransferRecord record(String thread, int n) {
        return new TransferRecord("2026-11-24T00:00:00Z", "pool", "p1", null, null, "127.0.0.1", "GET",
                "/" + thread + "/" + n, n, 1, TransferRecord.HIT, 0, 200, true, "p1");
    }

    private static List<String> lines(ListAppender<ILoggingEvent> events) {
        return List.copyOf(events.list).stream().flatMap(e -> e.getFormattedMessage().lines()).toList();
    }

    @Test
    void queuedRecordsReachTheLoggerALineEachInTheOrderEachThreadWroteThem() throws Exception {
        Logger transfers = (Logger) LoggerFactory.getLogger(TransferLog.LOGGER);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        transfers.addAppender(events);
        try {
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String name = "t" + t;
                Thread w = new Thread(() -> {
                    for (int n = 0; n < 2_000; n++) {
                        TransferLog.write(record(name, n));
                    }
                });
                w.start();
                writers.add(w);
            }
            for (Thread w : writers) {
                w.join();
            }
            // no flush asked: the batching thread alone must bring every record, without a further write to wake it
            await().atMost(Duration.ofSeconds(10)).until(() -> lines(events).size() >= 8_000);
            List<String> lines = lines(events);
            assertEquals(8_000, lines.size());
            assertTrue(events.list.size() < 8_000, "several records to a logging event: " + events.list.size());
            int[] next = new int[4];
            for (String line : lines) {
                String[] path = ((String) Json.mapper().readValue(line, Map.class).get("path")).split("/");
                int thread = Integer.parseInt(path[1].substring(1));
                assertEquals(next[thread]++, Integer.parseInt(path[2]), "records of one thread in order");
            }
        } finally {
            transfers.detachAppender(events);
        }
    }

}
