#!/bin/sh
# The build id (issue 21): tc-instrument hashes the methodMapping.txt it writes
# (mapfile/method_mapping.h: the entry lines, comments and blank lines left out, 64-bit
# FNV-1a with splitmix64's finalizer), writes it to buildId beside the mapping and to the
# statistics, and puts it where the runtime reads it: the class
# com.tencent.matrix.trace.generated.BuildId (field ID) in the first output that has a
# place for it: a directory or a jar of classes that is a class root (dex outputs:
# tests/dex/test_dex_instrument.c, dex-instrument). Same inputs, same id, whatever the
# thread count.
. "$(dirname "$0")/lib.sh"
need_fixtures

in=$FIXTURES/beat
marker=com/tencent/matrix/trace/generated/BuildId.class

# The hash, computed independently of our C code from the file.
py_id() {
    "$PYTHON" - "$1" <<'PY'
import sys
M = (1 << 64) - 1
h = 0xcbf29ce484222325
for line in open(sys.argv[1], 'rb').read().split(b'\n'):
    line = line.rstrip(b' \r')
    if not line or line.startswith(b'#'):
        continue
    for c in line + b'\n':
        h = ((h ^ c) * 0x100000001b3) & M
z = h
z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
z ^= z >> 31
print('%016x' % (z or 1))
PY
}

tci --mapping-dir "$T/map" --in "$in" --out "$T/out"
expect_rc "a directory" 0
id=$(cat "$T/map/buildId" 2>/dev/null)
check "buildId beside methodMapping.txt: 16 hex digits" sh -c "echo '$id' | grep -Eqx '[0-9a-f]{16}'"
check "it is the hash of methodMapping.txt's entry lines" test "$id" = "$(py_id "$T/map/methodMapping.txt")"
check "the statistics carry it" test "$(json "$T/map/instrument-stats.json" 'j["buildId"]')" = "$id"
stderr_has "the summary names it and the marker" "build id $id (the mapping directory's buildId), recorded by the runtime from the class com/tencent/matrix/trace/generated/BuildId in output 1 (in the order of --out)"
check "the marker class is in the output" test -f "$T/out/$marker"
check "its field ID holds the id (a ConstantValue)" \
    sh -c "'$JAVAP' -v -cp '$T/out' com.tencent.matrix.trace.generated.BuildId | grep -q 'ConstantValue: String $id'"
check "its field is public static final String" \
    sh -c "'$JAVAP' -p -cp '$T/out' com.tencent.matrix.trace.generated.BuildId | grep -q 'public static final java.lang.String ID;'"
check "the output, marker included, verifies (-Xverify:all)" verify "$T/out"
check "no method was added to trace (the marker has none)" \
    sh -c "! grep -q 'generated' '$T/map/methodMapping.txt' '$T/map/ignoreMethodMapping.txt'"

# Deterministic: again, and with one thread, the same id and the same marker.
tci -j 1 --mapping-dir "$T/map1" --in "$in" --out "$T/out1"
expect_rc "again with -j 1" 0
check "same inputs, same build id" same_file "$T/map/buildId" "$T/map1/buildId"
check "same marker class, byte for byte" same_file "$T/out/$marker" "$T/out1/$marker"

# Another build (other ids: a base mapping that moves them): another id.
{ echo "7000,1,x.yz.App main ([Ljava.lang.String;)V"; } > "$T/base.txt"
tci --base-mapping "$T/base.txt" --mapping-dir "$T/map2" --in "$in" --out "$T/out2"
expect_rc "another build" 0
check "other ids, another build id" differ "$T/map/buildId" "$T/map2/buildId"
check "and its marker holds that one" \
    sh -c "'$JAVAP' -v -cp '$T/out2' com.tencent.matrix.trace.generated.BuildId | grep -q \"ConstantValue: String \$(cat '$T/map2/buildId')\""

# One marker per run: a second directory output gets none (two copies of one class
# fail dexing).
cp -r "$in" "$T/in2"
tci --mapping-dir "$T/map3" --in "$in" --out "$T/o3a" --in "$T/in2" --out "$T/o3b"
expect_rc "two directories" 0
check "the first output has the marker" test -f "$T/o3a/$marker"
check "the second has none" absent "$T/o3b/$marker"

# A tree of class roots (the JDK's modules: m/java/lang/X.class) is no class root
# itself: a marker at its top would be a stray directory no class path holds.
mkdir -p "$T/tree"
cp -r "$in" "$T/tree/mod.a"
tci --mapping-dir "$T/map5" --in "$T/tree" --out "$T/o5"
expect_rc "a tree of class roots" 0
check "a tree of class roots: no marker at its top" absent "$T/o5/$marker"
check "nor inside a root" absent "$T/o5/mod.a/$marker"
check "a tree of class roots: the statistics name no marker" \
    test "$(json "$T/map5/instrument-stats.json" 'j["buildIdMarker"]')" = ""

# A jar output (issue 29): the marker class is its last entry, stored, with fixed
# metadata; the same bytes with one thread; a second run over the output writes the
# same jar (the old marker replaced, not doubled).
(cd "$in" && "$PYTHON" -c 'import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1], "w")
for d, _, fs in sorted(os.walk(".")):
    for f in sorted(fs): z.write(os.path.join(d, f))' "$T/in.jar")
tci --mapping-dir "$T/map4" --in "$T/in.jar" --out "$T/out.jar"
expect_rc "a jar" 0
id4=$(cat "$T/map4/buildId" 2>/dev/null)
stderr_has "a jar: the summary names the marker's output" "build id $id4 (the mapping directory's buildId), recorded by the runtime from the class com/tencent/matrix/trace/generated/BuildId in output 1"
check "a jar: the statistics name it" test "$(json "$T/map4/instrument-stats.json" 'j["buildIdMarker"]')" = "$T/out.jar"
check "a jar: the marker is the last entry" \
    sh -c "[ \"\$(unzip -Z1 '$T/out.jar' | tail -n 1)\" = '$marker' ]"
check "a jar: its field ID holds the id" \
    sh -c "'$JAVAP' -v -cp '$T/out.jar' com.tencent.matrix.trace.generated.BuildId | grep -q 'ConstantValue: String $id4'"
check "a jar: the class is the directory's, byte for byte" \
    sh -c "unzip -p '$T/out.jar' '$marker' >'$T/jar-marker.class' && [ '$id4' = '$id' ] && cmp '$T/jar-marker.class' '$T/out/$marker'"
check "a jar: a sound zip (unzip -t)" sh -c "unzip -tq '$T/out.jar' >/dev/null"
check "a jar: the output, marker included, verifies (-Xverify:all)" verify "$T/out.jar"
tci -j 1 --mapping-dir "$T/map4b" --in "$T/in.jar" --out "$T/out1.jar"
check "a jar: the same bytes with one thread" same_file "$T/out.jar" "$T/out1.jar"
tci --mapping-dir "$T/map4c" --in "$T/out.jar" --out "$T/again.jar"
check "a jar instrumented again: the same bytes, one marker" same_file "$T/out.jar" "$T/again.jar"

# Several outputs: the first that has a place for it gets the marker, the others none.
tci --mapping-dir "$T/map6" --in "$T/in.jar" --out "$T/o6a.jar" --in "$in" --out "$T/o6b"
expect_rc "a jar, then a directory" 0
check "a jar, then a directory: the jar has it" sh -c "unzip -Z1 '$T/o6a.jar' | grep -qx '$marker'"
check "a jar, then a directory: the directory none" absent "$T/o6b/$marker"
tci --mapping-dir "$T/map7" --in "$T/tree" --out "$T/o7a" --in "$T/in.jar" --out "$T/o7b.jar"
expect_rc "a tree of roots, then a jar" 0
check "a tree of roots, then a jar: the jar has it" sh -c "unzip -Z1 '$T/o7b.jar' | grep -qx '$marker'"
check "a tree of roots, then a jar: the tree none" absent "$T/o7a/$marker"
stderr_has "a tree of roots, then a jar: the summary names output 2" "BuildId in output 2 (in the order of --out)"

# The cache: the marker's output depends on every input's ids. Another build that
# changes only the second input's ids must not reuse the first output's cached jar
# with the old id in it.
mkdir -p "$T/b1" && cp -r "$FIXTURES/shop/." "$T/b1/"
tci --cache="$T/cache" --mapping-dir "$T/map8" --in "$T/in.jar" --out "$T/o8.jar" --in "$T/b1" --out "$T/o8b"
expect_rc "cached: first build" 0
find "$T/b1" -name '*.class' | sort | tail -n 1 | xargs rm -f
tci --cache="$T/cache" --mapping-dir "$T/map9" --in "$T/in.jar" --out "$T/o9.jar" --in "$T/b1" --out "$T/o9b"
expect_rc "cached: second build, a class of the second input gone" 0
check "cached: the second build has another id" differ "$T/map8/buildId" "$T/map9/buildId"
check "cached: the first output's marker holds the new id" \
    sh -c "'$JAVAP' -v -cp '$T/o9.jar' com.tencent.matrix.trace.generated.BuildId | grep -q \"ConstantValue: String \$(cat '$T/map9/buildId')\""
tci --cache="$T/cache" --mapping-dir "$T/map10" --in "$T/in.jar" --out "$T/o10.jar" --in "$T/b1" --out "$T/o10b"
check "cached: replayed, the same jar" same_file "$T/o9.jar" "$T/o10.jar"
check "cached: replayed, the statistics still name the marker's output" \
    test "$(json "$T/map10/instrument-stats.json" 'j["buildIdMarker"]')" = "$T/o10.jar"
# a run of one-file outputs only is replayed whole: the marker's output comes back too
tci --cache="$T/cache" --mapping-dir "$T/map11" --in "$T/in.jar" --out "$T/o11.jar"
tci --cache="$T/cache" --mapping-dir "$T/map12" --in "$T/in.jar" --out "$T/o12.jar"
check "cached: a whole run replayed" test "$(json "$T/map12/instrument-stats.json" 'j["cache"]["run_reused"]')" = True
check "cached: the replayed run's jar is the run's" same_file "$T/o11.jar" "$T/o12.jar"
stderr_has "cached: the replayed run's summary names the marker" "BuildId in output 1 (in the order of --out)"
check "cached: the replayed run's statistics name the marker's output" \
    test "$(json "$T/map12/instrument-stats.json" 'j["buildIdMarker"]')" = "$T/o12.jar"
finish
