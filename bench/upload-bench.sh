#!/usr/bin/env bash
# upload-bench.sh — PUT throughput through gridcache beside a PUT straight to the origin, and the door's and pool's
# memory during the upload. A benchmark, not a test (nothing here is asserted but byte-exactness).
#   A writable nginx WebDAV origin (dav + dav-ext) and a plain-HTTP cluster of the built distribution as three
#   processes (zk, pool, door: each one's memory is its own) on loopback. Per repetition, each of three ways uploads
#   the same file under a new name with curl -T:
#     nginx       straight to the origin (no Expect: nginx would answer 100 at once anyway)
#     proxied     through the door, without Expect: the door streams the body to nginx (door.write)
#     redirected  through the door with Expect: 100-continue and -L: 307 to the pool, which streams it to nginx and
#                 keeps a write-through copy (pool.serve.UploadHandler)
#   Reported: MB/s (10^6 bytes/s, curl's total time, the 307 included) per way and repetition, the median, its ratio
#   to nginx's; and the peak resident memory (the largest VmRSS sampled every 0.2 s while the way ran, and VmHWM, the
#   kernel's high-water mark since the process started) of the door and of the pool. Each upload is checked
#   byte-exact at the origin (cmp) and deleted before the next, so the disk holds at most the source, one origin copy
#   and one pool copy.
# Usage, from the repository root after `mvn -B -q -DskipTests package` (needs nginx-light and libnginx-mod-http-dav-ext):
#   bench/upload-bench.sh [SIZE (1G; e.g. 256M, 4G)] [REPETITIONS (3)]
# Env: GRIDCACHE (the gridcache command; default the built distribution's), GRIDCACHE_JAVA_OPTS (default -Xmx256m for door and pool: the bound the upload must live within), WORK (a
#   directory with room for three times SIZE; default a new one under /tmp, removed at the end), CHECKSUMS (the
#   pool.checksums setting, e.g. adler32,md5,sha-256,crc32c; default the cluster's: adler32,crc32c, computed while the body passes).
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
export GRIDCACHE_JAVA_OPTS=${GRIDCACHE_JAVA_OPTS:--Xmx256m}
work=${WORK:-$(mktemp -d /tmp/upload-bench.XXXXXX)}
mkdir -p "$work"
avail=$(df --output=avail -B1 "$work" | tail -1)
[ "$avail" -gt $((bytes * 3 + (1 << 30))) ] || { echo "$work has $(numfmt --to=iec "$avail") free, needs 3 x $size + 1G" >&2; exit 1; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[upload-bench] $*" >&2; }
. bench/lib.sh # free_port, await

# --- the origin: nginx's WebDAV modules on a directory of the work area ---
np=$(free_port)
mkdir -p "$work/data" "$work/nginx/tmp"
cat >"$work/nginx/nginx.conf" <<EOF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
worker_processes 1;
daemon on;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path $work/nginx/tmp/body; proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fcgi; uwsgi_temp_path $work/nginx/tmp/uwsgi; scgi_temp_path $work/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$np;
    root $work/data;
    dav_methods PUT DELETE MKCOL COPY MOVE;
    dav_ext_methods PROPFIND OPTIONS;
    client_max_body_size 0;
    location / { }
  }
}
EOF
[ "$(id -u)" = 0 ] && sed -i '1a user root;' "$work/nginx/nginx.conf"
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log"
origin=http://127.0.0.1:$np
await 20 "nginx" curl -s -o /dev/null "$origin/"

# --- the cluster: zk, one pool, one door, plain HTTP ---
zp=$(free_port); pp=$(free_port); dp=$(free_port)
common=(--plain-http --log-dir "$work/logs" --zk "127.0.0.1:$zp")
"$gridcache" zk --home "$work/zk" --port "$zp" >"$work/zk.out" 2>&1 & pids+=($!)
await 60 "ZooKeeper" grep -q "is up" "$work/zk.out"
"$gridcache" origins add up --prefix /up --url "$origin/" --zk "127.0.0.1:$zp" >/dev/null
"$gridcache" pool "${common[@]}" --name p1 --store "$work/store" --capacity $((bytes * 2 + (1 << 30))) --port "$pp" \
  >"$work/pool.out" 2>&1 & pool_pid=$!; pids+=($!)
"$gridcache" door "${common[@]}" --port "$dp" >"$work/door.out" 2>&1 & door_pid=$!; pids+=($!)
for f in pool door; do await 60 "$f" grep -q "is up" "$work/$f.out"; done
[ -z "${CHECKSUMS:-}" ] || "$gridcache" config set pool.checksums "$CHECKSUMS" --zk "127.0.0.1:$zp" >/dev/null
door=http://127.0.0.1:$dp
await 60 "the door to see the pool" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Expect: 100-continue' \
  -H 'Content-Length: 1' '$door/up/probe')\" = 307 ]"

say "creating a $size source file"
src=$work/source.bin
head -c "$bytes" /dev/urandom >"$src"
sync # the source's dirty pages written now, not during the first timed upload (it ran at a third of the second's rate)

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
# put WAY NAME: one upload; prints MB/s; leaves the peak RSS of door and pool in $work/peak.<way>
put() {
  local way=$1 name=$2 url args=()
  case $way in
    nginx) url=$origin/$name; args=(-H 'Expect:') ;;
    proxied) url=$door/up/$name; args=(-H 'Expect:') ;;
    redirected) url=$door/up/$name; args=(-H 'Expect: 100-continue' -L) ;;
  esac
  : >"$work/samples"
  ( while :; do echo "$(rss_kb "$door_pid") $(rss_kb "$pool_pid")" >>"$work/samples"; sleep 0.2; done ) & local sampler=$!
  local out
  out=$(curl -sS -f --max-time 3600 -o /dev/null -w '%{http_code} %{time_total}' -T "$src" "${args[@]}" "$url")
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  awk -v f="$work/peak.$way" '{ if ($1 > d) d = $1; if ($2 > p) p = $2 } END { print d, p >> f }' "$work/samples"
  cmp -s "$src" "$work/data/$name" || { echo "$way: $name is not byte-exact at the origin" >&2; exit 1; }
  rm -f "$work/data/$name"
  [ "$way" = nginx ] || curl -sS -o /dev/null -X DELETE "$door/up/$name" || true
  awk -v b="$bytes" -v t="${out#* }" 'BEGIN { printf "%.1f\n", b / t / 1e6 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
say "warm-up (untimed): one 64 MiB upload each way through gridcache"
head -c $((64 << 20)) /dev/urandom >"$work/warm.bin"
curl -sSf -o /dev/null -H 'Expect:' -T "$work/warm.bin" "$door/up/warm1"
curl -sSf -o /dev/null -H 'Expect: 100-continue' -L -T "$work/warm.bin" "$door/up/warm2"
rm -f "$work/warm.bin" "$work/data/warm1" "$work/data/warm2"

declare -A speeds
for r in $(seq "$reps"); do
  for way in nginx proxied redirected; do
    s=$(put "$way" "bench-$way-$r.bin")
    speeds[$way]="${speeds[$way]:-} $s"
    say "repetition $r: $way $s MB/s"
  done
done

echo "upload of $size ($bytes bytes), $reps repetitions, GRIDCACHE_JAVA_OPTS=$GRIDCACHE_JAVA_OPTS, pool.checksums ${CHECKSUMS:-adler32,crc32c (the default)}, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-11s %-28s %8s %9s %16s %16s\n' way "MB/s per repetition" median "vs nginx" "door peak RSS" "pool peak RSS"
base=$(echo "${speeds[nginx]}" | tr ' ' '\n' | grep . | median)
for way in nginx proxied redirected; do
  m=$(echo "${speeds[$way]}" | tr ' ' '\n' | grep . | median)
  peaks=$(awk '{ if ($1 > d) d = $1; if ($2 > p) p = $2 } END { printf "%d MiB %d MiB", d / 1024, p / 1024 }' "$work/peak.$way")
  printf '%-11s %-28s %8s %9s %16s %16s\n' "$way" "$(echo ${speeds[$way]})" "$m" \
    "$(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" "${peaks% MiB *} MiB" "${peaks#* MiB } "
done
echo "VmHWM since start: door $(( $(hwm_kb "$door_pid") / 1024 )) MiB, pool $(( $(hwm_kb "$pool_pid") / 1024 )) MiB"
