#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test twice: a normal build with
# warnings as errors, and an AddressSanitizer + UndefinedBehaviorSanitizer build in
# which any sanitizer report fails the test that produced it.
#
# usage: scripts/test.sh [meson test arguments, e.g. --suite instrument]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test

# A sanitizer report must fail the test, not scroll by.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

setup() {
	local dir=$1
	shift
	# --reconfigure looks for the dependencies again (Criterion may be new).
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

setup build -Dwerror=true
setup build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false \
	-Dc_args=-fno-sanitize-recover=all

status=0
for dir in build build-asan; do
	echo "== $dir"
	ninja -C "$dir"
	meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || status=1
done
exit $status
