#!/usr/bin/env python3
"""bench/run.sh's table, plots and BENCHMARKS.md section, from the results.csv the bench scripts write.

  report.py import-jmh DIR      JMH's CSV (DIR/jmh.csv) and StoreIndexFootprint's output (DIR/footprint.log) as rows
  report.py report DIR [--command C] [--elapsed S] [--mode quick|full] [--benchmarks BENCHMARKS.md]

results.csv: measure,subject,role,round,value,unit,params (see result in bench/lib.sh). A table row is one
(measure, params, gridcache subject): the median of its rounds beside the median of each reference's rounds, the
ratio gridcache / reference, the issue's goal for it and whether this run met it.
"""
import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections import OrderedDict

BEGIN = "<!-- bench/run.sh: begin (generated; edits between these markers are overwritten) -->"
END = "<!-- bench/run.sh: end -->"


class Measure:
    """How one measure is shown and judged. goal: (kind, bound) with kind
    ratio_each (gridcache / every reference >= bound), ratio_best (>= bound against the best reference),
    ratio_le (gridcache / every reference <= bound), diff_le (gridcache - reference <= bound),
    abs_ge / abs_le (the value itself)."""

    def __init__(self, title, goal=None, goal_text="—", subject=None, lower_better=False, errors=None, against=None):
        self.title = title
        self.goal = goal
        self.goal_text = goal_text
        self.subject = subject  # the gridcache subject the goal is about (None: every one)
        self.lower_better = lower_better
        self.errors = errors  # an info measure counting failed requests; any makes the goal unmet
        self.against = against  # the reference the goal is about (None: every one); the others are shown, not judged


MEASURES = OrderedDict([
    ("hot-single", Measure("hot GET, one client", ("ratio_each", 1.0), "P1: ≥ 1.0× nginx sendfile and Varnish",
                           subject="pool")),
    ("hot-single-veth", Measure("hot GET, one client in another network namespace (veth)", ("ratio_each", 1.0),
                                "≥ 1.0× nginx sendfile and Varnish", subject="pool")),
    ("hot-aggregate", Measure("hot aggregate", ("ratio_best", 1.0), "P2: ≥ 1.0× the best reference, 0 errors",
                              errors="hot-aggregate-errors")),
    ("hot-aggregate-https", Measure("hot aggregate over HTTPS", ("ratio_each", 1.0), "P2: ≥ 1.0× nginx HTTPS, 0 errors",
                                    errors="hot-aggregate-https-errors")),
    ("small-files", Measure("small files, pool hit, reused ticket", ("ratio_each", 1.0), "≥ 1.0× nginx")),
    ("small-files-veth", Measure("small files, pool hit, reused ticket, client in another network namespace (veth)",
                                 ("ratio_each", 1.0), "≥ 1.0× nginx")),
    ("door-redirects", Measure("door redirects (302)", ("abs_ge", 50000), "≥ 50,000/s")),
    ("cold-miss", Measure("cold miss through door and pool", ("ratio_each", 1.0),
                          "P3: ≥ 1.0× XCache and nginx proxy_cache")),
    ("cpu-hot", Measure("CPU seconds per GiB served, hot aggregate (the server's process tree, /proc)",
                        ("ratio_le", 0.8), "≤ 0.8× Varnish", lower_better=True, against="varnish")),
    ("cpu-cold", Measure("CPU seconds per GiB, cold miss (the cache's process tree, /proc)", ("ratio_le", 0.5),
                         "≤ 0.5× the leanest reference", lower_better=True)),
    ("shaped-total", Measure("shaped origin, cold miss: total time", ("ratio_le", 1.02), "P3: ≤ 1.02× direct",
                             lower_better=True)),
    ("shaped-first-byte", Measure("shaped origin, cold miss: first byte", ("diff_le", 0.010),
                                  "P3: ≤ the origin's + 10 ms", lower_better=True)),
    # the same pool's first miss from that origin, before the warm-up misses (not judged): with `--only shaped`, a
    # fresh JVM's; in a full run the JVM has served the reads and the aggregate first
    ("shaped-first-byte-fresh", Measure("shaped origin: its first miss, before the warm-up misses, first byte",
                                        lower_better=True)),
    ("gridftp-miss", Measure("GridFTP miss, HTTPS to the client", ("ratio_each", 0.9), "≥ 0.9× globus-url-copy")),
    # no goal: the same miss without the origin's checksum (gridftp.checksum none), as globus-url-copy checks none;
    # what the verification costs a miss where the origin computes its checksum on demand
    ("gridftp-miss-unverified", Measure("GridFTP miss, like for like: no checksum on either side")),
    ("gridftp-first-byte", Measure("GridFTP miss: first byte", ("abs_le", 0.1),
                                   "P10: ≤ 0.1 s with a held connection", lower_better=True)),
    # no goal: what serving the file to the same curl over HTTPS alone reaches beside globus-url-copy, the part of a
    # miss's work that globus-url-copy does not do
    ("gridftp-client-leg", Measure("GridFTP bench, the client's leg alone: the same file hot over HTTPS")),
    # no goal: globus-url-copy's time against about the least time a miss can take on the machine's cores, doing the
    # fetch's work (about globus-url-copy's CPU) and the client's leg's (the hit's CPU), at most 1; an estimate from
    # the same rounds: where it is well under 0.8, P10 is out of reach on this machine whatever the pool does
    ("gridftp-ceiling", Measure("GridFTP miss: what the cores allow, estimated (globus-url-copy's time / "
                                "((its CPU + the client leg's CPU) / cores), at most 1)")),
    ("sparse-fetched", Measure("sparse read, scattered ranges: bytes from the origin, of the file", ("abs_le", 5.0),
                               "P7: ≤ 5 % of the file", lower_better=True)),
    ("sparse-hot-vs-cold", Measure("sparse read: hot vs cold (cold time / hot time)", ("abs_ge", 100.0),
                                   "P7: hot ≥ 100× cold")),
    ("tpc-pull", Measure("HTTP third-party copy, pull", ("ratio_each", 0.9), "≥ 0.9× the direct copy")),
    ("tpc-push", Measure("HTTP third-party copy, push", ("ratio_each", 1.5), "push of a cached file ≥ 1.5× the direct copy",
                         subject="push-hit")),
    ("ticket-verify", Measure("ticket verification, JMH", lower_better=True)),
    ("selection-p99", Measure("pool selection p99, 1,000 pools, JMH", ("abs_le", 20.0), "keep ≤ 20 µs",
                              lower_better=True)),
    # no goal a 2-core machine can judge: with no shared lock, ops/s per thread stays flat up to the cores
    ("store-hit-per-thread", Measure("the store's hit path per thread, JMH")),
    ("metadata-per-file", Measure("metadata per cached file", ("abs_le", 200.0), "keep ≤ 200 B", lower_better=True)),
])
LOWER_UNITS = {"s", "ms", "µs", "us", "bytes", "B", "%", "requests"}


def measure_of(name, unit):
    if name in MEASURES:
        return MEASURES[name]
    # a measure this table does not know yet (e.g. sparse-bench.sh's): shown, not judged
    return Measure(name.replace("-", " "), lower_better=unit in LOWER_UNITS)


def read(path):
    with open(path) as f:
        return f.read()


def number(v):
    try:
        return float(v)
    except ValueError:
        return None


def fmt(v, unit):
    if v is None:
        return "error"
    if unit in ("MB/s", "req/s", "requests"):
        return f"{v:,.0f}"
    if unit == "s":
        return f"{v * 1000:,.1f} ms" if v < 1 else f"{v:,.2f} s"
    if unit in ("µs", "us"):
        return f"{v:,.2f} µs" if v < 100 else f"{v:,.0f} µs"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:,.2f}"


def with_unit(v, unit):
    text = fmt(v, unit)
    return text if unit in ("s", "µs", "us") or v is None else f"{text} {unit}"


class Series:
    """One subject's rounds of one measure."""

    def __init__(self, subject, role, unit):
        self.subject, self.role, self.unit = subject, role, unit
        self.values, self.errors = [], 0

    def add(self, value):
        n = number(value)
        if n is None:
            self.errors += 1
        else:
            self.values.append(n)

    @property
    def median(self):
        return statistics.median(self.values) if self.values else None


def load(path):
    groups = OrderedDict()  # (measure, params) -> OrderedDict(subject -> Series)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["measure"], row["params"])
            series = groups.setdefault(key, OrderedDict())
            s = series.setdefault(row["subject"], Series(row["subject"], row["role"], row["unit"]))
            s.add(row["value"])
    return groups


def judge(m, g, refs, errors):
    """(ratio text, met text, [(reference, ratio)]) for gridcache series g against the reference series."""
    ratios = []
    for r in refs:
        if g.median is not None and r.median:
            ratios.append((r, g.median / r.median))
    text = ", ".join(f"{q:.2f}× {r.subject}" for r, q in ratios) or "—"
    if m.goal and m.goal[0] == "diff_le":
        text = ", ".join(f"{(g.median - r.median) * 1000:+.1f} ms vs {r.subject}"
                         for r in refs if g.median is not None and r.median is not None) or "—"
    if not m.goal or (m.subject and g.subject != m.subject):
        return text, "—", ratios
    if m.against:
        refs = [r for r in refs if r.subject == m.against]
        ratios = [(r, q) for r, q in ratios if r.subject == m.against]
    kind, bound = m.goal
    if g.median is None or g.errors or errors:
        return text, "no (errors)", ratios
    if kind == "abs_ge":
        met = g.median >= bound
    elif kind == "abs_le":
        met = g.median <= bound
    elif not refs or any(r.median is None for r in refs):
        return text, "n/a", ratios
    elif kind == "ratio_each":
        met = all(q >= bound for _, q in ratios)
    elif kind == "ratio_best":
        best = max(r.median for r in refs)
        met = g.median / best >= bound
    elif kind == "ratio_le":
        met = all(q <= bound for _, q in ratios)
    elif kind == "diff_le":
        met = all(g.median - r.median <= bound for r in refs)
    else:
        raise ValueError(kind)
    return text, "**yes**" if met else "no", ratios


def table(groups):
    lines = ["| measure | gridcache | reference | ratio | goal | met? |", "|---|---|---|---|---|---|"]
    plotted = []  # (label, ratio, bound) for the ratio plot
    errors_of = {}
    for (name, params), series in groups.items():
        if name.endswith("-errors"):
            errors_of[(name, params)] = sum(s.median or 0 for s in series.values())
    order = {name: i for i, name in enumerate(MEASURES)}
    keys = sorted(groups, key=lambda k: (order.get(k[0], len(order)), list(groups).index(k)))
    for name, params in keys:
        series = groups[(name, params)]
        if name.endswith("-errors"):
            continue
        unit = next(iter(series.values())).unit
        m = measure_of(name, unit)
        refs = [s for s in series.values() if s.role == "reference"]
        ours = [s for s in series.values() if s.role != "reference"]
        errors = errors_of.get((m.errors, params), 0) if m.errors else 0
        rounds = max(len(s.values) + s.errors for s in series.values())
        label = m.title + (f" ({params}" if params else " (") + (f", median of {rounds})" if rounds > 1 else ")")
        label = label.replace(" ()", "")
        reftext = "; ".join(f"{r.subject} {with_unit(r.median, r.unit)}" + (f" ({r.errors} failed)" if r.errors else "")
                            for r in refs) or "—"
        for g in ours:
            ratio, met, ratios = judge(m, g, refs, errors)
            ours_text = f"{with_unit(g.median, g.unit)} ({g.subject})"
            if g.errors:
                ours_text += f", {g.errors} failed"
            if errors:
                ours_text += f", {errors:.0f} failed requests"
            cells = [label, ours_text, reftext, ratio, m.goal_text, met]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
            # higher is better in the plot: a time's ratio (lower is better) stays in the table only
            if m.goal and m.goal[0] in ("ratio_each", "ratio_best") and (not m.subject or m.subject == g.subject):
                for r, q in ratios:
                    plotted.append((f"{name} {params}: {g.subject} / {r.subject}", q, m.goal[1]))
    return "\n".join(lines) + "\n", plotted


def plots(out, groups, plotted):
    if not shutil.which("gnuplot"):
        return ["gnuplot is not installed (apt-get install gnuplot-nox): no plots; results.csv is complete"]
    made = []
    data = os.path.join(out, "plot-ratios.dat")
    with open(data, "w") as f:
        for label, q, bound in plotted:
            f.write(f'"{label}" {q:.4f} {bound}\n')
    if plotted:
        top = max(max(q, bound) for _, q, bound in plotted) * 1.15
        script = f"""set terminal pngcairo size 1200,750 noenhanced
set rmargin 34
set xrange [-0.7:{len(plotted) - 0.3}]
set output "{out}/ratios.png"
set title "gridcache / reference, same run (goal marked)"
set ylabel "ratio"; set grid y; set style fill solid 0.6; set boxwidth 0.6
set xtics rotate by -40 font ",8"; set bmargin 18; set key off; set yrange [0:{top:.3f}]
plot "{data}" using 0:2:xtic(1) with boxes lc rgb "#4477aa", "" using 0:3 with points pt 7 ps 1.5 lc rgb "#cc3311"
"""
        made.append(run_gnuplot(script, "ratios.png"))
    for unit, name in (("MB/s", "throughput"), ("req/s", "rates")):
        rows = []
        for (measure, params), series in groups.items():
            for s in series.values():
                if s.unit == unit and s.median is not None and s.role != "info":
                    rows.append((f"{measure} {params}: {s.subject}", s.median, 1 if s.role == "gridcache" else 2))
        if not rows:
            continue
        data = os.path.join(out, f"plot-{name}.dat")
        with open(data, "w") as f:
            for label, v, colour in rows:
                f.write(f'"{label}" {v:.1f} {colour}\n')
        script = f"""set terminal pngcairo size 1200,750 noenhanced
set rmargin 34
set xrange [-0.7:{len(rows) - 0.3}]
set output "{out}/{name}.png"
set title "{unit}, median of the rounds (blue: gridcache, grey: references)"
set ylabel "{unit}"; set grid y; set style fill solid 0.6; set boxwidth 0.6
set xtics rotate by -40 font ",8"; set bmargin 18; set key off; set yrange [0:*]
set palette defined (1 "#4477aa", 2 "#999999"); unset colorbox; set cbrange [1:2]
plot "{data}" using 0:2:3:xtic(1) with boxes lc palette
"""
        made.append(run_gnuplot(script, f"{name}.png"))
    return [m for m in made if m]


def run_gnuplot(script, name):
    done = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if done.returncode != 0:
        print(f"gnuplot failed for {name}: {done.stderr.strip()}", file=sys.stderr)
        return f"{name}: gnuplot failed ({done.stderr.strip().splitlines()[-1] if done.stderr.strip() else '?'})"
    return None


def steps(out):
    path = os.path.join(out, "steps.csv")
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def report(args):
    out = args.dir
    groups = load(os.path.join(out, "results.csv"))
    body, plotted = table(groups)
    problems = plots(out, groups, plotted)
    machine = read(os.path.join(out, "machine.md")).strip() if os.path.exists(os.path.join(out, "machine.md")) else ""
    notes = read(os.path.join(out, "notes.md")).strip() if os.path.exists(os.path.join(out, "notes.md")) else ""
    ran = steps(out)
    step_text = ", ".join(f"{s['step']} {s['status']} ({s['seconds']} s)" for s in ran)
    mode = "**--quick: small sizes, one round — a check that the steps work, not a measurement**" \
        if args.mode == "quick" else "full"
    elapsed = f"{int(args.elapsed) // 60} min {int(args.elapsed) % 60} s" if args.elapsed is not None else "?"
    text = [f"Command: `{args.command}` ({mode}; {elapsed})", "", "Machine:", "", machine, "", body]
    text += ["Steps: " + step_text, ""] if step_text else []
    text += [notes, ""] if notes else []
    text += ["Plots: " + "; ".join(problems), ""] if problems else []
    text += ["Ratios are gridcache / reference from this run; a shared 2-core VM makes absolute figures indicative.",
             ""]
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(text))
    if args.benchmarks:
        update_benchmarks(args.benchmarks, "\n".join(text), out)


def update_benchmarks(path, text, out):
    """Replaces the section between the markers (or appends it): the latest run's table, machine and command."""
    section = f"{BEGIN}\n## Latest run\n\nResults directory (not in git): `{os.path.relpath(out, os.path.dirname(os.path.abspath(path)))}`.\n\n{text.strip()}\n{END}\n"
    old = read(path) if os.path.exists(path) else ""
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + section + rest.split(END, 1)[1].lstrip("\n")
    else:
        new = (old.rstrip("\n") + "\n\n" if old else "") + section
    with open(path, "w") as f:
        f.write(new)


def jmh_score(text):
    """A JMH CSV score as a number's text: a lone comma is a decimal comma (JMH writes the locale's)."""
    return text.replace(",", ".") if text.count(",") == 1 and "." not in text else text


def import_jmh(args):
    """Appends JMH's and StoreIndexFootprint's headline numbers to results.csv."""
    out = args.dir
    rows = []
    jmh = os.path.join(out, "jmh.csv")
    if os.path.exists(jmh):
        with open(jmh, newline="") as f:
            for row in csv.DictReader(f):
                bench, unit = row["Benchmark"], row["Unit"].replace("us/op", "µs")
                score = jmh_score(row["Score"])
                if bench.endswith("TicketBenchmark.verifyReused"):
                    rows.append(("ticket-verify", "reused ticket", "gridcache", score, unit, "Ed25519"))
                elif bench.endswith("TicketBenchmark.verifyFirstUse"):
                    rows.append(("ticket-verify", "first use", "gridcache", score, unit, "Ed25519"))
                elif bench.endswith("SelectionBenchmark.affinity:p0.99"):
                    rows.append(("selection-p99", "affinity", "gridcache", score, unit, "SampleTime"))
    for name in sorted(os.listdir(out)):
        threads = re.fullmatch(r"jmh-store-t(\d+)\.csv", name)
        if not threads:
            continue
        t = int(threads.group(1))
        with open(os.path.join(out, name), newline="") as f:
            for row in csv.DictReader(f):
                files = row.get("Param: files", "")
                if row["Benchmark"].endswith("StoreHitBenchmark.hit") and files:
                    per_thread = float(jmh_score(row["Score"])) / t
                    rows.append(("store-hit-per-thread", f"{files} file{'s' if files != '1' else ''}", "gridcache",
                                 f"{per_thread:.0f}", "ops/s", f"{t} thread{'s' if t > 1 else ''}"))
    log = os.path.join(out, "footprint.log")
    if os.path.exists(log):
        text = read(log)
        found = re.search(r"total per cached file: ([0-9.]+) bytes", text)
        entries = re.search(r"entries: (\d+)", text)
        if found:
            rows.append(("metadata-per-file", "StoreIndexFootprint", "gridcache", found.group(1), "B",
                         f"{int(entries.group(1)):_} entries".replace("_", " ") if entries else ""))
    if not rows:
        sys.exit(1)
    with open(os.path.join(out, "results.csv"), "a") as f:
        for r in rows:
            f.write(",".join([r[0], r[1], r[2], "1", r[3], r[4], r[5]]) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("report")
    r.add_argument("dir")
    r.add_argument("--command", default="bench/run.sh")
    r.add_argument("--elapsed", type=int)
    r.add_argument("--mode", choices=["quick", "full"], default="full")
    r.add_argument("--benchmarks")
    j = sub.add_parser("import-jmh")
    j.add_argument("dir")
    args = p.parse_args()
    report(args) if args.what == "report" else import_jmh(args)


if __name__ == "__main__":
    main()
