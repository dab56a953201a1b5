package org.gridcache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridcache.cli.config.ConfigError;
import org.gridcache.cli.config.ConfigFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConfigFilesTest {
    @TempDir
    Path dir;

    @AfterEach
    void noDefaultDirectory() {
        System.clearProperty(GridcacheCli.CONF_DIR);
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private String refusal(String... args) {
        return assertThrows(ConfigError.class, () -> GridcacheCli.commandLine(args, GridcacheCli.configFile(args))).getMessage();
    }

    @Test
    void anUnknownKeyIsRefusedWithItsLineAndTheClosestKey() throws IOException {
        Path conf = file("door.conf", "# the door\nzk=127.0.0.1:2181\n\nportt=2880\n");
        assertEquals(conf + ":4: no option reads 'portt' (did you mean 'port'?)", refusal("door", "--config", conf.toString()));
        Path qualified = file("pool.conf", "pool.capacty=1G\n");
        assertEquals(qualified + ":1: no option reads 'pool.capacty' (did you mean 'pool.capacity'?)",
                refusal("pool", "--config=" + qualified));
        Path far = file("far.conf", "ticket-key=/etc/gridcache/ticket.key\n");
        assertEquals(far + ":1: no option reads 'ticket-key'", refusal("door", "--config", far.toString()));
    }

    @Test
    void aValueTheOptionCannotTakeIsRefusedWithItsLine() throws IOException {
        Path port = file("door.conf", "zk=127.0.0.1:2181\nport=http\n");
        assertEquals(port + ":2: port=http: Invalid value for option '--port': 'http' is not an int",
                refusal("door", "--config", port.toString()));
        Path flag = file("pool.conf", "plain-http=yes\n");
        assertEquals(flag + ":1: plain-http=yes: Invalid value for option '--plain-http': 'yes' is not a boolean",
                refusal("pool", "--config", flag.toString()));
        Path duration = file("pool2.conf", "\\\n  max-ticket-lifetime = \\\n    10 minutes\n");
        String message = refusal("pool", "--config", duration.toString());
        assertEquals(duration + ":1: max-ticket-lifetime=10 minutes: ", message.substring(0, message.indexOf(": ", message.indexOf("=")) + 2));
        Path size = file("pool3.conf", "capacity=lots\n");
        assertEquals(size + ":1: capacity=lots: ", refusal("pool", "--config", size.toString()).substring(0, (size + ":1: capacity=lots: ").length()));
    }

    @Test
    void aKeySetTwiceIsRefused() throws IOException {
        Path conf = file("door.conf", "port=2880\nbind=0.0.0.0\nport=2881\n");
        assertEquals(conf + ":3: 'port' is set again (first on line 1)", refusal("door", "--config", conf.toString()));
    }

    @Test
    void aMissingFileIsRefused() {
        assertEquals("--config " + dir.resolve("none.conf") + ": no such file", refusal("door", "--config", dir.resolve("none.conf").toString()));
    }

    @Test
    void flagsWinOverTheFileAndTheCommandsKeyOverTheSharedOne() throws IOException {
        Path conf = file("shared.conf", "port=1111\npool.port=2222\nsite=cern\n");
        String[] args = {"pool", "--config", conf.toString(), "--name", "p", "--store", "s", "--capacity", "1G", "--site", "desy"};
        CommandLine cli = GridcacheCli.commandLine(args, GridcacheCli.configFile(args));
        CommandLine pool = cli.getSubcommands().get("pool");
        cli.parseArgs(args);
        assertEquals(2222, pool.getCommandSpec().findOption("port").<Integer>getValue());
        assertEquals("desy", pool.getCommandSpec().findOption("site").<String>getValue());
        String[] door = {"door", "--config", conf.toString()};
        CommandLine doorCli = GridcacheCli.commandLine(door, GridcacheCli.configFile(door));
        doorCli.parseArgs(door);
        assertEquals(1111, doorCli.getSubcommands().get("door").getCommandSpec().findOption("port").<Integer>getValue());
    }

    @Test
    void theRolesFileIsReadByDefaultOnlyWhereTheConfigurationDirectoryIsSet() throws IOException {
        file("door.conf", "port=3333\n");
        Path other = file("other.conf", "port=4444\n");
        assertNull(GridcacheCli.configFile(new String[] {"door"}));
        System.setProperty(GridcacheCli.CONF_DIR, dir.toString());
        assertEquals("3333", GridcacheCli.configFile(new String[] {"door"}).get("port").value());
        assertEquals("3333", GridcacheCli.configFile(new String[] {"check-config", "door"}).get("port").value());
        assertEquals("4444", GridcacheCli.configFile(new String[] {"door", "--config", other.toString()}).get("port").value());
        assertNull(GridcacheCli.configFile(new String[] {"pool"}));
        ConfigFile read = GridcacheCli.configFile(new String[] {"door"});
        assertEquals(dir.resolve("door.conf") + ":1", read.get("port").where());
    }
}
