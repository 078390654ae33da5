#!/usr/bin/env bash
# Matrix leg: the library (mcp-subscriptions-autoconfigure, -starter, -test) built and tested
# against Spring Boot 4.0.x as well as the 4.1.x the root pom names (docs/compatibility.md), with
# the tests of what Boot's version changes: the auto-configurations, the integrations (Spring
# Security, Spring Data Redis, JDBC, Hibernate, Spring AI), metrics and the test support. The
# cluster's fault and topology suites (Redis killed, paused, failed over: the same with either
# Boot) and the delivery path's tests run in the main build only, so that CI stays under 30 minutes.
# The root pom's parent is spring-boot-starter-parent, whose managed versions a profile or an
# imported BOM cannot override: the leg builds a copy of the sources whose root pom names
# the 4.0 parent instead, and changes nothing else. BOOT_40_VERSION names the patch.
set -euo pipefail
cd "$(dirname "$0")/.."
BOOT="${BOOT_40_VERSION:-4.0.9}"
BOOT_40_TESTS="${BOOT_40_TESTS:-$(printf 'io.github.mcpsubscriptions.%s.**.*Tests,' autoconfigure security capture jpa springai \
	metrics aot tester)io.github.mcpsubscriptions.cluster.Cluster*Tests,io.github.mcpsubscriptions.cluster.Redis*Tests,!ClusterFaultSuiteTests,!ClusterRedisDownTests,!ClusterReaderFaultTests,!RedisTopologyTests,!ClusterLifecycleTests}"
source .ci/copy-sources.sh
cd "$LEG_DIR"
# Only the <parent> block's version: the project's own version stays.
sed -i "/<parent>/,/<\/parent>/ s#<version>[^<]*</version>#<version>$BOOT</version>#" pom.xml
grep -A4 '<parent>' pom.xml | grep -q "<version>$BOOT</version>" || { echo "boot-4.0: could not set the parent to $BOOT" >&2; exit 1; }
echo "Spring Boot $BOOT"
if ! ./mvnw -B -ntp -pl mcp-subscriptions-autoconfigure,mcp-subscriptions-starter,mcp-subscriptions-test -am verify \
	-Dtest="$BOOT_40_TESTS" -Dsurefire.failIfNoSpecifiedTests=false \
	-Dmaven.javadoc.skip=true -Dmaven.source.skip=true; then
	show_failures
	exit 1
fi
