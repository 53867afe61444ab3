#!/bin/sh
# balance.sh VARIANT: the "Balanced tracing" tests of tc-instrument (TAP output).
#   dir17  the programs compiled with --release 17, instrumented as a class directory
#   jar17  the same, instrumented as a jar (and the --classpath classes given as a jar)
#   dir8   the programs that are Java 8 source, compiled with --release 8, as a directory
# Environment (set by meson): JAVA, JAVAC, JAR, TC_INSTRUMENT, BALANCE_SRC (this directory),
# STUBS_SRC (tests/android-stubs). BALANCE_KEEP=1 keeps the work directory.
#
# Steps: compile the android stubs, the class-path-only library (lib/), the recording
# AppMethodBeat (oracle/) and the harness ("support"); compile the test programs (programs/,
# programs17/ for release 17, and WideBranch.java written by gen-wide.sh); instrument them
# with tc-instrument (--classpath: the support classes); run every scenario on HotSpot with
# -Xverify:all, once plain and once instrumented; then check
#   - the oracle in AppMethodBeat found no problem (callers, shadow stacks, at() placement);
#   - each scenario's i/o/at sequence, per thread, equals the one written by hand in the
#     /*@expect CASE ... */ block at the top of its source file;
#   - stdout, stderr (uncaught exceptions with their stack traces) and the exit status are the
#     same in the plain and the instrumented run.
# Expectation blocks: lines before the first "thread NAME" line describe the case; then
# "thread NAME" starts a thread's events ("i|o Class.method(desc)", "at Class.method(desc)
# ActivityClass true|false"); indentation, blank lines and // comments are ignored; a line
# "[8] ..." or "[17] ..." only counts for that --release. "@expect CASE main" runs the class
# as the program's main class instead of through the harness (threads: "main").
set -u
variant=${1:-}
case $variant in
dir17) rel=17 form=dir ;;
jar17) rel=17 form=jar ;;
dir8) rel=8 form=dir ;;
*) echo "usage: balance.sh dir17|jar17|dir8" >&2; exit 2 ;;
esac
for v in JAVA JAVAC JAR TC_INSTRUMENT BALANCE_SRC STUBS_SRC; do
  eval "val=\${$v:-}"
  [ -n "$val" ] || { echo "Bail out! $v is not set"; exit 1; }
done

TAB=$(printf '\t')
export LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/balance-$variant.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
n=0 failed=0
finish() {
  echo "1..$n"
  if [ $failed -ne 0 ] && [ -n "${BALANCE_KEEP:-}" ]; then
    echo "# $failed failed; work directory kept: $work"
  else
    rm -rf "$work"
  fi
  [ $failed -eq 0 ]
  exit $?
}
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
# diag FILE [MAXLINES]: a file as TAP diagnostics
diag() { sed -n "1,${2:-200}p" "$1" | sed 's/^/# /'; }
# fatal NAME FILE: a step everything else depends on failed
fatal() { notok "$1"; [ -f "${2:-}" ] && diag "$2"; finish; }

javac_() { # javac_ OUTDIR CLASSPATH RELEASE SOURCES...
  out=$1 cp=$2 r=$3
  shift 3
  mkdir -p "$out"
  "$JAVAC" -nowarn -Xlint:-options -encoding UTF-8 --release "$r" ${cp:+-classpath "$cp"} \
    -d "$out" "$@" >"$work/javac.log" 2>&1
}

# ---- compile ----
# support: the android stubs, lib/ (class-path-only classes), the recording AppMethodBeat and
# the harness, in one javac run (release 17; the --release 8 programs compile against it too)
support=$work/support classes=$work/classes
# shellcheck disable=SC2046 # file names without blanks
javac_ "$support" "" 17 $(find "$STUBS_SRC" "$BALANCE_SRC/lib" "$BALANCE_SRC/oracle" "$BALANCE_SRC/harness" \
  -name '*.java' | sort) ||
  fatal "compile the android stubs, lib/, the recording AppMethodBeat and the harness" "$work/javac.log"
sources=$(ls "$BALANCE_SRC"/programs/*.java)
[ "$rel" = 17 ] && sources="$sources $(ls "$BALANCE_SRC"/programs17/*.java)"
mkdir -p "$work/gen"
sh "$BALANCE_SRC/gen-wide.sh" "$work/gen" || fatal "generate WideBranch.java"
sources="$sources $work/gen/WideBranch.java"
# shellcheck disable=SC2086
javac_ "$classes" "$support" "$rel" $sources ||
  fatal "compile the test programs (--release $rel)" "$work/javac.log"
ok "compile the test programs with javac --release $rel"

# ---- instrument ----
map=$work/mapping
mkdir -p "$map"
# jar17 gives both the input and the class path (the stubs, lib/) as jars
if [ "$form" = jar ]; then
  { "$JAR" cf "$work/in.jar" -C "$classes" . && "$JAR" cf "$work/support.jar" -C "$support" .; } ||
    fatal "jar the test programs and the support classes"
  in=$work/in.jar inst=$work/inst.jar support=$work/support.jar
else
  in=$classes inst=$work/inst
fi
# jar17 and dir8 start from a base mapping holding one method at id 70000: every new id
# continues after it, so no id fits sipush and each goes into the constant pool (ldc, or ldc_w
# in classes whose pool is past 256 entries, such as WideBranch)
base_opt=""
if [ "$variant" != dir17 ]; then
  echo "70000,9,ExcDeep run ()V" >"$work/base-mapping.txt"
  base_opt="--base-mapping $work/base-mapping.txt"
fi
# shellcheck disable=SC2086
"$TC_INSTRUMENT" --mapping-dir "$map" --in "$in" --out "$inst" --classpath "$support" $base_opt \
  >"$work/instrument.log" 2>&1
status=$?
if [ $status -ne 0 ] || [ ! -s "$map/methodMapping.txt" ] || [ ! -e "$inst" ]; then
  fatal "tc-instrument --in $(basename "$in") (exit status $status)" "$work/instrument.log"
fi
if grep -q -e 'runtime error:' -e 'Sanitizer' "$work/instrument.log"; then
  notok "tc-instrument ran without sanitizer reports"
  diag "$work/instrument.log"
else
  ok "tc-instrument --in $(basename "$in") --out $(basename "$inst")"
fi

if [ -n "$base_opt" ]; then
  if grep -q '^70000,9,ExcDeep run ()V$' "$map/methodMapping.txt" &&
     ! grep -v -e '^1048574,' "$map/methodMapping.txt" | awk -F, '$1 < 70000 { bad = 1 } END { exit !bad }'; then
    ok "base mapping: ExcDeep.run keeps id 70000, every other id is above it"
  else
    notok "base mapping: ExcDeep.run keeps id 70000, every other id is above it"
    diag "$map/methodMapping.txt" 20
  fi
fi

# ---- expectations ----
exp=$work/expected
mkdir -p "$exp"
harness_classes="" main_classes=""
for src in $sources; do
  cls=$(basename "$src" .java)
  header=$(grep -m1 '^/\*@expect ' "$src") || { notok "$cls: no /*@expect CASE block"; continue; }
  echo "$header" | awk '{ print $2 }' >"$exp/$cls.case"
  if [ "$(echo "$header" | awk '{ print $3 }')" = main ]; then
    main_classes="$main_classes $cls"
  else
    harness_classes="$harness_classes $cls"
  fi
  # thread TAB seq TAB line, sorted by thread (stable), so threads compare in name order
  awk -v rel="$rel" -v TAB="$TAB" '
    /^\/\*@expect / { inblock = 1; next }
    inblock && /^\*\// { exit }
    !inblock { next }
    {
      line = $0
      sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
      if (line == "" || line ~ /^\/\//) next
      if (line ~ /^\[[0-9]+\] /) {
        r = substr(line, 2, index(line, "]") - 2)
        if (r != rel) next
        sub(/^\[[0-9]+\] +/, "", line)
      }
      if (line ~ /^thread /) thread = substr(line, 8)
      if (thread == "") next
      print thread TAB (++seq) TAB line
    }' "$src" | sort -t "$TAB" -k1,1 -k2,2n | cut -f3 >"$exp/$cls.expected"
done

# actual REPORT THREAD: the events of THREAD and of threads named THREAD/..., normalized
actual() {
  awk -v want="$2" -v TAB="$TAB" '
    /^thread / { t = substr($0, 8); keep = (t == want || index(t, want "/") == 1) }
    /^end$/ { keep = 0; next }
    keep {
      line = $0
      sub(/^[ \t]+/, "", line)
      print t TAB (++seq) TAB line
    }' "$1" | sort -t "$TAB" -k1,1 -k2,2n | cut -f3
}

# ---- run ----
run_java() { # run_java NAME CLASSPATH ARGS...: NAME.out, NAME.err, NAME.status, NAME.report
  name=$1 cp=$2
  shift 2
  "$JAVA" -Xverify:all -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-OmitStackTraceInFastThrow \
    -Dtc.balance.mapping="$map/methodMapping.txt" -Dtc.balance.report="$work/$name.report" \
    -cp "$cp" "$@" >"$work/$name.out" 2>"$work/$name.err"
  echo $? >"$work/$name.status"
}
base_cp=$support
# shellcheck disable=SC2086
run_java plain "$base_cp:$classes" BalanceHarness $harness_classes
# shellcheck disable=SC2086
run_java inst "$base_cp:$inst" BalanceHarness $harness_classes
for cls in $main_classes; do
  run_java "plain-$cls" "$base_cp:$classes" "$cls"
  run_java "inst-$cls" "$base_cp:$inst" "$cls"
done

# same_output PLAIN INST WHAT
same_output() {
  bad=0
  for s in status out err; do
    if ! cmp -s "$work/$1.$s" "$work/$2.$s"; then
      [ $bad -eq 0 ] && notok "$3: the instrumented run's output is the plain run's"
      bad=1
      echo "# $s differs (--- plain, +++ instrumented):"
      diff -u "$work/$1.$s" "$work/$2.$s" | sed -n '3,80p' | sed 's/^/# /'
    fi
  done
  [ $bad -eq 0 ] && ok "$3: the instrumented run's output is the plain run's (exit status $(cat "$work/$1.status"))"
}
same_output plain inst "harness run of$harness_classes"
if [ "$(cat "$work/plain.status")" != 0 ]; then
  notok "the plain harness run exits with 0"
  diag "$work/plain.err" 40
fi
for cls in $main_classes; do
  same_output "plain-$cls" "inst-$cls" "main class $cls"
done

# the plain run records nothing (AppMethodBeat is on its class path, but nothing calls it)
if [ -f "$work/plain.report" ] && [ "$(sed -n 1p "$work/plain.report")" = "problems 0" ] &&
   [ "$(grep -c '^thread ' "$work/plain.report")" = 0 ]; then
  ok "the plain run records no event"
else
  notok "the plain run records no event"
  [ -f "$work/plain.report" ] && diag "$work/plain.report" 40
fi

# ---- the oracle ----
reports="$work/inst.report"
for cls in $main_classes; do reports="$reports $work/inst-$cls.report"; done
oracle_ok=1
for r in $reports; do
  if [ ! -f "$r" ]; then
    oracle_ok=0
    echo "# no report $(basename "$r"): the instrumented run died before writing it; its stderr:"
    diag "${r%.report}.err" 40
  elif [ "$(sed -n 1p "$r")" != "problems 0" ]; then
    oracle_ok=0
    grep '^problem' "$r" | sed -n '1,60p' | sed 's/^/# /'
  fi
done
if [ $oracle_ok -eq 1 ]; then
  ok "oracle: every i/o came from the method its id maps to, every o closed the innermost open i of the same activation, every at() from onWindowFocusChanged, no thread unbalanced"
else
  notok "oracle: every i/o came from the method its id maps to, every o closed the innermost open i of the same activation, every at() from onWindowFocusChanged, no thread unbalanced"
fi

# ---- each scenario's exact sequence ----
for cls in $harness_classes $main_classes; do
  case_name=$(cat "$exp/$cls.case")
  case " $main_classes " in
  *" $cls "*) report=$work/inst-$cls.report thread=main ;;
  *) report=$work/inst.report thread=s:$cls ;;
  esac
  if [ ! -f "$report" ]; then
    notok "$case_name ($cls): no report"
    continue
  fi
  actual "$report" "$thread" >"$exp/$cls.actual"
  grep -e "^problem $thread$TAB" -e "^problem $thread/" "$report" >"$exp/$cls.problems"
  if cmp -s "$exp/$cls.expected" "$exp/$cls.actual" && [ ! -s "$exp/$cls.problems" ]; then
    ok "$case_name ($cls)"
  else
    notok "$case_name ($cls)"
    if [ -s "$exp/$cls.problems" ]; then
      echo "# oracle problems:"
      diag "$exp/$cls.problems" 40
    fi
    if ! cmp -s "$exp/$cls.expected" "$exp/$cls.actual"; then
      echo "# i/o/at sequence differs (--- expected, +++ actual):"
      diff -u "$exp/$cls.expected" "$exp/$cls.actual" | sed -n '3,$p' | sed -n '1,150p' | sed 's/^/# /'
      echo "# expected:"
      diag "$exp/$cls.expected" 150
      echo "# actual:"
      diag "$exp/$cls.actual" 150
    fi
  fi
done

# every recorded thread belongs to some scenario
grep '^thread ' "$work/inst.report" 2>/dev/null | cut -c8- | while read -r t; do
  c=${t#s:}
  c=${c%%/*}
  case " $harness_classes " in *" $c "*) ;; *) echo "$t" ;; esac
done >"$work/stray"
if [ -s "$work/stray" ]; then
  notok "no events outside the scenarios' threads"
  diag "$work/stray"
else
  ok "no events outside the scenarios' threads"
fi

finish
