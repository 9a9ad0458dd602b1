#!/usr/bin/env bash
# Installs the published CRD schemas the manifest tests check custom resources against (CloudNativePG, KEDA, the
# Prometheus Operator; see package.json) from the npm registry, at the versions package-lock.json pins. Idempotent:
# does nothing when node_modules already holds exactly what the lock file names.
#   deploy/k8s/schemas/ensure.sh
set -euo pipefail
cd "$(dirname "$0")"

command -v node >/dev/null && command -v npm >/dev/null \
  || { echo "hindsight: node and npm are needed to check custom resources against their CRD schemas" >&2; exit 1; }
stamp=node_modules/.hindsight-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
echo "$(date +%H:%M:%S) CRD schemas installed: $(node -e 'const l=require("./package-lock.json").packages;
  console.log(Object.keys(l).filter(k=>/node_modules\/(@kubernetes-models\/(keda|cloudnative-pg|prometheus-operator)|typescript)$/.test(k))
  .map(k=>k.replace("node_modules/","")+"@"+l[k].version).join(", "))')"
