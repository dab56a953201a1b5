#!/usr/bin/env bash
# sparse-bench.sh — the sparse block cache: a scattered partial read of a large file, cold (blocks fetched from a
# shaped origin) and hot (the same ranges from the pool's partial file), and the bytes the origin sent.
# A benchmark, not a test (nothing here is asserted but byte-exactness).
#   One nginx origin with limit_rate (per connection, as a WAN link or a busy storage element would give), a
#   plain-HTTP cluster of the built distribution as three processes (zk, pool, door). Per repetition a new name of
#   the same SIZE file (a hard link: the pool keys by URL, so each is cold), RANGES ranges of RANGE bytes at random
#   unaligned offsets (RANGES x RANGE = 4 % of SIZE by default), read by one curl (-K, `next`: connections to door
#   and pool reused, as ROOT's or davix's client would) through door and pool:
#     cold    every block missing: fetched by ranged GETs from the origin and kept
#     hot     the same ranges again: served from the partial file
#   Reported: seconds per repetition and the median; the ratio cold/hot; what the origin sent (nginx's access log,
#   $body_bytes_sent) against what was read and against SIZE. Every range is checked byte-exact.
# Usage, from the repository root after `mvn -B -q -DskipTests package` (needs nginx-light and libnginx-mod-http-dav-ext):
#   bench/sparse-bench.sh [SIZE (1G)] [REPETITIONS (3)] [LIMIT_RATE (1m)]
# Env: GRIDCACHE (the gridcache command; default the built distribution's), RANGES (40), RANGE (bytes, 1M),
#   BLOCK_SIZE (pool.block-size; default the cluster default), WORK (a directory with room for SIZE; default a new one
#   under /tmp, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1G}
reps=${2:-3}
rate=${3:-1m}
bytes=$(numfmt --from=iec "$size")
ranges=${RANGES:-40}
range=$(numfmt --from=iec "${RANGE:-1M}")
[ "$reps" -ge 1 ] || { echo "REPETITIONS must be at least 1" >&2; exit 1; }
for tool in nginx curl numfmt python3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done
[ -f /usr/lib/nginx/modules/ngx_http_dav_ext_module.so ] || { echo "libnginx-mod-http-dav-ext is missing" >&2; exit 1; }
gridcache=${GRIDCACHE:-$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)}
work=${WORK:-$(mktemp -d /tmp/sparse-bench.XXXXXX)}
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[sparse-bench] $*" >&2; }
. bench/lib.sh # free_port, await

# --- the origin: nginx WebDAV, limit_rate per connection, bytes sent in its access log ---
op=$(free_port)
mkdir -p "$work/data" "$work/nginx/tmp"
cat >"$work/nginx/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
worker_processes 1;
daemon on;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  default_type application/octet-stream;
  # limit_rate acts between writes: with sendfile, a block run of about 1 MiB leaves in one write, unshaped
  sendfile off;
  output_buffers 2 32k;
  log_format origin '\$request_method \$uri \$status \$body_bytes_sent';
  access_log $work/nginx/access.log origin;
  client_body_temp_path $work/nginx/tmp/body; proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fcgi; uwsgi_temp_path $work/nginx/tmp/uwsgi; scgi_temp_path $work/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$op;
    root $work/data;
    limit_rate $rate;
    dav_ext_methods PROPFIND OPTIONS;
    location / { }
  }
}
CONF
[ "$(id -u)" = 0 ] && sed -i '1a user root;' "$work/nginx/nginx.conf"
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log"
await 20 "nginx" curl -s -o /dev/null "http://127.0.0.1:$op/"

# --- the cluster: zk, one pool, one door, plain HTTP ---
zp=$(free_port); pp=$(free_port); dp=$(free_port)
common=(--plain-http --log-dir "$work/logs" --zk "127.0.0.1:$zp")
"$gridcache" zk --home "$work/zk" --port "$zp" >"$work/zk.out" 2>&1 & pids+=($!)
await 60 "ZooKeeper" grep -q "is up" "$work/zk.out"
"$gridcache" origins add data --prefix /data --url "http://127.0.0.1:$op/" --zk "127.0.0.1:$zp" >/dev/null
"$gridcache" pool "${common[@]}" --name p1 --store "$work/store" --capacity $((bytes + (1 << 30))) --port "$pp" \
  >"$work/pool.out" 2>&1 & pids+=($!)
"$gridcache" door "${common[@]}" --port "$dp" >"$work/door.out" 2>&1 & pids+=($!)
for f in pool door; do await 60 "$f" grep -q "is up" "$work/$f.out"; done
[ -z "${BLOCK_SIZE:-}" ] || "$gridcache" config set pool.block-size "$BLOCK_SIZE" --zk "127.0.0.1:$zp" >/dev/null
door=http://127.0.0.1:$dp

say "creating a sparse-ish $size file (64 KiB of random bytes in every MiB)"
python3 - "$work/data/big.bin" "$bytes" <<'PY'
import os, random, sys
path, size = sys.argv[1], int(sys.argv[2])
rnd = random.Random(1)
with open(path, "wb") as f:
    f.truncate(size)
    for at in range(0, size, 1 << 20):
        f.seek(at + rnd.randrange(max(1, min(900 << 10, size - at - (64 << 10)))))
        f.write(os.urandom(64 << 10))
PY
for r in $(seq "$reps"); do ln "$work/data/big.bin" "$work/data/big-$r.bin"; done
await 60 "the door to see the pool" sh -c "[ \"\$(curl -sL -o /dev/null -w '%{http_code}' -r 0-0 '$door/data/big.bin')\" = 206 ]"

# the curl config reading every range of NAME into $work/out/, and the check of what came
python3 - "$bytes" "$ranges" "$range" >"$work/ranges" <<'PY'
import random, sys
size, n, length = (int(a) for a in sys.argv[1:])
rnd = random.Random(14)
for _ in range(n):
    start = rnd.randrange(size - length)
    print(start, start + length - 1)
PY
curl_config() { # curl_config NAME
  local i=0
  while read -r s e; do
    [ $i = 0 ] || echo next
    printf 'url = "%s"\nrange = "%s-%s"\noutput = "%s"\nlocation\nfail\nsilent\nshow-error\n' \
      "$door/data/$1" "$s" "$e" "$work/out/$i"
    i=$((i + 1))
  done <"$work/ranges"
}
check() {
  python3 - "$work/data/big.bin" "$work/ranges" "$work/out" <<'PY'
import sys
data, ranges, out = sys.argv[1:]
with open(data, "rb") as f, open(ranges) as rs:
    for i, line in enumerate(rs):
        s, e = (int(x) for x in line.split())
        f.seek(s)
        if f.read(e - s + 1) != open(f"{out}/{i}", "rb").read():
            sys.exit(f"range {s}-{e} is not byte-exact")
PY
}
timed_read() { # timed_read NAME: seconds
  rm -rf "$work/out"; mkdir -p "$work/out"
  curl_config "$1" >"$work/curl.conf"
  local t0; t0=$(date +%s.%N)
  curl -K "$work/curl.conf"
  awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", e - s }'
  check
}
sent() { awk -v u="/$1" '$1 == "GET" && $2 == u { n += $4 } END { print n + 0 }' "$work/nginx/access.log"; }

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
colds=(); hots=(); fetched=()
for r in $(seq "$reps"); do
  c=$(timed_read "big-$r.bin"); colds+=("$c")
  f=$(sent "big-$r.bin"); fetched+=("$f")
  h=$(timed_read "big-$r.bin"); hots+=("$h")
  [ "$(sent "big-$r.bin")" = "$f" ] || { echo "the hot read fetched from the origin" >&2; exit 1; }
  say "repetition $r: cold $c s, hot $h s, origin sent $f bytes"
done
read_bytes=$((ranges * range))
mc=$(printf '%s\n' "${colds[@]}" | median); mh=$(printf '%s\n' "${hots[@]}" | median)
mf=$(printf '%s\n' "${fetched[@]}" | median)
echo "sparse read of $size ($bytes bytes): $ranges ranges of $range bytes ($(awk -v a="$read_bytes" -v b="$bytes" 'BEGIN { printf "%.2f", 100 * a / b }') %), origin limit_rate $rate, pool.block-size ${BLOCK_SIZE:-default}, $reps repetitions, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-30s %8s\n' read "seconds per repetition" median
printf '%-6s %-30s %8s\n' cold "${colds[*]}" "$mc"
printf '%-6s %-30s %8s\n' hot "${hots[*]}" "$mh"
echo "origin bytes per cold read: ${fetched[*]} (median $mf: $(awk -v a="$mf" -v b="$bytes" 'BEGIN { printf "%.2f", 100 * a / b }') % of the file, $(awk -v a="$mf" -v b="$read_bytes" 'BEGIN { printf "%.3f", a / b }') x what was read)"
echo "ratio hot vs cold: $(awk -v c="$mc" -v h="$mh" 'BEGIN { printf "%.0f", c / h }')x (median cold $mc s / median hot $mh s)"
