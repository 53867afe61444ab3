#!/bin/sh
# Builds the project's libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined):
# the libraries' objects once, compiled JOBS at a time, then one binary per target. Run
# by meson (target fuzz-binaries of tests/fuzz/meson.build, in every build of the
# unsanitized build directory: only what is stale is compiled again) and by run.sh when it
# is given no prebuilt binaries.
#
#   tests/fuzz/build.sh -o OUTDIR [-j JOBS] [-s STAMP] [TARGET...]
#
# TARGET: classfile instrument jar text dex apk (default: all). OUTDIR/fuzz_TARGET is
# each binary, OUTDIR/obj the objects, OUTDIR/build.log what clang said. When clang or
# libFuzzer is missing, nothing is built: OUTDIR/missing says what and its Debian
# package, and run.sh reports it (a skip, or a failure under TC_REQUIRE_TOOLS=1); the
# build itself does not fail for it. Exit 1 on a compile or link error.
# Needs python3 (rules/embed.py), libzip, pcre2, zlib, libdeflate, xxhash.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out= jobs=2 stamp=
while [ $# -gt 0 ]; do
    case "$1" in
        -o) out=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        -s) stamp=$2; shift 2 ;;
        -*) echo "usage: $0 -o OUTDIR [-j JOBS] [-s STAMP] [TARGET...]" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ -n "$out" ] || { echo "build.sh: -o OUTDIR is required" >&2; exit 2; }
[ $# -gt 0 ] || set -- classfile instrument jar text dex apk
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
obj=$out/obj
log=$out/build.log
: >"$log"
rm -f "$out/missing"
done_() { [ -z "$stamp" ] || : >"$stamp"; exit 0; }

CLANG=${CLANG:-}
if [ -z "$CLANG" ]; then
    for c in clang clang-14 clang-15 clang-16; do
        if command -v "$c" >/dev/null 2>&1; then CLANG=$c; break; fi
    done
fi
if [ -z "$CLANG" ]; then
    echo "clang	clang" >"$out/missing"
    done_
fi
PYTHON=${PYTHON:-python3}

cfuzz=$root/tests/compiler/fuzz
# A target's harness, and what it links besides base/ and classfile/: nothing, dex/, or
# the whole compiler (dex/, rules/, mapfile/, src/'s rooms).
harness() {
    case "$1" in
        classfile) echo "$here/fuzz_classfile.c" ;;
        instrument) echo "$cfuzz/fuzz_instrument.c" ;;
        jar) echo "$cfuzz/fuzz_jar.c" ;;
        text) echo "$cfuzz/fuzz_text.c" ;;
        dex) echo "$root/tests/dex/fuzz/fuzz_dex.c" ;;
        apk) echo "$root/tests/dex/fuzz/fuzz_apk.c" ;;
        *) echo "build.sh: unknown target $1" >&2; exit 2 ;;
    esac
}
needs() {
    case "$1" in classfile) echo core ;; dex) echo dex ;; *) echo compiler ;; esac
}

core="$(ls "$root"/base/*.c "$root"/classfile/*.c)"
dexlib="$(ls "$root"/dex/*.c)"
# src/'s rooms, without the programs' (src/tc-*/: each has a main, and libFuzzer brings
# its own); rules' default list embedded as the meson build embeds it
compiler="$(ls "$root"/rules/*.c "$root"/mapfile/*.c)"
for f in "$root"/src/*/*.c; do
    case "$f" in */src/tc-*/*) ;; *) compiler="$compiler $f" ;; esac
done
if [ ! -f "$obj/default_rules.c" ] || [ "$root/rules/default.rules" -nt "$obj/default_rules.c" ]; then
    "$PYTHON" "$root/rules/embed.py" tc_default_rules "$root/rules/default.rules" \
        "$obj/default_rules.c.tmp" && mv -f "$obj/default_rules.c.tmp" "$obj/default_rules.c"
fi
compiler="$compiler $obj/default_rules.c"

cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
-I$root/base -I$root/classfile -I$root/dex -I$root/rules -I$root/mapfile -I$root/src -I$here \
$(pkg-config --cflags libzip libpcre2-8 zlib libdeflate libxxhash)"
# every header of ours: an object older than the newest is compiled again
newest=$(ls -t "$root"/base/*.h "$root"/classfile/*.h "$root"/dex/*.h "$root"/rules/*.h \
    "$root"/mapfile/*.h "$root"/src/*/*.h "$here"/*.h "$0" | head -n 1)

# what the targets asked for need, each source once
srcs=
for t in "$@"; do
    srcs="$srcs $(harness "$t")"
    case $(needs "$t") in
        core) srcs="$srcs $core" ;;
        dex) srcs="$srcs $core $dexlib" ;;
        compiler) srcs="$srcs $core $dexlib $compiler" ;;
    esac
done
srcs=$(printf '%s\n' $srcs | sort -u)
stale=
for f in $srcs; do
    o="$obj/$(basename "$f" .c).o"
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ "$newest" -nt "$o" ]; then
        stale="$stale $f"
    fi
done
if [ -n "$stale" ]; then
    # JOBS compilers at a time; each writes its object through a temporary name
    export CLANG cflags obj
    # shellcheck disable=SC2086
    if ! printf '%s\n' $stale | xargs -P "$jobs" -I{} sh -c \
        'o="$obj/$(basename "$1" .c).o"; $CLANG $cflags -c "$1" -o "$o.tmp" && mv -f "$o.tmp" "$o"' sh {} \
        >>"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
fi

objs_of() { # the objects of a source list
    for f in "$@"; do printf '%s ' "$obj/$(basename "$f" .c).o"; done
}
libs=$(pkg-config --libs libzip libpcre2-8 zlib libdeflate libxxhash libcrypto)
for t in "$@"; do
    h=$(harness "$t")
    case $(needs "$t") in
        core) objs=$(objs_of $h $core) ;;
        dex) objs=$(objs_of $h $core $dexlib) ;;
        compiler) objs=$(objs_of $h $core $dexlib $compiler) ;;
    esac
    bin=$out/fuzz_$t
    # relink only when an object is newer than the binary
    if [ -f "$bin" ] && [ -z "$(find $objs -newer "$bin" 2>/dev/null | head -n 1)" ]; then
        continue
    fi
    # -fsanitize=fuzzer needs libclang_rt.fuzzer (Debian: libfuzzer-14-dev).
    # shellcheck disable=SC2086
    if ! "$CLANG" -fsanitize=fuzzer,address,undefined $objs $libs -lpthread -o "$bin.tmp" >>"$log" 2>&1; then
        # Only the fuzzer runtime itself missing is a skip; any other link error (two
        # mains, a symbol missing) is a failure, even when FuzzerMain is named in it.
        if grep -Eqi 'cannot find .*fuzzer|libclang_rt\.fuzzer[^ ]*: No such file' "$log"; then
            echo "libFuzzer (clang's -fsanitize=fuzzer runtime; see $log)	libfuzzer-14-dev" >"$out/missing"
            done_
        fi
        cat "$log" >&2
        exit 1
    fi
    mv -f "$bin.tmp" "$bin"
done
done_
