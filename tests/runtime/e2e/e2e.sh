#!/usr/bin/env bash
# e2e.sh MODE: runs E2e.java on HotSpot with the runtime jar and library.
# Environment (set by meson): JAVA, CLASSPATH_E2E (the test and the runtime),
# STUBS_JAR (the android.* stubs), TC_LIB, TC_RINGDUMP, TC_TRACE, and under sanitizers
# SAN_PRELOAD.
#   slow, anr: E2e checks its own reports.
#   idle-lag, idle-lag-api21: idle handlers wrapped on API 23 (a slow one
#              reported, the app's own kept), off on API 21 with a warning.
#   signal:    SIGQUIT (kill -QUIT) while healthy, while stuck, while another app
#              and then this process are NOT_RESPONDING (stub ActivityManager): two
#              SIGNAL_ANR reports, and HotSpot prints its thread dump 4 times (chaining).
#   api21:     slow, with the stubs behaving as API 21.
#   message-queue-37, message-queue-37-legacy: Android 17 with an app targeting
#              37 (the lock-free MessageQueue: the queue probe and idle-handler
#              wrapper off, one warning) and 36 (the legacy one: both on).
#   startup:   a launch through ActivityThread's handler as on Android 9
#              (EXECUTE_TRANSACTION) gives the start-up report;
#   startup-hidden: the same on a device that refuses reflection into the
#              launch transaction: the first activity create stands in.
#   api:       the Java API's promises (library errors, the recording thread,
#              status during release).
#   release-listener: a report listener calling status() while release()
#              joins its thread (a watchdog ends a hang after 20 s).
#   zygote:    ART without a main looper (an app zygote's preload): traced
#              code, start and install start no thread.
#   idle-time: traced code in an idle handler gets its own time, not the end
#              of the message before it (the ring, read with tc-ringdump).
#   printer, printer-hidden: a printer the app sets after install, with
#              reflection allowed (forwarded to) and refused (left alone).
#   expire:    never started: released on the main looper after expireMs.
#   frames, frame-metrics: late frames, a refresh-rate switch and an idle app,
#              on API 23 (Choreographer) and API 31 (FrameMetrics).
#   frame-metrics-destroy: API 24, an activity whose window is drawn without
#              hardware acceleration is destroyed (the framework throws when
#              a listener it never took is removed).
#   crash:     E2e writes a file-backed ring and is killed with kill -9, twice
#              with one path: the first launch's ring is FILE.prev, decoded
#              with tc-ringdump and tc-trace; FILE is the second's.
#   crash-busy-message, crash-busy-outside: killed while it writes without end,
#              in a message or outside one: the file holds what was written a
#              clock tick before (the staging ring's copies).
#   threads:   every thread records: workers writing at once into rings of
#              their own, sections, a thread past the cap while they live
#              (tc-ringdump reads the ring file and the thread file)
#   threads-churn: twelve threads one after the other, two rings: each
#              thread's ring goes to the next once it ended (generations)
#   view-phases, view-phases-api23, view-phases-api25: a slow frame's view phases in
#              its report (FrameMetrics on API 31, Choreographer on 23 and 25).
#   block, block-api21: the block context (usage, CPU, GC) of a sleeping, a busy and
#              a GC-forcing message, on API 34 and API 21 (GC unknown); tc-trace
#              passes the keys through.
#   threads-filter: threads = all narrowed by Config.threadNames and a thread
#              interceptor (tc-ringdump reads the thread file).
#   hooks:     the PLT-hook tracers on a JNI library of our own (TC_FAKE, playing
#              libandroid_runtime.so and libinput.so): priority changes of the
#              main thread with the changer's Java stack, a slow input event.
#   unsafe-blocked: a device whose hidden-API policy blocks Unsafe.putOrderedLong
#              (unsafe/sun/misc/Unsafe.java, -Dtc.e2e.unsafe=blocked): the app runs, nothing is recorded,
#              one log line and the first report say why (needs JAVAC).
#   buildid-jar: the lazy run with the runtime's jar as tc-instrument wrote it (the
#              build-id marker its last entry): the ring has the id, tc-trace refuses
#              another build's mapping (needs TC_INSTRUMENT).
#   buildid-dex, buildid-apk: the same with the runtime dexed by dx (needs TC_SRC for
#              the download cache, and enjarify): a dex, and an APK of two dex files,
#              through tc-instrument (the marker added to one dex); the marker's dex
#              back to class files by enjarify, run on HotSpot as in buildid-jar.
#   lazy:      the first traced call loads the library from
#              java.library.path and records into the default ring; start
#              asks for a file ring, which tc-ringdump then decodes.
set -u
mode=$1
# A JNI library built with ASan needs the ASan runtime loaded first; the JVM
# uses SIGSEGV itself, so ASan must leave that signal alone. LeakSanitizer cannot
# stop the JVM's threads at exit (it crashes in its tracer), so leaks are checked
# by the C tests instead. These options come last: the last setting wins over the
# detect_leaks=1 that scripts/test.sh exports.
if [ -n "${SAN_PRELOAD:-}" ]; then
  [ -f "$SAN_PRELOAD" ] || { echo "sanitizer runtime $SAN_PRELOAD not found: skipped"; exit 77; }
  export LD_PRELOAD="$SAN_PRELOAD"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
# run_java [JVM OPTIONS...] -- E2E ARGUMENTS...
run_java() {
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  "$JAVA" -Xcheck:jni -Xss4m -Dtc.lib="$TC_LIB" "${opts[@]}" -cp "$CLASSPATH_E2E:$STUBS_JAR" E2e "$@"
}
# run_hidden [JVM OPTIONS...] -- E2E ARGUMENTS...: the stubs as a device that refuses
# reflection into hidden members (a named module; JVM options may open packages)
run_hidden() {
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  "$JAVA" -Xcheck:jni -Xss4m -Dtc.lib="$TC_LIB" "${opts[@]}" --module-path "$STUBS_JAR" \
    --add-modules android.stubs -cp "$CLASSPATH_E2E" E2e "$@"
}
# stub_unsafe DIR: the stub sun.misc.Unsafe (unsafe/sun/misc/Unsafe.java) compiled into the
# JDK's module jdk.unsupported, in DIR (JAVAC); -Dtc.e2e.unsafe= says how it behaves
stub_unsafe() {
  local here
  here=$(cd "$(dirname "$0")" && pwd)
  "$JAVAC" -nowarn --patch-module jdk.unsupported="$here/unsafe" \
    --add-exports java.base/jdk.internal.misc=jdk.unsupported -d "$1" "$here/unsafe/sun/misc/Unsafe.java"
}
case "$mode" in
unsafe-blocked)
  model=$(mktemp -d)
  trap 'rm -rf "$model"' EXIT
  stub_unsafe "$model" || exit 1
  run_java --patch-module jdk.unsupported="$model" --add-exports java.base/jdk.internal.misc=jdk.unsupported \
    -Dtc.e2e.unsafe=blocked -- unsafe-blocked
  ;;
hooks)
  run_java -Dtc.fake="$TC_FAKE" -- hooks
  ;;
self-check|self-check-slow)
  # the start's self-check of the writers; -slow: a stub Unsafe whose putOrderedLong is a
  # call of about 1 us (stub_unsafe, -Dtc.e2e.unsafe=slow)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  if [ "$mode" = self-check-slow ]; then
    stub_unsafe "$dir/model" || exit 1
    run_java --patch-module jdk.unsupported="$dir/model" --add-exports java.base/jdk.internal.misc=jdk.unsupported \
      -Dtc.e2e.unsafe=slow -- self-check "$dir/ring" true || exit 1
  else
    run_java -- self-check "$dir/ring" false || exit 1
  fi
  "$TC_RINGDUMP" -q "$dir/ring" >"$dir/dump" || { echo "tc-ringdump failed"; exit 1; }
  ns=$(sed -n 's/^self-check: \([0-9]*\)\.[0-9]* ns per event$/\1/p' "$dir/dump")
  echo "# the ring's header: ${ns:-nothing} ns per event"
  [ -n "$ns" ] || { echo "not ok - the ring's header has no self-check"; exit 1; }
  if [ "$mode" = self-check-slow ]; then
    [ "$ns" -gt 200 ] || { echo "not ok - the ring says $ns ns, under the threshold"; exit 1; }
  fi
  echo "ok - the ring's header has the self-check's figure"
  ;;
slow|anr)
  run_java -- "$mode"
  ;;
idle-lag)
  run_java -Dtc.sdk=23 -- idle-lag
  ;;
idle-lag-api21)
  run_java -Dtc.sdk=21 -- idle-lag
  ;;
signal)
  # SIGQUIT 4 times: E2e checks the reports; HotSpot's own handler must still
  # print its thread dump each time (our handler chains)
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  run_java -- signal >"$out" 2>&1
  rc=$?
  grep -a '^log \|^ok - \|^not ok - \|^# \|^SIGQUIT \|passed\|Matrix\|Warning' "$out"
  dumps=$(grep -c '^Full thread dump' "$out")
  echo "HotSpot thread dumps: $dumps"
  [ "$rc" -eq 0 ] || { echo "E2e signal failed ($rc)"; exit 1; }
  [ "$dumps" -eq 4 ] || { echo "not ok - HotSpot printed $dumps thread dumps, wanted 4 (chaining)"; exit 1; }
  echo "ok - HotSpot's dump still printed for each of the 4 SIGQUITs"
  ;;
message-queue-37)
  # Android 17, an app targeting 37: the lock-free MessageQueue
  run_java -Dtc.sdk=37 -- message-queue true
  ;;
message-queue-37-legacy)
  # Android 17, an app targeting 36: the legacy one
  run_java -Dtc.sdk=37 -Dtc.targetSdk=36 -- message-queue false
  ;;
api21)
  # an Android 5.0 device: the stubs lack what API 21 lacks (Looper.getQueue, API 23)
  run_java -Dtc.sdk=21 -- slow
  ;;
startup)
  run_java -Dtc.sdk=28 -- startup 159
  ;;
api|printer|expire|release-listener|zygote)
  run_java -- "$mode"
  ;;
frames)
  # API 23: frames from Choreographer
  run_java -Dtc.sdk=23 -- frames
  ;;
frame-metrics)
  # API 31: frames from FrameMetrics
  run_java -Dtc.sdk=31 -- frame-metrics
  ;;
frame-metrics-destroy)
  # API 24, the first with FrameMetrics: a window drawn in software, then destroyed
  run_java -Dtc.sdk=24 -- frame-metrics-destroy
  ;;
printer-hidden)
  run_hidden -- printer-hidden
  ;;
idle-time)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  run_java -- idle-time "$dir/ring" || exit 1
  "$TC_RINGDUMP" "$dir/ring" >"$dir/dump" || { echo "tc-ringdump failed"; exit 1; }
  # "seq in|out id ms": the idle handler's call against the end of the message before it
  end=$(awk '$2 == "out" && $3 == 1048574 {end = $4} $2 == "in" && $3 == 9 {print end; exit}' "$dir/dump")
  at=$(awk '$2 == "in" && $3 == 9 {print $4; exit}' "$dir/dump")
  echo "# message ended at $end ms, the idle handler's traced call at $at ms"
  if [ -n "$end" ] && [ -n "$at" ] && [ "$at" -ge $((end + 90)) ]; then
    echo "ok - traced code outside a message has its own time"
  else
    echo "not ok - traced code outside a message has its own time"; cat "$dir/dump"; exit 1
  fi
  ;;
startup-hidden)
  # ActivityThread.mH and Handler.mCallback may be reflected on, the launch transaction
  # (android.app.servertransaction) may not
  run_hidden -Dtc.sdk=28 --add-opens android.stubs/android.app=ALL-UNNAMED \
    --add-opens android.stubs/android.os=ALL-UNNAMED -- startup 100
  ;;
crash)
  # Two launches with one ring file, each killed with kill -9 once it has written:
  # the file holds the second's ring, and FILE.prev the first's (the next launch
  # keeps it rather than renaming its own ring over it).
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  ring="$dir/ring"
  launch() { # launch N: starts a writer, waits for READY, kills it; its pid in pid_N
    # java itself in the background (not a function: $! must be its pid)
    "$JAVA" -Xcheck:jni -Dtc.lib="$TC_LIB" -cp "$CLASSPATH_E2E:$STUBS_JAR" E2e crash "$ring" >"$dir/out$1" 2>"$dir/err$1" &
    local p=$! i=0
    until grep -q READY "$dir/out$1" 2>/dev/null; do
      i=$((i + 1))
      if [ $i -gt 600 ] || ! kill -0 $p 2>/dev/null; then
        echo "writer $1 did not get ready"; cat "$dir/out$1" "$dir/err$1"; exit 1
      fi
      sleep 0.1
    done
    kill -9 $p
    wait $p 2>/dev/null
    kill -0 $p 2>/dev/null && { echo "writer $1 survived kill -9"; exit 1; }
    eval "pid_$1=$p"
  }
  launch 1
  launch 2
  pid=$pid_1
  "$TC_RINGDUMP" -s "$ring.prev" >"$dir/dump" || { echo "tc-ringdump of $ring.prev failed"; exit 1; }
  "$TC_RINGDUMP" -q "$ring" >"$dir/dump2" 2>"$dir/dump2.err" || { echo "tc-ringdump of $ring failed"; exit 1; }
  "$TC_TRACE" tree --ring "$ring.prev" >"$dir/tree" 2>"$dir/tree.err" || { echo "tc-trace of $ring.prev failed"; cat "$dir/tree.err"; exit 1; }
  "$TC_TRACE" messages --ring "$ring" >/dev/null 2>"$dir/note" || { echo "tc-trace of $ring failed"; cat "$dir/note"; exit 1; }
  pass=0 fail=0
  expect() { # expect DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
  }
  head -3 "$dir/dump"
  expect "the first launch's ring is FILE.prev: started, capacity 4096, 2001 events written, its pid" \
    grep -q "capacity 4096, written 2001, pid $pid, status 2" "$dir/dump"
  expect "all 2001 events survived" grep -q "^events: 2001 from seq 0" "$dir/dump"
  expect "crashLoop entered first" grep -q "^0 in 300 " "$dir/dump"
  expect "the last step left last" grep -q "^2000 out 301 " "$dir/dump"
  expect "1000 steps in" test "$(grep -c ' in 301 ' "$dir/dump")" -eq 1000
  expect "the 1000 steps merge into one stack line under the loop that never ended" \
    grep -q "^1,301,1000," "$dir/dump"
  expect "FILE is the second launch's ring" grep -q "capacity 4096, written 2001, pid $pid_2, status 2" "$dir/dump2"
  grep -q "capacity 4096, written 2001, pid $pid_2, status 2" "$dir/dump2" ||
    { echo "# the second launch is pid $pid_2; tc-ringdump -q FILE says:"; sed 's/^/#   /' "$dir/dump2" "$dir/dump2.err" | head -n 8; }
  expect "tc-ringdump says FILE.prev is there" grep -q "ring.prev holds the ring of the run before" "$dir/dump2.err"
  expect "tc-trace reads FILE.prev: the loop that never ended and its 1000 steps" \
    grep -q "1000  *#301" "$dir/tree"
  expect "tc-trace, reading FILE, says FILE.prev is there" grep -q "ring.prev holds the ring of the run before" "$dir/note"
  echo "$pass passed, $fail failed"
  [ $fail -eq 0 ]
  ;;
crash-busy-message|crash-busy-outside)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  ring="$dir/ring"
  "$JAVA" -Xcheck:jni -Dtc.lib="$TC_LIB" -cp "$CLASSPATH_E2E:$STUBS_JAR" E2e crash-busy "$ring" \
    "${mode#crash-busy-}" >"$dir/out" 2>"$dir/err" &
  pid=$!
  i=0
  until grep -q MARK "$dir/out" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
      echo "writer did not get to its mark"; cat "$dir/out" "$dir/err"; kill -9 $pid; exit 1
    fi
    sleep 0.05
  done
  # the writer goes on; the bound is one clock tick (5 ms by default) and the clock thread's turn
  sleep 0.2
  kill -9 $pid
  wait $pid 2>/dev/null
  mark=$(sed -n 's/^MARK //p' "$dir/out")
  "$TC_RINGDUMP" -q "$ring" >"$dir/dump" || { echo "tc-ringdump failed"; exit 1; }
  head -1 "$dir/dump"
  written=$(sed -n 's/.*, written \([0-9]*\),.*/\1/p' "$dir/dump")
  pass=0 fail=0
  expect() { # expect DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
  }
  expect "the file holds the $mark events written 200 ms before the kill ($written)" test "${written:-0}" -ge "$mark"
  expect "and its newest events are the writer's, in and out in turn" \
    sh -c "'$TC_RINGDUMP' '$ring' | grep -E '^[0-9]+ (in|out) ' | tail -4 | awk '{print \$3}' | uniq | grep -qx 500"
  echo "$pass passed, $fail failed"
  [ $fail -eq 0 ]
  ;;
lazy)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  ring="$dir/ring"
  "$JAVA" -Xcheck:jni -Xss4m -Djava.library.path="$(dirname "$TC_LIB")" -Dtc.lib="$TC_LIB" \
    -cp "$CLASSPATH_E2E:$STUBS_JAR" E2e lazy "$ring" || exit 1
  "$TC_RINGDUMP" -s "$ring" >"$dir/dump" || { echo "tc-ringdump failed"; exit 1; }
  head -3 "$dir/dump"
  pass=0 fail=0
  expect() { # expect DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
  }
  expect "the file is the ring start asked for (capacity 4096), released at the end" \
    grep -q "capacity 4096, written [0-9]*, pid [0-9]*, status -3" "$dir/dump"
  expect "nothing lost: the events start at seq 0" grep -q "^events: [0-9]* from seq 0" "$dir/dump"
  expect "earlyInit, recorded before start, comes first" \
    sh -c "sed -n '/^events:/{n;p;n;p;n;p;q}' '$dir/dump' | tr '\n' ' ' | grep -q '^0 in 1 [0-9]* 1 out 1 [0-9]* 2 in 2 '"
  expect "appOnCreate, entered before the move, left after it" grep -q " out 2 " "$dir/dump"
  expect "slowWork recorded into the file" grep -q " in 100 " "$dir/dump"
  expect "the other thread's calls were ignored" test "$(grep -c ' in 7 ' "$dir/dump")" -eq 0
  echo "$pass passed, $fail failed"
  [ $fail -eq 0 ]
  ;;
buildid-jar|buildid-dex|buildid-apk)
  # The build id from a jar, dex or APK output (issue 29): tc-instrument gives the
  # runtime's own classes (nothing in com.tencent.matrix is traced) the marker class, once
  # per build: the last entry of an output jar, a class added to one dex. The lazy run
  # with that output in place of the runtime's jar records the id in its ring, and
  # tc-trace takes that build's mapping and refuses another's. Dex and APK outputs run on
  # HotSpot through enjarify's translation of the marker's dex (the runtime's classes it
  # cannot translate, invoke-custom lambdas, come from the runtime's jar behind it: none
  # of them the marker, which the jar lacks).
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  rt=${CLASSPATH_E2E##*:}
  if [ "$mode" = buildid-jar ]; then
    "$TC_INSTRUMENT" --quiet --no-runtime-check --mapping-dir "$dir/map" --in "$rt" --out "$dir/rt.jar" || exit 1
    cp_out="$dir/rt.jar"
  else
    . "$TC_SRC/tests/lib/need.sh"
    need_cmd enjarify enjarify
    need_cmd dexdump dexdump
    dx_jar=$(python3 "$TC_SRC/tests/lib/maven_fetch.py" com.jakewharton.android.repackaged:dalvik-dx:16.0.1) ||
      { echo "dalvik-dx is not in the download cache and cannot be fetched (tests/lib/maven_fetch.py)"; exit 1; }
    dx() { "$JAVA" -cp "$dx_jar" com.android.dx.command.Main --dex --min-sdk-version=26 "$@"; }
    dx --output="$dir/rt.dex" "$rt" || exit 1
    if [ "$mode" = buildid-dex ]; then
      "$TC_INSTRUMENT" --quiet --no-runtime-check --mapping-dir "$dir/map" --in "$dir/rt.dex" --out "$dir/out.dex" || exit 1
      marked="$dir/out.dex"
    else
      # an app of two dex files: the runtime's, and the stubs' as a second
      mkdir "$dir/apk" "$dir/o"
      cp "$dir/rt.dex" "$dir/apk/classes.dex"
      dx --output="$dir/apk/classes2.dex" "$STUBS_JAR" || exit 1
      (cd "$dir/apk" && zip -qX ../in.apk classes.dex classes2.dex) || exit 1
      "$TC_INSTRUMENT" --quiet --no-runtime-check --mapping-dir "$dir/map" --in "$dir/in.apk" --out "$dir/out.apk" || exit 1
      (cd "$dir/o" && unzip -q ../out.apk 'classes*.dex') || exit 1
      marked=
      for d in "$dir"/o/classes*.dex; do
        if dexdump "$d" 2>/dev/null | grep -q "Class descriptor  : 'Lcom/tencent/matrix/trace/generated/BuildId;'"; then
          [ -z "$marked" ] || { echo "not ok - the marker class is in $marked and in $d: one per build"; exit 1; }
          marked=$d
        fi
      done
      [ -n "$marked" ] || { echo "not ok - no dex of the APK defines the marker class"; exit 1; }
      echo "ok - the marker class is in one dex of the APK ($(basename "$marked"))"
    fi
    PYTHON=/usr/bin/python3 enjarify -f -o "$dir/back.jar" "$marked" >"$dir/enjarify.log" 2>&1
    unzip -l "$dir/back.jar" | grep -q 'com/tencent/matrix/trace/generated/BuildId.class' ||
      { cat "$dir/enjarify.log"; echo "not ok - enjarify translated the marker class"; exit 1; }
    cp_out="$dir/back.jar:$rt"
  fi
  id=$(cat "$dir/map/buildId")
  "$JAVA" -Xcheck:jni -Xss4m -Djava.library.path="$(dirname "$TC_LIB")" -Dtc.lib="$TC_LIB" \
    -cp "${CLASSPATH_E2E%:*}:$cp_out:$STUBS_JAR" E2e lazy "$dir/ring" >"$dir/out" 2>&1 || { cat "$dir/out"; exit 1; }
  pass=0 fail=0
  expect() { # expect DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
  }
  expect "the ring records the ${mode#buildid-} output's build id ($id)" \
    sh -c "'$TC_RINGDUMP' -q '$dir/ring' | grep -qx 'build id: $id'"
  "$TC_TRACE" tree --ring "$dir/ring" --mapping "$dir/map/methodMapping.txt" -o "$dir/tree.txt" 2>"$dir/err"
  expect "its own mapping: decoded, exit 0, no build-id note" sh -c "[ $? -eq 0 ] && ! grep -qi build '$dir/err'"
  { cat "$dir/map/methodMapping.txt"; echo "1,1,x.Other run ()V"; } >"$dir/other.txt"
  "$TC_TRACE" tree --ring "$dir/ring" --mapping "$dir/other.txt" -o "$dir/tree2.txt" 2>"$dir/err"
  rc=$?
  expect "another build's mapping: refused, exit 1" sh -c "[ $rc -eq 1 ] && grep -qF 'was recorded by build $id, but $dir/other.txt is the mapping of build' '$dir/err'"
  echo "$pass passed, $fail failed"
  [ $fail -eq 0 ]
  ;;
view-phases|view-phases-api23|view-phases-api25)
  # the view phases of a slow frame: from FrameMetrics on API 31; from Choreographer's
  # queues on API 23; on API 25, FrameMetrics for the frame tracer (they carry no vsync
  # there) and Choreographer for the phases
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  case $mode in
  view-phases) run_java -Dtc.sdk=31 -- view-phases FrameMetrics false "$dir/reports.jsonl" || exit 1 ;;
  view-phases-api23) run_java -Dtc.sdk=23 -- view-phases Choreographer false "$dir/reports.jsonl" || exit 1 ;;
  *) run_java -Dtc.sdk=25 -- view-phases Choreographer true "$dir/reports.jsonl" || exit 1 ;;
  esac
  # tc-trace keeps the new keys: in its text, and in the HTML page's report data
  "$TC_TRACE" reports --reports "$dir/reports.jsonl" --format text >"$dir/text" || { echo "tc-trace reports failed"; exit 1; }
  grep -q '^  blockContext: {.*"viewPhases":{"source":"[A-Za-z]*","frames":1,' "$dir/text" \
    || { echo "not ok - tc-trace's text shows the view phases"; exit 1; }
  echo "ok - tc-trace's text shows the view phases"
  "$TC_TRACE" html --ring "$dir/ring" --reports "$dir/reports.jsonl" -o "$dir/report.html" \
    || { echo "tc-trace html failed"; exit 1; }
  grep -q '"viewPhases":{"source":"[A-Za-z]*","frames":1,' "$dir/report.html" \
    || { echo "not ok - tc-trace html keeps the view phases"; exit 1; }
  echo "ok - tc-trace html keeps the view phases"
  ;;
block|block-api21)
  # the block context: usage, CPU and GC in slow-message reports (E2e checks them);
  # tc-trace passes the new keys through, in JSON and text
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  if [ "$mode" = block ]; then
    run_java -- block "$dir/reports.jsonl" true || exit 1
  else
    run_java -Dtc.sdk=21 -- block "$dir/reports.jsonl" false || exit 1
  fi
  "$TC_TRACE" reports --reports "$dir/reports.jsonl" >"$dir/json" || { echo "tc-trace reports failed"; exit 1; }
  "$TC_TRACE" reports --reports "$dir/reports.jsonl" --format text >"$dir/text" || { echo "tc-trace reports --format text failed"; exit 1; }
  grep -m3 'usage\|blockContext' "$dir/text"
  n=$(grep -c '"usage":"[0-9.]*%","blockContext":{"why":"ran [0-9]*% of the time: [a-z]*' "$dir/json")
  [ "$n" -ge 3 ] || { echo "not ok - tc-trace reports keeps usage and blockContext ($n lines)"; exit 1; }
  echo "ok - tc-trace reports keeps usage and blockContext"
  grep -q '^  blockContext: {"why":"ran [0-9]*% of the time: blocked' "$dir/text" \
    || { echo "not ok - tc-trace's text shows the block context"; exit 1; }
  echo "ok - tc-trace's text shows the block context"
  # the HTML report embeds each report whole: the page shows keys it does not know
  "$TC_TRACE" html --ring "$dir/ring" --reports "$dir/reports.jsonl" -o "$dir/report.html" \
    || { echo "tc-trace html failed"; exit 1; }
  [ "$(grep -o '"blockContext":{"why":"ran [0-9]*% of the time' "$dir/report.html" | wc -l)" -ge 3 ] \
    || { echo "not ok - tc-trace html keeps blockContext"; exit 1; }
  echo "ok - tc-trace html keeps usage and blockContext"
  ;;
threads-filter)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  run_java -- threads-filter "$dir/ring" || exit 1
  "$TC_RINGDUMP" "$dir/ring-threads" >"$dir/threads" || { echo "tc-ringdump of the thread file failed"; exit 1; }
  grep '^thread\|rings used' "$dir/threads"
  fail=0
  for t in pool-1 pool-2 cb-yes; do
    grep -q "^thread: [0-9]* $t\$" "$dir/threads" && echo "ok - $t records" || { echo "not ok - $t records"; fail=1; }
  done
  for t in io-1 cb-no; do
    grep -q "^thread: [0-9]* $t\$" "$dir/threads" && { echo "not ok - $t does not record"; fail=1; } || echo "ok - $t does not record"
  done
  grep -q "3 of 8 rings used (3 handed out), pid [0-9]*, refused 0 threads, dropped 0 events" "$dir/threads" \
    && echo "ok - three rings, nothing refused or counted as dropped" \
    || { echo "not ok - three rings, nothing refused or counted as dropped"; fail=1; }
  exit $fail
  ;;
threads)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  run_java -- threads "$dir/ring" || exit 1
  "$TC_RINGDUMP" "$dir/ring" >"$dir/main" || { echo "tc-ringdump failed"; exit 1; }
  "$TC_RINGDUMP" "$dir/ring-threads" >"$dir/threads" || { echo "tc-ringdump of the thread file failed"; exit 1; }
  grep '^thread\|^ring\|^section' "$dir/main" "$dir/threads"
  pass=0 fail=0
  expect() { # expect DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
  }
  # one ring's event lines, by its thread's name
  ring_of() { awk -v n="$1" '/^ring /{r=0} $1 == "thread:" && $3 == n {r=1; next} r && /^[0-9]+ (in|out) /' "$dir/threads"; }
  expect "three rings, the fourth thread refused and its 512 events counted" \
    grep -q "3 of 3 rings used (3 handed out), pid [0-9]*, refused 1 threads, dropped 512 events" "$dir/threads"
  for k in 0 1 2; do
    ring_of worker-$k >"$dir/w$k"
    n=$((2000 + (k == 0 ? 2 : 0)))
    expect "worker-$k: its $n events, in its own ring" test "$(wc -l <"$dir/w$k")" -eq $n
    expect "worker-$k: only its own method, in and out in turn" \
      test "$(awk '$3 < 1048320 {print $2, $3}' "$dir/w$k" | uniq | sort | uniq -c | awk '{print $1, $2, $3}' | tr '\n' ' ')" \
      = "1000 in $((400 + k)) 1000 out $((400 + k)) "
  done
  expect "the worker's section, on its ring" grep -q '^[0-9]* in 1048321 ' "$dir/w0"
  expect "the main thread's ring is named and holds no worker's events" \
    sh -c "grep -q '^thread: [0-9]* main$' '$dir/main' && ! grep -q ' 4[0-9][0-9] [0-9]*$' '$dir/main'"
  expect "section names in the ring's header" \
    sh -c "grep -q '^section 1048320: cold start$' '$dir/main' && grep -q '^section 1048321: download$' '$dir/main'"
  expect "the main thread's section brackets its method" \
    sh -c "grep -A1 ' in 1048320 ' '$dir/main' | grep -q ' in 10 '"
  # tc-trace reads the same two files: a tree per thread, sections, tracks
  "$TC_TRACE" tree --ring "$dir/ring" >"$dir/tree" || { echo "tc-trace tree failed"; exit 1; }
  sed -n 1,20p "$dir/tree"
  for k in 0 1 2; do
    expect "tc-trace tree: worker-$k's node holds its 1000 calls of #$((400 + k))" \
      sh -c "grep -A1 '^ *[0-9]* *[0-9.]* *[0-9]* *1  thread worker-$k (tid' '$dir/tree' | grep -Eq ' 1000    #$((400 + k))\$'"
  done
  "$TC_TRACE" tree --ring "$dir/ring" --thread worker-1 >"$dir/w1tree"
  expect "tc-trace tree --thread worker-1: its method alone" \
    sh -c "grep -Eq ' 1000  #401\$' '$dir/w1tree' && ! grep -q '#400\|#402' '$dir/w1tree'"
  "$TC_TRACE" sections --ring "$dir/ring" >"$dir/sections"
  cat "$dir/sections"
  expect "tc-trace sections: cold start on main, download on worker-0" \
    sh -c "grep -Eq '^main \([0-9]+\) .*  cold start\$' '$dir/sections' && grep -Eq '^worker-0 \([0-9]+\) .*  download\$' '$dir/sections'"
  "$TC_TRACE" tree --ring "$dir/ring" --section download --thread worker-0 >"$dir/dltree"
  expect "tc-trace tree --section download: worker-0's method inside it" grep -q '#400$' "$dir/dltree"
  "$TC_TRACE" chrome --ring "$dir/ring" -o "$dir/trace.json"
  for n in main worker-0 worker-1 worker-2; do
    expect "tc-trace chrome: a track named $n" grep -qF "\"args\":{\"name\":\"$n\"}" "$dir/trace.json"
  done
  echo "$pass passed, $fail failed"
  [ $fail -eq 0 ]
  ;;
threads-churn)
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  run_java -- threads-churn "$dir/ring" || exit 1
  "$TC_RINGDUMP" "$dir/ring-threads" >"$dir/threads" || { echo "tc-ringdump of the thread file failed"; exit 1; }
  grep '^thread\|^ring\|rings used' "$dir/threads"
  pass=0 fail=0
  expect() { # expect DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
  }
  expect "pool-10 ended before pool-11 took the other ring" \
    sh -c "grep -A1 '^thread: [0-9]* pool-10\$' '$dir/threads' | grep -q 'generation 11, ended'"
  expect "two rings, twelve handed out, no thread refused, no event dropped" \
    grep -q "2 of 2 rings used (12 handed out), pid [0-9]*, refused 0 threads, dropped 0 events" "$dir/threads"
  # (pool-11's thread may still be ending when the runtime is released: ended or not)
  for k in 10 11; do
    expect "pool-$k, the last on its ring: generation $((k + 1)), its 200 events" \
      sh -c "grep -A1 '^thread: [0-9]* pool-$k\$' '$dir/threads' | grep -q 'generation $((k + 1)), ' &&
             test \$(awk -v n=pool-$k '/^ring /{r=0} \$1 == \"thread:\" && \$3 == n {r=1; next} r && / in $((600 + k)) /' '$dir/threads' | wc -l) -eq 100"
  done
  "$TC_TRACE" tree --ring "$dir/ring" >"$dir/tree" || { echo "tc-trace tree failed"; exit 1; }
  expect "tc-trace tree: the last two threads, each with its calls" \
    sh -c "grep -q 'thread pool-10 (tid' '$dir/tree' && grep -q 'thread pool-11 (tid' '$dir/tree' && grep -Eq ' 100 +#611\$' '$dir/tree'"
  echo "$pass passed, $fail failed"
  [ $fail -eq 0 ]
  ;;
*)
  echo "usage: e2e.sh slow|anr|signal|idle-lag|idle-lag-api21|message-queue-37|message-queue-37-legacy|api21|startup|startup-hidden|api|release-listener|zygote|idle-time|printer|printer-hidden|expire|frames|frame-metrics|frame-metrics-destroy|crash|crash-busy-message|crash-busy-outside|lazy|threads|threads-churn" >&2; exit 2 ;;
esac
