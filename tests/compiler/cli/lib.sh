# Shared by the cli suite's scripts (sourced). Environment, set by meson:
#   TC_INSTRUMENT TC_DUMP  the tools under test
#   FIXTURES FIXTURES_STAMP  what fixtures.sh built, and its stamp ("ok" or why not)
#   JAVA JAVAP PYTHON  the JDK and python3
#   CLI_DIR  this directory (beat.py, zipx.py)
# Each check prints "ok - what" or "not ok - what" (TAP style); `finish` exits 1 when
# any failed. Scripts run in a private temporary directory $T, removed at the end.
set -u

pass=0
fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/tc-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
OUT=$T/.stdout
ERR=$T/.stderr

. "$CLI_DIR/../../lib/need.sh"

need_fixtures() {
    need_stamp "$FIXTURES_STAMP"
    [ "$(cat "$FIXTURES_STAMP" 2>/dev/null)" = "ok" ] ||
        need_missing "the cli fixtures ($(cat "$FIXTURES_STAMP" 2>/dev/null))" "?"
}

ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
    _d=$1
    shift
    if "$@" >"$T/.check.out" 2>&1; then
        ok "$_d"
    else
        not_ok "$_d"
        sed 's/^/#   /' "$T/.check.out" | head -n 40
    fi
}

# check_not DESCRIPTION COMMAND...: the command must fail.
check_not() {
    _d=$1
    shift
    if "$@" >"$T/.check.out" 2>&1; then
        not_ok "$_d"
        sed 's/^/#   /' "$T/.check.out" | head -n 40
    else
        ok "$_d"
    fi
}

# tci ARGS...: runs tc-instrument; stdout in $OUT, stderr in $ERR, status in $rc. The
# fixtures are classes, not apps: a run gets --no-runtime-check (the runtime's presence
# is runtime.sh's subject, which runs tc-instrument with tci_checked).
tci() {
    if [ "${1:-}" = diff ]; then
        tci_checked "$@"
    else
        tci_checked --no-runtime-check "$@"
    fi
}

# tci_checked ARGS...: tci without the override, as a user runs it.
tci_checked() {
    rc=0
    "$TC_INSTRUMENT" "$@" >"$OUT" 2>"$ERR" || rc=$?
    if [ "${CLI_VERBOSE:-}" ]; then
        echo "# tc-instrument $* -> $rc"
        sed 's/^/#   err: /' "$ERR" | head -n 20
    fi
}

# expect_rc DESCRIPTION WANT: checks $rc from the last tci.
expect_rc() {
    if [ "$rc" = "$2" ]; then
        ok "$1 (exit $rc)"
    else
        not_ok "$1: exit $rc, want $2"
        sed 's/^/#   stderr: /' "$ERR" | head -n 20
    fi
}

# stderr_has DESCRIPTION TEXT: the last tci's stderr contains TEXT (fixed string).
stderr_has() {
    if grep -qF -- "$2" "$ERR"; then
        ok "$1"
    else
        not_ok "$1: no \"$2\" on stderr"
        sed 's/^/#   stderr: /' "$ERR" | head -n 20
    fi
}

absent() { [ ! -e "$1" ]; }
same_file() { cmp "$1" "$2"; }
differ() { ! cmp -s "$1" "$2"; }

# No leftovers of staging or temporary files under a directory.
no_temp_files() {
    _left=$(find "$1" -name '*tc-tmp*' 2>/dev/null | head -n 5)
    [ -z "$_left" ] || { echo "left behind: $_left"; return 1; }
}

# verify JAR|DIR...: every class loads and verifies on HotSpot (-Xverify:all).
verify() {
    "$JAVA" -Xverify:all -Xshare:auto -XX:TieredStopAtLevel=1 \
        -cp "$FIXTURES/peers/peers.jar" VerifyAll --strict "$@" >"$T/.verify" 2>&1
    _s=$?
    cat "$T/.verify"
    [ $_s -eq 0 ] && grep -q ' 0 VerifyError, 0 other linkage problems' "$T/.verify"
}

# beat_check MAPPING CLASSFILES...: ids in the code match the mapping (javap).
beat_check() {
    "$PYTHON" "$CLI_DIR/beat.py" check --tool javap --dump "$JAVAP" "$@"
}

# classes DIR: the class files under DIR, one per line, sorted.
classes() { (cd "$1" && find . -name '*.class' | sed 's|^\./||' | LC_ALL=C sort); }

# unjar JAR DIR: extracts a jar with python (no tool of ours involved).
unjar() { "$PYTHON" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"; }

# json FILE EXPR: evaluates a python expression on the parsed JSON (as j).
json() { "$PYTHON" -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# has_line FILE LINE: FILE holds LINE as a whole line.
has_line() { grep -qxF -- "$2" "$1"; }

finish() {
    echo "# $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# run_stats FILE: instrument-stats.json without what may differ between a cold and a
# cached run: times, the cache's counters, and the output paths (each run writes to a
# directory of its own)
run_stats() {
    "$PYTHON" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("time_ms", "cache", "threads"):
    d.pop(k, None)
for i in d["inputs"]:
    i["out"] = i["out"].rsplit("/", 1)[-1]
d["buildIdMarker"] = d.get("buildIdMarker", "").rsplit("/", 1)[-1]
print(json.dumps(d, indent=1, sort_keys=True))
EOF
}
