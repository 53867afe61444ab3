#!/bin/sh
# bench/runtime/ticks.sh [BUILD_DIR] [SECONDS] [RUNS] [TICKS...]
#
# The clock thread's tick (Config.clockResolutionMs) against what it costs: a busy app
# (java/Ticks.java: the stub main looper, 60 frames a second, each a message of about
# 10 ms of traced work) run once per tick and run, SECONDS (default 5) busy seconds each,
# RUNS (default 3) runs per tick, ticks 1 2 5 10 unless given. For each tick: the clock
# thread's wake-ups a second (its context switches in /proc, over the busy seconds; idle,
# it has none), its CPU time (schedstat), and how far the ring's durations of steps of known length (0.2 to 4 ms)
# are from their true ones: mean and 95th percentile of |recorded - true| in ms, and the
# share of steps under 1 ms that read 0 ms. Medians over the runs. Prints a markdown
# table. Not part of `meson test`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=${1:-/tmp/tc-bench-build}
seconds=${2:-5}
runs=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
ticks=${*:-1 2 5 10}
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" -Dcompiler=disabled -Dtests=disabled \
  -Dbuildtype=release >/dev/null
ninja -C "$build" runtime/tracecanary-runtime.jar runtime/libtracecanary.so trace/tc-ringdump >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp="$build/runtime/tracecanary-runtime.jar:$build/runtime/android-stubs.jar"
javac -nowarn -Xlint:-options -source 8 -target 8 -cp "$cp" -d "$work" "$here/java/Ticks.java" 2>"$work/javac.log" ||
  { cat "$work/javac.log" >&2; exit 1; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "java: $(java -version 2>&1 | head -1); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for t in $ticks; do
  for r in $(seq "$runs"); do
    rm -f "$work/ring" "$work/ring.prev"
    java -Dtc.lib="$build/runtime/libtracecanary.so" -cp "$work:$cp" Ticks "$t" "$seconds" "$work/ring" "$work/true" \
      >"$work/out" 2>"$work/err" || { cat "$work/out" "$work/err" >&2; exit 1; }
    "$build/trace/tc-ringdump" "$work/ring" >"$work/dump"
    # "seq in|out id ms": each step's recorded ms, in order, beside its true ns
    awk '$3 == 900 && $2 == "in" {t = $4} $3 == 900 && $2 == "out" {print $4 - t}' "$work/dump" >"$work/rec"
    n_rec=$(wc -l <"$work/rec"); n_true=$(wc -l <"$work/true")
    [ "$n_rec" -eq "$n_true" ] || { echo "tick $t: $n_rec recorded steps, $n_true run" >&2; exit 1; }
    # |recorded - true| per step, sorted (POSIX awk has no sort), and the steps under 1 ms
    paste "$work/rec" "$work/true" | awk '{ e = $1 - $2 / 1e6; print (e < 0 ? -e : e) }' | sort -g >"$work/err"
    acc=$(awk '{ v[NR] = $1; sum += $1 } END {
        k = int(NR * 0.95); if (k < 1) k = 1; printf "mean=%.3f p95=%.3f", sum / NR, v[k] }' "$work/err")
    acc="$acc $(paste "$work/rec" "$work/true" | awk '$2 < 1e6 { short++; if ($1 == 0) zero++ }
        END { printf "zero=%.2f", short ? zero / short : 0 }')"
    echo "$(cat "$work/out") $acc" | tee -a "$work/runs" >&2
  done
done
printf '| tick (ms) | clock wake-ups / s, busy | clock CPU ms / s | share of time in messages | mean error (ms) | p95 error (ms) | steps < 1 ms read as 0 ms |\n'
printf '|---|---|---|---|---|---|---|\n'
for t in $ticks; do
  grep "^tick_ms=$t " "$work/runs" >"$work/t"
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$t" "$(field wakeups_per_s <"$work/t" | median)" \
    "$(field cpu_ms_per_s <"$work/t" | median)" \
    "$(field busy_share <"$work/t" | median)" "$(field mean <"$work/t" | median)" \
    "$(field p95 <"$work/t" | median)" "$(field zero <"$work/t" | median)"
done
