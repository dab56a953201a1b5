if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
