#!/usr/bin/env bash
# cross.sh SOURCE_ROOT WORK_DIR: the runtime's C core and its unit tests on the targets a
# device has, not only on this x86-64 glibc machine:
#   armhf   arm-linux-gnueabihf-gcc (32-bit ARM), the tests run under qemu-arm
#   arm64   aarch64-linux-gnu-gcc (64-bit ARM), the tests run under qemu-aarch64
#   i686    i686-linux-gnu-gcc (32-bit x86), the tests run natively (or under
#           qemu-i386 where the kernel cannot run 32-bit x86: see below)
#   musl    musl-gcc (a libc that is not glibc, as bionic is not), the tests run here
# Criterion is not installed for these targets, so the same test sources are built
# against minicrit/ (the part of Criterion's API they use, one process per test). The
# runtime is built with the project's warnings, as errors; the binaries are static, so
# qemu-user needs no target root, except the PLT hook test (test_plthook.c), which
# loads shared libraries of its own (plthook/, built as tests/runtime/plthook/meson.build
# builds them) and so is linked dynamically and run with the cross toolchain's libc
# (qemu -L); lld's packed-relocation libraries for test_plthook_elf.c come from clang
# for each target. jni_glue.c is left out of the library there (it needs a JVM to run;
# test_jni_glue.c includes it and runs it against a JNIEnv of its own);
# a meson cross build for a host system "android" builds it, with the JDK's jni.h
# standing in for the NDK's (runtime/cross/android.ini, which needs an NDK).
set -euo pipefail
src=$(cd "$1" && pwd) work=$2
case $work in /*) ;; *) work=$PWD/$work ;; esac # the tests run from their directory
. "$src/tests/lib/need.sh"
need_cmd ninja ninja-build
need_cmd arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need_cmd qemu-arm qemu-user
need_cmd qemu-aarch64 qemu-user
need_cmd i686-linux-gnu-gcc gcc-i686-linux-gnu
need_cmd qemu-i386 qemu-user
need_cmd musl-gcc musl-tools
need_cmd clang clang
need_cmd ld.lld lld

rm -rf "$work"
mkdir -p "$work"
warn="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wno-unused-parameter"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -pthread -fno-strict-aliasing $warn"
inc="-I$src/base -I$src/runtime/include -I$src/runtime/src"
lib_src=$(ls "$src"/base/*.c "$src"/runtime/src/*.c | grep -v '/jni_glue\.c$')
# test_jni_glue.c needs <jni.h>, as jni_glue.c does (the JDK's portable one: its
# jni_md.h sizes jlong for 32-bit targets too; on those the test reads a count
# in halves); the PLT hook test is linked dynamically (below)
need_cmd javac default-jdk-headless
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
tests=$(ls "$src"/tests/runtime/test_*.c | grep -v -e '/test_plthook\.c$' -e '/test_tracer_priority\.c$' \
	-e '/test_tracer_touch\.c$')
# linked dynamically: they load libraries of their own (plthook/)
dyn_tests='test_plthook test_tracer_priority test_tracer_touch'
ph=$src/tests/runtime/plthook

# ninja_file CC CLANG_TARGET: the library with -Werror, the driver, one static test
# binary per file; the PLT hook test and its libraries
ninja_file() {
	local cc=$1 triple=$2 objs="" f o v
	cat <<NINJA
rule cc
  command = $cc $cflags \$extra $inc -MMD -MF \$out.d -c \$in -o \$out
  depfile = \$out.d
rule ar
  command = rm -f \$out && ${cc%gcc}ar rcs \$out \$in
rule link
  command = $cc -static -pthread \$in \$ldflags -o \$out
rule so
  command = $cc $cflags -fPIC -shared \$extra \$in -o \$out -Lplthook -Wl,-rpath,'\$\$ORIGIN' \$ldflags
rule lldso
  command = clang --target=$triple -shared -fPIC -O1 -nostdlib -fuse-ld=lld \$extra \$in -o \$out
rule linkdyn
  command = $cc -pthread -rdynamic \$in \$ldflags -o \$out
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
		if [ "$o" = test_jni_glue ]; then
			printf 'build obj/%s.o: cc %s\n  extra = -I%s -I%s -I%s\n' "$o" "$f" "$src/tests/runtime/minicrit" \
				"$jdk/include" "$jdk/include/linux"
		else
			printf 'build obj/%s.o: cc %s\n  extra = -I%s\n' "$o" "$f" "$src/tests/runtime/minicrit"
		fi
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
	# the libraries of tests/runtime/plthook/meson.build, with the same options
	printf 'build plthook/libtc_hooktarget.so: so %s\n' "$ph/target.c"
	for v in "now|-fplt|-Wl,-z,now -Wl,-z,relro -Wl,--hash-style=gnu" \
		"late|-fplt|-Wl,-z,now -Wl,-z,relro" \
		"lazy|-fplt|-Wl,-z,lazy -Wl,-z,norelro -Wl,--hash-style=sysv" \
		"relro|-fplt|-Wl,-z,lazy -Wl,-z,relro -Wl,--hash-style=both" \
		"noplt|-fno-plt|-Wl,-z,now -Wl,-z,relro"; do
		IFS='|' read -r o f ldf <<<"$v"
		printf 'build plthook/libtc_hookcaller_%s.so: so %s | plthook/libtc_hooktarget.so\n' "$o" "$ph/caller.c"
		printf '  extra = %s\n  ldflags = -ltc_hooktarget %s\n' "$f" "$ldf"
	done
	printf 'build plthook/libtc_hookother.so: so %s | plthook/libtc_hooktarget.so\n' "$ph/caller.c"
	printf '  ldflags = -ltc_hooktarget\n'
	printf 'build plthook/libtc_hookcaller_pltonly.so: so %s | plthook/libtc_hooktarget.so\n' "$ph/caller_plt.c"
	printf '  extra = -fplt\n  ldflags = -ltc_hooktarget -Wl,-z,lazy\n'
	printf 'build plthook/libtc_hookcaller_pltnow.so: so %s | plthook/libtc_hooktarget.so\n' "$ph/caller_plt.c"
	printf '  extra = -fplt\n  ldflags = -ltc_hooktarget -Wl,-z,now -Wl,-z,relro\n'
	printf 'build plthook/libtc_hookloader.so: so %s\n  ldflags = -ldl\n' "$ph/loader.c"
	printf 'build plthook/libtc_hookpacked.so: lldso %s\n  extra = -Wl,--pack-dyn-relocs=android\n' "$ph/caller.c"
	printf 'build plthook/libtc_hookunpacked.so: lldso %s\n  extra = -Wl,--pack-dyn-relocs=none\n' "$ph/caller.c"
	printf 'build obj/test_plthook.o: cc %s\n  extra = -I%s\n' "$src/tests/runtime/test_plthook.c" \
		"$src/tests/runtime/minicrit"
	printf 'build test_plthook: linkdyn obj/test_plthook.o obj/minicrit.o libtcruntime.a'
	printf ' | plthook/libtc_hooktarget.so'
	for o in now late lazy relro noplt pltonly pltnow; do
		printf ' plthook/libtc_hookcaller_%s.so' "$o"
	done
	printf ' plthook/libtc_hookother.so plthook/libtc_hookloader.so plthook/libtc_hookpacked.so'
	printf ' plthook/libtc_hookunpacked.so\n  ldflags = -ldl\n'
	# the PLT-hook tracers' stand-ins for the platform's libraries, and their tests
	printf 'build plthook/libtc_fakeinput.so: so %s\n' "$ph/fake_input.c"
	printf 'build plthook/libtc_fakeruntime.so: so %s\n  extra = -D_GNU_SOURCE\n' "$ph/fake_runtime.c"
	printf 'build plthook/libart.so: so %s\n  extra = -D_GNU_SOURCE\n' "$ph/fake_runtime.c"
	for o in test_tracer_priority test_tracer_touch; do
		printf 'build obj/%s.o: cc %s\n  extra = -I%s\n' "$o" "$src/tests/runtime/$o.c" "$src/tests/runtime/minicrit"
		printf 'build %s: linkdyn obj/%s.o obj/helpers.o obj/minicrit.o libtcruntime.a' "$o" "$o"
		printf ' | plthook/libtc_fakeinput.so plthook/libtc_fakeruntime.so plthook/libart.so\n  ldflags = -ldl\n'
	done
}

fail=0
# target NAME CC CLANG_TARGET DYNAMIC_RUNNER RUNNER...: builds, then runs every test
# binary with RUNNER (if any), the dynamically linked PLT hook test with
# DYNAMIC_RUNNER (words; "-": the same as RUNNER; "none": not run, with the reason
# in $no_dynamic)
target() {
	local name=$1 cc=$2 triple=$3 dyn=$4 d=$work/$1 t rc start=$SECONDS
	shift 4
	local -a run=("$@") dynrun
	case $dyn in
	-) dynrun=("$@") ;;
	*) read -r -a dynrun <<<"$dyn" ;;
	esac
	mkdir -p "$d/plthook"
	if [ "$cc" = musl-gcc ]; then
		# musl's own ar is the host's
		ninja_file "$cc" "$triple" | sed 's/musl-ar rcs/ar rcs/' >"$d/build.ninja"
	else
		ninja_file "$cc" "$triple" >"$d/build.ninja"
	fi
	if ! ninja -C "$d" -j 2 >"$d/build.log" 2>&1; then
		echo "not ok - $name: build failed"
		sed 's/^/# /' "$d/build.log" | tail -40
		fail=1
		return
	fi
	echo "ok - $name: built ($((SECONDS - start)) s)"
	for t in $tests $dyn_tests; do
		t=$(basename "$t" .c)
		run=("$@")
		if [[ " $dyn_tests " == *" $t "* ]]; then
			if [ "$dyn" = none ]; then
				echo "ok - $name: $t # SKIP $no_dynamic"
				continue
			fi
			run=("${dynrun[@]}")
		fi
		rc=0
		(cd "$d" && TC_PLTHOOK_LIBS=$d/plthook "${run[@]}" "./$t") >"$d/$t.log" 2>&1 || rc=$?
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

# -L: the target's libc, for the dynamically linked PLT hook test
target armhf arm-linux-gnueabihf-gcc armv7a-linux-gnueabihf - qemu-arm -L /usr/arm-linux-gnueabihf
target arm64 aarch64-linux-gnu-gcc aarch64-linux-gnu - qemu-aarch64 -L /usr/aarch64-linux-gnu
# 32-bit x86 runs on the real CPU where this kernel can run it (with the cross libc's
# loader for the dynamically linked test): Debian's qemu-i386 (7.2) hangs in the forked
# child of a dynamically linked program, and reports SIGQUIT unblocked where the kernel
# keeps it blocked (test_tracer_signal). Elsewhere the static tests run under qemu-i386.
no_dynamic=
printf 'int main(void) { return 0; }\n' >"$work/i686-probe.c"
if i686-linux-gnu-gcc -static "$work/i686-probe.c" -o "$work/i686-probe" && "$work/i686-probe" 2>/dev/null; then
	target i686 i686-linux-gnu-gcc i686-linux-gnu \
		"/usr/i686-linux-gnu/lib/ld-linux.so.2 --library-path /usr/i686-linux-gnu/lib"
else
	no_dynamic="this kernel runs no 32-bit x86 program, and qemu-i386 hangs in test_plthook's forked children"
	target i686 i686-linux-gnu-gcc i686-linux-gnu none qemu-i386
fi
target musl musl-gcc x86_64-linux-musl -

# The meson side of the Android build (runtime/cross/android.ini): host system android,
# whose sysroot has <jni.h>. Without an NDK, the Debian aarch64 compiler and the JDK's
# portable jni.h stand in: the JNI library and the jar must build, warnings as errors.
need_cmd meson meson
start=$SECONDS
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
