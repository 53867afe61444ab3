#!/usr/bin/env bash
# Extracts the running JDK's own classes (lib/modules) into DIR, as jimage lays them
# out (DIR/module/a/b/C.class), and touches STAMP. The test suites share the result.
# usage: extract_jdk.sh DIR STAMP
set -euo pipefail
dir=$1 stamp=$2
home=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')
[ -f "$home/lib/modules" ] || { echo "no lib/modules under java.home=$home" >&2; exit 1; }
rm -rf "$dir.tmp"
jimage extract --dir "$dir.tmp" "$home/lib/modules"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$(find "$dir" -name '*.class' | wc -l) classes from $home" > "$stamp"
