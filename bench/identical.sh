#!/usr/bin/env bash
# Whether two builds of tc-instrument write the same bytes: the proof that a refactoring
# changed no output. Runs both on the same inputs, each with 1 and several threads, and
# compares every output file and both mapping files byte for byte (cmp) with the first
# build's one-thread run; instrument-stats.json is compared too, without its "time_ms"
# (wall times), "threads" and "cache" members. With --cache the second build also runs
# with a fresh --cache twice (cold, then warm: the warm run must be served by the cache)
# and those outputs must be the same bytes as well; the first build runs the same way,
# and the cache counters of the statistics (entries read, written, inputs reused) must
# agree between the two builds.
#
# Inputs:
#   sample   samples/app compiled with javac (a class directory; its block list and the
#            stub android.jar as class path, as samples/app/run.sh runs it)
#   guava    /usr/share/java/guava.jar (Debian's libguava-java), a jar
#   dex      the dex corpus of tests/dex/corpus.sh: the server and test APKs, the
#            bootstrap jar and the server's dex files as a directory, in one run
#   dex-more the second corpus (tests/dex/corpus_more.sh): its seven apps in one run
# The corpora come through tests/lib/npm_fetch.py (pinned, hash-checked, cached in
# ~/.cache/tracecanary/downloads).
#
# usage: bench/identical.sh [--cache] [--threads N] [--only CASE[,CASE]] [--work DIR] [--jars BUILD] A B
#   A, B     tc-instrument binaries, or meson build directories (BUILD/src/tc-instrument)
#   --jars   a build with the runtime, for the jars the sample compiles against
#            (BUILD/runtime/tracecanary-runtime.jar, android-stubs.jar) and the runtime
#            every case gets as --classpath; default: B if it is a build directory,
#            else build/
# Prints one line per comparison and a verdict; exit 0 when everything is identical,
# 1 when anything differs or a run fails.
# Example: bench/identical.sh --cache /tmp/base-build/src/tc-instrument build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

cache=0 threads=4 only="" work="" jars=""
while [ $# -gt 2 ]; do
	case $1 in
	--cache) cache=1; shift ;;
	--threads) threads=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--jars) jars=$2; shift 2 ;;
	*) echo "identical.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -eq 2 ] || { sed -n '/^# usage/,/^# Example/p' "$0" >&2; exit 2; }

tool() {
	if [ -d "$1" ]; then echo "$(cd "$1" && pwd)/src/tc-instrument"; else echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; fi
}
a=$(tool "$1")
b=$(tool "$2")
for t in "$a" "$b"; do
	[ -x "$t" ] || { echo "identical.sh: $t: not an executable" >&2; exit 2; }
done
if [ -z "$jars" ]; then
	if [ -d "$2" ]; then jars=$2; else jars=$root/build; fi
fi
# Every case has the runtime on its class path: a build that checks for it (issue 29) then
# runs as one that does not, with the same outputs (the class path only informs the
# class hierarchy).
rtjar=$jars/runtime/tracecanary-runtime.jar
[ -f "$rtjar" ] || { echo "identical.sh: $rtjar missing (give --jars BUILD, a build with the runtime)" >&2; exit 2; }
work=${work:-$(mktemp -d "${TMPDIR:-/tmp}/tc-identical.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)

wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

# --- inputs ------------------------------------------------------------------------------
declare -A args
if wanted sample; then
	rt=$jars/runtime
	for j in "$rt/tracecanary-runtime.jar" "$rt/android-stubs.jar"; do
		[ -f "$j" ] || { echo "identical.sh: $j missing (give --jars BUILD, a build with the runtime)" >&2; exit 2; }
	done
	rm -rf "$work/in/sample"
	mkdir -p "$work/in/sample"
	cp "$rt/android-stubs.jar" "$work/in/sample/android-stubs.jar"
	javac -nowarn -d "$work/in/sample/classes" -cp "$rt/tracecanary-runtime.jar:$rt/android-stubs.jar" \
		"$root"/samples/app/src/sample/*.java
	args[sample]="--blocklist $root/samples/app/blocklist.txt --classpath $work/in/sample/android-stubs.jar
		--in $work/in/sample/classes --out @OUT@/classes"
fi
if wanted guava; then
	[ -f /usr/share/java/guava.jar ] || { echo "identical.sh: /usr/share/java/guava.jar missing (apt-get install libguava-java)" >&2; exit 2; }
	args[guava]="--in /usr/share/java/guava.jar --out @OUT@/guava.jar"
fi
if wanted dex; then
	bash "$root/tests/dex/corpus.sh" "$work/in/corpus"
	c=$work/in/corpus
	args[dex]="--in $c/server.apk --out @OUT@/server.apk --in $c/test.apk --out @OUT@/test.apk
		--in $c/bootstrap.jar --out @OUT@/bootstrap.jar --in $c/server --out @OUT@/server"
fi
if wanted dex-more; then
	bash "$root/tests/dex/corpus_more.sh" "$work/in/corpus-more"
	c=$work/in/corpus-more
	s=""
	while IFS=$'\t' read -r name file kind from; do
		s+=" --in $c/$file --out @OUT@/$file"
	done <"$c/apps.tsv"
	args[dex-more]=$s
fi

# --- runs --------------------------------------------------------------------------------
# run TOOL CASE LABEL EXTRA...: the outputs land in $work/run (the same path for every
# run, since the statistics name it), then move to $work/out/CASE/LABEL.
failed=0
run() {
	local t=$1 c=$2 label=$3
	shift 3
	local dst=$work/out/$c/$label
	rm -rf "$work/run" "$dst"
	mkdir -p "$work/run/out" "$(dirname "$dst")"
	# shellcheck disable=SC2086 # the arguments are word lists without spaces
	if ! "$t" --quiet --mapping-dir "$work/run/mapping" --classpath "$rtjar" ${args[$c]//@OUT@/$work/run/out} "$@" \
		2>"$work/run/stderr"; then
		echo "FAILED  $c/$label: $t exited with an error:" >&2
		cat "$work/run/stderr" >&2
		failed=1
	fi
	mv "$work/run" "$dst"
}

# same CASE REF LABEL: every file of the two runs, byte for byte.
differ=0
same() {
	local c=$1 ref=$work/out/$1/$2 got=$work/out/$1/$3 bad=0 f
	local lr lg
	lr=$(cd "$ref" && find out mapping -type f -o -type l | LC_ALL=C sort)
	lg=$(cd "$got" && find out mapping -type f -o -type l | LC_ALL=C sort)
	if [ "$lr" != "$lg" ]; then
		echo "DIFFERS $c: $3 has other files than $2:"
		# (diff exits 1 here, which set -e and pipefail would take for a failure)
		{ diff <(echo "$lr") <(echo "$lg") || true; } | sed 's/^/    /' | head -20
		bad=1
	fi
	local n=0
	while IFS= read -r f; do
		[ -e "$got/$f" ] || continue
		case $f in
		mapping/instrument-stats.json)
			cmp -s <(strip_stats "$ref/$f") <(strip_stats "$got/$f") ||
				{ echo "DIFFERS $c: $f ($3 vs $2, times and cache aside)"; bad=1; } ;;
		*)
			cmp -s "$ref/$f" "$got/$f" || { echo "DIFFERS $c: $f ($3 vs $2): $(cmp "$ref/$f" "$got/$f" 2>&1 | head -1)"; bad=1; } ;;
		esac
		n=$((n + 1))
	done <<<"$lr"
	if [ $bad = 0 ]; then
		echo "same    $c: $3 = $2 ($n files)"
	else
		differ=1
	fi
}

strip_stats() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in ("time_ms", "threads", "cache"): d.pop(k, None)
print(json.dumps(d, indent=1, sort_keys=True))' "$1"
}

cached() {
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1])).get("cache", {})
print(c.get("entries_read", 0), c.get("run_reused", False), c.get("results_reused", 0))' "$1"
}

cache_stats() {
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1])).get("cache", {}); c.pop("dir", None)
print(" ".join(f"{k}={v}" for k, v in sorted(c.items())))' "$1"
}

echo "identical.sh: A = $a"
echo "identical.sh: B = $b"
echo "identical.sh: work in $work"
for c in sample guava dex dex-more; do
	wanted "$c" || continue
	run "$a" "$c" A-j1 --threads 1
	run "$a" "$c" "A-j$threads" --threads "$threads"
	run "$b" "$c" B-j1 --threads 1
	run "$b" "$c" "B-j$threads" --threads "$threads"
	same "$c" A-j1 "A-j$threads"
	same "$c" A-j1 B-j1
	same "$c" A-j1 "B-j$threads"
	if [ $cache = 1 ]; then
		rm -rf "$work/cache/$c"
		run "$b" "$c" B-cold --threads "$threads" --cache="$work/cache/$c"
		run "$b" "$c" B-warm --threads "$threads" --cache="$work/cache/$c"
		same "$c" A-j1 B-cold
		same "$c" A-j1 B-warm
		# A as well: the cache's own counters (entries read, written, reused) must agree
		rm -rf "$work/cache/$c"
		run "$a" "$c" A-cold --threads "$threads" --cache="$work/cache/$c"
		run "$a" "$c" A-warm --threads "$threads" --cache="$work/cache/$c"
		rm -rf "$work/cache/$c"
		for k in cold warm; do
			if cmp -s <(cache_stats "$work/out/$c/A-$k/mapping/instrument-stats.json") \
				<(cache_stats "$work/out/$c/B-$k/mapping/instrument-stats.json"); then
				echo "same    $c: B-$k's cache counters = A-$k's ($(cache_stats "$work/out/$c/B-$k/mapping/instrument-stats.json"))"
			else
				echo "DIFFERS $c: cache counters, B-$k: $(cache_stats "$work/out/$c/B-$k/mapping/instrument-stats.json"), A-$k: $(cache_stats "$work/out/$c/A-$k/mapping/instrument-stats.json")"
				differ=1
			fi
		done
		read -r hits reused results <<<"$(cached "$work/out/$c/B-warm/mapping/instrument-stats.json")"
		if [ "$hits" -gt 0 ]; then
			echo "cached  $c: the warm run read $hits cache entries (run reused: $reused, results reused: $results)"
		else
			echo "DIFFERS $c: the warm run read nothing from the cache"
			differ=1
		fi
	fi
done

if [ $failed = 0 ] && [ $differ = 0 ]; then
	echo "VERDICT: IDENTICAL (every output file and mapping byte for byte)"
	exit 0
fi
echo "VERDICT: DIFFERENT (see the lines above; the runs are in $work/out)"
exit 1
