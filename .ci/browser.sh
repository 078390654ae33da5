#!/usr/bin/env bash
# The sample application's live page (/) in a real browser: Debian's chromium (installed with
# apt-get when /usr/bin/chromium is missing), headless, driven by playwright-core (pinned in
# .ci/browser/package.json, installed under .tools/browser; it never downloads a browser).
# Starts the sample jar on a free loopback port with its own watched directory, runs
# .ci/browser/live-page.mjs against it (both protocol eras: subscribe, change a price in the
# page, change a product with curl, a file pattern, the counters) and stops that process; then
# the same with profile "secure" and .ci/browser/secure-page.mjs (the page asks for a token,
# and works with one).
#
# Builds nothing: run `./mvnw verify` (or package) first so that the sample jar exists.
# Needs a JDK, npm, curl and Node >= 20 (node@22 is installed under .tools/ when older); root
# (or sudo) only when chromium must be installed.
# Screenshots, the check's output and the application's log go to browser-results/ (git-ignored).
# Exits non-zero when a check fails (2 for a set-up failure); stops by itself within ~3 minutes.
# Environment: BROWSER_PORT (default: a free port), BROWSER_LATENCY_LIMIT_MS (default 2000: how
# long a change may take to show in the page; each measured time is printed).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SRC="$ROOT/.ci/browser"
DIR="$ROOT/.tools/browser"
JAR="$ROOT/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
RESULTS="$ROOT/browser-results"
CHROMIUM=/usr/bin/chromium
DEADLINE=$((SECONDS + 170))

log() { printf '[browser] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }
budget() {
	local left=$((DEADLINE - SECONDS))
	((left < 1)) && left=1
	((left < $1)) && echo "$left" || echo "$1"
}

[[ -f "$JAR" ]] || die "$JAR is missing: run ./mvnw verify (or package) first."
for tool in java node npm curl timeout python3; do
	command -v "$tool" >/dev/null || die "$tool is not on the PATH."
done
# playwright-core needs Node >= 20: the one on PATH, else node@22 under .tools/node22 (as
# .ci/conformance.sh installs it).
node_major() { "$1" -e 'console.log(parseInt(process.versions.node, 10))' 2>/dev/null || echo 0; }
if (($(node_major node) < 20)); then
	NODE_DIR="$ROOT/.tools/node22"
	if (($(node_major "$NODE_DIR/node_modules/.bin/node") < 20)); then
		log "node on PATH is $(node --version); installing node@22 into .tools/node22"
		timeout "$(budget 150)" npm install --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=error node@22 >&2 \
			|| die "could not install node@22 with npm"
	fi
	export PATH="$NODE_DIR/node_modules/.bin:$PATH"
fi

# --- Debian's chromium ------------------------------------------------------------------------
if [[ ! -x "$CHROMIUM" ]]; then
	SUDO=""
	((EUID == 0)) || SUDO="sudo"
	log "installing Debian's chromium"
	export DEBIAN_FRONTEND=noninteractive
	timeout "$(budget 120)" $SUDO apt-get install -y -q chromium >&2 \
		|| { timeout "$(budget 60)" $SUDO apt-get update -q >&2 && timeout "$(budget 120)" $SUDO apt-get install -y -q chromium >&2; } \
		|| die "could not install chromium with apt-get"
fi
[[ -x "$CHROMIUM" ]] || die "$CHROMIUM is missing after the install."
log "$("$CHROMIUM" --version 2>/dev/null || echo chromium)"

# --- playwright-core, pinned --------------------------------------------------------------------
wanted="$(node -e 'console.log(require(process.argv[1]).dependencies["playwright-core"] || "")' "$SRC/package.json")"
[[ "$wanted" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "playwright-core must be pinned to an exact version in $SRC/package.json"
installed="$(node -e 'try { console.log(require(process.argv[1]).version) } catch (e) { console.log("") }' \
	"$DIR/node_modules/playwright-core/package.json")"
if [[ "$installed" != "$wanted" ]] || ! cmp -s "$SRC/package.json" "$DIR/package.json"; then
	log "installing playwright-core@$wanted into ${DIR#"$ROOT"/}"
	rm -rf "$DIR"
	mkdir -p "$DIR"
	cp "$SRC/package.json" "$SRC/package-lock.json" "$DIR/"
	# PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: playwright-core downloads nothing, and must not try.
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout "$(budget 90)" npm ci --prefix "$DIR" --no-audit --no-fund --loglevel=error >&2 \
		|| die "could not install playwright-core with npm"
fi
cp "$SRC/live-page.mjs" "$SRC/secure-page.mjs" "$DIR/"

# --- the sample application, once per profile ---------------------------------------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
JAVA="java"
[[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && JAVA="$JAVA_HOME/bin/java"
APP_PID=""
stop_app() {
	if [[ -n "$APP_PID" ]] && kill -0 "$APP_PID" 2>/dev/null; then
		kill -TERM "$APP_PID" 2>/dev/null || true
		for _ in $(seq 1 30); do
			kill -0 "$APP_PID" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL "$APP_PID" 2>/dev/null || true
	fi
	[[ -n "$APP_PID" ]] && wait "$APP_PID" 2>/dev/null || true
	APP_PID=""
}
trap stop_app EXIT

# start_app NAME [ARGS...]: starts the jar on a free loopback port with its own watched directory
# ($RESULTS/NAME-data) and waits until it is ready; sets BASE.
start_app() {
	local name="$1" port
	shift
	port="${BROWSER_PORT:-$(free_port)}"
	mkdir -p "$RESULTS/$name-data"
	"$JAVA" -jar "$JAR" --server.port="$port" --sample.files.root="$RESULTS/$name-data" "$@" \
		>"$RESULTS/$name-sample-app.log" 2>&1 &
	APP_PID=$!
	BASE="http://127.0.0.1:$port"
	local until=$((SECONDS + $(budget 60)))
	while ((SECONDS < until)); do
		kill -0 "$APP_PID" 2>/dev/null || { tail -n 40 "$RESULTS/$name-sample-app.log" >&2; APP_PID=""; die "the sample application ($name) exited; see $RESULTS/$name-sample-app.log"; }
		if [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$BASE/actuator/health/readiness" || true)" == "200" ]]; then
			log "the sample application ($name) is ready on $BASE (pid $APP_PID)"
			return
		fi
		sleep 0.5
	done
	die "the sample application ($name) did not become ready on $BASE (see $RESULTS/$name-sample-app.log)"
}

# run_check NAME SCRIPT [ARGS...]: runs a check, keeps its output; returns its exit code.
run_check() {
	local name="$1" script="$2" rc
	shift 2
	set +e
	CHROMIUM="$CHROMIUM" timeout --kill-after=5 "$(budget 90)" node "$DIR/$script" "$@" 2>&1 | tee "$RESULTS/$name-output.txt"
	rc="${PIPESTATUS[0]}"
	set -e
	((rc == 124 || rc == 137)) && log "the $name check timed out"
	return "$rc"
}

status=0
start_app default
run_check default live-page.mjs "$BASE" "$RESULTS/default-data" "$RESULTS" || status=$?
stop_app
start_app secure --spring.profiles.active=secure
run_check secure secure-page.mjs "$BASE" "$RESULTS" || { rc=$?; ((status != 0)) || status=$rc; }
stop_app
exit "$status"
