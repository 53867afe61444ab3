#!/bin/sh
# Outputs appear atomically: a new output directory exists complete or not at all, even
# when the run fails after the classes were written (a mapping directory that cannot be
# created, a later output that cannot be written, an output parent that is a file). An
# existing output directory is updated in place, keeping what else it holds. Failures
# are injected with regular files where directories are expected (works as root too).
. "$(dirname "$0")/lib.sh"
need_fixtures

app=$FIXTURES/app1
tci --quiet --mapping-dir "$T/ref/map" --in "$app" --out "$T/ref/out"
expect_rc "reference run" 0

# failed WHAT: exit 1, no $T/w/new, nothing temporary left in $T/w.
failed() {
    expect_rc "$1: fails" 1
    check "$1: the new output directory does not exist" absent "$T/w/new"
    check "$1: no temporary directory or file left" no_temp_files "$T/w"
}

# The mapping directory is a file: the run fails after the classes were written.
rm -rf "$T/w"; mkdir -p "$T/w"; : >"$T/w/mapfile"
tci --quiet --mapping-dir "$T/w/mapfile" --in "$app" --out "$T/w/new"
failed "unwritable mapping directory"
stderr_has "unwritable mapping directory: named" "$T/w/mapfile"

# Outputs and mapping files commit together: a mapping file that cannot be written
# (EFBIG under a file-size limit of 512 KB, which every class file fits and
# methodMapping.txt does not) leaves the output, here the input itself, as it was.
if [ -f /usr/share/java/guava.jar ]; then
    rm -rf "$T/w"; mkdir -p "$T/w/g"
    "$PYTHON" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' /usr/share/java/guava.jar "$T/w/g"
    cp -r "$T/w/g" "$T/w/orig"
    rc=0
    (trap '' XFSZ; ulimit -f 512; exec "$TC_INSTRUMENT" --no-runtime-check --quiet --mapping-dir "$T/w/map" \
        --in "$T/w/g" --out "$T/w/g") >"$OUT" 2>"$ERR" || rc=$?
    expect_rc "a mapping file that cannot be written" 1
    stderr_has "a mapping file that cannot be written: named" "$T/w/map/methodMapping.txt: cannot write"
    check "a mapping file that cannot be written: --out (= --in) left as it was" diff -r "$T/w/orig" "$T/w/g"
    check "a mapping file that cannot be written: no mapping file" absent "$T/w/map/methodMapping.txt"
    check "a mapping file that cannot be written: nothing temporary left" no_temp_files "$T/w"
else
    echo "ok - # SKIP a mapping file that cannot be written: needs /usr/share/java/guava.jar (libguava-java)"
fi

# A joined jar that cannot be written (issue 29, items 3 and 5): guava's classes (a
# directory: small files) and asm.jar joined, under a file-size limit between the
# largest file the run stages (the mapping) and the joined jar: every part and the
# mapping are staged, and the join fails. Nothing the user sees may change: the other
# output of the run (a directory instrumented in place) stays as it was.
if [ -f /usr/share/java/guava.jar ] && [ -f /usr/share/java/asm.jar ]; then
    rm -rf "$T/w"; mkdir -p "$T/w"
    cp -r "$app" "$T/w/d" && cp -r "$app" "$T/w/orig"
    "$PYTHON" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' /usr/share/java/guava.jar "$T/w/g"
    rm -rf "$T/w/g/META-INF"
    tci --quiet --mapping-dir "$T/w/m0" --in "$T/w/g" --in /usr/share/java/asm.jar --out "$T/w/j0.jar"
    expect_rc "joined jar: a run without a limit" 0
    big=$(wc -c <"$T/w/j0.jar") map=$(cat "$T/w/m0/"* | wc -c)
    lim=$(( (big + map) / 2 / 512 ))
    check "joined jar: the mapping ($map bytes) is smaller than the joined jar ($big)" test "$map" -lt "$big"
    rm -rf "$T/w/m0" "$T/w/j0.jar"
    rc=0
    (trap '' XFSZ; ulimit -f "$lim"; exec "$TC_INSTRUMENT" --no-runtime-check --quiet --mapping-dir "$T/w/map" \
        --in "$T/w/d" --out "$T/w/d" \
        --in "$T/w/g" --in /usr/share/java/asm.jar --out "$T/w/j.jar") >"$OUT" 2>"$ERR" || rc=$?
    expect_rc "a joined jar that cannot be written" 1
    check "a joined jar that cannot be written: the other --out (= --in) left as it was" diff -r "$T/w/orig" "$T/w/d"
    check "a joined jar that cannot be written: no joined jar" absent "$T/w/j.jar"
    check "a joined jar that cannot be written: no mapping file" absent "$T/w/map/methodMapping.txt"
    check "a joined jar that cannot be written: nothing temporary left" no_temp_files "$T/w"
else
    echo "ok - # SKIP a joined jar that cannot be written: needs guava.jar and asm.jar (libguava-java, libasm-java)"
fi

# The mapping directory's parent is a file.
rm -rf "$T/w"; mkdir -p "$T/w"; : >"$T/w/f"
tci --quiet --mapping-dir "$T/w/f/map" --in "$app" --out "$T/w/new"
failed "mapping directory below a file"

# The output's parent is a file.
rm -rf "$T/w"; mkdir -p "$T/w"; : >"$T/w/f"
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/f/new"
expect_rc "output parent is a file" 1
check "output parent is a file: no mapping files" absent "$T/w/map/methodMapping.txt"
check "output parent is a file: nothing temporary" no_temp_files "$T/w"

# A second output that cannot be written (its parent is a file; an existing directory
# as a jar's --out is refused before the run, by kind: join.sh).
rm -rf "$T/w"; mkdir -p "$T/w"; : >"$T/w/f"
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/new" --in "$FIXTURES/app1.jar" --out "$T/w/f/new.jar"
failed "a later jar output that cannot be written"
check "a later jar output that cannot be written: no mapping files" absent "$T/w/map/methodMapping.txt"

# Jars are staged by the workers side by side: one that cannot be written (its parent
# is a file) while the other is staged, or after it (-j 1: the larger input first),
# leaves the existing output and the mapping as they were, and no staged jar behind.
rm -rf "$T/w"; mkdir -p "$T/w/map"; : >"$T/w/f"
"$PYTHON" - "$FIXTURES/app1.jar" "$T/w/big.jar" <<'PY'
import random, sys, zipfile
src = zipfile.ZipFile(sys.argv[1])
name = next(n for n in src.namelist() if n.endswith('.class'))
with zipfile.ZipFile(sys.argv[2], 'w') as z:
    z.writestr(name, src.read(name), zipfile.ZIP_DEFLATED)
    z.writestr('res/blob.bin', random.Random(7).randbytes(4 << 20), zipfile.ZIP_STORED)
PY
printf 'old big\n' >"$T/w/o1.jar"; printf 'old map\n' >"$T/w/map/methodMapping.txt"
for j in 2 1; do
    tci --quiet -j "$j" --mapping-dir "$T/w/map" --in "$T/w/big.jar" --out "$T/w/o1.jar" \
        --in "$FIXTURES/app1.jar" --out "$T/w/f/o2.jar"
    expect_rc "-j $j: a jar that cannot be written beside one that can" 1
    stderr_has "-j $j: a jar that cannot be written: named" "$T/w/f"
    check "-j $j: a jar that cannot be written: the other jar's old output as it was" test "$(cat "$T/w/o1.jar")" = "old big"
    check "-j $j: a jar that cannot be written: the old mapping as it was" test "$(cat "$T/w/map/methodMapping.txt")" = "old map"
    check "-j $j: a jar that cannot be written: nothing temporary left" no_temp_files "$T/w"
done

# A second directory output below a file.
rm -rf "$T/w"; mkdir -p "$T/w"; : >"$T/w/f"
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/new" --in "$app" --out "$T/w/f/second"
failed "a later directory output below a file"

# A new output directory named with a trailing slash.
rm -rf "$T/w"; mkdir -p "$T/w"
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/new/"
expect_rc "new output directory given as DIR/" 0
check "DIR/: same classes as the reference" diff -r "$T/ref/out" "$T/w/new"
check "DIR/: nothing temporary" no_temp_files "$T/w"

# Success: the new directory holds exactly the outputs.
rm -rf "$T/w"; mkdir -p "$T/w"
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/a/b/new"
expect_rc "new output directory with missing parents" 0
check "missing parents: same classes as the reference" diff -r "$T/ref/out" "$T/w/a/b/new"
check "missing parents: nothing temporary" no_temp_files "$T/w"

# An existing output directory is updated in place: other files stay, stale classes
# are replaced, the directory itself is the same one.
rm -rf "$T/w"; mkdir -p "$T/w/out/com/example/app" "$T/w/out/other"
printf 'keep me\n' >"$T/w/out/other/keep.txt"
printf 'stale' >"$T/w/out/com/example/app/Main.class"
printf 'mine' >"$T/w/out/com/example/app/Extra.class"
inode=$(ls -di "$T/w/out" | cut -d' ' -f1)
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/out"
expect_rc "existing output directory" 0
check "in place: the directory is the same one" test "$(ls -di "$T/w/out" | cut -d' ' -f1)" = "$inode"
check "in place: other files are kept" test "$(cat "$T/w/out/other/keep.txt")" = "keep me"
check "in place: an extra class of its own is kept" test "$(cat "$T/w/out/com/example/app/Extra.class")" = mine
check "in place: the stale class is replaced" same_file "$T/ref/out/com/example/app/Main.class" "$T/w/out/com/example/app/Main.class"
for f in $(classes "$T/ref/out"); do
    same_file "$T/ref/out/$f" "$T/w/out/$f" >/dev/null 2>&1 || not_ok "in place: $f differs from the reference"
done
check "in place: nothing temporary" no_temp_files "$T/w"

# The input directory as its own output.
rm -rf "$T/w"; mkdir -p "$T/w"; cp -r "$app" "$T/w/self"
tci --quiet --mapping-dir "$T/w/map" --in "$T/w/self" --out "$T/w/self"
expect_rc "--out equal to --in (directory)" 0
check "self: same classes as the reference" diff -r "$T/ref/out" "$T/w/self"
check "self: nothing temporary" no_temp_files "$T/w"

# The mapping files are compared with the ones already there as they are written (a
# megabyte at a time, the old file read, not mapped): one that holds the same bytes is
# left as it is (same inode); any other is rewritten whole and right, whether it differs
# in the first megabyte or after it, is a prefix of the new one, runs past it, or is
# empty. guava and asm: a methodMapping.txt of more than 1 MB.
if [ -f /usr/share/java/guava.jar ] && [ -f /usr/share/java/asm.jar ]; then
    rm -rf "$T/w"; mkdir -p "$T/w"
    ga() { tci --quiet --mapping-dir "$T/w/$1" --in /usr/share/java/guava.jar --out "$T/w/g.jar" \
        --in /usr/share/java/asm.jar --out "$T/w/a.jar"; }
    ga ref
    expect_rc "mappings compared: the reference run" 0
    ref=$T/w/ref/methodMapping.txt
    size=$(wc -c <"$ref")
    check "mappings compared: methodMapping.txt is over 1 MB ($size bytes)" test "$size" -gt 1048576
    mkdir -p "$T/w/m"; cp "$ref" "$T/w/m/methodMapping.txt"
    inode=$(ls -i "$T/w/m/methodMapping.txt" | cut -d' ' -f1)
    ga m
    check "mappings compared: the same bytes: left as it is (same inode)" \
        test "$(ls -i "$T/w/m/methodMapping.txt" | cut -d' ' -f1)" = "$inode"
    check "mappings compared: the same bytes: unchanged" same_file "$ref" "$T/w/m/methodMapping.txt"
    for v in early late prefix longer empty; do
        "$PYTHON" - "$ref" "$T/w/m/methodMapping.txt" "$v" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
v = sys.argv[3]
if v == 'early': b[1000] ^= 1
if v == 'late': b[len(b) - 2000] ^= 1
if v == 'prefix': b = b[:len(b) - 3000]
if v == 'longer': b += b'9999,1,a.B c ()V\n' * 10
if v == 'empty': b = b''
open(sys.argv[2], 'wb').write(b)
PY
        ga m
        expect_rc "mappings compared: an old file $v" 0
        check "mappings compared: an old file $v: rewritten right" same_file "$ref" "$T/w/m/methodMapping.txt"
        check "mappings compared: an old file $v: nothing temporary left" no_temp_files "$T/w"
    done
else
    echo "ok - # SKIP mappings compared: needs guava.jar and asm.jar (libguava-java, libasm-java)"
fi

# A failed run over an existing directory leaves the mapping files of the last run.
rm -rf "$T/w"; mkdir -p "$T/w"
tci --quiet --mapping-dir "$T/w/map" --in "$app" --out "$T/w/out"
cp "$T/w/map/methodMapping.txt" "$T/w/before.txt"
tci --quiet --strict --mapping-dir "$T/w/map" --in "$FIXTURES/malformed" --out "$T/w/out2"
expect_rc "a failing run" 1
check "a failing run keeps the previous mapping files" same_file "$T/w/before.txt" "$T/w/map/methodMapping.txt"
finish
