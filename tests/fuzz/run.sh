#!/bin/sh
# Builds the class-file fuzz target with clang + libFuzzer (ASan, UBSan) and runs it for a
# bounded time on a corpus seeded from tests/fuzz/seeds and tests/fuzz/regressions.
#
#   tests/fuzz/run.sh [-t SECONDS] [-o WORKDIR] [-j JOBS] [-- LIBFUZZER-ARGS...]
#
# WORKDIR (default /tmp/tc-fuzz) keeps the binary, the growing corpus and crash files
# (crash-*, leak-*, timeout-*, oom-*). Every crash found belongs in tests/fuzz/regressions/
# once fixed. Exit 77 (skipped, for meson) when clang or libFuzzer is missing, 1 when the
# fuzzer found a problem, 0 otherwise.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
secs=60
work=/tmp/tc-fuzz
jobs=1
while [ $# -gt 0 ]; do
    case "$1" in
        -t) secs=$2; shift 2 ;;
        -o) work=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "usage: $0 [-t SECONDS] [-o WORKDIR] [-j JOBS] [-- LIBFUZZER-ARGS...]" >&2; exit 2 ;;
    esac
done

CLANG=${CLANG:-}
if [ -z "$CLANG" ]; then
    for c in clang clang-14 clang-15 clang-16; do
        if command -v "$c" >/dev/null 2>&1; then CLANG=$c; break; fi
    done
fi
if [ -z "$CLANG" ]; then
    echo "run.sh: no clang; skipped" >&2
    exit 77
fi

mkdir -p "$work/corpus"
rm -rf "$work/artifacts"; mkdir -p "$work/artifacts"
bin="$work/fuzz_classfile"
srcs="$here/fuzz_classfile.c $(ls "$root"/classfile/*.c)"
stale=yes
if [ -x "$bin" ]; then
    stale=
    for f in $srcs "$root"/classfile/*.h "$0"; do
        [ "$f" -nt "$bin" ] && stale=yes
    done
fi
if [ -n "$stale" ]; then
    # -fsanitize=fuzzer needs libclang_rt.fuzzer (Debian: libfuzzer-14-dev / libclang-rt-14-dev).
    if ! "$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I"$root/classfile" $srcs -o "$bin.tmp" 2>"$work/build.log"; then
        if grep -qi 'fuzzer' "$work/build.log"; then
            echo "run.sh: clang cannot link libFuzzer (see $work/build.log); skipped" >&2
            exit 77
        fi
        cat "$work/build.log" >&2
        exit 1
    fi
    mv -f "$bin.tmp" "$bin"
fi

# Seeds and regressions first, then the corpus grown by earlier runs.
set -- -max_total_time="$secs" -max_len=262144 -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@"
if [ "$jobs" -gt 1 ]; then
    set -- -fork="$jobs" -ignore_crashes=1 "$@"
fi
status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$bin" "$@" "$work/corpus" "$here/seeds" "$here/regressions" >"$work/fuzz.log" 2>&1 || status=$?
tail -n 20 "$work/fuzz.log"
found=$(ls "$work/artifacts" | head -n 5)
if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    echo "run.sh: the fuzzer found problems (status $status): $found (in $work/artifacts)" >&2
    exit 1
fi
exit 0
