#!/usr/bin/env bash
# Compiles the Java programs the classfile suites run, into OUT, then touches STAMP:
#   OUT/verify    VerifyAll (bench/peers): loads and links a jar or class directory
#   OUT/modules   driver.VerifyModules (tests/instrument): the same for the JDK's modules
#   OUT/probe     tc.Probe: the calls tc-stress inserts into corpora outside the JDK
#   OUT/jdkprobe  java/lang/TcProbe: the same, to patch into java.base
#   OUT/driver    tcstress.RunJavac: runs (the edited) javac, counts TcProbe calls
# usage: build_java_tools.sh SOURCE_ROOT OUT STAMP
set -euo pipefail
root=$1 out=$2 stamp=$3
java_src=$root/tests/java
rm -rf "$out"
mkdir -p "$out"/{verify,modules,probe,jdkprobe,driver}
jc() {
	javac -nowarn -Xlint:none "$@" 2>"$out/javac.log" || { cat "$out/javac.log" >&2; exit 1; }
}
jc --release 17 -d "$out/verify" "$root/bench/peers/VerifyAll.java"
jc --release 17 -d "$out/modules" "$root/tests/instrument/java/driver/VerifyModules.java"
jc --release 8 -d "$out/probe" "$java_src/probe/tc/Probe.java"
jc --patch-module java.base="$java_src/probe-jdk" -d "$out/jdkprobe" "$java_src/probe-jdk/java/lang/TcProbe.java"
jc --release 17 -d "$out/driver" "$java_src/driver/tcstress/RunJavac.java"
touch "$stamp"
