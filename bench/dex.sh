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
#   slicer                AOSP slicer, the dex peer, one dex file at a time against
#                         tc-instrument -j1 on the same file (dex to dex): `dexter -o`
#                         (read + write back, no hooks) and `dexter -x stress_entry_hook
#                         -x stress_exit_hook -o` (its stock entry and exit hooks on every
#                         method); SLICER_FILES (default "classes16.dex classes.dex") of
#                         the server. slicer aborts on some inputs (uiautomator2's
#                         classes.dex: invoke-polymorphic, hook ids past 64 K): the abort
#                         and slicer's message are reported, that file is not run again,
#                         and the benchmark goes on.
# The slicer peer needs a stock `dexter` binary built for the host from AOSP
# platform/tools/dexter (slicer/ and dexter/; nothing of it is in this repository): give
# it with --slicer PATH or put it at ~/.cache/tracecanary/slicer/dexter; without it the
# slicer rows are skipped with a message.
# MB/s counts the input's dex (or class) bytes. The load average is logged at every run
# and its range printed: -j2 and the ratios only mean something on a quiet machine.
# --only apk measures the APK runs alone (and zipalign), without the enjarify step;
# --only slicer measures the slicer rows alone.
# usage: bench/dex.sh [--only apk|slicer] [--slicer DEXTER] [--base BUILD] [BUILD] [RUNS] [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
only= base= slicer=
while [ $# -gt 0 ]; do
	case "$1" in
	--only) only=$2; shift 2 ;;
	--base) base=$(realpath "$2")/src/tc-instrument; shift 2 ;;
	--slicer) slicer=$(realpath "$2"); shift 2 ;;
	*) break ;;
	esac
done
case "$only" in "" | apk | slicer) ;; *) echo "bench/dex.sh: --only takes apk or slicer" >&2; exit 2 ;; esac
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
[ -n "$slicer" ] || slicer=$cache/slicer/dexter
if [ "$only" = apk ]; then
	slicer=
elif [ ! -x "$slicer" ]; then
	echo "bench/dex.sh: slicer peer skipped: no dexter binary at $slicer (build AOSP" \
		"platform/tools/dexter for the host, then --slicer PATH or put it there)" >&2
	[ "$only" != slicer ] || exit 1
	slicer=
fi
slicer_files=${SLICER_FILES:-classes16.dex classes.dex}
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
# measure_slicer_run LABEL ARGS...: as measure LABEL "$slicer" ARGS..., but an abort of
# slicer is a finding, not a failure: its message (slicer prints SLICER_CHECK to standard
# output before it aborts, hence stdbuf) and the time to the abort go to
# $results/LABEL.abort, and LABEL is not run again.
measure_slicer_run() {
	local label=$1
	shift
	[ ! -e "$results/$label.abort" ] || return 0
	local t0 t1 rc=0
	t0=$EPOCHREALTIME
	/usr/bin/time -f "%M" -o "$results/.last" stdbuf -o0 "$slicer" "$@" >"$results/.out" 2>"$results/.err" || rc=$?
	t1=$EPOCHREALTIME
	if [ "$rc" -ne 0 ]; then
		# the last message is the one slicer aborted on (weak checks only warn)
		grep -h -a 'SLICER_CHECK\|SLICER_WEAK\|Unexpected\|Unknown' "$results/.out" | tail -n 1 |
			sed 's/^[[:space:]]*//' > "$results/$label.abort"
		[ -s "$results/$label.abort" ] || echo "no message" > "$results/$label.abort"
		echo "after $(awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.2f", b - a }') s, exit status $rc" \
			>> "$results/$label.abort"
		return 0
	fi
	echo "$(awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.4f", b - a }') $(cat "$results/.last")" \
		>> "$results/$label"
}
: > "$results/load"
cd "$out/run"
for i in $(seq "$runs"); do
	log_load
	if [ -n "$slicer" ]; then
		for f in $slicer_files; do
			n=${f%.dex}
			rm -rf m o.dex s.dex
			measure "tc-$n" "$tci" $nrc -j1 --quiet --mapping-dir m --in "$corpus/server/$f" --out o.dex
			measure_slicer_run "slicer-rw-$n" -o s.dex "$corpus/server/$f"
			measure_slicer_run "slicer-hooks-$n" -x stress_entry_hook -x stress_exit_hook -o s.dex \
				"$corpus/server/$f"
		done
	fi
	[ "$only" != slicer ] || continue
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
printf '\n%-24s %10s %10s %10s\n' run "median s" "MB/s" "RSS MB"
labels=()
[ "$only" = slicer ] || labels+=(apk-j1 "apk-j$cpus")
[ -z "$base" ] || labels+=(base-apk-j1 "base-apk-j$cpus")
[ -n "$only" ] || labels+=(dex-j1 "dex-j$cpus" classes-j1 "classes-j$cpus")
[ "$only" = slicer ] || labels+=(zipalign)
if [ -n "$slicer" ]; then
	for f in $slicer_files; do
		labels+=("tc-${f%.dex}" "slicer-rw-${f%.dex}" "slicer-hooks-${f%.dex}")
	done
fi
for label in "${labels[@]}"; do
	if [ ! -s "$results/$label" ]; then
		printf '%-24s %10s   %s\n' "$label" aborted "$(head -n 1 "$results/$label.abort" 2>/dev/null)"
		continue
	fi
	s=$(median "$results/$label" 1)
	rss=$(median "$results/$label" 2)
	mb=$dex_mb
	case "$label" in
	classes-*) mb=$cls_mb ;;
	tc-* | slicer-*) f=${label#tc-}; f=${f#slicer-rw-}; f=${f#slicer-hooks-}
		mb=$(stat -c %s "$corpus/server/$f.dex" | awk '{ printf "%.2f", $1 / 1e6 }') ;;
	esac
	printf '%-24s %10.3f %10.1f %10.1f\n' "$label" "$s" "$(awk -v m="$mb" -v s="$s" 'BEGIN { print m / s }')" \
		"$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
done
if [ -n "$slicer" ]; then
	for f in $slicer_files; do
		n=${f%.dex}
		tc=$(median "$results/tc-$n" 1)
		for kind in rw hooks; do
			if [ -s "$results/slicer-$kind-$n" ]; then
				echo "slicer-$kind-$n / tc-$n: $(awk -v a="$(median "$results/slicer-$kind-$n" 1)" -v b="$tc" \
					'BEGIN { printf "%.1f", a / b }')x"
			else
				echo "slicer-$kind-$n: slicer aborted: $(sed -n 1p "$results/slicer-$kind-$n.abort")" \
					"($(sed -n 2p "$results/slicer-$kind-$n.abort")); not run again"
			fi
		done
	done
	echo "(slicer: $slicer; rw = dexter -o, read and write back; hooks = -x stress_entry_hook" \
		"-x stress_exit_hook, entry and exit hooks on every method; tc = tc-instrument -j1, dex to dex)"
fi
if [ -n "$base" ]; then
	for j in 1 "$cpus"; do
		echo "apk-j$j / base-apk-j$j: $(awk -v a="$(median "$results/apk-j$j" 1)" -v b="$(median "$results/base-apk-j$j" 1)" \
			'BEGIN { printf "%.3f", a / b }') (base: $base)"
	done
fi
echo "(dex: $dex_mb MB in 16 files; the same code as class files: $cls_mb MB; $runs runs each, interleaved;" \
	"$(load_range))"
