/usr/share/gridcache/setup-host.sh
