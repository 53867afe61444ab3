#!/usr/bin/env bash
# Branch widening on real code: tc-stress --bloat puts 33,000 bytes of nop before one
# random instruction of every 16th method with branches of jdk.compiler, so that the
# branches across it need goto_w, inverted conditionals around goto_w and their new
# stack-map frames. The widened forms must be in the output (counted with tc-dump),
# every class must verify, and the widened javac must still compile a source file to
# the same bytes as the normal javac.
# usage: stress_bloat.sh TC_STRESS TC_DUMP JDK_MODULES TOOLS SOURCE_ROOT WORK
set -euo pipefail
stress=$1 dump=$2 jdk=$3 tools=$4 root=$5 work=$6
mod=jdk.compiler
rm -rf "$work"
mkdir -p "$work/mods" "$work/base"

stats=$("$stress" --bloat 33000 --bloat-every 16 "$jdk/$mod" "$work/mods/$mod")
echo "$mod: $stats"
case "$stats" in *"refused-other 0 class-errors 0") ;; *) exit 1 ;; esac

# goto_w, and conditionals to N + 8 right before a goto_w at N + 3, in the classes the
# bloat made larger (a sample of them: dumping every nop of all would take long).
widened() {
	"$dump" "$@" | awk '
		$2 == "goto_w" { g++; if (prev_if && $1 + 0 == prev_at + 3) inv++ }
		{ prev_if = $2 ~ /^if/ && $3 + 0 == $1 + 8; prev_at = $1 + 0 }
		END { print g + 0, inv + 0 }'
}
mapfile -t grown < <(cd "$work/mods/$mod" && find . -name '*.class' -size +32k | LC_ALL=C sort | head -n 25)
[ "${#grown[@]}" -gt 0 ] || { echo "no class grew by the bloat" >&2; exit 1; }
read -r g_in inv_in < <(widened "${grown[@]/#./$jdk/$mod}")
read -r g_out inv_out < <(widened "${grown[@]/#./$work/mods/$mod}")
echo "${#grown[@]} bloated classes: goto_w $g_in -> $g_out, inverted conditionals $inv_in -> $inv_out"
[ "$g_out" -gt "$g_in" ] && [ "$inv_out" -gt "$inv_in" ]

cp -r "$tools/jdkprobe/java" "$work/base/"
patches=(--patch-module "java.base=$work/base" --patch-module "$mod=$work/mods/$mod")
jrun() {
	java -Xverify:all "${patches[@]}" --add-modules ALL-SYSTEM "$@" 2> >(grep -v '^WARNING' >&2)
}
jrun -cp "$tools/modules" driver.VerifyModules "$work/mods" | tail -n 20

src=$root/tests/java/src7/tcj/Switches.java
mkdir -p "$work/plain" "$work/edited"
javac -nowarn -g -d "$work/plain" "$src"
jrun -cp "$tools/driver" tcstress.RunJavac -nowarn -g -d "$work/edited" "$src"
diff -r "$work/plain" "$work/edited"
echo "widened javac: the same class files as javac's"
