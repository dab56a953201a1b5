"""Tests of bench/report.py (python3 -m unittest discover -s bench -p 'test_*.py'): how results become the table's
rows and verdicts, and how the BENCHMARKS.md section is replaced. No benchmark runs here."""
import os
import tempfile
import unittest

import report

HEADER = "measure,subject,role,round,value,unit,params\n"


def table_of(rows):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "results.csv")
        with open(path, "w") as f:
            f.write(HEADER + "".join(r + "\n" for r in rows))
        body, plotted = report.table(report.load(path))
    return [line for line in body.splitlines()[2:]], plotted


def cells(line):
    return [c.strip() for c in line.strip("|").split(" | ")]


class TableTest(unittest.TestCase):
    def test_the_median_of_the_rounds_against_every_reference(self):
        lines, plotted = table_of([
            "hot-single,nginx sendfile,reference,1,2000,MB/s,1024 MiB",
            "hot-single,nginx sendfile,reference,2,3000,MB/s,1024 MiB",
            "hot-single,nginx sendfile,reference,3,2500,MB/s,1024 MiB",
            "hot-single,varnish,reference,1,2000,MB/s,1024 MiB",
            "hot-single,pool,gridcache,1,2600,MB/s,1024 MiB",
            "hot-single,pool,gridcache,2,9999,MB/s,1024 MiB",
            "hot-single,pool,gridcache,3,2500,MB/s,1024 MiB",
        ])
        row = cells(lines[0])
        self.assertIn("median of 3", row[0])
        self.assertEqual("2,600 MB/s (pool)", row[1])
        self.assertEqual("1.04× nginx sendfile, 1.30× varnish", row[3])
        self.assertEqual("**yes**", row[5])
        self.assertEqual(2, len(plotted))

    def test_below_one_reference_is_not_met(self):
        lines, _ = table_of([
            "cold-miss,xcache,reference,1,600,MB/s,256 MiB",
            "cold-miss,nginx proxy_cache,reference,1,300,MB/s,256 MiB",
            "cold-miss,gridcache,gridcache,1,400,MB/s,256 MiB",
        ])
        self.assertEqual("no", cells(lines[0])[5])

    def test_the_goal_is_judged_for_its_subject_only(self):
        lines, _ = table_of([
            "hot-single,nginx sendfile,reference,1,1000,MB/s,1 GiB",
            "hot-single,gridcache,gridcache,1,500,MB/s,1 GiB",
            "hot-single,pool,gridcache,1,1100,MB/s,1 GiB",
        ])
        self.assertEqual("—", cells(lines[0])[5])
        self.assertEqual("**yes**", cells(lines[1])[5])

    def test_a_failed_round_or_failed_requests_fail_the_goal(self):
        lines, _ = table_of([
            "hot-aggregate,varnish,reference,1,1000,MB/s,100 x 64 MiB",
            "hot-aggregate,gridcache,gridcache,1,2000,MB/s,100 x 64 MiB",
            "hot-aggregate-errors,gridcache,info,1,3,requests,100 x 64 MiB",
            "small-files,nginx sendfile,reference,1,1000,req/s,x",
            "small-files,pool,gridcache,1,ERR,req/s,x",
        ])
        self.assertEqual("no (errors)", cells(lines[0])[5])
        self.assertIn("3 failed requests", cells(lines[0])[1])
        self.assertEqual("no (errors)", cells(lines[1])[5])
        self.assertIn("1 failed", cells(lines[1])[1])

    def test_the_best_reference_counts_for_the_aggregate(self):
        lines, _ = table_of([
            "hot-aggregate,nginx sendfile,reference,1,1000,MB/s,a",
            "hot-aggregate,varnish,reference,1,3000,MB/s,a",
            "hot-aggregate,gridcache,gridcache,1,2000,MB/s,a",
        ])
        self.assertEqual("no", cells(lines[0])[5])

    def test_times_are_judged_lower_is_better(self):
        lines, _ = table_of([
            "shaped-total,nginx sendfile (direct),reference,1,5.0,s,512 MiB",
            "shaped-total,gridcache,gridcache,1,5.05,s,512 MiB",
            "shaped-first-byte,nginx sendfile (direct),reference,1,0.002,s,512 MiB",
            "shaped-first-byte,gridcache after the redirect,gridcache,1,0.015,s,512 MiB",
        ])
        self.assertEqual("**yes**", cells(lines[0])[5])  # 1.01× <= 1.02×
        self.assertEqual("no", cells(lines[1])[5])  # +13 ms > +10 ms
        self.assertIn("+13.0 ms", cells(lines[1])[3])

    def test_the_sparse_read_goals(self):
        lines, _ = table_of([
            "sparse-fetched,gridcache,gridcache,1,4.10,%,1G 4 % in scattered ranges",
            "sparse-hot-vs-cold,gridcache,gridcache,1,80,x,1G 4 % in scattered ranges",
        ])
        self.assertEqual(["**yes**", "no"], [cells(line)[5] for line in lines])

    def test_absolute_goals(self):
        lines, _ = table_of([
            "door-redirects,gridcache door,gridcache,1,55000,req/s,wrk",
            "metadata-per-file,StoreIndexFootprint,gridcache,1,199.4,B,1000000 entries",
            "selection-p99,affinity,gridcache,1,21.5,µs/op,SampleTime",
        ])
        verdicts = {cells(line)[0].split(" (")[0]: cells(line)[5] for line in lines}
        self.assertEqual("**yes**", verdicts["door redirects"])
        self.assertEqual("**yes**", verdicts["metadata per cached file"])
        self.assertEqual("no", verdicts["pool selection p99, 1,000 pools, JMH"])

    def test_cpu_per_gib_is_judged_lower_hot_against_varnish_and_cold_against_every_cache(self):
        lines, _ = table_of([
            "cpu-hot,gridcache,gridcache,1,0.15,s/GiB,100 x 64 MiB",
            "cpu-hot,nginx sendfile,reference,1,0.10,s/GiB,100 x 64 MiB",
            "cpu-hot,varnish,reference,1,0.20,s/GiB,100 x 64 MiB",
            "cpu-cold,gridcache,gridcache,1,1.2,s/GiB,256 MiB",
            "cpu-cold,nginx proxy_cache,reference,1,0.8,s/GiB,256 MiB",
        ])
        verdicts = {cells(line)[0].split(" (")[0]: cells(line)[5] for line in lines}
        self.assertEqual("**yes**", verdicts["CPU seconds per GiB served, hot aggregate"], "0.75x Varnish, nginx not judged")
        self.assertEqual("no", verdicts["CPU seconds per GiB, cold miss"], "1.5x nginx proxy_cache")

    def test_push_is_judged_on_a_cached_file_only(self):
        lines, _ = table_of([
            "tpc-push,direct copy (curl piped to curl -T),reference,1,300,MB/s,1G",
            "tpc-push,push-miss,gridcache,1,120,MB/s,1G",
            "tpc-push,push-hit,gridcache,2,600,MB/s,1G",
        ])
        verdicts = [cells(line)[5] for line in lines]
        self.assertIn("**yes**", verdicts)
        self.assertNotIn("no", verdicts, "a push on a miss has no goal")

    def test_the_client_leg_is_shown_beside_globus_url_copy_unjudged_after_the_miss(self):
        lines, plotted = table_of([
            "gridftp-client-leg,globus-url-copy,reference,1,1000,MB/s,256 MiB 1 stream(s)",
            "gridftp-client-leg,gridcache hit,gridcache,1,800,MB/s,256 MiB 1 stream(s)",
            "gridftp-client-leg,nginx HTTPS,info,1,900,MB/s,256 MiB 1 stream(s)",
            "gridftp-miss,globus-url-copy,reference,1,1000,MB/s,256 MiB 1 stream(s)",
            "gridftp-miss,gridcache,gridcache,1,500,MB/s,256 MiB 1 stream(s)",
        ])
        self.assertIn("GridFTP miss", cells(lines[0])[0])
        hit, nginx = cells(lines[1]), cells(lines[2])
        self.assertIn("client's leg alone", hit[0])
        self.assertEqual(("800 MB/s (gridcache hit)", "0.80× globus-url-copy", "—"), (hit[1], hit[3], hit[5]))
        self.assertEqual(("900 MB/s (nginx HTTPS)", "0.90× globus-url-copy", "—"), (nginx[1], nginx[3], nginx[5]))
        self.assertEqual(1, len(plotted), "only the miss's ratio is plotted against its goal")

    def test_the_unverified_miss_is_shown_right_after_the_judged_one_unjudged(self):
        lines, plotted = table_of([
            "gridftp-miss-unverified,globus-url-copy,reference,1,1000,MB/s,256 MiB 1 stream(s)",
            "gridftp-miss-unverified,gridcache with gridftp.checksum none,gridcache,1,850,MB/s,256 MiB 1 stream(s)",
            "gridftp-miss,globus-url-copy,reference,1,1000,MB/s,256 MiB 1 stream(s)",
            "gridftp-miss,gridcache,gridcache,1,700,MB/s,256 MiB 1 stream(s)",
        ])
        miss, unverified = cells(lines[0]), cells(lines[1])
        self.assertEqual(("0.70× globus-url-copy", "no"), (miss[3], miss[5]))
        self.assertIn("like for like", unverified[0])
        self.assertEqual(("850 MB/s (gridcache with gridftp.checksum none)", "0.85× globus-url-copy", "—"),
                         (unverified[1], unverified[3], unverified[5]))
        self.assertEqual(1, len(plotted), "only the judged miss is plotted against its goal")

    def test_the_cores_estimate_is_shown_after_the_client_leg_unjudged(self):
        lines, plotted = table_of([
            "gridftp-ceiling,the cores' estimate,info,1,0.84,x,256 MiB 1 stream(s)",
            "gridftp-ceiling,the cores' estimate,info,2,0.90,x,256 MiB 1 stream(s)",
            "gridftp-client-leg,gridcache hit,gridcache,1,800,MB/s,256 MiB 1 stream(s)",
        ])
        leg, ceiling = cells(lines[0]), cells(lines[1])
        self.assertIn("client's leg alone", leg[0])
        self.assertIn("what the cores allow", ceiling[0])
        self.assertEqual(("0.87 x (the cores' estimate)", "—", "—"), (ceiling[1], ceiling[3], ceiling[5]))
        self.assertEqual([], plotted)

    def test_an_unknown_measure_is_shown_not_judged_and_pipes_are_escaped(self):
        lines, _ = table_of([
            "upload-share,gridcache,gridcache,1,4.2,%,1 GiB",
            "tpc-pull,direct copy (curl | curl -T),reference,1,400,MB/s,1G",
            "tpc-pull,pull,gridcache,1,200,MB/s,1G",
        ])
        other = next(line for line in lines if "upload share" in line)
        copy = next(line for line in lines if "copy, pull" in line)
        self.assertEqual("—", cells(other)[5])
        self.assertIn("4.20 %", cells(other)[1])
        self.assertIn("curl \\| curl -T", copy)
        self.assertEqual(6, len(copy.replace("\\|", "").strip("|").split("|")))


class BenchmarksSectionTest(unittest.TestCase):
    def test_the_section_between_the_markers_is_replaced_and_the_rest_kept(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "BENCHMARKS.md")
            with open(path, "w") as f:
                f.write(f"# Title\n\nintro\n\n{report.BEGIN}\nold table\n{report.END}\n\nafter\n")
            report.update_benchmarks(path, "new table", os.path.join(d, "bench/results/x"))
            text = report.read(path)
        self.assertIn("intro", text)
        self.assertIn("new table", text)
        self.assertNotIn("old table", text)
        self.assertIn("after", text)
        self.assertEqual(1, text.count(report.BEGIN))

    def test_a_file_without_markers_gets_the_section_appended(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "BENCHMARKS.md")
            with open(path, "w") as f:
                f.write("# Title\n")
            report.update_benchmarks(path, "table", d)
            text = report.read(path)
        self.assertTrue(text.startswith("# Title\n"))
        self.assertIn(report.BEGIN, text)
        self.assertIn(report.END, text)


class ImportJmhTest(unittest.TestCase):
    def test_the_store_hit_path_is_reported_per_thread_for_each_thread_count(self):
        with tempfile.TemporaryDirectory() as d:
            for t, score in ((1, "2000000,5"), (4, "6000000.0")):
                with open(os.path.join(d, f"jmh-store-t{t}.csv"), "w") as f:
                    f.write('"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: files"\n')
                    f.write(f'"org.gridcache.pool.store.StoreHitBenchmark.hit","thrpt",{t},5,"{score}","1","ops/s",1024\n')
            report.import_jmh(type("Args", (), {"dir": d}))
            with open(os.path.join(d, "results.csv")) as f:
                rows = [line.split(",") for line in f.read().splitlines()]
        self.assertEqual([["store-hit-per-thread", "1024 files", "gridcache", "1", "2000000", "ops/s", "1 thread"],
                          ["store-hit-per-thread", "1024 files", "gridcache", "1", "1500000", "ops/s", "4 threads"]],
                         rows)


if __name__ == "__main__":
    unittest.main()
