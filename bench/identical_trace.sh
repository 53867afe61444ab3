#!/usr/bin/env bash
# Whether two builds of tc-trace write the same bytes: the proof that a refactoring of
# tc-trace (or of what it is built on) changed no output. The sibling of identical.sh,
# which does the same for tc-instrument.
#
# The recordings are the ones the trace tests use (tests/trace/e2e.sh), written once by
# trace-gen (tests/trace/trace_gen.c, which drives the runtime's C API): sample (ring,
# reports, mapping), wrap (a ring that wrapped), threads and reused (a ring and its thread
# file). Both builds' tc-trace then read the same files, and every output is compared
# byte for byte (cmp): tree (three sorts, a message, a time slice, per thread), messages,
# sections, reports (json and text), chrome (B/E and X events, full names, with reports),
# flame (of a ring and of a report), hot, html. A command that fails must fail in both
# builds with the same exit code and the same standard error.
#
# usage: bench/identical_trace.sh [--gen TRACE_GEN] [--work DIR] A B
#   A, B   tc-trace binaries, or meson build directories (BUILD/trace/tc-trace, or
#          BUILD/runtime/tc-trace in a build from before tc-trace left runtime/)
#   --gen  the trace-gen that writes the recordings; default: B's
#          (BUILD/tests/trace/trace-gen, so B must be a build with tests)
# Prints one line per comparison and a verdict; exit 0 when everything is identical.
# Example: bench/identical_trace.sh /tmp/base-build build
set -euo pipefail

gen="" work=""
while [ $# -gt 2 ]; do
	case $1 in
	--gen) gen=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	*) echo "identical_trace.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -eq 2 ] || { sed -n '/^# usage/,/^# Example/p' "$0" >&2; exit 2; }

tool() {
	if [ -d "$1" ]; then
		for p in trace/tc-trace runtime/tc-trace; do
			[ -x "$1/$p" ] && { echo "$(cd "$1" && pwd)/$p"; return; }
		done
		echo "$1/trace/tc-trace"
	else
		echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
	fi
}
a=$(tool "$1")
b=$(tool "$2")
if [ -z "$gen" ]; then
	[ -d "$2" ] || { echo "identical_trace.sh: --gen is needed when B is not a build directory" >&2; exit 2; }
	gen=$(cd "$2" && pwd)/tests/trace/trace-gen
fi
for t in "$a" "$b" "$gen"; do
	[ -x "$t" ] || { echo "identical_trace.sh: $t: not an executable" >&2; exit 2; }
done
work=${work:-$(mktemp -d "${TMPDIR:-/tmp}/tc-identical-trace.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)

for m in sample wrap threads reused; do
	rm -rf "${work:?}/$m"
	mkdir -p "$work/$m"
	"$gen" "$m" "$work/$m" >/dev/null
done

same=0 differ=0
# run NAME ARGS...: both builds, output to a file (-o) and stdout/stderr; all compared
run() {
	local name=$1; shift
	local rc_a=0 rc_b=0
	"$a" "$@" -o "$work/out/a.$name" >"$work/out/a.$name.stdout" 2>"$work/out/a.$name.stderr" || rc_a=$?
	"$b" "$@" -o "$work/out/b.$name" >"$work/out/b.$name.stdout" 2>"$work/out/b.$name.stderr" || rc_b=$?
	local bad=""
	[ "$rc_a" = "$rc_b" ] || bad="exit $rc_a vs $rc_b"
	for suffix in "" .stdout .stderr; do
		local fa=$work/out/a.$name$suffix fb=$work/out/b.$name$suffix
		if [ -e "$fa" ] || [ -e "$fb" ]; then
			cmp -s "$fa" "$fb" || bad="$bad ${suffix:-output} differs"
		fi
	done
	if [ -n "$bad" ]; then
		differ=$((differ + 1))
		printf 'DIFFERS    %-28s %s\n' "$name" "$bad"
	else
		same=$((same + 1))
		local size=0
		[ -e "$work/out/a.$name" ] && size=$(wc -c <"$work/out/a.$name")
		printf 'identical  %-28s %8s bytes, exit %s\n' "$name" "$size" "$rc_a"
	fi
}

rm -rf "$work/out"
mkdir -p "$work/out"
s=$work/sample
run sample.tree tree --ring "$s/ring" --mapping "$s/methodMapping.txt"
run sample.tree-call tree --ring "$s/ring" --mapping "$s/methodMapping.txt" --sort call
run sample.tree-calls tree --ring "$s/ring" --mapping "$s/methodMapping.txt" --sort calls --min-ms 1 --max-depth 4
run sample.tree-message tree --ring "$s/ring" --mapping "$s/methodMapping.txt" --message 1
run sample.tree-slice tree --ring "$s/ring" --mapping "$s/methodMapping.txt" --from 100 --to 900
run sample.tree-nomap tree --ring "$s/ring"
run sample.messages messages --ring "$s/ring" --mapping "$s/methodMapping.txt"
run sample.sections sections --ring "$s/ring"
run sample.reports reports --reports "$s/reports.jsonl" --mapping "$s/methodMapping.txt"
run sample.reports-text reports --reports "$s/reports.jsonl" --mapping "$s/methodMapping.txt" --format text
run sample.chrome chrome --ring "$s/ring" --mapping "$s/methodMapping.txt"
run sample.chrome-x chrome --ring "$s/ring" --mapping "$s/methodMapping.txt" --events x --names full --reports "$s/reports.jsonl"
run sample.flame flame --ring "$s/ring" --mapping "$s/methodMapping.txt" --title sample
run sample.flame-report flame --reports "$s/reports.jsonl" --report 1 --mapping "$s/methodMapping.txt"
run sample.hot hot --ring "$s/ring" --mapping "$s/methodMapping.txt" --min-calls 2
run sample.html html --ring "$s/ring" --mapping "$s/methodMapping.txt" --reports "$s/reports.jsonl" --title sample
w=$work/wrap
run wrap.tree tree --ring "$w/ring"
run wrap.chrome chrome --ring "$w/ring"
run wrap.flame flame --ring "$w/ring"
run wrap.html html --ring "$w/ring"
for m in threads reused; do
	t=$work/$m
	run $m.tree tree --ring "$t/ring" --mapping "$t/methodMapping.txt"
	run $m.tree-main tree --ring "$t/ring" --mapping "$t/methodMapping.txt" --thread main
	run $m.messages messages --ring "$t/ring" --mapping "$t/methodMapping.txt"
	run $m.sections sections --ring "$t/ring"
	run $m.chrome chrome --ring "$t/ring" --mapping "$t/methodMapping.txt"
	run $m.chrome-x chrome --ring "$t/ring" --mapping "$t/methodMapping.txt" --events x --min-us 10
	run $m.flame flame --ring "$t/ring" --mapping "$t/methodMapping.txt"
	run $m.hot hot --ring "$t/ring" --mapping "$t/methodMapping.txt"
	run $m.html html --ring "$t/ring" --mapping "$t/methodMapping.txt"
done
# the note on the ring of the run before (FILE.prev), on stderr
cp "$s/ring" "$work/prev-ring" && cp "$s/ring" "$work/prev-ring.prev"
run prev.note tree --ring "$work/prev-ring"
# errors: a missing ring, a malformed mapping line, a report line that is not JSON
printf '1,1,a.B c ()V\nnot a mapping line\n' >"$work/bad-mapping.txt"
printf '{"tag":"Trace_EvilMethod",\n' >"$work/bad-reports.jsonl"
run error.no-ring tree --ring "$work/none"
run error.mapping tree --ring "$s/ring" --mapping "$work/bad-mapping.txt"
run error.reports reports --reports "$work/bad-reports.jsonl"

echo "identical_trace.sh: $same identical, $differ differ (work: $work)"
[ "$differ" -eq 0 ]
