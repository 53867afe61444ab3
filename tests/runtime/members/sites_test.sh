#!/usr/bin/env bash
# tc-members sites on guards/Guards.java: the SDK_INT range it gives each marker site
# (guards of every shape the runtime uses: >=, <, an early return, a mirrored compare, a
# local holding SDK_INT, a range; and what is no guard: an ||, a local stored from
# elsewhere too, a parameter), the handlers around a site (a finally is "any"), and the
# reflective lookups with the class and name they pass (the class unknown when it comes
# from getClass()) must be guards/expected.txt's.
# Environment (set by meson): TC_MEMBERS, STUBS_JAR, JAVAC, JAR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/classes"
"$JAVAC" -nowarn -source 8 -target 8 -cp "$STUBS_JAR" -d "$dir/classes" "$here/guards/Guards.java" 2>"$dir/javac.log" ||
	{ cat "$dir/javac.log"; exit 1; }
"$JAR" cf "$dir/guards.jar" -C "$dir/classes" .
"$TC_MEMBERS" sites "$dir/guards.jar" >"$dir/sites.txt"
# the marker calls (not mark's own) and the reflective lookups, as expected.txt has them
awk '$1 == "site" && $3 != "mark" && (($10 == "getRuntimeStat") || $8 ~ /^(forname|refl)/) {
	print $3, $8, $9, $10, $11, $6, $7, $12 }' "$dir/sites.txt" >"$dir/got.txt"
grep -v '^#' "$here/guards/expected.txt" >"$dir/want.txt"
if diff -u "$dir/want.txt" "$dir/got.txt"; then
	echo "ok - $(wc -l <"$dir/want.txt") sites: their guards, handlers and reflective lookups"
else
	echo "not ok - tc-members sites differs from guards/expected.txt (above: - expected, + got)"
	exit 1
fi
# and a jar that is not one
printf 'not a zip' >"$dir/bad.jar"
if "$TC_MEMBERS" sites "$dir/bad.jar" >/dev/null 2>"$dir/bad.err"; then
	echo "not ok - tc-members sites accepts a file that is no jar"
	exit 1
fi
grep -q "bad.jar" "$dir/bad.err" && echo "ok - a file that is no jar: an error naming it ($(head -c 120 "$dir/bad.err"))" ||
	{ cat "$dir/bad.err"; echo "not ok - the error names the file"; exit 1; }
# lookup: found with its access and declaring class (by descriptor, or by parameters), no
# class, and a search that leaves the jar
printf '%s\n' 'guards/Guards' 'guards/Guards none ()V' 'guards/Guards none ()' 'guards/Guards none (I)' \
	'guards/Guards nothere ()V' 'guards/Nope' 'guards/Guards hashCode ()I' >"$dir/queries.txt"
"$TC_MEMBERS" lookup "$dir/guards.jar" <"$dir/queries.txt" >"$dir/answers.txt"
# (a member in none of the jar's classes: "unresolved" while the search met a class the
# jar lacks, as Object here and in android-all; "missing" only in a jar with all of them)
printf '%s\n' 'found 48 guards/Guards -' 'found 8 guards/Guards ()V' 'found 8 guards/Guards ()V' \
	'unresolved java/lang/Object' 'unresolved java/lang/Object' 'noclass' 'unresolved java/lang/Object' \
	>"$dir/want-answers.txt"
if diff -u "$dir/want-answers.txt" "$dir/answers.txt"; then
	echo "ok - lookup: found (access, declaring class, descriptor), noclass, unresolved"
else
	echo "not ok - tc-members lookup's answers (above: - expected, + got)"
	exit 1
fi
