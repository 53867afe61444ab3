#!/bin/sh
# Jar output keeps entry order, names, timestamps, comments and attributes (compared
# with `unzip -Z -v` listings and python's zipfile), and entries that are not
# rewritten are raw copies: same compression method, same compressed bytes. Input:
# meta.jar from classgen.py (stored and deflated entries, entry comments, an extended
# timestamp field, odd order, a jar comment).
. "$(dirname "$0")/lib.sh"
need_fixtures

in=$FIXTURES/meta.jar
out=$T/out.jar
tci --quiet --mapping-dir "$T/map" --in "$in" --out "$out"
expect_rc "meta.jar" 0
check "the output is a sound zip (unzip -t, python zipfile)" "$PYTHON" "$CLI_DIR/../../lib/zipcheck.py" "$out" "$in"
check "the output verifies on HotSpot" verify "$out"

# Entries holding a traced method are rewritten; all others must be raw copies.
cut -d, -f3 "$T/map/methodMapping.txt" | cut -d' ' -f1 | grep -v '^android\.os\.Handler$' |
    sort -u | sed 's|\.|/|g; s|$|.class|' >"$T/changed"
check "three classes are rewritten (Main, Square, Util)" test "$(tr '\n' ' ' <"$T/changed")" = \
    "com/example/app/Main.class com/example/app/Square.class com/example/app/Util.class "

# zipinfo's verbose listing, one record per entry: the fields that must survive.
listing() { # listing JAR -> "name|field: value" lines
    unzip -Z -v "$1" | awk '
        /^Central directory entry #/ { getline; getline; getline; sub(/^  /, ""); name = $0; next }
        name != "" && /^  [a-zA-Z0-9].*:/ {
            line = $0; sub(/^  /, "", line); gsub(/  +/, " ", line); print name "|" line }
        name != "" && /^  There is no file comment\./ { print name "|no comment" }
        name != "" && /^------------------------- file comment begins/ { getline; print name "|comment: " $0 }'
}
listing "$in" >"$T/in.list"
listing "$out" >"$T/out.list"
# (and, last, the build-id marker class the run adds: build_id.sh)
marker=com/tencent/matrix/trace/generated/BuildId.class
check "zipinfo sees the same entries in the same order, then the build-id marker" sh -c "cut -d'|' -f1 '$T/in.list' | uniq >'$T/in.names'; { cat '$T/in.names'; echo '$marker'; } >'$T/want.names'; cut -d'|' -f1 '$T/out.list' | uniq >'$T/out.names'; cmp '$T/want.names' '$T/out.names'"
check "zipinfo lists eleven entries" test "$(wc -l <"$T/in.names")" -eq 11
kept='file last modified on|Unix file attributes|MS-DOS file attributes|no comment|comment:|file system or operating system of origin|length of file comment'
raw='compression method|32-bit CRC value|compressed size|uncompressed size|file last modified on \(UT extra field'
while IFS= read -r name; do
    grep -F "$name|" "$T/in.list" | grep -E "\|($kept)" >"$T/a"
    grep -F "$name|" "$T/out.list" | grep -E "\|($kept)" >"$T/b"
    check "$name: time, attributes and comment kept (zipinfo)" cmp "$T/a" "$T/b"
    if ! grep -qxF "$name" "$T/changed"; then
        grep -F "$name|" "$T/in.list" | grep -E "\|($raw)" >"$T/a"
        grep -F "$name|" "$T/out.list" | grep -E "\|($raw)" >"$T/b"
        check "$name: unchanged entry keeps method, CRC and sizes (zipinfo)" cmp "$T/a" "$T/b"
    fi
done <"$T/in.names"

# The stored bytes themselves, and the fields zipinfo summarizes.
check "unchanged entries are raw copies; rewritten ones keep their metadata" "$PYTHON" - "$in" "$out" "$T/changed" <<'EOF'
import struct, sys, zipfile
def entries(path):
    b = open(path, "rb").read()
    out = []
    for zi in zipfile.ZipFile(path).infolist():
        h = zi.header_offset
        n, m = struct.unpack("<HH", b[h + 26:h + 30])
        start = h + 30 + n + m
        out.append((zi, b[start:start + zi.compress_size], b[h + 30 + n:start]))
    return out
a, b = entries(sys.argv[1]), entries(sys.argv[2])
assert b[-1][0].filename == "com/tencent/matrix/trace/generated/BuildId.class"
b = b[:-1]
changed = set(open(sys.argv[3]).read().split())
bad = []
assert [x.filename for x, _, _ in a] == [y.filename for y, _, _ in b]
for (x, xr, xl), (y, yr, yl) in zip(a, b):
    for f in ("date_time", "comment", "external_attr", "create_system", "extra"):
        if getattr(x, f) != getattr(y, f):
            bad.append("%s: %s %r -> %r" % (x.filename, f, getattr(x, f), getattr(y, f)))
    if x.filename in changed:
        if x.CRC == y.CRC:
            bad.append("%s: not rewritten" % x.filename)
        continue
    if x.compress_type != y.compress_type:
        bad.append("%s: compression method %d -> %d" % (x.filename, x.compress_type, y.compress_type))
    if x.CRC != y.CRC or xr != yr:
        bad.append("%s: stored bytes differ (recompressed or changed)" % x.filename)
    if xl != yl:
        bad.append("%s: local extra field %r -> %r" % (x.filename, xl, yl))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
check "the jar comment is kept" test "$("$PYTHON" -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).comment.decode())' "$out")" = "tracecanary cli test jar"

# --deflate-level changes only rewritten entries.
tci --quiet --deflate-level 1 --mapping-dir "$T/map1" --in "$in" --out "$T/out1.jar"
expect_rc "--deflate-level 1" 0
check "--deflate-level 1: same content" "$PYTHON" -c '
import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
assert [(i.filename, i.CRC) for i in a.infolist()] == [(i.filename, i.CRC) for i in b.infolist()]' "$out" "$T/out1.jar"
# A jar is an intermediate (a dexer reads it once): level 1 unless told, not 6.
check "a jar's default level is 1" same_file "$out" "$T/out1.jar"
tci --quiet --deflate-level 6 --mapping-dir "$T/map6" --in "$in" --out "$T/out6.jar"
check "--deflate-level 6 is another jar" differ "$out" "$T/out6.jar"

# The output may be the input (in place).
cp "$in" "$T/inplace.jar"
tci --quiet --mapping-dir "$T/mapi" --in "$T/inplace.jar" --out "$T/inplace.jar"
expect_rc "--out equal to --in" 0
check "in place: same result as to another file" "$PYTHON" -c '
import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
assert [(i.filename, i.CRC) for i in a.infolist()] == [(i.filename, i.CRC) for i in b.infolist()]' "$out" "$T/inplace.jar"
check "in place: no temporary files left" no_temp_files "$T"

# An empty jar (a module without classes) gives an empty jar: the build expects a file.
"$PYTHON" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").close()' "$T/empty.jar"
tci --quiet --mapping-dir "$T/mape" --in "$T/empty.jar" --out "$T/empty-out.jar"
expect_rc "an empty jar" 0
check "an empty jar: the output jar exists" test -f "$T/empty-out.jar"
check "an empty jar: the output is an empty zip" "$PYTHON" -c 'import sys, zipfile; sys.exit(len(zipfile.ZipFile(sys.argv[1]).infolist()))' "$T/empty-out.jar"
cp "$in" "$T/previous.jar"
tci --quiet --mapping-dir "$T/mapp" --in "$T/empty.jar" --out "$T/previous.jar"
expect_rc "an empty jar over an earlier output" 0
check "an empty jar over an earlier output: replaced by an empty jar, not deleted" test -f "$T/previous.jar"
finish
