#!/bin/sh
# Corrupt jars are errors (exit 1) that name the archive or the entry, and nothing is
# written: no output jar, no mapping files, no temporary files.
. "$(dirname "$0")/lib.sh"
need_fixtures

entry=$(cat "$FIXTURES/corrupt/entry.txt")
for kind in trunc flipped badcrc; do
    jar=$FIXTURES/corrupt/$kind.jar
    mkdir -p "$T/$kind"
    # A good input beside the corrupt one: it must not be written either.
    tci --quiet --mapping-dir "$T/$kind/map" --in "$FIXTURES/app1" --out "$T/$kind/good" \
        --in "$jar" --out "$T/$kind/out.jar"
    expect_rc "$kind.jar" 1
    stderr_has "$kind.jar: the message names the jar" "$jar"
    if [ "$kind" != trunc ]; then
        stderr_has "$kind.jar: the message names the entry" "$entry"
    fi
    check "$kind.jar: no output jar" absent "$T/$kind/out.jar"
    check "$kind.jar: no output directory" absent "$T/$kind/good"
    check "$kind.jar: no mapping files" absent "$T/$kind/map/methodMapping.txt"
    check "$kind.jar: no ignore mapping" absent "$T/$kind/map/ignoreMethodMapping.txt"
    check "$kind.jar: no statistics" absent "$T/$kind/map/instrument-stats.json"
    check "$kind.jar: no temporary files" no_temp_files "$T/$kind"
    check "$kind.jar: one line of message" test "$(wc -l <"$ERR")" -eq 1
done

# An existing output jar is left as it was.
mkdir -p "$T/keep"
printf 'old' >"$T/keep/out.jar"
tci --quiet --mapping-dir "$T/keep/map" --in "$FIXTURES/corrupt/flipped.jar" --out "$T/keep/out.jar"
expect_rc "flipped.jar over an existing output" 1
check "the existing output jar is untouched" test "$(cat "$T/keep/out.jar")" = old
check "no temporary files beside it" no_temp_files "$T/keep"

# Not a zip at all.
printf 'this is no jar\n' >"$T/text.jar"
tci --quiet --mapping-dir "$T/t/map" --in "$T/text.jar" --out "$T/t/out.jar"
expect_rc "a text file as a jar" 1
stderr_has "a text file as a jar: named" "$T/text.jar"
check "a text file as a jar: no output" absent "$T/t/out.jar"
finish
