# shellcheck shell=bash disable=SC2034 # port and pid are set for the scripts that source this
# Shared by the bench scripts (source it): a plain-HTTP standalone on free ports, and result lines for bench/run.sh.

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# start_standalone GRIDCACHE WORK ORIGIN_DIR FILE: starts `GRIDCACHE standalone` with its home in WORK/home serving
# ORIGIN_DIR, sets $port (the door) and $pid, and waits until the door redirects for FILE (exits 1 when it never does).
start_standalone() {
  local gridcache=$1 work=$2 origin=$3 file=$4 zkport
  port=$(free_port)
  zkport=$(free_port)
  "$gridcache" standalone --home "$work/home" --origin "$origin" --port "$port" --zk-port "$zkport" \
    >"$work/standalone.out" 2>&1 &
  pid=$!
  for _ in $(seq 120); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/$file")" = 302 ] && return 0
    sleep 0.5
  done
  echo "the door does not redirect; see $work/standalone.out" >&2
  cat "$work/standalone.out" >&2
  exit 1
}

# result MEASURE SUBJECT ROLE ROUND VALUE UNIT [PARAMS]: one machine-readable line for bench/run.sh, appended to the
# CSV $BENCH_RESULTS (header: measure,subject,role,round,value,unit,params) when that is set; nothing otherwise, so
# the scripts' standalone output stays as it was. ROLE: gridcache (what is measured), reference (what it is compared
# with) or info. VALUE: a number, or ERR when that measurement failed (the table counts it as an error). No commas.
result() {
  [ -n "${BENCH_RESULTS:-}" ] || return 0
  local f
  for f in "$@"; do
    case $f in *,*) echo "result: a comma in '$f'" >&2; return 1 ;; esac
  done
  printf '%s,%s,%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7:-}" >>"$BENCH_RESULTS"
}

# start_nginx DIR LISTEN ROOT [DIRECTIVE...]: a root nginx serving ROOT on LISTEN (e.g. "127.0.0.1:8443 ssl") with the
# server-level DIRECTIVEs (each one ending in ;), its config, pid, logs and temporary files under DIR; stop it with
# kill "$(cat DIR/nginx.pid)".
start_nginx() {
  local dir=$1 listen=$2 root=$3; shift 3
  mkdir -p "$dir/tmp"
  cat >"$dir/nginx.conf" <<CONF
user root;
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  default_type application/octet-stream;
  sendfile on; tcp_nopush on; access_log off; keepalive_requests 100000;
  client_body_temp_path $dir/tmp/b; proxy_temp_path $dir/tmp/p;
  fastcgi_temp_path $dir/tmp/f; uwsgi_temp_path $dir/tmp/u; scgi_temp_path $dir/tmp/s;
  server {
    listen $listen;
    root $root;
    $*
    location / { }
  }
}
CONF
  nginx -c "$dir/nginx.conf" -e "$dir/error.log"
}

# warm_up WRK_ARGS...: untimed wrk runs of $WARMUP each (default 5s) until one is within 5 % of the one before, that is
# until the JIT has stopped raising the rate, or $WARMUP_ROUNDS (default 12) have run; each round's rate on stderr. A
# fixed warm-up was not enough where C2 is slow: on a fresh 2-core VM the standalone's C2 still compiled through the
# second 5 s round, and the pool's small-file rate and the door's redirect rate rose for 30 s and more under load.
# WRK_NETNS set: wrk runs in that network namespace.
warm_up() {
  local prev=0 now i
  for i in $(seq "${WARMUP_ROUNDS:-12}"); do
    now=$(${WRK_NETNS:+ip netns exec "$WRK_NETNS"} wrk -d"${WARMUP:-5s}" "$@" 2>&1 | awk '/Requests\/sec/ {printf "%d", $2}')
    echo "warm-up round $i: ${now:-?} req/s" >&2
    [ -n "$now" ] || return 0
    awk -v a="$prev" -v b="$now" 'BEGIN { exit !(b <= a * 1.05) }' && return 0
    prev=$now
  done
}

# await SECONDS DESCRIPTION COMMAND...: runs COMMAND (quietly) until it succeeds; exits 1 after SECONDS.
await() {
  local limit=$1 what=$2 deadline
  shift 2
  deadline=$(( $(date +%s) + limit ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "timed out waiting for $what" >&2; exit 1; }
    sleep 0.2
  done
}

# quiet PID: returns once process PID has used at most 2 % of a core over half a second (at most 30 s), so that what
# it was doing in the background (fills' fsyncs, checksums, commits) is off the next measurement's clock
quiet() {
  local pid=$1 hz a b
  hz=$(getconf CLK_TCK)
  for _ in $(seq 60); do
    a=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || return 0
    sleep 0.5
    b=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || return 0
    [ $(((b - a) * 100)) -le "$hz" ] && return 0 # at most hz / 100 ticks in 0.5 s: 2 % of a core
  done
  echo "quiet: process $pid still busy after 30 s" >&2
}

# median VALUE...: the middle value of numbers (of two middles, the lower), for a round's figure from its reads
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# server_ticks PORT [NETNS]: CPU clock ticks (user + system, with those of reaped children) used so far by the server
# listening on PORT (in NETNS) and its whole process tree: nginx's master and workers, varnishd's manager and child,
# a JVM's every thread. What a server spends, read from /proc, not what its clients do.
server_ticks() {
  local port=$1 ns=${2:-} roots
  roots=$(${ns:+ip netns exec "$ns"} ss -Hltnp "sport = :$port" | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u | tr '\n' ' ')
  [ -n "$roots" ] || { echo ERR; return; }
  ps -e -o pid=,ppid= | awk -v roots="$roots" '
    { parent[$1] = $2 }
    END {
      n = split(roots, r, " "); for (i = 1; i <= n; i++) tree[r[i]] = 1
      do { grown = 0; for (p in parent) if (!(p in tree) && (parent[p] in tree)) { tree[p] = 1; grown = 1 } } while (grown)
      for (p in tree) print p
    }' | while read -r p; do
    # the fields after the command name in parentheses (which may hold spaces): utime stime cutime cstime are 12-15
    sed -e 's/^.*) //' "/proc/$p/stat" 2>/dev/null | awk '{ print $12 + $13 + $14 + $15 }'
  done | awk '{ s += $1 } END { print s + 0 }'
}

# cpu_per_gib TICKS_BEFORE TICKS_AFTER BYTES: the server's CPU seconds per GiB it served; ERR without bytes or ticks.
cpu_per_gib() {
  [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ && $3 -gt 0 ]] || { echo ERR; return; }
  awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f\n", (b - a) / hz / (n / 1073741824) }'
}

# A client on "another host": the network namespace CLIENT_NS (gcbench-cl), joined to this one by a veth pair, in which
# 127.0.0.1 is not its own loopback (down) but this namespace's, routed over the veth (route_localnet on both ends):
# the servers stay bound to 127.0.0.1 and every URL, a door's redirect included, works unchanged from there, each byte
# crossing the veth as it would a NIC. client_ns_up makes it (idempotent), client_ns_down removes it; run a client
# in it with: ip netns exec "$CLIENT_NS" CMD.
CLIENT_NS=${CLIENT_NS:-gcbench-cl}
client_ns_up() {
  ip netns exec "$CLIENT_NS" true 2>/dev/null && return 0
  ip netns add "$CLIENT_NS"
  ip link add gcbench-h type veth peer name gcbench-c netns "$CLIENT_NS"
  ip addr add 10.78.0.1/24 dev gcbench-h
  ip link set gcbench-h up
  sysctl -qw net.ipv4.conf.gcbench-h.route_localnet=1 net.ipv4.conf.gcbench-h.rp_filter=0
  ip -n "$CLIENT_NS" addr add 10.78.0.2/24 dev gcbench-c
  ip -n "$CLIENT_NS" link set gcbench-c up
  ip netns exec "$CLIENT_NS" sysctl -qw net.ipv4.conf.all.route_localnet=1 net.ipv4.conf.gcbench-c.route_localnet=1 \
    net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.gcbench-c.rp_filter=0
  ip -n "$CLIENT_NS" route add 127.0.0.1/32 dev gcbench-c src 10.78.0.2
}
client_ns_down() {
  ip netns del "$CLIENT_NS" 2>/dev/null || true
  ip link del gcbench-h 2>/dev/null || true
}
