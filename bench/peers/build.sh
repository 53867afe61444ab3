#!/bin/sh
# Build the Java benchmark/test peers into OUTDIR/peers.jar.
#   bench/peers/build.sh OUTDIR
# Needs javac/jar (JDK 17+) and Debian's libasm-java (9.4) and libjacoco-java (0.8.6) jars in
# JAVA_LIB_DIR (default /usr/share/java). Idempotent: does nothing when peers.jar is newer than every
# source and this script; otherwise rebuilds into a temporary directory and renames atomically.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
out=$1
lib=${JAVA_LIB_DIR:-/usr/share/java}
JAVAC=${JAVAC:-javac}
JAR=${JAR:-jar}

cp=""
for j in asm asm-tree asm-commons asm-util asm-analysis org.jacoco.core; do
    if [ ! -f "$lib/$j.jar" ]; then
        echo "$0: missing $lib/$j.jar (apt-get install libasm-java libjacoco-java)" >&2
        exit 1
    fi
    cp="$cp${cp:+:}$lib/$j.jar"
done

mkdir -p "$out"
target="$out/peers.jar"

if [ -f "$target" ]; then
    stale=$(find "$here" -maxdepth 1 \( -name '*.java' -o -name build.sh \) -newer "$target" | head -n 1)
    if [ -z "$stale" ]; then
        exit 0
    fi
fi

tmp=$(mktemp -d "$out/.peers-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/classes"
"$JAVAC" --release 17 -encoding UTF-8 -Xlint:all -cp "$cp" -d "$tmp/classes" "$here"/*.java
"$JAR" --create --file "$tmp/peers.jar" -C "$tmp/classes" .
mv -f "$tmp/peers.jar" "$target"
