#!/usr/bin/env bash
# check.sh: the per-event check of the runtime's writers (tc-hotpath, src/tc-hotpath/tc_hotpath.c)
# on the runtime jar as built: AppMethodBeat.i and o, and everything they call per event
# in the runtime's classes, make no JNI call on ART and use nothing Android 5.0 (API 21)
# lacks. Then on two copies of AppMethodBeat that break each rule (a clock read with
# System.nanoTime, a JNI call on ART; Unsafe.storeFence, which API 21 lacks), which it
# must catch, or it proves nothing.
# Environment (set by meson): TC_HOTPATH, RUNTIME_JAR, RUNTIME_SRC (runtime/java),
# STUBS_JAR, JAVAC, JAR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
roots=(com/tencent/matrix/trace/core/AppMethodBeat.i\(I\)V com/tencent/matrix/trace/core/AppMethodBeat.o\(I\)V)
check() { "$TC_HOTPATH" --intrinsics "$here/art-intrinsics.txt" --api "$here/api.txt" "$@"; }

echo "# the runtime jar"
check "$RUNTIME_JAR" "${roots[@]}" || exit 1

# mutant JAR_NAME SED_SCRIPT: the runtime jar with AppMethodBeat changed by the script
mutant() {
  local name=$1 script=$2 src=$RUNTIME_SRC/com/tencent/matrix/trace/core/AppMethodBeat.java
  mkdir -p "$dir/$name/src" "$dir/$name/classes"
  sed "$script" "$src" >"$dir/$name/src/AppMethodBeat.java"
  if cmp -s "$src" "$dir/$name/src/AppMethodBeat.java"; then
    echo "not ok - mutant $name: the script changed nothing (the writer moved on): update it"
    exit 1
  fi
  (cd "$dir/$name/classes" && "$JAR" xf "$RUNTIME_JAR")
  "$JAVAC" -nowarn -source 8 -target 8 -cp "$dir/$name/classes:$STUBS_JAR" -d "$dir/$name/classes" \
    "$dir/$name/src/AppMethodBeat.java" 2>"$dir/$name/javac.log" || { cat "$dir/$name/javac.log"; exit 1; }
  "$JAR" cf "$dir/$name.jar" -C "$dir/$name/classes" .
}
expect_fail() { # expect_fail NAME PATTERN: the check fails on the mutant and says why
  local name=$1 pattern=$2
  if check "$dir/$name.jar" "${roots[@]}" >"$dir/$name.out" 2>&1; then
    cat "$dir/$name.out"
    echo "not ok - $name passed the check"
    exit 1
  fi
  if ! grep -q -- "$pattern" "$dir/$name.out"; then
    cat "$dir/$name.out"
    echo "not ok - $name failed, but not for: $pattern"
    exit 1
  fi
  grep -- "$pattern" "$dir/$name.out" | head -2
  echo "ok - $name is caught"
}

echo "# the clock read per event with System.nanoTime (a JNI call on ART)"
mutant nanotime 's/long now = sNow;/long now = System.nanoTime() \/ 1000000L;/'
expect_fail nanotime 'JNI   java/lang/System.nanoTime()J'

echo "# a store fence per event (sun.misc.Unsafe.storeFence: an ART intrinsic, but of API 24)"
mutant fence 's/U.putOrderedLong(r, SEQ, s + 1); \/\/ after the event/U.storeFence(); U.putLong(r, SEQ, s + 1); \/\/ after the event/'
expect_fail fence 'storeFence()V: ART intrinsic UnsafeStoreFence (API 24)  <-- missing at the oldest API level'

# The writer before issue 19 (45bcd82's runtime classes, compiled from the repository's
# history when it has them: a shallow clone does not): it must fail, with the raw-address
# Unsafe accessors as JNI calls per event and missing at API 21.
old=45bcd82d4a1a06294cf9945b8f5db35c5436cd02
root=$(cd "$RUNTIME_SRC/../.." && pwd)
echo "# the writer before issue 19 ($old)"
if git -C "$root" cat-file -e "$old^{commit}" 2>/dev/null; then
  mkdir -p "$dir/old/src" "$dir/old/classes"
  git -C "$root" archive "$old" runtime/java | tar -x -C "$dir/old/src"
  find "$dir/old/src" -name '*.java' >"$dir/old/files"
  "$JAVAC" -nowarn -source 8 -target 8 -cp "$STUBS_JAR" -d "$dir/old/classes" @"$dir/old/files" \
    2>"$dir/old/javac.log" || { cat "$dir/old/javac.log"; exit 1; }
  "$JAR" cf "$dir/old.jar" -C "$dir/old/classes" .
  expect_fail old 'JNI   sun/misc/Unsafe.putLong(JJ)V: native, not an ART intrinsic (API 24)  <-- a JNI call per event  <-- missing at the oldest API level'
  # its recording thread in a message (its other branches left out): 5 JNI calls of 7
  check --summary --skip com/tencent/matrix/trace/core/AppMethodBeat.other \
    --skip com/tencent/matrix/trace/core/AppMethodBeat.iBuffer --skip com/tencent/matrix/trace/core/AppMethodBeat.oBuffer \
    --skip com/tencent/matrix/trace/core/TraceCanary.beforeStart --skip com/tencent/matrix/trace/core/AppMethodBeat.clockMs \
    "$dir/old.jar" "${roots[@]}" 2>&1 | grep 'calls per event' || true
else
  echo "# skipped: $old is not in this clone's history"
fi
