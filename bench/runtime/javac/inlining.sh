#!/usr/bin/env bash
# What the probes cost the JIT, counted (issue 33): jdk.compiler untraced, instrumented
# whole ("full"), whole with the inlining filter (-keepinlinable 35: no method that its
# probes would push past HotSpot's MaxInlineSize), and whole with probes that call an
# empty static method (--beat-class EmptyBeat: the shape of the probes alone). Each runs
# ROUNDS compilations under -XX:+PrintInlining -XX:+CITime; inlining.py counts the
# methods that crossed the inlining limits, the call sites that inlined a javac method or
# the beat class or did not, and what C1 and C2 compiled. Counts do not depend on the
# machine's load as times do (they vary a little with the JIT's timing).
#
# usage: bench/runtime/javac/inlining.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${2:-8}
. "$here/common.sh"
javac_setup "${1:-$root/build}" "${TMPDIR:-/tmp}/tc-bench-inlining"
echo "-keepinlinable 35" > "$work/inline.rules"
javac_instrument "$work/full" --quiet
javac_instrument "$work/inline" --quiet --blocklist "$work/inline.rules"
javac_instrument "$work/empty" --quiet --beat-class EmptyBeat
args=()
for b in none full inline empty; do
	who=ours patch=$work/$b/jdk.compiler
	# untraced: the extracted classes patched in as the others are ($untraced, common.sh)
	[ $b = none ] && who=none patch=$untraced
	[ $b = empty ] && who=none
	javac_run $who "$patch" "$rounds" -Dtc.messages=true -XX:+UnlockDiagnosticVMOptions -XX:+PrintInlining \
		-XX:+PrintCompilation -XX:+CITime > "$work/$b.log"
	# (a line the JIT's output cut into is left out)
	grep -hE '^(none|ours) median_ms [0-9.]+ ' "$work/$b.log" || true
	dir=$patch
	args+=("$b:$dir:$work/$b.log")
done
echo
echo "javac compiling ${#sources[@]} files, $rounds compilations a JVM (each a message)"
python3 "$here/inlining.py" "$mods/jdk.compiler" "${args[@]}"
