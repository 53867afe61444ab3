#!/usr/bin/env bash
# dex-gen: generated methods over every combination that matters to the hooks
# (gen_methods.py: frames from ins_size to ins_size + 3, static, instance and
# constructors, every return kind with its value in every register, tries, handlers,
# monitors, switches, payloads, several returns, back edges), instrumented by
# tc-instrument, judged by tools nobody here wrote and by our own checkers:
#  1. the input is valid (else the generator is wrong, not the hooks): tc-dexverify,
#     dexdump -c, baksmali's register analysis;
#  2. tc-instrument hooks every method but the shapes it must refuse, which it reports
#     and leaves unchanged (gen_check.py);
#  3. the output: tc-dexverify, dexdump -c, baksmali's register analysis, the semantic
#     diff against the input (oracles/smali_diff.py: only probes added, none misplaced),
#     and the probes' balance on every path (probe_balance.py);
#  4. the same methods with frames made tight (tc-dexstress --tight-only, --tight):
#     tc-dexverify and dexdump on the tight input and on its hooked version.
# usage: gen_test.sh SRC WORK TC_INSTRUMENT TC_DEXVERIFY TC_DEXSTRESS
set -uo pipefail
export LC_ALL=C
src=$1 work=$2 tci=$(realpath "$3") dexverify=$(realpath "$4") stress=$(realpath "$5")
. "$src/tests/lib/need.sh"
need_cmd dexdump dexdump
need_cmd smali apktool
need_cmd baksmali apktool
need_cmd python3 python3
here=$src/tests/dex/gen
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }
t0=$SECONDS

counts=$(python3 "$here/gen_methods.py" .) || { not_ok "gen_methods.py"; exit 1; }
echo "# generated: $counts"
smali a --api 26 -o gen.dex smali >smali.log 2>&1 || { not_ok "smali assembles the methods: $(head -n 5 smali.log)"; exit 1; }

dexdump_ok() { # FILE
	dexdump -c "$1" >"$1.dexdump" 2>&1 && [ "$(tail -n 1 "$1.dexdump")" = "Checksum verified" ] ||
		{ echo "# $(tail -n 2 "$1.dexdump" | tr '\n' ' ')"; return 1; }
}
verify_ok() { # FILE [OPTIONS]: every method passes tc-dexverify
	local f=$1
	shift
	"$dexverify" -q "$@" "$f" >"$f.vfy" 2>&1 || { head -n 10 "$f.vfy" | sed 's/^/# /'; return 1; }
}
# register analysis and the text for smali_diff in one run (comments are ignored there)
analyse() { # DEX DIR
	baksmali d --register-info ALL,FULLMERGE -b "" --di false --pr false -o "$2" "$1" >"$2.log" 2>&1 ||
		{ grep -m 3 -i 'exception\|error' "$2.log" | sed 's/^/# /'; return 1; }
}

# --- 1 ---------------------------------------------------------------------------------
verify_ok gen.dex && ok "input: tc-dexverify accepts every generated method" ||
	not_ok "input: tc-dexverify rejects generated methods (a generator bug)"
dexdump_ok gen.dex && ok "input: dexdump verifies gen.dex" || not_ok "input: dexdump rejects gen.dex"
# baksmali on the input runs beside tc-instrument and baksmali on the output
analyse gen.dex in &
in_pid=$!

# --- 2 ---------------------------------------------------------------------------------
"$tci" --no-runtime-check -j2 --mapping-dir m --in gen.dex --out out.dex 2>instrument.log ||
	{ not_ok "tc-instrument: $(tail -n 3 instrument.log)"; wait; exit 1; }
echo "# $(tail -n 1 instrument.log)"
analyse out.dex out
out_rc=$?
wait $in_pid && ok "input: baksmali's register analysis accepts every method" ||
	not_ok "input: baksmali's register analysis fails"
[ $out_rc -eq 0 ] && ok "output: baksmali's register analysis accepts every method" ||
	not_ok "output: baksmali's register analysis fails"
python3 "$here/gen_check.py" shapes.tsv m/instrument-stats.json out >check.log 2>&1 &&
	ok "every method hooked but the expected refusals, reported and unchanged" ||
	not_ok "outcomes differ from shapes.tsv: $(tail -n 1 check.log)"
sed -n 's/^# /#   /p' check.log
grep -v '^#' check.log | head -n 30 | sed 's/^/# /'

# --- 3 ---------------------------------------------------------------------------------
verify_ok out.dex && ok "output: tc-dexverify accepts every method" || not_ok "output: tc-dexverify rejects methods"
dexdump_ok out.dex && ok "output: dexdump verifies out.dex" || not_ok "output: dexdump rejects out.dex"
python3 "$src/tests/dex/oracles/smali_diff.py" --max-diffs 10 in out >diff.log 2>&1 &&
	ok "output: only probes added, none misplaced ($(tail -n 1 diff.log))" ||
	{ not_ok "output: smali_diff: $(grep -m 1 '^methods' diff.log)"; head -n 30 diff.log | sed 's/^/# /'; }
python3 "$here/probe_balance.py" out >balance.log 2>&1 &&
	ok "output: every path enters once and exits once ($(tail -n 1 balance.log))" ||
	{ not_ok "output: $(tail -n 1 balance.log)"; head -n 30 balance.log | sed 's/^/# /'; }

# --- 4 ---------------------------------------------------------------------------------
mkdir -p tight hooked
"$stress" --tight-only tight gen.dex >tight.log 2>&1 && "$stress" --tight hooked gen.dex >>tight.log 2>&1 ||
	not_ok "tc-dexstress --tight: $(tail -n 3 tight.log)"
grep -m 1 'tight:' tight.log | sed 's/^ */# /'
grep 'refused' tight.log | sed 's/^ */# /'
verify_ok tight/gen.dex && dexdump_ok tight/gen.dex && ok "tight input: tc-dexverify and dexdump accept it" ||
	not_ok "tight input is not valid (a tighten.c bug)"
verify_ok hooked/gen.dex && dexdump_ok hooked/gen.dex && ok "tight, hooked: tc-dexverify and dexdump accept it" ||
	not_ok "tight, hooked: rejected"

echo "# $((SECONDS - t0)) s"
exit $fail
