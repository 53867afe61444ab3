#!/usr/bin/env bash
# The first run: installs what is missing, builds what the sample needs (tc-instrument,
# tc-trace, the runtime), then builds the sample app with javac, instruments it with
# tc-instrument, runs it on the JVM with the runtime, prints its reports with decoded
# stacks, and writes a Chrome/Perfetto trace and a flame graph. Everything lands in
# sample-out/. The build directory is `build`, configured as scripts/test.sh configures
# it (scripts/build-dirs.sh), which later builds the tests in it.
#
# usage: scripts/sample.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/build-dirs.sh
echo "== packages (scripts/deps.sh sample: installs what is missing)"
scripts/deps.sh sample
echo "== configure build/ (meson)"
setup_build build "${plain_options[@]}"
# the tools and the runtime only: the tests are scripts/test.sh's
targets=(src/tc-instrument trace/tc-trace runtime/tracecanary-runtime.jar runtime/android-stubs.jar
	runtime/libtracecanary.so)
echo "== build tc-instrument, tc-trace and the runtime (ninja -C build ${targets[*]})"
t=$SECONDS
build_quietly build "${targets[@]}"
echo "   built in $((SECONDS - t)) s"
samples/app/run.sh build sample-out
