#!/usr/bin/env bash
# dexverify-hotspot: an independent oracle for the good cases. enjarify turns good/*.smali
# (assembled with smali) into Java class files and HotSpot loads each with -Xverify:all:
# none may raise VerifyError. HotSpot checks register types (int vs reference,
# undefined registers, wide halves, uninitialized objects) but not ART's monitor rules,
# and enjarify gives each type a register holds its own JVM local, so a good case
# passing here is confirmed only for the rules HotSpot has. Classes enjarify cannot
# translate (invoke-custom, invoke-polymorphic, dex 039) are skipped and listed.
# usage: hotspot.sh CASES_DIR WORK_DIR SOURCE_ROOT
set -uo pipefail
dir=$1 work=$2 root=$3
. "$root/tests/lib/need.sh"
need_cmd smali apktool
need_cmd enjarify enjarify
need_cmd javac default-jdk-headless
need_cmd java default-jdk-headless
need_cmd unzip unzip
rm -rf "$work" && mkdir -p "$work/classes" || exit 1
good=()
for f in "$dir"/good/*.smali; do
	grep -q '^# api:' "$f" || good+=("$f")
done
smali a --api 26 -o "$work/good.dex" "${good[@]}" >"$work/smali.log" 2>&1 || { cat "$work/smali.log"; exit 1; }
# enjarify runs on Debian's python3 (another python3 first on PATH may lack its modules)
PYTHON=/usr/bin/python3 enjarify -f -o "$work/good.jar" "$work/good.dex" >"$work/enjarify.log" 2>&1
grep -E 'translated|had errors' "$work/enjarify.log" | sed 's/^/# enjarify: /'
[ -f "$work/good.jar" ] || { echo "enjarify wrote no jar"; cat "$work/enjarify.log"; exit 1; }
javac -d "$work/classes" "$dir/hotspot/LoadAll.java" "$dir/hotspot/AppMethodBeat.java" || exit 1
java -Xverify:all -cp "$work/classes" LoadAll "$work/good.jar" "$work/classes" >"$work/load.out" 2>&1
cat "$work/load.out"
unzip -Z1 "$work/good.jar" >"$work/jar.list" || exit 1
pass=0 fail=0
for f in "${good[@]}"; do
	cls=$(sed -n 's/^\.class .* L\([^ ]*\);$/\1/p' "$f" | tr / .)
	name=good/$(basename "$f")
	if ! grep -qx "${cls//.//}\.class" "$work/jar.list"; then
		echo "# skipped: $name (enjarify cannot translate it)"
	elif grep -q "^VerifyError $cls:" "$work/load.out"; then
		echo "not ok - $name passes HotSpot's verifier"
		fail=$((fail + 1))
	else
		echo "ok - $name passes HotSpot's verifier"
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
