#!/bin/sh
# Builds the fixtures of the cli suite into OUT_DIR, then touches STAMP:
#
#   fixtures.sh OUT_DIR STAMP DATA_DIR PEERS_BUILD_SH
#
#   app1/ app2/     tests/data/compiler/app, v2 with one method added (javac 17)
#   rel/rN/         tests/data/compiler/releases{,8} with --release N, N = 7..17
#   v/NN/           rel/r17's Hello.class with the major version patched to NN
#   shop/ shop.jar  a small program; shop-obf.jar + shop-mapping.txt: ProGuard 6
#                   with -repackageclasses '' (tests/data/compiler/shop.pro)
#   mr.jar module.jar meta.jar app1.jar malformed.jar corrupt/ big/ pool/ runtime/
#                   made by classgen.py (see there)
#   peers/peers.jar bench/peers (VerifyAll)
#   cache/          cache.sh's inputs from tests/data/compiler/cache (--release 8): base.jar,
#                   app.jar, extra.jar, dir/, dir-edited/ (one class edited),
#                   base-activity.jar (Base extends android.app.Activity, from stub/)
#
# Environment: JAVA, JAVAC (for the peers), JAR, PYTHON, PROGUARD_JAR. Nothing is
# built when java is missing: the stamp then says "missing", and the tests skip.
set -eu
out=$1
stamp=$2
data=$3
peers_sh=$4
here=$(cd "$(dirname "$0")" && pwd)
JAVA=${JAVA:-java}
PYTHON=${PYTHON:-python3}
PROGUARD_JAR=${PROGUARD_JAR:-/usr/share/java/proguard.jar}

if ! command -v "$JAVA" >/dev/null 2>&1; then
    echo "missing: java (default-jdk-headless)" >"$stamp"
    exit 0
fi
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "missing: python3 (python3)" >"$stamp"
    exit 0
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
"$JAVA" "$here/Fixtures.java" "$data" "$out.tmp"
"$PYTHON" "$here/classgen.py" "$out.tmp"
(cd "$out.tmp/shop" && "$PYTHON" -c '
import os, sys, zipfile
with zipfile.ZipFile("../shop.jar", "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in sorted(os.walk(".")):
        for f in sorted(files):
            p = os.path.relpath(os.path.join(root, f), ".")
            z.write(p, p)
')
if [ -f "$PROGUARD_JAR" ]; then
    "$JAVA" -jar "$PROGUARD_JAR" @"$data/shop.pro" \
        -injars "$out.tmp/shop.jar" -outjars "$out.tmp/shop-obf.jar" \
        -libraryjars "$out.tmp/rt57.jar" -printmapping "$out.tmp/shop-mapping.txt" \
        >"$out.tmp/proguard.log" 2>&1 || { cat "$out.tmp/proguard.log" >&2; exit 1; }
fi
mkdir -p "$out.tmp/peers"
if ! sh "$peers_sh" "$out.tmp/peers" >"$out.tmp/peers.log" 2>&1; then
    # Without ASM the peers do not build; VerifyAll alone needs only the JDK
    # (MatrixTransform is then missing and ids.sh skips that comparison).
    mkdir -p "$out.tmp/peers/classes"
    "${JAVAC:-javac}" --release 17 -d "$out.tmp/peers/classes" "$(dirname "$peers_sh")/VerifyAll.java"
    "${JAR:-jar}" --create --file "$out.tmp/peers/peers.jar" -C "$out.tmp/peers/classes" .
fi
rm -rf "$out"
mv "$out.tmp" "$out"
echo "ok" >"$stamp"
