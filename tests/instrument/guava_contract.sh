#!/usr/bin/env bash
# The Matrix contract on Debian's guava.jar (31.1): tc-instrument traces and ignores
# exactly the methods Matrix does (9,830 and 2,724), with the same access flags, in
# Matrix's mapping formats. The reference sets come from bench/peers' MatrixTransform,
# an ASM re-implementation of Matrix's transform that reproduces those counts; the
# output must also verify on HotSpot.
#
# usage: guava_contract.sh TC_INSTRUMENT WORK_DIR SOURCE_ROOT
set -euo pipefail
tc=$1 work=$2 src=$3
guava=/usr/share/java/guava.jar
. "$src/tests/lib/need.sh"
need_file "$guava" libguava-java
need_file /usr/share/java/asm-commons.jar libasm-java
rm -rf "$work"
mkdir -p "$work"
bash "$src/bench/peers/build.sh" "$work/peers" >/dev/null
J=/usr/share/java
asm="$J/asm.jar:$J/asm-tree.jar:$J/asm-commons.jar:$J/asm-util.jar:$J/asm-analysis.jar"

"$tc" --quiet --no-runtime-check --mapping-dir "$work/tc" --in "$guava" --out "$work/tc/guava.jar"
java -cp "$work/peers/peers.jar:$asm" MatrixTransform --mapping-dir "$work/matrix" \
	--in "$guava" --out "$work/matrix/guava.jar" >/dev/null 2>&1

for who in tc matrix; do
	d="$work/$who"
	# the dispatch line is part of the format: last, and exactly Matrix's
	[ "$(tail -n 1 "$d/methodMapping.txt")" = \
	  "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V" ]
	[ "$(head -n 1 "$d/ignoreMethodMapping.txt")" = "ignore methods:" ]
	sed '$d' "$d/methodMapping.txt" | cut -d, -f2- | sort > "$d/traced"
	tail -n +2 "$d/ignoreMethodMapping.txt" | sort > "$d/ignored"
done
echo "traced: $(wc -l < "$work/tc/traced"), ignored: $(wc -l < "$work/tc/ignored")"
[ "$(wc -l < "$work/tc/traced")" -eq 9830 ]
[ "$(wc -l < "$work/tc/ignored")" -eq 2724 ]
diff -u "$work/matrix/traced" "$work/tc/traced"
diff -u "$work/matrix/ignored" "$work/tc/ignored"

# ids are 1..9830, dense, sorted; ignore lines sorted by class name
sed '$d' "$work/tc/methodMapping.txt" | cut -d, -f1 > "$work/ids"
seq 1 9830 | cmp - "$work/ids"
tail -n +2 "$work/tc/ignoreMethodMapping.txt" | cut -d' ' -f1 | LC_ALL=C sort -c

java -Xverify:all -cp "$work/peers/peers.jar" VerifyAll --quiet "$work/tc/guava.jar"
