#!/bin/sh
# Several --in joined into one --out jar (issue 29, item 3: AGP's contract for a
# transform of all classes is many jars and directories in, one jar out): the entries
# in the order of the inputs (a directory's files in byte order of their paths), one
# mapping for all, the same bytes for any -j and run after run, with --cache too; a
# name two inputs hold refused (naming both, nothing written), as a jar writer refuses
# a duplicate entry; dex files and APKs refused as parts. Inputs: cache.sh's fixtures.
. "$(dirname "$0")/lib.sh"
need_fixtures

c=$FIXTURES/cache
names() { "$PYTHON" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$1"; }
# the names the inputs give, in order: a directory's files sorted, a jar's entries as stored
expected() {
    for i in "$@"; do
        if [ -d "$i" ]; then (cd "$i" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
        else names "$i"; fi
    done | awk '!(/\/$/ && seen[$0]++)'
}

tci --quiet -j1 --mapping-dir "$T/map" --in "$c/dir" --in "$c/base.jar" --in "$c/app.jar" --out "$T/all.jar"
expect_rc "a directory and two jars into one jar" 0
names "$T/all.jar" >"$T/got"
# the build-id marker class goes into the first input's part, a directory of class files
expected "$c/dir" "$c/base.jar" "$c/app.jar" >"$T/want0"
{ grep -v '^com/tencent/matrix/trace/generated/BuildId.class$' "$T/got"; } >"$T/got0"
check "entries in the order of the inputs (directory sorted, then each jar's)" cmp "$T/want0" "$T/got0"
check "the build-id marker is in the joined jar, once" test "$(grep -c '^com/tencent/matrix/trace/generated/BuildId.class$' "$T/got")" = 1
check "the output is a sound zip (unzip -t, python zipfile)" "$PYTHON" "$CLI_DIR/../../lib/zipcheck.py" "$T/all.jar"
for cls in r.Tool p.Base q.Screen; do
    check "the one mapping lists $cls's methods" grep -q ",$cls " "$T/map/methodMapping.txt"
done
check "the stats name the joined jar as the inputs' output" test "$(json "$T/map/instrument-stats.json" \
    'sorted(set(i["out"] for i in j["inputs"]))')" = "['$T/all.jar']"
check "the joined jar verifies on HotSpot" verify "$T/all.jar"
check "no part or temporary file is left beside it" sh -c "! ls '$T' | grep -q 'tc-part\|tc-tmp'"

tci --quiet -j4 --mapping-dir "$T/map4" --in "$c/dir" --in "$c/base.jar" --in "$c/app.jar" --out "$T/all4.jar"
expect_rc "the same with -j4" 0
check "byte-identical for -j1 and -j4" same_file "$T/all.jar" "$T/all4.jar"
check "the same mapping for -j1 and -j4" same_file "$T/map/methodMapping.txt" "$T/map4/methodMapping.txt"
tci --quiet -j1 --mapping-dir "$T/map" --in "$c/dir" --in "$c/base.jar" --in "$c/app.jar" --out "$T/all4.jar"
check "run again over its output: the same bytes" same_file "$T/all.jar" "$T/all4.jar"

# with --cache: a cold run, then a warm one, both the same bytes as without
for k in cold warm; do
    tci --quiet --cache="$T/cache" --mapping-dir "$T/mapc" --in "$c/dir" --in "$c/base.jar" --in "$c/app.jar" \
        --out "$T/cached.jar"
    expect_rc "--cache, $k" 0
    check "--cache, $k: the same jar as without" same_file "$T/all.jar" "$T/cached.jar"
done
check "--cache, warm: results reused" test "$(json "$T/mapc/instrument-stats.json" 'j["cache"]["results_reused"]')" -ge 1

# another order: the entries follow it
tci --quiet --mapping-dir "$T/mapo" --in "$c/app.jar" --in "$c/dir" --out "$T/other.jar"
expect_rc "a jar, then a directory" 0
expected "$c/app.jar" "$c/dir" >"$T/want1"
names "$T/other.jar" | grep -v '^com/tencent/matrix/trace/generated/BuildId.class$' >"$T/got1"
check "entries in that order" cmp "$T/want1" "$T/got1"

# joined groups and plain pairs in one run
tci --quiet --mapping-dir "$T/mapm" --in "$c/base.jar" --in "$c/app.jar" --out "$T/two.jar" \
    --in "$c/extra.jar" --out "$T/extra.jar"
expect_rc "a joined group and a plain pair" 0
check "the plain pair's output is a jar of its own" test "$(names "$T/extra.jar" | grep -c 'base\|Base')" = 0

# a name two inputs hold: refused before anything is written, both named
tci --quiet --mapping-dir "$T/mapd" --in "$c/dir" --in "$c/dir-edited" --out "$T/dup.jar"
expect_rc "two inputs holding r/Tool.class" 1
stderr_has "the error names the entry" "duplicate entry r/Tool.class"
stderr_has "and both inputs" "both --in $c/dir and --in $c/dir-edited hold it"
check "nothing is written: no jar" absent "$T/dup.jar"
check "nothing is written: no mapping" absent "$T/mapd/methodMapping.txt"
check "no part or temporary file is left" sh -c "! ls '$T' | grep -q 'tc-part\|tc-tmp'"
mkdir -p "$T/j" && cp "$c/app.jar" "$T/j/again.jar"
tci --quiet --mapping-dir "$T/mapd" --in "$c/app.jar" --in "$T/j/again.jar" --out "$T/dup.jar"
expect_rc "two jars holding the same entries" 1
stderr_has "the error names both jars" "both --in $c/app.jar and --in $T/j/again.jar hold it"

# kinds that are not parts of a jar
printf 'dex\n035\0' >"$T/x.dex"
tci --quiet --mapping-dir "$T/mapx" --in "$c/app.jar" --in "$T/x.dex" --out "$T/x.jar"
expect_rc "a dex file among joined inputs" 1
stderr_has "refused, naming what is taken" "several --in joined into one --out take class directories and jars"
mkdir -p "$T/outdir"
tci --quiet --mapping-dir "$T/mapx" --in "$c/app.jar" --in "$c/dir" --out "$T/outdir"
expect_rc "a directory as the joined output (a usage error)" 2
stderr_has "refused: the output is a jar" "but several --in joined into one --out make a jar: give a jar's path (.jar)"
mkdir -p "$T/cls" && cp -r "$c/dir/." "$T/cls/"
tci --quiet --mapping-dir "$T/mapx" --in "$T/cls" --in "$c/app.jar" --out "$T/cls/all.jar"
expect_rc "the joined jar inside a directory joined into it" 2
stderr_has "refused, naming the directory" "lies inside --in $T/cls, which is joined into it"
tci --quiet --mapping-dir "$T/mapx" --in "$c/app.jar" --in "$c/dir"
expect_rc "--in without --out" 2
stderr_has "still a usage error" "has no --out"

# one --in: an output is what its input is (issue 29, item 5; every pair of kinds in
# tests/compiler/pipeline, an_output_is_of_its_inputs_kind)
mkdir -p "$T/empty"
tci --quiet --mapping-dir "$T/mapk" --in "$T/empty" --out "$T/o.jar"
expect_rc "an empty directory with --out o.jar" 2
stderr_has "refused, naming --out and the kind to give" \
    "$T/o.jar: --out names a jar (.jar), but --in $T/empty is a directory, and an output is what its input is: give a directory"
check "no o.jar is made" absent "$T/o.jar"
check "no mapping is written" absent "$T/mapk/methodMapping.txt"
tci --quiet --mapping-dir "$T/mapk" --in "$c/app.jar" --out "$T/app.apk"
expect_rc "a jar with --out x.apk" 2
stderr_has "refused: a jar's output is a jar" "but --in $c/app.jar is a jar, and an output is what its input is: give a jar's path (.jar)"
check "no APK is made" absent "$T/app.apk"
tci --quiet --mapping-dir "$T/mapk" --in "$c/dir" --out "$T/empty"
expect_rc "a directory into an existing directory is still fine" 0

# issue 29, item 6: q.Screen's super class p.Base is in base.jar, not given: said once,
# on stderr too, naming --classpath; with base.jar on the class path, not at all
tci --mapping-dir "$T/mapn" --in "$c/app.jar" --out "$T/app-out.jar"
expect_rc "app.jar without the jar of its super class" 0
stderr_has "the super class found nowhere is named, and --classpath" \
    "class q/Screen: its super classes are neither inputs nor on the class path (q/Screen's p/Base): an Activity among them is not known as one"
check "said once" test "$(grep -c -- '--classpath' "$ERR")" = 1
tci --mapping-dir "$T/mapn" --classpath "$c/base.jar" --in "$c/app.jar" --out "$T/app-out.jar"
expect_rc "with --classpath base.jar" 0
check "not said" sh -c "! grep -q 'class path' '$ERR'"
finish
