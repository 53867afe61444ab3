#!/bin/sh
# The run memo (--cache, every output one file): an unchanged build is answered from one
# cache entry without reading a class, and still leaves exactly what a cold run leaves:
#   outputs already in place are kept (not rewritten, only touched), missing or edited
#   ones are restored, a new mapping directory gets its files; the problems of the cold
#   run are reported again; damaged run entries, outputs or mapping blobs are never used.
# And the mapping writer that compares with the file it replaces: longer, shorter and
# differing files become exactly the new mapping.
. "$(dirname "$0")/lib.sh"
need_fixtures
need_cmd javac default-jdk-headless
need_cmd jar default-jdk-headless
SEED_DEX=$CLI_DIR/../../dex/fuzz/seeds/shapes-api26.dex

src=$T/src
mkdir -p "$src/p" "$src/q"
cat >"$src/p/A.java" <<'EOF'
package p;
public class A {
    public static int f(int x) { return Math.abs(x) * 2 + g(x); }
    static int g(int x) { return Integer.bitCount(x) + String.valueOf(x).length(); }
}
EOF
cat >"$src/q/B.java" <<'EOF'
package q;
public class B {
    public static void main(String[] a) { System.out.println(p.A.f(a.length) + " " + new B().h()); }
    String h() { return toString().substring(0, 1).trim(); }
}
EOF
mkdir -p "$T/c1" "$T/c2" "$T/in"
javac -nowarn --release 8 -d "$T/c1" "$src/p/A.java" &&
    javac -nowarn --release 8 -d "$T/c2" -cp "$T/c1" "$src/q/B.java" ||
    { not_ok "javac"; finish; }
jar cf "$T/in/a.jar" -C "$T/c1" .
# b.jar also holds a class that is not one: reported as a problem, copied through
printf 'not a class file' >"$T/c2/q/Broken.class"
jar cf "$T/in/b.jar" -C "$T/c2" .
cp "$SEED_DEX" "$T/in/shapes.dex"
INPUTS="a.jar b.jar shapes.dex"

# run DIR [options]: instruments $INPUTS into DIR (kept between runs), mapping in DIR/map
run() {
    o=$1
    shift
    mkdir -p "$o"
    set -- "$@" --mapping-dir "$o/map"
    for i in $INPUTS; do
        set -- "$@" --in "$T/in/$i" --out "$o/$i"
    done
    tci "$@"
    [ "$rc" = 0 ] || { not_ok "$o: tc-instrument exit $rc"; sed 's/^/#   /' "$ERR" | head -n 10; }
    cp "$ERR" "$o.stderr"
}
field() { # field DIR KEY: the cache's KEY in DIR's statistics
    "$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["cache"][sys.argv[2]])' \
        "$1/map/instrument-stats.json" "$2"
}
same() { # same DIR_A DIR_B: every output, both mapping files, the statistics
    for i in $INPUTS map/methodMapping.txt map/ignoreMethodMapping.txt; do
        cmp "$1/$i" "$2/$i" || return 1
    done
    run_stats "$1/map/instrument-stats.json" >"$T/sa" && run_stats "$2/map/instrument-stats.json" >"$T/sb" &&
        diff "$T/sa" "$T/sb"
}
# a run's summary line without its time
summary() { sed 's/ in [0-9.]* s$//' "$1"; }
C="--cache=$T/cache"

run "$T/cold"
check "the cold run reports the broken class" grep -q 'b.jar!q/Broken.class' "$T/cold/map/instrument-stats.json"
run "$T/w" "$C"
check "first run with a cache: nothing replayed" test "$(field "$T/w" run_reused)" = False
check "first run with a cache: what a cold run writes" same "$T/cold" "$T/w"

# unchanged: answered from the run entry, outputs and mappings left in place but touched
touch -d '2001-01-01' "$T/w/a.jar" "$T/w/map/methodMapping.txt"
ls -i "$T/w/a.jar" "$T/w/b.jar" "$T/w/map/methodMapping.txt" >"$T/inodes"
run "$T/w" "$C"
check "unchanged: the run is replayed" test "$(field "$T/w" run_reused)" = True
check "unchanged: all 3 outputs were in place" test "$(field "$T/w" outputs_in_place)" = 3
check "unchanged: one cache entry read, the run's (no class, no facts)" test "$(field "$T/w" entries_read)" = 1
check "unchanged: what a cold run writes" same "$T/cold" "$T/w"
check "unchanged: the files were not replaced (same inodes)" sh -c \
    'ls -i "$1/a.jar" "$1/b.jar" "$1/map/methodMapping.txt" | cmp -s - "$2"' - "$T/w" "$T/inodes"
check "unchanged: outputs and mappings touched (newer than the inputs, for make and Gradle)" \
    test "$T/w/a.jar" -nt "$T/in/a.jar" -a "$T/w/map/methodMapping.txt" -nt "$T/in/a.jar"
summary "$T/cold.stderr" >"$T/p1"
summary "$T/w.stderr" >"$T/p2"
check "unchanged: the summary line counts what the cold run counted (the malformed class)" \
    sh -c 'grep -q "1 malformed" "$1" && cmp "$1" "$2"' - "$T/p1" "$T/p2"

# into a new directory: everything restored from the cache
run "$T/fresh" "$C"
check "new directories: replayed" test "$(field "$T/fresh" run_reused)" = True
check "new directories: what a cold run writes" same "$T/cold" "$T/fresh"

# an output edited, one removed, the mapping files longer, shorter and changed
printf 'x' >>"$T/w/a.jar"
rm "$T/w/shapes.dex"
printf '1,1,extra line\n' >>"$T/w/map/methodMapping.txt"
head -c 10 "$T/cold/map/ignoreMethodMapping.txt" >"$T/w/map/ignoreMethodMapping.txt"
run "$T/w" "$C"
check "edited outputs: replayed, with b.jar alone in place" test "$(field "$T/w" outputs_in_place)" = 1
check "edited outputs and mappings: restored to what a cold run writes" same "$T/cold" "$T/w"

# the same, without the cache: the streaming mapping writer against a longer, a shorter
# and a changed file
run "$T/nc"
printf '1,1,extra line\n' >>"$T/nc/map/methodMapping.txt"
head -c 10 "$T/cold/map/ignoreMethodMapping.txt" >"$T/nc/map/ignoreMethodMapping.txt"
run "$T/nc"
check "no cache, longer and shorter mapping files: rewritten exactly" same "$T/cold" "$T/nc"
sed -i '1s/^[0-9]*/999999/' "$T/nc/map/methodMapping.txt"
rm "$T/nc/map/ignoreMethodMapping.txt"
run "$T/nc"
check "no cache, first line changed, file missing: rewritten exactly" same "$T/cold" "$T/nc"

# one input changed: no replay, the others' results reused
printf 'class C {}\n' >"$T/C.java" && javac -nowarn --release 8 -d "$T/c1" "$T/C.java" &&
    jar cf "$T/in/a.jar" -C "$T/c1" .
run "$T/cold2"
run "$T/w" "$C"
check "a.jar changed: not replayed" test "$(field "$T/w" run_reused)" = False
check "a.jar changed: b.jar and shapes.dex reused" test "$(field "$T/w" results_reused)" = 2
check "a.jar changed: what a cold run writes" same "$T/cold2" "$T/w"

# damaged entries: every cache file cut, flipped or emptied in turn
run "$T/w" "$C"
check "a.jar changed, second time: replayed" test "$(field "$T/w" run_reused)" = True
for how in cut flip empty; do
    for f in "$T/cache"/*; do
        case $how in
        cut) head -c 50 "$f" >"$f.x" && mv "$f.x" "$f" ;;
        flip) "$PYTHON" -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[len(b)//2]^=1; open(sys.argv[1],"wb").write(b)' "$f" ;;
        empty) : >"$f" ;;
        esac
    done
    rm -rf "$T/d-$how"
    run "$T/d-$how" "$C"
    check "$how cache entries: what a cold run writes" same "$T/cold2" "$T/d-$how"
    check "$how cache entries: detected" test "$(field "$T/d-$how" entries_damaged)" -gt 0
    run "$T/d-$how" "$C"
    check "$how cache entries: rewritten, the next run is replayed" \
        test "$(field "$T/d-$how" run_reused)" = True
done

# one damaged output blob alone (the run entry intact): not used, the output recomputed
rm -rf "$T/blob"
for f in "$T/cache"/*; do
    [ "$(stat -c %s "$f")" -gt 2000 ] || continue
    "$PYTHON" -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[-100]^=1; open(sys.argv[1],"wb").write(b)' "$f"
done
run "$T/blob" "$C"
check "damaged output blobs: what a cold run writes" same "$T/cold2" "$T/blob"
finish
