#!/bin/sh
# JVM limits: a method too close to the 64 KB code limit to take the calls is left
# unchanged and reported while the rest of its class is instrumented; a class whose
# constant pool is full (65,535) is copied unchanged and reported. Inputs from
# classgen.py; everything verifies on HotSpot.
. "$(dirname "$0")/lib.sh"
need_fixtures

info() { "$PYTHON" "$CLI_DIR/classinfo.py" "$@"; }
differ_code() { [ "$(info code "$1" "$3" '()V')" != "$(info code "$2" "$3" '()V')" ]; }

check "fixture: huge is 65,530 bytes of code" sh -c "'$PYTHON' '$CLI_DIR/classinfo.py' methods '$FIXTURES/big/p/Big.class' | grep -qx 'huge ()V 65530'"
check "fixture: the input verifies" verify "$FIXTURES/big"

tci --mapping-dir "$T/big/map" --in "$FIXTURES/big" --out "$T/big/out"
expect_rc "a class with a 65,530-byte method" 0
in=$FIXTURES/big/p/Big.class
out=$T/big/out/p/Big.class
check "huge: Code attribute byte for byte unchanged" test "$(info code "$in" huge '()V')" = "$(info code "$out" huge '()V')"
check "small: instrumented" differ_code "$in" "$out" small
check "fits (65,400 bytes): instrumented" differ_code "$in" "$out" fits
check "fits: still below the limit" sh -c "'$PYTHON' '$CLI_DIR/classinfo.py' methods '$out' | awk '\$1 == \"fits\" { exit !(\$3 < 65536) }'"
check "ids in the code match the mapping (huge without calls)" \
    beat_check --unchanged "p.Big huge ()V" "$T/big/map/methodMapping.txt" "$out"
check "the instrumented class verifies" verify "$T/big/out"
stats=$T/big/map/instrument-stats.json
check "reported: the problem names Big.class and huge" \
    "$PYTHON" -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(not any(p["file"].endswith("/p/Big.class") and "huge" in p["problem"] for p in j["problems"]))' "$stats"
check "reported: exactly one problem" test "$(json "$stats" 'len(j["problems"])')" = 1
check "stats: one method skipped" test "$(json "$stats" 'j["methods"]["skipped"]')" = 1
check "stats: two methods instrumented" test "$(json "$stats" 'j["methods"]["instrumented"]')" = 2
check "summary line: 1 not instrumented" grep -q '1 not instrumented' "$ERR"

check "fixture: Full.class has 65,535 pool entries" test "$(info pool "$FIXTURES/pool/p/Full.class")" = 65535
check "fixture: pool classes verify" verify "$FIXTURES/pool"
tci --mapping-dir "$T/pool/map" --in "$FIXTURES/pool" --out "$T/pool/out"
expect_rc "a class with a full constant pool" 0
check "Full.class copied byte for byte" same_file "$FIXTURES/pool/p/Full.class" "$T/pool/out/p/Full.class"
check "Roomy.class (60,000 entries) instrumented" differ "$FIXTURES/pool/p/Roomy.class" "$T/pool/out/p/Roomy.class"
check "Roomy.class: pool still within the u2 count" test "$(info pool "$T/pool/out/p/Roomy.class")" -le 65535
stats=$T/pool/map/instrument-stats.json
check "reported: the problem names Full.class" \
    "$PYTHON" -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(not any(p["file"].endswith("/p/Full.class") for p in j["problems"]))' "$stats"
check "reported: nothing about Roomy.class" \
    "$PYTHON" -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(any("Roomy" in p["file"] for p in j["problems"]))' "$stats"
check "ids in the code match the mapping (Full unchanged)" \
    beat_check --unchanged "p.Full run ()V" "$T/pool/map/methodMapping.txt" "$T/pool/out/p/Full.class" "$T/pool/out/p/Roomy.class"
check "the outputs verify" verify "$T/pool/out"
finish
