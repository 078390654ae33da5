#!/usr/bin/env bash
# CI: runs the shell blocks of the docs as a reader pastes them (see .ci/docs/run.mjs for the
# markers) and fails when one breaks or its output no longer matches what the page shows.
# Needs a build (the blocks start the applications with the Maven wrapper or their jars),
# curl, Node, and port 8080 (and 8081-8083 for the cluster page) free on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
	mapfile -t pages < <(grep -l '^<!-- doc-test: ' README.md docs/*.md)
fi
for page in "${pages[@]}"; do
	echo "=== $page"
	node .ci/docs/run.mjs "$page"
done
