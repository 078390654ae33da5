#!/usr/bin/env bash
# Runs a command as on a machine with a JDK and nothing else (CONTRIBUTING.md, "Building and
# testing"): in network and mount namespaces of its own, with only loopback (nothing listens
# on it), no Docker socket, and redis-server, redis-cli, psql and postgres hidden from the
# PATH. Needs root (unshare) and util-linux. There is no network: Maven runs offline, so run
# the build once normally first, e.g.
#   bash .ci/bare-jdk.sh ./mvnw -B -ntp -o verify
set -euo pipefail
exec unshare --mount --net bash -c '
set -euo pipefail
ip link set lo up 2>/dev/null || true
for command in redis-server redis-cli redis-sentinel psql postgres pg_ctl initdb; do
	for file in $(type -ap "$command"); do
		mount --bind /dev/null "$file"
	done
done
for directory in /usr/lib/postgresql /var/run/docker.sock /run/docker.sock; do
	if [ -d "$directory" ]; then
		mount -t tmpfs tmpfs "$directory"
	elif [ -e "$directory" ]; then
		mount --bind /dev/null "$directory"
	fi
done
exec "$@"' bash "$@"
