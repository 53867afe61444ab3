#!/usr/bin/env bash
# Assembles the dex fuzz target's seeds from our own smali sources (seeds-src/), one dex
# per API level, since the dex version follows it (24 -> 037, 26 -> 038, 28 -> 039).
# The seeds are committed; run this after editing a source. Needs smali (apktool).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for api in 21 26 28; do
	smali a --api "$api" -o "$here/seeds/shapes-api$api.dex" "$here/seeds-src"
done
ls -la "$here/seeds"
