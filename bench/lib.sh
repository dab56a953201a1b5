# Shared by the bench scripts (source it): a plain-HTTP standalone on free ports.

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
