#!/usr/bin/env bash
# The dex library on real dex files nobody here wrote (tests/dex/corpus.sh: the appium
# server APK, 16 dex files from d8; its test APK, 4; a dx-era jar of dex), judged by
# tools nobody here wrote (dexdump: ART's dex file verifier; baksmali):
#  1. every dex is written back byte for byte, and every method through the code editor
#     disassembles the same (tc-dump --roundtrip);
#  2. our instruction table agrees with dexdump's disassembly, mnemonic by mnemonic;
#  3. with ids added (every index of the file moves), dexdump verifies each file and
#     baksmali's text is identical to the original's;
#  4. with every method hooked (tc-dexstress: entry, before each return, a catch-all),
#     dexdump verifies each file, baksmali's register analysis accepts it, and our own
#     Dalvik type checker (tests/dex/verify, ART's rules) accepts every method, with
#     --strict-monitors (no throwing instruction with a lock held outside a try);
#  5. the same with every frame first made as tight as its code allows (tc-dexstress
#     --tight, tests/dex/tighten.h: registers renamed by liveness, locals moved into
#     dead parameter registers, as R8 allocates them): the tight input passes dexdump
#     and tc-dexverify (else it is not a fair input), and its hooked version the three
#     oracles of 4, so every "no spare register" path of the hooks runs on real code.
# baksmali runs in one JVM over all the files of a step (tests/dex/oracles/baksmali_batch.sh:
# each file's text, log and exit status as its own `baksmali` run gives them, which its
# self-test checks here on one file against the command).
# usage: corpus_test.sh SRC CORPUS WORK TC_DUMP TC_DEXSTRESS TC_DEXVERIFY [CACHE]
#   CACHE  where the batch runner is compiled once (default: WORK/cache, made every run)
set -uo pipefail
# dexdump prints strings' raw bytes: text tools must not expect UTF-8
export LC_ALL=C
src=$1 corpus=$2 work=$3 tc_dump=$(realpath "$4") stress=$(realpath "$5") dexverify=$(realpath "$6") cache=${7:-$3/cache}
. "$src/tests/lib/need.sh"
need_cmd dexdump dexdump
need_cmd baksmali apktool
need_cmd javac default-jdk-headless
bash "$src/tests/dex/corpus.sh" "$corpus" || exit 1
rm -rf "$work" && mkdir -p "$work" "$cache"
cache=$(cd "$cache" && pwd)
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }

apks=("$corpus/server.apk" "$corpus/test.apk" "$corpus/bootstrap.jar")
dexes=("$corpus"/server/classes*.dex "$corpus"/test/classes*.dex "$corpus"/bootstrap/classes.dex)

# --- 1 ---------------------------------------------------------------------------------
if "$tc_dump" --roundtrip --quiet "${apks[@]}" 2>"$work/roundtrip.log"; then
	ok "$(tail -n 1 "$work/roundtrip.log")"
else
	not_ok "round trips: $(grep -v '^tc-dump:' "$work/roundtrip.log" | head -n 20)"
fi

# --- 2 ---------------------------------------------------------------------------------
# dexdump -d prints "|ADDR: mnemonic ..."; tc-dump "    ADDR: mnemonic ...". Payloads
# (dexdump: "...-data", ours: "...-payload") and dexdump's "nop // spacer" are left out.
mnemonics() {
	if [ "$1" = dexdump ]; then
		dexdump -d "$2" 2>/dev/null | sed -n 's/^[0-9a-f]*: [0-9a-f ]*|[0-9a-f]*: \([a-z0-9/-]*\).*/\1/p' |
			grep -v -x -e packed-switch-data -e sparse-switch-data -e array-data
	else
		"$tc_dump" "$2" | sed -n 's/^    [0-9a-f]\{4,\}: \([a-z0-9/-]*\).*/\1/p' | grep -v -e '-payload$'
	fi | grep -v -x nop
}
for f in "$corpus/server/classes15.dex" "$corpus/server/classes6.dex" "$corpus/bootstrap/classes.dex" \
	"$corpus/server/classes16.dex"; do
	mnemonics dexdump "$f" >"$work/dd.txt"
	mnemonics ours "$f" >"$work/ours.txt"
	n=$(wc -l <"$work/ours.txt")
	if [ "$n" -gt 0 ] && cmp -s "$work/dd.txt" "$work/ours.txt"; then
		ok "${f#$corpus/}: $n instructions, the same mnemonics as dexdump"
	else
		not_ok "${f#$corpus/}: mnemonics differ from dexdump: $(diff "$work/dd.txt" "$work/ours.txt" | head -n 6 | tr '\n' ' ')"
	fi
done

# dexdump on each file: exit status and its verdict line (it prints "Checksum verified"
# after ART's DexFileVerifier accepts the file)
verify() {
	local out
	out=$(dexdump -c "$1" 2>&1)
	[ $? -eq 0 ] && [ "$(echo "$out" | tail -n 1)" = "Checksum verified" ] || { echo "$out" | tail -n 2; return 1; }
}

# batch JOBS: baksmali over the jobs (one a line: LOG, then its arguments, tab-separated)
# in one JVM; prints "STATUS<tab>LOG" as each job ends
batch() { bash "$src/tests/dex/oracles/baksmali_batch.sh" "$cache" baksmali "$1"; }
job() { local IFS=$'\t'; echo "$*"; }
# the batch runner writes what the command writes (on the smallest test dex: small, and
# every step's two modes)
if bash "$src/tests/dex/oracles/baksmali_batch.sh" --self-test "$cache" "$work/batch-self-test" \
	"$corpus/test/classes4.dex" >"$work/batch-self-test.log" 2>&1; then
	ok "baksmali batch: $(grep -c '^ok' "$work/batch-self-test.log") cases as the command writes them"
else
	not_ok "baksmali batch differs from the command: $(grep -v '^ok' "$work/batch-self-test.log" | head -n 4 | tr '\n' ' ')"
fi

# --- 3 ---------------------------------------------------------------------------------
mkdir -p "$work/ids/s" "$work/ids/t" "$work/ids/b"
"$stress" --ids-only "$work/ids/s" "$corpus"/server/classes*.dex >/dev/null &&
	"$stress" --ids-only "$work/ids/t" "$corpus"/test/classes*.dex >/dev/null &&
	"$stress" --ids-only "$work/ids/b" "$corpus"/bootstrap/classes.dex >/dev/null ||
	not_ok "tc-dexstress --ids-only"
n=0 bad=0
for f in "$work"/ids/*/*.dex; do
	n=$((n + 1))
	msg=$(verify "$f") || { bad=$((bad + 1)); echo "# $f: $msg"; }
done
[ $bad -eq 0 ] && ok "ids added: dexdump verifies all $n files" || not_ok "ids added: dexdump rejects $bad of $n files"
# baksmali is slow on the 10.8 MB classes.dex: the others, and classes16 (3 MB)
# (baksmali d -b "" of the original, then of its ids-added copy; each pair compared as
# soon as its second tree is written, then removed)
n=0 bad=0
: >"$work/ids.jobs"
for f in "$work"/ids/s/classes1[0-6].dex "$work"/ids/t/*.dex "$work"/ids/b/classes.dex; do
	orig="$corpus/$(basename "$(dirname "$f")" | sed 's/^s$/server/; s/^t$/test/; s/^b$/bootstrap/')/$(basename "$f")"
	n=$((n + 1))
	job "$work/a$n.log" d -b "" -o "$work/a$n" "$orig" >>"$work/ids.jobs"
	job "$work/b$n.log" d -b "" -o "$work/b$n" "$f" >>"$work/ids.jobs"
	echo "${f#$work/}" >>"$work/ids.names"
done
i=0
while IFS=$'\t' read -r _ log; do
	[[ "$log" == "$work"/b*.log ]] || continue
	i=$((i + 1))
	if ! diff -r -q "$work/a$i" "$work/b$i" >/dev/null; then
		bad=$((bad + 1))
		echo "# $(sed -n "${i}p" "$work/ids.names"): $(diff -r "$work/a$i" "$work/b$i" | head -n 4 | tr '\n' ' ')"
	fi
	rm -rf "$work/a$i" "$work/b$i"
done < <(batch "$work/ids.jobs")
[ $i -eq $n ] || { bad=$((bad + n - i)); echo "# baksmali batch: $i of $n pairs disassembled: $(tail -n 3 "$work/ids.jobs.err")"; }
[ $bad -eq 0 ] && ok "ids added: baksmali's text unchanged in all $n files" ||
	not_ok "ids added: baksmali's text changed in $bad of $n files"

# analysis NAME DEX...: baksmali d --register-info ALL,FULLMERGE -b "" on each, in one
# JVM; sets n (files) and bad (files where baksmali exits non-zero), each tree removed
# as soon as it is written
analysis() {
	local name=$1 f i=0 rc log
	shift
	n=0 bad=0
	: >"$work/$name.jobs"
	for f in "$@"; do
		n=$((n + 1))
		job "$work/r$name$n.log" d --register-info ALL,FULLMERGE -b "" -o "$work/r$name$n" "$f" >>"$work/$name.jobs"
	done
	while IFS=$'\t' read -r rc log; do
		i=$((i + 1))
		if [ "$rc" != 0 ]; then
			bad=$((bad + 1))
			f=$(sed -n "${i}p" "$work/$name.jobs" | awk -F'\t' '{ print $NF }')
			echo "# ${f#$work/}: $(grep -m 3 -i 'exception\|error' "$log" | tr '\n' ' ')"
		fi
		rm -rf "${log%.log}"
	done < <(batch "$work/$name.jobs")
	[ $i -eq $n ] || { bad=$((bad + n - i)); echo "# baksmali batch: $i of $n files analysed: $(tail -n 3 "$work/$name.jobs.err")"; }
}

# --- 4 ---------------------------------------------------------------------------------
mkdir -p "$work/hooked/s" "$work/hooked/t" "$work/hooked/b"
{
	"$stress" "$work/hooked/s" "$corpus"/server/classes*.dex &&
		"$stress" "$work/hooked/t" "$corpus"/test/classes*.dex &&
		"$stress" "$work/hooked/b" "$corpus"/bootstrap/classes.dex
} >"$work/stress.log" 2>&1 || not_ok "tc-dexstress: $(tail -n 3 "$work/stress.log")"
hooked=$(awk '/methods hooked/ { h += $2; t += $4 } END { print h " of " t }' "$work/stress.log")
refused=$(grep -c '^  refused' "$work/stress.log")
echo "# hooked $hooked methods; refusal reasons: $refused"
grep '^  refused' "$work/stress.log" | sort | uniq -c | head -n 10 | sed 's/^/# /'
n=0 bad=0
for f in "$work"/hooked/*/*.dex; do
	n=$((n + 1))
	msg=$(verify "$f") || { bad=$((bad + 1)); echo "# $f: $msg"; }
done
[ $bad -eq 0 ] && ok "hooked: dexdump verifies all $n files" || not_ok "hooked: dexdump rejects $bad of $n files"
analysis hooked "$work"/hooked/*/*.dex
[ $bad -eq 0 ] && ok "hooked: baksmali's register analysis accepts all $n files" ||
	not_ok "hooked: baksmali's register analysis fails on $bad of $n files"
if "$dexverify" -q --strict-monitors "$work"/hooked/*/*.dex >"$work/verify.log" 2>&1; then
	ok "hooked: tc-dexverify --strict-monitors accepts every method of the $n files"
else
	not_ok "hooked: tc-dexverify: $(head -n 10 "$work/verify.log" | tr '\n' ' ')"
fi

# --- 5 ---------------------------------------------------------------------------------
for mode in tight-only tight; do
	mkdir -p "$work/$mode/s" "$work/$mode/t" "$work/$mode/b"
	{
		"$stress" --$mode "$work/$mode/s" "$corpus"/server/classes*.dex &&
			"$stress" --$mode "$work/$mode/t" "$corpus"/test/classes*.dex &&
			"$stress" --$mode "$work/$mode/b" "$corpus"/bootstrap/classes.dex
	} >"$work/$mode.log" 2>&1 || not_ok "tc-dexstress --$mode: $(tail -n 3 "$work/$mode.log")"
done
awk '/tight:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) v[i] += $i } END {
	printf "# tight frames: %d of %d made smaller, %d registers removed, %d locals share a parameter'"'"'s register; %d frames without a local, %d under 3 registers\n", v[2], v[4], v[8], v[11], v[16], v[21] }' \
	"$work/tight-only.log"
hooked=$(awk '/methods hooked/ { h += $2; t += $4 } END { print h " of " t }' "$work/tight.log")
echo "# tight, hooked $hooked methods"
grep '^  refused' "$work/tight.log" | sort | uniq -c | head -n 10 | sed 's/^/# /'
n=0 bad=0
for f in "$work"/tight-only/*/*.dex "$work"/tight/*/*.dex; do
	n=$((n + 1))
	msg=$(verify "$f") || { bad=$((bad + 1)); echo "# $f: $msg"; }
done
[ $bad -eq 0 ] && ok "tight: dexdump verifies all $n files (input and hooked)" ||
	not_ok "tight: dexdump rejects $bad of $n files"
if "$dexverify" -q --strict-monitors "$work"/tight-only/*/*.dex >"$work/verify-tight.log" 2>&1; then
	ok "tight input: tc-dexverify --strict-monitors accepts every method (a fair input)"
else
	not_ok "tight input: tc-dexverify (a tighten.c bug): $(head -n 10 "$work/verify-tight.log" | tr '\n' ' ')"
fi
analysis tight "$work"/tight/*/*.dex
[ $bad -eq 0 ] && ok "tight, hooked: baksmali's register analysis accepts all $n files" ||
	not_ok "tight, hooked: baksmali's register analysis fails on $bad of $n files"
if "$dexverify" -q --strict-monitors "$work"/tight/*/*.dex >"$work/verify-tight-hooked.log" 2>&1; then
	ok "tight, hooked: tc-dexverify --strict-monitors accepts every method of the $n files"
else
	not_ok "tight, hooked: tc-dexverify: $(head -n 10 "$work/verify-tight-hooked.log" | tr '\n' ' ')"
fi
exit $fail
