package org.gridcache.systemtest;

import java.nio.file.Path;

/**
 * {@code systemctl} and {@code journalctl} for a shell where systemd is not PID 1 (the network namespaces of
 * {@link AdminGuideTest}), as bash functions: {@code systemctl enable --now|start UNIT} runs the packaged unit's
 * ExecStart as its User and Group, with its Environment, in its WorkingDirectory ({@code %i}: the instance), the
 * tarball's {@code bin/gridcache} standing for {@code /usr/bin/gridcache}, and returns once the service says it is up
 * (180 s at most); {@code systemctl stop UNIT} sends it SIGTERM, as systemd's KillSignal, and returns once it has
 * exited (60 s at most); {@code journalctl -u UNIT} prints what it wrote. A unit's state is in the host's /tmp.
 */
final class UnitsWithoutSystemd {
    static final Path UNITS = Path.of("../../dist/src/pkg/systemd");

    private UnitsWithoutSystemd() {
    }

    /** The functions, for a script that runs {@code gridcache} from {@code dist}. */
    static String functions(Path dist) {
        return """
                UNITS='%s'
                GRIDCACHE_BIN='%s'
                unit_alive() { local s; s=$(ps -o stat= -p "$1") && [[ $s != Z* ]]; }
                unit_file() {
                  case $1 in
                    *@*) echo "$UNITS/${1%%%%@*}@.service" ;;
                    *) echo "$UNITS/$1.service" ;;
                  esac
                }
                systemctl() {
                  local action=$1; shift
                  if [ "$action" = enable ]; then
                    [ "$1" = --now ] || { echo "systemctl: without systemd, only enable --now" >&2; return 1; }
                    shift; action=start
                  fi
                  local unit=${1%%.service} file state=/tmp/.units
                  file=$(unit_file "$unit"); mkdir -p $state
                  [ -f "$file" ] || { echo "systemctl: no unit $unit" >&2; return 1; }
                  case $action in
                    start)
                      local instance='' exec env user group dir i
                      case $unit in *@*) instance=${unit#*@} ;; esac
                      exec=$(sed -n 's/^ExecStart=//p' "$file"); exec=${exec//%%i/$instance}
                      exec=${exec//\\/usr\\/bin\\/gridcache/$GRIDCACHE_BIN}
                      env=$(sed -n 's/^Environment=//p' "$file"); user=$(sed -n 's/^User=//p' "$file")
                      group=$(sed -n 's/^Group=//p' "$file"); dir=$(sed -n 's/^WorkingDirectory=//p' "$file")
                      (cd "$dir" && exec setpriv --reuid "$user" --regid "$group" --init-groups --reset-env \\
                          env $env sh -c "exec $exec") >"$state/$unit.out" 2>&1 </dev/null &
                      echo $! >"$state/$unit.pid"
                      for i in $(seq 1 180); do
                        grep -q ' is up' "$state/$unit.out" && return 0
                        unit_alive $! || { cat "$state/$unit.out" >&2; echo "systemctl: $unit exited" >&2; return 1; }
                        sleep 1
                      done
                      echo "systemctl: $unit is not up after 180 s" >&2; return 1 ;;
                    stop)
                      local pid i
                      pid=$(cat "$state/$unit.pid" 2>/dev/null) || return 0
                      kill -TERM "$pid" 2>/dev/null || true
                      for i in $(seq 1 60); do
                        unit_alive "$pid" || { rm -f "$state/$unit.pid"; return 0; }
                        sleep 1
                      done
                      echo "systemctl: $unit did not stop in 60 s" >&2; return 1 ;;
                    *) echo "systemctl: without systemd, only enable --now, start and stop" >&2; return 1 ;;
                  esac
                }
                journalctl() {
                  [ "$1" = -u ] || { echo "journalctl: without systemd, only -u UNIT" >&2; return 1; }
                  cat "/tmp/.units/${2%%.service}.out"
                }
                """.formatted(UNITS.toAbsolutePath().normalize(), dist.toAbsolutePath().normalize().resolve("bin/gridcache"));
    }
}
