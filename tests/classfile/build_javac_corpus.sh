#!/usr/bin/env bash
# Compiles the Java source set of tests/java at several --release levels into OUT/rN
# (the javac corpus of the round-trip and stress tests), then touches STAMP.
#   7: src7 with -g (LocalVariableTable and -TypeTable; class version 51)
#   8: src7..8 and the generated large methods, without debug tables (52)
#  11: src7..11 with -g and -parameters (55: nestmates, indy string concatenation)
#  17: everything, with -g and the large methods (61: records, sealed, switch expressions)
# usage: build_javac_corpus.sh SOURCE_ROOT OUT STAMP
set -euo pipefail
src=$1/tests/java out=$2 stamp=$3
rm -rf "$out"
mkdir -p "$out"
sh "$src/gen_big.sh" "$out/gen"
sources() {
	find "$@" -name '*.java' | LC_ALL=C sort
}
compile() {
	local rel=$1
	shift
	mkdir -p "$out/r$rel"
	if ! javac -nowarn -Xlint:none "$@" >"$out/r$rel.log" 2>&1; then
		cat "$out/r$rel.log" >&2
		exit 1
	fi
}
compile 7 --release 7 -g -d "$out/r7" $(sources "$src/src7")
compile 8 --release 8 -g:none -d "$out/r8" $(sources "$src/src7" "$src/src8" "$out/gen")
compile 11 --release 11 -g -parameters -d "$out/r11" $(sources "$src/src7" "$src/src8" "$src/src11")
compile 17 --release 17 -g -d "$out/r17" $(sources "$src/src7" "$src/src8" "$src/src11" "$src/src17" "$out/gen")
echo "$(find "$out" -name '*.class' | wc -l) classes" > "$stamp"
