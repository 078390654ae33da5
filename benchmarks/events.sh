#!/usr/bin/env bash
# Runs the events harness (#50): the sample's jar in profile "secure" on a free loopback port, its
# catalog.product.changed delivered by webhook (an HTTPS receiver on loopback) and by push
# (events/stream), against the resource notifications of the same changes.
# Build both jars first: ./mvnw -q -DskipTests package -pl benchmarks,sample-app -am
# Usage: benchmarks/events.sh [EventsHarness options]   (--help lists them)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
	echo "No $jar: build it with ./mvnw -q -DskipTests package -pl benchmarks,sample-app -am" >&2
	exit 2
fi
# The sample is started from its jar; --jar overrides this default.
cd "$here/.."
exec java -Xmx1g -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.EventsHarness "$@"
