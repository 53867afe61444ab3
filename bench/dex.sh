#!/usr/bin/env bash
# tc-instrument on dex: the appium server APK of tests/dex/corpus.sh (16 dex files, 14.9
# MB of dex, d8), whole processes, wall time and peak RSS, medians of RUNS interleaved
# runs:
#   apk -j1, apk -jN      the APK to an aligned APK (every dex rewritten, entries copied)
#   dex dir -j1, -jN      its 16 dex files, a directory to a directory
#   classes -j1, -jN      the same code as class files: enjarify's translation of the
#                         same dex (made once, cached), a jar to a jar
#   zipalign              a floor: zipalign -p -f 4 copying and aligning the same APK
# MB/s counts the input's dex (or class) bytes. slicer's published figures are none; the
# reference (shared/reference/dex.md) measured AOSP slicer's read + write of the 10.8 MB
# classes.dex alone at 0.66-1.1 s + 0.3-0.5 s on this kind of machine.
# usage: bench/dex.sh [BUILD] [RUNS] [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-7}
out=${3:-${TMPDIR:-/tmp}/tc-bench-dex}
. "$root/bench/common.sh"
"$root/scripts/deps.sh" bench
tci=$(realpath "$build")/src/tc-instrument
[ -x "$tci" ] || { echo "bench/dex.sh: build $build first (meson setup + ninja)" >&2; exit 1; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracecanary
corpus=$cache/dex-corpus
bash "$root/tests/dex/corpus.sh" "$corpus"
apk=$corpus/server.apk
# the same code as class files, once
classes=$cache/dex-corpus-classes.jar
if [ ! -s "$classes" ]; then
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
cls_mb=$(unzip -Zt "$classes" | awk '{ printf "%.2f", $3 / 1e6 }')
cd "$out/run"
for i in $(seq "$runs"); do
	for j in 1 "$cpus"; do
		rm -rf m o.apk dd oc.jar
		measure "apk-j$j" "$tci" -j"$j" --quiet --mapping-dir m --in "$apk" --out o.apk
		measure "dex-j$j" "$tci" -j"$j" --quiet --mapping-dir m --in "$corpus/server" --out dd
		measure "classes-j$j" "$tci" -j"$j" --quiet --mapping-dir m --in "$classes" --out oc.jar
	done
	measure zipalign zipalign -p -f 4 "$apk" z.apk
done
printf '\n%-14s %10s %10s %10s\n' run "median s" "MB/s" "RSS MB"
for label in apk-j1 "apk-j$cpus" dex-j1 "dex-j$cpus" classes-j1 "classes-j$cpus" zipalign; do
	s=$(median "$results/$label" 1)
	rss=$(median "$results/$label" 2)
	mb=$dex_mb
	case "$label" in classes-*) mb=$cls_mb ;; esac
	printf '%-14s %10.3f %10.1f %10.1f\n' "$label" "$s" "$(awk -v m="$mb" -v s="$s" 'BEGIN { print m / s }')" \
		"$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
done
echo "(dex: $dex_mb MB in 16 files; the same code as class files: $cls_mb MB; $runs runs each, interleaved)"
