#!/usr/bin/env bash
# Prints, as Kubernetes YAML on standard output, the Secrets Hindsight needs that no operator creates: each database
# role's password (CloudNativePG sets it from the Secret, the service reads it), the API key hashes every service
# accepts, the master key every service derives the tenants' key-encryption keys from, the key every query-service
# replica signs console sign-ins with, the user name KEDA connects to Kafka
# with, and (prod) the object store's credentials for backups, taken from HINDSIGHT_BACKUP_ACCESS_KEY_ID and
# HINDSIGHT_BACKUP_SECRET_ACCESS_KEY. Passwords and the API key are random; the API key itself is
# printed once on standard error and stored nowhere, only its SHA-256 is (as hindsight.auth.api-keys.<id>.sha256).
#
#   deploy/k8s/create-secrets.sh [--tenant demo] [--key-id admin] [--scopes ingest,read,admin] \
#     | kubectl create -n hindsight -f -
#
# `kubectl create` refuses Secrets that exist, so running it again changes nothing (rotation: deploy/README.md).
# Secrets that operators write (Strimzi: one per KafkaUser and hindsight-cluster-ca-cert; CloudNativePG:
# hindsight-pg-ca) are not here. DeploymentInvariantsTest renders this output and checks that every Secret and key a
# workload references exists.
set -euo pipefail

tenant=demo key_id=admin scopes=ingest,read,admin
while [ $# -gt 0 ]; do
  case "$1" in
    --tenant) tenant="$2"; shift 2 ;;
    --key-id) key_id="$2"; shift 2 ;;
    --scopes) scopes="$2"; shift 2 ;;
    *) echo "usage: $0 [--tenant NAME] [--key-id ID] [--scopes ingest,read,admin]" >&2; exit 2 ;;
  esac
done
# The key id becomes part of environment variable names (HINDSIGHT_AUTH_API_KEYS_<ID>_SHA256): letters and digits.
[[ "$key_id" =~ ^[a-z][a-z0-9]*$ ]] || { echo "--key-id must be lower-case letters and digits" >&2; exit 2; }

random() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

db_secret() { # name role
  cat <<YAML
---
apiVersion: v1
kind: Secret
metadata:
  name: $1
  labels:
    app.kubernetes.io/part-of: hindsight
type: kubernetes.io/basic-auth
stringData:
  username: $2
  password: $(random 24)
YAML
}

db_secret hindsight-db-query hindsight_query
db_secret hindsight-db-evaluation hindsight_evaluation
db_secret hindsight-db-memory hindsight_memory
db_secret hindsight-db-registry apicurio

api_key="hs_$(random 24)"
hash=$(printf '%s' "$api_key" | sha256sum | cut -d' ' -f1)
id=$(echo "$key_id" | tr '[:lower:]' '[:upper:]')
cat <<YAML
---
# API keys every service accepts (platform AuthConfig): hindsight.auth.api-keys.<id>.sha256 / .tenant / .scopes as
# environment variables. Add a key: three more entries with another id, then restart the services.
apiVersion: v1
kind: Secret
metadata:
  name: hindsight-api-keys
  labels:
    app.kubernetes.io/part-of: hindsight
type: Opaque
stringData:
  HINDSIGHT_AUTH_API_KEYS_${id}_SHA256: "$hash"
  HINDSIGHT_AUTH_API_KEYS_${id}_TENANT: "$tenant"
  HINDSIGHT_AUTH_API_KEYS_${id}_SCOPES: "$scopes"
---
# The HMAC key of the console's sign-in cookie (hindsight.console.cookie-secret), shared by every query-service replica
# so that a browser signed in on one is signed in on all. Replacing it signs every browser out.
apiVersion: v1
kind: Secret
metadata:
  name: hindsight-console
  labels:
    app.kubernetes.io/part-of: hindsight
type: Opaque
stringData:
  cookie-secret: $(random 32)
---
# The local KMS's master key (ADR 0027), the same in every service: each tenant's key-encryption key is derived from
# it, and every data key is wrapped under those. Losing it loses everything sealed; rotating adds a version
# (HINDSIGHT_CRYPTO_MASTER_KEYS_2, HINDSIGHT_CRYPTO_MASTER_KEY_VERSION=2) and keeps the old one (deploy/README.md).
apiVersion: v1
kind: Secret
metadata:
  name: hindsight-crypto
  labels:
    app.kubernetes.io/part-of: hindsight
type: Opaque
stringData:
  HINDSIGHT_CRYPTO_MASTER_KEYS_1: "$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
  HINDSIGHT_CRYPTO_MASTER_KEY_VERSION: "1"
---
# KEDA's Kafka user name; its password is in the Secret "keda" that Strimzi writes for KafkaUser keda.
apiVersion: v1
kind: Secret
metadata:
  name: hindsight-keda-kafka
  labels:
    app.kubernetes.io/part-of: hindsight
type: Opaque
stringData:
  username: keda
YAML
if [ -n "${HINDSIGHT_BACKUP_ACCESS_KEY_ID:-}" ] && [ -n "${HINDSIGHT_BACKUP_SECRET_ACCESS_KEY:-}" ]; then
  cat <<YAML
---
# The object store the backups go to (components/backups): CloudNativePG's Barman Cloud plugin and the registry export.
apiVersion: v1
kind: Secret
metadata:
  name: hindsight-backup-store
  labels:
    app.kubernetes.io/part-of: hindsight
type: Opaque
stringData:
  ACCESS_KEY_ID: "$HINDSIGHT_BACKUP_ACCESS_KEY_ID"
  ACCESS_SECRET_KEY: "$HINDSIGHT_BACKUP_SECRET_ACCESS_KEY"
YAML
else
  echo "no backup store credentials (HINDSIGHT_BACKUP_ACCESS_KEY_ID, HINDSIGHT_BACKUP_SECRET_ACCESS_KEY): the prod" \
    "overlay's backups need them; set both and run this again (kubectl create adds only the missing Secret)" >&2
fi
echo "API key for tenant '$tenant' (key id $key_id, scopes $scopes), shown only now: $api_key" >&2
