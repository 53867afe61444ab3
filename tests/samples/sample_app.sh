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
	--classpath "$build/runtime/android-stubs.jar" --classpath "$build/runtime/tracecanary-runtime.jar" \
	--in "$out/classes" --out "$out/hot-instrumented" \
	2>"$out/hot-instrument.log" || { cat "$out/hot-instrument.log"; exit 1; }
# The ring and the reports are bound to the build that recorded them (issue 21): the
# runtime read the build id from the marker class tc-instrument added, and tc-trace
# compares it with the mapping. The hot-list build above is another build: its mapping
# must be refused, unless --ignore-build-id.
fail() { echo "not ok - $1"; exit 1; }
id=$(cat "$out/mapping/buildId")
"$build/trace/tc-ringdump" -q "$out/trace.ring" | grep -qx "build id: $id" || fail "the ring records build $id"
[ "$(grep -c "\"buildId\":\"$id\"" "$out/reports.jsonl")" -eq "$(wc -l <"$out/reports.jsonl")" ] ||
	fail "every report carries build $id"
"$build/trace/tc-trace" tree --ring "$out/trace.ring" --mapping "$out/mapping/methodMapping.txt" \
	-o "$out/tree-check.txt" 2>"$out/tree-check.err" || fail "tree with its own mapping"
! grep -qi "build" "$out/tree-check.err" || fail "no build-id note or warning with its own mapping: $(cat "$out/tree-check.err")"
other=$out/hot-mapping/methodMapping.txt
! cmp -s "$out/mapping/buildId" "$out/hot-mapping/buildId" || fail "the hot-list build has another build id"
rc=0
"$build/trace/tc-trace" tree --ring "$out/trace.ring" --mapping "$other" -o "$out/tree-other.txt" \
	2>"$out/tree-other.err" || rc=$?
[ $rc -eq 1 ] || fail "another build's mapping: exit $rc, wanted 1"
grep -qF "$out/trace.ring was recorded by build $id, but $other is the mapping of build $(cat "$out/hot-mapping/buildId")" \
	"$out/tree-other.err" || fail "the refusal names both builds and files: $(cat "$out/tree-other.err")"
[ ! -e "$out/tree-other.txt" ] || fail "nothing written on a refusal"
"$build/trace/tc-trace" tree --ring "$out/trace.ring" --mapping "$other" --ignore-build-id \
	-o "$out/tree-other.txt" 2>"$out/tree-other.err" || fail "--ignore-build-id decodes anyway"
grep -q "warning: .*--ignore-build-id" "$out/tree-other.err" || fail "--ignore-build-id warns"
echo "ok - build ids: the sample's ring and reports carry $id; another build's mapping is refused"
# Instrumenting the instrumented app again changes nothing (its Activities' focus calls
# included): the same classes, the same mapping, the same build id.
"$build/src/tc-instrument" --quiet --mapping-dir "$out/again-mapping" --blocklist "$src/samples/app/blocklist.txt" \
	--classpath "$build/runtime/android-stubs.jar" --classpath "$build/runtime/tracecanary-runtime.jar" \
	--in "$out/instrumented" --out "$out/again" \
	2>"$out/again.log" || { cat "$out/again.log"; exit 1; }
diff -r "$out/instrumented" "$out/again" >/dev/null || fail "instrumenting the output again changes it"
cmp -s "$out/mapping/methodMapping.txt" "$out/again-mapping/methodMapping.txt" || fail "the second run's mapping differs"
cmp -s "$out/mapping/buildId" "$out/again-mapping/buildId" || fail "the second run's build id differs"
echo "ok - instrumenting the instrumented sample again leaves it as it was"
python3 "$src/tests/samples/check_sample.py" "$out"
