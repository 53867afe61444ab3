#!/usr/bin/env bash
# A minified release build of the sample app: the app and the runtime jar shrunk,
# optimized and obfuscated by ProGuard (as R8 does an Android release build) against a
# library that, like android.jar, has the java.* classes and the android.* stubs but no
# sun.misc.Unsafe, then run. With the runtime's consumer rules (runtime/consumer-rules.pro)
# it must record and report as the unshrunk app does; without them the build fails
# (sun.misc.Unsafe) or, with that warning silenced, the runtime cannot start (JNI_OnLoad
# finds no Native class, no upcalls, no natives to register).
# usage: minified.sh BUILD_DIR OUT SOURCE_ROOT
set -uo pipefail
build=$1 out=$2 src=$3
. "$src/tests/lib/need.sh"
PROGUARD_JAR=${PROGUARD_JAR:-/usr/share/java/proguard.jar}
need_file "$PROGUARD_JAR" proguard-cli
rt=$build/runtime
rm -rf "$out" && mkdir -p "$out" || exit 1
pass=0 fail=0
expect() { # expect DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
}
die() { echo "not ok - $1"; exit 1; }

# The app as an Android build has it: Java 8 bytecode, instrumented.
javac -nowarn -Xlint:-options -source 8 -target 8 -d "$out/classes" \
	-cp "$rt/tracecanary-runtime.jar:$rt/android-stubs.jar" "$src"/samples/app/src/sample/*.java \
	>"$out/javac.log" 2>&1 || die "javac: $(cat "$out/javac.log")"
"$build/src/tc-instrument" --quiet --mapping-dir "$out/mapping" --blocklist "$src/samples/app/blocklist.txt" \
	--classpath "$rt/android-stubs.jar" --classpath "$rt/tracecanary-runtime.jar" \
	--in "$out/classes" --out "$out/instrumented" || die "tc-instrument"

# The java.* part of android.jar: the JDK's java.base classes, marked as Java 13 class
# files, the newest ProGuard 6.2 reads (as tests/compiler/cli/Fixtures.java does).
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
echo "-keep class sample.Launcher { public static void main(java.lang.String[]); }" >"$out/app.pro"
echo "-dontwarn sun.misc.Unsafe" >"$out/dontwarn.pro"

# shrink NAME RULES...: the app and the runtime, as one release build
shrink() {
	local name=$1 rules=() r
	shift
	for r in "$@"; do rules+=("@$r"); done
	java -jar "$PROGUARD_JAR" @"$out/app.pro" "${rules[@]}" -dontnote \
		-injars "$out/instrumented" -injars "$rt/tracecanary-runtime.jar" -outjars "$out/$name.jar" \
		-libraryjars "$out/java.jar" -libraryjars "$rt/android-stubs.jar" \
		-printmapping "$out/$name.mapping" >"$out/$name.log" 2>&1
}
# run NAME: the shrunk app; its reports go to NAME.jsonl
run() {
	if [ -n "${SAN_PRELOAD:-}" ]; then
		[ -f "$SAN_PRELOAD" ] || { echo "SKIP: sanitizer runtime $SAN_PRELOAD not found"; exit 77; }
		LD_PRELOAD=$SAN_PRELOAD \
		ASAN_OPTIONS="detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:use_sigaltstack=0:suppressions=$src/tests/samples/hotspot-asan.supp" \
			java -cp "$out/$1.jar:$rt/android-stubs.jar" -Dtc.lib="$rt/libtracecanary.so" \
			-Dtc.reports="$out/$1.jsonl" sample.Launcher >"$out/$1.out" 2>&1
	else
		java -cp "$out/$1.jar:$rt/android-stubs.jar" -Dtc.lib="$rt/libtracecanary.so" \
			-Dtc.reports="$out/$1.jsonl" sample.Launcher >"$out/$1.out" 2>&1
	fi
}
count() { grep -c "$1" "$2" 2>/dev/null; }

# Without the consumer rules.
shrink bare
expect "without the rules, ProGuard stops at the missing sun.misc.Unsafe" \
	grep -q "can't find referenced class sun.misc.Unsafe" "$out/bare.log"
shrink nokeep "$out/dontwarn.pro" || die "ProGuard with -dontwarn sun.misc.Unsafe: $(tail -5 "$out/nokeep.log")"
run nokeep
rc=$?
expect "without the keep rules the runtime cannot start (exit $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'com.tencent.matrix.trace.core.Native' '$out/nokeep.out'"

# With them.
shrink release "$src/runtime/consumer-rules.pro" || die "ProGuard with the consumer rules: $(tail -5 "$out/release.log")"
expect "the runtime was obfuscated too (LooperPrinter renamed)" \
	grep -Eq '^com\.tencent\.matrix\.trace\.android\.LooperPrinter -> [^ ]+\.[a-z]+:$' "$out/release.mapping"
expect "Native keeps its name" grep -q '^com.tencent.matrix.trace.core.Native -> com.tencent.matrix.trace.core.Native:' \
	"$out/release.mapping"
expect "the build id's marker class keeps its name" \
	grep -q '^com.tencent.matrix.trace.generated.BuildId -> com.tencent.matrix.trace.generated.BuildId:' \
	"$out/release.mapping"
run release
rc=$?
expect "the minified app runs to its end (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'sample: done' '$out/release.out'"
expect "one start-up report" test "$(count '"tag":"Trace_StartUp"' "$out/release.jsonl")" = 1
expect "a slow-message report" test "$(count '"detail":"NORMAL"' "$out/release.jsonl")" -ge 1
expect "an ANR report, with its stack" sh -c "grep '\"detail\":\"ANR\"' '$out/release.jsonl' | grep -q '\"stack\":\"0,1048574,'"
expect "frame reports" test "$(count '"tag":"Trace_FPS"' "$out/release.jsonl")" -ge 1
id=$(cat "$out/mapping/buildId")
expect "every report carries the build id ($id): the runtime read it from the shrunk app" \
	sh -c "[ \$(grep -c '\"buildId\":\"$id\"' '$out/release.jsonl') -eq \$(wc -l < '$out/release.jsonl') ]"
[ $fail -eq 0 ] || { echo "# the minified run's output:"; sed 's/^/# /' "$out/release.out" | tail -20; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
