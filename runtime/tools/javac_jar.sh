#!/bin/sh
# javac_jar.sh JAVAC JAR OUT.jar CLASSPATH SOURCES...: compiles the sources
# (Java 8 bytecode) against CLASSPATH into a fresh jar. Used by meson, which
# cannot express "a directory of classes" as an output. A module-info.java
# among the sources is compiled on its own (Java 11 bytecode, which only a
# JVM loading the jar from its module path reads) around the classes.
set -eu
javac=$1 jar=$2 out=$3 cp=$4
shift 4
dir=$(mktemp -d "${out}.d.XXXXXX")
trap 'rm -rf "$dir"' EXIT
module_info=
for f in "$@"; do
  shift
  case "$f" in
  */module-info.java) module_info=$f ;;
  *) set -- "$@" "$f" ;;
  esac
done
# -source/-target 8 (not --release 8): the hot path uses sun.misc.Unsafe.
# -Xlint:-options silences "bootstrap class path not set"; the proprietary
# API warning for Unsafe cannot be silenced and is expected.
"$javac" -nowarn -Xlint:-options -source 8 -target 8 -encoding UTF-8 \
  ${cp:+-classpath "$cp"} -d "$dir" "$@" 2>"$dir.log" || { cat "$dir.log" >&2; rm -f "$dir.log"; exit 1; }
grep -v -e 'internal proprietary API' -e '^ *\^' -e 'sun.misc.Unsafe' -e '^[0-9]* warning' "$dir.log" >&2 || true
rm -f "$dir.log"
if [ -n "$module_info" ]; then
  module=$(sed -n 's/^module \([A-Za-z0-9_.]*\).*/\1/p' "$module_info")
  "$javac" -nowarn --release 11 --patch-module "$module=$dir" -d "$dir" "$module_info"
fi
rm -f "$out"
"$jar" cf "$out" -C "$dir" .
