#!/usr/bin/env bash
# Every branch in its long form: tc-stress --force-long on java.base (--no-calls) and
# jdk.compiler turns every goto/jsr into goto_w/jsr_w and every conditional into its
# negation around a goto_w, each with the stack-map frame the editor infers for the
# instruction after it. Both modules must verify, and the javac they make must compile
# tests/java to the same class files as the normal javac.
# usage: stress_long.sh TC_STRESS JDK_MODULES TOOLS SOURCE_ROOT WORK
set -euo pipefail
stress=$1 jdk=$2 tools=$3 root=$4 work=$5
rm -rf "$work"
mkdir -p "$work/mods"
for m in java.base jdk.compiler; do
	flags=(--force-long)
	[ "$m" = java.base ] && flags+=(--no-calls)
	stats=$("$stress" "${flags[@]}" "$jdk/$m" "$work/mods/$m")
	echo "$m: $stats"
	case "$stats" in *"refused-other 0 class-errors 0") ;; *) exit 1 ;; esac
done
cp -r "$tools/jdkprobe/java" "$work/mods/java.base/"
patches=(--patch-module "java.base=$work/mods/java.base" --patch-module "jdk.compiler=$work/mods/jdk.compiler")
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
echo "javac with every branch long: the same class files as javac's"
