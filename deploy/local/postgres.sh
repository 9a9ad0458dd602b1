#!/usr/bin/env bash
# Makes sure the machine's PostgreSQL runs and Hindsight's role and databases exist. Idempotent.
#   deploy/local/postgres.sh ensure    start PostgreSQL if it is down; raise shared_buffers to a quarter of the
#                                      machine's memory (at least 1 GB) if it is lower (restarts it once); turn
#                                      autovacuum on if it is off; compress WAL and space checkpoints out (a reload);
#                                      install pgvector if it is missing (pgvector.sh); create role hindsight, the
#                                      databases, and extension vector in hindsight_memory and hindsight_query
#   deploy/local/postgres.sh stop      stop PostgreSQL only if `ensure` was the one that started it
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# hindsight_registry: Apicurio Registry's storage, so that the schema ids the records on Kafka carry outlive a restart.
DATABASES=(hindsight_query hindsight_evaluation hindsight_memory hindsight_registry)

psql_super() { psql -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U "$PG_SUPERUSER" -d postgres "$@"; }

ensure_running() {
  if pg_isready -q -h "$PGHOST" -p "$PGPORT"; then
    return 0
  fi
  command -v pg_ctlcluster >/dev/null || die "PostgreSQL is not answering on $PGHOST:$PGPORT and pg_ctlcluster is not installed"
  local version
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  [ -n "$version" ] || die "no PostgreSQL cluster under /etc/postgresql"
  # A cluster that is still starting (or recovering) answers pg_isready with "no response" while pg_ctlcluster
  # already calls it running, and `start` then fails with exit 2: wait for that one instead of starting it.
  if pg_ctlcluster "$version" main status >/dev/null 2>&1; then
    log "PostgreSQL $version is starting; waiting for it to accept connections"
  else
    log "starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start
    touch "$RUN_DIR/postgres.started-by-hindsight"
  fi
  local i
  for i in $(seq 1 240); do pg_isready -q -h "$PGHOST" -p "$PGPORT" && return 0; sleep 0.5; done
  die "PostgreSQL did not come up on $PGHOST:$PGPORT"
}

ensure_databases() {
  psql_super <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hindsight') THEN
    CREATE ROLE hindsight LOGIN PASSWORD 'hindsight';
  END IF;
END $$;
SQL
  local db
  for db in "${DATABASES[@]}"; do
    if [ "$(psql_super -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != "1" ]; then
      psql_super -c "CREATE DATABASE $db OWNER hindsight"
      log "created database $db"
    fi
  done
  # memory-service stores embeddings with pgvector, and query-service's read model of the memories does too (the
  # console searches them); creating an extension needs a superuser, so it happens here.
  for db in hindsight_memory hindsight_query; do
    psql_super -d "$db" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS vector"
  done
}

# memory-service's HNSW index must fit in shared buffers (PostgreSQL's default of 128 MB holds about 60,000
# memories' index), and so must the indexes every projected event is inserted into (ledgers, messages, sessions):
# read from the OS instead, they made each ledger insert read a page (docs/benchmarks.md). A quarter of the machine's
# memory, PostgreSQL's usual starting point, at least 1 GB; raised once, with a restart, when the setting is lower.
# HINDSIGHT_PG_SHARED_BUFFERS sets another size; empty skips.
ensure_memory() {
  local quarter_mb
  quarter_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 / 4 }' /proc/meminfo 2>/dev/null || echo 0)
  [ "${quarter_mb:-0}" -ge 1024 ] || quarter_mb=1024
  local wanted="${HINDSIGHT_PG_SHARED_BUFFERS-${quarter_mb}MB}" current_kb wanted_kb version
  [ -n "$wanted" ] || return 0
  current_kb=$(psql_super -tAc "SELECT setting::bigint * 8 FROM pg_settings WHERE name = 'shared_buffers'")
  wanted_kb=$(psql_super -tAc "SELECT pg_size_bytes('$wanted') / 1024")
  [ "$current_kb" -lt "$wanted_kb" ] || return 0
  command -v pg_ctlcluster >/dev/null || { log "shared_buffers is $((current_kb / 1024)) MB; set it to $wanted for memory-service's vector index"; return 0; }
  version=$(psql_super -tAc "SELECT current_setting('server_version_num')::int / 10000")
  log "raising PostgreSQL's shared_buffers from $((current_kb / 1024)) MB to $wanted (restarts PostgreSQL $version once)"
  psql_super -c "ALTER SYSTEM SET shared_buffers = '$wanted'"
  pg_ctlcluster --skip-systemctl-redirect "$version" main restart
  local i
  for i in $(seq 1 240); do pg_isready -q -h "$PGHOST" -p "$PGPORT" && return 0; sleep 0.5; done
  die "PostgreSQL did not come back on $PGHOST:$PGPORT after the restart"
}

# Hindsight's job, outbox and ledger tables churn: without autovacuum their indexes fill with dead entries and every
# job claim gets slower (an evaluation-service claim scanned 548k dead rows after a benchmark). Some CI images turn it
# off; it is on in every real deployment, so it is turned on here (a reload, no restart).
ensure_autovacuum() {
  [ "$(psql_super -tAc "SHOW autovacuum")" = "on" ] && return 0
  log "turning PostgreSQL's autovacuum on (it was off)"
  psql_super -c "ALTER SYSTEM SET autovacuum = on" -c "SELECT pg_reload_conf()" >/dev/null
}

# Every projected event changes index pages at random places (event ids and session ids are name-based), so after
# each checkpoint nearly every change writes a full page image to the WAL: 31 KB of WAL per event at 1,000 events/s.
# Compressing the images (lz4) and checkpointing less often cut that to a third (docs/benchmarks.md). A reload, no
# restart; only settings still at PostgreSQL's defaults are changed.
ensure_wal() {
  local changed=0
  if [ "$(psql_super -tAc "SHOW wal_compression")" = "off" ]; then
    psql_super -c "ALTER SYSTEM SET wal_compression = 'lz4'" >/dev/null 2>&1 \
      || psql_super -c "ALTER SYSTEM SET wal_compression = 'on'" >/dev/null
    changed=1
  fi
  if [ "$(psql_super -tAc "SELECT setting FROM pg_settings WHERE name = 'max_wal_size'")" -le 1024 ]; then
    psql_super -c "ALTER SYSTEM SET max_wal_size = '4GB'" >/dev/null
    changed=1
  fi
  if [ "$(psql_super -tAc "SELECT setting FROM pg_settings WHERE name = 'checkpoint_timeout'")" -le 300 ]; then
    psql_super -c "ALTER SYSTEM SET checkpoint_timeout = '15min'" >/dev/null
    changed=1
  fi
  if [ "$changed" = 1 ]; then
    log "PostgreSQL: WAL compression on, checkpoints at most every 15 min or 4 GB of WAL"
    psql_super -c "SELECT pg_reload_conf()" >/dev/null
  fi
}

case "${1:-ensure}" in
  ensure)
    ensure_running
    ensure_memory
    ensure_autovacuum
    ensure_wal
    "$(dirname "$0")/pgvector.sh" ensure
    ensure_databases
    ;;
  stop)
    if [ -f "$RUN_DIR/postgres.started-by-hindsight" ]; then
      version=$(ls /etc/postgresql | sort -V | tail -n 1)
      pg_ctlcluster --skip-systemctl-redirect "$version" main stop
      rm -f "$RUN_DIR/postgres.started-by-hindsight"
      log "PostgreSQL stopped"
    fi
    ;;
  *) die "usage: $0 ensure|stop" ;;
esac
