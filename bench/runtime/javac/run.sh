#!/usr/bin/env bash
# End-to-end overhead of tracing on a real instrumented workload: the JDK's own javac,
# its module instrumented by tc-instrument, compiling a source set on the main thread
# (the thread both recorders record). Untraced vs the Matrix-style Java recorder
# (../java/MatrixBeat.java, injected with --beat-class MatrixBeat) vs this runtime.
# Medians over several JVMs, each reporting the median of its warm compilations.
#
# usage: bench/runtime/javac/run.sh [BUILD_DIR] [JVMS] [ROUNDS]
# BENCH_MESSAGE=1: ours records inside one main-looper message, as an app's code runs
# (the clock thread keeps the time); without it ours' events come outside messages (the
# first after a quiet spell kicks the clock thread, which keeps the time while they come).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
jvms=${2:-5}
rounds=${3:-40}
. "$here/common.sh"
javac_setup "${1:-$root/build}" "${TMPDIR:-/tmp}/tc-bench-javac"
javac_instrument "$work/ours" --quiet
javac_instrument "$work/peer" --quiet --beat-class MatrixBeat
rm -f "$work"/times-* "$work/log"
for j in $(seq "$jvms"); do
	for who in none peer ours ours-all; do
		patch=$untraced
		[ $who != none ] && patch=$work/${who%-all}/jdk.compiler
		javac_run $who "$patch" "$rounds" -Dbench.message=$([ "${BENCH_MESSAGE:-0}" = 1 ] && echo true || echo false) |
			tee -a "$work/log" | awk '{print $3}' >> "$work/times-$who"
	done
done
none=$(med "$work/times-none") peer=$(med "$work/times-peer") ours=$(med "$work/times-ours")
all=$(med "$work/times-ours-all")
echo "javac on the JDK's jdk.compiler instrumented by tc-instrument ($(($(wc -l < "$work/ours/map/methodMapping.txt") - 1)) methods traced)"
echo "$jvms JVMs x $rounds compilations of ${#sources[@]} files; medians of the warm half; ours in a message: ${BENCH_MESSAGE:-0}"
printf '%-34s %10s %10s\n' "" "ms" "added ms"
printf '%-34s %10.1f %10s\n' "untraced" "$none" "-"
awk -v n="$none" -v p="$peer" -v o="$ours" -v a="$all" 'BEGIN {
	printf "%-34s %10.1f %10.1f\n", "Matrix-style Java recorder", p, p - n
	printf "%-34s %10.1f %10.1f\n", "tracecanary runtime", o, o - n
	printf "%-34s %10.1f %10.1f\n", "tracecanary, threads = all", a, a - n
	printf "overhead: peer +%.1f%%, ours +%.1f%%; ours adds %.2fx what the peer adds (target <= 1)\n", (p-n)/n*100, (o-n)/n*100, (o-n)/(p-n)
	printf "threads = all: +%.1f%%, %.2fx what the peer adds main-only (target <= 1)\n", (a-n)/n*100, (a-n)/(p-n) }'
