#!/bin/bash
# system-bench.sh — gridcache beside the reference caches of ../shared/anchors, in one run, reporting ratios.
#   1. hot and cold reads of a 1 GiB and a 256 MiB file: direct from nginx, through gridcache, nginx proxy_cache,
#      Varnish and XCache (each cold read uses a new hard-linked name: a true miss while the origin serves from RAM);
#      the hot reads of the pool, nginx sendfile and Varnish also from a client in another network namespace (veth);
#   2. the real case, a remote origin: nginx with limit_rate (RATE, default 100m = 100 MiB/s per connection);
#      a direct download vs. a cold read through gridcache, ROUNDS times — total time and time to first byte;
#   3. hot aggregate: AGG_CLIENTS (100) concurrent curls of one AGG_MB (64) MiB file, already cached, directly from
#      nginx, through gridcache (door redirect + pool) and through Varnish: total bytes / wall time, errors counted.
# Parts 1 and 3 also report each server's CPU seconds per GiB served (user + system of its process tree, from /proc,
# the clients' not counted): every cache's cold reads (for gridcache up to its commit) and the hot aggregate.
# Needs root, the anchors installed (../shared/anchors/install.sh) and the distribution built (mvn -DskipTests package).
# "gridcache" rows include the door's redirect (curl -L); "pool hot" is the pool alone at the redirect's Location.
# Env: ROUNDS=2 HOT_READS=5 (each hot figure: the median of so many reads, the paths' reads taking turns) HOT_WARM=30 (untimed hot reads per
# path first) HOT_REQUESTS=3000 (then untimed hot reads of 4 MiB per server, each on new connections) RATE=100m LIMITED_MB=512
# WARM_MISSES=3000 (untimed misses of 4 KiB through gridcache before part 1's reads, and before part 2's) MAXT=300 BIG_MB=1024 MISS_MB=256 (the two sizes of part 1)
# AGG_CLIENTS=100 AGG_MB=64 PARTS="reads shaped agg" (which parts run) BENCH_RUN=/tmp/gridcache-bench (files, caches, logs)
# STOP_AT_EXIT (set: stop everything on exit, as bench/run.sh does; unset: left running for a look)
# BENCH_RESULTS (a CSV for bench/run.sh, see result in bench/lib.sh).
# Ports, PORT_BASE=29080 + offset: 0 origin, 1 nginx, 3 varnish (CLI +1000), 14 xcache (netns), 800 gridcache door
# (801 zk), 10 rate-limited origin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/.." && pwd)
A=${ANCHORS:-$top/../shared/anchors}
DIST=$(ls -d "$top"/dist/target/gridcache-*/ | head -1)
RUN=${BENCH_RUN:-/tmp/gridcache-bench}; DATA=${DATA:-$RUN/data}; CACHE=$RUN/cache
ROUNDS=${ROUNDS:-2}; RATE=${RATE:-100m}; LIMITED_MB=${LIMITED_MB:-512}; MAXT=${MAXT:-300}; WARM_MISSES=${WARM_MISSES:-3000}
BIG_MB=${BIG_MB:-1024}; MISS_MB=${MISS_MB:-256}; HOT_READS=${HOT_READS:-5}; HOT_WARM=${HOT_WARM:-30}; HOT_REQUESTS=${HOT_REQUESTS:-3000}; AGG_CLIENTS=${AGG_CLIENTS:-100}; AGG_MB=${AGG_MB:-64}
PARTS=" ${PARTS:-reads shaped agg} "
B=${PORT_BASE:-29080}
NS=${XC_NETNS:-anchors-xc}; OP=$B; GC=$((B + 800)); LP=$((B + 10))
declare -A PORT=([direct]=$OP [gridcache]=$GC [pool]=$GC [nginx]=$((B + 1)) [varnish]=$((B + 3)) [xcache]=$((B + 14)))
for p in direct pool varnish; do PORT[$p-veth]=${PORT[$p]}; done
# the names the results give each path (bench/run.sh's table)
declare -A SUBJECT=([direct]="nginx sendfile" [gridcache]=gridcache [pool]=pool [nginx]="nginx proxy_cache"
  [varnish]=varnish [xcache]=xcache)
say() { echo "[bench $(date +%T)] $*" >&2; }
. "$here/lib.sh"

stop_all() {
  [ -f $RUN/gridcache.pid ] && kill "$(cat $RUN/gridcache.pid)" 2>/dev/null && sleep 2 || true
  [ -f $RUN/limited/nginx.pid ] && nginx -c $RUN/limited/nginx.conf -s stop 2>/dev/null || true
  "$A/xcache.sh" stop "${PORT[xcache]}" >/dev/null 2>&1 || true
  "$A/xcache.sh" origin stop "$OP" >/dev/null 2>&1 || true
  "$A/varnish-cache.sh" stop "${PORT[varnish]}" >/dev/null 2>&1 || true
  "$A/nginx-cache.sh" stop "${PORT[nginx]}" >/dev/null 2>&1 || true
  "$A/origin.sh" stop "$OP" >/dev/null 2>&1 || true
  client_ns_down
}
[ "${1:-run}" = stop ] && { stop_all; rm -rf "$CACHE" "${RUN:?}/home"; exit 0; }
[ -z "${STOP_AT_EXIT:-}" ] || trap 'stop_all; rm -rf "$CACHE" "${RUN:?}/home"; rm -f "$DATA"/c[0-9]*-*' EXIT

mkdir -p "$DATA" "$RUN"
sizes=""; [[ $PARTS = *" reads "* ]] && sizes="$BIG_MB $MISS_MB"
[[ $PARTS = *" shaped "* ]] && sizes="$sizes $LIMITED_MB"; [[ $PARTS = *" agg "* ]] && sizes="$sizes $AGG_MB"
for mb in $sizes; do
  f=$DATA/base-${mb}m
  [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = $((mb << 20)) ] || { say "creating $f"; head -c $((mb << 20)) /dev/urandom > "$f"; }
done
id=$(date +%s)
link() { ln -f "$DATA/base-$2" "$DATA/c$id-$1"; echo "c$id-$1"; }

stop_all; rm -rf "$CACHE" "${RUN:?}/home"
"$A/origin.sh" start "$DATA" "$OP" >/dev/null
"$A/nginx-cache.sh" start "http://127.0.0.1:$OP/" "${PORT[nginx]}" "$CACHE/nginx" >/dev/null
"$A/varnish-cache.sh" start "http://127.0.0.1:$OP/" "${PORT[varnish]}" "$CACHE/varnish" >/dev/null
"$A/xcache.sh" origin start "$DATA" "$OP" >/dev/null
"$A/xcache.sh" start "http://127.0.0.1:$OP/" "${PORT[xcache]}" "$CACHE/xcache" >/dev/null
"$DIST/bin/gridcache" standalone --home $RUN/home --origin "http://127.0.0.1:$OP/" --port $GC --zk-port $((GC + 1)) \
  --capacity 40G > $RUN/gridcache.out 2>&1 & echo $! > $RUN/gridcache.pid
for i in $(seq 200); do grep -q 'is up' $RUN/gridcache.out && break; sleep 0.2; done
grep -q 'is up' $RUN/gridcache.out || { cat $RUN/gridcache.out; exit 1; }

# a client of xcache runs in its namespace; a path named *-veth is read by a client on "another host" (client_ns_up)
pre() { case $1 in xcache) echo "ip netns exec $NS" ;; *-veth) echo "ip netns exec $CLIENT_NS" ;; esac; }
# the CPU ticks of SYS's server so far (server_ticks); "pool" and "gridcache" are one process: the standalone
ticks() { if [ "$1" = xcache ]; then server_ticks "${PORT[xcache]}" "$NS"; else server_ticks "${PORT[$1]}"; fi; }
fetch() { # SYS PATH BYTES -> MB/s; SYS "pool" = the pool alone, at the Location the door redirects to
  local out code size t url="http://127.0.0.1:${PORT[$1]}/$2"
  case $1 in pool|pool-veth) url=$(curl -s -o /dev/null -w '%{redirect_url}' "$url") ;; esac
  out=$($(pre "$1") curl -sL -o /dev/null --max-time "$MAXT" -w '%{http_code} %{size_download} %{time_total}' "$url" || true)
  read -r code size t <<<"$out"
  if [ "$code" = 200 ] && [ "$size" = "$3" ]; then awk -v s="$size" -v t="$t" 'BEGIN{printf "%.0f", s/t/1e6}'; else echo "ERR:$code/$size"; fi
}
# a hot read reads a stored file: after a miss the pool still fsyncs the part file before it commits (and computes
# md5 and sha-256 there when pool.checksums names them); a HEAD asking for the fill's adler32 is answered once the
# file is committed (asking for md5 would compute it now, on demand)
settle() { # FILE
  local url; url=$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:${PORT[gridcache]}/$1")
  curl -sI -o /dev/null --max-time "$MAXT" -H 'Want-Digest: adler32' "$url" || true
}
declare -A R
rec() { R[$1|$2]="${R[$1|$2]:-}$3 "; say "$1 ${2}MiB: $3 MB/s"; }
for mb in $sizes; do cat "$DATA/base-${mb}m" > /dev/null; done # the origin reads from the page cache
role() { case $1 in gridcache|pool) echo gridcache ;; *) echo reference ;; esac; }
num() { [[ $1 =~ ^[0-9]+$ ]] && echo "$1" || echo ERR; }

# Every cold read starts from the same memory: the cold reads of a run write GiBs of new cache files, and once the
# page cache has filled the RAM, each new page must first be reclaimed, at a cost to whichever cache reads later in
# the round (the same cache read 1,517 then 459 MB/s three rounds apart). So before each: dirty pages written, clean
# ones dropped, the origin's file read into the page cache again.
fresh_memory() { # MB
  sync; echo 1 > /proc/sys/vm/drop_caches; cat "$DATA/base-${1}m" > /dev/null
}
# First, WARM_MISSES untimed misses of 4 KiB files through gridcache, as part 2 makes before its shaped misses:
# HotSpot compiles a miss's per-request Java with C2 only after thousands of runs, and the two large misses below
# leave it in the interpreter and C1. Two `PARTS=reads` runs of 5 rounds, the same build: gridcache's cold 256 MiB
# reads without such misses 1,113-1,310 MB/s (median 1,247; nginx proxy_cache 1,238), with them 1,372-2,000 (median
# 1,560; nginx proxy_cache 1,385) (ARCHITECTURE.md, "Performance design"). The reference servers
# are native code and get none: the same 3,000 misses given to each cache slowed XCache's cold reads that followed to
# 61-156 MB/s (212-1,047 in the run before).
warm_misses() { # PREFIX (the origin's, "" or limited/) LABEL
  local i codes
  head -c 4096 /dev/urandom > "$DATA/base-4k"
  for i in $(seq "$WARM_MISSES"); do
    ln -f "$DATA/base-4k" "$DATA/c$id-w$i"
    printf 'url = "http://127.0.0.1:%s/%sc%s-w%s"\noutput = "/dev/null"\n' "$GC" "$1" "$id" "$i"
  done > "$RUN/warm-misses.curl"
  codes=$(curl -sL -K "$RUN/warm-misses.curl" --max-time "$MAXT" -w '%{http_code}\n' | sort | uniq -c | xargs || true)
  say "$2: $WARM_MISSES untimed misses of 4 KiB through gridcache: $codes (count, status)"
  rm -f "$DATA/c$id-w"* "$DATA/base-4k"
  quiet "$(cat $RUN/gridcache.pid)"
}
# HOT_REQUESTS hot reads of a 4 MiB file per server, in one curl each, each request on new connections (the
# aggregate's clients and every fetch of the bench are new curls): what a hot read runs once per request (the
# connection's set-up and close, the request, the door's redirect and ticket, the reply's head, the mapping's lease)
# HotSpot compiles with C2 only after thousands of requests. After the reads below, the standalone's C1 and C2 still
# used 0.2-0.35 CPU s during each 60 hot reads of 256 MiB at the pool (its event loop: 3.3 s), on the cores the reads
# run on; after 2,000 such requests, 0.05-0.15 s. Those requests used to share one kept connection: the hot
# aggregate's rounds after 3,000 of them still compiled 135-385 methods each (a fresh standalone, 224-884: up to
# 0.36 CPU s of C2 in rounds of about 4.5 CPU s), the door's and the pool's per-connection code; after 3,000 more on
# new connections, 16-28. The other servers get the same requests.
warm_requests() { # SERVER...
  local c f i codes
  [ -f "$DATA/base-4m" ] || head -c $((4 << 20)) /dev/urandom > "$DATA/base-4m"
  for c in "$@"; do
    f=$(link "$c-requests-4m" 4m)
    fetch "$c" "$f" $((4 << 20)) >/dev/null; [ "$c" != gridcache ] || settle "$f"
    for i in $(seq "$HOT_REQUESTS"); do
      printf 'url = "http://127.0.0.1:%s/%s"\noutput = "/dev/null"\n' "${PORT[$c]}" "$f"
    done > "$RUN/requests.curl"
    codes=$($(pre "$c") curl -sL -K "$RUN/requests.curl" -H 'Connection: close' --max-time "$MAXT" -w '%{http_code}\n' | sort | uniq -c | xargs || true)
    say "$c: $HOT_REQUESTS untimed hot reads of 4 MiB, on new connections: $codes (count, status)"
  done
}
# Each cache serves two cold and hot reads first, not counted: the JVM's first GiBs run before its JIT has compiled
# the data path (gridcache's first cold 1 GiB read 546 MB/s, the next ones 1,000-1,300), and a cache runs for weeks.
# Then HOT_WARM hot reads per path, not counted either: after the two, the standalone's C1 and C2 still compiled for
# 0.63 CPU s during the next 10 hot reads of 1 GiB at the pool, 0.17 s during the 10 after them, 0.08 s during reads
# 51-60. (The medians of those reads rose from 3.6 to 4.6 GB/s, but Varnish's rose as much in the same sequence, and
# two runs of the reads with HOT_WARM=0 and 30 differed by less than their noise.)
if [[ $PARTS = *" reads "* ]]; then
  warm_misses "" reads
  for c in gridcache nginx varnish xcache; do
    for i in 1 2; do f=$(link "$c-warm$i-${MISS_MB}m" "${MISS_MB}m"); fetch "$c" "$f" $((MISS_MB << 20)) >/dev/null
      [ "$c" != gridcache ] || settle "$f"; fetch "$c" "$f" $((MISS_MB << 20)) >/dev/null; done
    paths=("$c"); [ "$c" != gridcache ] || paths+=(pool)
    for p in "${paths[@]}"; do
      for i in $(seq "$HOT_WARM"); do fetch "$p" "$f" $((MISS_MB << 20)) >/dev/null; done
    done
  done
  warm_requests gridcache nginx varnish xcache
fi

# the hot objects: one per cache and size, filled now and read once on every path (the pool maps its file then), so
# that each cache's hot object is where its own fill left it: the pool's file in the page cache and mapped, Varnish's
# in its mapped storage. The rounds' cold reads drop the page cache before each (fresh_memory); drop_caches spares
# mapped pages. Hot objects filled in the round itself, as the cold reads were, had been dropped from the page cache
# by the next cache's cold read (the pool's file is mapped only by its first hot read) and came back through that
# read's page faults: the pool read 0.95x Varnish at 1 GiB, against 1.24x with its hot file where its fill left it
declare -A F
if [[ $PARTS = *" reads "* ]]; then
  for mb in $BIG_MB $MISS_MB; do
    for c in gridcache nginx varnish xcache; do
      F[$c$mb]=$(link "$c-hot-${mb}m" "${mb}m"); fetch "$c" "${F[$c$mb]}" $((mb << 20)) >/dev/null
      [ "$c" != gridcache ] || settle "${F[$c$mb]}"
      fetch "$c" "${F[$c$mb]}" $((mb << 20)) >/dev/null; [ "$c" != gridcache ] || fetch pool "${F[$c$mb]}" $((mb << 20)) >/dev/null
    done
  done
fi

# hot reads alternate between the paths, one read each per turn: a slow spell of the shared 2-core VM then falls on
# every server alike. Each server's HOT_READS reads in a block of their own, as before, gave per-round medians that
# swung by up to 30 % either way (the pool alone slower than through the door in some rounds, faster in others), and
# 5 rounds of that set the P1 ratio by chance (ARCHITECTURE.md, "Performance design")
hot_turns() { # BYTES PATH... (file of each path in F): HOT_READS turns after one untimed read per path
  local bytes=$1 p v i; shift
  declare -A vs=()
  # untimed: nginx proxy_cache's and XCache's files are not mapped, and the cold reads dropped them
  for p in "$@"; do fetch "$p" "${F[$p]}" "$bytes" >/dev/null; done
  for i in $(seq "$HOT_READS"); do
    for p in "$@"; do
      [[ ${vs[$p]:-} = ERR* ]] && continue
      v=$(fetch "$p" "${F[$p]}" "$bytes")
      if [[ $v =~ ^[0-9]+$ ]]; then vs[$p]="${vs[$p]:-} $v"; else vs[$p]=$v; fi
    done
  done
  for p in "$@"; do
    v=${vs[$p]}
    [[ $v = ERR* ]] || v=$(median $v)
    echo "$p $v"
  done
}
[[ $PARTS != *" reads "* ]] || client_ns_up
for r in $(seq "$ROUNDS"); do
  [[ $PARTS = *" reads "* ]] || break
  order=(gridcache nginx varnish xcache); [ $((r % 2)) = 0 ] && order=(xcache varnish nginx gridcache)
  for mb in $BIG_MB $MISS_MB; do
    bytes=$((mb << 20))
    for c in "${order[@]}"; do
      f=$(link "$c-r$r-${mb}m" "${mb}m"); fresh_memory $mb
      t0=$(ticks "$c")
      v=$(fetch "$c" "$f" $bytes); rec "$c cold" $mb "$v"
      [ "$c" != gridcache ] || settle "$f" # its commit (fsync, checksums) is the miss's work too
      t1=$(ticks "$c")
      # nginx sendfile has no miss: a cold read through a cache is compared with the other caches' cold reads
      case $c in gridcache|nginx|xcache)
        result cold-miss "${SUBJECT[$c]}" "$(role "$c")" "$r" "$(num "$v")" MB/s "${mb} MiB"
        [[ $v =~ ^[0-9]+$ ]] && got=$bytes || got=0
        result cpu-cold "${SUBJECT[$c]}" "$(role "$c")" "$r" "$(cpu_per_gib "$t0" "$t1" $got)" s/GiB "${mb} MiB" ;;
      esac
    done
    cat "$DATA/base-${mb}m" > /dev/null # nginx sendfile's file, dropped by the cold reads' fresh_memory
    for c in gridcache nginx varnish xcache; do F[$c]=${F[$c$mb]}; done
    F[direct]=base-${mb}m; F[pool]=${F[gridcache]}
    paths=(direct); for c in "${order[@]}"; do paths+=("$c"); [ "$c" != gridcache ] || paths+=(pool); done
    for p in direct pool varnish; do F[$p-veth]=${F[$p]}; paths+=("$p-veth"); done
    while read -r p v; do
      case $p in direct) rec direct $mb "$v" ;; pool) rec "pool hot" $mb "$v" ;; *) rec "$p hot" $mb "$v" ;; esac
      case $p in direct|gridcache|varnish|pool)
        result hot-single "${SUBJECT[$p]}" "$(role "$p")" "$r" "$(num "$v")" MB/s "${mb} MiB" ;;
        *-veth) result hot-single-veth "${SUBJECT[${p%-veth}]}" "$(role "${p%-veth}")" "$r" "$(num "$v")" MB/s "${mb} MiB" ;;
      esac
    done < <(hot_turns $bytes "${paths[@]}")
  done
done

# part 3 (run before part 2): hot aggregate — AGG_CLIENTS concurrent reads of one cached file per path, each curl bounded by MAXT
aggregate() { # SYS FILE ROUND: MB/s of all clients together (bytes of complete 200s / wall time); errors counted
  local sys=$1 file=$2 r=$3 i t0 t1 c0 c1 url="http://127.0.0.1:${PORT[$1]}/$2" bytes=$((AGG_MB << 20)) ok dir=$RUN/agg
  local clients=()
  rm -rf "$dir"; mkdir -p "$dir"
  fetch "$sys" "$file" $bytes >/dev/null # the file is hot (and the door knows where) before the clock starts
  [ "$sys" != gridcache ] || settle "$file"
  c0=$(ticks "$sys")
  t0=$(date +%s.%N)
  for i in $(seq "$AGG_CLIENTS"); do
    curl -sL -o /dev/null --max-time "$MAXT" -w '%{http_code} %{size_download}\n' "$url" >"$dir/$i" 2>/dev/null &
    clients+=($!)
  done
  wait "${clients[@]}" || true # the clients only: a plain wait would wait for gridcache too
  t1=$(date +%s.%N)
  c1=$(ticks "$sys")
  ok=$(cat "$dir"/* | grep -c "^200 $bytes\$" || true)
  awk -v n="$ok" -v b=$bytes -v a="$t0" -v z="$t1" 'BEGIN { printf "%.0f", n * b / (z - a) / 1e6 }' >"$dir/rate"
  result hot-aggregate "${SUBJECT[$sys]}" "$(role "$sys")" "$r" "$(cat "$dir/rate")" MB/s "$AGG_CLIENTS x $AGG_MB MiB"
  result hot-aggregate-errors "${SUBJECT[$sys]}" info "$r" $((AGG_CLIENTS - ok)) requests "$AGG_CLIENTS x $AGG_MB MiB"
  result cpu-hot "${SUBJECT[$sys]}" "$(role "$sys")" "$r" "$(cpu_per_gib "$c0" "$c1" $((ok * bytes)))" s/GiB \
    "$AGG_CLIENTS x $AGG_MB MiB"
  say "aggregate $sys round $r: $(cat "$dir/rate") MB/s, $((AGG_CLIENTS - ok)) of $AGG_CLIENTS failed"
  R[agg $sys|$AGG_MB]="${R[agg $sys|$AGG_MB]:-}$(cat "$dir/rate") "
}
if [[ $PARTS = *" agg "* ]]; then
  cat "$DATA/base-${AGG_MB}m" > /dev/null
  [[ $PARTS = *" reads "* ]] || warm_requests direct gridcache varnish # done with the reads otherwise
  for r in $(seq "$ROUNDS"); do
    f=$(link "agg-r$r" "${AGG_MB}m")
    for c in direct gridcache varnish; do aggregate "$c" "$f" "$r"; done
  done
fi

# part 2: a rate-limited ("remote") origin
shaped() {
  mkdir -p $RUN/limited/tmp
  cat > $RUN/limited/nginx.conf <<NGX
user root; worker_processes 1; pid $RUN/limited/nginx.pid; error_log $RUN/limited/error.log warn;
events { worker_connections 1024; }
http { sendfile on; access_log off; client_body_temp_path $RUN/limited/tmp/b; proxy_temp_path $RUN/limited/tmp/p;
  fastcgi_temp_path $RUN/limited/tmp/f; uwsgi_temp_path $RUN/limited/tmp/u; scgi_temp_path $RUN/limited/tmp/s;
  server { listen 127.0.0.1:$LP; root $DATA; limit_rate $RATE; location / { } } }
NGX
  nginx -c $RUN/limited/nginx.conf
  "$DIST/bin/gridcache" origins add limited --prefix /limited --url "http://127.0.0.1:$LP/" --zk 127.0.0.1:$((GC + 1)) --home $RUN/home >/dev/null
  # the first miss from this origin, shown beside the judged figure, not judged: a fresh JVM's when the shaped part
  # runs alone (PARTS=shaped); after the reads and the aggregate otherwise
  [ -f "$DATA/base-1m" ] || head -c $((1 << 20)) /dev/urandom > "$DATA/base-1m"
  w=$(link "limited-warm" "1m")
  fresh=$(curl -sL -o /dev/null --max-time "$MAXT" -w '%{time_starttransfer} %{time_redirect} %{http_code}' \
    "http://127.0.0.1:$GC/limited/$w" || true)
  # then WARM_MISSES misses of 4 KiB files from the same origin, through door and pool, untimed: a pool in service
  # has run its miss path thousands of times, and HotSpot compiles it with C2 only after ~5,000 runs; until then the
  # miss's Java runs interpreted or in C1 (a perf trace of a JVM's 41st miss: 12 ms without a system call between the
  # origin socket's creation and its hand-off to an event loop; of a miss after 8,000 more: 0.3 ms)
  warm_misses limited/ shaped
  cat "$DATA/base-${LIMITED_MB}m" > /dev/null
  for r in $(seq "$ROUNDS"); do
    f=$(link "limited-r$r" "${LIMITED_MB}m")
    direct[r]=$(curl -s -o /dev/null --max-time "$MAXT" -w '%{time_starttransfer} %{time_total} %{http_code}' \
      "http://127.0.0.1:$LP/$f" || true)
    g=$(link "limited-gc-r$r" "${LIMITED_MB}m")
    # curl -L: time_starttransfer covers the redirect too; the door's answer is subtracted to get the pool's first byte
    via[r]=$(curl -sL -o /dev/null --max-time "$MAXT" -w '%{time_starttransfer} %{time_total} %{time_redirect} %{http_code}' \
      "http://127.0.0.1:$GC/limited/$g" || true)
    quiet "$(cat $RUN/gridcache.pid)" # the fill's fsync and commit
  done
  nginx -c $RUN/limited/nginx.conf -s stop
}
[[ $PARTS = *" shaped "* ]] && shaped

mean() { awk '{s=0;n=0;for(i=1;i<=NF;i++) if($i ~ /^[0-9]+$/){s+=$i;n++}; if(n) printf "%.0f", s/n; else printf "ERR"}' <<<"$1"; }
if [[ $PARTS = *" reads "* ]]; then
echo
echo "Read throughput, MB/s, mean of $ROUNDS rounds [each round]; ratio = gridcache / other, same run ($(date -u +%FT%TZ))"
printf '%-16s %-24s %-24s\n' path "$BIG_MB MiB" "$MISS_MB MiB"
for row in direct "gridcache cold" "gridcache hot" "pool hot" "nginx cold" "nginx hot" "varnish cold" "varnish hot" "xcache cold" "xcache hot"; do
  printf '%-16s %-24s %-24s\n' "$row" "$(mean "${R[$row|$BIG_MB]:-}") [${R[$row|$BIG_MB]:-}]" "$(mean "${R[$row|$MISS_MB]:-}") [${R[$row|$MISS_MB]:-}]"
done
ratio() { awk -v a="$(mean "${R[$1|$3]:-}")" -v b="$(mean "${R[$2|$3]:-}")" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "n/a"}'; }
echo
for mb in $BIG_MB $MISS_MB; do
  echo "${mb} MiB: hot gridcache/direct-nginx $(ratio 'gridcache hot' direct $mb) (pool alone $(ratio 'pool hot' direct $mb)), gridcache/varnish-hot $(ratio 'gridcache hot' 'varnish hot' $mb);" \
       "cold gridcache/xcache $(ratio 'gridcache cold' 'xcache cold' $mb), gridcache/nginx-proxy_cache $(ratio 'gridcache cold' 'nginx cold' $mb)"
done
fi
if [[ $PARTS = *" agg "* ]]; then
  echo
  echo "Hot aggregate, $AGG_CLIENTS clients x $AGG_MB MiB, MB/s [each round]:"
  for c in direct gridcache varnish; do printf '  %-10s %s [%s]\n' "$c" "$(mean "${R[agg $c|$AGG_MB]}")" "${R[agg $c|$AGG_MB]% }"; done
fi
if [[ $PARTS = *" shaped "* ]]; then
shaped_params="$LIMITED_MB MiB limit_rate $RATE"
echo
echo "Rate-limited origin (limit_rate $RATE), ${LIMITED_MB} MiB cold:"
for r in $(seq "$ROUNDS"); do
  read -r dfb dtot dcode <<<"${direct[r]}"; read -r gfb gtot gredir gcode <<<"${via[r]}"
  [ "$dcode" = 200 ] || { dfb=ERR; dtot=ERR; }
  [ "$gcode" = 200 ] || { gfb=ERR; gtot=ERR; }
  result shaped-total "nginx sendfile (direct)" reference "$r" "$dtot" s "$shaped_params"
  result shaped-total gridcache gridcache "$r" "$gtot" s "$shaped_params"
  result shaped-first-byte "nginx sendfile (direct)" reference "$r" "$dfb" s "$shaped_params"
  result shaped-first-byte "gridcache after the redirect" gridcache "$r" \
    "$(awk -v x="$gfb" -v r="$gredir" 'BEGIN{ if (x == "ERR") print x; else printf "%.4f", x-r }')" s "$shaped_params"
  echo "  round $r: direct: first byte $(awk -v x="$dfb" 'BEGIN{printf "%.1f", x*1000}') ms, total $dtot s;" \
    "gridcache: first byte $(awk -v x="$gfb" -v r="$gredir" 'BEGIN{printf "%.1f", (x-r)*1000}') ms after the redirect" \
    "(redirect $(awk -v r="$gredir" 'BEGIN{printf "%.1f", r*1000}') ms), total $gtot s;" \
    "ratio $(awk -v a="$gtot" -v b="$dtot" 'BEGIN{ if (a+0 > 0 && b+0 > 0) printf "%.3f", a/b; else print "n/a" }')"
done
read -r ffb fredir fcode <<<"$fresh"
result shaped-first-byte-fresh "gridcache after the redirect" gridcache 1 \
  "$(awk -v x="$ffb" -v r="$fredir" -v c="$fcode" 'BEGIN{ if (c != 200) print "ERR"; else printf "%.4f", x-r }')" s \
  "1 MiB limit_rate $RATE"
echo "  the first miss from this origin (1 MiB, before $WARM_MISSES warm-up misses): first byte $(awk -v x="$ffb" -v r="$fredir" 'BEGIN{printf "%.1f", (x-r)*1000}') ms after the redirect"
fi
[ -n "${STOP_AT_EXIT:-}" ] || say "left running; stop with: $0 stop"
