#!/usr/bin/env bash
# The many-streams benchmark (#49): one MCP server (the load harness's, on 127.0.0.1) holding
# N 2025-era sessions with GET streams and N 2026-era listen streams, the clients in two
# processes (one per era: the open-file limit is per process), then:
#   heap after full GC, server CPU while all streams idle for IDLE seconds, request latency
#   (ping, resources/read), one change every stream subscribes to (latency to every stream,
#   server CPU for it), and the ceiling (new streams until a 503, then a read on a new connection).
# Bounded and self-stopping: every process is ended by this script (by PID), the clients stop
# themselves after --max-seconds anyway.
# Build first (no install): ./mvnw -q -DskipTests -pl benchmarks -am package
# Usage: [SERVER=tomcat|jetty] [SERVER_OPTS="-D…"] benchmarks/streams.sh [PER_ERA (8000)] [HEAP (1g)] [IDLE seconds (60)]
# SERVER: the servlet container, tomcat (the default) or jetty (both are on the harness's class path).
# SERVER_OPTS: JVM options of the server, such as -Dharness.tomcat.connector.socket.appReadBufSize=2048
# (Tomcat) or -Dharness.jetty.http.headerCacheSize=0 (Jetty).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
per_era="${1:-8000}"
heap="${2:-1g}"
idle="${3:-60}"
container="${SERVER:-tomcat}"
[[ "$container" == "tomcat" || "$container" == "jetty" ]] || { echo "SERVER is tomcat or jetty, not $container" >&2; exit 2; }
[[ -f "$jar" ]] || { echo "No $jar: ./mvnw -q -DskipTests -pl benchmarks -am package" >&2; exit 2; }
hard="$(ulimit -Hn)"
[[ "$hard" == "unlimited" || "$(ulimit -Sn)" -ge "$hard" ]] || ulimit -Sn "$hard"
echo "ulimit -n $(ulimit -n), $container, per era $per_era, server -Xmx$heap, idle ${idle}s, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
# The ceiling: the container's max-connections just above the streams, less the reserve (200).
max_connections=$((2 * per_era + 300))
mkfifo "$work/server.in"
java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC ${SERVER_OPTS:-} -Dharness.server="$container" \
	-Dserver."$container".max-connections="$max_connections" -Dmcp.sessions.max=$((per_era + 1000)) \
	-cp "$jar" io.github.mcpsubscriptions.benchmarks.load.LoadHarness --serve mcp \
	< "$work/server.in" > "$work/server.out" 2>&1 &
server=$!
pids+=("$server")
exec 9> "$work/server.in"
for _ in $(seq 1 120); do grep -q 'LOAD-SERVER-READY' "$work/server.out" && break; sleep 1; done
port="$(sed -n 's/.*LOAD-SERVER-READY port=//p' "$work/server.out")"
[[ -n "$port" ]] || { cat "$work/server.out"; exit 1; }
echo "server pid $server port $port (max-connections $max_connections, reserve 200)"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
tck="$(getconf CLK_TCK)"
heap_now() { curl -s "http://127.0.0.1:$port/harness/heap"; }
base_heap="$(heap_now)"
echo "heap after GC, no streams: $base_heap"
client() {
	java -Xmx768m -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.StreamsClient --port "$port" --dir "$work" \
		--era "$1" --streams "$per_era" --max-seconds 900 2>&1 | sed "s/^/[client $1] /" &
	pids+=("$!")
}
started=$(date +%s)
client 2025
client 2026
for _ in $(seq 1 600); do [[ -f "$work/2025.ready" && -f "$work/2026.ready" ]] && break; sleep 1; done
echo "open in $(( $(date +%s) - started )) s: 2025 $(cat "$work/2025.ready" 2>/dev/null) 2026 $(cat "$work/2026.ready" 2>/dev/null)"
echo "server fds: $(ls "/proc/$server/fd" | wc -l)"
echo "heap after GC, streams open: $(heap_now)"
sleep 5
c0="$(cpu "$server")"; t0="$(date +%s.%N)"
sleep "$idle"
c1="$(cpu "$server")"; t1="$(date +%s.%N)"
awk -v c="$((c1 - c0))" -v k="$tck" -v a="$t0" -v b="$t1" 'BEGIN { printf "server CPU while idle: %.2f %% of one core over %.0f s\n", 100 * c / k / (b - a), b - a }'
java -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.StreamsClient --port "$port" --dir "$work" --probe true --requests 500 2>&1 | sed 's/^/[probe] /'
c2="$(cpu "$server")"
sleep 10
c3="$(cpu "$server")"
awk -v c="$((c3 - c2))" -v k="$tck" -v n="$((2 * per_era))" 'BEGIN { printf "server CPU in the 10 s after the change: %.0f ms (%.1f us per notification, idle included)\n", 1000 * c / k, 1e6 * c / k / n }'
java -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.StreamsClient --port "$port" --dir "$work" --ceiling true --max-extra 400 2>&1 | sed 's/^/[ceiling] /'
touch "$work/stop"
for _ in $(seq 1 60); do [[ -f "$work/2025.result" && -f "$work/2026.result" ]] && break; sleep 1; done
cat "$work/2025.result" "$work/2026.result" 2>/dev/null || true
grep -i 'OutOfMemory' "$work/server.out" && echo "SERVER RAN OUT OF MEMORY" || echo "no OutOfMemoryError in the server's output"
exec 9>&-
wait "$server" 2>/dev/null || true
rm -rf "$work"
