#!/usr/bin/env bash
# Makes the pgvector extension available to the machine's PostgreSQL. Idempotent: does nothing when it is installed.
#   deploy/local/pgvector.sh ensure
#
# Debian 12 packages no pgvector for PostgreSQL 15, so this builds it from Debian's own source package of the next
# release (trixie): it adds a deb-src entry for trixie derived from the machine's apt configuration (same mirror,
# same keyring; source indexes only, so no trixie binary can be installed by accident), installs
# postgresql-server-dev-<version>, fetches the source with `apt-get source`, builds it and installs it with `make`.
# Creating the extension in a database needs a superuser; postgres.sh does it when it provisions hindsight_memory,
# and the tests' TestDatabase does it for their throwaway databases.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

pg_version() { ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1; }

installed() {
  local version=$1
  [ -f "/usr/share/postgresql/$version/extension/vector.control" ] && [ -f "/usr/lib/postgresql/$version/lib/vector.so" ]
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "pgvector is not installed and installing it needs root (apt-get, make install): run '$0 ensure' as root"
  fi
}

# The first Debian archive mirror and keyring the machine's apt configuration uses, in either source format.
debian_mirror() {
  local uri="" keyring=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    uri=$(awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/*.sources)
    keyring=$(awk -v u="$uri" '/^URIs:/ {hit = ($2 == u)} hit && /^Signed-By:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources)
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\/.*\/debian\/?$/) { print $i; exit } }' /etc/apt/sources.list)
  fi
  [ -n "$uri" ] || die "cannot find a Debian archive mirror in the apt configuration (/etc/apt/sources.list{,.d})"
  echo "$uri ${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}"
}

build_and_install() {
  local version=$1 mirror keyring build
  read -r mirror keyring < <(debian_mirror)
  local list=/etc/apt/sources.list.d/hindsight-pgvector-src.sources
  log "pgvector: adding trixie source packages from $mirror ($list)"
  as_root tee "$list" >/dev/null <<EOF
# Written by Hindsight's deploy/local/pgvector.sh: source packages only, to build pgvector for PostgreSQL $version.
Types: deb-src
URIs: $mirror
Suites: trixie
Components: main
Signed-By: $keyring
EOF
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "postgresql-server-dev-$version" make gcc dpkg-dev >/dev/null
  build=$(mktemp -d "${TMPDIR:-/tmp}/hindsight-pgvector.XXXXXX")
  chmod 0777 "$build"   # apt-get source downloads as user _apt
  trap 'rm -rf "$build"' RETURN
  (cd "$build" && apt-get source -qq --download-only pgvector >/dev/null && dpkg-source -x --no-check ./*.dsc src >/dev/null)
  log "pgvector: building $(basename "$build"/*.dsc .dsc) for PostgreSQL $version"
  make -s -C "$build/src" PG_CONFIG="/usr/lib/postgresql/$version/bin/pg_config" >/dev/null
  as_root make -s -C "$build/src" PG_CONFIG="/usr/lib/postgresql/$version/bin/pg_config" install >/dev/null
}

case "${1:-ensure}" in
  ensure)
    version=$(pg_version)
    [ -n "$version" ] || die "no PostgreSQL cluster under /etc/postgresql"
    if installed "$version"; then
      exit 0
    fi
    build_and_install "$version"
    installed "$version" || die "pgvector build finished but vector.control/vector.so are not installed for PostgreSQL $version"
    log "pgvector: installed for PostgreSQL $version"
    ;;
  *) die "usage: $0 ensure" ;;
esac
