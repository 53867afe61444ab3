#!/usr/bin/env bash
# The dex oracles: judge instrumented dex files against their originals with tools nobody
# here wrote (no ART runs here; these stand in for ART's verifier, dex.md section 5).
#
# usage: oracles.sh ORIG_DIR OUT_DIR WORK_DIR [options]
#   ORIG_DIR   the original dex files of one app (classes.dex, classes2.dex, ...): all of
#              them are on the class path of the types and behaviour oracles
#   OUT_DIR    instrumented dex files; each *.dex with a same-named file in ORIG_DIR is judged
#   WORK_DIR   scratch and cache (WORK_DIR/cache keeps what is derived from the originals,
#              keyed by their SHA-256; the rest is rewritten on every run)
# (the options come after the three arguments)
# options:
#   --probe-class DESC   the probe class (default Lcom/tencent/matrix/trace/core/AppMethodBeat;)
#   --expect-probes      fail unless the outputs hold probes (semantics) and the behaviour
#                        drivers call them (i > 0); off: identity outputs pass
#   --resources FILE     a zip/jar of Java resources put on the class path (the APK, for
#                        ICU4J's data); repeatable
#   --behave DIR         run the behaviour drivers DIR/*.java (e.g. tests/dex/oracles/behave)
#   --only LIST          comma-separated subset of structure,disasm,semantics,types,behave
#   --sample M           types and behaviour: translate only 1/M of the classes (by a hash of
#                        the name) of output dex files larger than --sample-min bytes
#                        (default 4000000); the other classes come from the original
#   --jobs N             worker processes for enjarify and the smali differ (default 2)
#   --register-info SPEC baksmali's analysis for the disasm oracle (default ALL,FULLMERGE)
#   --max-diffs N        diffs printed per dex (default 5)
#   --serial             run the per-dex oracles in one stream (default: structure, disasm
#                        and semantics in one, the enjarify translations in another)
#   --cache DIR          what is derived from the originals (default WORK_DIR/cache): runs
#                        on the same originals share it (each entry made once, under a lock)
#   --orig-smali DEX     judge nothing: print the directory of the baksmali text (--di false
#                        --pr false) of ORIG_DIR/DEX in the cache, made if it is not there
#
# The oracles, per output dex file:
#   structure  dexdump -c OUT.dex: exit 0, "Checksum verified", nothing on stderr (ART's
#              DexFileVerifier: "Failure to verify dex file ...: reason")
#   disasm     baksmali d --register-info SPEC -b "" OUT.dex: no AnalysisException
#              (misplaced move-result/move-exception, bad branch targets) and no class
#              skipped whole, but in methods and classes where the original has them too
#   semantics  smali_diff.py on `baksmali d --di false --pr false` of both: every original
#              method identical once the probes are removed (rules R1-R10, checks V1-V4 in
#              smali_diff.py)
#   types      enjar.py (enjarify) of both, then LoadAll (Class.forName, -Xverify:all) over
#              the classes of the judged dex files, the whole app on the class path, before
#              and after: every class that verified before verifies after; an enjarify
#              crash on an output class that translated before fails
#   behave     (with --behave) each driver compiled against the original's translation,
#              run on the original's and on the output's translation with a counting probe
#              class: identical stdout, exit 0, i/o balanced on every thread
# What runs on the originals alone is cached (--cache): their baksmali text and analysis,
# their translations, the LoadAll run before, the drivers' compilation and runs on them.
# Output: one line per dex and oracle, a final table, the time (wall, CPU) per oracle;
# WORK_DIR/results.tsv
# (dex, oracle, PASS|FAIL|SKIP, summary). Exit 0 when everything passed, 1 when an oracle
# failed, 2 on bad usage, 77 when a tool is missing (tests/lib/need.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)

usage() { sed -n '2,53p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
orig_dir=$(cd "$1" && pwd) || usage
out_dir=$(cd "$2" && pwd) || usage
work=$3
shift 3
probe='Lcom/tencent/matrix/trace/core/AppMethodBeat;'
expect=0 behave='' only=structure,disasm,semantics,types sample=1 sample_min=4000000 jobs=2
reginfo=ALL,FULLMERGE max_diffs=5 serial=0 cache= print_smali=
start=$(date +%s)
resources=()
while [ $# -gt 0 ]; do
	case "$1" in
	--probe-class) probe=$2; shift ;;
	--expect-probes) expect=1 ;;
	--resources) resources+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift ;;
	--behave) behave=$(cd "$2" && pwd) || usage; only="$only,behave"; shift ;;
	--only) only=$2; shift ;;
	--sample) sample=$2; shift ;;
	--sample-min) sample_min=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--register-info) reginfo=$2; shift ;;
	--max-diffs) max_diffs=$2; shift ;;
	--serial) serial=1 ;;
	--cache) cache=$2; shift ;;
	--orig-smali) print_smali=$2; shift ;;
	*) echo "oracles.sh: unknown option $1" >&2; usage ;;
	esac
	shift
done
[[ "$probe" =~ ^L[^\;]+\;$ ]] || { echo "oracles.sh: --probe-class wants a descriptor: $probe" >&2; exit 2; }
on() { [[ ",$only," == *",$1,"* ]]; }

. "$src/tests/lib/need.sh"
need_cmd dexdump dexdump
need_cmd baksmali apktool
need_cmd enjarify enjarify
need_file /usr/bin/python3 python3
need_cmd java default-jdk-headless
need_cmd javac default-jdk-headless
PY=/usr/bin/python3
export PYTHON=$PY

mkdir -p "$work"
work=$(cd "$work" && pwd)
cache=${cache:-$work/cache}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
run=$work/run
rm -rf "$run"
mkdir -p "$cache" "$run"
results=$work/results.tsv
: >"$results"
: >"$run/secs.tsv"

mapfile -t dexes < <(cd "$out_dir" && for f in *.dex; do [ -f "$orig_dir/$f" ] && echo "$f"; done | sort -V)
if [ ${#dexes[@]} -eq 0 ]; then
	echo "oracles.sh: no dex file of $out_dir has a same-named original in $orig_dir" >&2
	exit 2
fi

# A dex file of OUT_DIR without a same-named original (a classes17.dex made when method
# ids overflow): structure and disasm as any other; semantics: its classes must all be
# original classes moved there; types: on the class path of the instrumented run only.
extra_dexes() { (cd "$out_dir" && for f in *.dex; do [ -f "$f" ] && [ ! -f "$orig_dir/$f" ] && echo "$f"; done); }
record() { # DEX ORACLE STATUS SUMMARY
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$results"
	printf '%-16s %-10s %-4s %s\n' "$1" "$2" "$3" "$4"
	return 0
}
# CPU seconds of the waited-for children of shell PID (cutime + cstime, /proc/PID/stat)
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
add_secs() { # ORACLE WALL_T0 [CPU_T0 SHELL_PID]: wall (and CPU) time since then to ORACLE
	awk -v o="$1" -v t0="$2" -v t1="$(date +%s.%N)" -v c0="${3:-0}" -v c1="${4:+$(cpu_of "${4:-}")}" \
		'BEGIN { printf "%s\t%.3f\t%.2f\n", o, t1 - t0, (c1 == "" ? 0 : c1 - c0) }' >>"$run/secs.tsv"
}
timed() { # ORACLE CMD...: run CMD, adding its wall and CPU time to secs[ORACLE]
	local o=$1 t0 c0 me=$BASHPID rc
	shift
	t0=$(date +%s.%N)
	c0=$(cpu_of "$me")
	"$@"
	rc=$?
	add_secs "$o" "$t0" "$c0" "$me"
	return $rc
}
key() { sha256sum "$1" | cut -c1-16; }
locked() { # LOCKFILE CMD...: CMD under an exclusive lock (runs sharing --cache make each entry once)
	local fd rc
	exec {fd}>"$1"
	flock "$fd"
	shift
	"$@"
	rc=$?
	exec {fd}>&-
	return $rc
}

# --- derived data of the originals, cached by content -------------------------------
analyse() { # DEX PREFIX: PREFIX.log, PREFIX.methods (sorted methods with an AnalysisException,
	# and "class L...;" for each class skipped whole); PREFIX.smali when no class was
	# skipped: the text as the semantics oracle reads it (--di false --pr false; the
	# register info is in comment lines, which smali_diff.py skips), so that no second
	# baksmali pass is needed
	local rc
	rm -rf "$2.tmp" "$2.smali"
	baksmali d --register-info "$reginfo" -b "" --di false --pr false -j "$jobs" -o "$2.tmp" "$1" >"$2.log" 2>&1
	rc=$?
	# baksmali prints the failing method after the stack trace and goes on (exit 0). A
	# class it cannot analyse at all is skipped (exit non-zero): with -b "" no framework
	# class resolves, and a merge that needs one (netty's ForkJoinTask, a Thread subclass
	# joined with another type, in the dx-era selendroid.apk) throws UnresolvedClassException.
	{
		sed -n 's/^method: //p' "$2.log"
		sed -n 's/^Error occurred while disassembling class \(L.*;\) - skipping class$/class \1/p' "$2.log"
	} | sort -u >"$2.methods"
	if [ $rc -eq 0 ] && ! grep -q '^class ' "$2.methods"; then mv "$2.tmp" "$2.smali"; else rm -rf "$2.tmp"; fi
	{ [ $rc -eq 0 ] || grep -q '^class ' "$2.methods"; } &&
		awk '/^Error occurred while disassembling class .* - skipping class$/ { skipped = 1; next }
			skipped && /Exception|Error/ { skipped = 0; next }   # the reason it was skipped
			/^method: |^[ \t]*at |AnalysisException|^[ \t]*\.\.\./ { next }
			/Exception|Error/ { bad = 1 } END { exit bad }' "$2.log"
}
orig_analysis() { # DEX -> prints the file listing the original's methods baksmali cannot analyse
	local d=$cache/$(key "$orig_dir/$1")
	local f=$d/analysis-${reginfo//,/_}
	mkdir -p "$d"
	locked "$f.lock" make_orig_analysis "$1" "$f"
	echo "$f.methods"
}
make_orig_analysis() { # DEX PREFIX; the text, when whole, is the original's for semantics too
	[ ! -f "$2.done" ] || return 0
	analyse "$orig_dir/$1" "$2" && touch "$2.done"
	[ -d "$2.smali" ] && locked "$(dirname "$2")/smali.lock" take_orig_smali "$2.smali" "$(dirname "$2")"
	rm -rf "$2.smali"
}
take_orig_smali() { # TEXT_DIR CACHE_ENTRY
	[ ! -f "$2/smali.done" ] || return 0
	rm -rf "$2/smali"
	mv "$1" "$2/smali" && echo "from the disasm oracle's pass" >"$2/smali.log" && touch "$2/smali.done"
}
orig_smali() { # DEX -> prints the directory of its baksmali text
	local d=$cache/$(key "$orig_dir/$1")
	mkdir -p "$d"
	locked "$d/smali.lock" make_orig_smali "$1" "$d"
	echo "$d/smali"
}
make_orig_smali() {
	[ ! -f "$2/smali.done" ] || return 0
	rm -rf "$2/smali"
	baksmali d --di false --pr false -j "$jobs" -o "$2/smali" "$orig_dir/$1" >"$2/smali.log" 2>&1 &&
		touch "$2/smali.done"
}
if [ -n "$print_smali" ]; then
	[ -f "$orig_dir/$print_smali" ] || { echo "oracles.sh: no $orig_dir/$print_smali" >&2; exit 2; }
	d=$(orig_smali "$print_smali")
	[ -f "$d/../smali.done" ] || { echo "oracles.sh: baksmali failed on $print_smali: $(tail -n 3 "$d/../smali.log")" >&2; exit 1; }
	echo "$d"
	exit 0
fi
translate() { # DEX_PATH DIR SAMPLE: DIR/{raw.jar,run.jar,cc.jar,errors.tsv,log}
	mkdir -p "$2"
	"$PY" -O "$here/enjar.py" --jobs "$jobs" --sample "$3" "$1" "$2/raw.jar" "$2/errors.tsv" >"$2/log" 2>&1 &&
		python3 "$here/runjar.py" "$2/raw.jar" "$2/run.jar" >>"$2/log" &&
		python3 "$here/runjar.py" --all "$2/raw.jar" "$2/cc.jar" >>"$2/log"
}
orig_jar() { # DEX -> prints the directory of its translation (always complete)
	local d=$cache/$(key "$orig_dir/$1")
	mkdir -p "$d"
	locked "$d/enj.lock" make_orig_jar "$1" "$d/enj"
	echo "$d/enj"
}
make_orig_jar() {
	[ ! -f "$2/done" ] || return 0
	rm -rf "$2"
	translate "$orig_dir/$1" "$2" 1 && touch "$2/done"
}
sample_of() { # DEX -> the sample divisor for its output
	local size
	size=$(stat -c %s "$out_dir/$1")
	if [ "$sample" -gt 1 ] && [ "$size" -ge "$sample_min" ]; then echo "$sample"; else echo 1; fi
}

# --- stubs: the plain and the counting probe class, renamed to --probe-class ---------
stubs() {
	local cls=${probe#L}
	cls=${cls%;}
	local pkg=${cls%/*} simple=${cls##*/}
	[ "$pkg" = "$cls" ] && pkg=''
	for kind in plain counting; do
		local d=$run/stub-$kind
		mkdir -p "$d/src/${pkg:-.}" "$d/classes"
		sed -e "s|^package com.tencent.matrix.trace.core;|${pkg:+package ${pkg//\//.};}|" \
			-e "s/AppMethodBeat/$simple/g" "$here/java/$kind/AppMethodBeat.java" >"$d/src/${pkg:-.}/$simple.java"
		javac -nowarn -d "$d/classes" "$here/java/android/app/Activity.java" "$d/src/${pkg:-.}/$simple.java" || return 1
	done
	mkdir -p "$run/tools"
	javac -nowarn -d "$run/tools" "$here/java/LoadAll.java"
}
if on types || on behave; then
	stubs || { echo "oracles.sh: cannot compile the stubs" >&2; exit 1; }
fi
# What a cached JVM run on the originals reads besides its class path and the probe
# class's name: the stub KIND (plain, counting), LoadAll, and the resources (by content).
stub_key() {
	cat "$here/java/$1/AppMethodBeat.java" "$here/java/android/app/Activity.java" "$here/java/LoadAll.java" \
		"${resources[@]}" | sha256sum | cut -c1-16
}

# --- per dex: structure, disasm, semantics (one stream); translations (another) -------
# The two streams run side by side, each with half of --jobs (--serial: one after the
# other): they share no file but results.tsv, where each appends whole lines.
static_oracles() {
# Output dex files without an original: disassembled first, so that the classes moved
# there are compared with their originals (smali_diff.py --moved-to).
moved_args=()
if on semantics; then
	for dex in "${extras[@]}"; do
		mkdir -p "$run/$dex"
		timed semantics baksmali d --di false --pr false -j "$jobs" -o "$run/$dex/smali" "$out_dir/$dex" \
			>"$run/$dex/smali.log" 2>&1 && moved_args+=(--moved-to "$run/$dex/smali")
	done
fi
for dex in "${dexes[@]}" "${extras[@]}"; do
	out=$out_dir/$dex
	w=$run/$dex
	mkdir -p "$w"
	is_extra=0
	[ -f "$orig_dir/$dex" ] || is_extra=1
	if on structure; then
		timed structure dexdump -c "$out" >"$w/dexdump.log" 2>"$w/dexdump.err"
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$w/dexdump.err" ] && grep -q 'Checksum verified' "$w/dexdump.log"; then
			record "$dex" structure PASS "dexdump -c: checksum verified, nothing on stderr"
		else
			record "$dex" structure FAIL "dexdump -c exit $rc: $(grep -m1 -o 'Failure to verify.*' "$w/dexdump.err" || head -n1 "$w/dexdump.err")"
		fi
	fi
	if on disasm; then
		if [ $is_extra = 1 ]; then
			base=$w/no-baseline
			: >"$base"
		else
			t0=$(date +%s.%N) me=$BASHPID
			c0=$(cpu_of "$me")
			base=$(orig_analysis "$dex")
			add_secs cache "$t0" "$c0" "$me"
		fi
		timed disasm analyse "$out" "$w/analysis"
		rc=$?
		new_bad=$(comm -13 "$base" "$w/analysis.methods")
		n=$(grep -c . "$w/analysis.methods")
		if [ $rc -eq 0 ] && [ -z "$new_bad" ]; then
			record "$dex" disasm PASS "baksmali --register-info $reginfo: analysed ($n methods or classes fail in the original too)"
		else
			record "$dex" disasm FAIL "baksmali exit $rc; AnalysisException in $(echo "$new_bad" | grep -c .) methods or classes that the original analyses: $(echo "$new_bad" | head -n 3 | tr '\n' ' ')$(grep -m1 -h 'Exception' "$w/analysis.log" | cut -c1-200)"
		fi
	fi
	if on semantics && [ $is_extra = 0 ]; then
		t0=$(date +%s.%N) me=$BASHPID
		c0=$(cpu_of "$me")
		osm=$(orig_smali "$dex")
		add_secs cache "$t0" "$c0" "$me"
		if [ -d "$w/analysis.smali" ]; then   # the disasm oracle's pass
			mv "$w/analysis.smali" "$w/smali"
			rc=$?
		else
			timed semantics baksmali d --di false --pr false -j "$jobs" -o "$w/smali" "$out" >"$w/smali.log" 2>&1
			rc=$?
		fi
		if [ ! -d "$osm" ] || [ $rc -ne 0 ]; then
			record "$dex" semantics FAIL "baksmali failed on the original or the output (see $w/smali.log)"
		else
			timed semantics python3 "$here/smali_diff.py" --probe-class "$probe" --jobs "$jobs" \
				--max-diffs "$max_diffs" --json "$w/semantics.json" "${moved_args[@]}" "$osm" "$w/smali" \
				>"$w/semantics.log" 2>&1
			rc=$?
			head -n1 "$w/semantics.log" | grep -q '^methods' || rc=2
			summary=$(head -n1 "$w/semantics.log")
			if [ $rc -eq 0 ]; then
				record "$dex" semantics PASS "$summary"
			else
				record "$dex" semantics FAIL "$summary"
				tail -n +2 "$w/semantics.log" | head -n 60 | sed 's/^/    /'
			fi
			rm -rf "$w/smali"
		fi
	fi
	rm -rf "$w/analysis.smali"
done
# Every class of a new dex file must be an original class moved there (compared above).
if on semantics; then
	for dex in "${extras[@]}"; do
		left=$(python3 - "$run" "$run/$dex/smali" "$here" <<'PY'
import glob, json, sys
sys.path.insert(0, sys.argv[3])
import smali_diff
moved = set()
for f in glob.glob(sys.argv[1] + '/*/semantics.json'):
    moved.update(json.load(open(f)).get('moved', []))
have = smali_diff.read_tree(sys.argv[2])
left = sorted(set(have) - moved)
print('%d %d %s' % (len(have), len(left), ' '.join(left[:5])))
PY
)
		read -r n nleft rest <<<"$left"
		if [ "${nleft:-1}" = 0 ]; then
			record "$dex" semantics PASS "$n classes, all moved from an original dex file and compared there"
		else
			record "$dex" semantics FAIL "$nleft of ${n:-?} classes have no original: $rest"
		fi
		rm -rf "$run/$dex/smali"
	done
fi
}
translations() {
if on types || on behave; then
	for dex in "${extras[@]}"; do
		timed types translate "$out_dir/$dex" "$run/$dex/enj" 1 ||
			{ on types && record "$dex" types FAIL "enjarify cannot read the output: $(grep -m1 -E 'Error|Exception' "$run/$dex/enj/log")"; }
	done
fi
for dex in "${dexes[@]}"; do
	out=$out_dir/$dex
	w=$run/$dex
	mkdir -p "$w"
	if on types || on behave; then
		t0=$(date +%s.%N) me=$BASHPID
		c0=$(cpu_of "$me")
		orig_jar "$dex" >/dev/null
		add_secs cache "$t0" "$c0" "$me"
		if ! timed types translate "$out" "$w/enj" "$(sample_of "$dex")"; then
			on types && record "$dex" types FAIL "enjarify cannot read the output: $(grep -m1 -E 'Error|Exception' "$w/enj/log")"
			rm -rf "$w/enj"   # the class paths take the original in its place
		fi
	fi
done
}
for dex in "${dexes[@]}"; do mkdir -p "$run/$dex"; done
mapfile -t extras < <(extra_dexes | sort -V)
if [ "$serial" = 1 ]; then
	static_oracles
	translations
else
	full_jobs=$jobs
	jobs=$(( jobs > 1 ? jobs / 2 : 1 ))
	static_oracles &
	static_pid=$!
	translations
	wait $static_pid
	jobs=$full_jobs
fi

# --- class paths: every original dex, outputs in place of their originals ------------
mapfile -t all_orig < <(cd "$orig_dir" && ls *.dex | sort -V)
res_cp=$(IFS=:; echo "${resources[*]:-}")
before_cp=() after_cp=() after_fallback=() map=()
# (their translations, made once for the cache, only for the oracles that run them)
if on types || on behave; then
	for dex in "${all_orig[@]}"; do
		od=$(orig_jar "$dex")
		before_cp+=("$od/@JAR@")
		if [ -f "$run/$dex/enj/raw.jar" ]; then
			after_cp+=("$run/$dex/enj/@JAR@")
			[ "$(sample_of "$dex")" -gt 1 ] && after_fallback+=("$od/@JAR@")
			map+=("$dex	$od/raw.jar	$run/$dex/enj/raw.jar	$od/errors.tsv	$run/$dex/enj/errors.tsv	$(sample_of "$dex")")
		else
			after_fallback+=("$od/@JAR@")
		fi
	done
	for dex in "${extras[@]}"; do   # moved classes: found there by the instrumented runs
		[ -f "$run/$dex/enj/raw.jar" ] && after_cp+=("$run/$dex/enj/@JAR@")
	done
fi
join() { local IFS=:; echo "$*"; }
# JAR: raw.jar (enjarify's output) for the types oracle; run.jar (interfaces with default
# methods marked 52.0, see runjar.py) for the behaviour oracle.
cp_of() { local j=$1; shift; local IFS=:; echo "$*" | sed "s|/@JAR@|/$j|g"; }

# --- types ------------------------------------------------------------------------------
if on types; then
	printf '%s\n' "${map[@]}" >"$run/types-map.tsv"
	loadall() { # REPORT CP JARS...
		local report=$1 cp=$2
		shift 2
		timeout 900 java -Xverify:all -Xss8m -cp "$run/stub-plain/classes:$run/tools${res_cp:+:$res_cp}:$cp" \
			LoadAll "$report" "$@" >"$report.log" 2>&1 </dev/null
	}
	# Both runs walk the same classes in the same order (dex order, names sorted), so that
	# static initializers run in the same order: before, the original of every output
	# (sampled like it); after, the output. An original without a translated output is
	# the same in both runs: on both class paths, walked by neither.
	before_jars=() after_jars=()
	for dex in "${all_orig[@]}"; do
		od=$(orig_jar "$dex")
		if [ -f "$run/$dex/enj/raw.jar" ]; then
			m=$(sample_of "$dex")
			before_jars+=("$od/raw.jar@$m")
			after_jars+=("$run/$dex/enj/raw.jar")
		fi
	done
	for dex in "${extras[@]}"; do
		[ -f "$run/$dex/enj/raw.jar" ] && after_jars+=("$run/$dex/enj/raw.jar")
	done
	# The run before depends on the originals alone (and on which of them are sampled):
	# it is cached with them, keyed by what it reads, and made beside the run after (two
	# JVMs) when no run on these originals made it yet.
	before_cpv=$(cp_of raw.jar "${before_cp[@]}")
	bdir=$cache/loadall-before-$(printf '%s\n' "$probe" "$(command -v java)" "$(stub_key plain)" \
		"$before_cpv" "${before_jars[@]}" | sha256sum | cut -c1-16)
	mkdir -p "$bdir"
	make_before() {
		[ ! -f "$bdir/done" ] || return 0
		loadall "$bdir/report.tsv" "$before_cpv" "${before_jars[@]}"
		[ "$(tail -n 1 "$bdir/report.tsv" 2>/dev/null)" = '# done' ] && touch "$bdir/done"
		return 0
	}
	timed types locked "$bdir/lock" make_before &
	before_pid=$!
	timed types loadall "$run/types-after.tsv" "$(cp_of raw.jar "${after_cp[@]}" "${after_fallback[@]}")" "${after_jars[@]}"
	wait $before_pid
	cp "$bdir/report.tsv" "$run/types-before.tsv" && cp "$bdir/report.tsv.log" "$run/types-before.tsv.log"
	python3 "$here/load_diff.py" "$run/types-before.tsv" "$run/types-after.tsv" "$run/types-map.tsv" >"$run/types.log"
	while IFS= read -r line; do
		case "$line" in
		"    "*) echo "$line" ;;
		*" PASS "* | *" FAIL "*)
			d=${line%% *}
			rest=${line#* }
			record "$d" types "${rest%% *}" "${rest#* }"
			;;
		*) echo "$line"; record all types FAIL "$line" ;;
		esac
	done <"$run/types.log"
fi

# --- behaviour ------------------------------------------------------------------------
if on behave; then
	b=$run/behave
	mkdir -p "$b"
	cc=()
	for dex in "${all_orig[@]}"; do cc+=("$(orig_jar "$dex")/cc.jar"); done
	# Verification off: run.jar's 52.0 interfaces have no StackMapTable, which an
	# instrumented default method (branches, handler) would need. The types oracle
	# verifies; this one runs.
	drive() { # DIR DRV SIDE CLASSES CP: DIR/DRV.SIDE.{out,err,rc,beat}
		timeout 300 java -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote -Dtc.beat.report="$1/$2.$3.beat" \
			-cp "$run/stub-counting/classes:$4${res_cp:+:$res_cp}:$5" "$2" >"$1/$2.$3.out" 2>"$1/$2.$3.err" </dev/null
		echo $? >"$1/$2.$3.rc"
	}
	# The drivers compiled against the originals' translation, and their runs on it, depend
	# on the originals and the drivers alone: cached with the originals, keyed by what
	# they read; each run then runs the drivers on its outputs only.
	orig_cp=$(cp_of run.jar "${before_cp[@]}")
	bb=$cache/behave-$({ printf '%s\n' "$probe" "$(command -v java)" "$(stub_key counting)" "$orig_cp" "${cc[@]}"
		ls "$behave"/*.java; cat "$behave"/*.java; } | sha256sum | cut -c1-16)
	mkdir -p "$bb"
	make_behave_orig() {
		[ ! -f "$bb/done" ] || return 0
		rm -rf "$bb/classes"
		mkdir -p "$bb/classes"
		javac -nowarn -encoding UTF-8 -d "$bb/classes" -cp "$(join "${cc[@]}")" "$behave"/*.java >"$bb/javac.log" 2>&1 ||
			return 0
		for drv in "$behave"/*.java; do drive "$bb" "$(basename "$drv" .java)" orig "$bb/classes" "$orig_cp"; done
		touch "$bb/done"
	}
	timed behave locked "$bb/lock" make_behave_orig
	if [ ! -f "$bb/done" ]; then
		cp "$bb/javac.log" "$b/javac.log"
		record behave compile FAIL "javac: $(grep -m1 error "$b/javac.log")"
	else
		itot=0
		for drv in "$behave"/*.java; do
			drv=$(basename "$drv" .java)
			for f in "$bb/$drv".orig.*; do cp "$f" "$b/"; done
			timed behave drive "$b" "$drv" out "$bb/classes" "$(cp_of run.jar "${after_cp[@]}" "${after_fallback[@]}")"
			rc_o=$(cat "$b/$drv.orig.rc") rc_n=$(cat "$b/$drv.out.rc")
			# No report: the probe class was never loaded, so no probe ran.
			[ -f "$b/$drv.out.beat" ] || printf 'i 0\no 0\nids 0\nmismatches 0\nopen 0\nopen_main 0\nunbalanced_ids 0\n' >"$b/$drv.out.beat"
			beat() { sed -n "s/^$1 //p" "$b/$drv.out.beat"; }
			i=$(beat i) o=$(beat o) mis=$(beat mismatches) openm=$(beat open_main) unb=$(beat unbalanced_ids)
			stats="i=${i:-?} o=${o:-?} ids=$(beat ids) mismatches=${mis:-?} open=$(beat open) open_main=${openm:-?}"
			itot=$((itot + ${i:-0}))
			if [ "$rc_o" != 0 ]; then
				record "$drv" behave FAIL "the driver fails on the original (exit $rc_o): $(tail -n1 "$b/$drv.orig.err")"
			elif [ "$rc_n" != 0 ]; then
				record "$drv" behave FAIL "exit $rc_n on the output ($stats): $( (grep -m1 UNBALANCED "$b/$drv.out.err" || grep -m1 -E 'Exception|Error' "$b/$drv.out.err") | cut -c1-300)"
			elif ! cmp -s "$b/$drv.orig.out" "$b/$drv.out.out"; then
				record "$drv" behave FAIL "stdout differs ($stats)"
				diff "$b/$drv.orig.out" "$b/$drv.out.out" | head -n 10 | sed 's/^/    /'
			elif [ "${mis:-1}" != 0 ] || [ "${openm:-1}" != 0 ] || [ "${unb:-1}" != 0 ]; then
				record "$drv" behave FAIL "unbalanced probes ($stats)"
			else
				record "$drv" behave PASS "same stdout ($(wc -l <"$b/$drv.orig.out") lines), $stats"
			fi
		done
		if [ $expect = 1 ] && [ "$itot" -eq 0 ]; then
			record all behave FAIL "--expect-probes: no driver called i()"
		fi
	fi
fi

if on semantics && [ $expect = 1 ]; then
	n=$(python3 -c 'import glob, json, sys
print(sum(sum(json.load(open(f))["probes"].values()) for f in glob.glob(sys.argv[1] + "/*/semantics.json")))' "$run")
	[ "${n:-0}" -gt 0 ] || record all semantics FAIL "--expect-probes: no probe found in any output"
fi

# --- the table ----------------------------------------------------------------------------
echo
python3 - "$results" <<'EOF'
import sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
oracles = ['structure', 'disasm', 'semantics', 'types']
dexes = [r[0] for r in rows if r[1] in oracles and r[0] != 'all']
dexes = sorted(set(dexes), key=dexes.index)
cell = {(r[0], r[1]): r[2] for r in rows}
print('%-16s %s' % ('dex', ' '.join('%-9s' % o for o in oracles)))
for d in dexes:
    print('%-16s %s' % (d, ' '.join('%-9s' % cell.get((d, o), '-') for o in oracles)))
for r in rows:
    if r[1] == 'behave' or r[0] == 'all':
        print('%-16s %-9s %s' % (r[0], r[1], r[2]))
EOF
awk -F'\t' '{ t[$1] += $2; c[$1] += $3 } END { printf "time (s, summed over the streams; CPU s):"
	n = split("cache structure disasm semantics types behave", o, " ")
	for (i = 1; i <= n; i++) if (o[i] in t) printf " %s %.1f (%.1f)", o[i], t[o[i]], c[o[i]]
	print "" }' "$run/secs.tsv"
echo "wall time: $(( $(date +%s) - start )) s"
# counted, not grep -q: under pipefail, cut's SIGPIPE after grep -q's early exit would
# fail the pipe and so turn a FAIL into a PASS
if [ "$(cut -f3 "$results" | grep -c FAIL)" = 0 ]; then echo "oracles: PASS"; exit 0; fi
echo "oracles: FAIL"
exit 1
