#!/usr/bin/env bash
# Interop with OAuth: the official MCP TypeScript SDK clients against the sample application
# started with the Spring profile "secure".
# - 1.x (interop/typescript/secure.mjs, @modelcontextprotocol/sdk, .tools/interop-ts-secure): the
#   script finds the token endpoint from the 401's resource_metadata link, gets a token for client
#   mcp-full (client_credentials), connects with it, subscribes to the restricted product
#   catalog://products/4, changes it through the REST API and expects the notification; then
#   checks that client mcp-limited is refused that subscription as "not found".
# - 2.x (interop/typescript-2x/secure.mjs, @modelcontextprotocol/client, .tools/interop-ts2-secure):
#   the SDK's own OAuth support, given client credentials and no scope: it must find the scopes by
#   the specification's scope selection from what the 401 and the metadata say, ask for exactly
#   the 401's scope and reach the endpoint (mcp-limited in the 2025 era, mcp-full in the 2026 era).
#
# Builds nothing: run `./mvnw verify` (or package) first so that the sample jar exists.
# Needs a JDK, npm and Node >= 20. The application's log and the check's output go to
# interop-secure-results/. Exits 0 when both checks pass, 1 when one fails, 2 for a set-up
# failure; stops by itself within ~4 minutes. Environment: INTEROP_SECURE_PORT (default: a free port).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="$ROOT/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
RESULTS="$ROOT/interop-secure-results"

log() { printf '[interop-secure] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }

[[ -f "$JAR" ]] || die "$JAR is missing: run ./mvnw verify (or package) first."
for tool in java node npm timeout; do
	command -v "$tool" >/dev/null || die "$tool is not on the PATH."
done

# install <source directory> <package> <install directory>: the pinned client, reinstalled only
# when package.json changed, and the check script next to it.
install() {
	local src="$1" sdk="$2" dir="$3" wanted installed
	wanted="$(node -e 'console.log(require(process.argv[1]).dependencies[process.argv[2]] || "")' "$src/package.json" "$sdk")"
	installed="$(node -e 'try { console.log(require(process.argv[1]).version) } catch (e) { console.log("") }' \
		"$dir/node_modules/$sdk/package.json")"
	if [[ "$installed" != "$wanted" ]] || ! cmp -s "$src/package.json" "$dir/package.json"; then
		log "installing $sdk@$wanted into ${dir#"$ROOT"/}"
		rm -rf "$dir"
		mkdir -p "$dir"
		cp "$src/package.json" "$src/package-lock.json" "$dir/"
		timeout 150 npm install --prefix "$dir" --no-audit --no-fund --loglevel=error >&2 \
			|| die "could not install ${src#"$ROOT"/}'s dependencies with npm"
	fi
	cp "$src/secure.mjs" "$dir/secure.mjs"
}
DIR1="$ROOT/.tools/interop-ts-secure"
DIR2="$ROOT/.tools/interop-ts2-secure"
install "$ROOT/interop/typescript" "@modelcontextprotocol/sdk" "$DIR1"
install "$ROOT/interop/typescript-2x" "@modelcontextprotocol/client" "$DIR2"

if [[ -n "${INTEROP_SECURE_PORT:-}" ]]; then
	PORT="$INTEROP_SECURE_PORT"
else
	PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
fi
rm -rf "$RESULTS"
mkdir -p "$RESULTS/data"
java -jar "$JAR" --spring.profiles.active=secure --server.port="$PORT" --sample.files.root="$RESULTS/data" \
	>"$RESULTS/sample-app.log" 2>&1 &
APP_PID=$!
trap 'kill "$APP_PID" 2>/dev/null || true; wait "$APP_PID" 2>/dev/null || true' EXIT

BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 120); do
	kill -0 "$APP_PID" 2>/dev/null || die "the sample application exited; see $RESULTS/sample-app.log"
	code="$(curl -s -o /dev/null -w '%{http_code}' "$BASE/.well-known/oauth-protected-resource/mcp" || true)"
	[[ "$code" == "200" ]] && break
	sleep 0.5
done
[[ "$code" == "200" ]] || die "the sample application did not come up on $BASE"

# run <name> <install directory>: one check, its output in $RESULTS/<name>.out and .log.
run() {
	local status
	set +e
	timeout 90 node "$2/secure.mjs" "$BASE" 2>"$RESULTS/$1.log" | tee "$RESULTS/$1.out"
	status="${PIPESTATUS[0]}"
	set -e
	return "$status"
}
rc=0
run interop "$DIR1" || rc=1
run interop-ts2 "$DIR2" || rc=1
exit "$rc"
