#!/usr/bin/env bash
# Matrix leg: the library (mcp-subscriptions-autoconfigure, mcp-subscriptions-test) built on
# JDK 25, and the tests of what runs differently there: delivery may run on virtual threads
# (spring.threads.virtual.enabled), so the delivery path's packages (and the stress tests), the
# endpoint, the test support and the tests that turn virtual threads on (docs/compatibility.md). The integrations' tests (cluster, capture, JPA, security) run on
# JDK 17 in the main build and in the Boot 4.0 leg: CI stays under 30 minutes. The main build
# runs every test on the machine's default JDK (17). JDK_25_HOME names the JDK; else the
# first /usr/lib/jvm/*25* found.
set -euo pipefail
cd "$(dirname "$0")/.."
JDK="${JDK_25_HOME:-$(ls -d /usr/lib/jvm/*-25* /usr/lib/jvm/*25-jdk* 2>/dev/null | head -n 1)}"
if [ -z "$JDK" ] || [ ! -x "$JDK/bin/java" ]; then
	echo "jdk-25: no JDK 25 (set JDK_25_HOME)" >&2
	exit 1
fi
"$JDK/bin/java" -version 2>&1 | head -n 1
JDK_25_TESTS="${JDK_25_TESTS:-$(printf 'io.github.mcpsubscriptions.%s.**.*Tests,' notification transport session server \
	stress subscription resource tool prompt jsonrpc tester)io.github.mcpsubscriptions.autoconfigure.VirtualThreadsTests,\
io.github.mcpsubscriptions.autoconfigure.ThreadsStopOnCloseTests}"
source .ci/copy-sources.sh
cd "$LEG_DIR"
# Maven 3.9's Guice calls sun.misc.Unsafe, which JDK 24+ warns about on every run: not ours.
if ! JAVA_HOME="$JDK" PATH="$JDK/bin:$PATH" MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ./mvnw -B -ntp \
	-pl mcp-subscriptions-autoconfigure,mcp-subscriptions-test -am verify \
	-Dtest="$JDK_25_TESTS" -Dsurefire.failIfNoSpecifiedTests=false \
	-Dmaven.javadoc.skip=true -Dmaven.source.skip=true; then
	show_failures
	exit 1
fi
