# $1 = 0: the package is erased (not upgraded)
if [ "$1" = 0 ]; then /usr/share/gridcache/stop-services.sh; fi
