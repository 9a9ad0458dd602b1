#!/bin/sh
# Restores a registry export (registry-export.sh) into an empty Apicurio Registry, keeping every global and content
# id, so that each record on the topics names the same schema it was written with (deploy/README.md, "Backups and
# restore").
#   registry-import.sh <registry core v3 URL> <file.zip>
# The registry refuses (409) an import into a registry that holds any artifact: restore before a writer starts.
set -eu
url="${1:?usage: registry-import.sh <registry v3 URL, e.g. http://127.0.0.1:8080/apis/registry/v3> <file.zip>}"
zip="${2:?usage: registry-import.sh <registry v3 URL> <file.zip>}"
[ -f "$zip" ] || { echo "registry-import: no file $zip" >&2; exit 1; }
answer=$(curl --silent --show-error --max-time 600 -w '\n%{http_code}' -X POST -H 'Content-Type: application/zip' \
  -H 'X-Registry-Preserve-GlobalId: true' -H 'X-Registry-Preserve-ContentId: true' \
  --data-binary @"$zip" "$url/admin/import?requireEmptyRegistry=true")
status=$(printf '%s' "$answer" | tail -n 1)
if [ "$status" != 204 ] && [ "$status" != 200 ]; then
  echo "registry-import: $url/admin/import answered $status: $(printf '%s' "$answer" | sed '$d')" >&2
  exit 1
fi
echo "registry-import: $zip restored into $url"
