#!/usr/bin/env bash
# wrk, the HTTP load generator the benchmarks use (a C client: it takes little of the two cores it measures on).
# Installs the Debian package `wrk` when it is missing and this runs as root; otherwise says how. Then runs wrk.
set -euo pipefail
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "bench: installing wrk (apt-get install wrk)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null; }
  else
    echo "bench: wrk is missing; install it (Debian/Ubuntu: sudo apt-get install wrk)" >&2
    exit 1
  fi
fi
exec wrk "$@"
