#!/usr/bin/env bash
# Runs VerifyAll (bench/peers) with -Xverify:all on class directories or jars and
# requires at least MIN classes, no VerifyError or ClassFormatError and, unless
# --allow-linkage N is given, at most N other linkage problems (missing dependencies).
# usage: verify.sh TOOLS MIN [--allow-linkage N] [--cp EXTRA] PATH...
set -euo pipefail
tools=$1 min=$2
shift 2
allow=0 cp="$tools/verify"
while [ $# -gt 0 ]; do
	case "$1" in
		--allow-linkage) allow=$2; shift 2 ;;
		--cp) cp="$cp:$2"; shift 2 ;;
		*) break ;;
	esac
done
rc=0
out=$(java -Xverify:all -cp "$cp" VerifyAll --quiet "$@") || rc=$?
summary=$(echo "$out" | tail -n 1)
echo "$summary"
read -r n verr other < <(echo "$summary" |
	sed -n 's/^verified \([0-9]*\) classes, \([0-9]*\) VerifyError, \([0-9]*\) other linkage problems$/\1 \2 \3/p')
if [ "$rc" -ne 0 ] || [ -z "${n:-}" ] || [ "$verr" -ne 0 ] || [ "$n" -lt "$min" ] || [ "$other" -gt "$allow" ]; then
	echo "$out" | head -n 30 >&2
	echo "want at least $min classes, no VerifyError, at most $allow other problems" >&2
	exit 1
fi
