#!/usr/bin/env bash
# Compares tc-dump's decoding of every class under DIR with javap's (the JDK's own
# class-file reader): instruction offsets, mnemonics and first operands, switch
# tables, exception tables, line numbers and local variable (type) tables, reduced to
# the same text by facts.awk. Prints the number of facts compared.
# usage: javap_facts.sh TC_DUMP DIR
set -euo pipefail
dump=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t files < <(find "$dir" -name '*.class' | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || { echo "no classes under $dir" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
javap -c -p -v "${files[@]}" | awk -v fmt=javap -f "$here/facts.awk" > "$out/javap"
"$dump" "${files[@]}" | awk -v fmt=dump -f "$here/facts.awk" > "$out/dump"
if ! diff "$out/javap" "$out/dump" > "$out/diff"; then
	echo "$dir: tc-dump and javap disagree (< javap, > tc-dump):" >&2
	head -n 40 "$out/diff" >&2
	exit 1
fi
n=$(wc -l < "$out/javap")
insns=$(grep -c '^[0-9]' "$out/javap" || true)
echo "$dir: ${#files[@]} classes, $n facts ($insns instructions) agree with javap"
[ "$insns" -gt 0 ]
