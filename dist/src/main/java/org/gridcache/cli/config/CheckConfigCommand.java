package org.gridcache.cli.config;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.gridcache.cli.config.ConfigFile.Entry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code gridcache check-config ROLE [OPTION…]}: the configuration ROLE would start with (from its flags, its
 * {@code --config} file or the default one, and the built-in defaults), each value with where it came from, then
 * what can be checked before starting ({@link PreStartChecks}), one verdict a line. Exits 1 on any failure.
 */
@Command(name = CheckConfigCommand.NAME, mixinStandardHelpOptions = true,
        description = "Print the configuration ROLE would start with, each value with its source (flag, file:line, "
                + "default), and check what can be checked before starting: certificate and key, CA directory, ports, "
                + "directories, ZooKeeper. Exits 1 on any failure.",
        footer = {"", "Examples:", "  gridcache check-config door", "  gridcache check-config pool --config /etc/gridcache/pool-a.conf --name a"})
public final class CheckConfigCommand implements Callable<Integer> {
    public static final String NAME = "check-config";
    private static final List<String> ROLES = List.of("zk", "door", "pool", "standalone");

    @Parameters(index = "0", paramLabel = "ROLE", description = "zk, door, pool or standalone.")
    String role;

    @Unmatched
    List<String> options = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!ROLES.contains(role)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "no role '" + role + "' (" + String.join(", ", ROLES) + ")");
        }
        CommandLine command = spec.parent().commandLine().getSubcommands().get(role);
        List<PreStartChecks.Verdict> verdicts = new ArrayList<>();
        try {
            command.parseArgs(options.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            verdicts.add(PreStartChecks.Verdict.fail("options", e.getMessage()));
        }
        ConfigDefaults file = command.getDefaultValueProvider() instanceof ConfigDefaults d ? d : null;
        var out = spec.commandLine().getOut();
        out.println("# gridcache " + role + (file != null ? " with " + file.file().file() : " (no configuration file)"));
        for (OptionSpec option : command.getCommandSpec().options()) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            String line = ConfigDefaults.key(option) + "=" + text(option.getValue());
            out.printf("%-60s # %s%n", line, source(option, file));
        }
        verdicts.addAll(new PreStartChecks(role, command.getCommandSpec()).run());
        out.println("# checks (as " + System.getProperty("user.name") + ")");
        verdicts.forEach(v -> out.println(v));
        return verdicts.stream().allMatch(PreStartChecks.Verdict::ok) ? 0 : 1;
    }

    private String source(OptionSpec option, ConfigDefaults file) {
        for (String name : option.names()) {
            if (options.stream().anyMatch(a -> a.equals(name) || a.startsWith(name + "="))) {
                return "flag " + name;
            }
        }
        Entry entry = file != null ? file.entryFor(option) : null;
        return entry != null ? entry.where() : "default";
    }

    private static String text(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        return value != null ? value.toString() : "";
    }
}
