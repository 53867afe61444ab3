#!/usr/bin/env bash
# The README's main story as a test: build, instrument and run the sample app with the
# runtime, then check its reports (check_sample.py).
# usage: sample_app.sh BUILD_DIR OUT SOURCE_ROOT
set -euo pipefail
build=$1 out=$2 src=$3
bash "$src/samples/app/run.sh" "$build" "$out" >"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
python3 "$src/tests/samples/check_sample.py" "$out"
