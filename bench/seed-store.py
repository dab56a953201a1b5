#!/usr/bin/env python3
"""Writes a pool store's layout directly (ARCHITECTURE.md, "Disk layout"): N data files of SIZE bytes, each with the
sidecar a fetch from ORIGIN_URL/<dir>/f<i>.bin would have left (origin URL, size, mtime, storedAt, no checksums),
plus PARTS part files and TEMPS temporary sidecars that a restart must drop. Used by bench/restart-bench.sh when the
store is not filled through the pool (SEED=direct). What is written is what Store.commit leaves, minus the fsyncs.

  bench/seed-store.py STORE_DIR ORIGIN_URL N [SIZE (512)] [PARTS (0)]
"""
import hashlib
import json
import os
import sys


def main():
    store, origin, n = sys.argv[1], sys.argv[2].rstrip("/"), int(sys.argv[3])
    size = int(sys.argv[4]) if len(sys.argv) > 4 else 512
    parts = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    data = os.path.join(store, "data")
    body = os.urandom(size)
    now = 1_700_000_000
    made = set()
    for i in range(n + parts):
        url = f"{origin}/d{i % 1000:03d}/f{i}.bin"
        hexname = hashlib.sha256(url.encode()).hexdigest()
        d = os.path.join(data, hexname[0:2], hexname[2:4])
        if d not in made:
            os.makedirs(d, mode=0o700, exist_ok=True)
            made.add(d)
        f = os.path.join(d, hexname)
        if i >= n:  # a fetch cut short: its part file only
            with open(f + ".part", "wb") as out:
                out.write(body[: size // 2])
            continue
        with open(f, "wb") as out:
            out.write(body)
        with open(f + ".json", "w") as out:
            json.dump({"originUrl": url, "size": size, "mtime": now, "storedAt": now + i}, out, separators=(",", ":"))
        os.chmod(f, 0o600)
        os.chmod(f + ".json", 0o600)
    print(f"seeded {n} files of {size} bytes and {parts} part files under {data}")


if __name__ == "__main__":
    main()
