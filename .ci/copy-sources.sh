#!/usr/bin/env bash
# Sourced by the matrix legs (jdk-25.sh, boot-4.0.sh): copies the working tree's sources, not
# its build output, to a directory of the leg's own ($LEG_DIR), so that a leg builds from
# scratch with its JDK or its Boot and leaves the main build's target/ directories alone.
# The copy goes when the leg ends.
LEG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mcp-ci-leg.XXXXXX")
trap 'rm -rf "$LEG_DIR"' EXIT
tar -c --exclude=./.git --exclude='*/target' --exclude=./target --exclude=./.tools --exclude='*/node_modules' \
	--exclude='*-results' --exclude='./sample-data' --exclude='*/sample-data' -f - . | tar -x -C "$LEG_DIR" -f -
# Test output and failing classes' logs, as the main build shows them (CONTRIBUTING.md, "Test output").
show_failures() {
	grep -lE '<(failure|error)[ >]' "$LEG_DIR"/*/target/surefire-reports/TEST-*.xml 2>/dev/null | while read -r report; do
		output="$(dirname "$report")/$(basename "$report" .xml | sed 's/^TEST-//')-output.txt"
		if [ -f "$output" ]; then
			echo "----- $output"
			tail -n 400 "$output"
		fi
	done || true
}
