#!/usr/bin/env bash
# The Gradle wiring, exercised: a first build creates the base mapping; a build with no
# change reuses both inputs' results from tc-instrument's cache; a build after adding a
# method keeps every id (diff passes); a build against a corrupt base (two methods with
# one id) fails. The instrumented jar's classes verify on HotSpot.
#
# usage: samples/gradle/test.sh TC_INSTRUMENT WORK_DIR
set -euo pipefail
tc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/lib/need.sh"
need_cmd gradle gradle
rm -rf "$work"
mkdir -p "$work"
cp -r "$here/src" "$here/build.gradle" "$here/settings.gradle" "$work/"
export GRADLE_USER_HOME=$work/.gradle-home
# tc-instrument's cache under the work directory (its default is ~/.cache/...)
export XDG_CACHE_HOME=$work/.cache
gradle_run() {
	(cd "$work" && gradle --offline --no-daemon -q -Ptc="$tc" -Pruntime="$work/beat.jar" instrument) >"$work/gradle.log" 2>&1
}
# The app's runtime (a dependency, -Pruntime): a beat class that counts calls, so that
# the instrumented jar can be run below as the plain one is.
mkdir -p "$work/beat/com/tencent/matrix/trace/core"
cat > "$work/beat/com/tencent/matrix/trace/core/AppMethodBeat.java" <<'JAVA'
package com.tencent.matrix.trace.core;
public final class AppMethodBeat {
    static int depth, calls;
    public static void i(int id) { depth++; calls++; }
    public static void o(int id) { depth--; }
    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("beat " + calls + " " + depth))); }
}
JAVA
javac -d "$work/beat" "$work/beat/com/tencent/matrix/trace/core/AppMethodBeat.java"
(cd "$work/beat" && jar cf "$work/beat.jar" com)

gradle_run || { cat "$work/gradle.log"; exit 1; }
base=$work/tracecanary/methodMapping.txt
[ -s "$base" ] || { echo "no base mapping written"; exit 1; }
grep -q 'shop.Cart total ()J' "$base"
cp "$base" "$work/first-mapping.txt"
echo "first build: $(($(wc -l < "$base") - 1)) methods traced"
cp -r "$work/build/tracecanary" "$work/first-output"

# Nothing changed: the cache gives both results (the class directory and the jar).
gradle_run || { cat "$work/gradle.log"; exit 1; }
reused=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cache"]["results_reused"])' \
	"$work/build/tracecanary/mapping/instrument-stats.json")
[ "$reused" = 2 ] || { echo "the unchanged build reused $reused results, not 2"; exit 1; }
diff -r -x instrument-stats.json "$work/first-output" "$work/build/tracecanary" ||
	{ echo "the cached build's outputs differ from the first build's"; exit 1; }
echo "unchanged build: both results from the cache, the same outputs"

# A change that adds a traced method: every known id must stay.
sed -i 's|    public long total() {|    public int count() {\n        return Math.max(0, lines.size());\n    }\n\n    public long total() {|' \
	"$work/src/main/java/shop/Cart.java"
gradle_run || { echo "the build after adding a method failed"; cat "$work/gradle.log"; exit 1; }
grep -q 'shop.Cart count ()I' "$base"
"$tc" diff "$work/first-mapping.txt" "$base" | tail -1
echo "second build: ids kept"

# A corrupt base that gives two methods one id cannot be honoured: one of them gets a
# new id, diff reports it, and the build must fail.
dup=$(grep 'shop.Cart add ' "$work/first-mapping.txt" | cut -d, -f1)
awk -F, -v id="$dup" 'BEGIN {OFS=","} /shop.Cart total/ {$1 = id} {print}' "$work/first-mapping.txt" > "$base"
if gradle_run; then
	echo "the build passed although an id changed"
	exit 1
fi
grep -q 'method ids changed' "$work/gradle.log"
echo "third build: failed on a changed id, as it must"

# third build failed on purpose: rebuild the jar with the good base first
cp "$work/first-mapping.txt" "$base"
gradle_run || { cat "$work/gradle.log"; exit 1; }
plain=$(java -cp "$work/build/libs/tracecanary-gradle-sample.jar" shop.Main)
traced=$(java -Xverify:all -cp "$work/build/tracecanary/tracecanary-gradle-sample.jar:$work/beat" shop.Main 2>"$work/beat.log")
[ "$plain" = "$traced" ] || { echo "output differs: '$plain' vs '$traced'"; exit 1; }
read -r _ calls depth < "$work/beat.log"
[ "$calls" -gt 0 ] && [ "$depth" -eq 0 ] || { echo "beat: $calls calls, depth $depth at exit"; exit 1; }
echo "instrumented jar: same output ($traced), $calls traced calls, balanced"
