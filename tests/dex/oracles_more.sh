#!/usr/bin/env bash
# Every app of the second corpus (tests/dex/corpus_more.sh) instrumented by
# tc-instrument and judged by the oracles of tests/dex/oracles/oracles.sh against its
# originals: dexdump -c, baksmali --register-info ALL,FULLMERGE, the semantic diff, and
# enjarify + HotSpot -Xverify:all (no class that verified before fails after). The
# behaviour drivers are the server APK's (oracles_apk.sh); none runs here.
# Types oracle sampling: of an output dex above 4 MB (settings' classes.dex and stf's) a
# quarter of the classes, chosen by a hash of the name (oracles.sh --sample 4), is
# translated and judged; all the other dex files are judged whole.
# usage: oracles_more.sh SRC CORPUS WORK TC_INSTRUMENT [--cache DIR] [APP...]   (default: every app)
#   --cache DIR  oracles.sh --cache, shared with the other oracle runs (default: each
#                app's WORK/APP/oracles/cache)
set -uo pipefail
src=$1 corpus=$2 work=$3 tci=$(realpath "$4")
shift 4
cache_args=()
if [ "${1:-}" = --cache ]; then cache_args=(--cache "$2"); shift 2; fi
only=" $* "
bash "$src/tests/dex/corpus_more.sh" "$corpus" || exit 1
mkdir -p "$work"
work=$(cd "$work" && pwd)
fail=0
verdicts=()
while IFS=$'\t' read -r name file kind from; do
	[ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || continue
	w=$work/$name
	rm -rf "$w/out" "$w/map" "$w/$file" && mkdir -p "$w/out"
	echo "=== $name: $from"
	if ! "$tci" --no-runtime-check --quiet --mapping-dir "$w/map" --in "$corpus/$file" --out "$w/$file" ||
		! (cd "$w/out" && unzip -qo "../$file" 'classes*.dex'); then
		verdicts+=("$name: tc-instrument failed")
		fail=1
		continue
	fi
	# the originals' translations stay cached across runs
	bash "$src/tests/dex/oracles/oracles.sh" "$corpus/$name" "$w/out" "$w/oracles" --expect-probes --sample 4 \
		"${cache_args[@]+"${cache_args[@]}"}" </dev/null
	rc=$?
	[ $rc = 77 ] && exit 77   # a tool is missing (tests/lib/need.sh)
	[ $rc = 0 ] || fail=1
	verdicts+=("$name: $(awk -F'\t' '{ n[$3]++ } END { printf "%d PASS, %d FAIL", n["PASS"], n["FAIL"] }' "$w/oracles/results.tsv") (oracles.sh exit $rc)")
done <"$corpus/apps.tsv"
echo
printf '%s\n' "${verdicts[@]}"
exit $fail
