#!/bin/sh
# An input jar cut short while tc-instrument reads it (a build still writing it): a
# clear error naming the file, exit 1, no output and nothing temporary left, never a
# SIGBUS (exit 135). Ten copies of guava.jar in one run at -j1; the last one, read last,
# is cut to half its size a moment after the start: while it is listed or while its
# classes are read, whichever the machine's speed gives (a run that ends first, or cut
# before the listing, is said so and passes).
. "$(dirname "$0")/lib.sh"
need_file /usr/share/java/guava.jar libguava-java

mkdir -p "$T/in" "$T/out"
args=""
for i in 0 1 2 3 4 5 6 7 8 9; do
    cp /usr/share/java/guava.jar "$T/in/g$i.jar"
    args="$args --in $T/in/g$i.jar --out $T/out/g$i.jar"
done
half=$(($(wc -c <"$T/in/g9.jar") / 2))
# shellcheck disable=SC2086
"$TC_INSTRUMENT" --no-runtime-check -j1 --mapping-dir "$T/map" $args >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.3
truncate -s "$half" "$T/in/g9.jar"
rc=0
wait $pid || rc=$?
if [ $rc = 0 ]; then
    ok "# SKIP the run ended before the cut (a fast machine)"
elif grep -qF "$T/in/g9.jar: the file was cut short while it was read" "$ERR"; then
    expect_rc "cut while read: a clear error" 1
    check "cut while read: no output" sh -c "[ -z \"\$(ls -A '$T/out')\" ]"
    check "cut while read: no mapping file" absent "$T/map/methodMapping.txt"
    check "cut while read: nothing temporary left" no_temp_files "$T"
else
    # cut before its listing: an archive damaged when opened
    expect_rc "cut before it was listed: an error" 1
    stderr_has "cut before it was listed: the file named" "$T/in/g9.jar"
    check "cut before it was listed: nothing temporary left" no_temp_files "$T"
fi
finish
