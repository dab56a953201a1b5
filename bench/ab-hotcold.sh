#!/bin/bash
# ab-hotcold.sh — two builds of gridcache, A and B, read the same way beside the reference caches, rounds interleaved,
# so that a change to the read path is judged on one machine state. Root; the anchors system-bench.sh starts must be
# running (run it once, then leave it: it stops only on `bench/system-bench.sh stop`).
#   Per round and build: gridcache standalone started fresh, two warm-up misses of 256 MiB (the JIT), a pause for
#   their fills to finish, then a cold read of SIZE through the door (curl -L, a new hard-linked name: a true miss),
#   a pause, and a hot read of it from the pool alone (the redirect's Location). Per round also XCache and nginx
#   proxy_cache cold and nginx direct (sendfile) on the same SIZE. MB/s, 10^6 bytes/s as curl reports.
# Usage: bench/ab-hotcold.sh A_DIST B_DIST   (each a dist/target/gridcache-*/ directory; e.g. one built from
#   `git archive <base> | tar -x -C /tmp/base` and this checkout's). Env: ROUNDS=3 MB=256 (256, 512 or 1024).
set -euo pipefail
A=${1:?A_DIST}; B=${2:?B_DIST}; ROUNDS=${ROUNDS:-3}; MB=${MB:-256}
RUN=/tmp/gridcache-bench; DATA=$RUN/data
[ -f "$DATA/base-${MB}m" ] || { echo "no $DATA/base-${MB}m: run bench/system-bench.sh first" >&2; exit 1; }
start() {
  rm -rf "${RUN:?}/home"
  "$1/bin/gridcache" standalone --home $RUN/home --origin http://127.0.0.1:29080/ --port 29880 --zk-port 29881 \
    --capacity 40G > $RUN/gridcache.out 2>&1 & echo $! > $RUN/gridcache.pid
  for _ in $(seq 150); do grep -q 'is up' $RUN/gridcache.out && return 0; sleep 0.2; done
  cat $RUN/gridcache.out >&2; exit 1
}
stop() {
  local p; p=$(cat $RUN/gridcache.pid 2>/dev/null) || return 0
  kill "$p" 2>/dev/null || return 0
  while kill -0 "$p" 2>/dev/null; do sleep 0.2; done
}
mbs() { awk '{printf "%.0f", $1/1e6}'; }
name() { local f=ab$RANDOM$RANDOM-$1; ln -f "$DATA/base-${2:-$MB}m" "$DATA/$f"; echo "$f"; }
get() { curl -sL -o /dev/null -w '%{speed_download}' "$1" | mbs; }
stop; trap stop EXIT
for _ in $(seq "$ROUNDS"); do
  for b in A B; do
    d=$A; [ $b = B ] && d=$B
    start "$d"
    get "http://127.0.0.1:29880/$(name w 256)" >/dev/null; get "http://127.0.0.1:29880/$(name w 256)" >/dev/null; sleep 5
    f=$(name $b); cold=$(get "http://127.0.0.1:29880/$f"); sleep 3
    hot=$(get "$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:29880/$f")")
    printf '%s cold %s hot %s | ' "$b" "$cold" "$hot"
    stop
  done
  xc=$(ip netns exec anchors-xc curl -s -o /dev/null -w '%{speed_download}' "http://127.0.0.1:29094/$(name x)" | mbs)
  echo "xcache cold $xc nginx-cache cold $(get "http://127.0.0.1:29081/$(name n)") direct $(get "http://127.0.0.1:29080/base-${MB}m")"
done
