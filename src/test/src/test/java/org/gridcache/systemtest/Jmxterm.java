package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;

/**
 * jmxterm ({@code org.cyclopsgroup:jmxterm}, fetched by Maven into target/tools), driven as an admin types it: a
 * script of commands on standard input, in non-interactive mode. Every session is appended to a transcript file.
 */
final class Jmxterm {
    static final Path JAR = Path.of(System.getProperty("gridcache.jmxterm", "target/tools/jmxterm.jar"));
    private final String hostPort;
    private final Path transcript;
    private final List<String> login = new ArrayList<>();

    Jmxterm(String hostPort, Path transcript) {
        Assertions.assertTrue(Files.isReadable(JAR), "no jmxterm at " + JAR + " (mvn generate-test-resources fetches it)");
        this.hostPort = hostPort;
        this.transcript = transcript;
    }

    Jmxterm as(String user, String password) {
        login.addAll(List.of("-u", user, "-p", password));
        return this;
    }

    /** Runs the commands in one session; returns what jmxterm printed (stdout and stderr). */
    String session(String... commands) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString(), "-l", hostPort, "-n", "-v", "brief"));
        cmd.addAll(login);
        String script = String.join("\n", commands) + "\nquit\n";
        Tools.Result r = Tools.runWithInput(Duration.ofSeconds(90), script, cmd.toArray(String[]::new));
        String out = r.out() + r.err();
        try {
            Files.writeString(transcript, "$ java -jar jmxterm.jar -l " + hostPort + " -n -v brief" + (login.isEmpty() ? "" : " -u … -p …")
                    + "\n" + script.lines().map(l -> "> " + l).reduce("", (a, b) -> a + b + "\n") + out + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out;
    }
}
