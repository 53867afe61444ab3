#!/usr/bin/env bash
# check.sh: the runtime's framework members against android-all at API 21..37
# (rt_members.py, with tc-members from src/tc-hotpath/): the runtime jar as built must pass
# and runtime/README.md's table must be this run's; then copies of the runtime with a
# planted unguarded use must fail, naming the member and the level, or the check proves
# nothing: FrameMetrics registered from API 21 (FrameMonitor's `sdk >= 24` guard
# lowered), Debug.getRuntimeStat read from API 21 (GcStats's `< M` guard lowered), and a
# README table with one cell changed.
# Environment (set by meson): TC_MEMBERS, RUNTIME_JAR, RUNTIME_SRC (runtime/java),
# STUBS_JAR, JAVAC, JAR. The android-all jars come from the download cache
# (tests/lib/maven_fetch.py); a jar it lacks and cannot fetch fails the test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
check() { python3 "$here/rt_members.py" --tc-members "$TC_MEMBERS" "$@"; }

echo "# the runtime jar, and runtime/README.md's table"
check --jar "$RUNTIME_JAR" --readme "$src/runtime/README.md" || exit 1

# mutant NAME FILE SED_SCRIPT: the runtime jar with FILE (under core/ or android/) changed
mutant() {
	local name=$1 file=$2 script=$3 orig=$RUNTIME_SRC/com/tencent/matrix/trace/$2
	mkdir -p "$dir/$name/src" "$dir/$name/classes"
	sed "$script" "$orig" >"$dir/$name/src/$(basename "$file")"
	if cmp -s "$orig" "$dir/$name/src/$(basename "$file")"; then
		echo "not ok - mutant $name: the script changed nothing (the code moved on): update it"
		exit 1
	fi
	(cd "$dir/$name/classes" && "$JAR" xf "$RUNTIME_JAR")
	"$JAVAC" -nowarn -source 8 -target 8 -cp "$dir/$name/classes:$STUBS_JAR" -d "$dir/$name/classes" \
		"$dir/$name/src/$(basename "$file")" 2>"$dir/$name/javac.log" || { cat "$dir/$name/javac.log"; exit 1; }
	"$JAR" cf "$dir/$name.jar" -C "$dir/$name/classes" .
}
expect_fail() { # expect_fail NAME PATTERN ARGS...: the check fails and says why
	local name=$1 pattern=$2
	shift 2
	if check "$@" >"$dir/$name.out" 2>&1; then
		cat "$dir/$name.out"
		echo "not ok - $name passed the check"
		exit 1
	fi
	if ! grep -q -- "$pattern" "$dir/$name.out"; then
		cat "$dir/$name.out"
		echo "not ok - $name failed, but not for: $pattern"
		exit 1
	fi
	grep -- "$pattern" "$dir/$name.out" | head -2 | sed 's/^/#   /'
	echo "ok - $name is caught"
}

echo "# FrameMetrics from API 21: FrameMonitor.start's guard lowered from 24"
mutant frames android/FrameMonitor.java 's/if (sdk >= 24 && (frames/if (sdk >= 21 \&\& (frames/'
expect_fail frames 'android/view/Window.addOnFrameMetricsAvailableListener .*: missing at API 21, and the site runs there' \
	--jar "$dir/frames.jar" --levels 21-24

echo "# Debug.getRuntimeStat from API 21: GcStats's guard lowered from M (23)"
mutant gcstats android/GcStats.java 's/SDK_INT < Build.VERSION_CODES.M/SDK_INT < 21/'
expect_fail gcstats 'invokestatic android/os/Debug.getRuntimeStat .*: missing at API 22, and the site runs there' \
	--jar "$dir/gcstats.jar" --levels 21-23

echo "# a README whose table is not the run's"
sed '/<!-- rt_members table -->/,/<!-- \/rt_members table -->/s/`gg+/`+++/' \
	"$src/runtime/README.md" >"$dir/README.md"
cmp -s "$dir/README.md" "$src/runtime/README.md" && { echo "not ok - the README mutant changed nothing"; exit 1; }
expect_fail readme "member table is not this run's" --jar "$RUNTIME_JAR" --readme "$dir/README.md"
