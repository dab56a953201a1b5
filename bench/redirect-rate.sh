#!/usr/bin/env bash
# The door's redirect rate: how many signed-ticket redirects one door answers per second, with keep-alive.
# A plain-HTTP standalone in front of a small directory origin; wrk (bounded: -d) asks for two files and never
# follows the 302, so only the door works. Run from the repository root after `mvn -B -q -DskipTests package`:
#   bench/redirect-rate.sh [DURATION (20s)] [CONNECTIONS (32)]
# Env: WARMUP (5s) and WARMUP_ROUNDS (12): rounds of JIT warm-up until the rate is stable (warm_up in bench/lib.sh); BENCH_RESULTS (a CSV for bench/run.sh, see result in bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-20s}
connections=${2:-32}
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }
gridcache=$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)
before=$(cut -d' ' -f1 /proc/loadavg)
work=$(mktemp -d)
. bench/lib.sh
# set -e holds in the trap too: the killed standalone's status must not end it before the rm (nor become ours)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/origin"
head -c 1M /dev/urandom >"$work/origin/a.bin"
head -c 1M /dev/urandom >"$work/origin/b.bin"
start_standalone "$gridcache" "$work" "$work/origin" a.bin
cat >"$work/two-files.lua" <<'EOF'
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", (n % 2 == 0) and "/a.bin" or "/b.bin")
end
EOF
warm_up -t2 -c"$connections" -s "$work/two-files.lua" "http://127.0.0.1:$port" # not counted
wrk -t2 -c"$connections" -d"$duration" --latency -s "$work/two-files.lua" "http://127.0.0.1:$port" 2>&1 | tee "$work/wrk.out"
# wrk counts 3xx as success; a 5xx or 4xx shows as "Non-2xx or 3xx responses"
if grep -q 'Non-2xx or 3xx' "$work/wrk.out"; then
  result door-redirects "gridcache door" gridcache 1 ERR req/s "wrk -c$connections -d$duration"
  echo "some answers were not redirects" >&2; exit 1
fi
result door-redirects "gridcache door" gridcache 1 "$(awk '/Requests\/sec/ {printf "%d", $2}' "$work/wrk.out")" req/s \
  "wrk -c$connections -d$duration"
echo "load average before the run: $before (other work on the machine lowers the figure)"
