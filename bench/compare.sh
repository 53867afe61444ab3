#!/usr/bin/env bash
# tc-trace compare on two rings of 1,000,000 events each (trace_gen big, the second cut
# 10 events shorter, so the files differ): wall time and peak RSS, RUNS times, medians;
# beside it `tc-trace tree` of each ring (reading the ring and building its spans: the
# floor compare adds its sums and statistics to), and compare of 10 launches against
# 10 (trace_gen compare: the use it is made for), and compare of two fleets' report files, 10,000
# reports a side from 100 devices (trace_gen fleet: 8 stacks, one 3x as frequent). No peer: no tool we know compares two
# builds' traces.
#
# usage: bench/compare.sh [BUILD] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
T=$build/trace/tc-trace G=$build/tests/trace/trace-gen
ninja -C "$build" trace/tc-trace tests/trace/trace-gen >/dev/null
mkdir -p "$work/a" "$work/b" "$work/la" "$work/lb" "$work/fa" "$work/fb"
"$G" big "$work/a" 1000000
"$G" big "$work/b" 999990
"$G" compare "$work/la" 10 1 0
"$G" compare "$work/lb" 10 2 40 renumber
"$G" fleet "$work/fa" 100 10000 1 100 0
"$G" fleet "$work/fb" 100 8000 2 300 200 renumber # 3x one stack: 10,000 again
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# measure NAME COMMAND...: appends "ms kB" of one run to $work/NAME
measure() {
	name=$1; shift
	/usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
	awk '{ printf "%d %d\n", $1 * 1000, $2 }' "$work/t" >>"$work/$name"
}
for ((i = 0; i < runs; i++)); do
	measure big "$T" compare --a "$work/a/ring" --a-mapping "$work/a/methodMapping.txt" \
		--b "$work/b/ring" --b-mapping "$work/b/methodMapping.txt" -o "$work/out.txt"
	measure big-json "$T" compare --a "$work/a/ring" --a-mapping "$work/a/methodMapping.txt" \
		--b "$work/b/ring" --b-mapping "$work/b/methodMapping.txt" --format json -o "$work/out.json"
	measure tree "$T" tree --ring "$work/a/ring" --mapping "$work/a/methodMapping.txt" -o "$work/tree.txt"
	measure launches "$T" compare --a "$work"/la/ring* --a-mapping "$work/la/methodMapping.txt" \
		--b "$work"/lb/ring* --b-mapping "$work/lb/methodMapping.txt" -o "$work/out.txt"
	measure fleet "$T" compare --a "$work"/fa/dev*.jsonl --a-mapping "$work/fa/methodMapping.txt" \
		--b "$work"/fb/dev*.jsonl --b-mapping "$work/fb/methodMapping.txt" -o "$work/out.txt"
done
report() { # report NAME TEXT
	ms=$(cut -d' ' -f1 "$work/$1" | median) kb=$(cut -d' ' -f2 "$work/$1" | median)
	echo "$2: median $ms ms, peak RSS $((kb / 1024)) MB, of $runs runs ($(cut -d' ' -f1 "$work/$1" | tr '\n' ' ')ms)"
}
echo "rings: 1,000,000 and 999,990 events (trace_gen big), $(stat -c %s "$work/a/ring") bytes each"
report big "tc-trace compare, text"
report big-json "tc-trace compare --format json"
report tree "tc-trace tree of one ring (the floor: read, spans, tree)"
report launches "tc-trace compare of 10 launches with 10 (trace_gen compare)"
nrep() { cat "$work/$1"/dev*.jsonl | grep -c Trace_EvilMethod; }
echo "fleets: $(nrep fa) and $(nrep fb) Trace_EvilMethod reports from 100 devices each, $(cat "$work"/fa/dev*.jsonl | wc -c) bytes"
report fleet "tc-trace compare of the two fleets' report files"
