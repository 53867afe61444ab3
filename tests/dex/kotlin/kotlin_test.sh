#!/usr/bin/env bash
# meson test dex-kotlin (issue 34, item 4): Kotlin 2.x bytecode through tc-instrument, on
# HotSpot and as dex. See README.md here.
#
# usage: kotlin_test.sh SOURCE_ROOT WORK_DIR TC_INSTRUMENT TC_DEXVERIFY
#
# 1. kotlinc 2.x (kotlin-compiler-embeddable, run as K2JVMCompiler) compiles src/ twice,
#    -Xjvm-default=all, -jvm-target 1.8: with Kotlin 2's invokedynamic lambdas (the JVM
#    run) and with -Xlambdas=class -Xsam-conversions=class (for dx, which cannot dex
#    invokedynamic; D8 desugars such lambdas into classes too). The shapes the program is
#    about must be in its class files (javap).
# 2. JVM: the program, kotlin-stdlib and kotlinx-coroutines (both compiled by Kotlin 2.x)
#    instrumented; the program run plain and instrumented with -Xverify:all and the
#    counting AppMethodBeat of the dex oracles: same stdout, exit 0, every o closing the
#    innermost i. Then every class of the three, original and instrumented, loaded,
#    verified (-Xverify:all) and initialized by the oracles' LoadAll: none that verified
#    before fails after (load_diff.py).
# 3. dex, dexed by dx: the -Xlambdas=class classes dexed, the dex instrumented by
#    tc-instrument; and the classes instrumented, then dexed (the order of an Android
#    build). Both outputs pass tc-dexverify and the dex oracles (oracles.sh: dexdump,
#    baksmali's analysis, the semantic diff (dex-side instrumentation only: dx allocates
#    the registers of instrumented class files anew), enjarify + LoadAll, and the
#    behaviour driver behave/KotlinProgram.java with kotlin-stdlib and kotlinx-coroutines
#    on the class path).
# The artifacts are pinned in tests/lib/maven.lock and fetched into the download cache
# (tests/lib/maven_fetch.py); one that is missing and cannot be fetched fails the test.
set -uo pipefail
[ $# -eq 4 ] || { sed -n '2,30p' "$0" >&2; exit 2; }
src=$(cd "$1" && pwd) work=$2
# meson passes the tools relative to the build directory; the steps run in WORK_DIR
tci=$(realpath "$3") dexverify=$(realpath "$4")
here=$src/tests/dex/kotlin
oracles=$src/tests/dex/oracles

. "$src/tests/lib/need.sh"
need_cmd java default-jdk-headless
need_cmd javac default-jdk-headless
need_cmd javap default-jdk-headless
need_cmd jar default-jdk-headless
need_cmd dexdump dexdump
need_cmd baksmali apktool
need_cmd enjarify enjarify
need_file /usr/bin/python3 python3

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$work" || exit 1
failed=0 n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
show() { sed -n "1,${2:-30}p" "$1" | sed 's/^/#   /'; }
# check NAME COMMAND: one step; its output goes to a log shown on failure
check() {
	local log=$work/step$((n + 1)).log
	if bash -c "$2" >"$log" 2>&1; then ok "$1"; else notok "$1"; show "$log"; fi
}
finish() { echo "1..$n"; [ $failed -eq 0 ] && echo "dex-kotlin: PASS" || echo "dex-kotlin: $failed failed"; [ $failed -eq 0 ]; exit $?; }

kv=2.2.21 cv=1.10.2
coords=(org.jetbrains.kotlin:kotlin-compiler-embeddable:$kv org.jetbrains.kotlin:kotlin-stdlib:$kv
	org.jetbrains.kotlin:kotlin-script-runtime:$kv org.jetbrains.kotlin:kotlin-reflect:1.6.10
	org.jetbrains.kotlin:kotlin-daemon-embeddable:$kv org.jetbrains:annotations:23.0.0
	org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:$cv
	com.jakewharton.android.repackaged:dalvik-dx:16.0.1)
if ! mapfile -t jars < <(python3 "$src/tests/lib/maven_fetch.py" "${coords[@]}") || [ ${#jars[@]} -ne ${#coords[@]} ]; then
	notok "fetch ${coords[*]} (tests/lib/maven_fetch.py; the message above says why)"
	finish
fi
kotlinc_cp=$(IFS=:; echo "${jars[*]:0:7}")
stdlib=${jars[1]} coro=${jars[6]} dx=${jars[7]}
libs=$stdlib:$coro

# --- support: the counting and the empty AppMethodBeat, LoadAll ----------------------------
mkdir -p beat plain tools
javac -nowarn -d beat "$oracles/java/counting/AppMethodBeat.java" "$oracles/java/android/app/Activity.java" >javac.log 2>&1 &&
	javac -nowarn -d plain "$oracles/java/plain/AppMethodBeat.java" "$oracles/java/android/app/Activity.java" >>javac.log 2>&1 &&
	javac -nowarn -d tools "$oracles/java/LoadAll.java" >>javac.log 2>&1 ||
	{ notok "compile the oracles' AppMethodBeat stubs and LoadAll"; show javac.log; finish; }

# --- 1. kotlinc ------------------------------------------------------------------------------
kotlinc() { # OUT_DIR EXTRA_OPTIONS...
	local out=$1
	shift
	java -cp "$kotlinc_cp" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -no-stdlib -no-reflect \
		-classpath "$libs" -Xjvm-default=all -jvm-target 1.8 -d "$out" "$@" \
		$(find "$here/src" -name '*.kt' | sort)
}
export -f kotlinc
export kotlinc_cp libs here
check "kotlinc $kv compiles src/ (invokedynamic lambdas)" 'kotlinc classes-indy'
check "kotlinc $kv compiles src/ (-Xlambdas=class -Xsam-conversions=class)" 'kotlinc classes-cls -Xlambdas=class -Xsam-conversions=class'
[ -f classes-indy/tc/kt/MainKt.class ] && [ -f classes-cls/tc/kt/MainKt.class ] || finish
# the shapes the program is meant to carry, so that a change of the compiler cannot drop
# them unnoticed
check "the class files carry Kotlin 2's shapes (javap)" '
	set -e
	p() { javap -p -c -cp "$1" "$2"; }
	p classes-indy tc.kt.MainKt | grep -q invokedynamic                                  # indy lambda
	! p classes-cls tc.kt.MainKt | grep -q invokedynamic                                 # class lambdas
	p classes-indy tc.kt.Greeter | grep -q "public default java.lang.String greet()"      # JVM default
	[ ! -e classes-indy/tc/kt/Greeter\$DefaultImpls.class ]
	p classes-indy tc.kt.Loud | grep -q "invokespecial.*InterfaceMethod tc/kt/Greeter.suffix"  # super.f()
	p classes-indy tc.kt.Meters | grep -q "static long constructor-impl(long)"             # value class
	p classes-indy tc.kt.Meters | grep -q "box-impl"
	p classes-indy tc.kt.Meters | grep -q "static final long plus-.*(long, long)"         # mangled name
	p classes-indy "tc.kt.MainKt\$fib\$1" | grep -q "extends kotlin.coroutines.jvm.internal.ContinuationImpl"
	p classes-indy tc.kt.MainKt | grep -q "kotlin/NoWhenBranchMatchedException"          # sealed when
'

# --- 2. on HotSpot ---------------------------------------------------------------------------
mkdir -p jvm
check "tc-instrument the program, kotlin-stdlib and kotlinx-coroutines" \
	'"'"$tci"'" --quiet --mapping-dir jvm/mapping --classpath beat --in classes-indy --out jvm/classes \
		--in "'"$stdlib"'" --out jvm/stdlib.jar --in "'"$coro"'" --out jvm/coroutines.jar'
run_prog() { # NAME CLASSPATH
	timeout 300 java -Xverify:all -Dtc.beat.report="jvm/$1.beat" -cp "$2" tc.kt.MainKt >"jvm/$1.out" 2>"jvm/$1.err"
	echo $? >"jvm/$1.rc"
}
run_prog plain "beat:classes-indy:$libs"
run_prog traced "beat:jvm/classes:jvm/stdlib.jar:jvm/coroutines.jar"
beat() { sed -n "s/^$1 //p" jvm/traced.beat 2>/dev/null; }
if [ "$(cat jvm/plain.rc)" != 0 ]; then
	notok "the program runs (plain, -Xverify:all)"; show jvm/plain.err
elif [ "$(cat jvm/traced.rc)" != 0 ]; then
	notok "the instrumented program runs (-Xverify:all)"; show jvm/traced.err
elif ! cmp -s jvm/plain.out jvm/traced.out; then
	notok "the instrumented program prints what the plain one does"; diff jvm/plain.out jvm/traced.out | show /dev/stdin
elif [ "$(beat mismatches)" != 0 ] || [ "$(beat open_main)" != 0 ] || [ "$(beat unbalanced_ids)" != 0 ] || [ "$(beat i)" -lt 1000 ]; then
	notok "the probes balance"; show jvm/traced.beat
else
	ok "-Xverify:all, same stdout ($(wc -l <jvm/plain.out) lines), probes balanced: i=$(beat i) o=$(beat o) ids=$(beat ids) open=$(beat open) (daemon threads parked)"
fi
(cd classes-indy && jar cf ../jvm/program-orig.jar tc) && (cd jvm/classes && jar cf ../program.jar tc)
loadall() { # REPORT CP JARS...
	local report=$1 cp=$2
	shift 2
	timeout 600 java -Xverify:all -Xss8m -cp "plain:tools:$cp" LoadAll "$report" "$@" >"$report.log" 2>&1 </dev/null
}
j=$work/jvm  # absolute: load_diff.py matches the reports' jar names with the map's
loadall jvm/load-before.tsv "$j/program-orig.jar:$libs" "$j/program-orig.jar" "$stdlib" "$coro"
loadall jvm/load-after.tsv "$j/program.jar:$j/stdlib.jar:$j/coroutines.jar" "$j/program.jar" "$j/stdlib.jar" "$j/coroutines.jar"
printf 'program\t%s\t%s\t/dev/null\t/dev/null\t1\nkotlin-stdlib\t%s\t%s\t/dev/null\t/dev/null\t1\nkotlinx-coroutines\t%s\t%s\t/dev/null\t/dev/null\t1\n' \
	"$work/jvm/program-orig.jar" "$work/jvm/program.jar" "$stdlib" "$work/jvm/stdlib.jar" "$coro" "$work/jvm/coroutines.jar" >jvm/load-map.tsv
if python3 "$oracles/load_diff.py" jvm/load-before.tsv jvm/load-after.tsv jvm/load-map.tsv >jvm/load-diff.log 2>&1; then
	ok "every class loads, verifies (-Xverify:all) and initializes as before: $(grep -c "	ok	" jvm/load-after.tsv) ok of $(grep -vc '^#' jvm/load-after.tsv)"
	show jvm/load-diff.log 5
else
	notok "every class that verified before verifies after (LoadAll, load_diff.py)"; show jvm/load-diff.log
fi

# --- 3. dex ----------------------------------------------------------------------------------
mkdir -p dex/orig dex/out dex/cls dex/out-cls
dexer() { java -cp "$dx" com.android.dx.command.Main --dex --min-sdk-version=26 --output="$1" "$2"; }
export -f dexer
export dx
check "dx dexes the program" 'dexer dex/orig/classes.dex classes-cls'
check "tc-instrument the dex" '"'"$tci"'" --quiet --mapping-dir dex/mapping --classpath beat --in dex/orig/classes.dex --out dex/out/classes.dex'
check "tc-instrument the classes, then dx dexes them" '"'"$tci"'" --quiet --mapping-dir dex/mapping-cls --classpath beat --in classes-cls --out dex/cls &&
	dexer dex/out-cls/classes.dex dex/cls'
check "tc-dexverify accepts the original and both outputs" '"'"$dexverify"'" -q --strict-monitors dex/orig/classes.dex dex/out/classes.dex dex/out-cls/classes.dex'
oracle_run() { # NAME OUT_DIR OPTIONS...
	local name=$1 out=$2
	shift 2
	# --only before --behave, which adds the behaviour oracle to the list
	if bash "$oracles/oracles.sh" dex/orig "$out" "dex/oracles-$name" --cache dex/oracle-cache --jobs 1 \
		"$@" --behave "$here/behave" --resources "$stdlib" --resources "$coro" >"dex/oracles-$name.log" 2>&1; then
		ok "dex oracles on $name: $(grep -E '^(classes.dex|KotlinProgram) +[a-z]+ +PASS' "dex/oracles-$name.log" | awk '!seen[$2]++ {print $2}' | paste -sd, -) pass"
		grep -E '^(classes.dex|KotlinProgram) +[a-z]+ +PASS' "dex/oracles-$name.log" | sed 's/^/#   /'
	else
		notok "dex oracles on $name"; show "dex/oracles-$name.log" 40
	fi
}
oracle_run "the instrumented dex" dex/out --expect-probes
oracle_run "the dexed instrumented classes" dex/out-cls --only structure,disasm,types --expect-probes
finish
