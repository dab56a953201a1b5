#!/usr/bin/env bash
# bench/run.sh — every measurement of issue 14 in one run, beside the reference servers, into one table.
#
#   sudo bench/run.sh [--quick] [--only STEP,...] [--out DIR] [--no-docs]     (after: mvn -B -o -q -DskipTests package)
#
# Steps (all by default; --only takes a comma-separated list; hot and cold are aliases of reads):
#   reads      hot GET, one client (pool alone and through the door) beside nginx sendfile and Varnish, on loopback
#              and from another network namespace over veth; cold miss through door and pool beside XCache and nginx
#              proxy_cache, with each cache's CPU seconds per GiB (its process tree, /proc)     (system-bench.sh)
#   agg        hot aggregate: many concurrent clients on one cached file beside nginx and Varnish, with each
#              server's CPU seconds per GiB                                                      (system-bench.sh)
#   shaped     cold miss from an origin shaped with limit_rate: total time and first byte beside a direct read
#   https      hot aggregate over HTTPS (X.509 client) beside nginx HTTPS, same certificate    (https-bench.sh)
#   small      small-file hits at the pool with a reused ticket beside nginx, wrk, on loopback and over veth
#                                                                                               (small-files.sh)
#   redirects  the door's redirects per second, wrk                                            (redirect-rate.sh)
#   gridftp    GridFTP miss, 1 and 4 streams, beside globus-url-copy                            (gridftp-bench.sh)
#   tpc        HTTP third-party copy, pull and push, beside a direct copy                       (tpc-bench.sh)
#   sparse     4 % of a file in scattered ranges: origin bytes, hot vs cold, when bench/sparse-bench.sh exists
#   jmh        JMH headlines (ticket verification, selection p99, the store's hit path at 1, 2, 4 and 8 threads) and
#              metadata bytes per cached file
#
# --quick: small sizes, one round, short wrk runs (a check that everything works; minutes, not a measurement).
# Every load is bounded: each step runs under `timeout` (STEP_LIMIT seconds, default 1800, --quick 600), every curl
# has --max-time, every wrk a -d. Everything a step started is stopped when it ends, and on any exit of this script.
#
# Writes bench/results/<YYYY-MM-DD-HHMM>/ (or --out): results.csv (measure,subject,role,round,value,unit,params; see
# result in bench/lib.sh), steps.csv (step,status,seconds), machine.md, table.md, <step>.log, and gnuplot PNGs
# (apt-get install gnuplot-nox); then copies table, machine and command into BENCHMARKS.md between its markers
# (--no-docs: not). The machine is shared on the build VM: compare ratios from the same run, not absolute figures.
# Env: PORT_BASE (29300; system-bench.sh uses +0..+14 and +800..801, gridftp-bench.sh +211 and +280..+283, the
#   GridFTP data ports +1211..+3210), XC_NETNS (gcbench-xc), STEP_LIMIT, KEEP_DATA (set: keep the test files),
#   QUIET_LOAD (0.5) and QUIET_WAIT (300 s; --quick 0): first wait so long at most for the 1-minute load to fall below.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ALL=(reads agg shaped https small redirects gridftp tpc sparse jmh)
usage() { sed -n '3,4p' "$0" | sed 's/^# *//' >&2; exit 2; }

QUICK=0; ONLY=""; OUT=""; DOCS=1; ARGS=("$@")
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --only) [ $# -ge 2 ] || usage; ONLY=$2; shift ;;
    --only=*) ONLY=${1#--only=} ;;
    --out) [ $# -ge 2 ] || usage; OUT=$2; shift ;;
    --no-docs) DOCS=0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
  shift
done
declare -A WANT=()
if [ -z "$ONLY" ]; then
  for s in "${ALL[@]}"; do WANT[$s]=1; done
else
  IFS=, read -ra asked <<<"$ONLY"
  for s in "${asked[@]}"; do
    case $s in hot|cold) s=reads ;; esac
    [[ " ${ALL[*]} " = *" $s "* ]] || { echo "unknown step '$s' (steps: ${ALL[*]}, hot, cold)" >&2; exit 2; }
    WANT[$s]=1
  done
fi
wants() { [ -n "${WANT[$1]:-}" ]; }

[ "$(id -u)" = 0 ] || { echo "run as root (nginx, Varnish, XCache and the GridFTP server need it)" >&2; exit 1; }
DIST=$(ls -d "$ROOT"/dist/target/gridcache-*/ 2>/dev/null | head -1)
[ -x "${DIST}bin/gridcache" ] || { echo "build first: mvn -B -o -q -DskipTests package" >&2; exit 1; }
JAR=$ROOT/benchmarks/target/benchmarks.jar
! wants jmh || [ -f "$JAR" ] || { echo "build first: $JAR is missing" >&2; exit 1; }
ANCHORS=$(cd "$ROOT/../shared/anchors" 2>/dev/null && pwd) || { echo "../shared/anchors is missing" >&2; exit 1; }
GRIDENV=$(cd "$ROOT/../shared/gridenv" 2>/dev/null && pwd || true)

stamp=$(date +%Y-%m-%d-%H%M)
OUT=${OUT:-$ROOT/bench/results/$stamp}
[ ! -e "$OUT/results.csv" ] || OUT=$OUT-$(date +%S)
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
export BENCH_RESULTS=$OUT/results.csv
echo "measure,subject,role,round,value,unit,params" >"$BENCH_RESULTS"
echo "step,status,seconds" >"$OUT/steps.csv"
: >"$OUT/notes.md"
command_line="sudo bench/run.sh${ARGS[*]:+ ${ARGS[*]}}"
log() { echo "[run $(date +%H:%M:%S)] $*" >&2; }
. "$ROOT/bench/lib.sh"

# the sizes: --quick checks that every step works end to end; the full run is the measurement
B=${PORT_BASE:-29300}
export XC_NETNS=${XC_NETNS:-gcbench-xc}
SYS_RUN=/tmp/gridcache-run-bench; FTP_RUN=/tmp/gridcache-run-gridftp
if [ $QUICK = 1 ]; then
  LIMIT=${STEP_LIMIT:-600}
  SYS_ENV=(ROUNDS=1 BIG_MB=256 MISS_MB=64 LIMITED_MB=64 AGG_CLIENTS=20 AGG_MB=16 MAXT=120 WARM_MISSES=300 HOT_REQUESTS=100 STORAGE=2G)
  SMALL=(3s 64); SMALL_WARMUP=2s; REDIR=(3s 64); REDIR_WARMUP=2s; HTTPS_ENV=(AGG_CLIENTS=20 AGG_MB=16 ROUNDS=1 WARM_REQUESTS=100)
  FTP_ENV=(ROUNDS=1 WARM_MISSES=30 WARMUP=1 MB=64); TPC=(64M 1); SPARSE=(256M 1); SPARSE_ENV=(RANGE=256K)
  JMH_OPTS=(-wi 1 -i 2 -w 1s -r 1s -f 1); FOOTPRINT_N=100000
else
  LIMIT=${STEP_LIMIT:-1800}
  # 5 rounds where the references swing: on the 2-core build VM a single round of nginx, XCache or globus-url-copy
  # moves by up to 2.5× between runs (host scheduling, writeback), and with 3 rounds two such rounds set a median;
  # HOT_READS=15: a single hot read there swings between 1.5 and 5.3 GB/s, for every server alike
  SYS_ENV=(ROUNDS=5 BIG_MB=1024 MISS_MB=256 LIMITED_MB=512 AGG_CLIENTS=100 AGG_MB=64 MAXT=300 HOT_READS=15)
  SMALL=(10s 64); SMALL_WARMUP=5s; REDIR=(20s 64); REDIR_WARMUP=5s; HTTPS_ENV=(AGG_CLIENTS=100 AGG_MB=64 ROUNDS=5)
  FTP_ENV=(ROUNDS=5 MB=256); TPC=(1G 3); SPARSE=(1G 3); SPARSE_ENV=()
  JMH_OPTS=(); FOOTPRINT_N=1000000
fi

# --- stopping: each script stops what it started; this is the backstop for a step cut short ---
step_pid=""
stop_everything() {
  set +e
  if [ -n "$step_pid" ]; then
    kill -TERM "$step_pid" 2>/dev/null # timeout passes it on to the script, whose own cleanup runs
    wait "$step_pid" 2>/dev/null
    step_pid=""
  fi
  if wants reads || wants agg || wants shaped; then
    env PORT_BASE="$B" BENCH_RUN="$SYS_RUN" "$ROOT/bench/system-bench.sh" stop >/dev/null 2>&1
    "$ANCHORS/xcache.sh" netns-delete >/dev/null 2>&1
    [ -n "${KEEP_DATA:-}" ] || rm -rf "$SYS_RUN"
  fi
  if wants gridftp && [ -n "$GRIDENV" ]; then
    "$GRIDENV/stop-gridftp-origin.sh" $((B + 211)) >/dev/null 2>&1
    [ -n "${KEEP_DATA:-}" ] || rm -rf "$FTP_RUN"
  fi
}
on_exit() {
  local rc=$?
  stop_everything
  [ $rc = 0 ] || log "stopped (exit $rc); partial results in $OUT"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# step NAME COMMAND...: runs one script under timeout, its output to NAME.log; a failed step is noted, the run goes on
step() {
  local name=$1 t0 rc=0 status; shift
  log "$name: $* (log $OUT/$name.log, at most ${LIMIT}s)"
  t0=$(date +%s)
  timeout -k 30 "$LIMIT" "$@" >"$OUT/$name.log" 2>&1 &
  step_pid=$!
  wait "$step_pid" || rc=$?
  step_pid=""
  case $rc in 0) status=ok ;; 124|137) status="timed out after ${LIMIT}s" ;; *) status="failed (exit $rc)" ;; esac
  echo "$name,$status,$(($(date +%s) - t0))" >>"$OUT/steps.csv"
  log "$name: $status in $(($(date +%s) - t0))s"
  [ $rc = 0 ] || tail -5 "$OUT/$name.log" | sed 's/^/    /' >&2
}
skip() { echo "$1,skipped: $2,0" >>"$OUT/steps.csv"; log "$1: skipped ($2)"; }

# --- a quiet machine first ---
# A run measures the machine as it finds it: the full run of 06:08 on 29 November began a minute after a fresh-clone
# CI (load 2.02 on 2 cores) and read lower than the runs around it on several rows. So a run first waits, up to
# QUIET_WAIT seconds (default 300; --quick 0), for the 1-minute load to fall below QUIET_LOAD (default 0.5), and
# machine.md says how long it waited.
QUIET_LOAD=${QUIET_LOAD:-0.5}; QUIET_WAIT=${QUIET_WAIT:-$([ "$QUICK" = 1 ] && echo 0 || echo 300)}
waited=0
while [ "$waited" -lt "$QUIET_WAIT" ] &&
    awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v q="$QUIET_LOAD" 'BEGIN { exit !(l >= q) }'; do
  [ "$waited" != 0 ] || log "waiting up to ${QUIET_WAIT}s for the 1-minute load ($(cut -d' ' -f1 /proc/loadavg)) to fall below $QUIET_LOAD"
  sleep 5; waited=$((waited + 5))
done

# --- the machine ---
version() { # the first line of a tool's version output
  if command -v "$1" >/dev/null; then "$@" 2>&1 | head -1 | tr -s ' '; else echo "not installed"; fi
}
{
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- host: $(hostname), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
  echo "- kernel: $(uname -sr); load before the run: $(cut -d' ' -f1-3 /proc/loadavg) (after waiting ${waited}s for below $QUIET_LOAD)"
  echo "- JDK: $(version java -version)"
  echo "- nginx: $(version nginx -v); Varnish: $(version varnishd -V | sed "s/ revision.*/)/"); XRootD: $(version xrootd -v)"
  echo "- curl: $(version curl --version | cut -d' ' -f1-2); wrk: $(version wrk -v | cut -d' ' -f1-2); globus-url-copy: $(version globus-url-copy -version)"
  echo "- gridcache: $(git -C "$ROOT" rev-parse --short HEAD) ($(git -C "$ROOT" rev-parse --abbrev-ref HEAD))$(git -C "$ROOT" diff --quiet HEAD -- . ':!BENCHMARKS.md' || echo ', with uncommitted changes')"
} >"$OUT/machine.md"
cat "$OUT/machine.md" >&2
started=$(date +%s)

# --- the steps ---
parts=""
for p in reads agg shaped; do wants $p && parts="$parts $p"; done
if [ -n "$parts" ]; then
  step system env "${SYS_ENV[@]}" PARTS="$parts" PORT_BASE="$B" BENCH_RUN="$SYS_RUN" ANCHORS="$ANCHORS" STOP_AT_EXIT=1 \
    "$ROOT/bench/system-bench.sh"
fi
if wants https; then
  if [ -z "$GRIDENV" ]; then skip https "no ../shared/gridenv (its mkpki.sh makes the certificates)"
  else step https env "${HTTPS_ENV[@]}" GRIDENV="$GRIDENV" "$ROOT/bench/https-bench.sh"; fi
fi
wants small && step small env WARMUP=$SMALL_WARMUP "$ROOT/bench/small-files.sh" "${SMALL[@]}"
wants redirects && step redirects env WARMUP=$REDIR_WARMUP "$ROOT/bench/redirect-rate.sh" "${REDIR[@]}"
if wants gridftp; then
  if [ -z "$GRIDENV" ] || ! command -v globus-gridftp-server >/dev/null; then
    skip gridftp "no ../shared/gridenv or globus-gridftp-server (../shared/gridenv/install-peers.sh)"
  else
    step gridftp env "${FTP_ENV[@]}" GRIDENV="$GRIDENV" GRIDFTP_PORT=$((B + 211)) DOOR_PORT=$((B + 280)) \
      BENCH_RUN="$FTP_RUN" "$ROOT/bench/gridftp-bench.sh"
  fi
fi
wants tpc && step tpc "$ROOT/bench/tpc-bench.sh" "${TPC[@]}"
if wants sparse; then
  if [ -x "$ROOT/bench/sparse-bench.sh" ]; then
    step sparse env "${SPARSE_ENV[@]}" "$ROOT/bench/sparse-bench.sh" "${SPARSE[@]}"
    if ! grep -q '^sparse' "$BENCH_RESULTS"; then
      # sparse-bench.sh as written (by another helper) prints its figures and writes no result lines: its two
      # headline lines are read here, until it calls result itself (then this is skipped)
      fetched=$(sed -n 's/^origin bytes per cold read: .*(median [0-9]*: \([0-9.]*\) % of the file.*/\1/p' "$OUT/sparse.log" | tail -1)
      hot=$(sed -n 's/^ratio hot vs cold: \([0-9.]*\)x.*/\1/p' "$OUT/sparse.log" | tail -1)
      params="${SPARSE[0]} 4 % in scattered ranges"
      [ -z "$fetched" ] || result sparse-fetched gridcache gridcache 1 "$fetched" % "$params"
      [ -z "$hot" ] || result sparse-hot-vs-cold gridcache gridcache 1 "$hot" x "$params"
      { echo "sparse-bench.sh's summary:"; echo
        grep -E '^(sparse read of|origin bytes per cold read|ratio hot vs cold)' "$OUT/sparse.log" | sed 's/^/    /'; } >>"$OUT/notes.md"
    fi
  else
    skip sparse "bench/sparse-bench.sh does not exist yet"
  fi
fi
if wants jmh; then
  step jmh java -jar "$JAR" 'TicketBenchmark.verify' 'SelectionBenchmark.affinity' "${JMH_OPTS[@]}" \
    -rf csv -rff "$OUT/jmh.csv"
  for t in 1 2 4 8; do # the store's hit path: no shared lock on it, so ops/s per thread should not fall with threads
    step "store-hit-t$t" java -jar "$JAR" 'StoreHitBenchmark.hit' -t "$t" "${JMH_OPTS[@]}" -rf csv -rff "$OUT/jmh-store-t$t.csv"
  done
  step footprint java -XX:+UseSerialGC -cp "$JAR" org.gridcache.pool.StoreIndexFootprint $FOOTPRINT_N
  python3 "$ROOT/bench/report.py" import-jmh "$OUT" || log "jmh: no results to import"
fi

# --- the table, plots and BENCHMARKS.md ---
elapsed=$(($(date +%s) - started))
docs=(); [ $DOCS = 1 ] && docs=(--benchmarks "$ROOT/BENCHMARKS.md")
python3 "$ROOT/bench/report.py" report "$OUT" --command "$command_line" --elapsed "$elapsed" \
  --mode "$([ $QUICK = 1 ] && echo quick || echo full)" "${docs[@]}"
cat "$OUT/table.md"
log "done in ${elapsed}s: $OUT"
