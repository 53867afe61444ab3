#!/usr/bin/env bash
# Parse + write round trip of the JDK's classes held in memory, single thread: the
# class-file library (bench/cf-roundtrip) against ObjectWeb ASM's ClassReader ->
# ClassWriter(reader) (bench/peers/AsmRoundtrip), in one run, alternating.
#
# usage: bench/roundtrip.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
rounds=${2:-3}
work=${TMPDIR:-/tmp}/tc-bench-roundtrip
results=$work/results
. "$root/bench/common.sh"
mkdir -p "$work" && rm -rf "$results" && mkdir -p "$results"
"$root/scripts/deps.sh" bench
ninja -C "$build" bench/cf-roundtrip >/dev/null
jdk_corpus "$work/jdk"
peers "$work/peers"

for r in $(seq "$rounds"); do
	"$build/bench/cf-roundtrip" "$work/jdk" 10 | sed -n 's/^median MB\/s=\([0-9.]*\).*/\1/p' >> "$results/tc"
	"$build/bench/cf-roundtrip" --deep "$work/jdk" 3 | sed -n 's/^median MB\/s=\([0-9.]*\).*/\1/p' >> "$results/tc-deep"
	java -cp "$work/peers/peers.jar:/usr/share/java/asm.jar" AsmRoundtrip "$work/jdk" 10 \
		| sed -n 's/.*median.*=\([0-9.]*\).*/\1/p' | tail -1 >> "$results/asm"
done
tc=$(median "$results/tc" 1) asm=$(median "$results/asm" 1) deep=$(median "$results/tc-deep" 1)
echo "corpus: $(find "$work/jdk" -name '*.class' | wc -l) classes, $(du -sb "$work/jdk" | cut -f1) bytes ($rounds rounds, medians)"
printf '%-40s %10s\n' "round trip, single thread" "MB/s"
printf '%-40s %10.1f\n' "tracecanary classfile/ (parse + write)" "$tc"
printf '%-40s %10.1f\n' "ASM 9.4 ClassReader -> ClassWriter" "$asm"
printf '%-40s %10.1f\n' "tracecanary, every method re-laid out" "$deep"
awk -v a="$tc" -v b="$asm" 'BEGIN {printf "ratio tracecanary / ASM: %.2f (target >= 3)\n", a / b}'
