#!/usr/bin/env bash
# What the probes cost, by cause (issue 33): javac compiling inside messages, as hot.sh
# times it, with jdk.compiler
#   none         untraced: the JDK's own jdk.compiler
#   copy         untraced: jdk.compiler's classes as extracted, patched in as the traced
#                builds are (--patch-module): the baseline the "added" columns use
#   full         instrumented whole, the runtime as it is
#   empty        instrumented whole, the probes calling an empty static method
#                (--beat-class EmptyBeat): the call shape alone, nothing recorded
#   inline       instrumented with -keepinlinable 35 (rules/filter.h)
#   full@V       as full, with a variant V of the writer's i() and o()
#                (beat_variant.py: nonnull, array, plain; plain is not correct on ARM and
#                is a measurement only)
# in one go, interleaved JVM by JVM; medians over JVMs of each JVM's median over its warm
# compilations (as run.sh), wall and the compiling thread's CPU time.
#
# usage: bench/runtime/javac/shape.sh [BUILD_DIR] [JVMS] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
jvms=${2:-3}
rounds=${3:-40}
. "$here/common.sh"
javac_setup "${1:-$root/build}" "${TMPDIR:-/tmp}/tc-bench-shape"
rt0=$rt
variants=(nonnull array plain)
for v in "${variants[@]}"; do
	d=$work/rt-$v
	rm -rf "$d" && mkdir -p "$d/src" "$d/classes"
	python3 "$here/beat_variant.py" "$v" "$root/runtime/java/com/tencent/matrix/trace/core/AppMethodBeat.java" \
		"$d/src/AppMethodBeat.java"
	javac -nowarn -Xlint:-options -source 8 -target 8 -encoding UTF-8 \
		-cp "$rt0/tracecanary-runtime.jar:$rt0/android-stubs.jar" -d "$d/classes" "$d/src/AppMethodBeat.java" 2>"$d/javac.log" ||
		{ cat "$d/javac.log" >&2; exit 1; }
	cp "$rt0/tracecanary-runtime.jar" "$d/tracecanary-runtime.jar"
	(cd "$d/classes" && jar uf "$d/tracecanary-runtime.jar" com/tencent/matrix/trace/core/AppMethodBeat.class)
	ln -s "$rt0/libtracecanary.so" "$d/libtracecanary.so"
done
echo "-keepinlinable 35" > "$work/inline.rules"
javac_instrument "$work/full" --quiet
javac_instrument "$work/empty" --quiet --beat-class EmptyBeat
javac_instrument "$work/inline" --quiet --blocklist "$work/inline.rules"
builds=(none copy full empty inline "${variants[@]/#/full@}")
echo "== timing: $jvms JVMs x $rounds compilations each, ${builds[*]}"
rm -f "$work"/times-* "$work/log"
for j in $(seq "$jvms"); do
	for b in "${builds[@]}"; do
		who=ours rt=$rt0 patch=$work/${b%%@*}/jdk.compiler
		case $b in
		none) who=none patch= ;;
		copy) who=none patch=$untraced ;;
		empty) who=none ;;
		*@*) rt=$work/rt-${b#*@} ;;
		esac
		javac_run $who "$patch" "$rounds" -Dtc.messages=true | tee -a "$work/log" |
			awk '{print $3, $5, $7}' >> "$work/times-$b"
	done
	echo "load $(cut -d' ' -f1 /proc/loadavg)" >> "$work/log"
done
rt=$rt0
for b in "${builds[@]}"; do
	awk '{print $1}' "$work/times-$b" > "$work/ms-$b"
	awk '{print $2}' "$work/times-$b" > "$work/ev-$b"
	awk '{print $3}' "$work/times-$b" > "$work/cpu-$b"
done
echo
echo "javac compiling ${#sources[@]} files, $jvms JVMs x $rounds compilations (each a message), medians of the warm half"
echo "load average over the runs: $(grep '^load' "$work/log" | awk '{s+=$2} END {printf "%.1f", s/NR}')"
printf '| %-12s | %14s | %8s | %9s | %8s | %9s | %14s |\n' build "methods traced" ms added "cpu ms" added "events per JVM"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' -------------- ---------------- ---------- ----------- ---------- ----------- ----------------
none=$(med "$work/ms-copy") cnone=$(med "$work/cpu-copy")
for b in none copy; do
	printf '| %-12s | %14s | %8.1f | %9s | %8.1f | %9s | %14s |\n' $b - "$(med "$work/ms-$b")" - "$(med "$work/cpu-$b")" - -
done
for b in "${builds[@]:2}"; do
	awk -v n="$none" -v cn="$cnone" -v t="$b" -v tr="$(($(wc -l < "$work/${b%%@*}/map/methodMapping.txt") - 1))" \
		-v m="$(med "$work/ms-$b")" -v c="$(med "$work/cpu-$b")" -v e="$(med "$work/ev-$b")" 'BEGIN {
		printf "| %-12s | %14d | %8.1f | %+8.1f%% | %8.1f | %+8.1f%% | %14s |\n", t, tr, m, (m-n)/n*100, c, (c-cn)/cn*100, e }'
done
