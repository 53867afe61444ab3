#!/bin/sh
# The runtime's presence: a run that writes calls to the beat class is refused (exit 1,
# nothing written, the fix named) unless an input or a --classpath entry defines it,
# public, with public static i(I)V and o(I)V, and at(Landroid/app/Activity;Z)V when an
# Activity gets the focus call; --no-runtime-check writes the calls anyway. The beat
# classes are classgen.py's runtime/ (good, noat, wrongdesc, private, notpublic).
. "$(dirname "$0")/lib.sh"
need_fixtures

rt=$FIXTURES/runtime
fix="add the runtime (tracecanary-runtime.jar) to the app's inputs, or name where the app gets it with --classpath, or pass --no-runtime-check"

# refused DESCRIPTION TEXT ARGS...: exit 1, TEXT and the fix on stderr, nothing written.
refused() {
    d=$1 text=$2
    shift 2
    rm -rf "$T/map" "$T/out"
    tci_checked --mapping-dir "$T/map" "$@"
    expect_rc "$d: refused" 1
    stderr_has "$d: says what is wrong" "$text"
    stderr_has "$d: names the fix" "$fix"
    check "$d: nothing written" absent "$T/map"
    check "$d: no output" absent "$T/out"
}

# accepted DESCRIPTION ARGS...: exit 0.
accepted() {
    d=$1
    shift
    rm -rf "$T/map" "$T/out"
    tci_checked --quiet --mapping-dir "$T/map" "$@"
    expect_rc "$d" 0
}

app="--in $FIXTURES/app1 --out $T/out"
refused "no runtime anywhere" \
    "the instrumented code calls com.tencent.matrix.trace.core.AppMethodBeat, which no input and no --classpath entry defines" \
    $app
accepted "the runtime on --classpath" $app --classpath "$rt/good"
accepted "the runtime as an input" $app --in "$rt/good" --out "$T/out-rt"
check "the runtime's class is copied as it was" same_file "$rt/good/com/tencent/matrix/trace/core/AppMethodBeat.class" \
    "$T/out-rt/com/tencent/matrix/trace/core/AppMethodBeat.class"
accepted "--no-runtime-check" $app --no-runtime-check
check "--no-runtime-check: the calls are written" grep -q 'com/tencent/matrix/trace/core/AppMethodBeat' \
    "$T/out/com/example/app/Main.class"
refused "i(J)V in place of i(I)V" "in $rt/wrongdesc does not fit the calls (i(I)V is missing)" \
    $app --classpath "$rt/wrongdesc"
refused "a private o(I)V" "(o(I)V is not public and static)" $app --classpath "$rt/private"
refused "a package-private beat class" "(the class is not public)" $app --classpath "$rt/notpublic"
# the first definition counts, as on a class path: an input's before a --classpath entry's
refused "a wrong one first" "in $rt/private does not fit" $app --in "$rt/private" --out "$T/out-rt2" --classpath "$rt/good"
accepted "at() unneeded without an Activity" $app --classpath "$rt/noat"
refused "an Activity, and no at()" "(at(Landroid/app/Activity;Z)V is missing)" \
    --in "$FIXTURES/cache/base-activity.jar" --out "$T/out" --classpath "$rt/noat"
accepted "an Activity, and at()" --in "$FIXTURES/cache/base-activity.jar" --out "$T/out" --classpath "$rt/good"
accepted "--beat-class defined by its input" --beat-class x.y.Beat --in "$FIXTURES/beat" --out "$T/out"

# A run replayed from the cache is checked as well: a run stored with the override does
# not answer one without it.
c="--cache=$T/cache"
accepted "cached with --no-runtime-check" $c --in "$FIXTURES/app1.jar" --out "$T/out" --no-runtime-check
refused "then without it" "which no input and no --classpath entry defines" $c --in "$FIXTURES/app1.jar" --out "$T/out"
finish
