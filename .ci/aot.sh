#!/usr/bin/env bash
# Spring AOT check (#17): builds the sample app with AOT processing (Spring Boot's `native` profile
# runs spring-boot:process-aot; no GraalVM needed), starts the jar with -Dspring.aot.enabled=true
# on a free loopback port, and proves it serves MCP: initialize, resources/list and a resources/read
# of an @McpResource method (invoked reflectively, so the hints must be right); and that the Spring
# AI example's annotated methods are in its AOT-generated reflection metadata. Stops by itself.
# Rebuilds sample-app/target: run it after the scripts that use the plain jar.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT="$ROOT/target/aot"
mkdir -p "$OUT"
die() { echo "aot: $*" >&2; exit 1; }

./mvnw -B -ntp -q -Pnative -pl sample-app,examples/spring-ai-server -am package -DskipTests
JAR="$ROOT/sample-app/target/sample-app-0.1.0-SNAPSHOT.jar"
unzip -l "$JAR" >"$OUT/jar-listing.txt"
grep -q 'SampleApplication__BeanFactoryRegistrations' "$OUT/jar-listing.txt" || die "the jar holds no AOT-generated classes"
# The starter's hints reached the generated native-image metadata: the sample's @McpResource methods.
python3 - "$ROOT/sample-app/target/classes/META-INF/native-image/io.github.mcpsubscriptions/sample-app/reachability-metadata.json" <<'PY' || die "the AOT metadata lacks the starter's hints"
import json, sys
entries = json.load(open(sys.argv[1])).get("reflection", [])
methods = {m["name"] for e in entries if e.get("type") == "io.github.mcpsubscriptions.sample.catalog.CatalogResources" for m in e.get("methods", [])}
assert {"product", "products"} <= methods, methods
assert any(e.get("type") == "io.github.mcpsubscriptions.jsonrpc.JsonRpcResponse" for e in entries)
PY
# And Spring AI's: the @McpTool, @McpResource, @McpPrompt and @McpComplete methods of the Spring AI
# example (examples/spring-ai-server), which Spring AI's callbacks invoke reflectively.
python3 - "$ROOT/examples/spring-ai-server/target/classes/META-INF/native-image/com.example/spring-ai-server/reachability-metadata.json" <<'PY' || die "the Spring AI example's AOT metadata lacks its annotated methods"
import json, sys
entries = json.load(open(sys.argv[1])).get("reflection", [])
methods = {m["name"] for e in entries if e.get("type") == "com.example.weather.WeatherServer" for m in e.get("methods", [])}
assert {"setForecast", "cities", "forecast", "packing", "completeCity"} <= methods, methods
PY

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
mkdir -p "$OUT/data"
java -Dspring.aot.enabled=true -jar "$JAR" --server.port="$port" --sample.files.root="$OUT/data" >"$OUT/sample-app.log" 2>&1 &
APP_PID=$!
trap 'kill "$APP_PID" 2>/dev/null || true; wait "$APP_PID" 2>/dev/null || true' EXIT
BASE="http://127.0.0.1:$port"
until=$((SECONDS + 90))
while [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$BASE/actuator/health/readiness" || true)" != "200" ]]; do
	kill -0 "$APP_PID" 2>/dev/null || { tail -n 40 "$OUT/sample-app.log" >&2; die "the sample app exited"; }
	((SECONDS < until)) || die "the sample app did not become ready (see $OUT/sample-app.log)"
	sleep 0.5
done

post() { # post BODY [SESSION]
	curl -s --max-time 10 -D "$OUT/headers" -H 'Content-Type: application/json' \
		-H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2025-11-25' \
		${2:+-H "Mcp-Session-Id: $2"} --data "$1" "$BASE/mcp"
}
init=$(post '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"aot-check","version":"1"}}}')
echo "$init" | grep -q '"serverInfo"' || die "initialize failed: $init"
session=$(grep -i '^mcp-session-id:' "$OUT/headers" | tr -d '\r' | awk '{print $2}')
[[ -n "$session" ]] || die "no Mcp-Session-Id"
post '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$session" >/dev/null
list=$(post '{"jsonrpc":"2.0","id":2,"method":"resources/list"}' "$session")
echo "$list" | grep -q 'catalog://products' || die "resources/list did not list catalog://products: $list"
read=$(post '{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"catalog://products"}}' "$session")
echo "$read" | grep -q '"contents"' || die "resources/read failed: $read"
echo "$read" | grep -q '"error"' && die "resources/read answered an error: $read"
echo "aot: the AOT-processed sample app serves MCP on $BASE (initialize, resources/list, resources/read)"
