#!/bin/sh
# Build the Java peers.
#   bench/peers/build.sh OUTDIR           OUTDIR/peers.jar: MatrixTransform, AsmRoundtrip, VerifyAll
#   bench/peers/build.sh OUTDIR jacoco    also OUTDIR/jacoco-peer.jar: JacocoInstrument
# peers.jar needs javac/jar (JDK 17+) and Debian's libasm-java (9.4), both in the `test` list
# of scripts/deps.sh; jacoco-peer.jar needs libjacoco-java (0.8.6) too, which only the
# benchmarks use (the `bench` list). Jars are looked up in JAVA_LIB_DIR (default
# /usr/share/java). Idempotent: a jar newer than its sources and this script is kept;
# otherwise it is rebuilt in a temporary directory and renamed into place.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# -eq 2 ] && [ "$2" != jacoco ]; }; then
    echo "usage: $0 OUTDIR [jacoco]" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
out=$1
lib=${JAVA_LIB_DIR:-/usr/share/java}
JAVAC=${JAVAC:-javac}
JAR=${JAR:-jar}
mkdir -p "$out"

# classpath PACKAGE JAR...: the jars, ':'-separated, or exit naming the package.
classpath() {
    pkg=$1
    shift
    cp=""
    for j in "$@"; do
        if [ ! -f "$lib/$j.jar" ]; then
            echo "$0: missing $lib/$j.jar (apt-get install $pkg, or scripts/deps.sh test)" >&2
            exit 1
        fi
        cp="$cp${cp:+:}$lib/$j.jar"
    done
    echo "$cp"
}

# build TARGET CLASSPATH SOURCE...: compile the sources into TARGET unless it is newer.
build() {
    target=$out/$1 cp=$2
    shift 2
    if [ -f "$target" ]; then
        stale=$(find "$@" "$here/build.sh" -newer "$target" | head -n 1)
        [ -n "$stale" ] || return 0
    fi
    tmp=$(mktemp -d "$out/.peers-build.XXXXXX")
    mkdir "$tmp/classes"
    "$JAVAC" --release 17 -encoding UTF-8 -Xlint:all -cp "$cp" -d "$tmp/classes" "$@"
    "$JAR" --create --file "$tmp/out.jar" -C "$tmp/classes" .
    mv -f "$tmp/out.jar" "$target"
    rm -rf "$tmp"
}

asm=$(classpath libasm-java asm asm-tree asm-commons asm-util asm-analysis)
build peers.jar "$asm" "$here/MatrixTransform.java" "$here/AsmRoundtrip.java" "$here/VerifyAll.java"
if [ $# -eq 2 ]; then
    jacoco=$(classpath libjacoco-java org.jacoco.core)
    build jacoco-peer.jar "$asm:$jacoco" "$here/JacocoInstrument.java"
fi
