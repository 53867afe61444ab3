#!/usr/bin/env bash
# dexverify-cases: tc-dexverify's verdicts on hand-written methods.
#   good/*.smali  edge cases ART accepts (d8's shapes, the instrumenter's probes, grown
#                 frames, exit handlers): every method must pass
#   bad/*.smali   one broken rule each; the header says which ("# rule:") and what the
#                 message must contain ("# expect:"); "# patch:" lines name edits
#                 patch_dex.py makes after assembly (what smali computes itself);
#                 "# flags:" gives tc-dexverify options. The class must fail exactly
#                 once, with that message.
#   README.md     its rules table names a failing case (a bad file, or a test of
#                 ../test_dex_verify.c) for each rule checked (rules_table.py)
# "# api: N" (good or bad) assembles a file alone for API level N (26 otherwise: dex
# 038; 28 gives 039).
# Assembled with smali (Debian's apktool): all plain good files in one dex, the plain
# bad ones in another, each patched, flagged or api one alone.
# usage: cases.sh TC_DEXVERIFY CASES_DIR WORK_DIR SOURCE_ROOT
set -uo pipefail
tool=$1 dir=$2 work=$3 root=$4
. "$root/tests/lib/need.sh"
need_cmd smali apktool
need_cmd python3 python3
rm -rf "$work" && mkdir -p "$work" || exit 1
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - $1"; fail=$((fail + 1)); }
header() { sed -n "s/^# $1: //p" "$2"; }
class_of() { sed -n 's/^\.class .* \(L[^ ]*;\)$/\1/p' "$1"; }
assemble() { # OUT FILE...
	local out=$1 api
	shift
	api=$(header api "$1")
	smali a --api "${api:-26}" -o "$out" "$@" >"$out.log" 2>&1 || { cat "$out.log"; return 1; }
}

# --- good: every method passes ---
good=()
for f in "$dir"/good/*.smali; do
	if grep -q '^# api:' "$f"; then
		b=$work/$(basename "$f" .smali)
		if assemble "$b.dex" "$f"; then
			"$tool" "$b.dex" >"$b.out" 2>&1 &&
				ok "good/$(basename "$f") is accepted" ||
				not_ok "good/$(basename "$f") is accepted: $(head -n 1 "$b.out")"
		else
			not_ok "smali assembles good/$(basename "$f")"
		fi
	else
		good+=("$f")
	fi
done
if assemble "$work/good.dex" "${good[@]}"; then
	"$tool" "$work/good.dex" >"$work/good.out" 2>&1
	rc=$?
	for f in "${good[@]}"; do
		cls=$(class_of "$f")
		name=good/$(basename "$f")
		if [ -z "$cls" ]; then
			not_ok "$name: no .class line"
		elif grep -qF -- ": $cls->" "$work/good.out"; then
			not_ok "$name is accepted: $(grep -F -- ": $cls->" "$work/good.out")"
		else
			ok "$name is accepted"
		fi
	done
	[ $rc -eq 0 ] && ok "good.dex: exit 0" || not_ok "good.dex: exit $rc: $(tail -n 3 "$work/good.out")"
else
	not_ok "smali assembles good/"
fi

# --- bad: each fails once, with its message ---
plain=() patched=()
for f in "$dir"/bad/*.smali; do
	if grep -Eq '^# (patch|flags|api):' "$f"; then patched+=("$f"); else plain+=("$f"); fi
done
check_bad() { # DEX_OUTPUT FILE
	local out=$1 f=$2 cls name expect lines
	cls=$(class_of "$f")
	name=bad/$(basename "$f")
	expect=$(header expect "$f")
	if [ -z "$cls" ] || [ -z "$expect" ] || [ -z "$(header rule "$f")$(grep '^# rule' "$f")" ]; then
		not_ok "$name has .class, # rule: and # expect: lines"
		return
	fi
	lines=$(grep -F -- ": $cls->" "$out")
	if [ "$(printf '%s' "$lines" | grep -c '')" -ne 1 ]; then
		not_ok "$name fails exactly once (got: ${lines:-nothing})"
	elif [[ "$lines" != *"$expect"* ]]; then
		not_ok "$name says '$expect' (got: $lines)"
	else
		ok "$name is rejected: ${lines#*: L}"
	fi
}
if assemble "$work/bad.dex" "${plain[@]}"; then
	"$tool" "$work/bad.dex" >"$work/bad.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && ok "bad.dex: exit 1" || not_ok "bad.dex: exit $rc, not 1"
	for f in "${plain[@]}"; do check_bad "$work/bad.out" "$f"; done
else
	not_ok "smali assembles bad/ (unpatched)"
fi
for f in "${patched[@]}"; do
	b=$work/$(basename "$f" .smali)
	mapfile -t edits < <(header patch "$f")
	read -r -a flags <<<"$(header flags "$f")"
	if assemble "$b.dex" "$f" && { [ ${#edits[@]} -eq 0 ] || python3 "$dir/patch_dex.py" "$b.dex" "${edits[@]}"; }; then
		"$tool" "${flags[@]}" "$b.dex" >"$b.out" 2>&1
		check_bad "$b.out" "$f"
	else
		not_ok "bad/$(basename "$f") assembles (and is patched)"
	fi
done

# --- the rules table of README.md names a failing case for each rule checked ---
if python3 "$dir/rules_table.py" "$dir" >"$work/rules.out" 2>&1; then
	ok "README.md's rules table: $(tail -n 1 "$work/rules.out")"
else
	not_ok "README.md's rules table: $(head -n 5 "$work/rules.out" | tr '\n' ';')"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
