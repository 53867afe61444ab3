#!/bin/sh
# Malformed classes (a bad constant-pool tag, a truncated file) in a directory and in a
# jar: copied byte for byte and reported in instrument-stats.json with the file or
# entry name and the byte offset; the good class beside them is instrumented. With
# --strict: exit 1 and nothing written.
. "$(dirname "$0")/lib.sh"
need_fixtures

badtag=$(awk '$1 == "badtag" {print $2}' "$FIXTURES/offsets.txt")
cp_end=$(awk '$1 == "trunc_cp_end" {print $2}' "$FIXTURES/offsets.txt")
cut=$(awk '$1 == "trunc_len" {print $2}' "$FIXTURES/offsets.txt")

# problem FILE NAME: the "detail" (or "problem") text of the problem naming NAME.
problem() {
    "$PYTHON" -c '
import json, sys
j = json.load(open(sys.argv[1]))
for p in j["problems"]:
    if p["file"].endswith(sys.argv[2]):
        print(p.get("detail", "") + " | " + p["problem"])
        sys.exit(0)
sys.exit(1)' "$1" "$2"
}

# offset_of TEXT: the number after "offset ".
offset_of() { echo "$1" | sed -n 's/.*offset \([0-9][0-9]*\).*/\1/p' | head -n 1; }

check_reports() { # check_reports WHAT STATS SEP (SEP: "/" for directories, "!" for jars)
    what=$1
    stats=$2
    sep=$3
    if p=$(problem "$stats" "${sep}p/BadTag.class"); then
        ok "$what: BadTag.class is reported with its name"
        o=$(offset_of "$p")
        if [ "$o" = "$badtag" ]; then ok "$what: BadTag.class at offset $badtag (the bad tag)"; else not_ok "$what: BadTag.class offset '$o', want $badtag: $p"; fi
    else
        not_ok "$what: BadTag.class is reported with its name"
    fi
    if p=$(problem "$stats" "${sep}p/Trunc.class"); then
        ok "$what: Trunc.class is reported with its name"
        o=$(offset_of "$p")
        if [ -n "$o" ] && [ "$o" -ge "$cp_end" ] && [ "$o" -le "$cut" ]; then
            ok "$what: Trunc.class offset $o lies in the cut header [$cp_end, $cut]"
        else
            not_ok "$what: Trunc.class offset '$o' not in [$cp_end, $cut]: $p"
        fi
    else
        not_ok "$what: Trunc.class is reported with its name"
    fi
    check "$what: stats count 2 malformed classes" test "$(json "$stats" 'j["classes"]["malformed"]')" = 2
    check "$what: summary line counts 2 malformed" grep -q '2 malformed' "$ERR"
}

# --- a directory ---
tci --mapping-dir "$T/d/map" --in "$FIXTURES/malformed" --out "$T/d/out"
expect_rc "malformed classes in a directory" 0
for c in BadTag Trunc; do
    check "directory: $c.class copied byte for byte" same_file "$FIXTURES/malformed/p/$c.class" "$T/d/out/p/$c.class"
done
check_reports directory "$T/d/map/instrument-stats.json" /
check "directory: the good class is instrumented" has_line "$T/d/map/methodMapping.txt" "1,1,com.example.app.Square toString ()Ljava.lang.String;"
check "directory: ids in the code match the mapping" beat_check "$T/d/map/methodMapping.txt" "$T/d/out/p/Good.class"

# --- a jar ---
tci --mapping-dir "$T/j/map" --in "$FIXTURES/malformed.jar" --out "$T/j/out.jar"
expect_rc "malformed classes in a jar" 0
unjar "$FIXTURES/malformed.jar" "$T/j/in"
unjar "$T/j/out.jar" "$T/j/x"
for c in BadTag Trunc; do
    check "jar: $c.class copied byte for byte" same_file "$T/j/in/p/$c.class" "$T/j/x/p/$c.class"
done
check_reports jar "$T/j/map/instrument-stats.json" '!'
check "jar: ids in the code match the mapping" beat_check "$T/j/map/methodMapping.txt" "$T/j/x/p/Good.class"

# --- --strict: fatal, nothing written ---
tci --strict --quiet --mapping-dir "$T/s/map" --in "$FIXTURES/malformed-strict" --out "$T/s/out"
expect_rc "--strict with malformed classes in a directory" 1
stderr_has "--strict: the message names a malformed class" ".class"
check "--strict: no output directory" absent "$T/s/out"
check "--strict: no mapping directory files" absent "$T/s/map/methodMapping.txt"
check "--strict: no statistics" absent "$T/s/map/instrument-stats.json"
check "--strict: no temporary files" no_temp_files "$T/s"
tci --strict --quiet --mapping-dir "$T/s2/map" --in "$FIXTURES/malformed.jar" --out "$T/s2/out.jar"
expect_rc "--strict with malformed classes in a jar" 1
stderr_has "--strict (jar): the message names the jar" "malformed.jar"
check "--strict (jar): no output jar" absent "$T/s2/out.jar"
check "--strict (jar): no mapping files" absent "$T/s2/map/methodMapping.txt"
# --strict over an existing output directory leaves it alone.
mkdir -p "$T/s3/out/p"
printf 'old' >"$T/s3/out/p/Good.class"
tci --strict --quiet --mapping-dir "$T/s3/map" --in "$FIXTURES/malformed-strict" --out "$T/s3/out"
expect_rc "--strict over an existing output directory" 1
check "--strict: the existing output is untouched" test "$(cat "$T/s3/out/p/Good.class")" = old
check "--strict: nothing added to it" test "$(classes "$T/s3/out")" = "p/Good.class"
finish
