#!/bin/sh
# Builds one of the project's fuzz targets with clang + libFuzzer (ASan, UBSan) and runs
# it for a bounded time on a corpus seeded from its seeds and regressions directories.
#
#   tests/fuzz/run.sh [-T classfile|instrument|jar|text|dex|apk] [-t SECONDS] [-o WORKDIR] [-j JOBS]
#                     [-B BINDIR] [-- LIBFUZZER-ARGS...]
#
#   classfile   tests/fuzz/fuzz_classfile.c: the class-file library alone;
#               tests/fuzz/seeds, tests/fuzz/regressions
#   instrument  tests/compiler/fuzz/fuzz_instrument.c: class files and jars through
#               tc_instrument(); tests/compiler/fuzz/seeds, .../regressions
#   jar         tests/compiler/fuzz/fuzz_jar.c: the zip reader and writer, against
#               libzip; tests/compiler/fuzz/seeds-jar, .../regressions-jar
#   text        tests/compiler/fuzz/fuzz_text.c: ProGuard mappings, block lists, method
#               mappings; tests/compiler/fuzz/seeds-text, .../regressions-text
#   dex         tests/dex/fuzz/fuzz_dex.c: the dex reader, writer and editor;
#               tests/dex/fuzz/seeds, .../regressions
#   apk         tests/dex/fuzz/fuzz_apk.c: APKs and lone dex files through tc_instrument();
#               tests/dex/fuzz/seeds-apk, .../regressions-apk
#
# WORKDIR (default /tmp/tc-fuzz-TARGET) keeps the growing corpus and crash files
# (crash-*, leak-*, timeout-*, oom-*); copy each one into the regressions. The binary is
# BINDIR/fuzz_TARGET, built by tests/fuzz/build.sh (meson builds them all once, in the
# build directory's tests/fuzz); without -B, build.sh builds it in WORKDIR/build first
# (objects kept there, compiled again when stale). Exit 77 (skipped, for meson) when
# clang or libFuzzer is missing, 1 when the fuzzer found a problem, 0 otherwise.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
secs=30
target=classfile
bindir=
work=
jobs=1
while [ $# -gt 0 ]; do
    case "$1" in
        -T) target=$2; shift 2 ;;
        -B) bindir=$2; shift 2 ;;
        -t) secs=$2; shift 2 ;;
        -o) work=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "usage: $0 [-T classfile|instrument|jar|text|dex|apk] [-t SECONDS] [-o WORKDIR] [-j JOBS] [-B BINDIR] [-- LIBFUZZER-ARGS...]" >&2; exit 2 ;;
    esac
done
cfuzz=$root/tests/compiler/fuzz
# Every target has its seeds, regressions and longest input (its source and what it
# links: build.sh).
case "$target" in
    classfile) seeds=$here/seeds; regressions=$here/regressions
        max_len=262144 ;;
    instrument) seeds=$cfuzz/seeds; regressions=$cfuzz/regressions
        max_len=65536 ;;
    jar) seeds=$cfuzz/seeds-jar; regressions=$cfuzz/regressions-jar
        max_len=65536 ;;
    text) seeds=$cfuzz/seeds-text; regressions=$cfuzz/regressions-text
        max_len=65536 ;;
    dex) seeds=$root/tests/dex/fuzz/seeds
        regressions=$root/tests/dex/fuzz/regressions; max_len=65536 ;;
    apk) seeds=$root/tests/dex/fuzz/seeds-apk
        regressions=$root/tests/dex/fuzz/regressions-apk; max_len=65536 ;;
    *) echo "run.sh: unknown target $target" >&2; exit 2 ;;
esac
work=${work:-/tmp/tc-fuzz-$target}

# A missing clang or libFuzzer skips (meson's 77), or fails under TC_REQUIRE_TOOLS=1
# (scripts/test.sh), as tests/lib/need.sh does.
missing() { # missing WHAT PACKAGE
    if [ "${TC_REQUIRE_TOOLS:-0}" = 1 ]; then
        echo "run.sh: FAIL: $1 is missing (Debian package $2); scripts/deps.sh test should install it" >&2
        exit 1
    fi
    echo "run.sh: $1 is missing (Debian package $2); skipped" >&2
    exit 77
}

mkdir -p "$work/corpus"
rm -rf "$work/artifacts"; mkdir -p "$work/artifacts"
# The binary: prebuilt (-B, meson's fuzz-binaries) or built here by build.sh.
if [ -z "$bindir" ]; then
    bindir=$work/build
    "$here/build.sh" -o "$bindir" -j "$(nproc 2>/dev/null || echo 2)" "$target" || exit 1
fi
if [ -f "$bindir/missing" ]; then
    IFS='	' read -r what pkg <"$bindir/missing"
    missing "$what" "$pkg"
fi
bin=$bindir/fuzz_$target
[ -x "$bin" ] || { echo "run.sh: no $bin (tests/fuzz/build.sh -o $bindir $target)" >&2; exit 1; }

# Seeds and regressions first, then the corpus grown by earlier runs.
set -- -max_total_time="$secs" -max_len="$max_len" -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@"
if [ "$jobs" -gt 1 ]; then
    set -- -fork="$jobs" -ignore_crashes=1 "$@"
fi
status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$bin" "$@" "$work/corpus" "$seeds" "$regressions" >"$work/fuzz.log" 2>&1 || status=$?
tail -n 20 "$work/fuzz.log"
found=$(ls "$work/artifacts" | head -n 5)
if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    echo "run.sh: the fuzzer found problems (status $status): $found (in $work/artifacts)" >&2
    exit 1
fi
exit 0
