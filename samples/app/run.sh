#!/usr/bin/env bash
# Builds the sample app with javac, instruments it with tc-instrument, runs it on the
# JVM with the tracecanary runtime, and leaves in OUT: the mapping files, the reports
# (reports.jsonl), the ring buffer (trace.ring) and what tc-trace makes of them.
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
	--classpath "$rt/android-stubs.jar" --in "$out/classes" --out "$out/instrumented"

echo "== run it with the runtime (about 12 s: start-up, a slow refresh, janky scrolling, an ANR)"
# An ASan build's JNI library needs the ASan runtime preloaded into the JVM, which
# uses SIGSEGV itself.
if [ -n "${SAN_PRELOAD:-}" ]; then
	export LD_PRELOAD=$SAN_PRELOAD
	export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
java -cp "$out/instrumented:$cp" -Dtc.lib="$rt/libtracecanary.so" \
	-Dtc.reports="$out/reports.jsonl" -Dtc.ring="$out/trace.ring" sample.Launcher | tee "$out/run.log"
