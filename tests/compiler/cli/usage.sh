#!/bin/sh
# The command line: --help, usage errors (exit 2), a missing input (exit 1).
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/in/p"
printf '\312\376\272\276\0\0\0\064' >"$T/in/p/X.class" # a class header only

tci --help
expect_rc "--help" 0
cp "$OUT" "$T/help"
# Every option the parser knows (read from its source) and the documented ones.
for opt in --in --out --mapping-dir --base-mapping --blocklist --proguard-mapping --classpath \
           --threads -j --beat-class --strict --deflate-level --quiet --no-runtime-check --help --version; do
    if grep -qE -- "(^|[ ,])$opt( |,|$)" "$T/help"; then
        ok "--help documents $opt"
    else
        not_ok "--help documents $opt"
    fi
done
if [ -n "${TC_INSTRUMENT_SOURCE:-}" ] && [ -f "$TC_INSTRUMENT_SOURCE" ]; then
    # the parser's option table (base/opt.h): a row per option, [O_...] = { "--long", "-s", ... }
    parsed=$(grep -E '^[[:space:]]*\[O_[A-Z_]+\] = \{ "' "$TC_INSTRUMENT_SOURCE" | grep -oE '"-[-a-z]+"' | tr -d '"' | sort -u)
    if [ -n "$parsed" ]; then ok "the parser's option table is read"; else not_ok "the parser's option table is read"; fi
    for opt in $parsed; do
        if grep -qE -- "(^|[ ,])$opt( |,|$)" "$T/help"; then
            ok "--help documents $opt (accepted by the parser)"
        else
            not_ok "--help documents $opt (accepted by the parser)"
        fi
    done
fi
check "--help documents diff" grep -q 'tc-instrument diff OLD' "$T/help"
check "--help documents the exit status" grep -q 'Exit status' "$T/help"
check "--help says 2 is a usage error" grep -qi '2 on usage errors' "$T/help"
tci -h
expect_rc "-h" 0
tci --version
expect_rc "--version" 0
check "--version prints a version" grep -qE '^tc-instrument [0-9]+\.[0-9]+' "$OUT"

m="--mapping-dir $T/map"
usage() { # usage DESCRIPTION ARGS...
    d=$1
    shift
    tci "$@"
    expect_rc "usage error: $d" 2
    if [ -s "$ERR" ] && grep -q 'tc-instrument' "$ERR"; then
        ok "usage error: $d: explained on stderr"
    else
        not_ok "usage error: $d: explained on stderr"
    fi
    absent "$T/map" && absent "$T/o" || not_ok "usage error: $d wrote something"
}
usage "no arguments"
usage "unknown option" $m --in "$T/in" --out "$T/o" --frobnicate
usage "--in without --out" $m --in "$T/in"
usage "--out without --in" $m --out "$T/o"
usage "one --in twice for one --out" $m --in "$T/in" --in "$T/in" --out "$T/o"
usage "no --mapping-dir" --in "$T/in" --out "$T/o"
usage "--mapping-dir without value" --in "$T/in" --out "$T/o" --mapping-dir
usage "--threads 0" $m --in "$T/in" --out "$T/o" --threads 0
usage "--threads x" $m --in "$T/in" --out "$T/o" --threads x
usage "--threads 257" $m --in "$T/in" --out "$T/o" --threads 257
usage "-j0" $m --in "$T/in" --out "$T/o" -j0
usage "--deflate-level 0" $m --in "$T/in" --out "$T/o" --deflate-level 0
usage "--deflate-level 10" $m --in "$T/in" --out "$T/o" --deflate-level 10
usage "--beat-class without value" $m --in "$T/in" --out "$T/o" --beat-class
usage "diff with one file" diff "$T/a"
usage "diff with three files" diff "$T/a" "$T/b" "$T/c"
check "nothing written by the usage errors" absent "$T/o"

# A missing input: exit 1, and the message names it.
tci $m --in "$T/does-not-exist.jar" --out "$T/o.jar"
expect_rc "missing input" 1
stderr_has "missing input: the message names the path" "$T/does-not-exist.jar"
check "missing input: no output" absent "$T/o.jar"
check "missing input: no mapping files" absent "$T/map/methodMapping.txt"

for opt in --blocklist --proguard-mapping --base-mapping; do
    tci $m --in "$T/in" --out "$T/o" $opt "$T/missing-$opt.txt"
    expect_rc "missing $opt file" 1
    stderr_has "missing $opt file: named" "$T/missing-$opt.txt"
    check "missing $opt file: nothing written" absent "$T/o"
done
tci $m --in "$T/in" --out "$T/o" --classpath "$T/no-such-classpath.jar"
expect_rc "missing --classpath entry" 1
stderr_has "missing --classpath entry: named" "$T/no-such-classpath.jar"
check "missing --classpath entry: nothing written" absent "$T/o"

# diff on a missing file is an error, not "no change".
printf '1,1,a.B m ()V\n' >"$T/a.txt"
tci diff "$T/a.txt" "$T/missing.txt"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then ok "diff with a missing file fails (exit $rc)"; else not_ok "diff with a missing file: exit $rc"; fi
stderr_has "diff with a missing file: named" "$T/missing.txt"
finish
