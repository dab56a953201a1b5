package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PropertiesDefaultsTest {
    @Test
    void keysNoOptionReadsAreNamedAndKnownOnesAreNot() {
        Properties file = new Properties();
        file.setProperty("zk", "127.0.0.1:2181");              // an option of several commands
        file.setProperty("pool.capacity", "1G");               // qualified by its command
        file.setProperty("door.pool-identity", "/CN=pool");
        file.setProperty("ticket-key", "/etc/gridcache/ticket.key"); // an option this version no longer has
        file.setProperty("pool.capacty", "1G");                // a misspelling
        file.setProperty("nosuchcommand.port", "1");
        CommandLine cli = new CommandLine(new GridcacheCli());
        assertEquals(List.of("nosuchcommand.port", "pool.capacty", "ticket-key"), new PropertiesDefaults(file).unknownKeys(cli));
    }
}
