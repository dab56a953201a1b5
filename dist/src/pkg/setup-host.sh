#!/bin/sh
# What the gridcache services need on this host, made by the package after it installs its files (deb postinst,
# rpm %post) and idempotent: the gridcache system user and group, the state and log directories, the directory of
# the nodes' ticket keys. A state or log directory that is there already (a mount point the admin made for the
# store's disk, say) is made the services' own, the directory itself, not what it holds, unless the admin declared
# its owner and mode with dpkg-statoverride; the keys' directory, once there, is left as the admin has it.
set -e
getent group gridcache >/dev/null || groupadd --system gridcache
if ! getent passwd gridcache >/dev/null; then
  nologin=$(command -v nologin || echo /bin/false)
  useradd --system --gid gridcache --home-dir /var/lib/gridcache --no-create-home --shell "$nologin" \
    --comment "gridcache services" gridcache
fi
for dir in /var/lib/gridcache /var/log/gridcache; do
  if [ ! -d "$dir" ]; then
    install -d -o gridcache -g gridcache -m 0750 "$dir"
  elif ! command -v dpkg-statoverride >/dev/null || ! dpkg-statoverride --list "$dir" >/dev/null; then
    chown gridcache:gridcache "$dir"
    chmod 0750 "$dir"
  fi
done
[ -d /etc/gridcache/keys ] || install -d -o gridcache -g gridcache -m 0700 /etc/gridcache/keys
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
