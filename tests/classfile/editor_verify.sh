#!/usr/bin/env bash
# HotSpot verifies what the editor unit tests produce: test-classfile-editor writes
# every class it edits to $TC_VERIFY_OUT (helpers.c: tc_emit); all must verify.
# usage: editor_verify.sh TEST_EXE TOOLS WORK
set -euo pipefail
exe=$1 tools=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
TC_VERIFY_OUT=$work "$exe" >"$work.log" 2>&1 || { tail -n 30 "$work.log" >&2; exit 1; }
n=$(find "$work" -name '*.class' | wc -l)
echo "$n classes from the editor unit tests"
"$here/verify.sh" "$tools" 30 "$work"
