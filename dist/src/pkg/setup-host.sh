#!/bin/sh
# What the gridcache services need on this host, made by the package after it installs its files (deb postinst,
# rpm %post) and idempotent: the gridcache system user and group, the state and log directories, the directory of
# the nodes' ticket keys. Existing ones are left as the admin has them.
set -e
getent group gridcache >/dev/null || groupadd --system gridcache
if ! getent passwd gridcache >/dev/null; then
  nologin=$(command -v nologin || echo /bin/false)
  useradd --system --gid gridcache --home-dir /var/lib/gridcache --no-create-home --shell "$nologin" \
    --comment "gridcache services" gridcache
fi
for dir in /var/lib/gridcache /var/log/gridcache; do
  [ -d "$dir" ] || install -d -o gridcache -g gridcache -m 0750 "$dir"
done
[ -d /etc/gridcache/keys ] || install -d -o gridcache -g gridcache -m 0700 /etc/gridcache/keys
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
