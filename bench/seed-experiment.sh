#!/usr/bin/env bash
# The seed paper's experiment, replayed on gridcache: N concurrent jobs each download a file and checksum it, every
# job on the same file vs. each on its own file, through 1 pool vs. 3 pools (policies random = the seed design, and
# affinity), cold vs. cached, compared with the same jobs reading directly from the origin. Then a burst of 100
# clients on one new file through 3 pools, per policy, counting origin GETs.
#
#   bench/seed-experiment.sh [--quick] [--shaped] [--out DIR]     (root; after: mvn -B -q -DskipTests package)
#
#   --quick    N = 1 10 20 (default N = 1 10 20 40 80)
#   --shaped   everything in a network namespace of its own whose loopback is shaped with tc (HTB by source port):
#              the origin sends at most 25 MB/s, each pool 100 MB/s, so bandwidth is the bottleneck as in the paper
#   env FILE_MB  size of each file (default 64), NS ("1 10 20 40 80": the values of N), BURST (100),
#       SPILL  selection.spill-load for the run (default: the cluster's, 16; lower spreads a hot file over more pools sooner)
#
# Writes <out>/results.csv, <out>/burst.csv, <out>/table.md and PNG plots (<out>/*.png, gnuplot: apt-get install
# gnuplot-nox). Needs nginx (+ libnginx-mod-http-dav-ext), curl, sha256sum; --shaped needs iproute2 (ip, tc).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
QUICK=0; SHAPED=0; OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --shaped) SHAPED=1 ;;
    --out) OUT=$2; shift ;;
    *) echo "usage: $0 [--quick] [--shaped] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
FILE_MB=${FILE_MB:-64}
BURST=${BURST:-100}
if [ -z "${NS:-}" ]; then NS=$([ $QUICK = 1 ] && echo "1 10 20" || echo "1 10 20 40 80"); fi
DIST=$(find "$ROOT"/dist/target -maxdepth 1 -type d -name 'gridcache-*' 2>/dev/null | head -1)
[ -x "$DIST/bin/gridcache" ] || { echo "build first: mvn -B -q -DskipTests package" >&2; exit 1; }
OUT=${OUT:-$ROOT/bench/results/seed-$(date +%Y%m%d-%H%M%S)$([ $SHAPED = 1 ] && echo -shaped)}
mkdir -p "$OUT"/data "$OUT"/logs "$OUT"/tmp
OUT=$(cd "$OUT" && pwd)
NETNS=gcoop-seed-$$
IN=""
PIDS=()

cleanup() {
  set +e
  local i pid
  # door and pools first, ZooKeeper last: they deregister on the way out
  for (( i=${#PIDS[@]}-1; i>=0; i-- )); do
    pid=${PIDS[$i]}; kill "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  [ -f "$OUT/nginx.pid" ] && kill "$(cat "$OUT/nginx.pid")" 2>/dev/null
  if [ $SHAPED = 1 ]; then ip netns del "$NETNS" 2>/dev/null; fi
  rm -rf "$OUT"/store* "$OUT"/zk "$OUT"/tmp
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
gc() { $IN "$DIST/bin/gridcache" "$@"; }
log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

ORIGIN_PORT=$(free_port); ZK_PORT=$(free_port); DOOR_PORT=$(free_port)
POOL_PORTS=("$(free_port)" "$(free_port)" "$(free_port)")

if [ $SHAPED = 1 ]; then
  ip netns add "$NETNS"
  IN="ip netns exec $NETNS"
  $IN ip link set lo mtu 1500 up  # Ethernet-sized packets, as on the paper's links, so HTB shapes them normally
  $IN tc qdisc add dev lo root handle 1: htb default 99
  $IN tc class add dev lo parent 1: classid 1:99 htb rate 20gbit
  $IN tc class add dev lo parent 1: classid 1:10 htb rate 25mbps ceil 25mbps
  $IN tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip sport "$ORIGIN_PORT" 0xffff flowid 1:10
  for i in 0 1 2; do
    $IN tc class add dev lo parent 1: classid 1:2$i htb rate 100mbps ceil 100mbps
    $IN tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip sport "${POOL_PORTS[$i]}" 0xffff flowid 1:2$i
  done
  log "namespace $NETNS: origin :$ORIGIN_PORT shaped to 25 MB/s, pools :${POOL_PORTS[*]} to 100 MB/s each"
fi

# --- the origin: nginx over base files; each run reads fresh names (symlinks), so "cold" really is cold ---
log "making 4 files of $FILE_MB MiB"
for k in 0 1 2 3; do
  [ -f "$OUT/data/base$k" ] || head -c $((FILE_MB << 20)) /dev/urandom > "$OUT/data/base$k"
  SUM[$k]=$(sha256sum "$OUT/data/base$k" | cut -c1-64)
done
mkdir -p "$OUT/nginx-tmp"
cat > "$OUT/nginx.conf" <<EOF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
user root; worker_processes 2; daemon on; pid $OUT/nginx.pid; error_log $OUT/logs/nginx-error.log warn;
events { worker_connections 4096; }
http {
  default_type application/octet-stream; sendfile on;
  log_format origin '\$request_method \$uri \$status \$body_bytes_sent';
  access_log $OUT/logs/origin-access.log origin;
  client_body_temp_path $OUT/nginx-tmp; proxy_temp_path $OUT/nginx-tmp; fastcgi_temp_path $OUT/nginx-tmp;
  uwsgi_temp_path $OUT/nginx-tmp; scgi_temp_path $OUT/nginx-tmp;
  server { listen 127.0.0.1:$ORIGIN_PORT; root $OUT/data; location / { dav_ext_methods PROPFIND OPTIONS; autoindex on; } }
}
EOF
$IN nginx -c "$OUT/nginx.conf" -e "$OUT/logs/nginx-error.log"
ORIGIN=http://127.0.0.1:$ORIGIN_PORT
DOOR=http://127.0.0.1:$DOOR_PORT

await() { # await SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2; shift 2
  local deadline=$(( $(date +%s) + limit ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt $deadline ] || { echo "timed out waiting for $what" >&2; exit 1; }
    sleep 0.2
  done
}

# --- the cluster: one ZooKeeper, a door, three pools (the 1-pool scenarios stop two of them) ---
COMMON=(--plain-http --log-dir "$OUT/logs" --zk "127.0.0.1:$ZK_PORT")
$IN "$DIST/bin/gridcache" zk --home "$OUT/zk" --port $ZK_PORT > "$OUT/logs/zk.out" 2>&1 & PIDS+=($!)
await 60 "ZooKeeper" grep -q "is up" "$OUT/logs/zk.out"
gc origins add seed --prefix /seed --url "$ORIGIN/" --zk 127.0.0.1:$ZK_PORT >/dev/null
start_pool() {
  $IN "$DIST/bin/gridcache" pool "${COMMON[@]}" --name "p$1" --store "$OUT/store$1" --capacity 20G \
      --port "${POOL_PORTS[$(($1 - 1))]}" > "$OUT/logs/pool$1.out" 2>&1 &
  POOL_PID[$1]=$!; PIDS+=($!)
}
start_pool 1; await 60 "pool p1" grep -q "is up" "$OUT/logs/pool1.out"   # p1 writes the ticket key
start_pool 2; start_pool 3
$IN "$DIST/bin/gridcache" door "${COMMON[@]}" --port $DOOR_PORT --id seed-door > "$OUT/logs/door.out" 2>&1 & PIDS+=($!)
for f in pool2 pool3 door; do await 60 "$f" grep -q "is up" "$OUT/logs/$f.out"; done
for i in $(seq 30); do ln -sf base0 "$OUT/data/probe$i.bin"; done
pools_seen() { # how many distinct pools the door redirects 30 paths to
  for i in $(seq 30); do $IN curl -s -o /dev/null -w '%{redirect_url}\n' "$DOOR/seed/probe$i.bin"; done \
    | grep . | sed -E 's#^(http://[^/]+)/.*#\1#' | sort -u | wc -l
}
await_pools() { # await_pools COUNT
  local deadline=$(( $(date +%s) + 60 ))
  until [ "$(pools_seen)" = "$1" ]; do
    [ "$(date +%s)" -lt $deadline ] || { echo "timed out waiting for $1 pools at the door" >&2; exit 1; }
    sleep 0.5
  done
}
await_pools 3
if [ -n "${SPILL:-}" ]; then gc config set selection.spill-load "$SPILL" --zk 127.0.0.1:$ZK_PORT >/dev/null; fi
policy() { gc config set selection.policy "$1" --zk 127.0.0.1:$ZK_PORT >/dev/null; await 30 "policy $1" grep -q "selection policy now $1" "$OUT/logs/door.out"; }

# --- one run: N jobs at once, each curl | sha256sum, timed; prints "mean_s max_s failures" ---
job() { # job URL EXPECTED_SUM -> "ms ok"
  local t0 t1 sum
  t0=$(date +%s%N)
  sum=$($IN curl -sfL --max-time 1200 "$1" | sha256sum | cut -c1-64)
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000000 )) $([ "$sum" = "$2" ] && echo 1 || echo 0)"
}
RUN=0
jobs_at_once() { # jobs_at_once BASEURL MODE N -> writes $OUT/tmp/run.txt
  local base=$1 mode=$2 n=$3 k
  local jp=() name sum
  : > "$OUT/tmp/run.txt"
  for k in $(seq 0 $((n - 1))); do
    if [ "$mode" = same ]; then name="r$RUN-same.bin"; sum=${SUM[0]}; else name="r$RUN-j$k.bin"; sum=${SUM[$((k % 4))]}; fi
    job "$base/$name" "$sum" >> "$OUT/tmp/run.txt" &
    jp+=($!)
  done
  wait "${jp[@]}"
}
make_names() { # make_names MODE N: fresh origin names for this run
  local k
  if [ "$1" = same ]; then ln -sf base0 "$OUT/data/r$RUN-same.bin"; return; fi
  for k in $(seq 0 $(($2 - 1))); do ln -sf "base$((k % 4))" "$OUT/data/r$RUN-j$k.bin"; done
}
origin_bytes_since() { tail -c +$(( $1 + 1 )) "$OUT/logs/origin-access.log" | awk -v p="/r$RUN-" '$1=="GET" && index($2,p)==1 {b+=$4} END {print b+0}'; }
origin_gets_since() { tail -c +$(( $1 + 1 )) "$OUT/logs/origin-access.log" | awk -v p="/r$RUN-" '$1=="GET" && index($2,p)==1 {n++} END {print n+0}'; }
log_size() { stat -c %s "$OUT/logs/origin-access.log" 2>/dev/null || echo 0; }

CSV=$OUT/results.csv
echo "scenario,policy,pools,files,cache,n,mean_s,max_s,aggregate_MBps,origin_bytes,origin_gets,failures" > "$CSV"
scenario() { # scenario NAME POLICY POOLS MODE CACHE N BASEURL
  local name=$1 pol=$2 npools=$3 mode=$4 cache=$5 n=$6 base=$7 before stats
  RUN=$((RUN + 1))
  make_names "$mode" "$n"
  if [ "$cache" = hot ] && [ "$npools" != 0 ]; then jobs_at_once "$base" "$mode" "$n"; fi  # warm-up: the same jobs, untimed (direct: the origin serves from its page cache anyway)
  before=$(log_size)
  local t0 agg
  t0=$(date +%s%N)
  jobs_at_once "$base" "$mode" "$n"
  local wall=$(( ($(date +%s%N) - t0) / 1000000 ))
  stats=$(awk '{s+=$1; if ($1>m) m=$1; if ($2!=1) f++} END {printf "%.2f,%.2f,%d", s/NR/1000, m/1000, f+0}' "$OUT/tmp/run.txt")
  agg=$(awk -v n="$n" -v mb="$FILE_MB" -v ms="$wall" 'BEGIN {printf "%.1f", n*mb*1.048576/(ms/1000)}')
  echo "$name,$pol,$npools,$mode,$cache,$n,${stats%,*},$agg,$(origin_bytes_since "$before"),$(origin_gets_since "$before"),${stats##*,}" >> "$CSV"
  log "$name $mode $cache N=$n: $(tail -1 "$CSV")"
}

# --- the matrix ---
for pol in random affinity; do
  policy $pol
  for mode in same different; do for cache in cold hot; do for n in $NS; do
    scenario "3 pools $pol" $pol 3 $mode $cache $n "$DOOR/seed"
  done; done; done
done

# the burst: BURST clients on one new file through 3 pools, per policy
BURST_CSV=$OUT/burst.csv
echo "policy,clients,origin_gets,origin_bytes,failures,mean_s" > "$BURST_CSV"
for pol in random affinity; do
  policy $pol
  RUN=$((RUN + 1)); make_names same 1; before=$(log_size)
  jobs_at_once "$DOOR/seed" same "$BURST"
  echo "$pol,$BURST,$(origin_gets_since "$before"),$(origin_bytes_since "$before"),$(awk '$2!=1 {f++} END {print f+0}' "$OUT/tmp/run.txt"),$(awk '{s+=$1} END {printf "%.2f", s/NR/1000}' "$OUT/tmp/run.txt")" >> "$BURST_CSV"
  log "burst $pol: $(tail -1 "$BURST_CSV")"
done

for mode in same different; do for cache in cold hot; do for n in $NS; do
  scenario "direct" none 0 $mode $cache $n "$ORIGIN"
done; done; done

kill "${POOL_PID[2]}" "${POOL_PID[3]}"
await_pools 1
policy affinity
for mode in same different; do for cache in cold hot; do for n in $NS; do
  scenario "1 pool" affinity 1 $mode $cache $n "$DOOR/seed"
done; done; done

# --- the table and the plots ---
{
  echo "| scenario | files | cache | $(echo $NS | sed 's/ / | /g' | sed 's/\([0-9][0-9]*\)/N=\1/g') | origin MiB (sum over N) |"
  echo "|---|---|---|$(for n in $NS; do printf -- '---|'; done)---|"
  for sc in "direct" "1 pool" "3 pools random" "3 pools affinity"; do for mode in same different; do for cache in cold hot; do
    awk -F, -v sc="$sc" -v m="$mode" -v c="$cache" 'NR>1 && $1==sc && $4==m && $5==c {row=row " | " $7 " s"; ob+=$10}
      END {if (row!="") printf "| %s | %s | %s%s | %.0f |\n", sc, m, c, row, ob/1048576}' "$CSV"
  done; done; done
  echo
  nmax=${NS##* }
  echo "Aggregate throughput, one hot file, N=$nmax jobs (MB/s; ratio to 1 pool):"
  echo
  one=$(awk -F, -v n="$nmax" 'NR>1 && $1=="1 pool" && $4=="same" && $5=="hot" && $6==n {print $9}' "$CSV")
  for sc in "direct" "1 pool" "3 pools random" "3 pools affinity"; do
    awk -F, -v sc="$sc" -v n="$nmax" -v one="$one" 'NR>1 && $1==sc && $4=="same" && $5=="hot" && $6==n {printf "- %s: %s MB/s (%.2fx)\n", sc, $9, $9/one}' "$CSV"
  done
  echo
  echo "Burst of $BURST clients on one new file through 3 pools:"
  echo
  echo "| policy | origin GETs | origin MiB | failures | mean job s |"
  echo "|---|---|---|---|---|"
  awk -F, 'NR>1 {printf "| %s | %s | %.0f | %s | %s |\n", $1, $3, $4/1048576, $5, $6}' "$BURST_CSV"
} > "$OUT/table.md"
cat "$OUT/table.md"

if command -v gnuplot >/dev/null; then
  for mode in same different; do for cache in cold hot; do
    for sc in "direct" "1 pool" "3 pools random" "3 pools affinity"; do
      awk -F, -v sc="$sc" -v m="$mode" -v c="$cache" 'NR>1 && $1==sc && $4==m && $5==c {print $6, $7}' "$CSV" > "$OUT/tmp/${sc// /_}-$mode-$cache.dat"
    done
    gnuplot <<EOF
set terminal pngcairo size 800,500
set output "$OUT/duration-$mode-$cache.png"
set title "Mean job duration vs. concurrent jobs: $mode file, $cache ($FILE_MB MiB per job$([ $SHAPED = 1 ] && echo ', shaped links'))"
set xlabel "concurrent jobs N"; set ylabel "mean job duration (s)"; set key left top; set grid
plot "$OUT/tmp/direct-$mode-$cache.dat" w lp t "direct from origin", \
     "$OUT/tmp/1_pool-$mode-$cache.dat" w lp t "1 pool", \
     "$OUT/tmp/3_pools_random-$mode-$cache.dat" w lp t "3 pools, random (seed)", \
     "$OUT/tmp/3_pools_affinity-$mode-$cache.dat" w lp t "3 pools, affinity"
EOF
  done; done
  awk -F, 'NR>1 && $1 ~ /pool/ && $5=="cold" {b[$1 " / " $4]+=$10} END {for (k in b) printf "\"%s\" %.1f\n", k, b[k]/1048576}' "$CSV" | sort > "$OUT/tmp/origin.dat"
  awk -F, 'NR>1 {printf "\"burst %s\" %.1f\n", $1, $4/1048576}' "$BURST_CSV" >> "$OUT/tmp/origin.dat"
  gnuplot <<EOF
set terminal pngcairo size 900,500
set output "$OUT/origin-bytes.png"
set title "Bytes read from the origin per scenario (cold runs, summed over N; and the $BURST-client burst)"
set ylabel "MiB from the origin"; set style fill solid 0.6; set boxwidth 0.6; set xtics rotate by -30; set grid y
plot "$OUT/tmp/origin.dat" using 0:2:xtic(1) with boxes notitle
EOF
  log "plots: $OUT/*.png"
else
  log "gnuplot not installed (apt-get install gnuplot-nox): no plots, the CSV is complete"
fi
log "results in $OUT (results.csv, burst.csv, table.md)"
