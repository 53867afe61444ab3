# Sourced by run.sh, hot.sh, shape.sh and inlining.sh: the JDK's modules, the benchmark's
# classes, the source set javac compiles, and one JVM's compilations.
#   javac_setup BUILD WORK     builds what is needed, sets rt, mods, untraced, cp, sources
#   javac_instrument OUT [tc-instrument options...]   jdk.compiler instrumented into OUT
#   javac_run WHO PATCH ROUNDS [java options...]      prints "WHO median_ms MS events N cpu_ms MS"
#       (WHO none|peer|ours: see JavacBench.java; PATCH: the instrumented jdk.compiler or "")
# Two things the scripts keep, measured (shape.sh, 2026-12-04):
# - the untraced PATCH is $untraced, jdk.compiler's classes as extracted, patched in
#   (--patch-module) as the instrumented ones are: the JDK's own module (PATCH "")
#   compiles 9% faster (67.4 against 73.9 ms), which once made traced builds look cheap;
# - the warm half of 10 compilations is not warm: 180 ms a compilation against 70 ms from
#   the 16th on. Give ROUNDS 40 (the medians are of the last half).
javac_setup() {
	local build
	build=$(cd "$1" && pwd)
	work=$2
	mkdir -p "$work"
	ninja -C "$build" src/tc-instrument trace/tc-trace runtime/tracecanary-runtime.jar \
		runtime/libtracecanary.so >/dev/null
	tc_instrument=$build/src/tc-instrument
	tc_trace=$build/trace/tc-trace
	rt=$build/runtime
	mods=$work/jdk
	[ -d "$mods/jdk.compiler" ] || bash "$root/tests/extract_jdk.sh" "$mods" "$mods.stamp" >/dev/null
	untraced=$mods/jdk.compiler
	rm -rf "$work/classes" && mkdir -p "$work/classes"
	javac -nowarn -cp "$rt/tracecanary-runtime.jar" -d "$work/classes" "$root/bench/runtime/javac/JavacBench.java" \
		"$root/bench/runtime/java/MatrixBeat.java" "$root/bench/runtime/java/EmptyBeat.java"
	# The source set: the benchmark peers, against Debian's ASM.
	cp=$(printf '/usr/share/java/%s.jar:' asm asm-tree asm-commons asm-util asm-analysis)
	mapfile -t sources < <(find "$root/bench/peers" -name '*.java' ! -name 'Jacoco*' | sort)
}

javac_instrument() {
	local out=$1
	shift
	rm -rf "$out"
	# the beat classes the runs put on the JVM's class path (the runtime, MatrixBeat)
	"$tc_instrument" --mapping-dir "$out/map" --classpath "$rt/tracecanary-runtime.jar" --classpath "$work/classes" \
		"$@" --in "$mods/jdk.compiler" --out "$out/jdk.compiler"
}

javac_run() {
	local who=$1 patch=$2 rounds=$3
	shift 3
	local p=()
	[ -n "$patch" ] && p=(--patch-module "jdk.compiler=$patch" --add-reads jdk.compiler=ALL-UNNAMED)
	java "${p[@]}" "$@" -Dtc.lib="$rt/libtracecanary.so" -cp "$work/classes:$rt/tracecanary-runtime.jar" \
		JavacBench "$who" "$rounds" -nowarn -cp "$cp" -d "$work/out-$who" "${sources[@]}" 2>/dev/null
}

# The median of the numbers in a file, one a line.
med() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
