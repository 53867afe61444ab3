#!/usr/bin/env bash
# Classes javac compiles from tests/java at --release 7, 8, 11 and 17: round trip, and
# decoding against javap. The generated large methods must hold goto_w.
# usage: javac_corpus.sh TC_DUMP CORPUS SOURCE_ROOT
set -euo pipefail
dump=$1 corpus=$2 root=$3
here=$root/tests/classfile
"$here/roundtrip.sh" "$dump" 100 "$corpus"
declare -A version=([7]=51 [8]=52 [11]=55 [17]=61)
for r in 7 8 11 17; do
	"$here/javap_facts.sh" "$dump" "$corpus/r$r"
	grep -q "version: ${version[$r]}.0\$" < <("$dump" "$corpus/r$r/tcj/Switches.class") ||
		{ echo "r$r: not version ${version[$r]}" >&2; exit 1; }
done
for r in 8 17; do
	n=$("$dump" "$corpus/r$r/tcj/Big.class" | grep -c ': goto_w ' || true)
	echo "r$r Big: $n goto_w"
	[ "$n" -gt 0 ]
done
