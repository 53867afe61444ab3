#!/usr/bin/env bash
# tc-instrument on the second corpus (tests/dex/corpus_more.sh: release-mode and
# optimized apps and dex jars from npm), each app judged by:
#  - regbound.py on every output dex: no method names a register at or past its
#    registers_size (read from ART's disassembler, dexdump -d; ART rejects such a method);
#  - tc-dexverify on every method before and after: no method fails after that did not
#    fail before;
#  - the container: zip-aligned (zipalign -c -p 4), signed and verified by apksigner, and
#    readable by `unzip -t` and Python's zipfile whenever the input is.
# Then a table per app: dex files, classes, methods, traced and instrumented methods,
# tc-dexverify failures before and after, methods out of register range.
# The heavy oracles (baksmali, semantic diff, enjarify + HotSpot) on the same outputs are
# oracles_more.sh.
# usage: more_test.sh SRC CORPUS WORK TC_INSTRUMENT TC_DEXVERIFY
set -uo pipefail
export LC_ALL=C
src=$1 corpus=$2 work=$3 tci=$(realpath "$4") dexverify=$(realpath "$5")
. "$src/tests/lib/need.sh"
need_cmd dexdump dexdump
need_cmd zipalign zipalign
need_cmd apksigner apksigner
need_cmd keytool default-jdk-headless
need_cmd unzip unzip
need_cmd python3 python3
bash "$src/tests/dex/corpus_more.sh" "$corpus" || exit 1
rm -rf "$work" && mkdir -p "$work"
cd "$work" || exit 1
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
stat_of() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
zip_ok() { # FILE: unzip -t and Python's zipfile read every entry
	unzip -tqq "$1" >/dev/null 2>&1 &&
		python3 -c 'import sys, zipfile; sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)' "$1" 2>/dev/null
}
# failing methods of tc-dexverify's report: "dex method" per line, sorted
failures() { sed -n 's|^.*/\(classes[0-9]*\.dex\): \(L[^ ]*\): .*|\1 \2|p' "$1" | sort -u; }
keytool -genkeypair -keystore k.jks -storepass android -keypass android -alias t -keyalg RSA -keysize 2048 \
	-validity 10000 -dname CN=test >/dev/null 2>&1
printf 'app\tdex\tclasses\tmethods\ttraced\tinstrumented\tvfy_before\tvfy_after\tout_of_range\n' >table.tsv

while IFS=$'\t' read -r name file kind from; do
	w=$work/$name
	mkdir -p "$w/out"
	if ! "$tci" --no-runtime-check --quiet --mapping-dir "$w/map" --in "$corpus/$file" --out "$w/$file" 2>"$w/instrument.log"; then
		not_ok "$name: tc-instrument: $(tail -n 2 "$w/instrument.log")"
		continue
	fi
	(cd "$w/out" && unzip -qo "../$file" 'classes*.dex')
	ndex=$(ls "$corpus/$name" | wc -l)
	check "$name: every one of the $ndex dex files written back" \
		'(for f in "$corpus/$name"/classes*.dex; do [ -f "$w/out/$(basename "$f")" ] || exit 1; done)'

	python3 "$src/tests/dex/regbound.py" "$w"/out/classes*.dex >"$w/regbound.log" 2>&1
	rc=$?
	out_of_range=$(sed -n 's/.*; \([0-9]*\) methods name a register out of range.*/\1/p' "$w/regbound.log" |
		awk '{ n += $1 } END { print n + 0 }')
	check "$name: no method names a register past its registers_size (dexdump -d: $out_of_range)" \
		'[ $rc = 0 ] && [ "$out_of_range" = 0 ]'
	[ $rc = 0 ] || grep -v ' 0 methods name' "$w/regbound.log" | head -n 6 | sed 's/^/# /'

	"$dexverify" "$corpus/$name"/classes*.dex >"$w/vfy-before.log" 2>&1
	"$dexverify" "$w"/out/classes*.dex >"$w/vfy-after.log" 2>&1
	failures "$w/vfy-before.log" >"$w/vfy-before.txt"
	failures "$w/vfy-after.log" >"$w/vfy-after.txt"
	comm -13 "$w/vfy-before.txt" "$w/vfy-after.txt" >"$w/vfy-new.txt"
	sum() { awk -v k="$2" '/ classes, .* methods checked/ { for (i = 1; i < NF; i++) if ($(i + 1) ~ k) n += $i } END { print n + 0 }' "$1"; }
	before=$(wc -l <"$w/vfy-before.txt") after=$(wc -l <"$w/vfy-after.txt")
	check "$name: tc-dexverify: no method fails after instrumentation that passed before ($before failing before, $after after)" \
		'[ ! -s "$w/vfy-new.txt" ] && [ "$(sum "$w/vfy-after.log" "^methods")" -gt 0 ]'
	[ -s "$w/vfy-new.txt" ] && grep -F -f <(cut -d' ' -f2 "$w/vfy-new.txt" | head -n 5) "$w/vfy-after.log" | head -n 5 | sed 's/^/# /'

	check "$name: zip-aligned (zipalign -c -p 4)" 'zipalign -c -p 4 "$w/$file" >/dev/null'
	check "$name: signed by apksigner, and verified" \
		'apksigner sign --ks k.jks --ks-pass pass:android --out "$w/signed.apk" "$w/$file" >/dev/null 2>&1 && apksigner verify "$w/signed.apk" >/dev/null 2>&1'
	if zip_ok "$corpus/$file"; then
		check "$name: unzip -t and Python's zipfile read every entry, as they do the input's" 'zip_ok "$w/$file"'
		zip_ok "$w/$file" || unzip -tqq "$w/$file" 2>&1 | grep -m 2 -i 'error\|bad' | sed 's/^/# /'
	else
		echo "# $name: the input itself fails unzip -t or zipfile: not compared"
	fi

	stats=$w/map/instrument-stats.json
	traced=$(stat_of "$stats" "d['methods']['traced']")
	inst=$(stat_of "$stats" "d['methods']['instrumented']")
	problems=$(stat_of "$stats" "len(d['problems'])")
	check "$name: $inst of $traced traced methods instrumented, $problems left unchanged and reported" \
		'[ "$inst" -gt 0 ] && [ $((traced - inst)) -le "$problems" ]'
	stat_of "$stats" "'\n'.join('# ' + p['problem'][:200] for p in d['problems'][:5])" | grep .
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$ndex" "$(sum "$w/vfy-before.log" "^classes")" \
		"$(sum "$w/vfy-before.log" "^methods")" "$traced" "$inst" "$before" "$after" "$out_of_range" >>table.tsv
	rm -f "$w/signed.apk" "$w/signed.apk.idsig"
done <"$corpus/apps.tsv"

column -t -s $'\t' table.tsv | sed 's/^/# /'
exit $fail
