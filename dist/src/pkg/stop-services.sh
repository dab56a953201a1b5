#!/bin/sh
# Stops the gridcache services before the package's files go (deb prerm remove, rpm %preun on erase).
if [ -d /run/systemd/system ]; then
  systemctl stop gridcache-door.service 'gridcache-pool@*.service' gridcache-zk.service || true
fi
