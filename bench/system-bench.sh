#!/bin/bash
# system-bench.sh — gridcache beside the reference caches of ../shared/anchors, in one run, reporting ratios.
#   1. hot and cold reads of a 1 GiB and a 256 MiB file: direct from nginx, through gridcache, nginx proxy_cache,
#      Varnish and XCache (each cold read uses a new hard-linked name: a true miss while the origin serves from RAM);
#   2. the real case, a remote origin: nginx with limit_rate (RATE, default 100m = 100 MiB/s per connection);
#      a direct download vs. a cold read through gridcache — total time and time to first byte.
# Needs root, the anchors installed (../shared/anchors/install.sh) and the distribution built (mvn -DskipTests package).
# "gridcache" rows include the door's redirect (curl -L); "pool hot" is the pool alone at the redirect's Location.
# Env: ROUNDS=2 RATE=100m LIMITED_MB=512 MAXT=300. Ports: 29080 origin, 29081 nginx, 29083 varnish,
# 29094 xcache (netns), 29880 gridcache door (+29881 zk), 29090 rate-limited origin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/.." && pwd)
A=${ANCHORS:-$top/../shared/anchors}
DIST=$(ls -d "$top"/dist/target/gridcache-*/ | head -1)
DATA=${DATA:-/tmp/gridcache-bench/data}; RUN=/tmp/gridcache-bench; CACHE=$RUN/cache
ROUNDS=${ROUNDS:-2}; RATE=${RATE:-100m}; LIMITED_MB=${LIMITED_MB:-512}; MAXT=${MAXT:-300}
NS=${XC_NETNS:-anchors-xc}; OP=29080; GC=29880; LP=29090
declare -A PORT=([direct]=$OP [gridcache]=$GC [pool]=$GC [nginx]=29081 [varnish]=29083 [xcache]=29094)
say() { echo "[bench] $*" >&2; }

stop_all() {
  [ -f $RUN/gridcache.pid ] && kill "$(cat $RUN/gridcache.pid)" 2>/dev/null && sleep 2 || true
  [ -f $RUN/limited/nginx.pid ] && nginx -c $RUN/limited/nginx.conf -s stop 2>/dev/null || true
  "$A/xcache.sh" stop "${PORT[xcache]}" >/dev/null 2>&1 || true
  "$A/xcache.sh" origin stop "$OP" >/dev/null 2>&1 || true
  "$A/varnish-cache.sh" stop "${PORT[varnish]}" >/dev/null 2>&1 || true
  "$A/nginx-cache.sh" stop "${PORT[nginx]}" >/dev/null 2>&1 || true
  "$A/origin.sh" stop "$OP" >/dev/null 2>&1 || true
}
[ "${1:-run}" = stop ] && { stop_all; rm -rf "$CACHE" $RUN/home; exit 0; }

mkdir -p "$DATA" "$RUN"
for mb in 1024 256 $LIMITED_MB; do
  f=$DATA/base-${mb}m
  [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = $((mb << 20)) ] || { say "creating $f"; head -c $((mb << 20)) /dev/urandom > "$f"; }
done
id=$(date +%s)
link() { ln -f "$DATA/base-$2" "$DATA/c$id-$1"; echo "c$id-$1"; }

stop_all; rm -rf "$CACHE" $RUN/home
"$A/origin.sh" start "$DATA" "$OP" >/dev/null
"$A/nginx-cache.sh" start "http://127.0.0.1:$OP/" "${PORT[nginx]}" "$CACHE/nginx" >/dev/null
"$A/varnish-cache.sh" start "http://127.0.0.1:$OP/" "${PORT[varnish]}" "$CACHE/varnish" >/dev/null
"$A/xcache.sh" origin start "$DATA" "$OP" >/dev/null
"$A/xcache.sh" start "http://127.0.0.1:$OP/" "${PORT[xcache]}" "$CACHE/xcache" >/dev/null
"$DIST/bin/gridcache" standalone --home $RUN/home --origin "http://127.0.0.1:$OP/" --port $GC --zk-port $((GC + 1)) \
  --capacity 40G > $RUN/gridcache.out 2>&1 & echo $! > $RUN/gridcache.pid
for i in $(seq 200); do grep -q 'is up' $RUN/gridcache.out && break; sleep 0.2; done
grep -q 'is up' $RUN/gridcache.out || { cat $RUN/gridcache.out; exit 1; }

pre() { [ "$1" = xcache ] && echo "ip netns exec $NS" || true; }
fetch() { # SYS PATH BYTES -> MB/s; SYS "pool" = the pool alone, at the Location the door redirects to
  local out code size t url="http://127.0.0.1:${PORT[$1]}/$2"
  [ "$1" = pool ] && url=$(curl -s -o /dev/null -w '%{redirect_url}' "$url")
  out=$($(pre "$1") curl -sL -o /dev/null --max-time "$MAXT" -w '%{http_code} %{size_download} %{time_total}' "$url" || true)
  read -r code size t <<<"$out"
  if [ "$code" = 200 ] && [ "$size" = "$3" ]; then awk -v s="$size" -v t="$t" 'BEGIN{printf "%.0f", s/t/1e6}'; else echo "ERR:$code/$size"; fi
}
declare -A R
rec() { R[$1|$2]="${R[$1|$2]:-}$3 "; say "$1 ${2}MiB: $3 MB/s"; }
for mb in 1024 256; do cat "$DATA/base-${mb}m" > /dev/null; done

for r in $(seq "$ROUNDS"); do
  order=(gridcache nginx varnish xcache); [ $((r % 2)) = 0 ] && order=(xcache varnish nginx gridcache)
  for mb in 1024 256; do
    bytes=$((mb << 20))
    rec direct $mb "$(fetch direct "base-${mb}m" $bytes)"
    for c in "${order[@]}"; do
      f=$(link "$c-r$r-${mb}m" "${mb}m"); sync
      rec "$c cold" $mb "$(fetch "$c" "$f" $bytes)"
      rec "$c hot" $mb "$(fetch "$c" "$f" $bytes)"
      [ "$c" = gridcache ] && rec "pool hot" $mb "$(fetch pool "$f" $bytes)"
    done
  done
done

# part 2: a rate-limited ("remote") origin
mkdir -p $RUN/limited/tmp
cat > $RUN/limited/nginx.conf <<NGX
user root; worker_processes 1; pid $RUN/limited/nginx.pid; error_log $RUN/limited/error.log warn;
events { worker_connections 1024; }
http { sendfile on; access_log off; client_body_temp_path $RUN/limited/tmp/b; proxy_temp_path $RUN/limited/tmp/p;
  fastcgi_temp_path $RUN/limited/tmp/f; uwsgi_temp_path $RUN/limited/tmp/u; scgi_temp_path $RUN/limited/tmp/s;
  server { listen 127.0.0.1:$LP; root $DATA; limit_rate $RATE; location / { } } }
NGX
nginx -c $RUN/limited/nginx.conf
"$DIST/bin/gridcache" origins add limited --prefix /limited --url "http://127.0.0.1:$LP/" --zk 127.0.0.1:$((GC + 1)) >/dev/null
f=$(link "limited" "${LIMITED_MB}m"); cat "$DATA/base-${LIMITED_MB}m" > /dev/null
direct=$(curl -s -o /dev/null -w '%{time_starttransfer} %{time_total}' "http://127.0.0.1:$LP/$f")
g=$(link "limited-gc" "${LIMITED_MB}m")
# curl -L: time_starttransfer covers the redirect too; the door's answer is subtracted to get the pool's first byte
via=$(curl -sL -o /dev/null -w '%{time_starttransfer} %{time_total} %{time_redirect}' "http://127.0.0.1:$GC/limited/$g")
nginx -c $RUN/limited/nginx.conf -s stop

mean() { awk '{s=0;n=0;for(i=1;i<=NF;i++) if($i ~ /^[0-9]+$/){s+=$i;n++}; if(n) printf "%.0f", s/n; else printf "ERR"}' <<<"$1"; }
echo
echo "Read throughput, MB/s, mean of $ROUNDS rounds [each round]; ratio = gridcache / other, same run ($(date -u +%FT%TZ))"
printf '%-16s %-24s %-24s\n' path "1 GiB" "256 MiB"
for row in direct "gridcache cold" "gridcache hot" "pool hot" "nginx cold" "nginx hot" "varnish cold" "varnish hot" "xcache cold" "xcache hot"; do
  printf '%-16s %-24s %-24s\n' "$row" "$(mean "${R[$row|1024]}") [${R[$row|1024]% }]" "$(mean "${R[$row|256]}") [${R[$row|256]% }]"
done
ratio() { awk -v a="$(mean "${R[$1|$3]}")" -v b="$(mean "${R[$2|$3]}")" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "n/a"}'; }
echo
for mb in 1024 256; do
  echo "${mb} MiB: hot gridcache/direct-nginx $(ratio 'gridcache hot' direct $mb) (pool alone $(ratio 'pool hot' direct $mb)), gridcache/varnish-hot $(ratio 'gridcache hot' 'varnish hot' $mb);" \
       "cold gridcache/xcache $(ratio 'gridcache cold' 'xcache cold' $mb), gridcache/nginx-proxy_cache $(ratio 'gridcache cold' 'nginx cold' $mb)"
done
read -r dfb dtot <<<"$direct"; read -r gfb gtot gredir <<<"$via"
echo
echo "Rate-limited origin (limit_rate $RATE), ${LIMITED_MB} MiB cold:"
echo "  direct: first byte $(awk -v x=$dfb 'BEGIN{printf "%.1f", x*1000}') ms, total $dtot s"
echo "  gridcache: first byte $(awk -v x=$gfb -v r=$gredir 'BEGIN{printf "%.1f", (x-r)*1000}') ms after the redirect (redirect $(awk -v r=$gredir 'BEGIN{printf "%.1f", r*1000}') ms), total $gtot s"
echo "  total time ratio gridcache/direct: $(awk -v a=$gtot -v b=$dtot 'BEGIN{printf "%.3f", a/b}')"
say "left running; stop with: $0 stop"
