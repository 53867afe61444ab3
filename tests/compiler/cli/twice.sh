#!/bin/sh
# Instrumenting twice (issue 21): over its own output, with --out equal to --in, a
# directory or a jar, tc-instrument recognises the methods it instrumented (the probe
# "push id; invokestatic AppMethodBeat.i(I)V") and leaves them as they are, keeping the
# ids their probes have: the second output is byte for byte the first, the mapping and
# the build id are the same, no method calls i() twice, and the summary and the
# statistics count what was found.
. "$(dirname "$0")/lib.sh"
need_fixtures

# two_i DIR: methods that call AppMethodBeat.i more than once, one per line (one javap
# for all of DIR's classes: a JVM per class costs a second each).
two_i() {
    find "$1" -name '*.class' | LC_ALL=C sort | xargs "$JAVAP" -c -p | awk '
        /^[^ ].*(class|interface|enum|record) / { c = $0 }
        /^  [^ ].*\(.*\)/ { m = $0; n = 0 }
        /invokestatic .*AppMethodBeat\.i:\(I\)V/ { if (++n == 2) print c ": " m }'
}

# A directory, over its own output.
tci --mapping-dir "$T/m1" --in "$FIXTURES/app1" --out "$T/o1"
expect_rc "first run" 0
traced=$(grep -c '^[0-9]' "$T/m1/methodMapping.txt")
tci --mapping-dir "$T/m2" --in "$T/o1" --out "$T/o2"
expect_rc "second run, over the first's output" 0
check "the second output is the first, byte for byte" diff -r "$T/o1" "$T/o2"
check "the same methodMapping.txt (the probes' ids)" same_file "$T/m1/methodMapping.txt" "$T/m2/methodMapping.txt"
check "the same ignoreMethodMapping.txt" same_file "$T/m1/ignoreMethodMapping.txt" "$T/m2/ignoreMethodMapping.txt"
check "the same build id" same_file "$T/m1/buildId" "$T/m2/buildId"
check "no method calls i() twice" test -z "$(two_i "$T/o2")"
stderr_has "the summary says what was left" "methods in"
stderr_has "the summary says they were instrumented already" "were instrumented already"
check "stats: methods.already_instrumented counts every traced method ($traced, less the dispatch line)" \
    test "$(json "$T/m2/instrument-stats.json" 'j["methods"]["already_instrumented"]')" = "$((traced - 1))"
check "stats: classes.already_instrumented" \
    test "$(json "$T/m2/instrument-stats.json" 'j["classes"]["already_instrumented"] > 0')" = True
check "stats: nothing instrumented again" \
    test "$(json "$T/m2/instrument-stats.json" 'j["methods"]["instrumented"]')" = 0
check "the twice-instrumented output verifies" verify "$T/o2"

# --out equal to --in, twice.
cp -r "$FIXTURES/app1" "$T/same"
tci --quiet --mapping-dir "$T/m3" --in "$T/same" --out "$T/same"
expect_rc "in place, first" 0
cp -r "$T/same" "$T/same1"
tci --quiet --mapping-dir "$T/m3" --in "$T/same" --out "$T/same"
expect_rc "in place, second" 0
check "in place: unchanged by the second run" diff -r "$T/same1" "$T/same"
check "in place: no method calls i() twice" test -z "$(two_i "$T/same")"
check "in place: the mapping is the first run's" same_file "$T/m1/methodMapping.txt" "$T/m3/methodMapping.txt"

# A jar, over its own output and in place.
tci --quiet --mapping-dir "$T/j1" --in "$FIXTURES/shop.jar" --out "$T/o1.jar"
expect_rc "jar, first" 0
tci --quiet --mapping-dir "$T/j2" --in "$T/o1.jar" --out "$T/o2.jar"
expect_rc "jar, second" 0
check "jar: the second output is the first, byte for byte" same_file "$T/o1.jar" "$T/o2.jar"
check "jar: the same mapping" same_file "$T/j1/methodMapping.txt" "$T/j2/methodMapping.txt"
cp "$T/o1.jar" "$T/same.jar"
tci --quiet --mapping-dir "$T/j3" --in "$T/same.jar" --out "$T/same.jar"
expect_rc "jar in place" 0
check "jar in place: unchanged" same_file "$T/o1.jar" "$T/same.jar"
mkdir "$T/x" && unjar "$T/same.jar" "$T/x"
check "jar: no method calls i() twice" test -z "$(two_i "$T/x")"

# A method that is not instrumented yet, in a class whose others are, still is: a new
# class added to the instrumented output gets its probes (and new ids after the old).
cp -r "$T/o1" "$T/mixed"
cp "$FIXTURES/app1/com/example/app/Util.class" "$T/mixed/com/example/app/Util.class"
tci --quiet --mapping-dir "$T/m4" --in "$T/mixed" --out "$T/o4"
expect_rc "a fresh class among instrumented ones" 0
check "it is instrumented" differ "$T/mixed/com/example/app/Util.class" "$T/o4/com/example/app/Util.class"
check "the others are left as they were" same_file "$T/o1/com/example/app/Main.class" "$T/o4/com/example/app/Main.class"
check "mixed: no method calls i() twice" test -z "$(two_i "$T/o4")"
check "mixed: verifies" verify "$T/o4"
finish
