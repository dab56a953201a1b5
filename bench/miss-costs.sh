#!/usr/bin/env bash
# miss-costs.sh — what one miss costs the pool, on a warm standalone whose origin is a local nginx (issue 14, P3):
#   first-byte   N misses of 64 KiB files, one at a time, each read at the pool's URL (the door's redirect taken first,
#                untimed): curl's first byte after its connect, p10/p50/p90/p99, beside nginx's own for the same files;
#                GAP seconds between misses (0: back to back; an idle machine between misses is slower to wake here)
#   cold         K misses of a 256 MiB file through door and pool (curl -L, new names of one hard-linked file), the
#                page cache dropped before each: MB/s and the standalone's CPU seconds per miss
# A benchmark, not a test; root (nginx, drop_caches). Run from the repository root after
# `mvn -B -o -q -DskipTests package`:
#   bench/miss-costs.sh [first-byte|cold|both]
# Env: N=300 WARM=300 (untimed misses first) GAP=0 K=5 MB=256; GRIDCACHE_JAVA_OPTS passes on to the standalone.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-both}
N=${N:-300}; WARM=${WARM:-300}; GAP=${GAP:-0}; K=${K:-5}; MB=${MB:-256}
gridcache=$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)
. bench/lib.sh
work=$(mktemp -d)
cleanup() { # set -e holds here too: a killed process's status must not end the cleanup early
  [ -f "$work/nginx/nginx.pid" ] && { kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true; }
  if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
percentiles() { # LABEL: milliseconds on stdin, one per line
  sort -n | awk -v l="$1" '{ a[NR] = $1 } END { printf "%s: p10 %.2f p50 %.2f p90 %.2f p99 %.2f ms (%d)\n", l,
    a[int(NR * .1) + 1], a[int(NR * .5) + 1], a[int(NR * .9) + 1], a[int(NR * .99) + 1], NR }'
}
mkdir -p "$work/origin"
nginx_port=$(free_port)
start_nginx "$work/nginx" "127.0.0.1:$nginx_port" "$work/origin"
if [ "$what" != cold ]; then
  for i in $(seq $((WARM + N))); do head -c 65536 /dev/urandom >"$work/origin/s$i"; done
fi
if [ "$what" != first-byte ]; then
  head -c $((MB << 20)) /dev/urandom >"$work/base"
  for i in $(seq 0 $((K + 3))); do ln -f "$work/base" "$work/origin/c$i"; done
fi
probe=$([ "$what" = cold ] && echo c0 || echo s1)
start_standalone "$gridcache" "$work" "http://127.0.0.1:$nginx_port/" "$probe"
if [ "$what" != cold ]; then
  for i in $(seq $((WARM + N))); do curl -s -o /dev/null -w '%{redirect_url}\n' "http://127.0.0.1:$port/s$i"; done >"$work/urls"
  head -"$WARM" "$work/urls" | while read -r u; do curl -s -o /dev/null "$u"; done
  tail -"$N" "$work/urls" | while read -r u; do
    [ "$GAP" = 0 ] || sleep "$GAP"
    curl -s -o /dev/null -w '%{time_connect} %{time_starttransfer}\n' "$u"
  done | awk '{ print ($2 - $1) * 1000 }' | percentiles "pool miss, first byte after connect (gap ${GAP}s)"
  for i in $(seq "$N"); do
    curl -s -o /dev/null -w '%{time_connect} %{time_starttransfer}\n' "http://127.0.0.1:$nginx_port/s$i"
  done | awk '{ print ($2 - $1) * 1000 }' | percentiles "nginx direct, first byte after connect"
fi
if [ "$what" != first-byte ]; then
  java_pid=$(pgrep -P "$pid" java || echo "$pid") # the launcher execs java: usually $pid itself
  cpu() { awk '{ print $14 + $15 }' "/proc/$java_pid/stat"; }
  for w in 1 2 3; do # untimed: the JIT's first compiles of the miss and the hit paths
    curl -sL -o /dev/null "http://127.0.0.1:$port/c$((K + w))"; curl -sL -o /dev/null "http://127.0.0.1:$port/c$((K + w))"
  done
  for i in $(seq "$K"); do
    sync; echo 1 >/proc/sys/vm/drop_caches; cat "$work/base" >/dev/null
    before=$(cpu)
    rate=$(curl -sL -o /dev/null -w '%{speed_download}' "http://127.0.0.1:$port/c$i")
    after=$(cpu)
    awk -v r="$rate" -v a="$before" -v b="$after" -v hz="$(getconf CLK_TCK)" -v mb="$MB" \
      'BEGIN { printf "cold %d MiB miss: %.0f MB/s, %.2f CPU s of the standalone\n", mb, r / 1e6, (b - a) / hz }'
    sleep 1.5 # the fill's fsync and commit, off the next miss's clock
  done
fi
