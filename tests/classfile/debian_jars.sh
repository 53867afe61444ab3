#!/usr/bin/env bash
# Round trip (roundtrip.sh) of every jar that the installed Debian packages put in
# /usr/share/java as a file (symlinks name the same jars again). The packages the test
# list of scripts/deps.sh installs must be among them.
# usage: debian_jars.sh TC_DUMP SOURCE_ROOT
set -euo pipefail
dump=$1 root=$2
dir=${JAVA_LIB_DIR:-/usr/share/java}
mapfile -t jars < <(find "$dir" -maxdepth 1 -name '*.jar' -type f | LC_ALL=C sort)
. "$root/tests/lib/need.sh"
for want in 'asm-9*.jar libasm-java' 'jasmin-sable*.jar jasmin-sable' 'guava*.jar libguava-java' \
	'proguard*.jar proguard-cli'; do
	found=
	for j in "${jars[@]}"; do
		case "$(basename "$j")" in ${want% *}) found=$j ;; esac
	done
	[ -n "$found" ] || need_missing "$dir/${want% *}" "${want#* }"
done
echo "${#jars[@]} jars"
exec "$root/tests/classfile/roundtrip.sh" "$dump" 5000 "${jars[@]}"
