#!/bin/bash
# checksums-ab.sh — what pool.checksums costs a miss: cold misses of one size through a standalone gridcache (plain
# HTTP, an nginx origin from ../shared/anchors serving from the page cache), alternating the default (adler32,crc32c)
# and all four, and the first and second HEAD asking md5 and sha-256 of a stored file (computed on demand, then kept).
#   Per miss: the client's time (curl), the wall time until the pool committed the file (a HEAD asking for the fill's
#   adler32 is answered then), and the CPU seconds the whole machine spent until then (/proc/stat: every process).
# Usage (root, the built distribution): bench/checksums-ab.sh   Env: ROUNDS=3 MB=1024 PORT=29480 (+1 zk, +2 pool,
#   +3 the origin), RUN=/tmp/gridcache-checksums-ab (deleted at the end unless KEEP_DATA is set).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
DIST=$(ls -d "$top"/dist/target/gridcache-*/ | head -1); A=$top/../shared/anchors
ROUNDS=${ROUNDS:-3}; MB=${MB:-1024}; PORT=${PORT:-29480}; ORIGIN=$((PORT + 3)); RUN=${RUN:-/tmp/gridcache-checksums-ab}
DOOR=http://127.0.0.1:$PORT; ZK=127.0.0.1:$((PORT + 1))
mkdir -p "$RUN/data"; chmod 755 "$RUN" "$RUN/data"
base=$RUN/data/base
[ "$(stat -c %s "$base" 2>/dev/null || echo 0)" = $((MB << 20)) ] || head -c $((MB << 20)) /dev/urandom > "$base"
chmod 644 "$base"
"$A/origin.sh" stop $ORIGIN >/dev/null 2>&1 || true
"$A/origin.sh" start "$RUN/data" $ORIGIN >/dev/null
rm -rf "${RUN:?}/home"
"$DIST/bin/gridcache" standalone --plain-http --home "$RUN/home" --origin "http://127.0.0.1:$ORIGIN/" --port $PORT \
  --zk-port $((PORT + 1)) --pool-port $((PORT + 2)) --capacity $((MB * (2 * ROUNDS + 4)))M > "$RUN/gridcache.out" 2>&1 &
gc=$!
finish() {
  kill $gc 2>/dev/null || true; wait $gc 2>/dev/null || true
  "$A/origin.sh" stop $ORIGIN >/dev/null 2>&1 || true
  [ -n "${KEEP_DATA:-}" ] || rm -rf "${RUN:?}"
}
trap finish EXIT
for _ in $(seq 150); do grep -q 'is up' "$RUN/gridcache.out" && break; sleep 0.2; done
grep -q 'is up' "$RUN/gridcache.out" || { cat "$RUN/gridcache.out" >&2; exit 1; }

busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
hz=$(getconf CLK_TCK)
miss() { # NAME: a cold read of a new hard-linked name, then a HEAD answered once the file is committed
  ln -f "$base" "$RUN/data/$1"; cat "$base" > /dev/null
  local c0 t0 wall
  c0=$(busy); t0=$(date +%s.%N)
  wall=$(curl -sSL --max-time 300 -o /dev/null -w '%{time_total}' "$DOOR/$1")
  curl -sSIL --max-time 300 -o /dev/null -H 'Want-Digest: adler32' "$DOOR/$1"
  awk -v w="$wall" -v a="$t0" -v b="$(date +%s.%N)" -v c0="$c0" -v c1="$(busy)" -v hz="$hz" -v bytes=$((MB << 20)) \
    'BEGIN { printf "client %.2f s (%.0f MB/s), committed after %.2f s, %.2f CPU s\n", w, bytes / w / 1e6, b - a, (c1 - c0) / hz }'
}
checksums() { # SETTING (empty: the default)
  if [ -z "$1" ]; then "$DIST/bin/gridcache" config unset pool.checksums --zk $ZK --home "$RUN/home" >/dev/null
  else "$DIST/bin/gridcache" config set pool.checksums "$1" --zk $ZK --home "$RUN/home" >/dev/null; fi
  sleep 1 # the pool reads cluster settings from a ZooKeeper watch; a fill reads the setting when it starts
}
echo "cold ${MB} MiB misses, default pool.checksums vs all four, alternating (MB/s = 10^6 bytes/s):"
for i in 1 2; do miss warm$i > /dev/null; done # the JIT: as every bench, warm-up misses first
for r in $(seq "$ROUNDS"); do
  checksums ""; echo "  round $r adler32,crc32c (default): $(miss d$r)"
  checksums adler32,md5,sha-256,crc32c; echo "  round $r all four:                 $(miss a$r)"
done
checksums ""
for n in first second; do
  c0=$(busy); t0=$(date +%s.%N)
  curl -sSIL --max-time 300 -o /dev/null -H 'Want-Digest: md5, sha-256' "$DOOR/d1"
  awk -v n=$n -v a="$t0" -v b="$(date +%s.%N)" -v c0="$c0" -v c1="$(busy)" -v hz="$hz" \
    'BEGIN { printf "%s HEAD asking md5 and sha-256 of a stored file filled with the default: %.2f s, %.2f CPU s\n", n, b - a, (c1 - c0) / hz }'
done
