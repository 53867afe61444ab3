#!/usr/bin/env bash
# The README's main story as a test: build, instrument and run the sample app with the
# runtime, then check its reports (check_sample.py).
# usage: sample_app.sh BUILD_DIR OUT SOURCE_ROOT
set -euo pipefail
build=$1 out=$2 src=$3
bash "$src/samples/app/run.sh" "$build" "$out" >"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
# what the run printed says each note once
twice=$(grep '^tc-trace: note: ' "$out.log" | sort | uniq -d)
[ -z "$twice" ] || { echo "notes printed twice by samples/app/run.sh:"; echo "$twice"; exit 1; }
# Every span, for check_sample.py to compare with trace.json (spans of 1 ms and more).
"$build/trace/tc-trace" chrome --ring "$out/trace.ring" --mapping "$out/mapping/methodMapping.txt" --events x \
	--min-us 0 -o "$out/trace-all.json" 2>/dev/null
# The hot list as the next build's block list, after the app's own.
cat "$src/samples/app/blocklist.txt" "$out/hot.rules" >"$out/hot-blocklist.txt"
"$build/src/tc-instrument" --mapping-dir "$out/hot-mapping" --blocklist "$out/hot-blocklist.txt" \
	--classpath "$build/runtime/android-stubs.jar" --in "$out/classes" --out "$out/hot-instrumented" \
	2>"$out/hot-instrument.log" || { cat "$out/hot-instrument.log"; exit 1; }
python3 "$src/tests/samples/check_sample.py" "$out"
