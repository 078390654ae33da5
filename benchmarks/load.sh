#!/usr/bin/env bash
# Runs the end-to-end load harness from the shaded jar, with the soft limit on open files
# raised to the hard limit first: every SSE subscriber is one socket in the harness's JVM
# and one in the server's (a forked JVM by default, which inherits the limit).
# Build the jar first: ./mvnw -q -DskipTests install -pl benchmarks -am
# Usage: benchmarks/load.sh [LoadHarness options]   (--help lists them)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
	echo "No $jar: build it with ./mvnw -q -DskipTests install -pl benchmarks -am" >&2
	exit 2
fi
hard="$(ulimit -Hn)"
if [[ "$hard" != "unlimited" && "$(ulimit -Sn)" -lt "$hard" ]]; then
	ulimit -Sn "$hard"
fi
exec java -Xmx2g -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.LoadHarness "$@"
