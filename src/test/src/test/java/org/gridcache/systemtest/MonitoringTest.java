package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard and the Prometheus rules the distribution ships ({@code monitoring/}): every metric they name
 * is on a door's or a pool's {@code /.gridcache/metrics} after a miss and a hit, and {@code promtool} accepts the rules.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MonitoringTest {
    static final Path DASHBOARD = Gridcache.DIST.resolve("monitoring/gridcache-dashboard.json");
    static final Path RULES = Gridcache.DIST.resolve("monitoring/gridcache-alerts.yml");
    /** PromQL's words that are neither a function nor a metric. */
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "inf", "nan");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\\s*\\()");
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "promtool");
        Path data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("watched.bin"), 1 << 20, 41);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void promtoolAcceptsTheRules() {
        Tools.Result check = Tools.run(Duration.ofSeconds(60), "promtool", "check", "rules", RULES.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("SUCCESS"), check.out());
    }

    @Test
    void everyMetricTheDashboardAndTheRulesNameIsOnTheDoorsOrThePoolsMetrics() throws Exception {
        String pool = URI.create(gridcache.location("/watched.bin")).resolve("/").toString();
        for (String cache : List.of("MISS", "HIT")) {
            Tools.Result get = Tools.curl("-fL", "-D", "-", "-o", "/dev/null", gridcache.door() + "/watched.bin").assertOk();
            assertTrue(get.out().contains("X-Cache: " + cache), get.out());
        }
        Set<String> exported = new TreeSet<>(exported(Tools.curl("-f", gridcache.door() + "/.gridcache/metrics").assertOk().out()));
        exported.addAll(exported(Tools.curl("-f", pool + ".gridcache/metrics").assertOk().out()));

        Set<String> named = new TreeSet<>();
        dashboardQueries().forEach(q -> named.addAll(metricNames(q)));
        ruleQueries().forEach(q -> named.addAll(metricNames(q)));
        assertTrue(named.containsAll(List.of("gridcache_door_zookeeper_connection", "gridcache_pool_zookeeper_connection",
                "gridcache_pool_watermark_high_ratio", "gridcache_door_pools_live", "gridcache_pool_hits_total",
                "gridcache_door_requests_total")), "what the issue asks for is watched: " + named);
        Set<String> missing = new TreeSet<>(named);
        missing.removeAll(exported);
        assertEquals(Set.of(), missing, "named by the dashboard or the rules, on neither metrics page");
    }

    @Test
    void theDashboardAsksForItsPrometheusOnImport() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertEquals("DS_PROMETHEUS", dashboard.path("__inputs").path(0).path("name").asText());
        for (JsonNode panel : dashboard.path("panels")) {
            if (!"row".equals(panel.path("type").asText())) {
                assertEquals("${DS_PROMETHEUS}", panel.path("datasource").path("uid").asText(), panel.path("title").asText());
            }
        }
    }

    /** The metric names on a Prometheus text page. */
    static Set<String> exported(String page) {
        Set<String> names = new TreeSet<>();
        page.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(l -> names.add(l.split("[{ ]", 2)[0]));
        return names;
    }

    static List<String> dashboardQueries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> queries = new ArrayList<>();
        for (JsonNode target : dashboard.findValues("targets")) {
            target.forEach(t -> queries.add(t.path("expr").asText()));
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            // label_values(metric, label): the label is no metric
            queries.add(variable.path("query").path("query").asText().replaceAll("label_values\\(([^,)]+),[^)]*\\)", "$1"));
        }
        assertTrue(queries.size() > 20, "the dashboard's queries: " + queries);
        return queries;
    }

    static List<String> ruleQueries() throws IOException {
        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
        List<String> queries = new ArrayList<>();
        for (JsonNode group : rules.path("groups")) {
            group.path("rules").forEach(r -> queries.add(r.path("expr").asText()));
        }
        assertTrue(queries.size() >= 4, "the rules' expressions: " + queries);
        return queries;
    }

    /** The metric names a PromQL expression reads (after Grafana's variables are taken out). */
    static Set<String> metricNames(String promql) {
        String bare = promql.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"") // strings
                .replaceAll("\\{[^}]*}", " ") // label matchers
                .replaceAll("\\[[^]]*]", " ") // ranges
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ") // label lists
                .replaceAll("\\$\\{?\\w+}?", " "); // Grafana's variables
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(bare);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group().toLowerCase(java.util.Locale.ROOT))) {
                names.add(m.group());
            }
        }
        return names;
    }
}
