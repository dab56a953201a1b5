#!/bin/bash
# gridftp-bench.sh — MB/s of a 256 MiB miss through gridcache from a GridFTP origin (jGlobus in the pool), with 1
# and 4 streams, beside globus-url-copy of the same file from the same server (-p 1 and -p 4), to /dev/null and to a new
# file (what a cache must do besides). A benchmark, not a test.
#   Each round also makes the same miss with gridftp.checksum none (unless CHECKSUM=none): like for like, since
#   globus-url-copy checks no checksum, where the pool's default verification waits for the origin's CKSM.
#   The client's leg alone, in the same rounds: the same request once the file is cached (a gridcache hit) and the
#   same file hot from nginx over HTTPS with the same host certificate and curl. A miss does that leg's work and the
#   fetch on the same cores: the leg's rate beside globus-url-copy's shows how large a part of a miss it is here.
#   Each round also estimates what the machine's cores allow a miss: globus-url-copy's time against (its CPU + the
#   hit's CPU) / cores, about the least time a miss can take doing the fetch's and the client leg's work (store aside).
#   Everything on loopback: gridenv's globus-gridftp-server (GSI), zk + pool + door of the built distribution as
#   HTTPS processes, Alice's plain RFC 3820 proxy delegated to the door (DCAU works with it), data channels clear.
#   Each gridcache read is of a new hard-linked name (a true miss; the origin reads from the page cache); the time is
#   curl's total, door redirect, permission check (MLST) and pool fetch included; the bytes go to /dev/null.
# Needs root, gridenv's peers (../shared/gridenv/install-peers.sh) and the distribution (mvn -DskipTests package).
# Env: ROUNDS=3 WARM_MISSES=1500 (untimed misses of 4 KiB first) WARMUP=8 (then untimed rounds: a miss and a hit per mode) MB=256 CHECKSUM=adler32 (none: no CKSM, the client does not wait for the verification);
#   POOL_JAVA_OPTS: JVM options of the pool alone (GRIDCACHE_JAVA_OPTS goes to zk, pool and door), e.g. a flight
#   recording: POOL_JAVA_OPTS=-XX:StartFlightRecording=filename=/tmp/pool.jfr,settings=profile (JDK 17 has no %p);
#   BENCH_RUN=/tmp/gridcache-gridftp-bench (files, PKI, logs) BENCH_RESULTS (a CSV for bench/run.sh, see bench/lib.sh).
# Ports: GRIDFTP_PORT=29711 GridFTP (+1000..2999 data), DOOR_PORT=29780 door (+1 zk, +2 pool, +3 nginx HTTPS).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/.." && pwd)
G=${GRIDENV:-$top/../shared/gridenv}
DIST=$(ls -d "$top"/dist/target/gridcache-*/ | head -1)
RUN=${BENCH_RUN:-/tmp/gridcache-gridftp-bench}; DATA=$RUN/data; PKI=$RUN/pki
ROUNDS=${ROUNDS:-3}; WARM_MISSES=${WARM_MISSES:-1500}; WARMUP=${WARMUP:-8}; MB=${MB:-256}; FTP=${GRIDFTP_PORT:-29711}; DOOR=${DOOR_PORT:-29780}; ZK=$((DOOR + 1)); POOL=$((DOOR + 2))
NGINX=$((DOOR + 3))
say() { echo "[gridftp-bench] $*" >&2; }
. "$here/lib.sh"
pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -f "$RUN/nginx/nginx.pid" ] && { kill "$(cat "$RUN/nginx/nginx.pid")" 2>/dev/null || true; }
  "$G/stop-gridftp-origin.sh" $FTP >/dev/null 2>&1 || true
}
trap stop_all EXIT

mkdir -p "$RUN" "$DATA/b"; chmod 755 "$RUN" "$DATA" "$DATA/b"
[ -d "$PKI/certificates" ] || "$G/mkpki.sh" "$PKI" >/dev/null
chmod a+rx "$RUN"
base=$DATA/b/base-${MB}m
[ "$(stat -c %s "$base" 2>/dev/null || echo 0)" = $((MB << 20)) ] || { say "creating $base"; head -c $((MB << 20)) /dev/urandom > "$base"; }
chmod 644 "$base"
"$G/stop-gridftp-origin.sh" $FTP >/dev/null 2>&1 || true
# 2,000 data ports: each miss takes one, and the server's side of a stream-mode data connection waits 60 s in TIME_WAIT
# (gridenv's 50 ran out after ~280 of the warm-up's misses, 500 after ~1,100: "globus_l_xio_tcp_bind failed"); below
# the ephemeral ports (32768 on) with the default GRIDFTP_PORT and run.sh's
DATA_PORTS="$((FTP + 1000)),$((FTP + 2999))" "$G/start-gridftp-origin.sh" "$PKI" "$DATA" $FTP >/dev/null

gc() { "$DIST/bin/gridcache" "$@"; }
rm -rf "$RUN/zk" "$RUN/store" "$RUN/logs"
"$DIST/bin/gridcache" zk --home "$RUN/zk" --port $ZK > "$RUN/zk.out" 2>&1 & pids+=($!)
for _ in $(seq 150); do grep -q 'is up' "$RUN/zk.out" && break; sleep 0.2; done
cat > "$RUN/gc.properties" <<END
zk=127.0.0.1:$ZK
host-cert=$PKI/host/cert.pem
host-key=$PKI/host/key.pem
ca-dir=$PKI/certificates
vomsdir=$PKI/vomsdir
END
gc origins add b --prefix /b --url "gsiftp://localhost:$FTP$DATA/b" --zk 127.0.0.1:$ZK >/dev/null
GRIDCACHE_JAVA_OPTS="${GRIDCACHE_JAVA_OPTS:-} ${POOL_JAVA_OPTS:-}" "$DIST/bin/gridcache" pool --config "$RUN/gc.properties" --log-dir "$RUN/logs" --name p1 --store "$RUN/store" --capacity 40G --port $POOL > "$RUN/pool.out" 2>&1 & pids+=($!)
"$DIST/bin/gridcache" door --config "$RUN/gc.properties" --log-dir "$RUN/logs" --port $DOOR --pool-identity "/DC=org/DC=example/OU=hosts/CN=localhost" \
  > "$RUN/door.out" 2>&1 & pids+=($!)
for f in pool door; do
  for _ in $(seq 150); do grep -q 'is up' "$RUN/$f.out" && break; sleep 0.2; done
  grep -q 'is up' "$RUN/$f.out" || { cat "$RUN/$f.out"; exit 1; }
done
P=$PKI/proxies/alice.pem
# Alice's curl: --cacert keeps curl from parsing the system's CA bundle again for each of its two TLS connections
# (door, pool; ~16 ms of CPU each with curl 7.88), a client cost globus-url-copy's runs do not have
tls=(--capath "$PKI/certificates" --cacert "$PKI/ca/ca.pem" --cert "$P" --key "$P")
gc config set gridftp.checksum "${CHECKSUM:-adler32}" --zk 127.0.0.1:$ZK >/dev/null
# the client's leg alone, as nginx serves it: the same file over HTTPS, same host certificate (sendfile; TLS in nginx)
start_nginx "$RUN/nginx" "127.0.0.1:$NGINX ssl" "$DATA/b" \
  "ssl_certificate $PKI/host/cert.pem;" "ssl_certificate_key $PKI/host/key.pem;"
curl -sS --max-time 600 "${tls[@]}" -o /dev/null "https://localhost:$NGINX/${base##*/}" # its file in the page cache
gc delegate --proxy "$P" --capath "$PKI/certificates" https://localhost:$DOOR >/dev/null

# untimed, after each miss: a HEAD asking for the fill's adler32 is answered once the pool holds the file whole
# (written, fsync'ed, committed), so that no measurement shares the cores with the previous fill's tail (asking for
# md5 would compute it now, on demand)
settle() { # NAME
  curl -sS -I -o /dev/null --max-time 600 "${tls[@]}" -H 'Want-Digest: adler32' \
    "https://localhost:$DOOR/b/$1"
}
# warm-up, first: WARM_MISSES untimed misses of 4 KiB files in one curl, through door and pool with Alice's
# credential, for the per-miss work that a few large misses run too seldom for C2 to compile (the data channels' GSI
# handshakes and their certificates' ASN.1, MLST, CKSM, the ticket): after 3 warm-up rounds, C2 still compiled for 2.8 s
# during 4 timed misses and 4 hits (JFR jdk.Compilation), 1.06 s of it BouncyCastle's ASN.1 parser
# (ARCHITECTURE.md, "Performance design"). 300 such misses left C1 and C2 at 0.09-0.25 CPU s in each timed miss (a /proc count
# on a held set-up, 8 misses), 1,500 at 0-0.03 in 7 of 8: a pool in service has long compiled that work
head -c 4096 /dev/urandom > "$DATA/b/base-4k"; chmod 644 "$DATA/b/base-4k"
for i in $(seq "$WARM_MISSES"); do
  ln -f "$DATA/b/base-4k" "$DATA/b/warm-$i"
  printf 'url = "https://localhost:%s/b/warm-%s"\noutput = "/dev/null"\n' "$DOOR" "$i"
done > "$RUN/warm.curl"
warm_codes=$(curl -sS -L -K "$RUN/warm.curl" --max-time 1200 "${tls[@]}" -w '%{http_code}\n' | sort | uniq -c | xargs || true)
say "$WARM_MISSES untimed misses of 4 KiB: $warm_codes (count, status)"
rm -f "$DATA/b/warm-"* "$DATA/b/base-4k"
# warm-up: WARMUP untimed rounds of what a round asks of the pool, a miss and then a hit in each mode, so that its
# JIT has compiled the transfer paths (as JMH warms up). Misses alone left it compiling for 0.07-0.4 CPU s during
# every timed miss: the hits' types (a file instead of a filling download behind the same handlers) failed the class
# checks C2 had compiled into the shared send path, and each failure recompiled it (up to 4 per call site, C2's
# PerBytecodeTrapLimit), on the cores the timed transfers use. 8 rounds, not 3: a 256 MiB miss calls the per-block
# path ~1,000 times, and after 3 rounds C2 still compiled it during the timed misses (JFR: ModeEReorderBuffer.deliver
# 0.49 s, ReceiveSlabs$Filler.copy 0.17 s, Download.write, Download.writeFully; 0.06-0.54 s of compiling per miss);
# after 8, 0.03-0.17 s per miss, none of it the data path
for w in $(seq "$WARMUP"); do
  for p in 1 4; do
    gc config set gridftp.streams $p --zk 127.0.0.1:$ZK >/dev/null
    ln -f "$base" "$DATA/b/warmup-$p-$w"
    curl -sS -L --max-time 600 "${tls[@]}" -o /dev/null "https://localhost:$DOOR/b/warmup-$p-$w"
    settle "warmup-$p-$w"
    curl -sS -L --max-time 600 "${tls[@]}" -o /dev/null "https://localhost:$DOOR/b/warmup-$p-$w"
    rm -f "$DATA/b/warmup-$p-$w"
  done
done

mbps() { awk -v t="$1" -v b=$((MB << 20)) 'BEGIN { printf "%.0f", b / t / 1e6 }'; }
# the machine's busy CPU time in clock ticks (user, nice, system, irq, softirq, steal: every process, kernel included),
# so that each transfer's line says what it cost the whole machine beside its wall time
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
# the pool's receive slabs, MiB: allocated so far, held now, waiting for reuse (held = waiting once the pool is idle;
# new slabs only when a miss holds more at once than any before: its disk writer further behind)
receive_mib() {
  curl -sS --max-time 10 "${tls[@]}" "https://localhost:$POOL/.gridcache/metrics" | awk '
    /^gridcache_pool_receive_memory_allocated_bytes_total/ { a = $2 } /^gridcache_pool_receive_memory_bytes/ { h = $2 }
    /^gridcache_pool_receive_memory_waiting_bytes/ { w = $2 } END { printf "%.0f %.0f %.0f\n", a / 1048576, h / 1048576, w / 1048576 }'
}
cpu_s() { awk -v a="$1" -v b="$(busy)" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }'; }
# leg ROUND STREAMS SUBJECT URL KEY ROLE: the client's leg alone, one hot read of URL by the same curl as the misses
leg() {
  local r=$1 p=$2 subject=$3 url=$4 key=$5 role=$6 out t c0 c
  c0=$(busy)
  out=$(curl -sS -L --max-time 600 "${tls[@]}" -o /dev/null -D - -w 'TIME %{time_total}\n' "$url")
  grep -q 'X-Cache: MISS' <<< "$out" && { say "$subject: not a hit: $out"; exit 1; }
  t=$(awk '/^TIME/ { print $2 }' <<< "$out"); c=$(cpu_s "$c0"); leg_cpu=$c
  sum[$key$p]=$(awk -v a="${sum[$key$p]:-0}" -v b="$t" 'BEGIN { print a + b }')
  say "round $r $subject (the client's leg alone, beside $p stream(s)): ${t}s = $(mbps "$t") MB/s, ${c} CPU s"
  result gridftp-client-leg "$subject" "$role" "$r" "$(mbps "$t")" MB/s "$MB MiB $p stream(s)"
}
id=$(date +%s)
declare -A sum
for r in $(seq "$ROUNDS"); do
  for p in 1 4; do
    t0=$(date +%s.%N); c0=$(busy)
    X509_CERT_DIR=$PKI/certificates X509_USER_PROXY=$P timeout 600 globus-url-copy -p $p "gsiftp://localhost:$FTP$base" file:///dev/null
    t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'); c=$(cpu_s "$c0")
    sum[guc$p]=$(awk -v a="${sum[guc$p]:-0}" -v b="$t" 'BEGIN { print a + b }')
    say "round $r globus-url-copy -p $p: ${t}s = $(mbps "$t") MB/s, ${c} CPU s"
    guc_t=$t guc_cpu=$c
    for measure in gridftp-miss gridftp-client-leg gridftp-miss-unverified; do
      result "$measure" globus-url-copy reference "$r" "$(mbps "$t")" MB/s "$MB MiB $p stream(s)"
    done
    # the same into a new file, as a cache must keep it: on this VM writing new page-cache pages is most of a miss's
    # disk cost (a 256 MiB dd into a new file: 0.04-0.60 s of system time)
    t0=$(date +%s.%N); c0=$(busy)
    X509_CERT_DIR=$PKI/certificates X509_USER_PROXY=$P timeout 600 globus-url-copy -p $p "gsiftp://localhost:$FTP$base" \
      "file://$RUN/guc-$r-$p.bin"
    t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'); c=$(cpu_s "$c0")
    rm -f "$RUN/guc-$r-$p.bin"
    sum[gucf$p]=$(awk -v a="${sum[gucf$p]:-0}" -v b="$t" 'BEGIN { print a + b }')
    say "round $r globus-url-copy -p $p to a file: ${t}s = $(mbps "$t") MB/s, ${c} CPU s"
    result gridftp-miss "globus-url-copy to a file" reference "$r" "$(mbps "$t")" MB/s "$MB MiB $p stream(s)"

    gc config set gridftp.streams $p --zk 127.0.0.1:$ZK >/dev/null
    name=c$id-$r-$p; ln -f "$base" "$DATA/b/$name"
    read -r m0 _ _ < <(receive_mib); c0=$(busy)
    out=$(curl -sS -L --max-time 600 "${tls[@]}" -o /dev/null -D - \
      -w 'TIME %{time_total} %{time_starttransfer} %{time_redirect}\n' "https://localhost:$DOOR/b/$name")
    grep -q 'X-Cache: MISS' <<< "$out" || { say "not a miss: $out"; result gridftp-miss gridcache gridcache "$r" ERR MB/s "$MB MiB $p stream(s)"; exit 1; }
    t=$(awk '/^TIME/ { print $2 }' <<< "$out"); c=$(cpu_s "$c0")
    result gridftp-miss gridcache gridcache "$r" "$(mbps "$t")" MB/s "$MB MiB $p stream(s)"
    result gridftp-first-byte "gridcache after the redirect" gridcache "$r" "$(awk '/^TIME/ { printf "%.4f", $3 - $4 }' <<< "$out")" s \
      "$MB MiB $p stream(s)"
    sum[gc$p]=$(awk -v a="${sum[gc$p]:-0}" -v b="$t" 'BEGIN { print a + b }')
    say "round $r gridcache miss, $p stream(s): ${t}s = $(mbps "$t") MB/s, first byte after $(awk '/^TIME/ { print $3 }' <<< "$out")s, $(awk '/^TIME/ { printf "%.3f", $3 - $4 }' <<< "$out")s after the redirect, ${c} CPU s"
    settle "$name"
    read -r m1 held waiting < <(receive_mib)
    say "round $r gridcache miss, $p stream(s): $((m1 - m0)) MiB of new receive slabs; $held MiB held, $waiting MiB waiting for reuse"
    leg "$r" "$p" "gridcache hit" "https://localhost:$DOOR/b/$name" hit gridcache
    # what the cores allow a miss, estimated: it does the fetch's work (about globus-url-copy's CPU: the server's and
    # the receiver's) and the client's leg's (the hit's CPU: the pool's TLS and curl's) on the machine's cores, store
    # and door aside; globus-url-copy's time against that least time, at most 1. An estimate, not a bound: both CPU
    # figures vary from round to round as the times do
    ceiling=$(awk -v t="$guc_t" -v g="$guc_cpu" -v l="$leg_cpu" -v n="$(nproc)" \
      'BEGIN { m = (g + l) / n; if (m < t) m = t; printf "%.2f", t / m }')
    say "round $r: the fetch's and the client leg's CPU (${guc_cpu} + ${leg_cpu} s) on $(nproc) cores allow a miss about ${ceiling}x globus-url-copy -p $p"
    result gridftp-ceiling "the cores' estimate" info "$r" "$ceiling" x "$MB MiB $p stream(s)"
    leg "$r" "$p" "nginx HTTPS" "https://localhost:$NGINX/${base##*/}" nginx info
    rm -f "$DATA/b/$name"
    # like for like: a miss without the origin's checksum, as globus-url-copy checks none. The pool's verification
    # asks CKSM after the data, and globus-gridftp-server reads the whole file again to answer it (storage that keeps
    # checksums answers at once); the clients' last byte waits for it
    if [ "${CHECKSUM:-adler32}" != none ]; then
      gc config set gridftp.checksum none --zk 127.0.0.1:$ZK >/dev/null
      name=u$id-$r-$p; ln -f "$base" "$DATA/b/$name"; c0=$(busy)
      out=$(curl -sS -L --max-time 600 "${tls[@]}" -o /dev/null -D - -w 'TIME %{time_total}\n' "https://localhost:$DOOR/b/$name")
      grep -q 'X-Cache: MISS' <<< "$out" || { say "not a miss: $out"; exit 1; }
      t=$(awk '/^TIME/ { print $2 }' <<< "$out"); c=$(cpu_s "$c0")
      result gridftp-miss-unverified "gridcache with gridftp.checksum none" gridcache "$r" "$(mbps "$t")" MB/s "$MB MiB $p stream(s)"
      sum[gcu$p]=$(awk -v a="${sum[gcu$p]:-0}" -v b="$t" 'BEGIN { print a + b }')
      say "round $r gridcache miss without the origin's checksum, $p stream(s): ${t}s = $(mbps "$t") MB/s, ${c} CPU s"
      settle "$name"
      gc config set gridftp.checksum "${CHECKSUM:-adler32}" --zk 127.0.0.1:$ZK >/dev/null
      rm -f "$DATA/b/$name"
    fi
  done
done
echo "$MB MiB, mean of $ROUNDS rounds (MB/s = 10^6 bytes/s):"
for k in guc1 guc4 gucf1 gucf4 gc1 gc4 gcu1 gcu4 hit1 hit4 nginx1 nginx4; do
  [ -n "${sum[$k]:-}" ] || continue
  t=$(awk -v s="${sum[$k]}" -v n="$ROUNDS" 'BEGIN { print s / n }')
  case $k in gucf*) what="globus-url-copy -p ${k#gucf} to a file";; guc*) what="globus-url-copy -p ${k#guc}";;
    gcu*) what="the same, gridftp.checksum none";; gc*) what="gridcache miss, gridftp.streams=${k#gc}";; hit*) what="gridcache hit, the same request";;
    nginx*) what="nginx HTTPS, hot";; esac
  printf '  %-36s %6.2f s  %5s MB/s\n' "$what" "$t" "$(mbps "$t")"
done
