#!/usr/bin/env bash
# dexverify-corpus: every method of the real dex corpus (tests/dex/corpus.sh: the 20 d8
# dex files of appium-uiautomator2-server and its test APK, and appium-android-
# bootstrap's dx-era 035 file) passes tc-dexverify: no false alarm on real code; and
# passes it with --strict-monitors too (a check beyond ART that real code never fails).
# usage: corpus_check.sh TC_DEXVERIFY CORPUS_DIR SOURCE_ROOT
set -uo pipefail
tool=$1 corpus=$2 root=$3
bash "$root/tests/dex/corpus.sh" "$corpus" || exit $?
shopt -s nullglob
files=("$corpus"/server/*.dex "$corpus"/test/*.dex "$corpus"/bootstrap/*.dex)
[ ${#files[@]} -eq 21 ] || { echo "expected 21 dex files in $corpus, found ${#files[@]}"; exit 1; }
start=$(date +%s.%N)
"$tool" "${files[@]}" >"$corpus.out" 2>&1
rc=$?
end=$(date +%s.%N)
cat "$corpus.out"
pass=$(grep -c ' 0 failures, 0 locking$' "$corpus.out")
echo "# $(awk "BEGIN { printf \"%.2f\", $end - $start }") s for ${#files[@]} files"
"$tool" -q --strict-monitors "${files[@]}" >"$corpus.strict" 2>&1
strict=$?
sed 's/^/strict: /' "$corpus.strict" | head -n 20
[ $strict -eq 0 ] && pass=$((pass + 1))
echo "$pass passed, $(( ${#files[@]} + 1 - pass )) failed"
[ $rc -eq 0 ] && [ $strict -eq 0 ] && [ "$pass" -eq $(( ${#files[@]} + 1 )) ]
