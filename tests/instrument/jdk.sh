#!/usr/bin/env bash
# The JDK instrumented by tc-instrument must still work: every class of every module
# loads and verifies (-Xverify:all), and the instrumented javac compiles a source set
# to the same class files as the normal javac, with as many o() as i() calls on its
# thread (tcbeat.Beat counts them; see java/tcbeat/Beat.java).
#
# usage: jdk.sh TC_INSTRUMENT JDK_MODULES_DIR WORK_DIR SOURCE_ROOT
set -euo pipefail
tc=$1 corpus=$2 work=$3 src=$4
here="$src/tests/instrument"
. "$src/tests/lib/need.sh"
need_file /usr/share/java/asm-commons.jar libasm-java
rm -rf "$work"
mkdir -p "$work"

"$tc" --quiet --no-runtime-check --beat-class tcbeat/Beat --mapping-dir "$work/map" --in "$corpus" --out "$work/mods"
grep -q '"malformed": 0' "$work/map/instrument-stats.json"
grep -q '"skipped": 0' "$work/map/instrument-stats.json"
traced=$(($(wc -l < "$work/map/methodMapping.txt") - 1))
echo "traced $traced methods"
[ "$traced" -gt 100000 ]

javac -nowarn --patch-module java.base="$here/java" -d "$work/mods/java.base" "$here/java/tcbeat/Beat.java"
javac -nowarn --patch-module java.base="$work/mods/java.base" --add-exports java.base/tcbeat=ALL-UNNAMED \
	-d "$work/driver" "$here/java/driver/RunJavac.java" "$here/java/driver/VerifyModules.java"

patches=()
exports=ALL-UNNAMED
for m in "$work"/mods/*/; do
	m=$(basename "$m")
	patches+=(--patch-module "$m=$work/mods/$m")
	exports="$exports,$m"
done
run() {
	java -Xverify:all "${patches[@]}" --add-modules ALL-SYSTEM --add-exports "java.base/tcbeat=$exports" \
		-cp "$work/driver" "$@" 2> >(grep -v '^WARNING' >&2)
}

run driver.VerifyModules "$work/mods"

# A source set nobody here tuned for this: the benchmark peers (those that need only
# Debian's ASM) and the runtime's Java classes with their Android stubs.
cp=$(printf '/usr/share/java/%s.jar:' asm asm-tree asm-commons asm-util asm-analysis)
mapfile -t sources < <(find "$src/bench/peers" "$src/runtime/java" "$src/tests/android-stubs" \
	-name '*.java' ! -name 'Jacoco*' ! -name module-info.java | sort)
mkdir -p "$work/plain" "$work/traced"
javac -g -Xlint:all -cp "$cp" -d "$work/plain" "${sources[@]}" 2>/dev/null
run driver.RunJavac -g -Xlint:all -cp "$cp" -d "$work/traced" "${sources[@]}" 2>/dev/null
diff -r "$work/plain" "$work/traced"
echo "instrumented javac: same class files"
