#!/usr/bin/env bash
# tc-stress (calls to tc/Probe) on corpora outside the JDK, verified by HotSpot:
#   - Debian's guava.jar, also with --force-long (every branch in its long form);
#   - the javac corpus (tests/java at --release 7, 8, 11, 17), also with --bloat on
#     every other method so that widening meets lambdas, switches, records and the
#     generated large methods (those past 65,535 bytes are refused and stay as they are);
#   - the jasmin corpus (versions 45.3 to 49, jsr/ret), plain, with --bloat on every
#     method (subroutine calls become jsr_w) and with --force-long, whose tcjas.Main
#     must still print what it printed before.
# usage: stress_corpora.sh TC_STRESS TC_DUMP TOOLS JAVAC_CORPUS JASMIN_CORPUS SOURCE_ROOT WORK
set -euo pipefail
stress=$1 dump=$2 tools=$3 javac_corpus=$4 jasmin_corpus=$5 root=$6 work=$7
here=$root/tests/classfile
. "$root/tests/lib/need.sh"
need_stamp "$jasmin_corpus.stamp"
need_file "${JAVA_LIB_DIR:-/usr/share/java}/guava.jar" libguava-java
rm -rf "$work"
mkdir -p "$work"

run_stress() { # INPUT OUTPUT [tc-stress options]
	local in=$1 out=$2
	shift 2
	local stats
	stats=$("$stress" --probe tc/Probe "$@" "$in" "$out")
	echo "$(basename "$in") $*: $stats"
	case "$stats" in *"refused-other 0 class-errors 0") ;; *) return 1 ;; esac
}

guava=${JAVA_LIB_DIR:-/usr/share/java}/guava.jar
run_stress "$guava" "$work/guava"
"$here/verify.sh" "$tools" 2000 --cp "$tools/probe" "$work/guava"
run_stress "$guava" "$work/guava-long" --force-long
"$here/verify.sh" "$tools" 2000 --cp "$tools/probe" "$work/guava-long"

for r in 7 8 11 17; do
	run_stress "$javac_corpus/r$r" "$work/javac/r$r"
	"$here/verify.sh" "$tools" 10 --cp "$tools/probe" "$work/javac/r$r"
done
for r in 8 17; do
	run_stress "$javac_corpus/r$r" "$work/javac-bloat/r$r" --bloat 33000 --bloat-every 2 --seed 7
	"$here/verify.sh" "$tools" 10 --cp "$tools/probe" "$work/javac-bloat/r$r"
	run_stress "$javac_corpus/r$r" "$work/javac-long/r$r" --force-long
	"$here/verify.sh" "$tools" 10 --cp "$tools/probe" "$work/javac-long/r$r"
done

expected=$root/tests/data/jasmin/Main.expected
run_stress "$jasmin_corpus/classes" "$work/jasmin"
"$here/verify.sh" "$tools" 6 --cp "$tools/probe" "$work/jasmin"
java -Xverify:all -cp "$work/jasmin:$tools/probe" tcjas.Main | diff "$expected" -
run_stress "$jasmin_corpus/classes" "$work/jasmin-bloat" --bloat 33000 --bloat-every 1 --seed 2
count() { "$dump" "$1" | awk -v op="$2" '$2 == op { n++ } END { print n + 0 }'; }
jsr_in=$(count "$jasmin_corpus/classes" jsr_w) jsr_out=$(count "$work/jasmin-bloat" jsr_w)
echo "jsr_w: $jsr_in -> $jsr_out"
[ "$jsr_out" -gt "$jsr_in" ]
"$here/verify.sh" "$tools" 6 --cp "$tools/probe" "$work/jasmin-bloat"
java -Xverify:all -cp "$work/jasmin-bloat:$tools/probe" tcjas.Main | diff "$expected" -
run_stress "$jasmin_corpus/classes" "$work/jasmin-long" --force-long
"$here/verify.sh" "$tools" 6 --cp "$tools/probe" "$work/jasmin-long"
java -Xverify:all -cp "$work/jasmin-long:$tools/probe" tcjas.Main | diff "$expected" -
echo "tcjas.Main, edited, widened and all long: expected output"
