#!/usr/bin/env bash
# Makes Debian's Chromium and its ChromeDriver available for the console's browser tests. Idempotent: does nothing
# when both are installed.
#   deploy/local/chromium.sh ensure    install packages chromium and chromium-driver if either is missing
#   deploy/local/chromium.sh paths     print the browser's and the driver's paths
# The browser tests use exactly these binaries (/usr/bin/chromium, /usr/bin/chromedriver): Selenium is told the
# driver's path, so nothing is downloaded while tests run.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

BROWSER=${HINDSIGHT_CHROMIUM:-/usr/bin/chromium}
DRIVER=${HINDSIGHT_CHROMEDRIVER:-/usr/bin/chromedriver}

installed() { [ -x "$BROWSER" ] && [ -x "$DRIVER" ]; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "chromium is not installed and installing it needs root (apt-get): run '$0 ensure' as root"
  fi
}

case "${1:-ensure}" in
  ensure)
    if installed; then
      exit 0
    fi
    command -v apt-get >/dev/null || die "no apt-get: install Chromium and ChromeDriver and set HINDSIGHT_CHROMIUM and HINDSIGHT_CHROMEDRIVER"
    log "installing chromium and chromium-driver from Debian's packages"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
    installed || die "chromium-driver installed, but $BROWSER or $DRIVER is still missing"
    log "$("$BROWSER" --version 2>/dev/null || echo chromium) with $("$DRIVER" --version 2>/dev/null | cut -d' ' -f1-2)"
    ;;
  paths)
    echo "$BROWSER $DRIVER"
    ;;
  *)
    die "usage: $0 ensure|paths"
    ;;
esac
