#!/bin/sh
# e2e.sh MODE: tc-trace on files the runtime wrote.
# Environment (set by meson): TC_TRACE, TRACE_GEN, TRACE_CHECK.
#   sample     a ring, reports and a mapping from trace_gen: tree, messages,
#              slices, reports (json and text), chrome, flame graphs
#   wrap       a ring that wrapped: outs without ins are dropped, output nests
#   crash      a ring left by a process killed with kill -9 inside a message
#   malformed  bad ring, mapping, report lines and usage give clear errors
#   threads    a ring and its thread file (threads = all): per-thread and
#              all-thread trees, flame graphs and Chrome tracks with thread
#              names, sections as named slices and as --section slices
#   compare    two builds' launches (trace_gen compare), one method slowed: compare
#              names it first, within 10% of the truth, nothing else; a build
#              against itself 20 times: nothing flagged; the gate; bad input
#   fleet      two fleets' report files (trace_gen fleet), one stack made 3x as
#              frequent, one slower, one new: compare names each, nothing else;
#              a fleet against itself: nothing; bad input
set -u
mode=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
expect() { # expect DESCRIPTION COMMAND...
  d=$1; shift
  if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
}
# has FILE TEXT: FILE contains the fixed string TEXT
has() { grep -qF -- "$2" "$1"; }
# fails_with CODE TEXT COMMAND...: exits CODE (not a crash) and says TEXT on stderr
fails_with() {
  code=$1 text=$2; shift 2
  "$@" >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq "$code" ] || { echo "  exit $rc, wanted $code"; cat "$dir/err"; return 1; }
  grep -qF -- "$text" "$dir/err" || { echo "  stderr lacks: $text"; cat "$dir/err"; return 1; }
}
json_ok() { # json_ok FILE: python's parser agrees, where there is python
  if command -v python3 >/dev/null 2>&1; then python3 -m json.tool "$1" >/dev/null; else true; fi
}
xml_ok() { # xml_ok FILE: well-formed XML, where there is python
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"
  else true; fi
}
T=$TC_TRACE

case "$mode" in
sample)
  # the ring of an app tc-instrument instrumented: it carries its mapping's build id
  TRACE_GEN_BUILD_ID=mapping "$TRACE_GEN" sample "$dir" || exit 1
  m=$dir/methodMapping.txt r=$dir/ring rep=$dir/reports.jsonl

  "$T" tree --ring "$r" --mapping "$m" -o "$dir/tree.txt"
  expect "tree runs" test $? -eq 0
  sed -n 1,40p "$dir/tree.txt"
  expect "tree: names come from the mapping" has "$dir/tree.txt" "sample.Main.slowWork ()V"
  expect "tree: the messages are dispatchMessage, 6 calls" \
    grep -Eq '^ +[0-9]+ +[0-9.]+ +[0-9]+ +6  android.os.Handler.dispatchMessage \(Landroid.os.Message;\)V' "$dir/tree.txt"
  expect "tree: slowWork 790 ms total, 760 self, 1 call" \
    grep -Eq '^ +790 +[0-9.]+ +760 +1      sample.Main.slowWork \(\)V$' "$dir/tree.txt"
  expect "tree: parse merged, 5 calls 30 ms, under slowWork" \
    grep -Eq '^ +30 +[0-9.]+ +30 +5        sample.Parser.parse \(Ljava.lang.String;\)Ljava.lang.Object;$' "$dir/tree.txt"
  expect "tree: an id with no entry shows as #40" grep -Eq ' +2 +1      #40$' "$dir/tree.txt"
  expect "tree: <init> is a name like any other" has "$dir/tree.txt" "sample.Main.<init> ()V"
  expect "tree: before the first message, App.onCreate at top level" grep -Eq ' 4 +1  sample.App.onCreate \(\)V$' "$dir/tree.txt"
  expect "tree: the lost out is marked" grep -q 'sample.Net.connect ()V  \[no out: closed with its caller\]' "$dir/tree.txt"
  expect "tree: the open method is marked" grep -q 'sample.Main.finish ()V  \[no out: still running at the end\]' "$dir/tree.txt"

  "$T" messages --ring "$r" --mapping "$m" >"$dir/messages.txt"
  cat "$dir/messages.txt"
  expect "messages: six, message 1 is 800 ms in onClick" grep -Eq '^ +1 +[0-9]+ +800  sample.Main.onClick' "$dir/messages.txt"
  expect "messages: six" test "$(grep -c '^ *[0-9]' "$dir/messages.txt")" -eq 6
  "$T" messages --ring "$r" --mapping "$m" --sort dur >"$dir/messages-dur.txt"
  expect "messages --sort dur: the slowest first (3, 1, 0, 4, 2, 5)" \
    test "$(awk '/^ *[0-9]/ { printf "%s ", $1 }' "$dir/messages-dur.txt")" = "3 1 0 4 2 5 "
  expect "messages --sort dur: the same rows as in call order" \
    test "$(grep '^ *[0-9]' "$dir/messages-dur.txt" | sort)" = "$(grep '^ *[0-9]' "$dir/messages.txt" | sort)"
  expect "messages --sort total: refused, naming the choices" fails_with 2 "--sort of messages is call or dur" \
    "$T" messages --ring "$r" --sort total

  "$T" tree --ring "$r" --mapping "$m" --message 1 --sort call >"$dir/m1.txt"
  expect "tree --message 1: only the slow click" sh -c "has() { grep -qF -- \"\$2\" \"\$1\"; }; has '$dir/m1.txt' slowWork && ! has '$dir/m1.txt' inflate"
  from=$(awk '$1 == 1 { print $2 }' "$dir/messages.txt")
  "$T" tree --ring "$r" --mapping "$m" --from "$((from + 100))" --to "$((from + 200))" >"$dir/t.txt"
  expect "tree --from/--to: clipped to 100 ms of slowWork" grep -Eq '^ +100 +[0-9.]+ +100 +1 +sample.Main.slowWork' "$dir/t.txt"

  "$T" reports --reports "$rep" --mapping "$m" -o "$dir/decoded.jsonl"
  expect "reports runs" test $? -eq 0
  expect "reports: as many lines as in" test "$(wc -l <"$dir/decoded.jsonl")" -eq "$(wc -l <"$rep")"
  expect "reports: every line parses" "$TRACE_CHECK" jsonl "$dir/decoded.jsonl"
  expect "reports: original stack kept" has "$dir/decoded.jsonl" '"stack":"0,1048574,1,800\n1,20,1,800\n2,21,1,790\n3,22,5,30\n"'
  expect "reports: stackDecoded follows it" \
    has "$dir/decoded.jsonl" '"stackDecoded":[{"depth":0,"id":1048574,"name":"android.os.Handler.dispatchMessage (Landroid.os.Message;)V","count":1,"durMs":800},{"depth":1,"id":20,"name":"sample.Main.onClick (Landroid.view.View;)V","count":1,"durMs":800}'
  expect "reports: stackKeyDecoded" has "$dir/decoded.jsonl" '"stackKey":"21|","stackKeyDecoded":"sample.Main.slowWork ()V|"'
  expect "reports: the ANR report's stack" has "$dir/decoded.jsonl" '"name":"sample.Main.stuck ()V"'
  "$T" reports --reports "$rep" --mapping "$m" --format text >"$dir/decoded.txt"
  sed -n 1,30p "$dir/decoded.txt"
  expect "reports text: the slow message" has "$dir/decoded.txt" "Trace_EvilMethod NORMAL"
  expect "reports text: the key by name" has "$dir/decoded.txt" "  stackKey: sample.Main.slowWork ()V|"
  expect "reports text: the stack as a tree" grep -Eq '^ +790 +1      sample.Main.slowWork \(\)V$' "$dir/decoded.txt"
  expect "reports text: the ANR and its thread stack" has "$dir/decoded.txt" "    at sample.Main.stuck(Main.java:42)"
  "$T" reports --reports - --tag Trace_StartUp <"$rep" >"$dir/none.jsonl"
  expect "reports --tag from stdin: no startup reports here" test ! -s "$dir/none.jsonl"
  "$T" reports --reports "$dir/decoded.jsonl" --mapping "$m" >"$dir/twice.jsonl"
  expect "reports: decoding its own output gives the same" cmp -s "$dir/decoded.jsonl" "$dir/twice.jsonl"

  "$T" chrome --ring "$r" --mapping "$m" --reports "$rep" --min-us 0 -o "$dir/trace.json"
  expect "chrome runs" test $? -eq 0
  head -c 600 "$dir/trace.json"; echo
  expect "chrome: parses and nests per thread" "$TRACE_CHECK" chrome "$dir/trace.json"
  expect "chrome: python's json agrees" json_ok "$dir/trace.json"
  expect "chrome: thread name" has "$dir/trace.json" '"ph":"M","pid":'
  expect "chrome: message slices" has "$dir/trace.json" '"name":"message 1","cat":"message"'
  expect "chrome: method slices named from the mapping" has "$dir/trace.json" '"name":"sample.Main.slowWork","cat":"method","args":{"id":21,"method":"sample.Main.slowWork ()V"}'
  base=$(grep -o '"timeBaseUs":[0-9]*' "$dir/trace.json" | cut -d: -f2)
  expect "chrome: slowWork begins at its ms in us on the ring's clock" \
    has "$dir/trace.json" "\"ts\":$(( ${base:-0} + (from + 5) * 1000 )),\"name\":\"sample.Main.slowWork\""
  "$T" chrome --ring "$r" --mapping "$m" -o "$dir/short.json" 2>"$dir/err"
  expect "chrome: spans under 1 ms are left out by default, and said so" \
    sh -c "grep -q 'were shorter than 1000 us and left out' '$dir/err' && grep -q '\"shortSpansLeftOut\":[1-9]' '$dir/short.json'"
  expect "chrome: no '0 ms in all' for spans the ring recorded as 0 ms" \
    sh -c "! grep -q '0 ms in all' '$dir/err' && grep -q 'each was recorded as 0 ms' '$dir/err'"
  "$T" chrome --ring "$r" --mapping "$m" --min-us 10000 -o /dev/null 2>"$dir/err10"
  expect "chrome --min-us 10000: the outermost left-out spans' sum (44 ms)" has "$dir/err10" 'left out, 44 ms in all as recorded'
  expect "chrome: each note once" sh -c "[ \$(sort '$dir/err' | uniq -d | wc -l) = 0 ]"
  expect "chrome: what stays nests" "$TRACE_CHECK" chrome "$dir/short.json"
  expect "chrome: slowWork stays" has "$dir/short.json" '"name":"sample.Main.slowWork"'
  expect "chrome: fewer slices than with --min-us 0" \
    test "$(grep -c '"ph":"B"' "$dir/short.json")" -lt "$(grep -c '"ph":"B"' "$dir/trace.json")"
  expect "chrome: reports as instants" has "$dir/trace.json" '"ph":"i"'
  expect "chrome: report instant with its key" has "$dir/trace.json" '"stackKeyDecoded":"sample.Main.slowWork ()V|"'
  expect "chrome: report instant with its stack decoded" has "$dir/trace.json" \
    '"stackDecoded":[{"depth":0,"id":1048574,"name":"android.os.Handler.dispatchMessage (Landroid.os.Message;)V","count":1,"durMs":800},{"depth":1,"id":20,"name":"sample.Main.onClick (Landroid.view.View;)V","count":1,"durMs":800}'
  "$T" chrome --ring "$r" --mapping "$m" --events x --message 1..2 -o "$dir/x.json"
  expect "chrome --events x of messages 1..2 nests" "$TRACE_CHECK" chrome "$dir/x.json"
  expect "chrome --events x: no B" sh -c "! grep -q '\"ph\":\"B\"' '$dir/x.json'"

  "$T" flame --ring "$r" --mapping "$m" -o "$dir/flame.svg" --title "sample <app> & co"
  expect "flame runs" test $? -eq 0
  expect "flame: an SVG" has "$dir/flame.svg" '<svg xmlns="http://www.w3.org/2000/svg"'
  expect "flame: no scripts or links" sh -c "! grep -Eq '<script|href=|@import|url\\(' '$dir/flame.svg'"
  "$T" flame --ring "$r" --mapping "$m" --message 0 -o "$dir/m0.svg"
  expect "flame --message 0: names escaped" has "$dir/m0.svg" "<title>sample.Main.&lt;init&gt; ()V (1 ms"
  expect "flame --message 0: well-formed XML" xml_ok "$dir/m0.svg"
  expect "flame: title escaped" has "$dir/flame.svg" "sample &lt;app&gt; &amp; co"
  expect "flame: slowWork drawn" has "$dir/flame.svg" "<title>sample.Main.slowWork ()V (790 ms"
  expect "flame: well-formed XML" xml_ok "$dir/flame.svg"
  line=$(grep -n '"detail":"NORMAL"' "$rep" | head -1 | cut -d: -f1)
  "$T" flame --reports "$rep" --report "$line" --mapping "$m" -o "$dir/report.svg"
  expect "flame --report: the slow message's stack" has "$dir/report.svg" "<title>sample.Parser.parse (Ljava.lang.String;)Ljava.lang.Object; (30 ms"
  expect "flame --report: well-formed XML" xml_ok "$dir/report.svg"

  # the ring the run before left (FILE.prev) is named on stderr, by both programs, and
  # not when FILE.prev is itself read
  "$T" tree --ring "$r" --mapping "$m" >/dev/null 2>"$dir/noprev.err"
  expect "no FILE.prev: no note" test ! -s "$dir/noprev.err"
  cp "$r" "$r.prev"
  "$T" tree --ring "$r" --mapping "$m" >/dev/null 2>"$dir/prev.err"
  expect "FILE.prev: tc-trace names it" has "$dir/prev.err" "tc-trace: note: $r.prev holds the ring of the run before this one: --ring $r.prev reads it"
  "$T" tree --ring "$r.prev" --mapping "$m" >/dev/null 2>"$dir/prev2.err"
  expect "reading FILE.prev: no note" test ! -s "$dir/prev2.err"
  if [ -n "${TC_RINGDUMP:-}" ]; then
    expect "tc-ringdump: the status in words" sh -c "'$TC_RINGDUMP' -q '$r' | grep -q '^ring .*, status -3 (released: the process freed the runtime, the recording ended cleanly), resolution'"
    "$TC_RINGDUMP" -q "$r" >/dev/null 2>"$dir/dump.err"
    expect "FILE.prev: tc-ringdump names it" has "$dir/dump.err" "tc-ringdump: $r.prev holds the ring of the run before this one"
  fi
  rm -f "$r.prev"

  # events the runtime's copier dropped because a staged writer lapped it (the
  # header's lost field, tc_ringfile.h): said by tc-ringdump, the tree and the page
  cp "$r" "$dir/lapped"
  printf '\005\000\000\000\000\000\000\000' | dd of="$dir/lapped" bs=1 seek=112 conv=notrunc 2>/dev/null
  if [ -n "${TC_RINGDUMP:-}" ]; then
    expect "tc-ringdump: the events lost to lapping" sh -c "'$TC_RINGDUMP' -q '$dir/lapped' | grep -q '^lost to lapping: 5 events'"
    expect "tc-ringdump: nothing lost, nothing said" sh -c "! '$TC_RINGDUMP' -q '$r' | grep -q 'lost to lapping'"
  fi
  "$T" tree --ring "$dir/lapped" --mapping "$m" -o "$dir/lapped.txt"
  expect "tree: the events lost to lapping" has "$dir/lapped.txt" "# 5 events lost: the writer overwrote them before the runtime copied them"
  "$T" html --ring "$dir/lapped" --mapping "$m" -o "$dir/lapped.html" 2>/dev/null
  expect "html: the events lost to lapping" has "$dir/lapped.html" "5 events lost to a lapping writer"
  ;;
wrap)
  "$TRACE_GEN" wrap "$dir" || exit 1
  "$T" tree --ring "$dir/ring" -o "$dir/tree.txt" 2>"$dir/err"
  expect "tree of a wrapped ring runs" test $? -eq 0
  cat "$dir/tree.txt"
  expect "tree: without a mapping ids show as #id" has "$dir/tree.txt" "#1048574"
  expect "tree: the outs whose ins were overwritten are dropped and said so" \
    grep -Eq '^# [0-9]+ out events without an in' "$dir/tree.txt"
  "$T" chrome --ring "$dir/ring" -o "$dir/trace.json" 2>"$dir/err"
  cat "$dir/err"
  expect "chrome of a wrapped ring nests" "$TRACE_CHECK" chrome "$dir/trace.json"
  expect "chrome: python's json agrees" json_ok "$dir/trace.json"
  ;;
crash)
  ring=$dir/ring
  "$TRACE_GEN" crash "$ring" >"$dir/gen.out" 2>"$dir/gen.err" &
  pid=$!
  i=0
  until grep -q READY "$dir/gen.out" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
      echo "writer did not get ready"; cat "$dir/gen.out" "$dir/gen.err"; exit 1
    fi
    sleep 0.1
  done
  kill -9 $pid
  wait $pid 2>/dev/null
  kill -0 $pid 2>/dev/null && { echo "writer survived kill -9"; exit 1; }
  printf '300,8,sample.Crash loop ()V\n301,8,sample.Crash step (I)V\n' >"$dir/map"
  "$T" tree --ring "$ring" --mapping "$dir/map" -o "$dir/tree.txt"
  expect "tree of the killed process's ring runs" test $? -eq 0
  cat "$dir/tree.txt"
  expect "tree: header names the killed pid" has "$dir/tree.txt" "(pid $pid)"
  expect "tree: the message and the loop were still running" \
    grep -q 'sample.Crash.loop ()V  \[no out: still running at the end\]' "$dir/tree.txt"
  expect "tree: the 1000 steps merged under the loop" grep -Eq ' 1000      sample.Crash.step \(I\)V$' "$dir/tree.txt"
  "$T" chrome --ring "$ring" --mapping "$dir/map" --min-us 0 -o "$dir/trace.json"
  expect "chrome of the killed process's ring nests (open slices closed)" "$TRACE_CHECK" chrome "$dir/trace.json"
  expect "chrome: 1002 B and 1002 E" sh -c "'$TRACE_CHECK' chrome '$dir/trace.json' | grep -q '1002 B, 1002 E'"
  "$T" flame --ring "$ring" --mapping "$dir/map" -o "$dir/flame.svg"
  expect "flame of the killed process's ring" test $? -eq 0
  expect "flame: the steps are drawn" has "$dir/flame.svg" "<title>sample.Crash.step (I)V ("
  ;;
malformed)
  "$TRACE_GEN" sample "$dir" || exit 1
  m=$dir/methodMapping.txt r=$dir/ring rep=$dir/reports.jsonl
  printf 'NOTARING%0248d' 0 >"$dir/bad_magic"
  expect "bad magic: file and byte named" fails_with 1 "$dir/bad_magic: ring at byte 0: not a tracecanary ring (bad magic)" "$T" tree --ring "$dir/bad_magic"
  head -c 1000 "$r" >"$dir/short"
  expect "truncated ring: the size check at byte 24" fails_with 1 "$dir/short: ring at byte 24: capacity does not match the size" "$T" chrome --ring "$dir/short"
  head -c 100 "$r" >"$dir/tiny"
  expect "ring shorter than its header" fails_with 1 "$dir/tiny: ring at byte" "$T" tree --ring "$dir/tiny"
  { head -c 8 "$r"; printf '\004\000\000\000'; tail -c +13 "$r"; } >"$dir/v4"
  expect "unsupported version: byte 8" fails_with 1 "$dir/v4: ring at byte 8: unsupported version" "$T" tree --ring "$dir/v4"
  : >"$dir/empty"
  expect "empty ring file" fails_with 1 "$dir/empty: ring at byte 0: truncated" "$T" flame --ring "$dir/empty"
  expect "missing ring: the option named" fails_with 1 "tc-trace: --ring $dir/nope: cannot open: No such file or directory" "$T" tree --ring "$dir/nope"
  expect "a directory as the ring: said so" fails_with 1 "tc-trace: --ring $dir: not a regular file (a directory)" "$T" tree --ring "$dir"
  expect "missing mapping: the option named" fails_with 1 "tc-trace: --mapping $dir/nope.txt: cannot open: No such file" "$T" tree --ring "$r" --mapping "$dir/nope.txt"
  expect "a directory as the mapping: said so" fails_with 1 "tc-trace: --mapping $dir: a directory, not a mapping file" "$T" tree --ring "$r" --mapping "$dir"
  expect "missing reports: the option named" fails_with 1 "tc-trace: --reports $dir/nope.jsonl: cannot open: No such file" "$T" reports --reports "$dir/nope.jsonl"
  expect "a directory as the reports: said so" fails_with 1 "tc-trace: --reports $dir: a directory, not a file of report lines" "$T" chrome --ring "$r" --reports "$dir"
  "$T" help html >"$dir/help-html.txt"
  expect "help html: html's usage and options, not another command's" \
    sh -c "grep -q '^usage: tc-trace html' '$dir/help-html.txt' && grep -q '^html: ' '$dir/help-html.txt' && ! grep -qE '^(tree|chrome|perfetto): ' '$dir/help-html.txt'"
  "$T" help >"$dir/help-all.txt"
  expect "help: the whole manual has every command's options" \
    sh -c "grep -q '^tree: ' '$dir/help-all.txt' && grep -q '^perfetto: ' '$dir/help-all.txt' && grep -q '^html: ' '$dir/help-all.txt'"
  # tc-ringdump reads through the same loader: its errors name the file too
  expect "tc-ringdump: bad magic, file named" fails_with 1 "tc-ringdump: $dir/bad_magic: ring at byte 0: not a tracecanary ring" "$TC_RINGDUMP" "$dir/bad_magic"
  expect "tc-ringdump: missing ring" fails_with 1 "tc-ringdump: $dir/nope: cannot open: No such file or directory" "$TC_RINGDUMP" "$dir/nope"
  printf '1,1,a.B c ()V\n# ok\n2,x,a.B d ()V\n' >"$dir/map1"
  expect "bad mapping line: file and line named" fails_with 1 "$dir/map1:3: expected \"id,accessFlags,class method desc\"" "$T" tree --ring "$r" --mapping "$dir/map1"
  printf '1,1,a.B c ()V\n1,1,a.B d ()V\n' >"$dir/map2"
  expect "duplicate id in the mapping" fails_with 1 "$dir/map2:2: method id 1 was listed before on line 1" "$T" tree --ring "$r" --mapping "$dir/map2"
  printf '1048575,1,a.B c ()V\n' >"$dir/map3"
  expect "id outside 20 bits" fails_with 1 "$dir/map3:1: method id 1048575 is outside 1..1048574" "$T" tree --ring "$r" --mapping "$dir/map3"
  { head -1 "$rep"; printf '%s\n' '{"tag":"Trace_EvilMethod","cost":12,}'; } >"$dir/rep1"
  expect "bad JSON: file, line and column" fails_with 1 "$dir/rep1:2:37: expected a key string, found '}'" "$T" reports --reports "$dir/rep1"
  printf '%s\n' '{"stack":"0,1,1,5\n1,x,1,5\n"}' >"$dir/rep2"
  expect "bad stack line inside a report" fails_with 1 "$dir/rep2:1: \"stack\" line 2: bad method id" "$T" reports --reports "$dir/rep2"
  printf '%s\n' '{"stackKey":"12"}' >"$dir/rep3"
  expect "bad stack key" fails_with 1 "$dir/rep3:1: \"stackKey\" at character 3" "$T" reports --reports "$dir/rep3"
  { printf '[1,2]\n'; head -2 "$rep"; printf '{"tag":"Trace_FPS","scene":"x"'; } >"$dir/rep4"
  "$T" reports --reports "$dir/rep4" --keep-going >"$dir/out" 2>"$dir/err"
  expect "--keep-going: exits 0" test $? -eq 0
  expect "--keep-going: the good lines" test "$(wc -l <"$dir/out")" -eq 2
  expect "--keep-going: says which were skipped" sh -c "grep -q 'rep4:1: a report line must be a JSON object' '$dir/err' && grep -q 'rep4:4:31: expected' '$dir/err'"
  printf '{"a":"\001"}\n' >"$dir/rep5"
  expect "control character in a string" fails_with 1 "$dir/rep5:1:7: control character in a string" "$T" reports --reports "$dir/rep5"
  printf '{"a":"\377"}\n' >"$dir/rep6"
  expect "invalid UTF-8" fails_with 1 "$dir/rep6:1:7: invalid UTF-8" "$T" reports --reports "$dir/rep6"
  expect "flame --report past the end" fails_with 1 "no line 99" "$T" flame --reports "$rep" --report 99
  expect "--message past the last message" fails_with 1 "no message 6: the trace has 6" "$T" tree --ring "$r" --message 6
  expect "usage: unknown command" fails_with 2 "unknown command \"trees\"" "$T" trees
  expect "usage: option of another command" fails_with 2 "option --format does not apply to tree" "$T" tree --ring "$r" --format text
  expect "usage: tree needs a ring" fails_with 2 "tree needs --ring FILE" "$T" tree
  expect "usage: --from after --to" fails_with 2 "--from is after --to" "$T" tree --ring "$r" --from 9 --to 3
  "$T" --help >"$dir/help"
  expect "--help lists the commands" sh -c "grep -q '^  chrome ' '$dir/help' && grep -q -- '--mapping FILE' '$dir/help'"
  "$T" chrome --ring "$dir/bad_magic" -o "$dir/never.json" 2>/dev/null
  expect "a failed run leaves no output file" test ! -e "$dir/never.json"
  mkfifo "$dir/fifo"
  cat "$dir/fifo" >"$dir/from_fifo" &
  "$T" tree --ring "$r" -o "$dir/fifo"
  wait
  expect "-o into a FIFO writes through it and leaves it a FIFO" \
    sh -c "test -p '$dir/fifo' && grep -q '#1048574' '$dir/from_fifo'"
  # an output that is one of the inputs is refused, the input left as it was (issue 29)
  cp "$r" "$dir/ring.orig"; cp "$m" "$dir/map.orig"; cp "$rep" "$dir/rep.orig"
  expect "-o the ring: refused" fails_with 2 "-o $r is the --ring input $r: it would be replaced" \
    "$T" chrome --ring "$r" --mapping "$m" -o "$r"
  expect "-o the mapping (html): refused" fails_with 2 "is the --mapping input $m" "$T" html --ring "$r" --mapping "$m" -o "$m"
  expect "-o the reports: refused" fails_with 2 "is the --reports input $rep" "$T" reports --reports "$rep" -o "$rep"
  ln "$r" "$dir/ring-hardlink"
  ln -s "$r" "$dir/ring-symlink"
  expect "-o a hard link to the ring: refused" fails_with 2 "is the --ring input" "$T" tree --ring "$r" -o "$dir/ring-hardlink"
  expect "-o a symbolic link to the ring: refused" fails_with 2 "is the --ring input" "$T" flame --ring "$r" -o "$dir/ring-symlink"
  mkdir -p "$dir/x"
  expect "-o the ring as ./x/../ring: refused" fails_with 2 "is the --ring input" "$T" tree --ring "$r" -o "$dir/./x/../ring"
  cp "$r" "$dir/r2"; : >"$dir/r2-threads"
  expect "-o the ring's thread file: refused" fails_with 2 "is the thread file $dir/r2-threads of --ring $dir/r2" \
    "$T" tree --ring "$dir/r2" -o "$dir/r2-threads"
  expect "the inputs are left as they were" sh -c "cmp -s '$r' '$dir/ring.orig' && cmp -s '$m' '$dir/map.orig' && cmp -s '$rep' '$dir/rep.orig' && test ! -s '$dir/r2-threads'"
  ;;
threads)
  "$TRACE_GEN" threads "$dir" || exit 1
  m=$dir/methodMapping.txt r=$dir/ring
  "$T" tree --ring "$r" --mapping "$m" -o "$dir/tree.txt"
  expect "tree of all threads runs" test $? -eq 0
  cat "$dir/tree.txt"
  expect "tree: header counts 3 threads" has "$dir/tree.txt" "all, 3 threads, 7 spans, 2 messages"
  expect "tree: a node per thread, named, main first" \
    test "$(grep -o 'thread [a-z0-9-]* (tid [0-9]*)' "$dir/tree.txt" | sed 's/ (tid.*//' | tr '\n' ,)" = "thread main,thread io-1,thread io-2,"
  expect "tree: main's messages under main (105 ms, 2 calls)" \
    grep -Eq '^ +105 +[0-9.]+ +0 +2    android.os.Handler.dispatchMessage' "$dir/tree.txt"
  expect "tree: io-1's fetch and connect under io-1" \
    sh -c "grep -A2 'thread io-1' '$dir/tree.txt' | grep -Eq '^ +30 +[0-9.]+ +30 +1      sample.Net.connect \(\)V$'"
  expect "tree: io-2's loadConfig, 20 ms" \
    sh -c "grep -A1 'thread io-2' '$dir/tree.txt' | grep -Eq '^ +20 +[0-9.]+ +20 +1    sample.Main.loadConfig \(\)V$'"
  expect "tree: the total is every thread's (105 + 30 + 20)" has "$dir/tree.txt" "155 ms in total"

  "$T" tree --ring "$r" --mapping "$m" --thread io-1 >"$dir/io1.txt"
  cat "$dir/io1.txt"
  expect "tree --thread io-1: the thread named in the header" grep -Eq '^# .*, thread io-1 \(tid [0-9]+\): all, 2 spans' "$dir/io1.txt"
  expect "tree --thread io-1: only its methods, no thread node" \
    sh -c "grep -Eq '^ +30 +100.0 +0 +1  sample.Net.fetch' '$dir/io1.txt' && ! grep -v '^#' '$dir/io1.txt' | grep -q 'loadConfig\|onCreate\|thread '"
  tid=$(sed -n 's/.*thread io-2 (tid \([0-9]*\)).*/\1/p' "$dir/tree.txt")
  "$T" tree --ring "$r" --mapping "$m" --thread "$tid" >"$dir/io2.txt"
  expect "tree --thread TID: the thread of that id" sh -c "grep -q loadConfig '$dir/io2.txt' && ! grep -q fetch '$dir/io2.txt'"
  "$T" tree --ring "$r" --mapping "$m" --thread main >"$dir/main.txt"
  expect "tree --thread main: the recording thread alone" sh -c "grep -q onCreate '$dir/main.txt' && ! grep -q 'fetch\|loadConfig' '$dir/main.txt'"
  expect "--thread of no such thread names those there are" \
    fails_with 1 'no thread "nope": the recording has main (' "$T" tree --ring "$r" --thread nope

  "$T" sections --ring "$r" --mapping "$m" >"$dir/sections.txt"
  cat "$dir/sections.txt"
  expect "sections: two" has "$dir/sections.txt" ": 2"
  expect "sections: cold start on main, 0..105 ms" grep -Eq '^main \([0-9]+\) +0 +105  cold start$' "$dir/sections.txt"
  expect "sections: download on io-1, 17..47 ms" grep -Eq '^io-1 \([0-9]+\) +17 +30  download$' "$dir/sections.txt"

  "$T" tree --ring "$r" --mapping "$m" --section download >"$dir/dl.txt"
  cat "$dir/dl.txt"
  expect "tree --section download: the slice named" has "$dir/dl.txt" "section download (1 times)"
  expect "tree --section download: io-1's 30 ms of connect" grep -Eq '^ +30 +[0-9.]+ +30 +1      sample.Net.connect' "$dir/dl.txt"
  expect "tree --section download: what main ran meanwhile (30 ms of onCreate)" \
    grep -Eq '^ +30 +[0-9.]+ +30 +1      sample.Main.onCreate' "$dir/dl.txt"
  expect "tree --section download: io-2 ran after it: no node" sh -c "! grep -q 'io-2' '$dir/dl.txt'"
  "$T" tree --ring "$r" --mapping "$m" --section "cold start" --thread io-2 >"$dir/cs.txt"
  expect "tree --section 'cold start' --thread io-2: io-2 ran inside it" grep -Eq '^ +20 +100.0 +20 +1  sample.Main.loadConfig' "$dir/cs.txt"
  "$T" hot --ring "$r" --mapping "$m" --section "cold start" --min-calls 1 --max-avg-us 1000000 >"$dir/hot-cs.txt"
  expect "hot --section 'cold start': main's calls in it, named in the header" \
    sh -c "grep -q 'section cold start (1 times)' '$dir/hot-cs.txt' && grep -q '^-keepmethod sample.Main onCreate' '$dir/hot-cs.txt' && ! grep -q render '$dir/hot-cs.txt'"
  expect "--section of no such section" fails_with 1 'no section "warm start"' "$T" tree --ring "$r" --section "warm start"
  expect "usage: --section and --message are exclusive" \
    fails_with 2 "are exclusive" "$T" tree --ring "$r" --section download --message 0

  "$T" tree --ring "$r" --mapping "$m" --message 1 >"$dir/m1.txt"
  expect "tree --message 1: main's message, the threads idle then" \
    sh -c "grep -q 'render' '$dir/m1.txt' && ! grep -q 'thread io' '$dir/m1.txt'"

  "$T" chrome --ring "$r" --mapping "$m" -o "$dir/trace.json"
  expect "chrome of all threads nests" "$TRACE_CHECK" chrome "$dir/trace.json"
  expect "chrome: json" json_ok "$dir/trace.json"
  expect "chrome: a thread_name per thread and section track (5)" \
    test "$(grep -o '"name":"thread_name"' "$dir/trace.json" | wc -l)" -eq 5
  for n in main io-1 io-2 '"main sections"' '"io-1 sections"'; do
    expect "chrome: a track named $n" has "$dir/trace.json" "\"args\":{\"name\":$(case $n in \"*) echo "$n";; *) echo "\"$n\"";; esac)}"
  done
  expect "chrome: the sections are named slices" \
    sh -c "grep -q '\"name\":\"cold start\",\"cat\":\"section\"' '$dir/trace.json' && grep -q '\"name\":\"download\",\"cat\":\"section\"' '$dir/trace.json'"
  # ts: the ring's time base (trace_gen's clock starts at 5 s) plus the 17 ms
  expect "chrome: io-1's fetch on io-1's track (its tid), on the ring's clock" \
    grep -q "\"tid\":$(sed -n 's/.*thread io-1 (tid \([0-9]*\)).*/\1/p' "$dir/tree.txt"),\"ts\":5017000,\"name\":\"sample.Net.fetch\"" "$dir/trace.json"
  "$T" html --ring "$r" --mapping "$m" -o "$dir/report.html"
  expect "html: a thread per recorded thread (main, io-1, io-2 with their tids)" \
    sh -c "grep -q '\"threads\":\[{\"name\":\"main\"' '$dir/report.html' && grep -q '\"name\":\"io-1 (tid [0-9]*)\"' '$dir/report.html' && grep -q '\"name\":\"io-2 (tid [0-9]*)\"' '$dir/report.html'"
  "$T" chrome --ring "$r" --mapping "$m" --thread io-1 --events x -o "$dir/io1.json"
  expect "chrome --thread io-1: its track and its sections only" \
    sh -c "'$TRACE_CHECK' chrome '$dir/io1.json' | grep -q '0 B, 0 E, 3 X' && ! grep -q onCreate '$dir/io1.json'"

  "$T" flame --ring "$r" --mapping "$m" -o "$dir/flame.svg"
  expect "flame of all threads" xml_ok "$dir/flame.svg"
  expect "flame: a box per thread, named" \
    sh -c "grep -q '<title>thread main (tid' '$dir/flame.svg' && grep -q '<title>thread io-1 (tid' '$dir/flame.svg' && grep -q '<title>thread io-2 (tid' '$dir/flame.svg'"
  "$T" flame --ring "$r" --mapping "$m" --section download --thread io-1 -o "$dir/dl.svg"
  expect "flame --section download --thread io-1" \
    sh -c "grep -q '<title>sample.Net.connect ()V (' '$dir/dl.svg' && ! grep -q 'onCreate\|<title>thread ' '$dir/dl.svg'"

  mkdir "$dir/other" && "$TRACE_GEN" threads "$dir/other" || exit 1
  cp "$dir/other/ring-threads" "$r-threads"
  "$T" tree --ring "$r" --mapping "$m" >"$dir/mixed.txt" 2>"$dir/mixed.err"
  expect "another run's thread file is left out, with a note" \
    sh -c "grep -q 'is another run' '$dir/mixed.err' && ! grep -q 'thread io-1' '$dir/mixed.txt' && grep -q onCreate '$dir/mixed.txt'"
  rm "$r-threads"
  "$T" tree --ring "$r" --mapping "$m" >"$dir/alone.txt"
  expect "a ring without its thread file: the main thread's tree" \
    sh -c "grep -q onCreate '$dir/alone.txt' && ! grep -q 'fetch' '$dir/alone.txt'"
  ;;
reused)
  # Defect: tc-trace keyed tracks by thread id, so a thread whose id the kernel gave
  # again after another ended shared that thread's track. io-1 and io-2 ran one after
  # the other; io-2's ring then took io-1's id (trace_gen reused).
  "$TRACE_GEN" reused "$dir" || exit 1
  m=$dir/methodMapping.txt r=$dir/ring
  tid=$("$TC_RINGDUMP" -q "$r-threads" | sed -n 's/^thread: \([0-9]*\) io-1$/\1/p')
  expect "both rings have io-1's id" test "$("$TC_RINGDUMP" -q "$r-threads" | grep -c "^thread: $tid ")" -eq 2
  "$T" chrome --ring "$r" --mapping "$m" -o "$dir/trace.json"
  expect "chrome: json" json_ok "$dir/trace.json"
  expect "chrome: io-1 on its id's track" \
    grep -q "\"tid\":$tid,\"ts\":[0-9]*,\"name\":\"sample.Net.fetch\"" "$dir/trace.json"
  expect "chrome: io-2 on a track of its own, not io-1's" \
    sh -c "grep -o '\"tid\":[0-9]*,\"ts\":[0-9]*,\"name\":\"sample.Main.loadConfig\"' '$dir/trace.json' | grep -qv '\"tid\":$tid,'"
  expect "chrome: its track named with the generation" \
    grep -q "\"args\":{\"name\":\"io-2 (tid $tid, generation 2)\"}" "$dir/trace.json"
  "$T" tree --ring "$r" --mapping "$m" -o "$dir/tree.txt"
  cat "$dir/tree.txt"
  expect "tree: a node each, told apart by generation" \
    sh -c "grep -q 'thread io-1 (tid $tid, generation 1)' '$dir/tree.txt' && grep -q 'thread io-2 (tid $tid, generation 2)' '$dir/tree.txt'"
  "$T" tree --ring "$r" --mapping "$m" --thread "$tid" -o "$dir/bytid.txt"
  expect "tree --thread TID: both threads that had the id" \
    sh -c "grep -q 'fetch' '$dir/bytid.txt' && grep -q 'loadConfig' '$dir/bytid.txt'"
  ;;
buildid)
  # A ring is bound to its build: the runtime records the build id (tc-instrument's hash
  # of methodMapping.txt), tc-trace compares it with the mapping it is given.
  TRACE_GEN_BUILD_ID=mapping "$TRACE_GEN" sample "$dir" || exit 1
  m=$dir/methodMapping.txt r=$dir/ring rep=$dir/reports.jsonl
  "$T" tree --ring "$r" --mapping "$m" -o "$dir/tree.txt" 2>"$dir/err"
  expect "its own mapping: decoded, exit 0" test $? -eq 0
  expect "its own mapping: no build-id note or warning" sh -c "! grep -qi 'build' '$dir/err'"
  id=$("$TC_RINGDUMP" -q "$r" | sed -n 's/^build id: //p')
  expect "tc-ringdump shows the ring's build id" test -n "$id"
  expect "every report carries the build id" \
    sh -c "[ \$(grep -c '\"buildId\":\"$id\"' '$rep') -eq \$(wc -l < '$rep') ] && [ \$(wc -l < '$rep') -gt 0 ]"
  { echo "# a comment added by hand"; echo; cat "$m"; } > "$dir/commented.txt"
  expect "a comment added to the mapping: still its build" \
    "$T" messages --ring "$r" --mapping "$dir/commented.txt" -o "$dir/out"
  # another build: one method's flags changed (ids would name other methods)
  awk -F, 'BEGIN { OFS = "," } /^[0-9]/ && !done { $2 = $2 + 1; done = 1 } { print }' "$m" > "$dir/other.txt"
  for cmd in tree messages chrome flame hot html; do
    expect "$cmd: another build's mapping is refused, exit 1" \
      fails_with 1 "$r was recorded by build $id, but $dir/other.txt is the mapping of build" \
      "$T" $cmd --ring "$r" --mapping "$dir/other.txt" -o "$dir/out"
  done
  expect "the refusal names the override" grep -qF -- "--ignore-build-id" "$dir/err"
  expect "nothing is written on a refusal" test ! -s "$dir/out"
  "$T" tree --ring "$r" --mapping "$dir/other.txt" --ignore-build-id -o "$dir/forced.txt" 2>"$dir/err"
  expect "--ignore-build-id decodes anyway, exit 0" test $? -eq 0
  expect "--ignore-build-id warns, naming both ids" \
    sh -c "grep -qF 'warning: $r was recorded by build $id, $dir/other.txt is of build' '$dir/err'"
  expect "without --mapping nothing is compared" "$T" tree --ring "$r" -o "$dir/out"
  # a ring without an id (a runtime of an app without the marker), and an old ring
  mkdir -p "$dir/none" && "$TRACE_GEN" sample "$dir/none" || exit 1
  "$T" tree --ring "$dir/none/ring" --mapping "$m" -o "$dir/out" 2>"$dir/err"
  expect "a ring without a build id: decoded, exit 0" test $? -eq 0
  expect "a ring without a build id: said once" sh -c "[ \$(grep -c 'has no build id' '$dir/err') -eq 1 ]"
  cp "$r" "$dir/v2.ring"
  printf '\002' | dd of="$dir/v2.ring" bs=1 seek=8 conv=notrunc 2>/dev/null
  "$T" tree --ring "$dir/v2.ring" --mapping "$dir/other.txt" -o "$dir/out" 2>"$dir/err"
  expect "a version 2 ring (no build id field): decoded with any mapping, exit 0" test $? -eq 0
  expect "a version 2 ring: the note says why there is no id" \
    sh -c "[ \$(grep -c 'has no build id (ring version 2' '$dir/err') -eq 1 ]"
  # reports carry the id too: each line is checked against the mapping
  expect "reports with their own mapping: decoded" "$T" reports --reports "$rep" --mapping "$m" -o "$dir/out"
  expect "reports with another build's mapping: refused at the first line, exit 1" \
    fails_with 1 "$rep:1: recorded by build $id, but $dir/other.txt is the mapping of build" \
    "$T" reports --reports "$rep" --mapping "$dir/other.txt" -o "$dir/out"
  "$T" reports --reports "$rep" --mapping "$dir/other.txt" --keep-going -o "$dir/out" 2>"$dir/err"
  expect "reports --keep-going: every line of the other build skipped, exit 0" \
    sh -c "[ \$(grep -c 'skipped: .*recorded by build $id' '$dir/err') -eq \$(wc -l < '$rep') ] && [ ! -s '$dir/out' ]"
  "$T" reports --reports "$rep" --mapping "$dir/other.txt" --ignore-build-id -o "$dir/out" 2>"$dir/err"
  expect "reports --ignore-build-id: decoded anyway, with one warning" \
    sh -c "[ \$(grep -c stackDecoded '$dir/out') -gt 0 ] && [ \$(grep -c 'warning: .* report lines of another build' '$dir/err') -eq 1 ]"
  expect "flame --report of another build's line: refused" \
    fails_with 1 "$rep:1: recorded by build $id" "$T" flame --reports "$rep" --report 1 --mapping "$dir/other.txt" -o "$dir/out"
  # a ring without an id, with the reports of a build: html leaves them out, chrome marks none of them
  "$T" html --ring "$dir/none/ring" --reports "$rep" --mapping "$dir/other.txt" -o "$dir/page.html" 2>"$dir/err"
  expect "html: reports of another build left out, said once, exit 0" \
    sh -c "grep -q 'note: [0-9]* report lines of another build than $dir/other.txt.s left out' '$dir/err' && ! grep -q '\"buildId\":\"$id\"' '$dir/page.html'"
  "$T" chrome --ring "$dir/none/ring" --reports "$rep" --mapping "$dir/other.txt" -o "$dir/trace.json" 2>"$dir/err"
  expect "chrome: reports of another build not marked" \
    sh -c "grep -q 'report lines of another build than $dir/other.txt.s not marked' '$dir/err' && ! grep -q '\"buildId\":\"$id\"' '$dir/trace.json'"
  "$T" html --ring "$dir/none/ring" --reports "$rep" --mapping "$m" -o "$dir/page.html" 2>"$dir/err"
  expect "html: reports of the mapping's build kept" grep -q "\"buildId\":\"$id\"" "$dir/page.html"
  ;;
compare)
  # build A and build B (other ids), 10 launches each; in B app.Catalog.load is 40 ms slower
  mkdir -p "$dir/a" "$dir/b" "$dir/a1"
  "$TRACE_GEN" compare "$dir/a" 10 1 0 || exit 1
  "$TRACE_GEN" compare "$dir/b" 10 2 40 renumber || exit 1
  A="--a $dir/a/ring0 $dir/a/ring1 $dir/a/ring2 $dir/a/ring3 $dir/a/ring4 $dir/a/ring5 $dir/a/ring6 $dir/a/ring7 $dir/a/ring8 $dir/a/ring9 --a-mapping $dir/a/methodMapping.txt"
  Bs="--b $dir/b/ring0 $dir/b/ring1 $dir/b/ring2 $dir/b/ring3 $dir/b/ring4 $dir/b/ring5 $dir/b/ring6 $dir/b/ring7 $dir/b/ring8 $dir/b/ring9 --b-mapping $dir/b/methodMapping.txt"
  # shellcheck disable=SC2086
  "$T" compare $A $Bs -o "$dir/cmp.txt"
  expect "compare runs" test $? -eq 0
  cat "$dir/cmp.txt"
  # the methods table: its first row, and how many are significant
  awk '/^## methods/ { on = 1; getline; next } /^$/ { on = 0 } on' "$dir/cmp.txt" >"$dir/methods.txt"
  expect "compare: the slowed method is first, significantly slower" \
    grep -Eq '^slower +\+[0-9.]+ .* app\.Catalog\.load \(\)V$' "$dir/methods.txt" -m1
  expect "compare: ... and it is the first row" sh -c "head -1 '$dir/methods.txt' | grep -q 'app.Catalog.load ()V'"
  d=$(awk 'NR == 1 { print $2 }' "$dir/methods.txt")
  expect "compare: its delta ($d ms) within 10% of the 40 ms it was slowed by" \
    awk -v d="$d" 'BEGIN { exit !(d >= 36 && d <= 44) }'
  expect "compare: no other method significant" test "$(grep -cE '^(slower|faster) ' "$dir/methods.txt")" -eq 1
  expect "compare: matched by name though the ids differ (no row on one side only)" \
    sh -c "! grep -qE '\[(A|B) only\]' '$dir/cmp.txt'"
  expect "compare: its caller's message (by handler) got slower in total" \
    grep -Eq '^(slower|same) +\+[0-9.]+ .* app\.Main\.onCreate \(Landroid\.os\.Bundle;\)V$' "$dir/cmp.txt"
  expect "compare: the section start-up is compared" grep -Eq ' start-up$' "$dir/cmp.txt"
  expect "compare: a confidence statement for the finding" \
    grep -q "^method app.Catalog.load ()V: self +.* B above A in 100% of the 10 x 10 pairs" "$dir/cmp.txt"
  # shellcheck disable=SC2086
  "$T" compare $A $Bs --format json -o "$dir/cmp.json"
  expect "compare --format json: valid JSON" json_ok "$dir/cmp.json"
  expect "compare --format json: the finding, with its statistics" \
    sh -c "grep -q '\"key\": \"app.Catalog.load ()V\"' '$dir/cmp.json' && grep -q '\"verdict\": \"slower\"' '$dir/cmp.json' && grep -q '\"pHolm\"' '$dir/cmp.json'"
  if command -v python3 >/dev/null 2>&1; then
    expect "compare --format json: the first row is the finding, delta within 10%" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rows"][0]
assert r["kind"] == "method" and r["key"] == "app.Catalog.load ()V", r
assert r["self"]["verdict"] == "slower" and abs(r["self"]["deltaMs"] - 40) <= 4, r
assert sum(1 for x in d["rows"] if x["kind"] == "method" and x["self"]["verdict"] in ("slower", "faster")) == 1
' "$dir/cmp.json"
  fi

  # the differential flame graph
  # shellcheck disable=SC2086
  "$T" compare $A $Bs --flame "$dir/diff.svg" -o /dev/null
  expect "compare --flame: an SVG" sh -c "head -2 '$dir/diff.svg' | grep -q '<svg'"
  expect "compare --flame: well-formed XML" xml_ok "$dir/diff.svg"
  expect "compare --flame: the slowed method red, its B and A times in its title" \
    grep -Eq '<title>app.Catalog.load \(\)V \(B [0-9.]+ ms, A [0-9.]+ ms, \+[0-9.]+ ms.*fill="rgb\(255,[0-9]+,[0-9]+\)"' "$dir/diff.svg"
  expect "compare --flame: its caller red too (its total grew)" \
    grep -Eq '<title>app.Main.onCreate \(Landroid.os.Bundle;\)V \(B .*fill="rgb\(255,' "$dir/diff.svg"
  expect "compare --flame: a method that did not change is grey" \
    grep -Eq '<title>app.Main.measure \(\)V \(B .*fill="rgb\(225,225,218\)"' "$dir/diff.svg"

  # the CI gate
  # shellcheck disable=SC2086
  expect "compare --fail-on self:+10%,20ms: exit 1 naming the method" \
    fails_with 1 "--fail-on self:+10%,20ms: method app.Catalog.load ()V: self +" "$T" compare $A $Bs --fail-on self:+10%,20ms
  expect "... and only it" sh -c "[ \$(grep -c 'fail-on self' '$dir/err') -eq 1 ] && grep -q '1 row crossed --fail-on' '$dir/err'"
  # shellcheck disable=SC2086
  expect "compare --fail-on self:+10%,100ms: nothing crosses it, exit 0" "$T" compare $A $Bs --fail-on self:+10%,100ms -o "$dir/out"
  # shellcheck disable=SC2086
  expect "compare --fail-on malformed: usage" fails_with 2 "--fail-on is self|total" "$T" compare $A $Bs --fail-on self:10
  # one launch per side
  "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/ring0" \
    --b-mapping "$dir/b/methodMapping.txt" -o "$dir/one.txt"
  expect "compare of one launch per side: says significance cannot be judged" \
    grep -q "significance cannot be judged" "$dir/one.txt"
  expect "... and judges none" sh -c "! grep -qE '^(slower|faster|same) ' '$dir/one.txt' && grep -q '^unjudged .*app.Catalog.load' '$dir/one.txt'"

  # one build against itself: 20 comparisons of 10 launches with 10 others
  fp=0 runs=0
  for rep in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    rm -rf "$dir/s"; mkdir -p "$dir/s/a" "$dir/s/b"
    "$TRACE_GEN" compare "$dir/s/a" 10 $((rep * 2 + 1000)) 0 && "$TRACE_GEN" compare "$dir/s/b" 10 $((rep * 2 + 1001)) 0 || exit 1
    "$T" compare --a "$dir"/s/a/ring* --a-mapping "$dir/s/a/methodMapping.txt" \
      --b "$dir"/s/b/ring* --b-mapping "$dir/s/a/methodMapping.txt" -o "$dir/s/out" 2>"$dir/s/err" || exit 1
    n=$(grep -cE '^(slower|faster) ' "$dir/s/out")
    [ "$n" -gt 0 ] && grep -E '^(slower|faster) ' "$dir/s/out"
    fp=$((fp + n)) runs=$((runs + 1))
  done
  echo "  false positives over $runs comparisons of one build with itself: $fp"
  expect "compare of a build with itself, 20 times: no row flagged ($fp)" test "$fp" -eq 0
  expect "compare of a build with itself: a note says so" grep -q "both sides are build .*: the build is compared with itself" "$dir/s/err"

  # bad input
  expect "compare: the same ring on both sides is refused (usage)" \
    fails_with 2 "$dir/a/ring0 is given twice (on both sides): a recording would be compared with itself" \
    "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/a/ring0" --b-mapping "$dir/a/methodMapping.txt"
  ln -s "$dir/a/ring1" "$dir/a1/link"
  expect "compare: one ring twice on a side, under two names: refused" \
    fails_with 2 "is given twice (on one side): a recording would be counted twice" \
    "$T" compare --a "$dir/a/ring1" "$dir/a1/link" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/ring0" --b-mapping "$dir/b/methodMapping.txt"
  expect "compare: a side with no recordings (usage)" \
    fails_with 2 "compare needs recordings on both sides: --a RING... has none" \
    "$T" compare --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/ring0" --b-mapping "$dir/b/methodMapping.txt"
  expect "compare: a side without its mapping (usage)" \
    fails_with 2 "compare needs --b-mapping FILE" \
    "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/ring0"
  expect "compare: --mapping is refused, a mapping is per side" \
    fails_with 2 "compare takes a mapping per side" \
    "$T" compare --a "$dir/a/ring0" --mapping "$dir/a/methodMapping.txt" --b "$dir/b/ring0"
  expect "compare: a side's rings and another build's mapping: refused (exit 1), naming both" \
    fails_with 1 "$dir/b/ring3 was recorded by build" \
    "$T" compare --a "$dir/a/ring0" "$dir/a/ring1" --a-mapping "$dir/a/methodMapping.txt" \
    --b "$dir/b/ring3" --b-mapping "$dir/a/methodMapping.txt"
  cp "$dir/a/ring2" "$dir/a1/copy"
  expect "compare: a copy of a ring on the other side (another inode, the same recording): refused" \
    fails_with 1 "$dir/a/ring2 and $dir/a1/copy hold the same recording (the same process and events: a copy?): it would be compared with itself" \
    "$T" compare --a "$dir/a/ring1" "$dir/a/ring2" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/a1/copy" "$dir/b/ring0" \
    --b-mapping "$dir/a/methodMapping.txt" --ignore-build-id
  expect "compare: a copy on the same side: counted twice" \
    fails_with 1 "hold the same recording (the same process and events: a copy?): it would be counted twice" \
    "$T" compare --a "$dir/a/ring2" "$dir/a1/copy" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/ring0" \
    --b-mapping "$dir/b/methodMapping.txt"
  mkdir -p "$dir/e" "$dir/nb"
  "$TRACE_GEN" compare "$dir/e" 2 5 0 empty || exit 1
  expect "compare: a side whose rings hold no call: a clear error" \
    fails_with 1 "compare: side B's 2 rings hold no call: nothing to compare" \
    "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/e/ring0" "$dir/e/ring1" \
    --b-mapping "$dir/e/methodMapping.txt"
  "$TRACE_GEN" compare "$dir/nb" 2 6 0 nobuild || exit 1
  expect "compare: rings without a build id and a mapping that names none of their ids: refused" \
    fails_with 1 "are of ids $dir/b/methodMapping.txt does not name: it is not the mapping of the build that recorded it" \
    "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/nb/ring0" "$dir/nb/ring1" \
    --b-mapping "$dir/b/methodMapping.txt"
  expect "compare: ... and with their own mapping they are compared" \
    "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/nb/ring0" "$dir/nb/ring1" \
    --b-mapping "$dir/nb/methodMapping.txt" -o "$dir/out"
  expect "compare: a missing ring: exit 1" fails_with 1 "$dir/b/nope" \
    "$T" compare --a "$dir/a/ring0" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/nope" --b-mapping "$dir/b/methodMapping.txt"
  ;;
fleet)
  # 40 devices a side, about 1000 reports; in B (other ids) the slow message under
  # app.Catalog.load is 3x as frequent, the one under app.Main.onClick 200 ms slower,
  # and one under app.Config.read is new
  mkdir -p "$dir/a" "$dir/b" "$dir/a2"
  "$TRACE_GEN" fleet "$dir/a" 40 1000 1 100 0 || exit 1
  "$TRACE_GEN" fleet "$dir/b" 40 1000 2 300 200 renumber || exit 1
  "$TRACE_GEN" fleet "$dir/a2" 40 1000 3 100 0 || exit 1
  "$TRACE_GEN" compare "$dir/r" 1 1 0 || exit 1
  "$T" compare --a "$dir"/a/dev*.jsonl --a-mapping "$dir/a/methodMapping.txt" \
    --b "$dir"/b/dev*.jsonl --b-mapping "$dir/b/methodMapping.txt" -o "$dir/cmp.txt"
  expect "compare of reports runs" test $? -eq 0
  cat "$dir/cmp.txt"
  awk '/^## stacks/ { on = 1; getline; next } /^$/ { on = 0 } on' "$dir/cmp.txt" >"$dir/stacks.txt"
  expect "fleet: the stack made 3x as frequent is the first row, more often" \
    sh -c "head -1 '$dir/stacks.txt' | grep -Eq '^more often .* NORMAL app\.Main\.onCreate \(Landroid\.os\.Bundle;\)V\|app\.Catalog\.load \(\)V\|$'"
  expect "fleet: its reports per device about 3x (A 3.7, B within 2.5x..3.5x)" awk '
    NR == 1 { a = $5; b = $6; exit !(b > 2.5 * a && b < 3.5 * a) }' "$dir/stacks.txt"
  expect "fleet: the new stack is named, more often, B only" \
    grep -Eq '^more often +0 +[0-9]+ .*app\.Config\.read .*\[B only: new\]$' "$dir/stacks.txt"
  expect "fleet: ... and listed among the new stacks" \
    sh -c "sed -n '/^## new stacks/,/^\$/p' '$dir/cmp.txt' | grep -q 'NORMAL app.Main.onCreate (Landroid.os.Bundle;)V|app.Config.read'"
  expect "fleet: the slowed stack: slower, its median about 200 ms more" \
    grep -Eq '^same .* slower +[0-9]+ +[0-9]+ +\+(1[6-9][0-9]|2[0-3][0-9]) .* NORMAL app\.Main\.onClick ' "$dir/stacks.txt"
  expect "fleet: nothing else more or less often" test "$(grep -cE '^(more|less) often' "$dir/stacks.txt")" -eq 2
  expect "fleet: nothing else slower or faster" test "$(grep -cE ' (slower|faster) ' "$dir/stacks.txt")" -eq 1
  expect "fleet: matched by name though the ids differ (one row on one side only: the new one)" \
    test "$(grep -c 'only' "$dir/stacks.txt")" -eq 1
  expect "fleet: a LAG (no stackKey) by its thread stack's first frame" \
    grep -Eq '^same .* LAG thread stack: app\.Net\.fetch$' "$dir/stacks.txt"
  expect "fleet: the other tags are counted, not compared" has "$dir/cmp.txt" "(other tags, not compared: A 40, B 40)"
  "$T" compare --a "$dir"/a/dev*.jsonl --a-mapping "$dir/a/methodMapping.txt" \
    --b "$dir"/b/dev*.jsonl --b-mapping "$dir/b/methodMapping.txt" --format json -o "$dir/cmp.json"
  expect "fleet --format json: valid JSON" json_ok "$dir/cmp.json"
  if command -v python3 >/dev/null 2>&1; then
    expect "fleet --format json: the first stack more often, the new one with only b, the slower one" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stacks"]
assert d["inputs"] == "reports" and len(d["a"]["files"]) == 40, d["a"]
assert s[0]["often"] == "moreOften" and s[0]["stack"].endswith("app.Catalog.load ()V|"), s[0]
assert "statement" in s[0] and s[0]["oftenPHolm"] < 0.01
new = [r for r in s if r.get("only") == "b"]
assert len(new) == 1 and "app.Config.read" in new[0]["stack"] and new[0]["often"] == "moreOften", new
slow = [r for r in s if r["slow"] == "slower"]
assert len(slow) == 1 and "app.Main.onClick" in slow[0]["stack"], slow
assert 160 <= slow[0]["bMedianMs"] - slow[0]["aMedianMs"] <= 240, slow[0]
' "$dir/cmp.json"
  fi
  # the same build, two fleets (other seeds): nothing
  "$T" compare --a "$dir"/a/dev*.jsonl --a-mapping "$dir/a/methodMapping.txt" \
    --b "$dir"/a2/dev*.jsonl --b-mapping "$dir/a2/methodMapping.txt" -o "$dir/self.txt" 2>"$dir/self.err"
  cat "$dir/self.txt"
  expect "fleet: a build's fleet against another of it: no finding" \
    sh -c "sed -n '/^## findings/,\$p' '$dir/self.txt' | grep -q '^none: '"
  expect "fleet: ... and a note says it is the same build" grep -q "the build is compared with itself" "$dir/self.err"
  # the false positives: 20 comparisons of two fleets of one build (other seeds)
  fp=0
  for rep in $(seq 1 20); do
    rm -rf "$dir/s" && mkdir -p "$dir/s/a" "$dir/s/b"
    "$TRACE_GEN" fleet "$dir/s/a" 40 1000 $((rep * 2 + 1000)) 100 0 && "$TRACE_GEN" fleet "$dir/s/b" 40 1000 $((rep * 2 + 1001)) 100 0 || exit 1
    "$T" compare --a "$dir"/s/a/dev*.jsonl --a-mapping "$dir/s/a/methodMapping.txt" \
      --b "$dir"/s/b/dev*.jsonl --b-mapping "$dir/s/b/methodMapping.txt" -o "$dir/s/out" 2>/dev/null || exit 1
    n=$(awk '/^## stacks/ { on = 1; getline; next } /^$/ { on = 0 } on' "$dir/s/out" | grep -cE '^(more|less) often| (slower|faster) ')
    fp=$((fp + n))
  done
  echo "# false positives over 20 comparisons of a build's fleets: $fp"
  expect "fleet: a build's fleets against each other, 20 times: no stack flagged ($fp)" test "$fp" -eq 0
  # bad input
  expect "fleet: a report file beside a ring: refused, naming both" \
    fails_with 1 "is a report file but" \
    "$T" compare --a "$dir/a/dev0.jsonl" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/dev0.jsonl" "$dir/r/ring0" \
    --b-mapping "$dir/b/methodMapping.txt"
  : >"$dir/empty.jsonl"
  expect "fleet: a side whose files hold no report: a clear error" \
    fails_with 1 "side B (--b) has no Trace_EvilMethod report in its 1 report file: nothing to compare" \
    "$T" compare --a "$dir/a/dev0.jsonl" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/empty.jsonl" \
    --b-mapping "$dir/b/methodMapping.txt"
  expect "fleet: reports and another build's mapping: refused, naming the line and both builds" \
    fails_with 1 "$dir/b/dev3.jsonl:1: recorded by build" \
    "$T" compare --a "$dir/a/dev0.jsonl" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/dev3.jsonl" \
    --b-mapping "$dir/a/methodMapping.txt"
  printf '{"tag":"Trace_EvilMethod","detail":"NORMAL","cost":800,"stackKey":"12|x|"}\n' >"$dir/badkey.jsonl"
  expect "fleet: a malformed stackKey: file, line and byte" \
    fails_with 1 "$dir/badkey.jsonl:1: stackKey \"12|x|\", at byte 3" \
    "$T" compare --a "$dir/a/dev0.jsonl" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/badkey.jsonl" \
    --b-mapping "$dir/b/methodMapping.txt"
  printf 'not a report\n' >"$dir/junk"
  expect "fleet: a file neither a ring nor report lines: says so" \
    fails_with 1 "$dir/junk: neither a ring" \
    "$T" compare --a "$dir/a/dev0.jsonl" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/junk" \
    --b-mapping "$dir/b/methodMapping.txt"
  expect "fleet: --fail-on applies to rings: refused" fails_with 1 "--fail-on, --flame and --html compare rings" \
    "$T" compare --a "$dir/a/dev0.jsonl" --a-mapping "$dir/a/methodMapping.txt" --b "$dir/b/dev0.jsonl" \
    --b-mapping "$dir/b/methodMapping.txt" --fail-on self:+10%
  ;;
*)
  echo "usage: e2e.sh sample|wrap|crash|malformed|threads|reused|buildid|compare|fleet" >&2; exit 2 ;;
esac
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
