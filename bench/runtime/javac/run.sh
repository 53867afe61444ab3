#!/usr/bin/env bash
# End-to-end overhead of tracing on a real instrumented workload: the JDK's own javac,
# its module instrumented by tc-instrument, compiling a source set on the main thread
# (the thread both recorders record). Untraced vs the Matrix-style Java recorder
# (../java/MatrixBeat.java, injected with --beat-class MatrixBeat) vs this runtime.
# Medians over several JVMs, each reporting the median of its warm compilations.
#
# usage: bench/runtime/javac/run.sh [BUILD_DIR] [JVMS] [ROUNDS]
# BENCH_MESSAGE=1: ours records inside one main-looper message, as an app's code runs
# (the clock thread keeps the time); without it every event of ours reads the clock.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
jvms=${2:-5}
rounds=${3:-20}
work=${TMPDIR:-/tmp}/tc-bench-javac
mkdir -p "$work"
ninja -C "$build" src/tc-instrument runtime/tracecanary-runtime.jar runtime/libtracecanary.so >/dev/null
mods=$work/jdk
[ -d "$mods/jdk.compiler" ] || bash "$root/tests/extract_jdk.sh" "$mods" "$mods.stamp" >/dev/null
rt=$build/runtime
for who in ours peer; do
	beat=com/tencent/matrix/trace/core/AppMethodBeat
	[ $who = peer ] && beat=MatrixBeat
	rm -rf "$work/$who"
	"$build/src/tc-instrument" --quiet --beat-class "$beat" --mapping-dir "$work/$who/map" \
		--in "$mods/jdk.compiler" --out "$work/$who/jdk.compiler"
done
rm -rf "$work/classes" && mkdir -p "$work/classes"
javac -nowarn -cp "$rt/tracecanary-runtime.jar" -d "$work/classes" "$here/JavacBench.java" "$here/../java/MatrixBeat.java"
# The source set: the benchmark peers, against Debian's ASM.
cp=$(printf '/usr/share/java/%s.jar:' asm asm-tree asm-commons asm-util asm-analysis)
mapfile -t sources < <(find "$root/bench/peers" -name '*.java' ! -name 'Jacoco*' | sort)
rm -f "$work"/times-* "$work/log"
for j in $(seq "$jvms"); do
	for who in none peer ours ours-all; do
		patch=()
		[ $who != none ] && patch=(--patch-module "jdk.compiler=$work/${who%-all}/jdk.compiler" --add-reads jdk.compiler=ALL-UNNAMED)
		java "${patch[@]}" -Dbench.message=$([ "${BENCH_MESSAGE:-0}" = 1 ] && echo true || echo false) -Dtc.lib="$rt/libtracecanary.so" -cp "$work/classes:$rt/tracecanary-runtime.jar" \
			JavacBench $who "$rounds" -nowarn -cp "$cp" -d "$work/out-$who" "${sources[@]}" 2>/dev/null \
			| tee -a "$work/log" | awk '{print $3}' >> "$work/times-$who"
	done
done
med() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
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
