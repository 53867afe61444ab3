#!/usr/bin/env bash
# The HTML report (tc-trace html) in a real browser: Debian's chromium, driven by
# playwright-core (pinned with its integrity hash in package-lock.json, installed with
# `npm ci` into the download cache, outside the repository and the build directory).
#
# usage: report.sh sample|big|compare WORK_DIR
#   sample  trace_gen's sample ring and reports, with start-up and FPS lines added: the
#           page is clicked through threads -> methods -> call stack -> reports and
#           each view is checked against what the ring holds (report_test.js);
#           screenshots land in WORK_DIR/report-*.png (the README's pictures, docs/,
#           are of the sample app's report: scripts/screenshots.sh)
#   big     a ring of 1,000,000 events (trace_gen big) and 3 slow-message reports:
#           the page must be under 10 MB; its size, the first view's render time
#           (bench/html.sh holds the 2 s target) and the timeline's frame times while
#           zooming, panning, searching and clicking a report are printed
#   compare tc-trace compare --html of two builds' launches (trace_gen compare): both
#           timelines drawn, one above the other; a message kind, one of its messages
#           and a recording chosen (compare_test.js)
# Env: TC_TRACE, TRACE_GEN (meson sets them); TC_DOWNLOADS (the cache, as for
# tests/lib/npm_fetch.py); CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
mode=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
. "$src/tests/lib/need.sh"
need_cmd chromium chromium
need_cmd node nodejs
need_cmd npm npm

# playwright-core (NODE_PATH), once per lock file
. "$here/node_env.sh"

rm -rf "$work"
mkdir -p "$work"
case "$mode" in
sample)
	"$TRACE_GEN" sample "$work"
	# what the FPS and start-up tracers write (trace_gen's runtime runs neither), on
	# the ring's clock: its wall time base is 1700000005000
	cat >>"$work/reports.jsonl" <<'JSON'
{"machine":"HIGH","application_create":36,"application_create_scene":100,"first_activity_create":44,"startup_duration":44,"is_warm_start_up":false,"tag":"Trace_StartUp","process":"sample.app","time":1700000005060}
{"machine":"HIGH","scene":"sample.Main","dropLevel":{"DROPPED_FROZEN":0,"DROPPED_HIGH":1,"DROPPED_MIDDLE":2,"DROPPED_NORMAL":5,"DROPPED_BEST":50},"dropSum":{"DROPPED_FROZEN":0,"DROPPED_HIGH":30,"DROPPED_MIDDLE":20,"DROPPED_NORMAL":15,"DROPPED_BEST":3},"fps":55.5,"tag":"Trace_FPS","process":"sample.app","time":1700000005500}
{"machine":"HIGH","scene":"sample.Main","dropLevel":{"DROPPED_FROZEN":1,"DROPPED_HIGH":3,"DROPPED_MIDDLE":4,"DROPPED_NORMAL":6,"DROPPED_BEST":30},"dropSum":{"DROPPED_FROZEN":50,"DROPPED_HIGH":90,"DROPPED_MIDDLE":40,"DROPPED_NORMAL":18,"DROPPED_BEST":2},"fps":38.2,"tag":"Trace_FPS","process":"sample.app","time":1700000007000}
{"machine":"HIGH","scene":"sample.List","dropLevel":{"DROPPED_FROZEN":0,"DROPPED_HIGH":0,"DROPPED_MIDDLE":1,"DROPPED_NORMAL":3,"DROPPED_BEST":60},"dropSum":{"DROPPED_FROZEN":0,"DROPPED_HIGH":0,"DROPPED_MIDDLE":8,"DROPPED_NORMAL":9,"DROPPED_BEST":4},"fps":58.9,"tag":"Trace_FPS","process":"sample.app","time":1700000011000}
JSON
	# relative names: the page shows them
	(cd "$work" && "$TC_TRACE" html --ring ring --mapping methodMapping.txt --reports reports.jsonl \
		--title "trace_gen sample" -o report.html)
	# overloads: measure ()V renamed render (I)V, so two rows are sample.Main.render
	mkdir -p "$work/overload"
	sed 's/^31,2,sample.Main measure ()V$/31,2,sample.Main render (I)V/' "$work/methodMapping.txt" >"$work/overload/methodMapping.txt"
	# and reports: one FPS line (a chart of one point), a slow message whose stack
	# lists two 0 ms calls before the costly one, with fields in ns, bytes and KB, and
	# one with a block context (Config.blockContext: why, CPU, GC, view phases)
	cat >"$work/overload/reports.jsonl" <<'JSON'
{"machine":"HIGH","mem":6442450944,"mem_free":1048576,"detail":"NORMAL","cost":300,"scene":"sample.Main","stack":"0,1048574,1,300\n1,2,1,0\n1,30,1,0\n1,20,1,300\n2,21,1,290\n","stackKey":"21|","threadCpuNs":123456789,"heapBytes":3145728,"tag":"Trace_EvilMethod","process":"sample.app","time":1700000005885}
{"machine":"HIGH","scene":"sample.Main","dropLevel":{"DROPPED_FROZEN":0,"DROPPED_HIGH":1,"DROPPED_MIDDLE":2,"DROPPED_NORMAL":5,"DROPPED_BEST":50},"dropSum":{"DROPPED_FROZEN":0,"DROPPED_HIGH":30,"DROPPED_MIDDLE":20,"DROPPED_NORMAL":15,"DROPPED_BEST":3},"fps":55.5,"tag":"Trace_FPS","process":"sample.app","time":1700000005500}
{"machine":"HIGH","detail":"NORMAL","cost":820,"scene":"sample.Block","stack":"","stackKey":"","usage":"1.10%","blockContext":{"why":"ran 1% of the time: blocked; 1 frame, measure+layout 804 ms","cause":"blocked","sampledMs":810,"threadCpuMs":10,"runQueueMs":7,"processCpuMs":20,"gcCount":0,"gcTimeMs":0,"blockingGcCount":0,"blockingGcTimeMs":0,"viewPhases":{"source":"FrameMetrics","frames":1,"inputMs":0,"animationMs":150,"measureLayoutMs":804,"drawMs":0,"traversalMs":804}},"tag":"Trace_EvilMethod","process":"sample.app","time":1700000005900}
JSON
	"$TC_TRACE" html --ring "$work/ring" --mapping "$work/overload/methodMapping.txt" --reports "$work/overload/reports.jsonl" \
		-o "$work/overload/report.html"
	# three threads (trace_gen threads): a timeline of one track each
	mkdir -p "$work/threads"
	"$TRACE_GEN" threads "$work/threads" >/dev/null
	"$TC_TRACE" html --ring "$work/threads/ring" --mapping "$work/threads/methodMapping.txt" -o "$work/threads/report.html"
	node "$here/report_test.js" sample "$work/report.html" "$work" "$work/overload/report.html" "$work/threads/report.html"
	;;
big)
	"$TRACE_GEN" big "$work" 1000000
	# slow-message reports on messages 20000, 30000 and 40000, at their ends (the
	# ring's wall time base is 1700000005000), for the timeline's report click
	"$TC_TRACE" messages --ring "$work/ring" --mapping "$work/methodMapping.txt" 2>/dev/null |
		awk '$1 == 20000 || $1 == 30000 || $1 == 40000 {
			printf "{\"detail\":\"NORMAL\",\"cost\":%d,\"scene\":\"big.Screen\",\"tag\":\"Trace_EvilMethod\",\"process\":\"big\",\"time\":%.0f}\n", $3, 1700000005000 + $2 + $3 }' \
		>"$work/reports.jsonl"
	[ "$(wc -l <"$work/reports.jsonl")" = 3 ] || { echo "not ok - 3 reports for the big ring" >&2; exit 1; }
	t0=$(date +%s%N)
	"$TC_TRACE" html --ring "$work/ring" --mapping "$work/methodMapping.txt" --reports "$work/reports.jsonl" -o "$work/report.html"
	echo "# tc-trace html on 1,000,000 events: $((($(date +%s%N) - t0) / 1000000)) ms"
	node "$here/report_test.js" big "$work/report.html"
	;;
compare)
	# two builds' launches, Catalog.load 40 ms slower in B (other ids): tc-trace compare --html
	mkdir -p "$work/a" "$work/b"
	"$TRACE_GEN" compare "$work/a" 3 1 0
	"$TRACE_GEN" compare "$work/b" 3 2 40 renumber
	(cd "$work" && "$TC_TRACE" compare --a a/ring0 a/ring1 a/ring2 --a-mapping a/methodMapping.txt \
		--b b/ring0 b/ring1 b/ring2 --b-mapping b/methodMapping.txt --html compare.html -o compare.txt)
	node "$here/compare_test.js" "$work/compare.html" "$work"
	;;
*)
	echo "usage: report.sh sample|big|compare WORK_DIR" >&2
	exit 2
	;;
esac
