#!/usr/bin/env bash
# Builds the sample app with javac, instruments it with tc-instrument, runs it on the
# JVM with the tracecanary runtime, and leaves in OUT: the mapping files, the reports
# (reports.jsonl), the ring buffer (trace.ring) and what tc-trace makes of them: an
# HTML report (report.html), the reports with decoded stacks, a call tree, a
# Chrome/Perfetto trace and flame graphs.
#
# usage: samples/app/run.sh BUILD_DIR OUT
# (BUILD_DIR: a meson build of this repository with the compiler and the runtime.)
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
rt=$build/runtime
cp="$rt/tracecanary-runtime.jar:$rt/android-stubs.jar"
rm -rf "$out"
mkdir -p "$out"

echo "== compile the sample (javac)"
javac -nowarn -d "$out/classes" -cp "$cp" "$here"/src/sample/*.java

echo "== instrument it (tc-instrument)"
"$build/src/tc-instrument" --mapping-dir "$out/mapping" --blocklist "$here/blocklist.txt" \
	--classpath "$rt/android-stubs.jar" --classpath "$rt/tracecanary-runtime.jar" --in "$out/classes" --out "$out/instrumented"

echo "== run it with the runtime (about 12 s: start-up, a slow refresh, janky scrolling, an ANR)"
# An ASan build's JNI library needs the ASan runtime preloaded into the JVM, which
# uses SIGSEGV itself.
if [ -n "${SAN_PRELOAD:-}" ]; then
	export LD_PRELOAD=$SAN_PRELOAD
	export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
java -cp "$out/instrumented:$cp" -Dtc.lib="$rt/libtracecanary.so" \
	-Dtc.reports="$out/reports.jsonl" -Dtc.ring="$out/trace.ring" sample.Launcher | tee "$out/run.log"

echo
echo "== what the runtime found (tc-trace)"
trace=$build/trace/tc-trace
map=$out/mapping/methodMapping.txt
"$trace" html --ring "$out/trace.ring" --mapping "$map" --reports "$out/reports.jsonl" \
	--title "tracecanary sample" -o "$out/report.html" 2>/dev/null
"$trace" reports --reports "$out/reports.jsonl" --mapping "$map" --format text | tee "$out/reports.txt"
"$trace" reports --reports "$out/reports.jsonl" --mapping "$map" -o "$out/reports-decoded.jsonl"
"$trace" tree --ring "$out/trace.ring" --mapping "$map" --min-ms 5 -o "$out/tree.txt"
# every call, as B/E pairs (the form Perfetto orders right when calls share a millisecond),
# and the same as a native Perfetto trace, a quarter of the size
"$trace" chrome --ring "$out/trace.ring" --mapping "$map" --reports "$out/reports.jsonl" --min-us 0 \
	-o "$out/trace.json"
"$trace" perfetto --ring "$out/trace.ring" --mapping "$map" --reports "$out/reports.jsonl" \
	-o "$out/trace.pftrace" 2>/dev/null
# The flame graph of the slow-message report: the second report line is not assumed,
# the first NORMAL evil-method report is looked up.
line=$(grep -n '"detail":"NORMAL"' "$out/reports.jsonl" | head -1 | cut -d: -f1)
"$trace" flame --reports "$out/reports.jsonl" --report "$line" --mapping "$map" \
	--title "slow message: MainActivity.onRefresh" -o "$out/flame-slow-message.svg"
# the ring's notes were printed by chrome above: not twice (errors still show)
"$trace" flame --ring "$out/trace.ring" --mapping "$map" --title "the whole run" -o "$out/flame.svg" \
	2> >(grep -v '^tc-trace: note: ' >&2)
# The methods called so often and so briefly that tracing them costs more than it tells:
# a block list for the next build (cat it after your own: tc-instrument --blocklist FILE).
"$trace" hot --ring "$out/trace.ring" --mapping "$map" -o "$out/hot.rules" 2>/dev/null
cat <<MSG

Written to $out/:
  report.html           open it in a browser (file://, no network): threads, methods, call stacks,
                        the reports with their stacks and flame graphs, FPS and start-up charts
  mapping/              methodMapping.txt, ignoreMethodMapping.txt, instrument-stats.json
  reports.jsonl         the runtime's reports (Matrix's JSON); decoded: reports-decoded.jsonl, reports.txt
  tree.txt              the call tree of the recorded events, with names, self/total ms and calls
  trace.json            Chrome Trace Event JSON of every call: open it in https://ui.perfetto.dev or chrome://tracing
  trace.pftrace         the same as a Perfetto protobuf trace (a quarter of the size): ui.perfetto.dev, Android Studio
  flame.svg             a flame graph of the whole run; flame-slow-message.svg: the slow refresh
  hot.rules             the often-called short methods (tc-trace hot), a block list for tc-instrument
  trace.ring            the ring buffer as the runtime left it
MSG
