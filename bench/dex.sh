#!/usr/bin/env bash
# tc-instrument on dex: the appium server APK of tests/dex/corpus.sh (16 dex files, 14.9
# MB of dex, d8), whole processes, wall time and peak RSS, medians of RUNS interleaved
# runs:
#   apk -j1, apk -jN      the APK to an aligned APK (every dex rewritten, entries copied)
#   dex dir -j1, -jN      its 16 dex files, a directory to a directory
#   classes -j1, -jN      the same code as class files: enjarify's translation of the
#                         same dex (made once, cached), a jar to a jar
#   zipalign              a floor: zipalign -p -f 4 copying and aligning the same APK
#   base apk -j1, -jN     with --base BUILD: the same APK through another build's
#                         tc-instrument (e.g. the commit before a change), interleaved,
#                         and the ratio of the medians
# MB/s counts the input's dex (or class) bytes. slicer's published figures are none; the
# reference (shared/reference/dex.md) measured AOSP slicer's read + write of the 10.8 MB
# classes.dex alone at 0.66-1.1 s + 0.3-0.5 s on this kind of machine.
# --only apk measures the APK runs alone (and zipalign), without the enjarify step.
# usage: bench/dex.sh [--only apk] [--base BUILD] [BUILD] [RUNS] [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
only= base=
while [ $# -gt 0 ]; do
	case "$1" in
	--only) only=$2; shift 2 ;;
	--base) base=$(realpath "$2")/src/tc-instrument; shift 2 ;;
	*) break ;;
	esac
done
[ -z "$only" ] || [ "$only" = apk ] || { echo "bench/dex.sh: --only takes apk" >&2; exit 2; }
[ -z "$base" ] || [ -x "$base" ] || { echo "bench/dex.sh: no $base" >&2; exit 1; }
build=${1:-$root/build}
runs=${2:-7}
out=${3:-${TMPDIR:-/tmp}/tc-bench-dex}
. "$root/bench/common.sh"
"$root/scripts/deps.sh" bench
tci=$(realpath "$build")/src/tc-instrument
[ -x "$tci" ] || { echo "bench/dex.sh: build $build first (meson setup + ninja)" >&2; exit 1; }
nrc=$(no_runtime_check "$tci")
nrc_base=""
[ -z "$base" ] || nrc_base=$(no_runtime_check "$base")
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracecanary
corpus=$cache/dex-corpus
bash "$root/tests/dex/corpus.sh" "$corpus"
apk=$corpus/server.apk
# the same code as class files, once
classes=$cache/dex-corpus-classes.jar
if [ -z "$only" ] && [ ! -s "$classes" ]; then
	echo "translating the server's dex to class files with enjarify (once, a few minutes)" >&2
	mkdir -p "$out/enj"
	for f in "$corpus"/server/classes*.dex; do
		PYTHON=/usr/bin/python3 enjarify -f -o "$out/enj/$(basename "$f" .dex).jar" "$f" >/dev/null 2>&1
	done
	(cd "$out/enj" && rm -rf x && mkdir x && for j in *.jar; do unzip -qo "$j" -d x; done &&
		cd x && zip -qr "$classes.tmp" .)
	mv "$classes.tmp" "$classes"
fi
rm -rf "$out/run" && mkdir -p "$out/run"
results=$out/results
rm -rf "$results" && mkdir -p "$results"
cpus=$(nproc)
dex_mb=$(du -cb "$corpus"/server/classes*.dex | tail -n 1 | awk '{ printf "%.2f", $1 / 1e6 }')
cls_mb=0
[ -n "$only" ] || cls_mb=$(unzip -Zt "$classes" | awk '{ printf "%.2f", $3 / 1e6 }')
cd "$out/run"
for i in $(seq "$runs"); do
	for j in 1 "$cpus"; do
		rm -rf m o.apk dd oc.jar
		measure "apk-j$j" "$tci" $nrc -j"$j" --quiet --mapping-dir m --in "$apk" --out o.apk
		if [ -n "$base" ]; then
			rm -rf m o.apk
			measure "base-apk-j$j" "$base" $nrc_base -j"$j" --quiet --mapping-dir m --in "$apk" --out o.apk
		fi
		[ -z "$only" ] || continue
		measure "dex-j$j" "$tci" $nrc -j"$j" --quiet --mapping-dir m --in "$corpus/server" --out dd
		measure "classes-j$j" "$tci" $nrc -j"$j" --quiet --mapping-dir m --in "$classes" --out oc.jar
	done
	measure zipalign zipalign -p -f 4 "$apk" z.apk
done
printf '\n%-14s %10s %10s %10s\n' run "median s" "MB/s" "RSS MB"
labels=(apk-j1 "apk-j$cpus")
[ -z "$base" ] || labels+=(base-apk-j1 "base-apk-j$cpus")
[ -n "$only" ] || labels+=(dex-j1 "dex-j$cpus" classes-j1 "classes-j$cpus")
for label in "${labels[@]}" zipalign; do
	s=$(median "$results/$label" 1)
	rss=$(median "$results/$label" 2)
	mb=$dex_mb
	case "$label" in classes-*) mb=$cls_mb ;; esac
	printf '%-14s %10.3f %10.1f %10.1f\n' "$label" "$s" "$(awk -v m="$mb" -v s="$s" 'BEGIN { print m / s }')" \
		"$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
done
if [ -n "$base" ]; then
	for j in 1 "$cpus"; do
		echo "apk-j$j / base-apk-j$j: $(awk -v a="$(median "$results/apk-j$j" 1)" -v b="$(median "$results/base-apk-j$j" 1)" \
			'BEGIN { printf "%.3f", a / b }') (base: $base)"
	done
fi
echo "(dex: $dex_mb MB in 16 files; the same code as class files: $cls_mb MB; $runs runs each, interleaved)"
