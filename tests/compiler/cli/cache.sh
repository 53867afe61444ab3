#!/bin/sh
# The cache (--cache): after every kind of change, a run with the cache writes exactly
# what a cold run without it writes, byte for byte (outputs, mapping files, statistics
# but for times and the cache's own counters), and reuses what did not change:
#   one class edited, a jar added, a jar removed, the base mapping changed, a block-list
#   rule added, a super class changed in another jar so that a class becomes an
#   Activity, the deflate level, the beat class;
# damaged cache entries (cut, flipped, emptied, replaced) are recomputed, never used;
# two runs at once share one cache; --cache-max-mb trims it.
. "$(dirname "$0")/lib.sh"
need_fixtures
SEED_DEX=$CLI_DIR/../../dex/fuzz/seeds/shapes-api26.dex

# --- the inputs: a class directory, two jars, a dex file ------------------------------
# compiled by fixtures.sh from tests/data/compiler/cache (Fixtures.java, one JVM)
F=$FIXTURES/cache
mkdir -p "$T/in"
cp "$F/base.jar" "$F/app.jar" "$F/extra.jar" "$T/in/"
cp -r "$F/dir" "$T/in/dir"
cp "$SEED_DEX" "$T/in/shapes.dex"

INPUTS="base.jar app.jar dir shapes.dex"
EXTRA_OPTS=""
# run TAG [--cache]: instruments $INPUTS into $T/runs/TAG
run() {
    tag=$1
    shift
    o=$T/runs/$tag
    rm -rf "$o" && mkdir -p "$o"
    set -- "$@" --mapping-dir "$o/map" $EXTRA_OPTS
    for i in $INPUTS; do
        set -- "$@" --in "$T/in/$i" --out "$o/$i"
    done
    tci --quiet "$@"
    [ "$rc" = 0 ] || { not_ok "$tag: tc-instrument exit $rc"; sed 's/^/#   /' "$ERR" | head -n 10; }
}
same() { # same TAG_A TAG_B: every output, mapping and statistic
    a=$T/runs/$1 b=$T/runs/$2
    for i in $INPUTS; do
        if [ -d "$a/$i" ]; then
            diff -r "$a/$i" "$b/$i" >/dev/null || { echo "$i differs"; return 1; }
        else
            cmp -s "$a/$i" "$b/$i" || { echo "$i differs"; return 1; }
        fi
    done
    cmp -s "$a/map/methodMapping.txt" "$b/map/methodMapping.txt" || { echo "methodMapping.txt differs"; return 1; }
    cmp -s "$a/map/ignoreMethodMapping.txt" "$b/map/ignoreMethodMapping.txt" || { echo "ignore differs"; return 1; }
    run_stats "$a/map/instrument-stats.json" >"$T/sa"
    run_stats "$b/map/instrument-stats.json" >"$T/sb"
    diff "$T/sa" "$T/sb" || { echo "statistics differ"; return 1; }
}
reused() { # reused TAG: "results facts" reused per the statistics
    "$PYTHON" -c 'import json,sys; c=json.load(open(sys.argv[1]))["cache"]; print(c["results_reused"], c["facts_reused"], c["entries_damaged"])' \
        "$T/runs/$1/map/instrument-stats.json"
}
C="--cache=$T/cache"
# step NAME: a cold run and a cached run of the current inputs, compared
step() {
    run "$1-cold"
    run "$1-cached" "$C"
    check "$1: the cached run writes what the cold run writes" same "$1-cold" "$1-cached"
}

step first
set -- $(reused first-cached)
check "first: nothing to reuse yet" test "$1" = 0
run again "$C"
check "again, nothing changed: the same outputs" same first-cold again
set -- $(reused again)
check "again: all 4 results reused" test "$1" = 4

# one class edited (the directory): r.Tool's run() calls other methods
rm -rf "$T/in/dir" && cp -r "$F/dir-edited" "$T/in/dir"
step edited
set -- $(reused edited-cached)
check "edited: the 3 other inputs reused" test "$1" = 3

# a jar added, then removed (ids of later inputs move: their results are recomputed)
INPUTS="base.jar extra.jar app.jar dir shapes.dex"
step added
INPUTS="base.jar app.jar dir shapes.dex"
step removed
set -- $(reused removed-cached)
check "removed: back to known inputs, all reused" test "$1" = 4

# the base mapping changed: ids move
"$PYTHON" - "$T/runs/removed-cold/map/methodMapping.txt" "$T/base.txt" <<'EOF'
import sys
rows = [l.rstrip("\n").split(",", 2) for l in open(sys.argv[1])][:-1]
with open(sys.argv[2], "w") as f:
    for i, (ident, acc, key) in enumerate(reversed(rows)):
        f.write("%d,%s,%s\n" % (100 + i, acc, key))
EOF
EXTRA_OPTS="--base-mapping $T/base.txt"
step base-mapping
EXTRA_OPTS=""

# a block-list rule added
printf -- '-keepclass q.Screen\n' >"$T/block.txt"
EXTRA_OPTS="--blocklist $T/block.txt"
step blocklist
EXTRA_OPTS=""

# a super class changed in another jar: Screen becomes an Activity through Base
cp "$F/base-activity.jar" "$T/in/base.jar"
step activity
check "activity: Base and Screen got an onWindowFocusChanged" "$PYTHON" -c '
import json, sys
c = json.load(open(sys.argv[1]))["classes"]
assert (c["activities"], c["focus_method_added"]) == (2, 2), c' "$T/runs/activity-cached/map/instrument-stats.json"
set -- $(reused activity-cached)
check "activity: app.jar did not change, its facts were reused, its result was not (results $1, facts $2)" \
    test "$1" = 2 -a "$2" = 3

# the tool's options
EXTRA_OPTS="--deflate-level 9"
step deflate
EXTRA_OPTS="--beat-class x.y.Beat"
step beat
EXTRA_OPTS=""

# --- damaged entries -------------------------------------------------------------------
run warm "$C"
n=0
for f in $(ls "$T/cache" | sort); do
    p=$T/cache/$f
    case $((n % 4)) in
    0) head -c 100 "$p" >"$p.x" && mv "$p.x" "$p" ;;                       # cut
    1) "$PYTHON" -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[len(b)//2]^=1; open(sys.argv[1],"wb").write(b)' "$p" ;;
    2) : >"$p" ;;                                                           # emptied
    3) head -c 5000 /dev/urandom >"$p" ;;                                   # replaced
    esac
    n=$((n + 1))
done
run damaged "$C"
check "damaged entries: the same outputs as a cold run" same warm damaged
set -- $(reused damaged)
check "damaged entries were detected ($3) and not used" test "$3" -gt 0
run repaired "$C"
set -- $(reused repaired)
check "and rewritten: the next run reuses all 4" test "$1" = 4

# --- two runs at once on one cache ----------------------------------------------------
rm -rf "$T/cache"
(run par1 "$C") &
(run par2 "$C") &
wait
run par-cold
check "two runs at once: the first wrote what a cold run writes" same par-cold par1
check "two runs at once: the second too" same par-cold par2

# --- the bound -------------------------------------------------------------------------
run small "$C" --cache-max-mb 1
size=$(du -sk "$T/cache" | cut -f1)
check "--cache-max-mb 1: the cache is trimmed to 1 MB ($size KB)" test "$size" -le 1100
finish
