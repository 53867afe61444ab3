#!/bin/sh
# bench/runtime/run.sh [BUILD_DIR]
#
# The runtime's hot path against a pure-Java recorder written like Matrix's
# AppMethodBeat (java/MatrixBeat.java), on HotSpot, in one run:
#  1. per-event cost: i(a) i(b) o(b) o(a) in a loop inside one main-looper
#     message, both recorders in one JVM, alternating, median of 7 rounds of
#     100M events each; plus the cost of one JNI call (the floor of a
#     JNI-per-event design) and of an event outside a message (it reads the
#     clock); once with raw Unsafe stores (HotSpot, ART >= 7) and once with
#     the ByteBuffer path; and with every thread recording (threads = all):
#     ours on the main thread and on a second thread (target: within 1.5x of
#     ours main-only; the peer records its main thread only)
#  2. end-to-end: java/Workload.java (a small compiler pipeline, every method
#     traced) untraced, traced by the peer, traced by ours, in turn in one
#     JVM: median ms per pass over the last 300 of 600 passes; the median of
#     5 JVMs
# Prints a markdown table. Not part of `meson test`; takes about 3 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=${1:-/tmp/tc-bench-build}
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" -Dcompiler=disabled -Dtests=disabled \
  -Dbuildtype=release >/dev/null
ninja -C "$build" runtime/tracecanary-runtime.jar runtime/libtracecanary.so >/dev/null
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
mkdir "$classes/src"
for v in None Peer Ours; do
  sed "s/\bWorkload\b/Workload$v/g; s/\bBeat\.\([io]\)(/Beat$v.\1(/g" "$here/java/Workload.java" \
    >"$classes/src/Workload$v.java"
done
javac -nowarn -Xlint:-options -source 8 -target 8 -cp "$build/runtime/tracecanary-runtime.jar" -d "$classes" \
  "$here"/java/Bench.java "$here"/java/MatrixBeat.java "$here"/java/Beats.java "$classes"/src/*.java \
  "$here"/java/com/tencent/matrix/trace/core/JniCall.java 2>"$classes/javac.log" || { cat "$classes/javac.log" >&2; exit 1; }
cp="$classes:$build/runtime/tracecanary-runtime.jar:$build/runtime/android-stubs.jar"
run() { java -Xss8m -Dtc.lib="$build/runtime/libtracecanary.so" -cp "$cp" "$@"; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }

echo "java: $(java -version 2>&1 | head -1); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
micro=$(run Bench micro 7)
micro_bb=$(run -Dtc.raw=false Bench micro 7)
micro_all=$(run Bench micro-threads 7)
echo "$micro" >&2
echo "$micro_bb" >&2
echo "$micro_all" >&2

for i in 1 2 3 4 5; do
  run Bench workload 600 | tee -a "$classes/wl" >&2
done
med() { field "$1" <"$classes/wl" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
none=$(med none); peer=$(med peer); ours=$(med ours)
events=$(head -1 "$classes/wl" | field events_per_pass)

peer_ns=$(echo "$micro" | field peer_ns); ours_ns=$(echo "$micro" | field ours_ns)
out_ns=$(echo "$micro" | field ours_outside_ns)
jni_ns=$(echo "$micro" | field jni_call_ns); loop_ns=$(echo "$micro" | field loop_ns)
bb_peer=$(echo "$micro_bb" | field peer_ns); bb_ours=$(echo "$micro_bb" | field ours_ns)
all_peer=$(echo "$micro_all" | field peer_ns); all_main=$(echo "$micro_all" | field ours_main_ns)
all_thread=$(echo "$micro_all" | field ours_thread_ns)
awk -v pn="$peer_ns" -v on="$ours_ns" -v jn="$jni_ns" -v ln="$loop_ns" -v bp="$bb_peer" -v bo="$bb_ours" -v xn="$out_ns" \
    -v n="$none" -v p="$peer" -v o="$ours" -v ev="$events" -v ap="$all_peer" -v am="$all_main" -v at="$all_thread" 'BEGIN {
  print "| measure | Matrix-like Java recorder | tracecanary | ratio (ours / peer) |"
  print "|---|---|---|---|"
  printf "| per event, raw stores (ns) | %.2f | %.2f | %.2f |\n", pn, on, on / pn
  printf "| per event, ByteBuffer path (ns) | %.2f | %.2f | %.2f |\n", bp, bo, bo / bp
  printf "| per event outside a message, raw stores, reading the clock (ns) | | %.2f | |\n", xn
  printf "| threads = all, main thread, raw stores (ns) | %.2f | %.2f | %.2f (%.2fx main-only) |\n", ap, am, am / ap, am / on
  printf "| threads = all, a second thread, raw stores (ns) | %.2f (main) | %.2f | %.2f (%.2fx main-only) |\n", ap, at, at / ap, at / on
  printf "| one JNI call, for scale (ns) | | %.2f | %.2f |\n", jn, jn / pn
  printf "| empty loop iteration, for scale (ns) | %.2f | | |\n", ln
  printf "| workload pass, untraced: %.3f ms; traced (ms) | %.3f | %.3f | %.2f |\n", n, p, o, o / p
  printf "| workload time added by tracing (ms) | %.3f | %.3f | %.2f |\n", p - n, o - n, (o - n) / (p - n)
  printf "| workload overhead vs untraced | %+.1f%% | %+.1f%% | |\n", (p / n - 1) * 100, (o / n - 1) * 100
  printf "| events per workload pass | %d | %d | |\n", ev, ev
}'
