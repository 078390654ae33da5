#!/usr/bin/env bash
# Runs the multi-process cluster harness: sample-app nodes with the "cluster" profile on free
# loopback ports against the Redis at 127.0.0.1 (database 8 by default, emptied before and
# after), a load spread round-robin over them, and a kill -9 of the busiest node mid-run.
# Build both jars first: ./mvnw -q -DskipTests package -pl benchmarks,sample-app -am
# Usage: benchmarks/cluster.sh [ClusterHarness options]   (--help lists them)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
	echo "No $jar: build it with ./mvnw -q -DskipTests package -pl benchmarks,sample-app -am" >&2
	exit 2
fi
hard="$(ulimit -Hn)"
if [[ "$hard" != "unlimited" && "$(ulimit -Sn)" -lt "$hard" ]]; then
	ulimit -Sn "$hard"
fi
# The nodes are started from the sample's jar; --jar overrides this default.
cd "$here/.."
exec java -Xmx1g -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.ClusterHarness "$@"
