#!/usr/bin/env bash
# Runs the PostgreSQL capture harness (#27): the sample's jar in profile "postgres" on a free
# loopback port, on a schema of its own in the PostgreSQL at 127.0.0.1:5432 (database test, user
# postgres), then commit-to-notification latency, a burst, and the capture's cost to a writer.
# Build both jars first: ./mvnw -q -DskipTests package -pl benchmarks,sample-app -am
# Usage: benchmarks/capture.sh [CaptureHarness options]   (--help lists them)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
	echo "No $jar: build it with ./mvnw -q -DskipTests package -pl benchmarks,sample-app -am" >&2
	exit 2
fi
# The sample is started from its jar; --jar overrides this default.
cd "$here/.."
exec java -Xmx1g -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.CaptureHarness "$@"
