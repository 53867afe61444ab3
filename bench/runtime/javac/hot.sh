#!/usr/bin/env bash
# The hot-method filter on javac: jdk.compiler instrumented whole ("full"), one profiling
# run of it recorded into a ring, `tc-trace hot` on that ring's last warm compilations,
# jdk.compiler instrumented again with that list as a block list ("hot"), and in one go
# the compile time of untraced, full and hot builds (medians over JVMs, each the median
# of its warm compilations, as run.sh). Then both builds' call trees of one compilation
# are compared (compare_trees.py): which methods of 1 ms or more the hot build still
# traces, and where the time of those it no longer traces went. Both builds are made
# once more with the inlining filter (-keepinlinable 35, rules/filter.h: no method that
# its probes would push past HotSpot's MaxInlineSize), "full+inline" and "hot+inline".
# Beside the wall time, the compiling thread's CPU time (less sensitive to a loaded
# machine; the JIT's and the clock's threads are not in it).
#
# usage: bench/runtime/javac/hot.sh [BUILD_DIR] [JVMS] [ROUNDS] [-- TC-TRACE-HOT-OPTIONS]
#   e.g. hot.sh build 5 20 -- --min-calls 1000 --max-avg-us 5 --keep-ms 1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
jvms=${2:-5}
rounds=${3:-40}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = -- ] && shift
hot_opts=("$@")
. "$here/common.sh"
javac_setup "$build" "${TMPDIR:-/tmp}/tc-bench-hot"

# 4 compilations, each a message; the last (warm, about 10M events) fits in the ring whole.
profile() { # BUILD RING
	rm -f "$2"
	javac_run ours "$work/$1/jdk.compiler" 4 -Dtc.ring="$2" -Dtc.capacity=24000000 -Dtc.messages=true >/dev/null
}
last_message() { echo $(($("$tc_trace" messages --ring "$1" | sed -n '1s/.*: //p') - 1)); }

echo "== full: jdk.compiler instrumented whole"
javac_instrument "$work/full"
profile full "$work/full.ring"
echo "== the hot list from its last compilation (tc-trace hot ${hot_opts[*]})"
"$tc_trace" hot --ring "$work/full.ring" --mapping "$work/full/map/methodMapping.txt" \
	--message "$(last_message "$work/full.ring")" "${hot_opts[@]}" -o "$work/hot.rules"
sed -n 1,3p "$work/hot.rules"
echo "== hot: instrumented again with the list as a block list"
javac_instrument "$work/hot" --blocklist "$work/hot.rules"
profile hot "$work/hot.ring"
echo "== full and hot again with the inlining filter (-keepinlinable 35)"
echo "-keepinlinable 35" > "$work/inline.rules"
cat "$work/hot.rules" "$work/inline.rules" > "$work/hot-inline.rules"
javac_instrument "$work/full+inline" --blocklist "$work/inline.rules"
javac_instrument "$work/hot+inline" --blocklist "$work/hot-inline.rules"
for b in full hot; do
	"$tc_trace" tree --ring "$work/$b.ring" --mapping "$work/$b/map/methodMapping.txt" \
		--message "$(last_message "$work/$b.ring")" -o "$work/$b.tree" 2>/dev/null
done

builds=(none full hot full+inline hot+inline)
echo "== timing: $jvms JVMs x $rounds compilations each, ${builds[*]}"
rm -f "$work"/times-* "$work/log"
for j in $(seq "$jvms"); do
	for b in "${builds[@]}"; do
		who=ours patch=$work/$b/jdk.compiler
		[ $b = none ] && who=none patch=$untraced
		# each compilation a main-looper message, as traced code runs in an app (outside
		# one, every event would read the clock itself)
		javac_run $who "$patch" "$rounds" -Dtc.messages=true | tee -a "$work/log" | awk '{print $3, $5, $7}' >> "$work/times-$b"
	done
	echo "load $(cut -d' ' -f1 /proc/loadavg)" >> "$work/log"
done
for b in "${builds[@]}"; do
	awk '{print $1}' "$work/times-$b" > "$work/ms-$b"
	awk '{print $2}' "$work/times-$b" > "$work/ev-$b"
	awk '{print $3}' "$work/times-$b" > "$work/cpu-$b"
done
traced() { echo $(($(wc -l < "$work/$1/map/methodMapping.txt") - 1)); }
echo
echo "javac compiling ${#sources[@]} files, $jvms JVMs x $rounds compilations (each a message), medians of the warm half"
echo "hot list: tc-trace hot ${hot_opts[*]:-(defaults)}: $(grep -c '^-keepmethod' "$work/hot.rules") methods"
echo "load average over the runs: $(grep '^load' "$work/log" | awk '{s+=$2} END {printf "%.1f", s/NR}')"
printf '| %-38s | %14s | %8s | %9s | %8s | %9s | %16s |\n' build "methods traced" ms "added" "cpu ms" "added" "events per JVM"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ---------------------------------------- ---------------- ---------- ----------- ---------- ----------- ------------------
none=$(med "$work/ms-none") cnone=$(med "$work/cpu-none")
printf '| %-38s | %14s | %8.1f | %9s | %8.1f | %9s | %16s |\n' untraced - "$none" - "$cnone" - -
declare -A title=([full]="full (every method)" [hot]="hot (the hot list kept out)"
	[full+inline]="full, -keepinlinable 35" [hot+inline]="hot list and -keepinlinable 35")
for b in "${builds[@]:1}"; do
	awk -v n="$none" -v cn="$cnone" -v t="${title[$b]}" -v tr="$(traced "$b")" -v m="$(med "$work/ms-$b")" \
		-v c="$(med "$work/cpu-$b")" -v e="$(med "$work/ev-$b")" 'BEGIN {
		printf "| %-38s | %14d | %8.1f | %+8.1f%% | %8.1f | %+8.1f%% | %16d |\n", t, tr, m, (m-n)/n*100, c, (c-cn)/cn*100, e }'
done
echo
python3 "$here/compare_trees.py" "$work/full.tree" "$work/hot.tree" "$work/hot.rules"
