#!/usr/bin/env bash
# Custom target of the dex tests: a real corpus (tests/dex/corpus.sh, or the SCRIPT
# given: corpus_more.sh) fetched and unpacked once, before the tests that read it run in
# parallel. Without python3 or
# unzip it writes "missing: ..." into its stamp and succeeds (a plain ninja never fails
# for want of a test-only tool); the tests then skip or fail naming the package.
# usage: build_corpus.sh SOURCE_ROOT OUT STAMP [SCRIPT]
set -euo pipefail
src=$1 out=$2 stamp=$3 script=${4:-corpus.sh}
for t in python3:python3 unzip:unzip; do
	if ! command -v "${t%%:*}" >/dev/null 2>&1; then
		echo "missing: command '${t%%:*}' (${t##*:})" >"$stamp"
		exit 0
	fi
done
bash "$src/tests/dex/$script" "$out"
echo "ok" >"$stamp"
