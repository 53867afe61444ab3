#!/usr/bin/env bash
# Assembles the hand-written jasmin classes of tests/data/jasmin into OUT/classes (and
# the negative control bad/ into OUT/bad), then sets each class file's version to the
# one its source names on a line "; tc-version MAJOR.MINOR" (jasmin itself writes
# 46.0), and touches STAMP. Without jasmin (or java) the stamp says what is missing
# and the tests that use the corpus skip (tests/lib/need.sh): a plain build succeeds.
# usage: build_jasmin_corpus.sh SOURCE_ROOT OUT STAMP
set -euo pipefail
src=$1/tests/data/jasmin out=$2 stamp=$3
lib=${JAVA_LIB_DIR:-/usr/share/java}
jasmin_jar=$lib/jasmin-sable.jar
cup=$lib/cup.jar
[ -f "$cup" ] || cup=$lib/java-cup-0.11b-runtime.jar
if [ ! -f "$jasmin_jar" ] || [ ! -f "$cup" ]; then
	echo "missing: $jasmin_jar (jasmin-sable)" >"$stamp"
	exit 0
fi
if ! command -v java >/dev/null 2>&1; then
	echo "missing: java (default-jdk-headless)" >"$stamp"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out/classes" "$out/bad"

# Bytes 4..7 of a class file: minor_version, major_version (JVMS 4.1).
set_version() {
	local file=$1 major=$2 minor=$3
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((minor >> 8)) $((minor & 255)) $((major >> 8)) $((major & 255)))" |
		dd of="$file" bs=1 seek=4 count=4 conv=notrunc status=none
}

assemble() {
	local j=$1 dir=$2
	local v major minor name
	v=$(sed -n 's/^; tc-version \([0-9]*\)\.\([0-9]*\)$/\1 \2/p' "$j")
	[ -n "$v" ] || { echo "$j: no '; tc-version' line" >&2; exit 1; }
	read -r major minor <<<"$v"
	name=$(awk '$1 == ".class" { print $NF }' "$j")
	java -cp "$jasmin_jar:$cup" jasmin.Main -d "$dir" "$j" >"$out/jasmin.log" 2>&1 || { cat "$out/jasmin.log" >&2; exit 1; }
	[ -f "$dir/$name.class" ] || { cat "$out/jasmin.log" >&2; echo "$j: no $dir/$name.class" >&2; exit 1; }
	set_version "$dir/$name.class" "$major" "$minor"
}

for j in "$src"/*.j; do
	assemble "$j" "$out/classes"
done
for j in "$src"/bad/*.j; do
	assemble "$j" "$out/bad"
done
echo "$(find "$out/classes" -name '*.class' | wc -l) classes" > "$stamp"
