#!/usr/bin/env bash
# The oracle harness judged on outputs whose verdict is known, before the real
# instrumenter exists (the corpus of tests/dex/corpus.sh, server APK). Each oracle sees a
# pass and each failure mode once, on the smallest input that shows it (classes16.dex,
# 3 MB, only where the XmlText driver must run its code):
#  0. smali_diff.py on hand-written smali (fixtures/): the `at` probe, a constructor's
#     probe after <init>, slicer moves, a split try range with the added catch-all and an
#     added onWindowFocusChanged pass; a changed operand, a wrong move kind and a branch
#     to the entry probe are named; smali_diff's rules, applied to every method of
#     classes16.dex, change nothing;
#  1. identity and toy instrumented, in one run: copies of classes2 and classes7.dex and
#     classes16.dex through toy.py (entry/exit probes, parameter moves, catch-all handler,
#     split try ranges) pass every oracle with --expect-probes, behaviour included; the
#     copies hold no probe, and the XmlText driver runs its probes balanced (i = o > 0);
#  2. broken: a probe between an invoke and its move-result (classes7.dex) passes
#     structure but fails disasm (AnalysisException), semantics (V2) and types (enjarify
#     crash); a bit flipped in classes2.dex fails structure;
#  3. unbalanced: one o probe left out of Junidecode.unidecode fails semantics (V4) and
#     the XmlText behaviour run (frames left open on main, exit 97), run on a sample of
#     the output's classes that holds Junidecode (--sample 11);
#  4. a class of the toy classes7.dex moved to a new classes17.dex is found and compared;
#     a class in classes17.dex that no original has fails semantics.
# The runs on the originals (baksmali text, translations, LoadAll before, the drivers on
# the originals) come from the cache, made once for these runs and dex-oracles-apk.
# usage: selftest.sh SOURCE_ROOT WORK_DIR [CORPUS [CACHE]]
#   CORPUS  the corpus of tests/dex/corpus.sh, made already (default: WORK_DIR/corpus)
#   CACHE   oracles.sh --cache: what is derived from the originals, shared with the other
#           oracle runs on them (default: WORK_DIR/oracles/cache)
set -euo pipefail
src=$1 work=$2 corpus=${3:-$2/corpus} cache=${4:-$2/oracles/cache}
here=$src/tests/dex/oracles
. "$src/tests/lib/need.sh"
need_cmd smali apktool
need_cmd baksmali apktool
need_file /usr/bin/python3 python3
mkdir -p "$work"
bash "$src/tests/dex/corpus.sh" "$corpus"
orig=$corpus/server
bad=0
oracles() { bash "$here/oracles.sh" "$orig" "$@" --resources "$corpus/server.apk" --cache "$cache"; }
status() { awk -F'\t' -v d="$1" -v o="$2" '$1 == d && $2 == o { print $3 }' "$work/oracles/results.tsv"; }
expect() { # DEX ORACLE STATUS
	local got
	got=$(status "$1" "$2")
	if [ "$got" = "$3" ]; then
		echo "ok - $1 $2 $3"
	else
		echo "not ok - $1 $2: expected $3, got '${got:-nothing}'"
		bad=1
	fi
}
t=$work/cases
rm -rf "$t"
mkdir -p "$t"
smali_of() { # DEX DIR: the original's baksmali text (--di false --pr false), from the cache
	local d
	d=$(bash "$here/oracles.sh" "$orig" "$orig" "$work/smali-of" --cache "$cache" --orig-smali "$1") &&
		cp -r "$d" "$2"
}
echo "# 0. smali_diff on hand-written fixtures (fixtures/: orig, good, bad)"
if python3 "$here/smali_diff.py" "$here/fixtures/orig" "$here/fixtures/good" >"$work/fixtures.log"; then
	echo "ok - good shapes pass: $(head -n1 "$work/fixtures.log")"
else
	echo "not ok - good shapes fail"; cat "$work/fixtures.log"; bad=1
fi
python3 "$here/smali_diff.py" --max-diffs 9 "$here/fixtures/orig" "$here/fixtures/bad" >"$work/fixtures.log" && bad=1
for want in 'R5 entry moves move-object/16 v0, v3, move-object/16 v1, v4' '+const/4 v0, 0x2' 'V3 a branch'; do
	grep -qF -- "$want" "$work/fixtures.log" && echo "ok - bad shapes: $want" ||
		{ echo "not ok - bad shapes: no '$want'"; bad=1; }
done

smali_of classes16.dex "$t/s16"
python3 "$here/smali_diff.py" --always-normalize --jobs 2 "$t/s16" "$t/s16" && echo "ok - the rules change no original method" ||
	{ echo "not ok - the rules changed an original method"; bad=1; }

echo "# 1. identity (classes2, classes7) and toy instrumented (classes16)"
cp -r "$t/s16" "$t/toy16"
python3 "$here/toy.py" "$t/toy16"
mkdir -p "$t/toy"
smali a --api 26 -o "$t/toy/classes16.dex" "$t/toy16"
cp "$orig"/classes{2,7}.dex "$t/toy/"
oracles "$t/toy" "$work/oracles" --behave "$here/behave" --expect-probes | tail -n 14
for d in classes2.dex classes7.dex classes16.dex; do
	for o in structure disasm semantics types; do expect "$d" "$o" PASS; done
done
for d in classes2.dex classes7.dex; do
	if grep -P "^$d\tsemantics\tPASS\tmethods ([0-9]+), identical \\1, .*; probes none" "$work/oracles/results.tsv" >/dev/null; then
		echo "ok - $d: every method identical, no probe"
	else
		echo "not ok - $d: the copy is not judged identical: $(status "$d" semantics)"
		bad=1
	fi
done
for drv in "$here"/behave/*.java; do expect "$(basename "$drv" .java)" behave PASS; done
if grep -P '^XmlText\tbehave\tPASS\t.* i=[1-9][0-9]* o=' "$work/oracles/results.tsv" >/dev/null; then
	echo "ok - XmlText ran instrumented code: $(awk -F'\t' '$1 == "XmlText" { print $4 }' "$work/oracles/results.tsv")"
else
	echo "not ok - XmlText ran no probe"
	bad=1
fi

echo "# 2. broken: probe before move-result; corrupt file"
smali_of classes7.dex "$t/b7"
python3 "$here/toy.py" --break move-result "$t/b7"
mkdir -p "$t/broken"
smali a --api 26 -o "$t/broken/classes7.dex" "$t/b7"
python3 - "$orig/classes2.dex" "$t/broken/classes2.dex" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[0x70 + 3] ^= 0x10   # inside string_ids: the Adler-32 no longer matches
open(sys.argv[2], 'wb').write(d)
PY
oracles "$t/broken" "$work/oracles" --only structure,disasm,semantics,types | tail -n 6 || true
expect classes7.dex structure PASS
expect classes7.dex disasm FAIL
expect classes7.dex semantics FAIL
expect classes7.dex types FAIL
grep -q 'V2 probe between an invoke and its move-result' "$work/oracles/run/classes7.dex/semantics.log" &&
	echo "ok - semantics names V2" || { echo "not ok - semantics does not name V2"; bad=1; }
grep -q 'enjarify crashed on the output only: visitMoveResult' "$work/oracles/run/types.log" &&
	echo "ok - types names the enjarify crash in visitMoveResult" || { echo "not ok - no enjarify crash reported"; bad=1; }
expect classes2.dex structure FAIL

echo "# 3. unbalanced: an o probe left out"
cp -r "$t/s16" "$t/u16"
python3 "$here/toy.py" --break 'unbalanced=Junidecode;->unidecode\(' "$t/u16"
mkdir -p "$t/unbalanced"
smali a --api 26 -o "$t/unbalanced/classes16.dex" "$t/u16"
# behaviour on a sample of the output (1/11 of its classes by a hash of the name, the
# others from the original): one that holds Junidecode
oracles "$t/unbalanced" "$work/oracles" --only semantics,behave --behave "$here/behave" --sample 11 --sample-min 0 |
	tail -n 8 || true
# (the listing read whole first: grep -q would end the pipe early, and unzip's SIGPIPE
# fail it under pipefail)
listing=$(unzip -l "$work/oracles/run/classes16.dex/enj/raw.jar" || true)
if grep -q ' net/gcardone/junidecode/Junidecode\.class$' <<<"$listing"; then
	echo "ok - the sample holds Junidecode ($(tail -n 1 <<<"$listing" | awk '{ print $2 }') classes translated)"
else
	echo "not ok - the sample left Junidecode out"
	bad=1
fi
expect classes16.dex semantics FAIL
expect XmlText behave FAIL
expect KotlinStdlib behave PASS
grep -q 'V4 return-object .* not preceded by an o probe' "$work/oracles/run/classes16.dex/semantics.log" &&
	echo "ok - semantics names V4" || { echo "not ok - semantics does not name V4"; bad=1; }
grep -q 'UNBALANCED' "$work/oracles/run/behave/XmlText.out.err" &&
	echo "ok - the counting probe class failed loudly" || { echo "not ok - no UNBALANCED message"; bad=1; }

echo "# 4. a class moved to a new classes17.dex, and one class that comes from nowhere"
smali_of classes7.dex "$t/toy7"
python3 "$here/toy.py" "$t/toy7"
mkdir -p "$t/moved/new" "$t/moved/out"
f=$(grep -rl '^\.class .*Lio/appium/uiautomator2/utils/gestures/LongClick;' "$t/toy7")
mv "$f" "$t/moved/new/"
printf '.class public LBogus;\n.super Ljava/lang/Object;\n' >"$t/moved/new/Bogus.smali"
smali a --api 26 -o "$t/moved/out/classes7.dex" "$t/toy7"
smali a --api 26 -o "$t/moved/out/classes17.dex" "$t/moved/new"
oracles "$t/moved/out" "$work/oracles" --only structure,semantics | tail -n 5 || true
expect classes7.dex semantics PASS
expect classes17.dex structure PASS
expect classes17.dex semantics FAIL
grep -qP '^classes7.dex\tsemantics\tPASS\t.*1 classes moved to another dex' "$work/oracles/results.tsv" &&
	echo "ok - the moved class was found and compared" || { echo "not ok - the moved class"; bad=1; }
grep -qP '^classes17.dex\tsemantics\tFAIL\t1 of 2 classes have no original: LBogus;' "$work/oracles/results.tsv" &&
	echo "ok - the class from nowhere is named" || { echo "not ok - LBogus; not named"; bad=1; }
exit $bad
