#!/usr/bin/env bash
# The HTML report on a big ring: a ring of 1,000,000 events (trace_gen big), `tc-trace html` of it (wall time, file size), and the first view's render time
# in headless Chromium (navigation start to the page's ready mark: JSON.parse of the
# aggregates and the spans, the tables, the overview, the timeline's first frame), and
# the timeline's frame times while report.sh zooms, pans and searches, RUNS times; medians. Target: under 10 MB and
# under 2 s on this 2-core machine (issue #13). No peer: the page is the tool's own.
#
# usage: bench/html.sh [BUILD] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TC_TRACE=$build/trace/tc-trace TRACE_GEN=$build/tests/trace/trace-gen
ninja -C "$build" trace/tc-trace tests/trace/trace-gen >/dev/null
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
html=() render=() driver=() draw=() drawmax=() input=() inputmax=()
for ((i = 0; i < runs; i++)); do
	# report.sh big makes the ring and the page and opens it; its "# ..." lines carry
	# the figures (it also installs playwright-core, once)
	out=$(tests/browser/report.sh big "$work/run" 2>&1) || { echo "$out"; exit 1; }
	html+=("$(echo "$out" | sed -n 's/^# tc-trace html on .* events: \([0-9]*\) ms$/\1/p')")
	render+=("$(echo "$out" | sed -n 's/.*first view rendered \([0-9]*\) ms.*/\1/p')")
	driver+=("$(echo "$out" | sed -n 's/.*(\([0-9]*\) ms from goto.*/\1/p')")
	draw+=("$(echo "$out" | sed -n 's/^# timeline on .*: draw median \([0-9.]*\) ms, max.*/\1/p')")
	drawmax+=("$(echo "$out" | sed -n 's/^# timeline on .*: draw median [0-9.]* ms, max \([0-9.]*\) ms;.*/\1/p')")
	input+=("$(echo "$out" | sed -n 's/^# timeline on .*input to frame (driver) median \([0-9]*\) ms.*/\1/p')")
	inputmax+=("$(echo "$out" | sed -n 's/^# timeline on .*input to frame (driver) median [0-9]* ms, max \([0-9]*\) ms.*/\1/p')")
	bytes=$(stat -c %s "$work/run/report.html")
done
echo "ring: 1,000,000 events (trace_gen big), $(stat -c %s "$work/run/ring") bytes"
echo "page: $bytes bytes ($(awk -v b="$bytes" 'BEGIN {printf "%.2f", b / 1048576}') MB), target < 10 MB"
echo "tc-trace html: median $(printf '%s\n' "${html[@]}" | median) ms of ${runs} runs (${html[*]})"
echo "first view in headless Chromium: median $(printf '%s\n' "${render[@]}" | median) ms of ${runs} runs (${render[*]}), target < 2000 ms"
echo "  (the driver's goto to ready, page load included: median $(printf '%s\n' "${driver[@]}" | median) ms: ${driver[*]})"
echo "timeline frames (zoom, pan, keys, search; the page's draw time): median of the runs' medians $(printf '%s\n' "${draw[@]}" | median) ms (${draw[*]}), longest frame per run: ${drawmax[*]} ms; target: median <= 5 ms"
echo "  (input to the next frame as the driver saw it, CDP round trip included: medians ${input[*]} ms; worst per run ${inputmax[*]} ms, target <= 250 ms)"
