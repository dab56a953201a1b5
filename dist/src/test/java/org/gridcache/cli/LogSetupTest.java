package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class LogSetupTest {
    private static Properties config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void theConfigFilesLogDirIsUsedWhenTheCommandLineHasNone() {
        // a pool started with --config only used to log to <dist>/logs whatever the file said
        String[] args = {"pool", "--config", "c.properties", "--name", "p1"};
        assertEquals("/var/log/gc", LogSetup.value(args, config("log-dir", "/var/log/gc"), "pool", "--log-dir"));
        assertEquals("/var/log/pools", LogSetup.value(args, config("log-dir", "/var/log/gc", "pool.log-dir", "/var/log/pools"),
                "pool", "--log-dir"));
        assertEquals("p1", LogSetup.value(args, config("name", "other"), "pool", "--name"), "the command line wins");
    }

    @Test
    void withoutAConfigFileOnlyTheCommandLineCounts() {
        assertEquals("/l", LogSetup.value(new String[] {"door", "--log-dir=/l"}, null, "door", "--log-dir"));
        assertNull(LogSetup.value(new String[] {"door"}, null, "door", "--log-dir"));
        assertNull(LogSetup.value(new String[] {"door"}, config("door.port", "1"), "door", "--log-dir"));
    }

    @Test
    void transferRecordsOfADoorOrPoolAreNamedAfterTheProcess() {
        assertEquals("/l/transfers-pool-p1.jsonl", LogSetup.transfersFile("pool", "/l", "pool-p1"));
        assertEquals("/l/transfers.jsonl", LogSetup.transfersFile("standalone", "/l", "standalone"));
        assertEquals("/dev/null", LogSetup.transfersFile("origins", "/l", "admin"));
    }
}
