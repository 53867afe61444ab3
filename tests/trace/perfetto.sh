#!/usr/bin/env bash
# perfetto.sh SRC: tc-trace perfetto's traces, judged twice: by protoc against Perfetto's
# published perfetto_trace.proto (tests/data/perfetto: every field must be one the schema
# knows), and by tests/trace/perfetto_check.py, a decoder of our own that compares each
# trace with the Chrome JSON export of the same ring (slices, times, nesting, arguments,
# reports). Environment (set by meson): TC_TRACE, TRACE_GEN.
set -u
src=$1
. "$src/tests/lib/need.sh"
need_cmd protoc protobuf-compiler
need_cmd python3 python3
proto_dir=$src/tests/data/perfetto
T=$TC_TRACE
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
expect() {
  d=$1; shift
  if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
}
# schema FILE: protoc decodes it as a perfetto.protos.Trace and finds no field the
# published schema lacks (protoc prints those by number: "  99: 1")
schema() {
  protoc --proto_path="$proto_dir" --decode=perfetto.protos.Trace perfetto_trace.proto <"$1" >"$1.txt" 2>"$1.err" ||
    { cat "$1.err"; return 1; }
  ! grep -nE '^ *[0-9]+ *[:{]' "$1.txt" | head -5 | grep . || return 1
}
# judge NAME RING [ARGS...]: both exports of RING, then both checks
judge() {
  name=$1 ring=$2; shift 2
  "$T" perfetto --ring "$ring" "$@" -o "$dir/$name.pftrace" 2>"$dir/$name.err"
  expect "$name: perfetto export" test $? -eq 0
  "$T" chrome --ring "$ring" "$@" --min-us 0 -o "$dir/$name.json" 2>/dev/null
  expect "$name: protoc decodes it against perfetto_trace.proto, no unknown field" schema "$dir/$name.pftrace"
  expect "$name: our decoder agrees with the Chrome export" python3 "$src/tests/trace/perfetto_check.py" "$dir/$name.pftrace" "$dir/$name.json"
}

mkdir "$dir/sample" "$dir/threads"
"$TRACE_GEN" sample "$dir/sample" >/dev/null || exit 1
"$TRACE_GEN" threads "$dir/threads" >/dev/null || exit 1
s=$dir/sample t=$dir/threads
judge sample "$s/ring" --mapping "$s/methodMapping.txt" --reports "$s/reports.jsonl"
expect "sample: the clock is named CLOCK_MONOTONIC" grep -q 'primary_trace_clock: BUILTIN_CLOCK_MONOTONIC' "$dir/sample.pftrace.txt"
expect "sample: reports carry their fields" grep -q 'name: "stackKeyDecoded"' "$dir/sample.pftrace.txt"
expect "sample: the 4 reports are instants" test "$(grep -c 'type: TYPE_INSTANT' "$dir/sample.pftrace.txt")" -eq 4
judge sample-full "$s/ring" --mapping "$s/methodMapping.txt" --names full
judge sample-nomap "$s/ring"
judge message "$s/ring" --mapping "$s/methodMapping.txt" --message 0
judge threads "$t/ring" --mapping "$t/methodMapping.txt"
expect "threads: a track per thread, named" sh -c "grep -c 'thread_name: ' '$dir/threads.pftrace.txt' | grep -qx 3"
expect "threads: the sections' track" grep -q 'name: "main sections"' "$dir/threads.pftrace.txt"
expect "threads: the messages' track" grep -q 'name: "main messages"' "$dir/threads.pftrace.txt"
judge threads-io "$t/ring" --mapping "$t/methodMapping.txt" --thread io-1

# the recording thread's track carries its id from the ring, as the other threads'
# do: on Android that is the pid, on HotSpot another thread (issue 28)
mkdir "$dir/off"
"$TRACE_GEN" off-main "$dir/off" >/dev/null || exit 1
"$T" tree --ring "$dir/off/ring" >"$dir/off.txt" || exit 1
opid=$(sed -n '1s/.*(pid \([0-9]*\)).*/\1/p' "$dir/off.txt")
otid=$(sed -n 's/.*thread main (tid \([0-9]*\)).*/\1/p' "$dir/off.txt" | head -1)
expect "off-main: the ring's main thread is not the pid ($otid, pid $opid)" \
  sh -c "test -n '$otid' && test -n '$opid' && test '$otid' != '$opid'"
judge off-main "$dir/off/ring" --mapping "$dir/off/methodMapping.txt"
expect "off-main: chrome's main track has the ring's tid $otid" \
  grep -q "\"ph\":\"M\",\"pid\":$opid,\"tid\":$otid,[^}]*\"args\":{\"name\":\"main\"}" "$dir/off-main.json"
expect "off-main: perfetto's main thread has the ring's tid $otid" \
  sh -c "grep -B2 'thread_name: \"main\"' '$dir/off-main.pftrace.txt' | grep -q 'tid: $otid\$'"
# the clock's tick in every output that shows a duration (issue 28): off-main's ring
# ticked every 1 ms, so a span under 1 ms reads 0 ms
expect "off-main: tree says the clock's tick" grep -q '^# times in whole ms: the clock ticked every 1 ms' "$dir/off.txt"
"$T" messages --ring "$dir/off/ring" >"$dir/off-messages.txt"
expect "off-main: messages says the clock's tick" grep -q '^# times in whole ms: the clock ticked every 1 ms' "$dir/off-messages.txt"
expect "off-main: chrome's otherData has the tick" grep -q '"clockResolutionMs":1[,}]' "$dir/off-main.json"
expect "off-main: perfetto's metadata has the tick" \
  sh -c "grep -A1 'name: \"clockResolutionMs\"' '$dir/off-main.pftrace.txt' | grep -q 'int_value: 1\$'"
"$T" html --ring "$dir/off/ring" -o "$dir/off.html"
expect "off-main: the report page's data has the tick" grep -q '"resolutionMs":1[,}]' "$dir/off.html"
expect "off-main: the report page shows it" grep -q 'D.resolutionMs' "$dir/off.html"

# the checks can fail: a cut trace, a packet with a field the schema lacks, a slice lost
head -c -3 "$dir/sample.pftrace" >"$dir/cut.pftrace"
expect "a cut trace: protoc refuses it" sh -c "! protoc --proto_path='$proto_dir' --decode=perfetto.protos.Trace perfetto_trace.proto <'$dir/cut.pftrace' >/dev/null 2>&1"
expect "a cut trace: our decoder refuses it" sh -c "! python3 '$src/tests/trace/perfetto_check.py' '$dir/cut.pftrace' '$dir/sample.json' >/dev/null"
{ cat "$dir/sample.pftrace"; printf '\012\003\310\076\001'; } >"$dir/unknown.pftrace" # packet { 999: 1 }
if schema "$dir/unknown.pftrace" >/dev/null 2>&1; then
  fail=$((fail + 1)); echo "not ok - an unknown field: the schema check finds it"
else
  pass=$((pass + 1)); echo "ok - an unknown field: the schema check finds it"
fi
python3 - "$dir/sample.json" "$dir/less.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
b = max(i for i, e in enumerate(ev) if e["ph"] == "B")
e = next(i for i in range(b + 1, len(ev)) if ev[i]["ph"] == "E")
del ev[e], ev[b]  # one slice fewer
json.dump(d, open(sys.argv[2], "w"))
P
expect "a slice fewer in Chrome's: our decoder says so" sh -c "python3 '$src/tests/trace/perfetto_check.py' '$dir/sample.pftrace' '$dir/less.json' | grep -q 'slices, Chrome'"

# usage: a binary trace is not written to a terminal (script gives the test one)
if command -v script >/dev/null 2>&1; then
  script -qec "'$T' perfetto --ring '$s/ring'" /dev/null >"$dir/tty.out" 2>&1
  expect "a terminal: refused, -o named" grep -q 'give -o FILE' "$dir/tty.out"
fi
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
