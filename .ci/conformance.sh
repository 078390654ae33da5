#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against
# the sample application started with the Spring profile "conformance", which serves the
# suite's test:// fixtures: version 0.1.16 for the 2025 era, and 0.2.0-alpha.12 with each of its
# frozen requirement sets (--requirements 2025-11-25 and --requirements 2026-07-28, which include
# the wire-schema-valid check of every message the server sends), each run with its own
# expected failures, one entry per check.
# Then, with the application still running, interop checks with the official MCP TypeScript
# SDK clients, each pinned in its package.json and package-lock.json and installed under .tools/:
# - 1.x (interop/typescript, @modelcontextprotocol/sdk, .tools/interop-ts), 2025 era: subscribes
#   to catalog://products and catalog://products/3, renames product 3 through the REST API and
#   expects one notifications/resources/updated per subscribedUri when it declares the
#   correlation capability, exactly one when it does not; then reads the product back. And the
#   tools (interop/typescript/tools.mjs): lists them, calls find_products, calls change_price
#   with a missing argument (a tool error) and then for product 2, and expects the
#   notifications/resources/updated for catalog://products/2 that the tool's change caused.
# - 2.x (interop/typescript-2x, @modelcontextprotocol/client, .tools/interop-ts2), in the 2025 era
#   (resources/subscribe) and the 2026-07-28 era (versionNegotiation pinned, subscriptions/listen),
#   each with and without the capability: three subscriptions covering product 3 give three
#   notifications, or exactly one.
# - Mastra (interop/mastra, @mastra/mcp 2.x with its @mastra/core, .tools/interop-mastra), which
#   probes with server/discover and receives resource updates on one subscriptions/listen stream:
#   list, read, prompts/get, a collection and a product subscribed, one notification per change;
#   then the TCP connections under it are cut and its reconnect behaviour is checked. Needs Node
#   >= 22.13 (the node@22 installed below is newer).
# Each check fails when a notification does not arrive within 15 s or arrives more or fewer times.
#
# Builds nothing: run `./mvnw verify` (or package) first so that the sample jar exists.
# Needs a JDK, npm, curl and a Node >= 22 (installed under .tools/ when the one on PATH is
# older). Results (one checks.json per scenario, the interop check's output) and the
# application's log go to conformance-results/. Prints one summary line per suite and one per
# interop check; exits non-zero when any of them fails (a suite's exit code first, else the
# first failing interop check's); stops by itself within ~5 minutes.
#
# Environment: CONFORMANCE_PORT (default: a free port), CONFORMANCE_SUITE_TIMEOUT (seconds,
# default 180).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE_VERSION="0.1.16"
SUITE_2026_VERSION="0.2.0-alpha.12"
# The requirement sets run with the 0.2 suite, each with its own expected failures.
REQUIREMENT_SETS=(2025-11-25 2026-07-28)
expected_for_requirements() { echo "$ROOT/.ci/conformance-requirements-$1-expected-failures.yml"; }
SUITE_2026_DIR="$ROOT/.tools/conformance-2026"
INTEROP_SRC="$ROOT/interop/typescript"
INTEROP_DIR="$ROOT/.tools/interop-ts"
INTEROP_SDK="@modelcontextprotocol/sdk"
INTEROP2_SRC="$ROOT/interop/typescript-2x"
INTEROP2_DIR="$ROOT/.tools/interop-ts2"
INTEROP2_SDK="@modelcontextprotocol/client"
INTEROP_MASTRA_SRC="$ROOT/interop/mastra"
INTEROP_MASTRA_DIR="$ROOT/.tools/interop-mastra"
INTEROP_MASTRA_SDK="@mastra/mcp"
NODE_MAJOR_WANTED=22
JAR="$ROOT/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
EXPECTED_FAILURES="$ROOT/.ci/conformance-expected-failures.yml"
RESULTS="$ROOT/conformance-results"
NODE_DIR="$ROOT/.tools/node22"
SUITE_DIR="$ROOT/.tools/conformance"
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

# --- the suites, pinned ---------------------------------------------------------------------
# install_suite VERSION DIR: installs the suite there unless that version is there; prints its entry point.
install_suite() {
	local version="$1" dir="$2"
	local pkg="$dir/node_modules/@modelcontextprotocol/conformance"
	local installed
	installed="$(node -e 'try { console.log(require(process.argv[1]).version) } catch (e) { console.log("") }' "$pkg/package.json")"
	if [[ "$installed" != "$version" ]]; then
		log "installing @modelcontextprotocol/conformance@$version into ${dir#"$ROOT"/}"
		timeout "$(budget 150)" npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
			"@modelcontextprotocol/conformance@$version" >&2 \
			|| die "could not install @modelcontextprotocol/conformance@$version with npm"
	fi
	node -e '
		const pkg = require(process.argv[1]);
		if (pkg.version !== process.argv[2]) { process.exit(1); }
		const bin = typeof pkg.bin === "string" ? pkg.bin : (pkg.bin.conformance || Object.values(pkg.bin)[0]);
		console.log(require("path").resolve(require("path").dirname(process.argv[1]), bin));' "$pkg/package.json" "$version" \
		|| die "the suite in $dir is not version $version"
}
SUITE_BIN="$(install_suite "$SUITE_VERSION" "$SUITE_DIR")"
SUITE_2026_BIN="$(install_suite "$SUITE_2026_VERSION" "$SUITE_2026_DIR")"
[[ -f "$SUITE_BIN" && -f "$SUITE_2026_BIN" ]] || die "a suite's entry point is missing"
for requirements in "${REQUIREMENT_SETS[@]}"; do
	[[ -f "$(expected_for_requirements "$requirements")" ]] || die "$(expected_for_requirements "$requirements") is missing."
done

# --- the interop checks' TypeScript SDKs, pinned in interop/typescript*/package.json ---------
# install_interop SRC DIR SDK: installs SRC's dependencies into DIR (package.json and
# package-lock.json copied there) unless DIR already has the same package.json and the pinned
# SDK version, then copies SRC's scripts there, so that Node resolves the SDK from DIR's
# node_modules. Prints the SDK's version.
install_interop() {
	local src="$1" dir="$2" sdk="$3" wanted installed
	[[ -f "$src/package.json" && -f "$src/package-lock.json" && -f "$src/subscribe.mjs" ]] || die "$src is incomplete."
	wanted="$(node -e 'console.log(require(process.argv[1]).dependencies[process.argv[2]] || "")' "$src/package.json" "$sdk")"
	[[ "$wanted" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] \
		|| die "$sdk must be pinned to an exact version in $src/package.json (found '$wanted')"
	installed="$(node -e 'try { console.log(require(process.argv[1]).version) } catch (e) { console.log("") }' \
		"$dir/node_modules/$sdk/package.json")"
	if [[ "$installed" != "$wanted" ]] || ! cmp -s "$src/package.json" "$dir/package.json"; then
		log "installing $sdk@$wanted (${src#"$ROOT"/}) into ${dir#"$ROOT"/}"
		rm -rf "$dir"
		mkdir -p "$dir"
		cp "$src/package.json" "$src/package-lock.json" "$dir/"
		timeout "$(budget 150)" npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >&2 \
			|| die "could not install ${src#"$ROOT"/}'s dependencies with npm"
		installed="$(node -e 'console.log(require(process.argv[1]).version)' "$dir/node_modules/$sdk/package.json")"
		[[ "$installed" == "$wanted" ]] || die "npm installed $sdk $installed into ${dir#"$ROOT"/}, not $wanted"
	fi
	cp "$src"/*.mjs "$dir/"
	echo "$wanted"
}
INTEROP_SDK_VERSION="$(install_interop "$INTEROP_SRC" "$INTEROP_DIR" "$INTEROP_SDK")"
INTEROP2_SDK_VERSION="$(install_interop "$INTEROP2_SRC" "$INTEROP2_DIR" "$INTEROP2_SDK")"
INTEROP_MASTRA_VERSION="$(install_interop "$INTEROP_MASTRA_SRC" "$INTEROP_MASTRA_DIR" "$INTEROP_MASTRA_SDK")"

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

# --- run the suites ------------------------------------------------------------------------
# run_suite LABEL VERSION BIN EXPECTED [ARGS...]: runs one suite, prints a one-line summary, returns its exit code.
run_suite() {
	local label="$1" version="$2" bin="$3" expected_file="$4"
	shift 4
	local out="$RESULTS/$label" started=$SECONDS rc
	mkdir -p "$out"
	set +e
	timeout --kill-after=10 "$(budget "$SUITE_TIMEOUT")" node "$bin" server \
		--url "http://localhost:$PORT/mcp" \
		--expected-failures "$expected_file" \
		-o "$out" "$@" 2>&1 | tee "$out/suite-output.txt"
	rc=${PIPESTATUS[0]}
	set -e
	# The suite prints one "✓/✗ <scenario>: ..." line per scenario, "Total: ..." counts checks.
	local passed failed expected checks verdict
	passed="$(grep -cE '^✓ ' "$out/suite-output.txt" || true)"
	failed="$(grep -cE '^✗ ' "$out/suite-output.txt" || true)"
	expected="$(grep -cE '^  ~ ' "$out/suite-output.txt" || true)"
	checks="$(grep -E '^Total:' "$out/suite-output.txt" | tail -n 1 | sed 's/^Total: //' || true)"
	case "$rc" in
		0) verdict="PASS (every failure is an expected one)" ;;
		124 | 137) verdict="TIMEOUT after $((SECONDS - started)) s" ;;
		*) verdict="FAIL (exit $rc: an unexpected failure or a stale expected-failures entry; see above and $out)" ;;
	esac
	SUMMARY+="conformance $version ($label): $verdict - scenarios: $passed passed, $failed failed (baseline: $expected expected failures, which also covers scenarios that pass with warnings); checks: ${checks:-none} ($((SECONDS - started)) s)"$'\n'
	return "$rc"
}

SUMMARY=""
rc=0
run_suite 2025 "$SUITE_VERSION" "$SUITE_BIN" "$EXPECTED_FAILURES" || rc=$?
# --- the conformance suite 0.2: one run per requirement set (--requirements replaces --suite and
# --spec-version: exactly the scenarios that revision requires, at its wire) ----------------
for requirements in "${REQUIREMENT_SETS[@]}"; do
	run_suite "requirements-$requirements" "$SUITE_2026_VERSION" "$SUITE_2026_BIN" \
		"$(expected_for_requirements "$requirements")" --requirements "$requirements" || rc=$?
done

# --- interop: the official TypeScript SDK clients -------------------------------------------
# run_interop LABEL DIR SCRIPT ARGS...: runs DIR/SCRIPT against the running application, adds its
# verdict to the summary, returns its exit code. The scripts end with one line
# "<name> interop ...: PASS (...)" or "<name> interop ...: FAIL: <reason>".
run_interop() {
	local label="$1" dir="$2" script="$3"
	shift 3
	local out="$RESULTS/$label" started=$SECONDS irc verdict
	mkdir -p "$out"
	log "interop check $label against http://localhost:$PORT"
	set +e
	timeout --kill-after=5 "$(budget 70)" node "$dir/$script" "http://localhost:$PORT" "$@" \
		2>&1 | tee "$out/output.txt"
	irc=${PIPESTATUS[0]}
	set -e
	verdict="$(grep -E '^(ts-sdk(-2)?|mastra) interop.*: (PASS|FAIL)' "$out/output.txt" | tail -n 1 || true)"
	case "$irc" in
		0) [[ "$verdict" == *PASS* ]] || verdict="$label: PASS (exit 0, no verdict line; see $out/output.txt)" ;;
		124 | 137) verdict="$label: TIMEOUT after $((SECONDS - started)) s" ;;
		*) [[ -n "$verdict" && "$verdict" != *PASS* ]] || verdict="$label: FAIL (exit $irc; see $out/output.txt)" ;;
	esac
	SUMMARY+="$verdict ($((SECONDS - started)) s)"$'\n'
	return "$irc"
}
# TypeScript SDK 1.x (2025 era only): with and without the correlation capability.
for mode in correlated merged; do
	run_interop "interop-ts-$mode" "$INTEROP_DIR" subscribe.mjs "$mode" || { irc=$?; ((rc != 0)) || rc=$irc; }
done
# TypeScript SDK 1.x: tools/list, tools/call, and the resource notification a tool call caused.
run_interop "interop-ts-tools" "$INTEROP_DIR" tools.mjs || { irc=$?; ((rc != 0)) || rc=$irc; }
# TypeScript SDK 2.x: initialize + resources/subscribe (2025), and versionNegotiation pinned to
# 2026-07-28 + subscriptions/listen (2026); each with and without the capability.
for era in 2025 2026; do
	for mode in merged correlated; do
		run_interop "interop-ts2-$era-$mode" "$INTEROP2_DIR" subscribe.mjs "$era" "$mode" \
			|| { irc=$?; ((rc != 0)) || rc=$irc; }
	done
done

# Mastra's MCP client (2026-07-28, subscriptions/listen): list, read, prompts/get, a collection
# and a product on one listen stream, exactly one notification per change; then the connections
# under it are cut and what it does is checked against docs/tested-clients.md.
# @mastra/core carries product telemetry; nothing here may leave the machine.
export MASTRA_TELEMETRY_DISABLED=1
run_interop "interop-mastra" "$INTEROP_MASTRA_DIR" subscribe.mjs || { irc=$?; ((rc != 0)) || rc=$irc; }

printf '%s' "$SUMMARY"
exit "$rc"
