#!/usr/bin/env bash
# Pins the prod overlay's service images to what `mvn package -Dquarkus.container-image.push=true` just pushed: for
# each service, the digest Jib wrote to <service>/target/jib-image.digest, under the repository you pushed to.
#
#   deploy/k8s/pin-images.sh registry.example.com/hindsight [overlay dir, default deploy/k8s/overlays/prod]
#
# Rewrites the overlay's images: entries (newName and digest) and nothing else; commit the result with the code it
# was built from. Changes nothing when a service has no digest file or an odd one.
set -euo pipefail
ROOT="${HINDSIGHT_BUILD_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
SERVICES=(ingest-service evaluation-service memory-service query-service)

prefix="${1:?usage: $0 <registry>/<repository prefix, e.g. registry.example.com/hindsight> [overlay dir]}"
overlay="${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/overlays/prod}"
kustomization="$overlay/kustomization.yaml"
[ -f "$kustomization" ] || { echo "pin-images: no $kustomization" >&2; exit 1; }

declare -A digests
for svc in "${SERVICES[@]}"; do
  file="$ROOT/$svc/target/jib-image.digest"
  [ -f "$file" ] || { echo "pin-images: no $file: push $svc first (deploy/README.md, step 1)" >&2; exit 1; }
  digest=$(tr -d ' \n' < "$file")
  [[ "$digest" =~ ^sha256:[0-9a-f]{64}$ ]] || { echo "pin-images: $file holds '$digest', not a sha256 digest" >&2; exit 1; }
  grep -q "^  - name: docker.io/hindsight/$svc\$" "$kustomization" \
    || { echo "pin-images: $kustomization has no images entry for docker.io/hindsight/$svc" >&2; exit 1; }
  digests[$svc]=$digest
done

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cp "$kustomization" "$tmp"
for svc in "${SERVICES[@]}"; do
  # Within this service's entry (its name line up to its digest line): the repository, then the digest.
  sed -i "\\|^  - name: docker.io/hindsight/$svc\$|,\\|^    digest:| {
    s|^    newName: .*|    newName: $prefix/$svc|
    s|^    digest: .*|    digest: ${digests[$svc]}|
  }" "$tmp"
done
cp "$tmp" "$kustomization"
for svc in "${SERVICES[@]}"; do
  echo "pinned $prefix/$svc@${digests[$svc]}"
done
