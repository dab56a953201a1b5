#!/usr/bin/env bash
# Small-file hits at the pool beside nginx (issue 14, goal P5): requests per second for one 5.8 KB file (5,939 bytes,
# StashCache's median size), the pool alone at the door's redirect with its ticket reused, keep-alive, wrk -t2 -c64;
# then nginx (../shared/anchors/origin.sh, sendfile) serving the same file the same way. One run, both figures and
# the ratio; then both again from a client in a network namespace of its own over a veth pair (client_ns_up in
# bench/lib.sh), as from another host. Root (nginx, namespaces); run from the repository root after
# `mvn -B -o -q -pl dist -am package -DskipTests`:
#   bench/small-files.sh [DURATION (10s)] [CONNECTIONS (64)]
# GRIDCACHE_JAVA_OPTS passes on (e.g. -XX:StartFlightRecording=filename=/tmp/pool.jfr,settings=profile).
# Env: WARMUP (5s) and WARMUP_ROUNDS (12): rounds of JIT warm-up until the rate is stable (warm_up in bench/lib.sh); BENCH_RESULTS (a CSV for bench/run.sh, see result in bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10s}
connections=${2:-64}
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }
anchors=$(cd ../shared/anchors 2>/dev/null && pwd) || { echo "../shared/anchors is missing" >&2; exit 1; }
gridcache=$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)
. bench/lib.sh
work=$(mktemp -d)
nginx_port=$(free_port)
export ANCHORS_RUN=$work/anchors
cleanup() { # set -e holds here too: a killed process's status must not end the cleanup early
  "$anchors/origin.sh" stop "$nginx_port" >/dev/null 2>&1 || true
  if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  client_ns_down
  [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/origin"
head -c 5939 /dev/urandom >"$work/origin/small.bin"
before=$(cut -d' ' -f1 /proc/loadavg)
start_standalone "$gridcache" "$work" "$work/origin" small.bin
first_url=$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$port/small.bin")
[ -n "$first_url" ] || { echo "the door does not redirect; see $work/standalone.out" >&2; cat "$work/standalone.out" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code} %{size_download}' "$first_url")" = "200 5939" ] \
  || { echo "the pool does not serve the file" >&2; exit 1; } # the miss: from here on every request is a hit

# the pool's URL with a ticket issued now: a warm-up can outlast a ticket (ticket.lifetime, 60 s), and the measured run
# reuses one ticket throughout
pool_url() { curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$port/small.bin"; }
nginx_url() { echo "http://127.0.0.1:$nginx_port/small.bin"; }
rate() { # URL-COMMAND [NETNS] -> requests/s, wrk in NETNS if given; fails on any non-2xx answer or socket error
  local ns=${2:-}
  WRK_NETNS=$ns warm_up -t2 -c"$connections" "$($1)" # not counted
  ${ns:+ip netns exec "$ns"} wrk -t2 -c"$connections" -d"$duration" "$($1)" >"$work/wrk.out" 2>&1
  cat "$work/wrk.out" >&2
  if grep -q 'Non-2xx or 3xx\|Socket errors' "$work/wrk.out"; then echo "errors, see above" >&2; exit 1; fi
  awk '/Requests\/sec/ {printf "%d", $2}' "$work/wrk.out"
}
params="5939 B wrk -c$connections -d$duration"
pool_rate=$(rate pool_url) && [ -n "$pool_rate" ] || { result small-files pool gridcache 1 ERR req/s "$params"; exit 1; }
result small-files pool gridcache 1 "$pool_rate" req/s "$params"
client_ns_up
pool_veth=$(rate pool_url "$CLIENT_NS") && [ -n "$pool_veth" ] || { result small-files-veth pool gridcache 1 ERR req/s "$params"; exit 1; }
result small-files-veth pool gridcache 1 "$pool_veth" req/s "$params"
"$anchors/origin.sh" start "$work/origin" "$nginx_port" >/dev/null
nginx_rate=$(rate nginx_url) && [ -n "$nginx_rate" ] \
  || { result small-files "nginx sendfile" reference 1 ERR req/s "$params"; exit 1; }
result small-files "nginx sendfile" reference 1 "$nginx_rate" req/s "$params"
nginx_veth=$(rate nginx_url "$CLIENT_NS") && [ -n "$nginx_veth" ] \
  || { result small-files-veth "nginx sendfile" reference 1 ERR req/s "$params"; exit 1; }
result small-files-veth "nginx sendfile" reference 1 "$nginx_veth" req/s "$params"
echo "small file (5,939 bytes), wrk -t2 -c$connections -d$duration, keep-alive:"
echo "  pool hit, reused ticket: $pool_rate req/s"
echo "  nginx (sendfile):        $nginx_rate req/s"
echo "  ratio pool/nginx:        $(python3 -c "print(f'{$pool_rate / $nginx_rate:.2f}')")"
echo "from another network namespace over veth:"
echo "  pool hit, reused ticket: $pool_veth req/s"
echo "  nginx (sendfile):        $nginx_veth req/s"
echo "  ratio pool/nginx:        $(python3 -c "print(f'{$pool_veth / $nginx_veth:.2f}')")"
echo "load average before the run: $before (other work on the machine lowers the figures)"
