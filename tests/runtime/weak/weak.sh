#!/usr/bin/env bash
# weak.sh: the Java writers on a weakly ordered CPU (WeakOrder.java, with the store-buffer
# model of sun.misc.Unsafe in sun/misc/Unsafe.java patched into the JDK), then the same
# with a copy of the writers whose release store of the count (putOrderedLong) is made a
# plain store: the test must catch that, or it proves nothing. Environment (set by meson):
# JAVA, JAVAC, RUNTIME_JAR, RUNTIME_SRC (runtime/java), STUBS_JAR, TC_LIB, and under
# sanitizers SAN_PRELOAD.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export_misc=(--add-exports java.base/jdk.internal.misc=jdk.unsupported)
"$JAVAC" -nowarn --patch-module jdk.unsupported="$here" "${export_misc[@]}" -d "$dir/model" \
  "$here/sun/misc/Unsafe.java"
"$JAVAC" -nowarn --patch-module jdk.unsupported="$dir/model" -cp "$RUNTIME_JAR" -d "$dir/test" \
  "$here/com/tencent/matrix/trace/core/WeakOrder.java"

# the mutant: the writers with their release stores made plain
core=$RUNTIME_SRC/com/tencent/matrix/trace/core
mkdir -p "$dir/mutant-src"
for f in AppMethodBeat ThreadRing; do
  sed 's/\.putOrderedLong(/.putLong(/' "$core/$f.java" >"$dir/mutant-src/$f.java"
done
n=$(cat "$core/AppMethodBeat.java" "$core/ThreadRing.java" | grep -c '\.putOrderedLong(' || true)
if [ "$n" -ne 3 ]; then
  echo "not ok - the writers' release stores moved ($n putOrderedLong calls, not 3): update the mutant"
  exit 1
fi
"$JAVAC" -nowarn -cp "$RUNTIME_JAR:$STUBS_JAR" -d "$dir/mutant" "$dir/mutant-src"/*.java 2>"$dir/javac.log" ||
  { cat "$dir/javac.log"; exit 1; }

if [ -n "${SAN_PRELOAD:-}" ]; then
  [ -f "$SAN_PRELOAD" ] || { echo "sanitizer runtime $SAN_PRELOAD not found: skipped"; exit 77; }
  export LD_PRELOAD="$SAN_PRELOAD"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
run() { # run CLASSPATH_PREFIX
  rm -rf "$dir/rings" && mkdir "$dir/rings"
  "$JAVA" --patch-module jdk.unsupported="$dir/model" "${export_misc[@]}" -Dtc.lib="$TC_LIB" \
    -cp "$1$dir/test:$RUNTIME_JAR:$STUBS_JAR" com.tencent.matrix.trace.core.WeakOrder "$dir/rings"
}
echo "# the writers as built"
run "" || exit 1
echo "# the writers with plain stores of the count (must fail)"
if run "$dir/mutant:" >"$dir/mutant.out" 2>&1; then
  cat "$dir/mutant.out"
  echo "not ok - plain stores of the count went unnoticed"
  exit 1
fi
cat "$dir/mutant.out"
for who in "the recording thread" "another thread"; do
  if ! grep -q "^not ok - $who: .* views copied a count before its event" "$dir/mutant.out"; then
    echo "not ok - $who: the plain store of its count went unnoticed"
    exit 1
  fi
done
echo "ok - both writers' plain count stores were caught"
