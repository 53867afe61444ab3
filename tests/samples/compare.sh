#!/usr/bin/env bash
# The honest test of tc-trace compare (issue 32): the sample app built twice, run 8 times
# a build in its short form (-Dsample.reloads=20: the start-up, then 20 messages that
# each reload the catalog, about a second a run), the second build's runs with
# -Dsample.slowLoadMs=40, which makes every Catalog.load 40 ms slower in load itself.
# compare must name that method first, with its delta within 10% of the truth (the time
# the slow-down took, measured by the sample itself: 40 ms times its calls per recording
# on an idle machine, more on a busy one), its caller MainActivity.onReload and that
# message kind slower in total by as much, and nothing else significant.
# usage: compare.sh BUILD_DIR OUT SOURCE_ROOT
set -uo pipefail
build=$1 out=$2 src=$3
rt=$build/runtime
cp="$rt/tracecanary-runtime.jar:$rt/android-stubs.jar"
T=$build/trace/tc-trace
runs=${SAMPLE_COMPARE_RUNS:-8}
rm -rf "$out" && mkdir -p "$out" || exit 1
pass=0 fail=0
expect() { # expect DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
}
die() { echo "not ok - $1"; exit 1; }
start=$SECONDS
# two builds of the same sources, as CI would make them
for side in a b; do
	javac -nowarn -d "$out/$side/classes" -cp "$cp" "$src"/samples/app/src/sample/*.java >"$out/javac.log" 2>&1 ||
		die "javac: $(cat "$out/javac.log")"
	"$build/src/tc-instrument" --quiet --mapping-dir "$out/$side/mapping" --blocklist "$src/samples/app/blocklist.txt" \
		--classpath "$rt/android-stubs.jar" --classpath "$rt/tracecanary-runtime.jar" \
		--in "$out/$side/classes" --out "$out/$side/instrumented" || die "tc-instrument ($side)"
done
# An ASan build's JNI library needs the ASan runtime preloaded (as samples/app/run.sh)
if [ -n "${SAN_PRELOAD:-}" ]; then
	export LD_PRELOAD=$SAN_PRELOAD
	export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
for ((i = 0; i < runs; i++)); do
	for side in a b; do
		slow=0
		[ $side = b ] && slow=40
		java -cp "$out/$side/instrumented:$cp" -Dtc.lib="$rt/libtracecanary.so" -Dtc.ring="$out/$side/ring$i" \
			-Dsample.reloads=20 -Dsample.slowLoadMs=$slow sample.Launcher >"$out/run.log" 2>&1 ||
			die "the sample's run $i ($side): $(cat "$out/run.log")"
		# the truth: what the slow-down took in fact (more than 40 ms a call when the
		# machine is busy and the thread is descheduled in the middle of it)
		[ $side = a ] || sed -n 's/^sample: slowLoadMs spun \([0-9]*\) ns$/\1/p' "$out/run.log" >>"$out/spun"
	done
done
echo "# $runs runs a build, built and run in $((SECONDS - start)) s"
A=() B=()
for ((i = 0; i < runs; i++)); do A+=("$out/a/ring$i"); B+=("$out/b/ring$i"); done
"$T" compare --a "${A[@]}" --a-mapping "$out/a/mapping/methodMapping.txt" \
	--b "${B[@]}" --b-mapping "$out/b/mapping/methodMapping.txt" --top 10 -o "$out/cmp.txt" 2>"$out/cmp.err"
expect "compare runs" test $? -eq 0
cat "$out/cmp.txt"
"$T" compare --a "${A[@]}" --a-mapping "$out/a/mapping/methodMapping.txt" \
	--b "${B[@]}" --b-mapping "$out/b/mapping/methodMapping.txt" --format json -o "$out/cmp.json" 2>/dev/null
expect "compare --format json runs" test $? -eq 0
awk '/^## methods/ { on = 1; getline; next } /^$/ { on = 0 } on' "$out/cmp.txt" >"$out/methods.txt"
expect "the slowed method is the first row, significantly slower" \
	grep -Eq '^slower .* sample\.Catalog\.load \(I\)V$' <(head -1 "$out/methods.txt")
python3 - "$out/cmp.json" "$out/spun" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
spun = [int(x) / 1e6 for x in open(sys.argv[2]).read().split()]
truth = sum(spun) / len(spun)  # ms per recording
rows = d["rows"]
ok = True
def check(what, cond):
    global ok
    print(("ok - " if cond else "not ok - ") + what)
    ok = ok and cond
def row(kind, key):
    r = [x for x in rows if x["kind"] == kind and x["key"] == key]
    return r[0] if r else None
load = row("method", "sample.Catalog.load (I)V")
self_d = load["self"]["deltaMs"]
check("Catalog.load: self %+.1f ms per recording, within 10%% of the truth %.1f (asked: 40 ms x %.0f calls = %.0f)"
      % (self_d, truth, load["bCalls"], 40 * load["bCalls"]), abs(self_d - truth) <= 0.10 * truth)
check("Catalog.load: its self time significantly slower", load["self"]["verdict"] == "slower")
caller = row("method", "sample.MainActivity.onReload ()V")
ctruth = truth * caller["bCalls"] / load["bCalls"]  # the reloads' share (the cold load is not under it)
check("its caller MainActivity.onReload: total %+.1f ms, within 10%% of %.0f, slower"
      % (caller["total"]["deltaMs"], ctruth),
      abs(caller["total"]["deltaMs"] - ctruth) <= 0.10 * ctruth and caller["total"]["verdict"] == "slower")
check("... and not its self time (%+.1f ms, %s)" % (caller["self"]["deltaMs"], caller["self"]["verdict"]),
      caller["self"]["verdict"] not in ("slower", "faster"))
msg = row("message", "sample.MainActivity.onReload ()V")
check("the message kind onReload: total %+.1f ms, within 10%% of %.0f, slower"
      % (msg["total"]["deltaMs"], ctruth),
      abs(msg["total"]["deltaMs"] - ctruth) <= 0.10 * ctruth and msg["total"]["verdict"] == "slower")
others = [x for x in rows if x["kind"] == "method" and x["key"] != load["key"]
          and x["self"]["verdict"] in ("slower", "faster")]
check("no other method significant by self time: %s" % [x["key"] for x in others], not others)
others = [x for x in rows if x["kind"] == "message" and x["key"] != msg["key"]
          and x["total"]["verdict"] in ("slower", "faster")]
check("no other message kind significant: %s" % [x["key"] for x in others], not others)
sys.exit(0 if ok else 1)
PY
expect "the figures (above)" test $? -eq 0
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
