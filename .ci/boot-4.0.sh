#!/usr/bin/env bash
# Matrix leg: the library (mcp-subscriptions-autoconfigure, -starter, -test) built and tested
# against Spring Boot 4.0.x as well as the 4.1.x the root pom names (docs/compatibility.md).
# The root pom's parent is spring-boot-starter-parent, whose managed versions a profile or an
# imported BOM cannot override: the leg builds a copy of the sources whose root pom names
# the 4.0 parent instead, and changes nothing else. BOOT_40_VERSION names the patch.
set -euo pipefail
cd "$(dirname "$0")/.."
BOOT="${BOOT_40_VERSION:-4.0.9}"
source .ci/copy-sources.sh
cd "$LEG_DIR"
# Only the <parent> block's version: the project's own version stays.
sed -i "/<parent>/,/<\/parent>/ s#<version>[^<]*</version>#<version>$BOOT</version>#" pom.xml
grep -A4 '<parent>' pom.xml | grep -q "<version>$BOOT</version>" || { echo "boot-4.0: could not set the parent to $BOOT" >&2; exit 1; }
echo "Spring Boot $BOOT"
if ! ./mvnw -B -ntp -pl mcp-subscriptions-autoconfigure,mcp-subscriptions-starter,mcp-subscriptions-test -am verify \
	-Dmaven.javadoc.skip=true -Dmaven.source.skip=true; then
	show_failures
	exit 1
fi
