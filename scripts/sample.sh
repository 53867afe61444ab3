#!/usr/bin/env bash
# The first run: installs what is missing, builds tracecanary, then builds the sample
# app with javac, instruments it with tc-instrument, runs it on the JVM with the
# runtime, prints its reports with decoded stacks, and writes a Chrome/Perfetto trace
# and a flame graph. Everything lands in sample-out/.
#
# usage: scripts/sample.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh sample
if [ -f build/build.ninja ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build >/dev/null
fi
ninja -C build >/dev/null
out=sample-out
samples/app/run.sh build "$out"
