#!/usr/bin/env bash
# The server APK instrumented by tc-instrument, judged by every oracle of
# tests/dex/oracles/oracles.sh against its originals: dexdump, baksmali's analysis, the
# semantic diff (every original method unchanged but for the probes, which are placed
# right), enjarify + HotSpot -Xverify:all (no class that verified before fails after),
# and the behaviour programs (the same output, every i() matched by one o()). Types and
# behaviour on a sample of the one output dex above 4 MB (classes.dex, 10.8 MB): half of
# its classes, chosen by a hash of the name (oracles.sh --sample 2), the other half from
# the original; the other dex files and the other oracles whole.
# usage: oracles_apk.sh SRC CORPUS WORK TC_INSTRUMENT [CACHE]
#   CACHE  oracles.sh --cache, shared with the other oracle runs (default WORK/oracles/cache)
set -uo pipefail
src=$1 corpus=$2 work=$3 tci=$(realpath "$4") cache=${5:-$3/oracles/cache}
bash "$src/tests/dex/corpus.sh" "$corpus" || exit 1
mkdir -p "$work" && rm -rf "$work/out" "$work/map" && mkdir -p "$work/out"
"$tci" --no-runtime-check --quiet --mapping-dir "$work/map" --in "$corpus/server.apk" --out "$work/traced.apk" || exit 1
(cd "$work/out" && unzip -qo ../traced.apk 'classes*.dex') || exit 1
# the originals' translations are cached in $cache across runs
exec bash "$src/tests/dex/oracles/oracles.sh" "$corpus/server" "$work/out" "$work/oracles" --expect-probes --sample 2 \
	--behave "$src/tests/dex/oracles/behave" --resources "$corpus/server.apk" --cache "$cache"
