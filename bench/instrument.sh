#!/usr/bin/env bash
# tc-instrument against its peers, same machine, same run, medians of several runs of
# whole processes (wall time and peak RSS):
#   guava.jar -> instrumented jar: tc-instrument, the Matrix-equivalent ASM transform
#     (bench/peers/MatrixTransform) as a cold JVM and warm (WARM_ROUNDS rounds, default
#     10, in one JVM: the second half's median, as the transform runs in a Gradle daemon
#     build after build) and JaCoCo's offline instrumenter;
#   the six-jar set (guava, commons-lang3, jackson-databind, jackson-core, ecj, groovy):
#     tc-instrument and the Matrix-equivalent, cold and warm;
#   the JDK's classes, directory -> directory: tc-instrument (and `cp -r` of the same
#     tree, the floor any tool writing those files pays on this file system).
#
#   --cache: guava cold (an empty cache) and warm (nothing changed), medians, with the
#     warm run as a share of the cold one.
#   --big: every jar of a set of Debian Java packages (bench list of scripts/deps.sh:
#     jruby, groovy, lucene, fop, icu4j, scala, jython, batik, ..., 250 MB), one --in
#     per jar, at 10%, 25%, 50% and 100% of the set (MB/s and peak RSS, to show how both
#     grow), then the whole set with --cache: cold, warm, and with one jar changed.
#
# usage: bench/instrument.sh [--cache] [--big] [BUILD_DIR] [RUNS] [OUTPUT_BASE]
# Without --cache or --big it measures the peers; with either, only that part.
# OUTPUT_BASE is where outputs are written (default: a directory under TMPDIR); pass
# /dev/shm to leave the disk out of it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=peers
while [ "${1:-}" = --cache ] || [ "${1:-}" = --big ]; do
	mode=${mode/peers/}${1#--}
	shift
done
build=${1:-$root/build}
runs=${2:-5}
work=${TMPDIR:-/tmp}/tc-bench-instrument
out=${3:-$work/out}
results=$work/results
. "$root/bench/common.sh"
mkdir -p "$work" "$out" && rm -rf "$results" && mkdir -p "$results"
"$root/scripts/deps.sh" bench
ninja -C "$build" src/tc-instrument >/dev/null
jdk_corpus "$work/jdk"
peers "$work/peers" jacoco
J=/usr/share/java
guava=$J/guava.jar
asm="$J/asm.jar:$J/asm-tree.jar:$J/asm-commons.jar:$J/asm-util.jar:$J/asm-analysis.jar"
tc=$build/src/tc-instrument
nrc=$(no_runtime_check "$tc")

if [ "$mode" != peers ]; then
	tc=$(realpath "$build")/src/tc-instrument
	nrc=$(no_runtime_check "$tc")
	mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
	pr() { printf '%-52s %8.3f %8.0f %8s\n' "$1" "$(median "$results/$2" 1)" "$(median "$results/$2" 2 | awk '{print $1/1024}')" "${3:-}"; }
	printf '%-52s %8s %8s %8s\n' "" "wall s" "RSS MB" "MB/s"
fi
if [[ "$mode" == *cache* ]]; then
	for r in $(seq "$runs"); do
		o=$out/cache$r
		rm -rf "$o" "$work/cache" && mkdir -p "$o"
		measure guava-cold "$tc" $nrc --quiet --cache="$work/cache" --mapping-dir "$o/m1" --in "$guava" --out "$o/g1.jar"
		measure guava-warm "$tc" $nrc --quiet --cache="$work/cache" --mapping-dir "$o/m2" --in "$guava" --out "$o/g2.jar"
		cmp -s "$o/g1.jar" "$o/g2.jar" || { echo "warm output differs" >&2; exit 1; }
		measure guava-warm-inplace "$tc" $nrc --quiet --cache="$work/cache" --mapping-dir "$o/m2" --in "$guava" --out "$o/g2.jar"
		measure floor /bin/true # starting a process, the floor of any warm run
		rm -rf "$o"
	done
	pr "guava.jar: cold (empty cache)" guava-cold
	pr "guava.jar: warm (nothing changed, new output dir)" guava-warm
	pr "guava.jar: warm (nothing changed, outputs in place)" guava-warm-inplace
	pr "starting a process (/bin/true)" floor
	awk -v c="$(median "$results/guava-cold" 1)" -v w="$(median "$results/guava-warm-inplace" 1)" \
		-v f="$(median "$results/floor" 1)" 'BEGIN {
		printf "guava: warm is %.1f%% of cold (target 5%%); above the process floor, %.1f%%\n",
			100 * w / c, 100 * (w - f) / (c - f) }'
fi
if [[ "$mode" == *big* ]]; then
	# every jar of the packages, once (links resolved), largest first
	pkgs="jruby groovy liblucene4.10-java libfop-java libicu4j-java scala jython libbatik-java libbcprov-java
		libtomcat9-java libeclipse-jdt-core-java libapache-poi-java libsaxonhe-java libnetty-java libxalan2-java
		libjetty9-java libpdfbox2-java libguava-java"
	mapfile -t jars < <(for p in $pkgs; do dpkg -L "$p" | grep '\.jar$'; done | xargs -r realpath -e | sort -u |
		xargs ls -S)
	total=$(du -cb "${jars[@]}" | tail -n 1 | cut -f1)
	echo "big set: ${#jars[@]} jars, $(mb "$total") MB"
	# big PCT LABEL OUT [OPTIONS]: the first PCT% of the set by bytes, in path order (a
	# mix of sizes); $swap_from is replaced by $swap_to when set
	swap_from= swap_to=
	big() {
		local pct=$1 label=$2 o=$3
		shift 3
		local want=$((total * pct / 100)) sum=0 args=() in
		for j in $(printf '%s\n' "${jars[@]}" | sort); do
			[ "$sum" -ge "$want" ] && break
			in=$j
			[ "$j" = "$swap_from" ] && in=$swap_to
			args+=(--in "$in" --out "$o/$(echo "$j" | md5sum | cut -c1-12).jar")
			sum=$((sum + $(stat -c %s "$j")))
		done
		echo "$sum" >"$results/$label.bytes"
		measure "$label" "$tc" $nrc --quiet --mapping-dir "$o/map" "$@" "${args[@]}"
	}
	for r in $(seq "$runs"); do
		for pct in 10 25 50 100; do
			o=$out/big$r-$pct
			rm -rf "$o" && mkdir -p "$o"
			big "$pct" "big-$pct" "$o"
			rm -rf "$o"
		done
	done
	for pct in 10 25 50 100; do
		b=$(cat "$results/big-$pct.bytes")
		pr "big set, ${pct}% ($(mb "$b") MB of jars)" "big-$pct" \
			"$(awk -v b="$b" -v t="$(median "$results/big-$pct" 1)" 'BEGIN { printf "%.1f", b / 1e6 / t }')"
	done
	# with the cache: cold, warm, then one jar changed (guava's copy with an entry added:
	# new bytes, the same classes, so the other jars keep their ids and results)
	one=$(printf '%s\n' "${jars[@]}" | grep -m1 '/guava')
	changed=$work/changed.jar
	cp "$one" "$changed" && (cd "$work" && echo changed >changed.txt && zip -q "$changed" changed.txt)
	for r in $(seq "$runs"); do
		o=$out/bigc$r
		rm -rf "$o" "$work/bigcache" && mkdir -p "$o"
		big 100 big-cold "$o" --cache="$work/bigcache"
		big 100 big-warm "$o" --cache="$work/bigcache"
		swap_from=$one swap_to=$changed
		big 100 big-one "$o" --cache="$work/bigcache"
		swap_from= swap_to=
		big 100 big-back "$o" --cache="$work/bigcache" # back to the cached state
		measure one-cold "$tc" $nrc --quiet --mapping-dir "$o/one" --in "$changed" --out "$o/one.jar"
		rm -rf "$o"
	done
	pr "big set with --cache: cold" big-cold
	pr "big set with --cache: warm (nothing changed)" big-warm
	pr "big set with --cache: one jar changed" big-one
	pr "that jar alone, cold" one-cold
	awk -v c="$(median "$results/big-cold" 1)" -v w="$(median "$results/big-warm" 1)" \
		-v one="$(median "$results/big-one" 1)" -v j="$(median "$results/one-cold" 1)" 'BEGIN {
		printf "big set: warm is %.1f%% of cold (target 5%%)\n", 100 * w / c
		printf "big set, one jar changed: that jar cold + %.1f%% of the rest cold (target 10%%)\n", 100 * (one - j) / (c - j)
	}'
fi
[ "$mode" = peers ] || exit 0

# The six-jar set: guava and five more jars of other shapes (commons-lang3, jackson's
# databind and core, ecj, groovy), each --in with its --out, for both tools.
six=("$guava" "$J/commons-lang3.jar" "$J/jackson-databind.jar" "$J/jackson-core.jar" "$J/ecj.jar" "$J/groovy.jar")
six_pairs() { # DIR: --in JAR --out DIR/N.jar for each jar of the set
	local k=0
	for j in "${six[@]}"; do
		printf '%s\n' --in "$j" --out "$1/$k.jar"
		k=$((k + 1))
	done
}
warm_rounds=${WARM_ROUNDS:-10}
mp="$work/peers/peers.jar:$asm"

for r in $(seq "$runs"); do
	o=$out/run$r
	rm -rf "$o" && mkdir -p "$o/six-tc" "$o/six-m" "$o/six-mw"
	log_load
	measure guava-tc "$tc" $nrc --quiet --mapping-dir "$o/tc" --in "$guava" --out "$o/tc.jar"
	measure guava-matrix java -cp "$mp" MatrixTransform \
		--mapping-dir "$o/matrix" --in "$guava" --out "$o/matrix.jar"
	# the same transform warm, as it runs in a Gradle daemon: WARM_ROUNDS in one JVM
	measure_warm guava-matrix-warm java -cp "$mp" MatrixTransform --warm "$warm_rounds" --quiet \
		--mapping-dir "$o/matrix-warm" --in "$guava" --out "$o/matrix-warm.jar"
	mapfile -t a < <(six_pairs "$o/six-tc")
	measure six-tc "$tc" $nrc --quiet --mapping-dir "$o/six-tc/map" "${a[@]}"
	mapfile -t a < <(six_pairs "$o/six-m")
	measure six-matrix java -cp "$mp" MatrixTransform --quiet --mapping-dir "$o/six-m/map" "${a[@]}"
	mapfile -t a < <(six_pairs "$o/six-mw")
	measure_warm six-matrix-warm java -cp "$mp" MatrixTransform --warm "$warm_rounds" --quiet \
		--mapping-dir "$o/six-mw/map" "${a[@]}"
	measure guava-jacoco java -cp "$work/peers/jacoco-peer.jar:$J/org.jacoco.core.jar:$asm" \
		JacocoInstrument "$guava" "$o/jacoco.jar"
	# A fresh output directory each time, as a clean build has.
	measure jdk-tc "$tc" $nrc --quiet --mapping-dir "$o/jdk-map" --in "$work/jdk" --out "$o/jdk"
	measure jdk-cp cp -r "$work/jdk" "$o/jdk-cp"
	rm -rf "$o"
done

row() {
	printf '%-44s %8.3f %8.0f\n' "$1" "$(median "$results/$2" 1)" "$(median "$results/$2" 2 | awk '{print $1/1024}')"
}
echo "$(nproc) cores; $runs runs each, medians; outputs under $out"
printf '%-44s %8s %8s\n' "" "wall s" "RSS MB"
row "guava.jar: tc-instrument" guava-tc
row "guava.jar: Matrix-equivalent (ASM), cold JVM" guava-matrix
row "guava.jar: Matrix-equivalent, warm (in one JVM)" guava-matrix-warm
row "guava.jar: JaCoCo offline" guava-jacoco
row "JDK modules, dir -> dir: tc-instrument" jdk-tc
row "JDK modules: cp -r (file-system floor)" jdk-cp
row "six jars: tc-instrument" six-tc
row "six jars: Matrix-equivalent, cold JVM" six-matrix
row "six jars: Matrix-equivalent, warm (in one JVM)" six-matrix-warm
load_range
t=$(median "$results/guava-tc" 1)
awk -v t="$t" -v j="$(median "$results/guava-jacoco" 1)" \
	'BEGIN {printf "guava: %.1fx faster than JaCoCo (target 5)\n", j / t}'
awk -v t="$t" -v w="$(median "$results/guava-matrix-warm" 1)" -v c="$(median "$results/guava-matrix" 1)" \
	-v st="$(median "$results/six-tc" 1)" -v sw="$(median "$results/six-matrix-warm" 1)" \
	-v sc="$(median "$results/six-matrix" 1)" 'BEGIN {
	printf "guava: %.1fx faster than the warm Matrix-equivalent (target 8), %.1fx than the cold one (target 25)\n", w / t, c / t
	printf "six jars: %.1fx faster than the warm Matrix-equivalent (target 8), %.1fx than the cold one\n", sw / st, sc / st
}'
