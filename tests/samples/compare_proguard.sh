#!/usr/bin/env bash
# tc-trace compare across two obfuscated builds (issue 32): the sample app obfuscated by
# ProGuard twice, the second build with another obfuscation dictionary, so that
# sample.Catalog.load (and every other method) has another name in each; each build
# instrumented after ProGuard with its own mapping.txt (tc-instrument --proguard-mapping,
# as an Android release build with the Gradle plugin does it), run once (the short run:
# -Dsample.reloads=5), the second with Catalog.load slowed. compare must match every
# method by its original name: no row on one side only, Catalog.load first.
# usage: compare_proguard.sh BUILD_DIR OUT SOURCE_ROOT
set -uo pipefail
build=$1 out=$2 src=$3
. "$src/tests/lib/need.sh"
PROGUARD_JAR=${PROGUARD_JAR:-/usr/share/java/proguard.jar}
need_file "$PROGUARD_JAR" proguard-cli
rt=$build/runtime
cp="$rt/tracecanary-runtime.jar:$rt/android-stubs.jar"
T=$build/trace/tc-trace
rm -rf "$out" && mkdir -p "$out" || exit 1
pass=0 fail=0
expect() { # expect DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
}
die() { echo "not ok - $1"; exit 1; }
start=$SECONDS
# Java 8 bytecode, as an Android build has it, for ProGuard 6
javac -nowarn -Xlint:-options -source 8 -target 8 -d "$out/classes" -cp "$cp" "$src"/samples/app/src/sample/*.java \
	>"$out/javac.log" 2>&1 || die "javac: $(cat "$out/javac.log")"
# the java.* part of android.jar: java.base's classes marked as Java 13 (as minified.sh)
python3 - "$out/java.jar" <<'PY' || die "library jar"
import os, subprocess, sys, zipfile
home = subprocess.run(["java", "-XshowSettings:properties", "-version"], capture_output=True,
                      text=True).stderr.split("java.home = ")[1].split("\n")[0]
with zipfile.ZipFile(os.path.join(home, "jmods", "java.base.jmod")) as z, \
        zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as jar:
    for e in z.infolist():
        if e.filename.startswith("classes/java/") and e.filename.endswith(".class"):
            b = bytearray(z.read(e))
            b[6:8] = (57).to_bytes(2, "big")
            jar.writestr(e.filename[len("classes/"):], bytes(b))
PY
printf '%s\n' alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau \
	upsilon phi chi psi omega >"$out/dict-b.txt"
for side in a b; do
	mkdir -p "$out/$side"
	dict=()
	[ $side = b ] && dict=(-obfuscationdictionary "$out/dict-b.txt" -classobfuscationdictionary "$out/dict-b.txt")
	java -jar "$PROGUARD_JAR" -dontshrink -dontoptimize -dontnote -dontwarn 'sun.misc.**' "${dict[@]}" \
		-keep 'class sample.Launcher { public static void main(java.lang.String[]); }' \
		-injars "$out/classes" -outjars "$out/$side/app.jar" \
		-libraryjars "$out/java.jar" -libraryjars "$rt/android-stubs.jar" -libraryjars "$rt/tracecanary-runtime.jar" \
		-printmapping "$out/$side/mapping.txt" >"$out/$side.proguard.log" 2>&1 ||
		die "ProGuard ($side): $(tail -5 "$out/$side.proguard.log")"
	"$build/src/tc-instrument" --quiet --mapping-dir "$out/$side/map" --proguard-mapping "$out/$side/mapping.txt" \
		--blocklist "$src/samples/app/blocklist.txt" --classpath "$rt/android-stubs.jar" \
		--classpath "$rt/tracecanary-runtime.jar" --in "$out/$side/app.jar" --out "$out/$side/instrumented.jar" ||
		die "tc-instrument ($side)"
done
# what ProGuard called Catalog.load in each build
name() { awk '/^sample\.Catalog -> / { c = $3; sub(":", "", c); on = 1; next } /^[^ ]/ { on = 0 }
	on && /void load\(int\) -> / { print c "." $NF }' "$1"; }
na=$(name "$out/a/mapping.txt") nb=$(name "$out/b/mapping.txt")
echo "# Catalog.load is $na in build A, $nb in build B"
expect "ProGuard renamed Catalog.load, differently in each build ($na, $nb)" \
	sh -c "[ -n '$na' ] && [ -n '$nb' ] && [ '$na' != '$nb' ] && [ '$na' != sample.Catalog.load ]"
expect "the methodMapping.txt of both builds name it by its original name" \
	sh -c "grep -q ',sample.Catalog load (I)V$' '$out/a/map/methodMapping.txt' && grep -q ',sample.Catalog load (I)V$' '$out/b/map/methodMapping.txt'"
if [ -n "${SAN_PRELOAD:-}" ]; then
	export LD_PRELOAD=$SAN_PRELOAD
	export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0"
fi
for side in a b; do
	slow=0
	[ $side = b ] && slow=40
	java -cp "$out/$side/instrumented.jar:$cp" -Dtc.lib="$rt/libtracecanary.so" -Dtc.ring="$out/$side/ring" \
		-Dsample.reloads=5 -Dsample.slowLoadMs=$slow sample.Launcher >"$out/$side.run.log" 2>&1 ||
		die "the sample's run ($side): $(cat "$out/$side.run.log")"
done
echo "# built and run in $((SECONDS - start)) s"
"$T" compare --a "$out/a/ring" --a-mapping "$out/a/map/methodMapping.txt" \
	--b "$out/b/ring" --b-mapping "$out/b/map/methodMapping.txt" --top 0 -o "$out/cmp.txt" 2>"$out/cmp.err"
expect "compare runs" test $? -eq 0
cat "$out/cmp.txt"
awk '/^## methods/ { on = 1; getline; next } /^$/ { on = 0 } on' "$out/cmp.txt" >"$out/methods.txt"
expect "Catalog.load is one row, by its original name, first (one run a side: unjudged)" \
	grep -Eq '^unjudged .* sample\.Catalog\.load \(I\)V$' <(head -1 "$out/methods.txt")
expect "every method matched across the builds: no row on one side only" \
	sh -c "! grep -E '\[(A|B) only\]' '$out/cmp.txt'"
# every class in the table is an original class (mapping.txt's left sides), none ProGuard's name
classes_ok() {
	awk 'FNR == NR { if (/^[^ #].* -> .*:$/) orig[$1] = 1; next }
		{ k = $NF; if (k ~ /\]$/) next; }
		{ line = $0; sub(/ \(.*$/, "", line); n = split(line, w, " "); m = w[n]; cls = m; sub(/\.[^.]*$/, "", cls)
		  if (cls !~ /^android\./ && !(cls in orig)) { print "not an original class: " cls; bad = 1 } }
		END { exit bad }' "$out/a/mapping.txt" "$out/methods.txt"
}
expect "no obfuscated name in the table: every class an original one" classes_ok
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
