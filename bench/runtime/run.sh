#!/bin/sh
# bench/runtime/run.sh [BUILD_DIR [BASELINE_BUILD_DIR]]
#
# The runtime's hot path against a pure-Java recorder written like Matrix's
# AppMethodBeat (java/MatrixBeat.java), on HotSpot, in one run:
#  1. per-event cost: i(a) i(b) o(b) o(a) in a loop inside one main-looper
#     message, both recorders in one JVM, alternating, median of 7 rounds of
#     100M events each; plus the cost of one JNI call (the floor of a
#     JNI-per-event design) and of an event outside a message; and with
#     every thread recording (threads = all): ours on the main thread and on
#     a second thread (target: within 1.5x of ours main-only; the peer
#     records its main thread only). With BASELINE_BUILD_DIR (a build of
#     another revision, e.g. main's: see below), its per-event costs too,
#     JVMs of the two builds alternating, medians over 3 JVMs each.
#  2. calls per event: the invokes on each writer's per-event path, counted
#     in the class files by tc-hotpath (src/tc-hotpath/tc_hotpath.c), with what they
#     are on ART (intrinsic, Java, JNI), and the per-event check's verdict
#     (tests/runtime/hotpath: no JNI call, nothing API 21 lacks)
#  3. end-to-end: java/Workload.java (a small compiler pipeline, every method
#     traced) untraced, traced by the peer, traced by ours, in turn in one
#     JVM: median ms per pass over the last 300 of 600 passes; the median of
#     5 JVMs
# Prints a markdown table. Not part of `meson test`; takes about 5 minutes.
#
# A baseline build: git archive REV | tar -x -C DIR, then
#   meson setup BASE DIR -Dcompiler=disabled -Dtests=disabled -Dbuildtype=release
# (run.sh builds its jar and library).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=${1:-/tmp/tc-bench-build}
base=${2:-}
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" -Dtests=disabled -Dbuildtype=release >/dev/null
ninja -C "$build" runtime/tracecanary-runtime.jar runtime/libtracecanary.so src/tc-hotpath >/dev/null
[ -z "$base" ] || ninja -C "$base" runtime/tracecanary-runtime.jar runtime/libtracecanary.so >/dev/null
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
mkdir "$classes/src"
for v in None Peer Ours; do
  sed "s/\bWorkload\b/Workload$v/g; s/\bBeat\.\([io]\)(/Beat$v.\1(/g" "$here/java/Workload.java" \
    >"$classes/src/Workload$v.java"
done
compile() { # compile BUILD OUT
  mkdir -p "$2"
  javac -nowarn -Xlint:-options -source 8 -target 8 -cp "$1/runtime/tracecanary-runtime.jar" -d "$2" \
    "$here"/java/Bench.java "$here"/java/MatrixBeat.java "$here"/java/Beats.java "$classes"/src/*.java \
    "$here"/java/com/tencent/matrix/trace/core/JniCall.java 2>"$classes/javac.log" || { cat "$classes/javac.log" >&2; exit 1; }
}
compile "$build" "$classes/ours"
[ -z "$base" ] || compile "$base" "$classes/base"
# run BUILD CLASSES JAVA-ARGS...
run() {
  b=$1 c=$2
  shift 2
  java -Xss8m -Dtc.lib="$b/runtime/libtracecanary.so" -cp "$c:$b/runtime/tracecanary-runtime.jar:$build/runtime/android-stubs.jar" "$@"
}
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "java: $(java -version 2>&1 | head -1); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ -z "$base" ]; then
  micro=$(run "$build" "$classes/ours" Bench micro 7)
  echo "$micro" >&2
  printf '%s\n' "$micro" >"$classes/micro-ours"
else
  for i in 1 2 3; do # alternate the builds' JVMs
    run "$build" "$classes/ours" Bench micro 7 | tee -a "$classes/micro-ours" >&2
    run "$base" "$classes/base" Bench micro 7 | tee -a "$classes/micro-base" >&2
  done
fi
micro_all=$(run "$build" "$classes/ours" Bench micro-threads 7)
echo "$micro_all" >&2

for i in 1 2 3 4 5; do
  run "$build" "$classes/ours" Bench workload 600 | tee -a "$classes/wl" >&2
done
none=$(field none <"$classes/wl" | median); peer=$(field peer <"$classes/wl" | median)
ours=$(field ours <"$classes/wl" | median)
events=$(head -1 "$classes/wl" | field events_per_pass)

m() { field "$1" <"$classes/micro-$2" | median; }
peer_ns=$(m peer_ns ours); ours_ns=$(m ours_ns ours); out_ns=$(m ours_outside_ns ours)
jni_ns=$(m jni_call_ns ours); loop_ns=$(m loop_ns ours)
base_peer=; base_ns=; base_out=
if [ -n "$base" ]; then
  base_peer=$(m peer_ns base); base_ns=$(m ours_ns base); base_out=$(m ours_outside_ns base)
fi
all_peer=$(echo "$micro_all" | field peer_ns); all_main=$(echo "$micro_all" | field ours_main_ns)
all_thread=$(echo "$micro_all" | field ours_thread_ns)

# calls per event, from the class files: the recording thread's path (i() without the
# branch of other threads), and every thread's (i() whole); the check's verdict
P=com/tencent/matrix/trace/core
hot() {
  "$build/src/tc-hotpath" --intrinsics "$root/tests/runtime/hotpath/art-intrinsics.txt" \
    --api "$root/tests/runtime/hotpath/api.txt" --summary "$@" 2>/dev/null || true
}
calls() { sed -n 's/.*: \([0-9]*\) calls per event: \([0-9]*\) intrinsic, \([0-9]*\) Java, \([0-9]*\) JNI.*/\1 (\4 JNI)/p' | head -1; }
verdict() { sed -n 's/^verdict: //p'; }
jar=$build/runtime/tracecanary-runtime.jar
c_main=$(hot --skip $P/AppMethodBeat.other "$jar" "$P/AppMethodBeat.i(I)V" | calls)
c_all=$(hot "$jar" "$P/AppMethodBeat.i(I)V" | calls)
v_ours=$(hot "$jar" "$P/AppMethodBeat.i(I)V" "$P/AppMethodBeat.o(I)V" | verdict)
(cd "$classes/ours" && jar cf "$classes/peer.jar" MatrixBeat*.class)
c_peer=$(hot "$classes/peer.jar" "MatrixBeat.i(I)V" | calls)
c_base=; v_base=
if [ -n "$base" ]; then
  # the baseline's recording thread in a message: its raw-Unsafe branch (the others left out)
  bj=$base/runtime/tracecanary-runtime.jar
  c_base=$(hot --skip $P/AppMethodBeat.other --skip $P/AppMethodBeat.iBuffer --skip $P/TraceCanary.beforeStart \
    --skip $P/AppMethodBeat.clockMs "$bj" "$P/AppMethodBeat.i(I)V" | calls)
  v_base=$(hot "$bj" "$P/AppMethodBeat.i(I)V" "$P/AppMethodBeat.o(I)V" | verdict)
fi

awk -v pn="$peer_ns" -v on="$ours_ns" -v jn="$jni_ns" -v ln="$loop_ns" -v xn="$out_ns" \
    -v bp="$base_peer" -v bn="$base_ns" -v bx="$base_out" \
    -v n="$none" -v p="$peer" -v o="$ours" -v ev="$events" -v ap="$all_peer" -v am="$all_main" -v at="$all_thread" \
    -v cm="$c_main" -v ca="$c_all" -v cp="$c_peer" -v cb="$c_base" -v vo="$v_ours" -v vb="$v_base" 'BEGIN {
  print "| measure | Matrix-like Java recorder | tracecanary | ratio (ours / peer) | calls per event (JNI on ART) | per-event check |"
  print "|---|---|---|---|---|---|"
  printf "| per event, recording thread in a message (ns) | %.2f | %.2f | %.2f | %s; peer %s | %s |\n", pn, on, on / pn, cm, cp, vo
  if (bn != "")
    printf "| the same, baseline build (ns) | %.2f | %.2f | %.2f | %s | %s |\n", bp, bn, bn / bp, cb, vb
  if (bn != "")
    printf "| this build / baseline, per event | | %.2f | | | |\n", on / bn
  printf "| per event outside a message (ns) | | %.2f | | %s | |\n", xn, cm
  if (bx != "")
    printf "| the same, baseline build (ns) | | %.2f | | | |\n", bx
  printf "| threads = all, main thread (ns) | %.2f | %.2f | %.2f (%.2fx main-only) | %s | |\n", ap, am, am / ap, am / on, cm
  printf "| threads = all, a second thread (ns) | %.2f (main) | %.2f | %.2f (%.2fx main-only) | %s, all threads | |\n", ap, at, at / ap, at / on, ca
  printf "| one JNI call, for scale (ns) | | %.2f | %.2f | | |\n", jn, jn / pn
  printf "| empty loop iteration, for scale (ns) | %.2f | | | | |\n", ln
  printf "| workload pass, untraced: %.3f ms; traced (ms) | %.3f | %.3f | %.2f | | |\n", n, p, o, o / p
  printf "| workload time added by tracing (ms) | %.3f | %.3f | %.2f | | |\n", p - n, o - n, (o - n) / (p - n)
  printf "| workload overhead vs untraced | %+.1f%% | %+.1f%% | | | |\n", (p / n - 1) * 100, (o / n - 1) * 100
  printf "| events per workload pass | %d | %d | | | |\n", ev, ev
}'
