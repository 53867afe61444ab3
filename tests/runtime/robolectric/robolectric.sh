#!/usr/bin/env bash
# robolectric.sh WORK_DIR API...: the Android glue's end-to-end scenarios (RoboE2e.java)
# inside Robolectric on the framework's own classes (android-all), one JVM per API level
# (the JNI library can be loaded by one class loader only, and each level is a sandbox
# of its own). See README.md here.
# Environment (set by meson): JAVA, JAVAC, RUNTIME_JAR, TC_LIB; for API 36 JAVA21 (a JDK 21+,
# else the first under /usr/lib/jvm).
#
# Offline: Robolectric's closure (deps.txt, pinned in tests/lib/maven.lock) and the
# android-all jars come from the download cache (tests/lib/maven_fetch.py), and
# Robolectric is told to resolve nothing itself (robolectric.offline, its
# dependency.dir holding the android-all jars, usePreinstrumentedJars=false: it
# instruments android-all as it loads it, instead of fetching android-all-instrumented).
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: robolectric.sh WORK_DIR API..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
work=$1
shift
for v in JAVA JAVAC RUNTIME_JAR TC_LIB; do
	[ -n "${!v:-}" ] || { echo "robolectric.sh: $v is not set" >&2; exit 2; }
done
. "$src/tests/lib/need.sh"
need_cmd unzip unzip
need_file /usr/bin/python3 python3
rm -rf "$work"
mkdir -p "$work/lib" "$work/sdk" "$work/classes"
work=$(cd "$work" && pwd)

# The android-all jar of each level, as Robolectric 4.14.1's DefaultSdkProvider names it
# (21..35); API 36 needs Robolectric 4.16.1 (23..36), whose SDK 36 wants Java 21.
declare -A sdk=([21]=5.0.2_r3-robolectric-r0 [22]=5.1.1_r9-robolectric-r2 [23]=6.0.1_r3-robolectric-r1
	[24]=7.0.0_r1-robolectric-r1 [25]=7.1.0_r7-robolectric-r1 [26]=8.0.0_r4-robolectric-r1
	[27]=8.1.0-robolectric-4611349 [28]=9-robolectric-4913185-2 [29]=10-robolectric-5803371
	[30]=11-robolectric-6757853 [31]=12-robolectric-7732740 [32]=12.1-robolectric-8229987
	[33]=13-robolectric-9030017 [34]=14-robolectric-10818077 [35]=15-robolectric-12650502
	[36]=16-robolectric-13921718)
deps=$here/deps.txt newest=${sdk[35]} java=$JAVA javac=$JAVAC
case " $* " in
*" 36 "*)
	[ $# -eq 1 ] || { echo "robolectric.sh: API 36 runs alone (another Robolectric)" >&2; exit 2; }
	deps=$here/deps-4.16.1.txt newest=${sdk[36]}
	# a JDK of 21 or later: $JAVA21, or one under /usr/lib/jvm (the machine's second JDK)
	java=
	for j in ${JAVA21:-} /usr/lib/jvm/*/bin/java; do
		v=$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
		if [ -n "$v" ] && [ "${v%%.*}" -ge 21 ] 2>/dev/null; then java=$j; break; fi
	done
	if [ -z "$java" ]; then
		msg="Robolectric runs API 36 on Java 21 or later only: no such JDK (set JAVA21, or install one under /usr/lib/jvm)"
		[ "${TC_REQUIRE_TOOLS:-0}" = 1 ] && { echo "FAIL: $msg"; exit 1; }
		echo "SKIP: $msg"; exit 77
	fi
	javac=${java%/java}/javac # android-all 16's class files are Java 21's (65.0)
	echo "# API 36 on $java"
	;;
esac
coords=()
while read -r c; do [ -n "$c" ] && coords+=("$c"); done < <(grep -v '^#' "$deps")
for api in "$@"; do
	[ -n "${sdk[$api]:-}" ] || { echo "robolectric.sh: no android-all jar known for API $api" >&2; exit 2; }
	coords+=("org.robolectric:android-all:${sdk[$api]}")
done
coords+=("org.robolectric:android-all:$newest") # compiled against, and on the class path
if ! mapfile -t files < <(python3 "$src/tests/lib/maven_fetch.py" "${coords[@]}") || [ ${#files[@]} -ne ${#coords[@]} ]; then
	echo "FAIL: Robolectric's closure or an android-all jar is not in the download cache and cannot be fetched (above)"
	exit 1
fi
cp_parts=()
for f in "${files[@]}"; do
	case "$f" in
	*/android-all-*) ln -sf "$f" "$work/sdk/" ;;
	*.aar) # an AAR's classes (androidx.test's monitor, which Robolectric calls)
		b=$(basename "$f" .aar)
		unzip -p "$f" classes.jar >"$work/lib/$b.jar" || { echo "FAIL: no classes.jar in $f"; exit 1; }
		cp_parts+=("$work/lib/$b.jar") ;;
	*) cp_parts+=("$f") ;;
	esac
done
# The newest android-all on the class path, as AGP puts android.jar there: Robolectric's
# own classes name framework types of every level; the sandbox loads each level's own.
android=$work/sdk/android-all-$newest.jar
cp=$(IFS=:; echo "${cp_parts[*]}"):$RUNTIME_JAR:$android
# RoboE2e compiled once for the levels that share a class path (every test but API 36's),
# next to the work directories, keyed by the sources, the class path (the AARs' classes,
# extracted into each work directory, read as one), the runtime jar's content and the
# compiler; made under a lock, as the tests run side by side
key=$({ cat "$here/RoboE2e.java" "$src/tests/runtime/e2e/Scenarios.java" "$RUNTIME_JAR"; echo "${cp//$work/WORK} $javac"; } | sha256sum | cut -c1-16)
classes=$(dirname "$work")/classes-$key
compile() {
	[ ! -f "$classes.done" ] || return 0
	rm -rf "$classes" && mkdir -p "$classes" &&
		"$javac" -nowarn -encoding UTF-8 -d "$classes" -cp "$cp" "$here/RoboE2e.java" "$src/tests/runtime/e2e/Scenarios.java" \
			>"$work/javac.log" 2>&1 &&
		touch "$classes.done"
}
exec {lock}>"$classes.lock"
flock "$lock"
compile
exec {lock}>&-
if [ ! -f "$classes.done" ]; then
	echo "FAIL: javac RoboE2e.java"; cat "$work/javac.log"; exit 1
fi
rmdir "$work/classes"
ln -s "$classes" "$work/classes"
passed=0 failed=0
for api in "$@"; do
	log=$work/api$api.log
	# -Drobolectric.logging.enabled: Robolectric's own messages (sandbox, SDK jar) in the log
	if timeout 600 "$java" -Xss4m -Dtc.lib="$TC_LIB" -Drobolectric.offline=true \
		-Drobolectric.dependency.dir="$work/sdk" -Drobolectric.usePreinstrumentedJars=false \
		-Drobolectric.enabledSdks="$api" -cp "$work/classes:$cp" org.junit.runner.JUnitCore RoboE2e \
		>"$log" 2>&1 </dev/null && ! grep -q '^OK (0 tests)' "$log"; then   # 0: the level is not run
		passed=$((passed + 1))
		echo "ok - API $api ($(grep -m1 '^OK' "$log"))"
	else
		failed=$((failed + 1))
		echo "not ok - API $api"
		grep -v '^[[:space:]]*at ' "$log" | head -40 | sed 's/^/#   /'
	fi
	grep -o '# API.*' "$log" | cut -c1-300
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
