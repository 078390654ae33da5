#!/usr/bin/env bash
# Runs the load harness once with a forked server and prints where that server's CPU went
# while the harness published: CPU seconds (user + system, from /proc/<pid>/task/*/stat) per
# group of threads (the name without its number: mcp-delivery, mcp-dispatch, GC Thread,
# G1 Refine, C2 CompilerThre(ad), http-nio-..., raw-writer), over the first 15 s of the
# harness's measured publishing (after its --warmup, if given), or up to the end of the
# harness's window if that comes first. Linux only; starts and ends
# only the harness and the server it forks.
# Build the jar first: ./mvnw -q -DskipTests package -pl benchmarks -am
# Usage: benchmarks/server-threads.sh [LoadHarness options, without --duration]
#   e.g. benchmarks/server-threads.sh --subscribers 8000 --rate 10 --era 2025 --server-heap fixed
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
	echo "No $jar: build it with ./mvnw -q -DskipTests package -pl benchmarks -am" >&2
	exit 2
fi
hard="$(ulimit -Hn)"
if [[ "$hard" != "unlimited" && "$(ulimit -Sn)" -lt "$hard" ]]; then
	ulimit -Sn "$hard"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
java -Xmx2g -cp "$jar" io.github.mcpsubscriptions.benchmarks.load.LoadHarness --duration 15 "$@" \
	>"$work/harness.txt" 2>&1 &
harness=$!
# The window starts when the harness starts to measure (after --warmup, if given).
until grep -q "measuring:" "$work/harness.txt"; do
	kill -0 "$harness" 2>/dev/null || { cat "$work/harness.txt" >&2; exit 1; }
	sleep 0.2
done
# The harness names the server it forked.
server="$(sed -n 's/^\[harness\] server pid \([0-9]*\)$/\1/p' "$work/harness.txt" | head -1)"
if [[ -z "$server" ]]; then
	echo "The harness named no server pid: server-threads.sh needs a forked server" >&2
	exit 1
fi
snapshot() {
	# One process for every thread: a few processes per thread took seconds on a busy machine
	# with hundreds of server threads, and the window slid past the run. User and system time
	# are read after the name, which may hold spaces ("G1 Refine#0").
	python3 - "$server" <<'PY'
import os, sys, time
pid = sys.argv[1]
print("time", time.time())
for tid in os.listdir(f"/proc/{pid}/task"):
    try:
        with open(f"/proc/{pid}/task/{tid}/stat") as stat_file:
            stat = stat_file.read()
    except OSError:
        continue
    fields = stat[stat.rindex(")") + 2:].split()
    print(tid, int(fields[11]) + int(fields[12]), stat[stat.index("(") + 1:stat.rindex(")")])
PY
}
snapshot >"$work/before"
# 15 s, or less if the harness's own window ends first: it ends the server soon after, and a
# snapshot then would miss the server or catch it shutting down.
timeout 15 bash -c "until grep -q '^\[harness\] window ended' '$work/harness.txt'; do sleep 0.1; done" || true
snapshot >"$work/after"
wait "$harness"
python3 - "$work/before" "$work/after" "$(getconf CLK_TCK)" <<'PY'
import collections, re, sys
ticks = float(sys.argv[3])

def read(path):
    """A snapshot: the time it was taken, and each thread's CPU ticks and name by thread id."""
    taken, threads = None, {}
    for line in open(path):
        parts = line.split(None, 2)
        if parts[0] == "time":
            taken = float(parts[1])
        elif len(parts) == 3 and parts[1].isdigit():
            threads[parts[0]] = (int(parts[1]), parts[2].strip())
    return taken, threads

started, before = read(sys.argv[1])
ended, after = read(sys.argv[2])
groups = collections.Counter()
for tid, (used, name) in after.items():
    groups[re.sub(r'[-#]?\d+$', '', name)] += used - before.get(tid, (0, name))[0]
total = sum(groups.values())
print(f"server CPU over {ended - started:.1f} s: {total / ticks:.2f} s")
for name, used in groups.most_common(12):
    print(f"{used / ticks:7.2f} s {100 * used / max(1, total):5.1f}%  {name}")
PY
grep -E '^\{"harness"' "$work/harness.txt" | tail -1
