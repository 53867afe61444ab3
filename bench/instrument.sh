#!/usr/bin/env bash
# tc-instrument against its peers, same machine, same run, medians of several runs of
# whole processes (wall time and peak RSS):
#   guava.jar -> instrumented jar: tc-instrument, the Matrix-equivalent ASM transform
#     (bench/peers/MatrixTransform) and JaCoCo's offline instrumenter;
#   the JDK's classes, directory -> directory: tc-instrument (and `cp -r` of the same
#     tree, the floor any tool writing those files pays on this file system).
#
# usage: bench/instrument.sh [BUILD_DIR] [RUNS] [OUTPUT_BASE]
# OUTPUT_BASE is where outputs are written (default: a directory under TMPDIR); pass
# /dev/shm to leave the disk out of it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
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

for r in $(seq "$runs"); do
	o=$out/run$r
	rm -rf "$o" && mkdir -p "$o"
	measure guava-tc "$tc" --quiet --mapping-dir "$o/tc" --in "$guava" --out "$o/tc.jar"
	measure guava-matrix java -cp "$work/peers/peers.jar:$asm" MatrixTransform \
		--mapping-dir "$o/matrix" --in "$guava" --out "$o/matrix.jar"
	measure guava-jacoco java -cp "$work/peers/jacoco-peer.jar:$J/org.jacoco.core.jar:$asm" \
		JacocoInstrument "$guava" "$o/jacoco.jar"
	# A fresh output directory each time, as a clean build has.
	measure jdk-tc "$tc" --quiet --mapping-dir "$o/jdk-map" --in "$work/jdk" --out "$o/jdk"
	measure jdk-cp cp -r "$work/jdk" "$o/jdk-cp"
	rm -rf "$o"
done

row() {
	printf '%-44s %8.3f %8.0f\n' "$1" "$(median "$results/$2" 1)" "$(median "$results/$2" 2 | awk '{print $1/1024}')"
}
echo "$(nproc) cores; $runs runs each, medians; outputs under $out"
printf '%-44s %8s %8s\n' "" "wall s" "RSS MB"
row "guava.jar: tc-instrument" guava-tc
row "guava.jar: Matrix-equivalent (ASM)" guava-matrix
row "guava.jar: JaCoCo offline" guava-jacoco
row "JDK modules, dir -> dir: tc-instrument" jdk-tc
row "JDK modules: cp -r (file-system floor)" jdk-cp
t=$(median "$results/guava-tc" 1)
awk -v t="$t" -v m="$(median "$results/guava-matrix" 1)" -v j="$(median "$results/guava-jacoco" 1)" \
	'BEGIN {printf "guava: %.1fx faster than the Matrix-equivalent (target 15), %.1fx faster than JaCoCo (target 5)\n", m / t, j / t}'
