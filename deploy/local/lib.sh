# Shared by the deploy/local scripts: where state lives, and how processes are started and stopped by PID.
# Everything Hindsight runs locally keeps its state under $HINDSIGHT_HOME (default: <repo>/.hindsight).

HINDSIGHT_ROOT="${HINDSIGHT_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
HINDSIGHT_HOME="${HINDSIGHT_HOME:-$HINDSIGHT_ROOT/.hindsight}"
DIST_DIR="$HINDSIGHT_HOME/dist"
RUN_DIR="$HINDSIGHT_HOME/run"
DATA_DIR="$HINDSIGHT_HOME/data"

KAFKA_VERSION="${KAFKA_VERSION:-4.3.1}"
REGISTRY_VERSION="${REGISTRY_VERSION:-3.0.9}"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
REGISTRY_PORT="${REGISTRY_PORT:-8081}"
INGEST_PORT="${INGEST_PORT:-8091}"
EVALUATION_PORT="${EVALUATION_PORT:-8092}"
MEMORY_PORT="${MEMORY_PORT:-8093}"
QUERY_PORT="${QUERY_PORT:-8094}"
PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PG_SUPERUSER="${PG_SUPERUSER:-postgres}"

mkdir -p "$DIST_DIR" "$RUN_DIR" "$DATA_DIR"

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'hindsight: %s\n' "$*" >&2; exit 1; }

# pid_of NAME: the PID recorded for NAME if that process is alive and is ours (its command line carries our marker).
pid_of() {
  local pidfile="$RUN_DIR/$1.pid" pid
  [ -f "$pidfile" ] || return 1
  pid=$(cat "$pidfile")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-Dhindsight.process=$1 "; then
    echo "$pid"
    return 0
  fi
  rm -f "$pidfile"   # stale: the process crashed or the PID now belongs to something else
  return 1
}

# start_java NAME WORKDIR JAVA_ARGS...: start a JVM in the background, detached, logging to $RUN_DIR/NAME.log.
# With JAVA_NICE set (a number), the JVM runs at that niceness: it gets the CPU after every process at 0.
start_java() {
  local name="$1" workdir="$2"; shift 2
  if pid=$(pid_of "$name"); then
    log "$name already running (pid $pid)"
    return 0
  fi
  local nice=()
  [ -n "${JAVA_NICE:-}" ] && nice=(nice -n "$JAVA_NICE")
  ( cd "$workdir" && exec "${nice[@]}" setsid java "-Dhindsight.process=$name" "$@" >"$RUN_DIR/$name.log" 2>&1 < /dev/null ) &
  local started=$! i
  echo "$started" > "$RUN_DIR/$name.pid"
  # Until the subshell has exec'd into java (through nice and setsid, which carry the marker too) pid_of would take it
  # for a stale PID and forget it, and setsid may not have made the JVM's session yet: wait for java itself, which
  # takes milliseconds unless the machine is busy.
  for i in $(seq 1 100); do
    [ "$(cat "/proc/$started/comm" 2>/dev/null)" = java ] && break
    kill -0 "$started" 2>/dev/null || break
    sleep 0.05
  done
  # setsid gives the JVM a session of its own, and with it (where the kernel groups by session, as most desktops and
  # VMs do: /proc/sys/kernel/sched_autogroup_enabled) a scheduling group of its own. The scheduler shares the CPU
  # fairly between groups first and applies a process's niceness only within its group, so the niceness must be the
  # group's too, or it changes nothing against the other services.
  if [ -n "${JAVA_NICE:-}" ] && [ -w "/proc/$started/autogroup" ]; then
    echo "$JAVA_NICE" > "/proc/$started/autogroup" 2>/dev/null || true
  fi
  # With JIT_NICE set, the JVM's optimising (C2) compiler threads run at that niceness, below the JVM's own threads:
  # just after a start, compiling the hot paths competes with the events those paths must apply, and it can wait.
  # The JVM must keep its compiler threads for life (-XX:-UseDynamicNumberOfCompilerThreads) for this to last.
  if [ -n "${JIT_NICE:-}" ]; then
    local task reniced=0
    for i in $(seq 1 100); do
      for task in /proc/"$started"/task/*; do
        if [[ "$(cat "$task/comm" 2>/dev/null)" == "C2 CompilerThre"* ]]; then
          renice -n "$JIT_NICE" -p "${task##*/}" >/dev/null 2>&1 && reniced=1
        fi
      done
      [ "$reniced" = 1 ] && break
      kill -0 "$started" 2>/dev/null || break
      sleep 0.05
    done
  fi
  log "$name started (pid $started, log $RUN_DIR/$name.log)"
}

# stop NAME: TERM, then KILL after 30 s; only ever the PID this tooling recorded.
stop() {
  local name="$1" pid i
  if ! pid=$(pid_of "$name"); then
    return 0
  fi
  kill "$pid" 2>/dev/null || true
  for i in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop in 30 s; killing it"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN_DIR/$name.pid"
  log "$name stopped"
}

# port_free PORT: true when nothing listens on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_until NAME TIMEOUT_S COMMAND...: poll COMMAND until it succeeds; on timeout show NAME's log and fail.
wait_until() {
  local name="$1" timeout="$2"; shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ! pid_of "$name" >/dev/null; then
      tail -n 40 "$RUN_DIR/$name.log" >&2 2>/dev/null
      die "$name exited during start-up (log: $RUN_DIR/$name.log)"
    fi
    if [ $SECONDS -ge $deadline ]; then
      tail -n 40 "$RUN_DIR/$name.log" >&2 2>/dev/null
      die "$name not ready after ${timeout}s (log: $RUN_DIR/$name.log)"
    fi
    sleep 0.5
  done
}

# mvn_quiet ARGS...: Maven, batch mode, output kept for when it fails.
mvn_quiet() {
  local out="$RUN_DIR/maven.log"
  if ! mvn -B "$@" >"$out" 2>&1; then
    grep -E "ERROR|FAIL" "$out" | head -30 >&2
    die "mvn $* failed (full output: $out)"
  fi
}
