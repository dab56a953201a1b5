#!/usr/bin/env bash
# tpc-bench.sh — HTTP third-party copy through gridcache beside a direct copy between the same two servers.
# A benchmark, not a test (nothing here is asserted but byte-exactness and the copies' last line).
#   Two independent nginx WebDAV servers on loopback: A is gridcache's origin (mounted at /up), B the remote side. A
#   cluster of the built distribution as three processes (zk, pool, door) over HTTPS with a test PKI from
#   ../shared/gridenv: a third-party copy is for authenticated clients only, so each COPY presents Alice's proxy (with
#   Credential: none, B being plain HTTP); tpc.allowed-hosts admits the loopback remote. Per repetition:
#     direct      curl GET from B piped into curl PUT to A (what a client copying through itself does)
#     pull        curl -L -X COPY -H 'Source: B/src' door/up/x: 307 to the pool, which GETs B into A and a cached copy
#     push        curl -L -X COPY -H 'Destination: B/x' door/up/src: the pool PUTs its copy to B (repetition 1 fills
#                 it from A first: a miss; later ones are hits)
#   RequireChecksumVerification: false (nginx gives no Digest); the pool still computes pool.checksums on the way.
#   Reported: MB/s (10^6 bytes/s, curl's total time, the 307 included) per way and repetition, the median and its
#   ratio to direct. Each result is checked byte-exact (cmp) and deleted before the next.
# Usage, from the repository root after `mvn -B -q -DskipTests package` (needs nginx-light and libnginx-mod-http-dav-ext):
#   bench/tpc-bench.sh [SIZE (1G)] [REPETITIONS (3)]
# Env: GRIDCACHE (the gridcache command; default the built distribution's), GRIDCACHE_JAVA_OPTS (default none: the JVM's heap; under -Xmx256m a 1G miss fails, pool.write-behind exceeding the direct memory),
#   WORK (a directory with room for six times SIZE; default a new one under /tmp, removed at the end), CHECKSUMS
#   (pool.checksums, e.g. adler32; default all four), BENCH_RESULTS (a CSV for bench/run.sh, see bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1G}
reps=${2:-3}
bytes=$(numfmt --from=iec "$size")
[ "$reps" -ge 1 ] || { echo "REPETITIONS must be at least 1" >&2; exit 1; }
for tool in nginx curl cmp numfmt python3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done
[ -f /usr/lib/nginx/modules/ngx_http_dav_ext_module.so ] || { echo "libnginx-mod-http-dav-ext is missing" >&2; exit 1; }
gridcache=${GRIDCACHE:-$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)}
gridenv=$(cd "${GRIDENV:-../shared/gridenv}" 2>/dev/null && pwd) || { echo "../shared/gridenv is missing" >&2; exit 1; }
export GRIDCACHE_JAVA_OPTS=${GRIDCACHE_JAVA_OPTS:-}
work=${WORK:-$(mktemp -d /tmp/tpc-bench.XXXXXX)}
mkdir -p "$work"
avail=$(df --output=avail -B1 "$work" | tail -1)
[ "$avail" -gt $((bytes * 6 + (1 << 30))) ] || { echo "$work has $(numfmt --to=iec "$avail") free, needs 6 x $size + 1G" >&2; exit 1; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for n in a b; do [ -f "$work/nginx-$n/nginx.pid" ] && kill "$(cat "$work/nginx-$n/nginx.pid")" 2>/dev/null || true; done
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[tpc-bench] $*" >&2; }
. bench/lib.sh # free_port, await, result

# --- two nginx WebDAV servers: a (the origin) and b (the remote) ---
webdav() { # webdav NAME PORT
  mkdir -p "$work/data-$1" "$work/nginx-$1/tmp"
  cat >"$work/nginx-$1/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
worker_processes 1;
daemon on;
pid $work/nginx-$1/nginx.pid;
error_log $work/nginx-$1/error.log warn;
events { worker_connections 1024; }
http {
  default_type application/octet-stream;
  sendfile on;
  access_log off;
  client_body_temp_path $work/nginx-$1/tmp/body; proxy_temp_path $work/nginx-$1/tmp/proxy;
  fastcgi_temp_path $work/nginx-$1/tmp/fcgi; uwsgi_temp_path $work/nginx-$1/tmp/uwsgi; scgi_temp_path $work/nginx-$1/tmp/scgi;
  server {
    listen 127.0.0.1:$2;
    root $work/data-$1;
    dav_methods PUT DELETE MKCOL COPY MOVE;
    dav_ext_methods PROPFIND OPTIONS;
    client_max_body_size 0;
    location / { }
  }
}
CONF
  [ "$(id -u)" = 0 ] && sed -i '1a user root;' "$work/nginx-$1/nginx.conf"
  nginx -c "$work/nginx-$1/nginx.conf" -e "$work/nginx-$1/error.log"
  await 20 "nginx $1" curl -s -o /dev/null "http://127.0.0.1:$2/"
}
ap=$(free_port); bp=$(free_port)
webdav a "$ap"; webdav b "$bp"
a=http://127.0.0.1:$ap; b=http://127.0.0.1:$bp

# --- the cluster: zk, one pool, one door, HTTPS ---
"$gridenv/mkpki.sh" "$work/pki" >/dev/null
pki=$work/pki; proxy=$pki/proxies/alice.pem
tls=(--capath "$pki/certificates" --cacert "$pki/ca/ca.pem" --cert "$proxy" --key "$proxy")
echo "authenticated / list,read,write" >"$work/authz.conf"
zp=$(free_port); pp=$(free_port); dp=$(free_port)
common=(--log-dir "$work/logs" --zk "127.0.0.1:$zp" --host-cert "$pki/host/cert.pem" --host-key "$pki/host/key.pem"
  --ca-dir "$pki/certificates" --vomsdir "$pki/vomsdir")
"$gridcache" zk --home "$work/zk" --port "$zp" >"$work/zk.out" 2>&1 & pids+=($!)
await 60 "ZooKeeper" grep -q "is up" "$work/zk.out"
"$gridcache" origins add up --prefix /up --url "$a/" --zk "127.0.0.1:$zp" >/dev/null
"$gridcache" pool "${common[@]}" --name p1 --store "$work/store" --capacity $((bytes * 3 + (1 << 30))) --port "$pp" \
  >"$work/pool.out" 2>&1 & pids+=($!)
"$gridcache" door "${common[@]}" --authz "$work/authz.conf" --port "$dp" >"$work/door.out" 2>&1 & pids+=($!)
for f in pool door; do await 60 "$f" grep -q "is up" "$work/$f.out"; done
[ -z "${CHECKSUMS:-}" ] || "$gridcache" config set pool.checksums "$CHECKSUMS" --zk "127.0.0.1:$zp" >/dev/null
"$gridcache" config set tpc.allowed-hosts 127.0.0.1 --zk "127.0.0.1:$zp" >/dev/null
door=https://localhost:$dp
await 60 "the door to see the pool" sh -c "[ \"\$(curl -s ${tls[*]} -o /dev/null -w '%{http_code}' -X COPY -H 'Credential: none' \
  -H 'Source: $b/none' '$door/up/probe')\" = 307 ]"

say "creating a $size source file at both servers"
head -c "$bytes" /dev/urandom >"$work/data-b/src.bin"
cp "$work/data-b/src.bin" "$work/data-a/src.bin"
sync

# copy WAY NAME: one copy; prints MB/s
copy() {
  local way=$1 name=$2 out t check
  case $way in
    direct)
      local t0; t0=$(date +%s.%N)
      curl -sSf "$b/src.bin" | curl -sSf -o /dev/null -T - "$a/$name"
      t=$(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
      check=$work/data-a/$name ;;
    pull)
      out=$(curl -sS "${tls[@]}" --max-time 3600 -L -X COPY -H "Source: $b/src.bin" -H 'Credential: none' -H 'RequireChecksumVerification: false' \
        -w '\n%{time_total}' "$door/up/$name")
      check=$work/data-a/$name ;;
    push*)
      out=$(curl -sS "${tls[@]}" --max-time 3600 -L -X COPY -H "Destination: $b/$name" -H 'Credential: none' -H 'RequireChecksumVerification: false' \
        -w '\n%{time_total}' "$door/up/src.bin")
      check=$work/data-b/$name ;;
  esac
  if [ "$way" != direct ]; then
    t=$(echo "$out" | tail -1)
    local last; last=$(echo "$out" | sed '$d' | grep -v '^$' | tail -1)
    [ "$last" = "success: Created" ] || { echo "$way: $last" >&2; exit 1; }
  fi
  cmp -s "$work/data-b/src.bin" "$check" || { echo "$way: $name is not byte-exact" >&2; exit 1; }
  rm -f "$check"
  [ "$way" != pull ] || curl -sS "${tls[@]}" -L -o /dev/null -X DELETE "$door/up/$name" || true
  awk -v b="$bytes" -v t="$t" 'BEGIN { printf "%.1f\n", b / t / 1e6 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A speeds
for r in $(seq "$reps"); do
  for way in direct pull push; do
    w=$way; [ "$way" = push ] && { [ "$r" = 1 ] && w="push-miss" || w="push-hit"; }
    s=$(copy "$w" "bench-$way-$r.bin") || { result "tpc-$way" "$w" "$([ $way = direct ] && echo reference || echo gridcache)" "$r" ERR MB/s "$size"; exit 1; }
    speeds[$w]="${speeds[$w]:-} $s"
    # each way of gridcache is compared with the direct copy of the same repetition
    case $way in
      direct) for g in pull push; do result "tpc-$g" "direct copy (curl piped to curl -T)" reference "$r" "$s" MB/s "$size"; done ;;
      *) result "tpc-$way" "$w" gridcache "$r" "$s" MB/s "$size" ;;
    esac
    say "repetition $r: $w $s MB/s"
  done
done

echo "third-party copy of $size ($bytes bytes), $reps repetitions, GRIDCACHE_JAVA_OPTS=$GRIDCACHE_JAVA_OPTS, pool.checksums ${CHECKSUMS:-all four}, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-28s %8s %9s\n' way "MB/s per repetition" median "vs direct"
base=$(echo "${speeds[direct]}" | tr ' ' '\n' | grep . | median)
for way in direct pull push-miss push-hit; do
  [ -n "${speeds[$way]:-}" ] || continue
  m=$(echo "${speeds[$way]}" | tr ' ' '\n' | grep . | median)
  printf '%-10s %-28s %8s %9s\n' "$way" "$(echo ${speeds[$way]})" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
done
