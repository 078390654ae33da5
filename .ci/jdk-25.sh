#!/usr/bin/env bash
# Matrix leg: the library's own tests (mcp-subscriptions-autoconfigure, mcp-subscriptions-test)
# built and run on JDK 25, where delivery runs on virtual threads (docs/compatibility.md). The
# main build runs on the machine's default JDK (17). JDK_25_HOME names the JDK; else the
# first /usr/lib/jvm/*25* found.
set -euo pipefail
cd "$(dirname "$0")/.."
JDK="${JDK_25_HOME:-$(ls -d /usr/lib/jvm/*-25* /usr/lib/jvm/*25-jdk* 2>/dev/null | head -n 1)}"
if [ -z "$JDK" ] || [ ! -x "$JDK/bin/java" ]; then
	echo "jdk-25: no JDK 25 (set JDK_25_HOME)" >&2
	exit 1
fi
"$JDK/bin/java" -version 2>&1 | head -n 1
source .ci/copy-sources.sh
cd "$LEG_DIR"
# Maven 3.9's Guice calls sun.misc.Unsafe, which JDK 24+ warns about on every run: not ours.
if ! JAVA_HOME="$JDK" PATH="$JDK/bin:$PATH" MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ./mvnw -B -ntp \
	-pl mcp-subscriptions-autoconfigure,mcp-subscriptions-test -am verify \
	-Dmaven.javadoc.skip=true -Dmaven.source.skip=true; then
	show_failures
	exit 1
fi
