package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSetupTest {
    @TempDir
    Path tmp;

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
    void eachProcessLogsToAFileNamedAfterIt() {
        assertEquals("pool-p1", LogSetup.processName(new String[] {"pool", "--config", "c", "--name", "p1"}, null));
        assertEquals("door-2881", LogSetup.processName(new String[] {"door", "--port=2881"}, null));
        assertEquals("zk", LogSetup.processName(new String[] {"zk", "--home", "h"}, null));
        // three members of an ensemble on one host, one log directory: one file each, not three writers on one
        assertEquals("zk-2", LogSetup.processName(new String[] {"zk", "--ensemble", "a:1:2:3,b:1:2:3,c:1:2:3", "--id", "2"}, null));
        assertEquals("zk-3", LogSetup.processName(new String[] {"zk", "--config", "c"}, config("zk.id", "3")));
        assertEquals("admin", LogSetup.processName(new String[] {"origins", "list"}, null));
    }

    @Test
    void transferRecordsOfADoorOrPoolAreNamedAfterTheProcess() {
        assertEquals("/l/transfers-pool-p1.jsonl", LogSetup.transfersFile("pool", "/l", "pool-p1"));
        assertEquals("/l/transfers.jsonl", LogSetup.transfersFile("standalone", "/l", "standalone"));
        assertEquals("/dev/null", LogSetup.transfersFile("origins", "/l", "admin"));
    }

    @Test
    void theProcesssLogsAndTransferRecordsAnEarlierVersionLeft0644AreNarrowedTo0640() throws Exception {
        String[] names = {"door-2880.log", "door-2880.2026-12-06.0.log.gz", "transfers-door-2880.jsonl",
                "transfers-door-2880.jsonl.2026-12-06.0.gz", "pool-p1.log"};
        for (String name : names) {
            Files.setPosixFilePermissions(Files.writeString(tmp.resolve(name), "x"), PosixFilePermissions.fromString("rw-rw-rw-"));
        }
        LogSetup.narrowExisting(tmp, "door-2880.", "transfers-door-2880.jsonl");
        for (int i = 0; i < 4; i++) {
            assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve(names[i]))), names[i]);
        }
        assertEquals("rw-rw-rw-", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("pool-p1.log"))),
                "another process's file is its own business");
    }
}
