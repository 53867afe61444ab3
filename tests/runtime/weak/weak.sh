#!/usr/bin/env bash
# weak.sh: the Java writer on a weakly ordered CPU (WeakOrder.java, with the store-buffer
# model of sun.misc.Unsafe in sun/misc/Unsafe.java patched into the JDK). Environment (set
# by meson): JAVA, JAVAC, RUNTIME_JAR, STUBS_JAR, TC_LIB, and under sanitizers SAN_PRELOAD.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export_misc=(--add-exports java.base/jdk.internal.misc=jdk.unsupported)
"$JAVAC" -nowarn --patch-module jdk.unsupported="$here" "${export_misc[@]}" -d "$dir/model" \
  "$here/sun/misc/Unsafe.java"
"$JAVAC" -nowarn --patch-module jdk.unsupported="$dir/model" -cp "$RUNTIME_JAR" -d "$dir/test" \
  "$here/com/tencent/matrix/trace/core/WeakOrder.java"
if [ -n "${SAN_PRELOAD:-}" ]; then
  [ -f "$SAN_PRELOAD" ] || { echo "sanitizer runtime $SAN_PRELOAD not found: skipped"; exit 77; }
  export LD_PRELOAD="$SAN_PRELOAD"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
"$JAVA" --patch-module jdk.unsupported="$dir/model" "${export_misc[@]}" -Dtc.lib="$TC_LIB" \
  -cp "$dir/test:$RUNTIME_JAR:$STUBS_JAR" com.tencent.matrix.trace.core.WeakOrder
