#!/usr/bin/env bash
# Makes Prometheus's promtool available to the tests that check the alert rules against an idle system
# (IdleMeansLagZeroIT). Idempotent: does nothing when it is there. Only the promtool binary is taken from Debian's
# prometheus package (downloaded, not installed: no server, no service), into $HINDSIGHT_HOME/tools.
#   deploy/local/promtool.sh ensure    fetch it if missing
#   deploy/local/promtool.sh path      print its path
set -euo pipefail
source "$(dirname "$0")/lib.sh"

TOOLS="$HINDSIGHT_HOME/tools"
PROMTOOL="$TOOLS/promtool"

case "${1:-ensure}" in
  ensure)
    if [ -x "$PROMTOOL" ]; then
      exit 0
    fi
    command -v apt-get >/dev/null || die "no apt-get: put a promtool binary at $PROMTOOL"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    log "fetching promtool from Debian's prometheus package"
    if ! (cd "$work" && apt-get download prometheus >/dev/null 2>&1); then
      # A fresh machine may have no package lists yet.
      if [ "$(id -u)" = 0 ]; then apt-get update -qq; else sudo apt-get update -qq; fi
      (cd "$work" && apt-get download prometheus >/dev/null 2>&1) || die "apt-get download prometheus failed"
    fi
    dpkg-deb -x "$work"/prometheus_*.deb "$work/x"
    mkdir -p "$TOOLS"
    install -m 0755 "$work/x/usr/bin/promtool" "$PROMTOOL"
    log "$("$PROMTOOL" --version 2>&1 | head -1)"
    ;;
  path)
    echo "$PROMTOOL"
    ;;
  *)
    die "usage: $0 ensure|path"
    ;;
esac
