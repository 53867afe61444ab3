#!/usr/bin/env bash
# Every class under the given paths (class files, directories, jars) must be written
# back byte for byte, both through the code editor (tc-dump --roundtrip: every method
# decoded and laid out again) and with the class structure only (--shallow); and there
# must be at least MIN classes.
# usage: roundtrip.sh TC_DUMP MIN PATH...
set -euo pipefail
dump=$1 min=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for mode in deep shallow; do
	flags=(--roundtrip --quiet)
	[ "$mode" = shallow ] && flags+=(--shallow)
	rc=0
	"$dump" "${flags[@]}" "$@" 2>"$tmp/$mode.err" || rc=$?
	summary=$(tail -n 1 "$tmp/$mode.err")
	echo "$mode: $summary"
	if [ "$rc" -ne 0 ]; then
		head -n 20 "$tmp/$mode.err" >&2
		status=1
		continue
	fi
	# tc-dump: N classes, N identical, 0 differ, 0 unreadable
	read -r n same differ bad < <(echo "$summary" |
		sed -n 's/^tc-dump: \([0-9]*\) classes, \([0-9]*\) identical, \([0-9]*\) differ, \([0-9]*\) unreadable$/\1 \2 \3 \4/p')
	if [ -z "${n:-}" ] || [ "$n" -lt "$min" ] || [ "$same" -ne "$n" ] || [ "$differ" -ne 0 ] || [ "$bad" -ne 0 ]; then
		echo "$mode: want at least $min classes, all identical" >&2
		status=1
	fi
done
exit $status
