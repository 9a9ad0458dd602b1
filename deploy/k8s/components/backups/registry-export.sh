#!/bin/sh
# Exports everything Apicurio Registry holds (groups, artifacts, versions, their content, rules, and the global and
# content ids records carry) as one zip, through its admin API. Used by the hindsight-registry-export CronJob and
# by hand (deploy/README.md, "Backups and restore").
#   registry-export.sh <registry core v3 URL> <file.zip>
# Writes the file only when the export is complete; fails (exit 1) on an HTTP error or anything but a zip.
set -eu
url="${1:?usage: registry-export.sh <registry v3 URL, e.g. http://hindsight-registry:8080/apis/registry/v3> <file.zip>}"
out="${2:?usage: registry-export.sh <registry v3 URL> <file.zip>}"
curl --fail --silent --show-error --max-time 300 -H 'Accept: application/zip' -o "$out.partial" "$url/admin/export"
# A zip archive starts with "PK\003\004".
if [ "$(head -c 2 "$out.partial")" != "PK" ]; then
  echo "registry-export: $url/admin/export did not answer with a zip" >&2
  rm -f "$out.partial"
  exit 1
fi
mv "$out.partial" "$out"
echo "registry-export: $(wc -c < "$out" | tr -d ' ') bytes from $url to $out"
