#!/bin/bash
# soak.sh [DURATION] [CONNECTIONS] — issue 15, R7: a cluster (ZooKeeper, a door, two pools, an nginx WebDAV origin)
# under CONNECTIONS (1000) requests always in flight for DURATION (10m; s, m or h) — hits, misses, ranged reads and
# PROPFIND, by bench/SoakLoad.java — while every 10 s the heap after a full GC (jcmd GC.run, then GC.heap_info) and the
# open file descriptors (/proc/PID/fd) of door and pools are sampled. Writes bench/results/<time>-soak/: samples.csv
# (seconds,phase,node,heap_kb,fds; phase: before, load, after), load.csv (the generator's progress and outcomes) and
# summary.txt (requests, errors by status; per node under load the first, last, min and max heap and descriptors and
# the largest deviation from the first; and heap and descriptors idle before and after the load, for leaks).
# Needs root (nginx), jcmd (the JDK), and the distribution built (mvn -DskipTests package).
# Env: HOT=20 MISS=2000 (files, 256 KiB each; the pools hold CAPACITY=128M each, so misses keep missing; small pools
# under 1000 requests can be full of data in use, answered 507: a larger CAPACITY with more MISS avoids it), BENCH_RUN.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/.." && pwd)
. "$here/lib.sh"
DURATION=${1:-10m}; CONNECTIONS=${2:-1000}
HOT=${HOT:-20}; MISS=${MISS:-2000}; CAPACITY=${CAPACITY:-128M}
case $DURATION in
  *h) seconds=$(( ${DURATION%h} * 3600 )) ;;
  *m) seconds=$(( ${DURATION%m} * 60 )) ;;
  *s) seconds=${DURATION%s} ;;
  *) seconds=$DURATION ;;
esac
DIST=$(ls -d "$top"/dist/target/gridcache-*/ | head -1)
gridcache=$DIST/bin/gridcache
work=${BENCH_RUN:-/tmp/gridcache-soak}
out=$top/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-soak
say() { echo "[soak $(date +%T)] $*" >&2; }
pids=()
stop() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
}
trap stop EXIT
rm -rf "$work"; mkdir -p "$work/nginx/tmp" "$work/data/soak/hot" "$work/data/soak/miss" "$out"

say "origin files: $HOT hot, $MISS to miss (256 KiB each), one of 64 MiB"
for i in $(seq 0 $((HOT - 1))); do head -c 262144 /dev/urandom >"$work/data/soak/hot/h$i.bin"; done
head -c 262144 /dev/urandom >"$work/seed.bin"
for i in $(seq 0 $((MISS - 1))); do cp "$work/seed.bin" "$work/data/soak/miss/m$i.bin"; done
head -c $((64 << 20)) /dev/urandom >"$work/data/soak/big.bin"
np=$(free_port)
cat >"$work/nginx/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
user root;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 4096; }
http {
  default_type application/octet-stream;
  sendfile on; access_log off; keepalive_requests 100000;
  client_body_temp_path $work/nginx/tmp/b; proxy_temp_path $work/nginx/tmp/p;
  fastcgi_temp_path $work/nginx/tmp/f; uwsgi_temp_path $work/nginx/tmp/u; scgi_temp_path $work/nginx/tmp/s;
  server { listen 127.0.0.1:$np; root $work/data; location / { dav_ext_methods PROPFIND OPTIONS; } }
}
CONF
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log"
await 20 "nginx" curl -fs -o /dev/null "http://127.0.0.1:$np/soak/big.bin" -r 0-0

zp=$(free_port); dp=$(free_port)
common=(--plain-http --log-dir "$work/logs" --zk "127.0.0.1:$zp")
"$gridcache" zk --home "$work/zk" --port "$zp" >"$work/zk.out" 2>&1 & pids+=($!)
await 60 "ZooKeeper" grep -q "is up" "$work/zk.out"
"$gridcache" origins add soak --prefix /soak --url "http://127.0.0.1:$np/soak/" --zk "127.0.0.1:$zp" >/dev/null
declare -A node
for p in p1 p2; do
  "$gridcache" pool "${common[@]}" --name "$p" --store "$work/store-$p" --capacity "$CAPACITY" --port "$(free_port)" \
    >"$work/$p.out" 2>&1 & pids+=($!); node[$p]=$!
done
"$gridcache" door "${common[@]}" --port "$dp" >"$work/door.out" 2>&1 & pids+=($!); node[door]=$!
for f in p1 p2 door; do await 60 "$f" grep -q "is up" "$work/$f.out"; done
door=http://127.0.0.1:$dp
await 60 "the door to redirect to a pool" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' '$door/soak/hot/h0.bin')\" = 302 ]"
say "door $door (pid ${node[door]}), pools p1 (pid ${node[p1]}) and p2 (pid ${node[p2]}); $CONNECTIONS connections for ${seconds}s"

# sample SECONDS PHASE: one line per node: seconds,phase,node,heap_kb (used after a full GC),fds
sample() {
  local n heap fds
  for n in door p1 p2; do
    jcmd "${node[$n]}" GC.run >/dev/null 2>&1 || true
    heap=$(jcmd "${node[$n]}" GC.heap_info 2>/dev/null | sed -n 's/.* used \([0-9]*\)K.*/\1/p' | head -1)
    fds=$(find "/proc/${node[$n]}/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    echo "$1,$2,$n,${heap:-ERR},$fds" >>"$out/samples.csv"
  done
}
echo "seconds,phase,node,heap_kb,fds" >"$out/samples.csv"
sample 0 before
java "$here/SoakLoad.java" "$door" "$seconds" "$CONNECTIONS" "$HOT" "$MISS" >"$out/load.csv" 2>"$work/load.err" &
load=$!; pids+=("$load")
t0=$(date +%s)
while kill -0 "$load" 2>/dev/null; do
  sleep 10
  kill -0 "$load" 2>/dev/null && sample $(( $(date +%s) - t0 )) load
done
wait "$load" || { say "the load generator failed:"; cat "$work/load.err" >&2; }
sleep 35 # the clients' connections close, and the door's idle ones time out (door.idle-timeout, 30 s)
sample $(( $(date +%s) - t0 )) after

{
  echo "soak $(date -u +%FT%TZ): $seconds s, $CONNECTIONS connections, door + 2 pools ($CAPACITY each) + nginx origin;"
  echo "mix: 50 % hits ($HOT files), 20 % misses ($MISS files of 256 KiB), 20 % ranges of 64 MiB, 10 % PROPFIND"
  grep -v '^progress' "$out/load.csv" | sed 's/^/  /'
  awk -F, 'NR > 1 && $3 != "" && $4 != "ERR" {
      p = $2; n = $3; h = $4; f = $5
      if (p != "load") { idle[n] = idle[n] sprintf(" %s: heap %d KiB, %d fds;", p, h, f); next }
      if (!(n in first)) { first[n] = h; ffirst[n] = f; min[n] = h; max[n] = h; fmin[n] = f; fmax[n] = f }
      last[n] = h; flast[n] = f
      if (h < min[n]) min[n] = h
      if (h > max[n]) max[n] = h
      if (f < fmin[n]) fmin[n] = f
      if (f > fmax[n]) fmax[n] = f
    }
    function dev(a, lo, hi) { return (hi - a > a - lo ? hi - a : a - lo) / a * 100 }
    END {
      for (n in first) {
        printf "  %-4s under load: heap after GC KiB first %d last %d min %d max %d (max deviation %.0f %%); fds first %d last %d min %d max %d (max deviation %.0f %%)\n",
          n, first[n], last[n], min[n], max[n], dev(first[n], min[n], max[n]), ffirst[n], flast[n], fmin[n], fmax[n], dev(ffirst[n], fmin[n], fmax[n])
        printf "  %-4s idle:%s\n", n, idle[n]
      }
    }' "$out/samples.csv" | sort
} | tee "$out/summary.txt"
say "results in $out"
