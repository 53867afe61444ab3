#!/usr/bin/env bash
# README.md's own integration command ("Adding it to an app's build", step 1), taken
# from README.md as it is and run as written, on a first build (no base mapping yet)
# and on a second one (the base from the first: ids kept, diff passes); then a base
# that gives an id to another method: the run fails on diff and the base is kept
# (issue 29, item 3: it failed on a first build, --base-mapping: cannot open).
#
# usage: tests/samples/readme_command.sh SOURCE_ROOT TC_INSTRUMENT WORK_DIR
set -euo pipefail
src=$1
tc=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work=$3
. "$src/tests/lib/need.sh"
need_cmd javac default-jdk-headless
rm -rf "$work"
mkdir -p "$work/bin"
ln -s "$tc" "$work/bin/tc-instrument"
export PATH=$work/bin:$PATH
export XDG_CACHE_HOME=$work/.cache

# the command: the first ```sh block after the heading, its list indent taken off
awk '/^## Adding it to an app.s build/ { on = 1 }
     on && /^ *```sh$/ { inblock = 1; next }
     inblock && /^ *```$/ { exit }
     inblock { sub(/^   /, ""); print }' "$src/README.md" > "$work/command.sh"
grep -q '^tc-instrument ' "$work/command.sh" || { echo "no command found in README.md"; exit 1; }

# the project it expects: compiled classes, the app's jar, the runtime in libs/
app=$work/app
mkdir -p "$app/build/classes/java/main" "$app/build/libs" "$app/libs" "$work/beat/com/tencent/matrix/trace/core"
cat > "$work/beat/com/tencent/matrix/trace/core/AppMethodBeat.java" <<'JAVA'
package com.tencent.matrix.trace.core;
public final class AppMethodBeat {
    public static void i(int id) {}
    public static void o(int id) {}
}
JAVA
javac -d "$work/beat" "$work/beat/com/tencent/matrix/trace/core/AppMethodBeat.java"
(cd "$work/beat" && jar cf "$app/libs/tracecanary-runtime.jar" com)
javac --release 8 -d "$app/build/classes/java/main" $(find "$src/samples/gradle/src/main/java" -name '*.java')
(cd "$app/build/classes/java/main" && jar cf "$app/build/libs/app.jar" .)

run() { (cd "$app" && sh -e "$work/command.sh") >"$work/$1.log" 2>&1; }
run first || { echo "the first build failed:"; cat "$work/first.log"; exit 1; }
[ -s "$app/tracecanary/methodMapping.txt" ] || { echo "the first build kept no base mapping"; exit 1; }
[ -f "$app/build/tracecanary/app.jar" ] && [ -d "$app/build/tracecanary/classes" ]
echo "first build: exit 0, base mapping kept ($(grep -c , "$app/tracecanary/methodMapping.txt") lines)"
cp "$app/tracecanary/methodMapping.txt" "$work/first-mapping.txt"

run second || { echo "the second build failed:"; cat "$work/second.log"; exit 1; }
grep -q ' 0 changed, ' "$work/second.log" || { echo "the second build ran no diff:"; cat "$work/second.log"; exit 1; }
cmp "$work/first-mapping.txt" "$app/tracecanary/methodMapping.txt"
echo "second build: exit 0, diff ran ($(grep ' changed, ' "$work/second.log"))"

# a base that gives one method's id to another: diff fails, the base stays as it was
dup=$(grep 'shop.Cart add ' "$work/first-mapping.txt" | cut -d, -f1)
awk -F, -v id="$dup" 'BEGIN {OFS=","} /shop.Cart total/ {$1 = id} {print}' "$work/first-mapping.txt" > "$app/tracecanary/methodMapping.txt"
cp "$app/tracecanary/methodMapping.txt" "$work/bad-base.txt"
if run third; then echo "a changed id passed"; cat "$work/third.log"; exit 1; fi
cmp "$work/bad-base.txt" "$app/tracecanary/methodMapping.txt" || { echo "the base was replaced after a failed diff"; exit 1; }
echo "a changed id: the command fails, the base is kept"
