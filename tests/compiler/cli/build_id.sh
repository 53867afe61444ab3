#!/bin/sh
# The build id (issue 21): tc-instrument hashes the methodMapping.txt it writes
# (mapfile/method_mapping.h: the entry lines, comments and blank lines left out, 64-bit
# FNV-1a with splitmix64's finalizer), writes it to buildId beside the mapping and to the
# statistics, and puts it where the runtime reads it: the class
# com.tencent.matrix.trace.generated.BuildId (field ID) in the first output when that is
# a directory. Same inputs, same id, whatever the thread count.
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
stderr_has "the summary names it and the marker" "build id $id (the mapping directory's buildId), recorded by the runtime from the class com/tencent/matrix/trace/generated/BuildId of the first output"
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

# A jar output has no marker yet: the summary says so, the stats name no output.
(cd "$in" && "$PYTHON" -c 'import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1], "w")
for d, _, fs in os.walk("."):
    for f in sorted(fs): z.write(os.path.join(d, f))' "$T/in.jar")
tci --mapping-dir "$T/map4" --in "$T/in.jar" --out "$T/out.jar"
expect_rc "a jar" 0
check "a jar: buildId is written" test -s "$T/map4/buildId"
stderr_has "a jar: the summary says no output carries it" "no output carries it"
check "a jar: the statistics name no marker" test "$(json "$T/map4/instrument-stats.json" 'j["buildIdMarker"]')" = ""
finish
