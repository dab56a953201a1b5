#!/usr/bin/env bash
# pool-death.sh — how long a door goes on choosing a pool killed with SIGKILL (issue 15, R1).
# A benchmark, not a test: PoolDeathTest asserts the bound (no request 2 s after the death names the pool); this
# measures the time.
#   An nginx origin with FILES files of SIZE, a plain-HTTP cluster of the built distribution as five processes (zk,
#   three pools, door; selection.spill-load 1000, so each file goes to the pool its path hashes to). The files are
#   read once (hot). Per round: LOAD concurrent downloads of the files through the door (curl -Z) run in the
#   background; a prober asks the door for each file in turn every 10 ms (Location and Link headers noted, nothing
#   downloaded); the pool f0 goes to is killed with SIGKILL, and restarted after the round. Reported per round and as
#   the median of the rounds: from the signal, and from the death (the process reaped: its kernel closes its sockets
#   only then, which took up to seconds on a loaded machine), to the last request the door answered naming the dead
#   pool (as Location or Link fallback; 0 when none came after the signal); and the first request that no longer
#   named it, from the signal. The prober asks one request at a time: a starved door spaces its samples.
# Usage, from the repository root after `mvn -B -q -DskipTests package` (needs nginx-light):
#   bench/pool-death.sh [ROUNDS (3)] [SIZE (64M)] [FILES (12)]
# Env: GRIDCACHE (the gridcache command; default the built distribution's), LOAD (concurrent downloads, 200), WORK (a
#   directory with room for 2 x FILES x SIZE; default a new one under /tmp, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
size=${2:-64M}
files=${3:-12}
load=${LOAD:-200}
[ "$rounds" -ge 1 ] || { echo "ROUNDS must be at least 1" >&2; exit 1; }
for tool in nginx curl python3 numfmt; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done
gridcache=${GRIDCACHE:-$(ls -d dist/target/gridcache-*/bin/gridcache | head -1)}
work=${WORK:-$(mktemp -d /tmp/pool-death.XXXXXX)}
mkdir -p "$work"
pids=()
loadpid=
cleanup() {
  [ -z "$loadpid" ] || kill "$loadpid" 2>/dev/null || true
  # door and pools before ZooKeeper: a door stopping without it waits on it to delete its record
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; wait "${pids[i]}" 2>/dev/null || true; done
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
  [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
say() { echo "[pool-death] $*" >&2; }
. bench/lib.sh # free_port, await, result, median

say "creating $files files of $size"
mkdir -p "$work/data"
for i in $(seq 0 $((files - 1))); do
  head -c "$(numfmt --from=iec "$size")" /dev/urandom >"$work/data/f$i.bin"
done
op=$(free_port)
start_nginx "$work/nginx" "127.0.0.1:$op" "$work/data" # a plain file server: the door stats by HEAD
await 20 "nginx" curl -sf -o /dev/null "http://127.0.0.1:$op/f0.bin"

zp=$(free_port); dp=$(free_port)
common=(--plain-http --log-dir "$work/logs" --zk "127.0.0.1:$zp")
"$gridcache" zk --home "$work/zk" --port "$zp" >"$work/zk.out" 2>&1 & pids+=($!)
await 60 "ZooKeeper" grep -q "is up" "$work/zk.out"
"$gridcache" origins add data --prefix /data --url "http://127.0.0.1:$op/" --zk "127.0.0.1:$zp" >/dev/null
"$gridcache" config set selection.spill-load 1000 --zk "127.0.0.1:$zp" >/dev/null
declare -A poolpid poolout
start_pool() { # start_pool N: pool pN on a free port, its pid in poolpid[N], its output in poolout[N]
  poolout[$1]="$work/pool$1-$(date +%s%N).out"
  "$gridcache" pool "${common[@]}" --name "p$1" --store "$work/store$1" --capacity 100G --port "$(free_port)" \
    >"${poolout[$1]}" 2>&1 &
  poolpid[$1]=$!
  pids+=($!)
  await 60 "pool p$1" grep -q "is up" "${poolout[$1]}"
}
pool_url() { sed -n 's/.*is up on \(http:\/\/[^/]*\).*/\1/p' "${poolout[$1]}" | head -1; }
for n in 1 2 3; do start_pool "$n"; done
"$gridcache" door "${common[@]}" --port "$dp" >"$work/door.out" 2>&1 & pids+=($!)
await 60 "door" grep -q "is up" "$work/door.out"
door=http://127.0.0.1:$dp
location_of() { curl -s -o /dev/null -w '%{redirect_url}' "$door/data/$1" | sed 's#^\(http://[^/]*\).*#\1#'; }
await 60 "the door to see three pools" sh -c \
  "[ \$(for i in \$(seq 0 $((files - 1))); do curl -s -o /dev/null -w '%{redirect_url}\n' $door/data/f\$i.bin | cut -d/ -f3; done | sort -u | wc -l) = 3 ]"
say "reading each file once (hot)"
for i in $(seq 0 $((files - 1))); do curl -sfL -o /dev/null "$door/data/f$i.bin"; done

# the prober: asks the door for f0..f(N-1) in turn every 10 ms for SECONDS; prints "<epoch ns> <pools named>"
cat >"$work/prober.py" <<'PY'
import http.client, re, sys, time
port, files, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
end = time.time() + seconds
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
i = 0
while time.time() < end:
    asked = time.time_ns()
    try:
        conn.request("GET", f"/data/f{i % files}.bin")
        r = conn.getresponse()
        r.read()
        named = set(re.findall(r"<(http://[^/>]+)", ",".join(r.headers.get_all("Link") or [])))
        if r.getheader("Location"):
            named.add(re.match(r"http://[^/]+", r.getheader("Location")).group(0))
        print(asked, " ".join(sorted(named)), flush=True)
    except Exception as e:
        print(asked, "ERROR", e, flush=True)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    i += 1
    time.sleep(0.01)
PY

from_signal=(); from_death=(); first_clean=()
for r in $(seq "$rounds"); do
  victim_url=$(location_of f0.bin)
  victim=
  for n in 1 2 3; do [ "$(pool_url "$n")" = "$victim_url" ] && victim=$n; done
  [ -n "$victim" ] || { echo "f0 goes to $victim_url, which is no pool of ours" >&2; exit 1; }
  urls=()
  for c in $(seq 0 $((load - 1))); do urls+=(-o /dev/null "$door/data/f$((c % files)).bin"); done
  curl -sL -Z --parallel-max "$load" "${urls[@]}" >/dev/null 2>&1 & loadpid=$!
  python3 "$work/prober.py" "$dp" "$files" 10 >"$work/probe-$r.txt" & prober=$!
  sleep 2 # the downloads under way (a benchmark's pacing, nothing waits on it)
  signalled=$(date +%s%N)
  kill -9 "${poolpid[$victim]}"
  wait "${poolpid[$victim]}" 2>/dev/null || true
  dead=$(date +%s%N)
  wait "$prober"
  kill "$loadpid" 2>/dev/null || true; wait "$loadpid" 2>/dev/null || true; loadpid=
  # milliseconds after the signal: the last request naming the dead pool, the first one that did not
  read -r sig first < <(awk -v v="$victim_url" -v d="$signalled" '
    { t = ($1 - d) / 1e6 }
    t > 0 { if (index($0, v)) last = t; else if (!seen && $2 != "ERROR") { seen = 1; first = t } }
    END { printf "%d %d\n", last, first }' "$work/probe-$r.txt")
  death=$(( sig - (dead - signalled) / 1000000 ))
  say "round $r: p$victim killed; dead $(( (dead - signalled) / 1000000 )) ms after SIGKILL; last request naming it" \
    "$sig ms after the signal, $death ms after the death; first not naming it $first ms after the signal"
  from_signal+=("$sig"); from_death+=("$death"); first_clean+=("$first")
  result pool-death-last-redirect-from-signal gridcache gridcache "$r" "$sig" ms "size=$size load=$load"
  result pool-death-last-redirect-from-death gridcache gridcache "$r" "$death" ms "size=$size load=$load"
  start_pool "$victim"
  back=$(pool_url "$victim")
  await 60 "the restarted p$victim chosen again" sh -c "[ \"\$(curl -s -o /dev/null -w '%{redirect_url}' $door/data/f0.bin | cut -d/ -f1-3)\" = '$back' ]"
done
echo "pool-death: $rounds rounds, $load downloads of $files x $size; last redirect to the killed pool, median:" \
  "$(median "${from_signal[@]}") ms after SIGKILL, $(median "${from_death[@]}") ms after its death" \
  "(per round: ${from_signal[*]} / ${from_death[*]} ms); the first request not naming it, median" \
  "$(median "${first_clean[@]}") ms after SIGKILL (${first_clean[*]} ms)"
