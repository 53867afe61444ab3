#!/usr/bin/env bash
# cross.sh SOURCE_ROOT WORK_DIR: the runtime's C core and its unit tests on the targets a
# device has, not only on this x86-64 glibc machine:
#   armhf   arm-linux-gnueabihf-gcc (32-bit ARM), the tests run under qemu-arm
#   arm64   aarch64-linux-gnu-gcc (64-bit ARM), the tests run under qemu-aarch64
#   musl    musl-gcc (a libc that is not glibc, as bionic is not), the tests run here
# Criterion is not installed for these targets, so the same test sources are built
# against minicrit/ (the part of Criterion's API they use, one process per test). The
# runtime is built with the project's warnings, as errors; the binaries are static, so
# qemu-user needs no target root. jni_glue.c is left out there (it needs a JVM to run);
# a meson cross build for a host system "android" builds it, with the JDK's jni.h
# standing in for the NDK's (runtime/cross/android.ini, which needs an NDK).
set -euo pipefail
src=$(cd "$1" && pwd) work=$2
. "$src/tests/lib/need.sh"
need_cmd ninja ninja-build
need_cmd arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need_cmd qemu-arm qemu-user
need_cmd qemu-aarch64 qemu-user
need_cmd musl-gcc musl-tools

rm -rf "$work"
mkdir -p "$work"
warn="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wno-unused-parameter"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -pthread -fno-strict-aliasing $warn"
inc="-I$src/runtime/include -I$src/runtime/src"
lib_src=$(ls "$src"/runtime/src/*.c | grep -v '/jni_glue\.c$')
# test_jni_glue.c needs <jni.h>, as jni_glue.c does
tests=$(ls "$src"/tests/runtime/test_*.c | grep -v '/test_jni_glue\.c$')

# ninja_file CC: the library with -Werror, the driver, one static test binary per file
ninja_file() {
	local cc=$1 objs="" f o
	cat <<NINJA
rule cc
  command = $cc $cflags \$extra $inc -MMD -MF \$out.d -c \$in -o \$out
  depfile = \$out.d
rule ar
  command = rm -f \$out && ${cc%gcc}ar rcs \$out \$in
rule link
  command = $cc -static -pthread \$in \$ldflags -o \$out
NINJA
	for f in $lib_src; do
		o=obj/$(basename "$f" .c).o
		objs="$objs $o"
		printf 'build %s: cc %s\n  extra = -Werror\n' "$o" "$f"
	done
	printf 'build libtcruntime.a: ar%s\n' "$objs"
	printf 'build obj/minicrit.o: cc %s\n  extra = -I%s\n' "$src/tests/runtime/minicrit/minicrit.c" \
		"$src/tests/runtime/minicrit"
	printf 'build obj/helpers.o: cc %s\n' "$src/tests/runtime/helpers.c"
	for f in $tests; do
		o=$(basename "$f" .c)
		printf 'build obj/%s.o: cc %s\n  extra = -I%s\n' "$o" "$f" "$src/tests/runtime/minicrit"
		printf 'build %s: link obj/%s.o obj/helpers.o obj/minicrit.o libtcruntime.a\n' "$o" "$o"
		# test_alloc counts the runtime's allocations (tests/runtime/meson.build)
		if [ "$o" = test_alloc ]; then
			printf '  ldflags = -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=strdup\n'
		fi
		# test_tracer_signal plays a sigaction that ignores app handlers (meson.build)
		if [ "$o" = test_tracer_signal ]; then
			printf '  ldflags = -Wl,--wrap=sigaction\n'
		fi
	done
}

fail=0
# target NAME CC RUNNER...: builds, then runs every test binary (with RUNNER, if any)
target() {
	local name=$1 cc=$2 d=$work/$1 t rc start=$SECONDS
	shift 2
	mkdir -p "$d"
	if [ "$cc" = musl-gcc ]; then
		# musl's own ar is the host's
		ninja_file "$cc" | sed 's/musl-ar rcs/ar rcs/' >"$d/build.ninja"
	else
		ninja_file "$cc" >"$d/build.ninja"
	fi
	if ! ninja -C "$d" -j 2 >"$d/build.log" 2>&1; then
		echo "not ok - $name: build failed"
		sed 's/^/# /' "$d/build.log" | tail -40
		fail=1
		return
	fi
	echo "ok - $name: built ($((SECONDS - start)) s)"
	for t in $tests; do
		t=$(basename "$t" .c)
		rc=0
		(cd "$d" && "$@" "./$t") >"$d/$t.log" 2>&1 || rc=$?
		if [ $rc -eq 0 ]; then
			echo "ok - $name: $t ($(tail -1 "$d/$t.log"))"
		else
			echo "not ok - $name: $t (exit $rc)"
			grep -v '^ok - ' "$d/$t.log" | sed 's/^/# /' | tail -40
			fail=1
		fi
	done
	echo "# $name: $((SECONDS - start)) s"
}

target armhf arm-linux-gnueabihf-gcc qemu-arm
target arm64 aarch64-linux-gnu-gcc qemu-aarch64
target musl musl-gcc

# The meson side of the Android build (runtime/cross/android.ini): host system android,
# whose sysroot has <jni.h>. Without an NDK, the Debian aarch64 compiler and the JDK's
# portable jni.h stand in: the JNI library and the jar must build, warnings as errors.
need_cmd javac default-jdk-headless
need_cmd meson meson
start=$SECONDS
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
cat >"$work/android-like.ini" <<INI
[binaries]
c = 'aarch64-linux-gnu-gcc'
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'
[built-in options]
c_args = ['-I$jdk/include', '-I$jdk/include/linux']
[host_machine]
system = 'android'
cpu_family = 'aarch64'
cpu = 'armv8-a'
endian = 'little'
INI
if meson setup "$work/android" "$src" --cross-file "$work/android-like.ini" -Dcompiler=disabled -Dtests=disabled \
    -Dwerror=true >"$work/android.log" 2>&1 &&
  ninja -C "$work/android" runtime/libtracecanary.so runtime/tracecanary-runtime.jar >>"$work/android.log" 2>&1 &&
  [ "$(od -An -tu2 -j18 -N2 "$work/android/runtime/libtracecanary.so" | tr -d ' ')" = 183 ]; then # EM_AARCH64
  echo "ok - android (meson, host system android, aarch64): libtracecanary.so and the jar ($((SECONDS - start)) s)"
else
  echo "not ok - android (meson, host system android, aarch64)"
  sed 's/^/# /' "$work/android.log" | tail -30
  fail=1
fi
exit $fail
