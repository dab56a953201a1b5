#!/bin/bash
# ab-cold.sh — two gridcache builds side by side, A and B, each a standalone of its own kept running, beside nginx
# proxy_cache on the same origin: cold reads of MB MiB taking turns (A, B, nginx proxy_cache, in an order that
# rotates), the page cache dropped and the origin's file read again before each, so that both builds are judged on
# the same machine state from minute to minute (this VM's cold reads move by 2x between rounds). Before the rounds:
# three untimed misses and hits of MB MiB per server, 1,000 hot reads of 4 MiB per server, and WARM_A / WARM_B
# untimed misses of WARM_SIZE bytes through A and B (the JIT). Root (drop_caches, nginx); the anchors installed.
# Usage: bench/ab-cold.sh A_DIST B_DIST   (dist/target/gridcache-*/ directories; the same one twice to compare
#   warm-ups). Env: ROUNDS=8 MB=256 WARM_A=1000 WARM_B=1000 WARM_SIZE=1048576 PORT_BASE=39080 (+0 origin, +1 nginx
#   proxy_cache, +800/801 A, +900/901 B) AB_RUN=/tmp/gridcache-ab-cold (files, caches, logs; removed at the end).
# Prints "round R SUBJECT: STATUS MB/s" per read, then each subject's median.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/.." && pwd)
ANCHORS=${ANCHORS:-$top/../shared/anchors}
A_DIST=${1:?A_DIST}; B_DIST=${2:?B_DIST}
RUN=${AB_RUN:-/tmp/gridcache-ab-cold}; DATA=$RUN/data
B=${PORT_BASE:-39080}; OP=$B; NG=$((B + 1))
MB=${MB:-256}; ROUNDS=${ROUNDS:-8}
. "$here/lib.sh"
declare -A PORT=([A]=$((B + 800)) [B]=$((B + 900)) [nginx]=$NG) DIST=([A]=$A_DIST [B]=$B_DIST) WARM=([A]=${WARM_A:-1000} [B]=${WARM_B:-1000})
stop_all() {
  local g
  for g in A B; do [ -f "$RUN/$g.pid" ] && { kill "$(cat "$RUN/$g.pid")" 2>/dev/null || true; }; done
  "$ANCHORS/nginx-cache.sh" stop "$NG" >/dev/null 2>&1 || true
  "$ANCHORS/origin.sh" stop "$OP" >/dev/null 2>&1 || true
}
trap 'stop_all; rm -rf "${RUN:?}"' EXIT
stop_all; rm -rf "${RUN:?}"; mkdir -p "$DATA"
head -c $((MB << 20)) /dev/urandom > "$DATA/base"
head -c $((4 << 20)) /dev/urandom > "$DATA/base-4m"
head -c "${WARM_SIZE:-1048576}" /dev/urandom > "$DATA/base-warm"
"$ANCHORS/origin.sh" start "$DATA" "$OP" >/dev/null 2>&1
"$ANCHORS/nginx-cache.sh" start "http://127.0.0.1:$OP/" "$NG" "$RUN/cache/nginx" >/dev/null 2>&1
for g in A B; do
  "${DIST[$g]}/bin/gridcache" standalone --home "$RUN/home-$g" --origin "http://127.0.0.1:$OP/" --port "${PORT[$g]}" \
    --zk-port $((PORT[$g] + 1)) --capacity 40G > "$RUN/$g.out" 2>&1 & echo $! > "$RUN/$g.pid"
done
for g in A B; do await 60 "standalone $g" grep -q 'is up' "$RUN/$g.out"; done
link() { ln -f "$DATA/$2" "$DATA/$1"; echo "$1"; }
fetch() { curl -sL -o /dev/null --max-time 300 -w '%{http_code} %{size_download} %{time_total}' "http://127.0.0.1:${PORT[$1]}/$2"; }
settle() { # the fill committed (adler32 answered once the file is whole), off the next read's clock
  local url; url=$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:${PORT[$1]}/$2")
  curl -sI -o /dev/null --max-time 300 -H 'Want-Digest: adler32' "$url"
}
many() { # SUBJECT FILE-PREFIX BASE COUNT: COUNT reads of new names (or of one name when FILE-PREFIX ends in =)
  local i name
  for i in $(seq "$4"); do
    case $2 in *=) name=${2%=} ;; *) name=$(link "$2$i" "$3") ;; esac
    printf 'url = "http://127.0.0.1:%s/%s"\noutput = "/dev/null"\n' "${PORT[$1]}" "$name"
  done > "$RUN/many.curl"
  echo "$1: $4 untimed reads: $(curl -sL -K "$RUN/many.curl" -w '%{http_code}\n' | sort | uniq -c | xargs) (count, status)"
}
subjects=(A B nginx)
for c in "${subjects[@]}"; do
  for i in 1 2 3; do f=$(link "w$c$i" base); fetch "$c" "$f" >/dev/null; [ "$c" = nginx ] || settle "$c" "$f"; fetch "$c" "$f" >/dev/null; done
  f=$(link "h$c" base-4m); fetch "$c" "$f" >/dev/null; [ "$c" = nginx ] || settle "$c" "$f"
  many "$c" "h$c=" base-4m 1000
done
for g in A B; do [ "${WARM[$g]}" = 0 ] || many "$g" "m$g-" base-warm "${WARM[$g]}"; done
rm -f "$DATA"/m[AB]-*
for g in A B; do quiet "$(cat "$RUN/$g.pid")"; done
declare -A got
for r in $(seq "$ROUNDS"); do
  case $((r % 3)) in 0) order=(A B nginx) ;; 1) order=(B nginx A) ;; 2) order=(nginx A B) ;; esac
  [ $((r % 2)) = 0 ] && order=("${order[2]}" "${order[1]}" "${order[0]}")
  for c in "${order[@]}"; do
    f=$(link "r$r$c" base); sync; echo 1 > /proc/sys/vm/drop_caches; cat "$DATA/base" > /dev/null
    read -r code size t <<<"$(fetch "$c" "$f")"
    v=$(awk -v s="$size" -v t="$t" 'BEGIN { printf "%.0f", s / t / 1e6 }')
    echo "round $r $c: $code $v MB/s"
    [ "$code" = 200 ] && [ "$size" = $((MB << 20)) ] && got[$c]="${got[$c]:-} $v"
    [ "$c" = nginx ] || settle "$c" "$f"
    rm -f "$DATA/$f"
  done
done
for c in "${subjects[@]}"; do
  # shellcheck disable=SC2086 # the values are words
  echo "$c: median $(median ${got[$c]:-0}) MB/s of [${got[$c]:-} ]"
done
