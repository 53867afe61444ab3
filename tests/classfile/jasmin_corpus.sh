#!/usr/bin/env bash
# The hand-written jasmin classes (class versions 45.3 to 49, jsr/ret subroutines):
# round trip, decoding against javap, HotSpot verification as assembled, and their
# output when run. A class that must not verify checks that verification is on.
# usage: jasmin_corpus.sh TC_DUMP CORPUS TOOLS SOURCE_ROOT
set -euo pipefail
dump=$1 corpus=$2 tools=$3 root=$4
here=$root/tests/classfile
. "$root/tests/lib/need.sh"
need_stamp "$corpus.stamp"
"$here/roundtrip.sh" "$dump" 6 "$corpus/classes"
"$here/javap_facts.sh" "$dump" "$corpus/classes"
for v in "45 3" "46 0" "47 0" "48 0" "49 0"; do
	read -r major minor <<<"$v"
	grep -q "version: $major.$minor\$" < <("$dump" "$corpus/classes") || { echo "no class of version $major.$minor" >&2; exit 1; }
done
"$here/verify.sh" "$tools" 6 "$corpus/classes"
if java -Xverify:all -cp "$tools/verify" VerifyAll --quiet "$corpus/bad" >/dev/null; then
	echo "the negative control $corpus/bad verified: verification is off" >&2
	exit 1
fi
java -Xverify:all -cp "$corpus/classes" tcjas.Main | diff "$root/tests/data/jasmin/Main.expected" -
echo "tcjas.Main: expected output"
