#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against
# the sample application started with the Spring profile "conformance", which serves the
# suite's test:// fixtures.
#
# Builds nothing: run `./mvnw verify` (or package) first so that the sample jar exists.
# Needs a JDK, npm, curl and a Node >= 22 (installed under .tools/ when the one on PATH is
# older). Results (one checks.json per scenario) and the application's log go to
# conformance-results/. Exits with the suite's exit code; stops by itself within ~5 minutes.
#
# Environment: CONFORMANCE_PORT (default: a free port), CONFORMANCE_SUITE_TIMEOUT (seconds,
# default 180).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE_VERSION="0.1.16"
NODE_MAJOR_WANTED=22
JAR="$ROOT/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
EXPECTED_FAILURES="$ROOT/.ci/conformance-expected-failures.yml"
RESULTS="$ROOT/conformance-results"
NODE_DIR="$ROOT/.tools/node22"
SUITE_DIR="$ROOT/.tools/conformance"
SUITE_PKG="$SUITE_DIR/node_modules/@modelcontextprotocol/conformance"
SUITE_TIMEOUT="${CONFORMANCE_SUITE_TIMEOUT:-180}"
DEADLINE=$((SECONDS + 300))

log() { printf '[conformance] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }

# Seconds left before the overall deadline, capped at $1.
budget() {
	local left=$((DEADLINE - SECONDS))
	((left < 1)) && left=1
	((left < $1)) && echo "$left" || echo "$1"
}

node_major() { "$1" -e 'console.log(parseInt(process.versions.node, 10))' 2>/dev/null || echo 0; }

# --- preconditions --------------------------------------------------------------------------
[[ -f "$JAR" ]] || die "$JAR is missing: build it first, e.g. './mvnw verify' (or './mvnw -pl sample-app -am package -DskipTests')."
[[ -f "$EXPECTED_FAILURES" ]] || die "$EXPECTED_FAILURES is missing."
for tool in npm curl timeout; do
	command -v "$tool" >/dev/null || die "'$tool' is not on PATH."
done
JAVA="java"
[[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && JAVA="$JAVA_HOME/bin/java"
command -v "$JAVA" >/dev/null || die "no Java found (set JAVA_HOME or put java on PATH)."

# --- Node >= 22 -----------------------------------------------------------------------------
if command -v node >/dev/null && (($(node_major node) >= NODE_MAJOR_WANTED)); then
	log "using node $(node --version) from PATH"
else
	if (($(node_major "$NODE_DIR/node_modules/.bin/node") < NODE_MAJOR_WANTED)); then
		log "node on PATH is $(node --version 2>/dev/null || echo absent); installing node@$NODE_MAJOR_WANTED into .tools/node22"
		timeout "$(budget 150)" npm install --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=error \
			"node@$NODE_MAJOR_WANTED" >&2 || die "could not install node@$NODE_MAJOR_WANTED with npm"
	fi
	export PATH="$NODE_DIR/node_modules/.bin:$PATH"
	(($(node_major node) >= NODE_MAJOR_WANTED)) || die "node in $NODE_DIR is not >= $NODE_MAJOR_WANTED"
	log "using node $(node --version) from .tools/node22"
fi

# --- the suite, pinned ----------------------------------------------------------------------
installed_version() {
	node -e 'try { console.log(require(process.argv[1]).version) } catch (e) { console.log("") }' \
		"$SUITE_PKG/package.json"
}
if [[ "$(installed_version)" != "$SUITE_VERSION" ]]; then
	log "installing @modelcontextprotocol/conformance@$SUITE_VERSION into .tools/conformance"
	timeout "$(budget 150)" npm install --prefix "$SUITE_DIR" --no-audit --no-fund --loglevel=error \
		"@modelcontextprotocol/conformance@$SUITE_VERSION" >&2 \
		|| die "could not install @modelcontextprotocol/conformance@$SUITE_VERSION with npm"
	[[ "$(installed_version)" == "$SUITE_VERSION" ]] || die "the suite in $SUITE_DIR is not version $SUITE_VERSION"
fi
SUITE_BIN="$(node -e '
	const pkg = require(process.argv[1]);
	const bin = typeof pkg.bin === "string" ? pkg.bin : (pkg.bin.conformance || Object.values(pkg.bin)[0]);
	console.log(require("path").resolve(require("path").dirname(process.argv[1]), bin));' "$SUITE_PKG/package.json")"
[[ -f "$SUITE_BIN" ]] || die "the suite's entry point $SUITE_BIN does not exist"

# --- start the sample application -----------------------------------------------------------
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [[ -n "${CONFORMANCE_PORT:-}" ]]; then
	PORT="$CONFORMANCE_PORT"
elif command -v python3 >/dev/null; then
	PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
else
	PORT=18080
fi
port_taken "$PORT" && die "port $PORT is taken: stop what listens there or set CONFORMANCE_PORT."

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
APP_LOG="$RESULTS/sample-app.log"
SUITE_LOG="$RESULTS/suite-output.txt"
APP_PID=""

stop_app() {
	local rc=$?
	if [[ -n "$APP_PID" ]] && kill -0 "$APP_PID" 2>/dev/null; then
		log "stopping the sample application (pid $APP_PID)"
		kill -TERM "$APP_PID" 2>/dev/null || true
		for _ in $(seq 1 30); do
			kill -0 "$APP_PID" 2>/dev/null || break
			sleep 0.5
		done
		if kill -0 "$APP_PID" 2>/dev/null; then
			log "the sample application did not stop within 15 s: killing it"
			kill -KILL "$APP_PID" 2>/dev/null || true
		fi
		wait "$APP_PID" 2>/dev/null || true
	fi
	exit "$rc"
}
trap stop_app EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log "starting the sample application on port $PORT (log: ${APP_LOG#"$ROOT"/})"
"$JAVA" -jar "$JAR" --spring.profiles.active=conformance --server.port="$PORT" >"$APP_LOG" 2>&1 &
APP_PID=$!

up=false
wait_until=$((SECONDS + $(budget 60)))
while ((SECONDS < wait_until)); do
	if ! kill -0 "$APP_PID" 2>/dev/null; then
		tail -n 40 "$APP_LOG" >&2 || true
		APP_PID=""
		die "the sample application exited during start-up (see $APP_LOG)"
	fi
	if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/api/products"; then
		up=true
		break
	fi
	sleep 1
done
if ! $up; then
	tail -n 40 "$APP_LOG" >&2 || true
	die "the sample application did not answer on port $PORT within 60 s (see $APP_LOG)"
fi
log "the sample application is up"

# --- run the suite --------------------------------------------------------------------------
started=$SECONDS
set +e
timeout --kill-after=10 "$(budget "$SUITE_TIMEOUT")" node "$SUITE_BIN" server \
	--url "http://localhost:$PORT/mcp" \
	--expected-failures "$EXPECTED_FAILURES" \
	-o "$RESULTS" 2>&1 | tee "$SUITE_LOG"
rc=${PIPESTATUS[0]}
set -e

# --- summary --------------------------------------------------------------------------------
# The suite prints one "✓/✗ <scenario>: ..." line per scenario, "Total: ..." counts checks.
passed="$(grep -cE '^✓ ' "$SUITE_LOG" || true)"
failed="$(grep -cE '^✗ ' "$SUITE_LOG" || true)"
expected="$(grep -cE '^  ~ ' "$SUITE_LOG" || true)"
checks="$(grep -E '^Total:' "$SUITE_LOG" | tail -n 1 | sed 's/^Total: //' || true)"
case "$rc" in
	0) verdict="PASS (every failure is an expected one)" ;;
	124 | 137) verdict="TIMEOUT after $((SECONDS - started)) s" ;;
	*) verdict="FAIL (exit $rc: an unexpected failure or a stale expected-failures entry; see above and $RESULTS)" ;;
esac
echo "conformance $SUITE_VERSION: $verdict - scenarios: $passed passed, $failed failed ($expected of them expected); checks: ${checks:-none}; results in ${RESULTS#"$ROOT"/}/ ($((SECONDS - started)) s)"
exit "$rc"
