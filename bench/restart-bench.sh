#!/usr/bin/env bash
# A pool's restart with a large store (issue 15, R4): how long from the pool's process start until its index is ready,
# for FILES small files (100,000 by default, 512 bytes each). zk, door and pool of the built distribution run as
# separate processes in front of a root nginx (bench/lib.sh's start_nginx) serving FILES files. Then the pool is
# killed with SIGKILL and started again ROUNDS times; each round reports
#   - index: the pool's own "index ready in N ms" line (Store's rebuild: the walk, deletions, the index),
#   - start: from the process start until that line appeared in its output (JVM start, ZooKeeper, settings, rebuild),
#   - up: from the process start until "is up" (listening and registered),
#   - cpu: the CPU seconds the pool process had used when the index was ready (JVM start included): unlike the wall
#     times, barely touched by other work on the machine,
#   - proven: the verifier's "proven in N ms" line (every sidecar read, after the pool is up, beside the clients),
# and the median of each. The page cache is warm (the files were just written or read): a cold disk is slower.
#
# Seeding (SEED): "pool" (default) fills the store through the real pool: every file read once through the door by
# curl --parallel (PARALLEL at a time, -L), each a miss from nginx, bounded by SEED_TIMEOUT seconds (on a 2-core
# machine shared with other work this takes minutes for 100,000 files). "direct" writes the store's layout with
# bench/seed-store.py instead (data files and sidecars as a fetch leaves them, without the fsyncs) when the pool is
# too slow to fill on the machine at hand; the restart does not tell the two apart.
# Root (nginx); run from the repository root after `mvn -B -o -q -pl dist -am package -DskipTests`:
#   bench/restart-bench.sh [FILES (100000)] [ROUNDS (3)]
# Env: SEED (pool|direct), PARALLEL (16), SEED_TIMEOUT (1800), KEEP (keep the work directory), BENCH_RESULTS.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-100000}
rounds=${2:-3}
seed=${SEED:-pool}
gridcache=$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)
. bench/lib.sh
work=$(mktemp -d)
pids=()
cleanup() {
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
  # pool, door, then zk: a door stopped after ZooKeeper waits for it (its shutdown did not end in a minute)
  local order=() i
  [ -n "${pool:-}" ] && order+=("$pool")
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do order+=("${pids[i]}"); done
  for p in "${order[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

# the origin: FILES files of 512 bytes in 1,000 directories (the layout bench/seed-store.py names too)
python3 - "$work/origin" "$files" <<'EOF'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
body = os.urandom(512)
for d in range(min(n, 1000)):
    os.makedirs(f"{root}/d{d:03d}", exist_ok=True)
for i in range(n):
    with open(f"{root}/d{i % 1000:03d}/f{i}.bin", "wb") as f:
        f.write(body)
EOF
nginx_port=$(free_port)
start_nginx "$work/nginx" "127.0.0.1:$nginx_port" "$work/origin"
zk_port=$(free_port); door_port=$(free_port); pool_port=$(free_port)
"$gridcache" zk --home "$work/zk" --port "$zk_port" >"$work/zk.out" 2>&1 & pids+=($!)
await 60 "ZooKeeper" grep -q "is up" "$work/zk.out"
"$gridcache" origins add data --prefix / --url "http://127.0.0.1:$nginx_port/" --zk "127.0.0.1:$zk_port" >/dev/null
printf 'zk=127.0.0.1:%s\nlog-dir=%s\nplain-http=true\n' "$zk_port" "$work/logs" >"$work/gc.properties"

start_pool() { # OUTPUT: starts the pool in the background, sets $pool and $started (epoch seconds, ns precision)
  started=$(date +%s.%N)
  "$gridcache" pool --config "$work/gc.properties" --name p1 --store "$work/store" --capacity 100G \
    --port "$pool_port" >"$1" 2>&1 &
  pool=$!
}
since() { # appeared PATTERN OUTPUT: seconds from $started until PATTERN was first in OUTPUT (polled every 20 ms)
  local deadline=$(( $(date +%s) + 600 ))
  until grep -q "$1" "$2"; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "no '$1' in $2" >&2; cat "$2" >&2; exit 1; }
    sleep 0.02
  done
  python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.2f}')" "$(date +%s.%N)" "$started"
}

if [ "$seed" = direct ]; then
  python3 bench/seed-store.py "$work/store" "http://127.0.0.1:$nginx_port" "$files"
fi
start_pool "$work/pool-0.out"
await 120 "the pool" grep -q "is up" "$work/pool-0.out"
"$gridcache" door --config "$work/gc.properties" --port "$door_port" --signing-key "$work/keys/door.jwk" \
  >"$work/door.out" 2>&1 & pids+=($!)
await 120 "the door" grep -q "is up" "$work/door.out"
await 60 "the door to redirect" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$door_port/d000/f0.bin)\" = 302 ]"

if [ "$seed" = pool ]; then
  python3 - "$work/urls.curl" "$door_port" "$files" <<'EOF'
import sys
out, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(out, "w") as f:
    for i in range(n):
        f.write(f'url = "http://127.0.0.1:{port}/d{i % 1000:03d}/f{i}.bin"\noutput = "/dev/null"\n')
EOF
  t0=$(date +%s.%N)
  timeout "${SEED_TIMEOUT:-1800}" curl -sS --max-time 60 --parallel --parallel-max "${PARALLEL:-16}" -L \
    -w '%{http_code}\n' -K "$work/urls.curl" >"$work/seed.codes" 2>"$work/seed.err" || true
  ok=$(grep -c '^200$' "$work/seed.codes" || true)
  seconds=$(python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$(date +%s.%N)" "$t0")
  echo "seeded $ok of $files files through the pool in $seconds s (curl --parallel-max ${PARALLEL:-16})"
  result restart-seed pool info 1 "$seconds" s "$ok files"
  [ "$ok" -eq "$files" ] || { echo "not every file was read (see $work/seed.err); the restart is measured with $ok" >&2; }
  # each commit (fsync, sidecar, rename) follows its file's last byte to the client, on the pool's two disk writers:
  # wait until the store holds what was read (or stops growing for 30 s), so the kill below loses no copy
  committed() { curl -s "http://127.0.0.1:$pool_port/.gridcache/metrics" | awk '/^gridcache_pool_files[ {]/ {printf "%d", $NF}'; }
  t0=$(date +%s.%N); last=-1; still=0
  while n=$(committed); [ "${n:-0}" -lt "$ok" ] && [ "$still" -lt 30 ]; do
    if [ "$n" = "$last" ]; then still=$((still + 1)); else still=0; last=$n; fi
    sleep 1
  done
  seconds=$(python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$(date +%s.%N)" "$t0")
  echo "committed $(committed) of $ok files $seconds s after the last client had its bytes"
  result restart-commit-lag pool info 1 "$seconds" s "$ok files"
fi
data_files() { find "$work/store/data" -type f -regextype posix-extended -regex '.*/[0-9a-f]{64}' | wc -l; }

declare -a index start up proven cpu
cpu_seconds() { # PID: user + system CPU seconds so far (fields 14 and 15 of /proc/PID/stat, in clock ticks)
  awk -v hz="$(getconf CLK_TCK)" '{sub(/.*\) /, ""); printf "%.2f", ($12 + $13) / hz}' "/proc/$1/stat"
}
for r in $(seq "$rounds"); do
  kill -9 "$pool"; wait "$pool" 2>/dev/null || true
  stored=$(data_files) # counted once the pool is dead: the last commits of the seeding are on disk by now
  [ "$r" -gt 1 ] || echo "store: $stored data files ($(du -sh "$work/store" | cut -f1) on disk)"
  out="$work/pool-$r.out"
  start_pool "$out"
  start[r]=$(since "index ready in" "$out")
  cpu[r]=$(cpu_seconds "$pool")
  up[r]=$(since "is up" "$out")
  index[r]=$(grep -o 'index ready in [0-9]* ms' "$out" | grep -o '[0-9]*')
  count=$(grep -o 'ms: [0-9]* files' "$out" | grep -o '[0-9]*')
  await 600 "the verifier" grep -q "proven in" "$out"
  proven[r]=$(grep -o 'proven in [0-9]* ms' "$out" | grep -o '[0-9]*')
  echo "round $r: $count files; index ready in ${index[r]} ms; ${start[r]} s from process start to index ready (${cpu[r]} s of CPU), ${up[r]} s to up; all sidecars proven ${proven[r]} ms after"
  [ "$count" -eq "$stored" ] || { echo "the index counts $count files, the disk holds $stored" >&2; exit 1; }
  result restart-index "pool $stored files" gridcache "$r" "${index[r]}" ms
  result restart-start "pool $stored files" gridcache "$r" "${start[r]}" s
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "median of $rounds: index ready in $(median "${index[@]}") ms; $(median "${start[@]}") s from process start to index ready ($(median "${cpu[@]}") s of CPU); $(median "${up[@]}") s to up; sidecars proven in $(median "${proven[@]}") ms ($stored files)"
date -u +"ended %H:%M:%S UTC"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine lengthens every figure)"
