#!/bin/sh
# Builds one of the project's fuzz targets with clang + libFuzzer (ASan, UBSan) and runs
# it for a bounded time on a corpus seeded from its seeds and regressions directories.
#
#   tests/fuzz/run.sh [-T classfile|instrument|jar|text|dex|apk] [-t SECONDS] [-o WORKDIR] [-j JOBS]
#                     [-L OBJDIR] [-- LIBFUZZER-ARGS...]
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
# WORKDIR (default /tmp/tc-fuzz-TARGET) keeps the binary, the growing corpus and crash
# files (crash-*, leak-*, timeout-*, oom-*); copy each one into the regressions. The
# library's objects are kept in OBJDIR (default WORKDIR/obj) and rebuilt when stale.
# Exit 77 (skipped, for meson) when clang or libFuzzer is missing, 1 when the fuzzer
# found a problem, 0 otherwise. Needs python3 (rules/embed.py), libzip, pcre2, zlib, libdeflate.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
secs=30
target=classfile
objdir=
work=
jobs=1
while [ $# -gt 0 ]; do
    case "$1" in
        -T) target=$2; shift 2 ;;
        -L) objdir=$2; shift 2 ;;
        -t) secs=$2; shift 2 ;;
        -o) work=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "usage: $0 [-T classfile|instrument|jar|text|dex|apk] [-t SECONDS] [-o WORKDIR] [-j JOBS] [-L OBJDIR] [-- LIBFUZZER-ARGS...]" >&2; exit 2 ;;
    esac
done
cfuzz=$root/tests/compiler/fuzz
# Every target has: its source, seeds, regressions, the longest input, and whether it
# links the compiler (rules/, src/) besides classfile/.
case "$target" in
    classfile) src=$here/fuzz_classfile.c; seeds=$here/seeds; regressions=$here/regressions
        max_len=262144; compiler= ;;
    instrument) src=$cfuzz/fuzz_instrument.c; seeds=$cfuzz/seeds; regressions=$cfuzz/regressions
        max_len=65536; compiler=yes ;;
    jar) src=$cfuzz/fuzz_jar.c; seeds=$cfuzz/seeds-jar; regressions=$cfuzz/regressions-jar
        max_len=65536; compiler=yes ;;
    text) src=$cfuzz/fuzz_text.c; seeds=$cfuzz/seeds-text; regressions=$cfuzz/regressions-text
        max_len=65536; compiler=yes ;;
    dex) src=$root/tests/dex/fuzz/fuzz_dex.c; seeds=$root/tests/dex/fuzz/seeds
        regressions=$root/tests/dex/fuzz/regressions; max_len=65536; compiler=dex ;;
    apk) src=$root/tests/dex/fuzz/fuzz_apk.c; seeds=$root/tests/dex/fuzz/seeds-apk
        regressions=$root/tests/dex/fuzz/regressions-apk; max_len=65536; compiler=yes ;;
    *) echo "run.sh: unknown target $target" >&2; exit 2 ;;
esac
work=${work:-/tmp/tc-fuzz-$target}

CLANG=${CLANG:-}
if [ -z "$CLANG" ]; then
    for c in clang clang-14 clang-15 clang-16; do
        if command -v "$c" >/dev/null 2>&1; then CLANG=$c; break; fi
    done
fi
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
if [ -z "$CLANG" ]; then
    missing clang clang
fi
PYTHON=${PYTHON:-python3}

mkdir -p "$work/corpus"
rm -rf "$work/artifacts"; mkdir -p "$work/artifacts"
bin="$work/fuzz_$target"
# The libraries are compiled once into OBJDIR (-L, shared by the targets), then linked.
objdir=${objdir:-$work/obj}
mkdir -p "$objdir"
lib="$(ls "$root"/base/*.c "$root"/classfile/*.c)"
headers="$root/base/*.h $root/classfile/*.h"
if [ "$compiler" = dex ]; then
    lib="$lib $(ls "$root"/dex/*.c)"
    headers="$headers $root/dex/*.h"
    compiler=
elif [ -n "$compiler" ]; then
    lib="$lib $(ls "$root"/dex/*.c) $(ls "$root"/rules/*.c) $(ls "$root"/mapfile/*.c)"
    # src/'s rooms, without the programs' (src/tc-*/: each has a main, and libFuzzer
    # brings its own)
    for f in "$root"/src/*/*.c; do
        case "$f" in */src/tc-*/*) ;; *) lib="$lib $f" ;; esac
    done
    headers="$headers $root/dex/*.h $root/rules/*.h $root/mapfile/*.h $root/src/*/*.h"
fi
newest_header=$(ls -t $headers "$0" | head -n 1)
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
    -I$root/base -I$root/classfile -I$root/dex -I$root/rules -I$root/mapfile -I$root/src -I$here $(pkg-config --cflags libzip libpcre2-8 zlib libdeflate libxxhash)"
build() { # build SOURCE OBJECT
    if [ ! -f "$2" ] || [ "$1" -nt "$2" ] || [ "$newest_header" -nt "$2" ]; then
        # shellcheck disable=SC2086
        "$CLANG" $cflags -c "$1" -o "$2.tmp" 2>>"$work/build.log" && mv -f "$2.tmp" "$2"
    fi
}
: >"$work/build.log"
if [ -n "$compiler" ]; then
    if [ ! -f "$objdir/default_rules.c" ] || [ "$root/rules/default.rules" -nt "$objdir/default_rules.c" ]; then
        "$PYTHON" "$root/rules/embed.py" tc_default_rules "$root/rules/default.rules" \
            "$objdir/default_rules.c.tmp" && mv -f "$objdir/default_rules.c.tmp" "$objdir/default_rules.c"
    fi
    lib="$lib $objdir/default_rules.c"
fi
objs=""
for f in $lib "$src"; do
    o="$objdir/$(basename "$f" .c).o"
    build "$f" "$o" || { cat "$work/build.log" >&2; exit 1; }
    objs="$objs $o"
done
# -fsanitize=fuzzer needs libclang_rt.fuzzer (Debian: libfuzzer-14-dev).
# shellcheck disable=SC2086
if ! "$CLANG" -fsanitize=fuzzer,address,undefined $objs $(pkg-config --libs libzip libpcre2-8 zlib libdeflate libxxhash) \
    -lpthread -o "$bin.tmp" 2>>"$work/build.log"; then
    # Only the fuzzer runtime itself missing is a skip; any other link error (two mains,
    # a symbol missing) is a failure, even when FuzzerMain is named in it.
    if grep -Eqi 'cannot find .*fuzzer|libclang_rt\.fuzzer[^ ]*: No such file' "$work/build.log"; then
        missing "libFuzzer (clang's -fsanitize=fuzzer runtime; see $work/build.log)" libfuzzer-14-dev
    fi
    cat "$work/build.log" >&2
    exit 1
fi
mv -f "$bin.tmp" "$bin"

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
