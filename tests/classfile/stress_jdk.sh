#!/usr/bin/env bash
# tc-stress on every method of the JDK's own modules, then HotSpot runs the result:
#   - java.base is edited with --no-calls (it runs before any probe class could load),
#     every other module with calls to java/lang/TcProbe, patched into java.base;
#   - every class of every module loads and links with -Xverify:all, the edited
#     modules patched in (--patch-module for all of them);
#   - the edited javac compiles tests/java to the same class files as the normal one,
#     and the edited code did run (TcProbe counted calls).
# usage: stress_jdk.sh TC_STRESS JDK_MODULES TOOLS SOURCE_ROOT WORK
set -euo pipefail
stress=$1 jdk=$2 tools=$3 root=$4 work=$5
rm -rf "$work"
mkdir -p "$work/mods"

check_stats() { # classes N methods N edited N refused-limit N refused-unsupported N refused-other 0 class-errors 0
	local line=$1 what=$2
	echo "$what: $line"
	case "$line" in
		*"refused-other 0 class-errors 0") ;;
		*) echo "$what: methods refused for other reasons than limits, or classes unreadable" >&2; return 1 ;;
	esac
}

"$stress" --no-calls "$jdk/java.base" "$work/mods/java.base" > "$work/java.base.stats"
check_stats "$(cat "$work/java.base.stats")" java.base
for m in "$jdk"/*/; do
	m=$(basename "$m")
	[ "$m" = java.base ] && continue
	"$stress" "$jdk/$m" "$work/mods/$m" > "$work/$m.stats"
	check_stats "$(cat "$work/$m.stats")" "$m" >/dev/null
done
awk '{ for (i = 1; i < NF; i += 2) s[$i] += $(i + 1) } END {
	printf "all modules:"; for (k in s) printf " %s %d", k, s[k]; printf "\n" }' "$work"/*.stats
edited=$(awk '{ s += $6 } END { print s }' "$work"/*.stats)
[ "$edited" -gt 150000 ] || { echo "only $edited methods edited" >&2; exit 1; }
cp -r "$tools/jdkprobe/java" "$work/mods/java.base/"

patches=()
for m in "$work"/mods/*/; do
	m=$(basename "$m")
	patches+=(--patch-module "$m=$work/mods/$m")
done
jrun() {
	java -Xverify:all "${patches[@]}" --add-modules ALL-SYSTEM "$@" 2> >(grep -v '^WARNING' >&2)
}

jrun -cp "$tools/modules" driver.VerifyModules "$work/mods" | tail -n 20

mapfile -t sources < <(find "$root/tests/java/src7" "$root/tests/java/src8" "$root/tests/java/src11" \
	"$root/tests/java/src17" -name '*.java' | LC_ALL=C sort)
mkdir -p "$work/plain" "$work/edited"
javac -nowarn -Xlint:none -g -d "$work/plain" "${sources[@]}" 2>/dev/null
jrun -cp "$tools/driver" tcstress.RunJavac -nowarn -Xlint:none -g -d "$work/edited" "${sources[@]}" 2>/dev/null
diff -r "$work/plain" "$work/edited"
echo "edited javac: $(find "$work/edited" -name '*.class' | wc -l) class files, the same as javac's"
