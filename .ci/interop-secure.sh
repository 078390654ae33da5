#!/usr/bin/env bash
# Interop with OAuth: the official MCP TypeScript SDK client (interop/typescript/secure.mjs,
# @modelcontextprotocol/sdk pinned in interop/typescript/package.json, installed under
# .tools/interop-ts-secure) against the sample application started with the Spring profile
# "secure". The script finds the token endpoint from the 401's resource_metadata link, gets a
# token for client mcp-full (client_credentials), connects with it, subscribes to the restricted
# product catalog://products/4, changes it through the REST API and expects the notification;
# then checks that client mcp-limited is refused that subscription as "not found".
#
# Builds nothing: run `./mvnw verify` (or package) first so that the sample jar exists.
# Needs a JDK, npm and Node >= 18. The application's log and the check's output go to
# interop-secure-results/. Exits with the check's exit code (2 for a set-up failure); stops by
# itself within ~3 minutes. Environment: INTEROP_SECURE_PORT (default: a free port).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SRC="$ROOT/interop/typescript"
DIR="$ROOT/.tools/interop-ts-secure"
SDK="@modelcontextprotocol/sdk"
JAR="$ROOT/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
RESULTS="$ROOT/interop-secure-results"

log() { printf '[interop-secure] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }

[[ -f "$JAR" ]] || die "$JAR is missing: run ./mvnw verify (or package) first."
for tool in java node npm timeout; do
	command -v "$tool" >/dev/null || die "$tool is not on the PATH."
done

wanted="$(node -e 'console.log(require(process.argv[1]).dependencies[process.argv[2]] || "")' "$SRC/package.json" "$SDK")"
installed="$(node -e 'try { console.log(require(process.argv[1]).version) } catch (e) { console.log("") }' \
	"$DIR/node_modules/$SDK/package.json")"
if [[ "$installed" != "$wanted" ]] || ! cmp -s "$SRC/package.json" "$DIR/package.json"; then
	log "installing $SDK@$wanted into ${DIR#"$ROOT"/}"
	rm -rf "$DIR"
	mkdir -p "$DIR"
	cp "$SRC/package.json" "$SRC/package-lock.json" "$DIR/"
	timeout 150 npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error >&2 \
		|| die "could not install interop/typescript's dependencies with npm"
fi
cp "$SRC/secure.mjs" "$DIR/secure.mjs"

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

set +e
timeout 90 node "$DIR/secure.mjs" "$BASE" 2>"$RESULTS/interop.log" | tee "$RESULTS/interop.out"
status="${PIPESTATUS[0]}"
set -e
exit "$status"
