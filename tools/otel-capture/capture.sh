#!/usr/bin/env bash
# Regenerates system-tests/src/test/resources/otel-corpus/*.json: installs the pinned packages (npm ci) when
# node_modules is missing or was installed from another package-lock.json, then runs every capture scenario.
# Arguments are passed to capture.js (--out DIR, --only NAME[,NAME...]).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

die() {
  echo "capture.sh: $*" >&2
  exit 1
}

command -v node >/dev/null 2>&1 || die "node is not on PATH (Node.js >= 20.6 is needed)"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH"
node -e '
  const [maj, min] = process.versions.node.split(".").map(Number);
  if (maj < 20 || (maj === 20 && min < 6)) {
    console.error(`capture.sh: Node.js ${process.version} is too old; >= 20.6 is needed`);
    process.exit(1);
  }
' || exit 1

# node_modules is fresh when it was installed by npm ci from exactly this package.json and package-lock.json.
stamp_file="node_modules/.capture-install-stamp"
want_stamp="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
have_stamp="$(cat "$stamp_file" 2>/dev/null || true)"
if [[ ! -d node_modules || "$have_stamp" != "$want_stamp" ]]; then
  echo "capture.sh: installing the pinned packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
  echo "$want_stamp" >"$stamp_file"
fi

node capture.js "$@" || die "capture failed (see above); fixtures of failed scenarios were not written"
