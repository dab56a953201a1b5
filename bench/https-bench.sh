#!/usr/bin/env bash
# https-bench.sh — the hot aggregate over HTTPS (issue 14, goal P2): AGG_CLIENTS concurrent clients, each reading one
# cached AGG_MB file, through an HTTPS standalone (door redirect + pool, Alice's proxy as the client certificate),
# beside nginx serving the same file over HTTPS with the same host certificate (sendfile on; without kernel TLS nginx
# encrypts in user space like the pool). Total bytes of complete 200s / wall time, failures counted, ROUNDS times.
# A benchmark, not a test. Root (nginx as root, ../shared/gridenv's mkpki.sh); run from the repository root after
# `mvn -B -o -q -pl dist -am package -DskipTests`:
#   bench/https-bench.sh
# Env: AGG_CLIENTS=100 AGG_MB=64 ROUNDS=3 MAXT=300 (each curl's limit) WARM_REQUESTS=1000 (untimed small reads first)
#   GRIDENV (../shared/gridenv)
#   BENCH_RESULTS (a CSV for bench/run.sh, see result in bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${AGG_CLIENTS:-100}; mb=${AGG_MB:-64}; rounds=${ROUNDS:-3}; maxt=${MAXT:-300}; warm_requests=${WARM_REQUESTS:-1000}
gridenv=$(cd "${GRIDENV:-../shared/gridenv}" 2>/dev/null && pwd) || { echo "../shared/gridenv is missing" >&2; exit 1; }
for tool in nginx curl openssl; do command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }; done
gridcache=$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)
. bench/lib.sh
say() { echo "[https-bench $(date +%T)] $*" >&2; }
work=$(mktemp -d)
cleanup() { # set -e holds here too: a killed process's status must not end the cleanup early
  [ -f "$work/nginx/nginx.pid" ] && { kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true; }
  if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

"$gridenv/mkpki.sh" "$work/pki" >/dev/null
pki=$work/pki; proxy=$pki/proxies/alice.pem
# --cacert names the test CA so that curl does not also load the system's CA bundle: curl 7.88 parses that file (144
# certificates) again for every TLS connection, about 16 ms of CPU, and a read through the door makes two connections
# (door, then pool) where nginx gets one. That is the client's cost, not the server's, and on a 2-core machine it took
# ~12 % of the cores from the servers measured here.
tls=(--capath "$pki/certificates" --cacert "$pki/ca/ca.pem" --cert "$proxy" --key "$proxy")
mkdir -p "$work/origin"
head -c $((mb << 20)) /dev/urandom >"$work/origin/agg.bin"

# gridcache: a standalone over HTTPS (authenticated users read, the default policy)
port=$(free_port); zkport=$(free_port)
"$gridcache" standalone --home "$work/home" --origin "$work/origin" --port "$port" --zk-port "$zkport" \
  --host-cert "$pki/host/cert.pem" --host-key "$pki/host/key.pem" --ca-dir "$pki/certificates" --vomsdir "$pki/vomsdir" \
  >"$work/standalone.out" 2>&1 &
pid=$!
for _ in $(seq 120); do
  [ "$(curl -s "${tls[@]}" -o /dev/null -w '%{http_code}' "https://localhost:$port/agg.bin")" = 302 ] && break
  sleep 0.5
done
[ "$(curl -s "${tls[@]}" -o /dev/null -w '%{http_code}' "https://localhost:$port/agg.bin")" = 302 ] \
  || { echo "the door does not redirect; see below" >&2; cat "$work/standalone.out" >&2; exit 1; }

# the reference: nginx over HTTPS, same certificate, same file
nport=$(free_port)
start_nginx "$work/nginx" "127.0.0.1:$nport ssl" "$work/origin" \
  "ssl_certificate $pki/host/cert.pem;" "ssl_certificate_key $pki/host/key.pem;"

aggregate() { # NAME URL ROUND: MB/s of all clients together; errors counted
  local name=$1 url=$2 r=$3 i t0 t1 ok rate bytes=$((mb << 20)) dir=$work/agg pids=()
  rm -rf "$dir"; mkdir -p "$dir"
  # one untimed read: the file is cached (and the door knows where) before the clock starts
  [ "$(curl -sL "${tls[@]}" --max-time "$maxt" -o /dev/null -w '%{http_code}' "$url")" = 200 ] || say "$name: warm-up read failed"
  t0=$(date +%s.%N)
  for i in $(seq "$clients"); do
    curl -sL "${tls[@]}" -o /dev/null --max-time "$maxt" -w '%{http_code} %{size_download}\n' "$url" >"$dir/$i" 2>/dev/null &
    pids+=($!)
  done
  wait "${pids[@]}" || true # the clients only: a plain wait would wait for the standalone too
  t1=$(date +%s.%N)
  ok=$(cat "$dir"/* | grep -c "^200 $bytes\$" || true)
  rate=$(awk -v n="$ok" -v b=$bytes -v a="$t0" -v z="$t1" 'BEGIN { printf "%.0f", n * b / (z - a) / 1e6 }')
  local role=gridcache; [ "$name" = "nginx HTTPS" ] && role=reference
  result hot-aggregate-https "$name" "$role" "$r" "$rate" MB/s "$clients x $mb MiB"
  result hot-aggregate-https-errors "$name" info "$r" $((clients - ok)) requests "$clients x $mb MiB"
  say "$name round $r: $rate MB/s, $((clients - ok)) of $clients failed"
  echo "$rate $((clients - ok))"
}
# warm-up, untimed: WARM_REQUESTS reads of a 4 KiB file from each server, one after the other, each with full TLS
# handshakes (no session reuse, the connection closed after each answer: through gridcache a handshake with the door
# and one with the pool), then AGG_CLIENTS concurrent reads of the big file (an untimed round), so that the rounds
# measure servers whose JIT has compiled the handshakes, the redirect and the TLS data path, and whose buffer pools
# have grown to a round's concurrency. After 20 concurrent reads alone, C2 still compiled ~0.9 CPU s during the first
# timed round of a fresh JVM, and that round was the lowest of every run (510 MB/s against 690 and 694 in one run;
# nginx 649, 678, 706); with the small reads before them too, 590 against 683 and 673. nginx has nothing to warm.
head -c 4096 /dev/urandom >"$work/origin/warm.bin"
for base in "https://localhost:$port" "https://localhost:$nport"; do
  for _ in $(seq "$warm_requests"); do printf 'url = "%s/warm.bin"\noutput = "/dev/null"\n' "$base"; done >"$work/warm.curl"
  codes=$(curl -sL "${tls[@]}" --no-sessionid -H 'Connection: close' --max-time "$maxt" -K "$work/warm.curl" \
    -w '%{http_code}\n' | sort | uniq -c | xargs || true)
  say "warm-up, $base: $warm_requests reads of 4 KiB: $codes (count, status)"
done
for url in "https://localhost:$port/agg.bin" "https://localhost:$nport/agg.bin"; do
  warm=()
  for _ in $(seq "$clients"); do curl -sL "${tls[@]}" -o /dev/null --max-time "$maxt" "$url" & warm+=($!); done
  wait "${warm[@]}" || say "warm-up read failed: $url"
done
before=$(cut -d' ' -f1 /proc/loadavg)
declare -A rates
for r in $(seq "$rounds"); do
  order=(gridcache "nginx HTTPS"); [ $((r % 2)) = 0 ] && order=("nginx HTTPS" gridcache)
  for name in "${order[@]}"; do
    case $name in gridcache) url="https://localhost:$port/agg.bin" ;; *) url="https://localhost:$nport/agg.bin" ;; esac
    read -r rate failed < <(aggregate "$name" "$url" "$r")
    rates[$name]="${rates[$name]:-}$rate ($failed failed) "
  done
done
echo "hot aggregate over HTTPS, $clients clients x $mb MiB, MB/s per round:"
echo "  gridcache (door + pool): ${rates[gridcache]}"
echo "  nginx HTTPS:             ${rates[nginx HTTPS]}"
echo "load average before the run: $before (other work on the machine lowers the figures)"
