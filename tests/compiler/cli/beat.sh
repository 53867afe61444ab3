#!/bin/sh
# --beat-class x.y.Beat: the beat class's package (and its sub-packages) is never
# instrumented, other packages call x/y/Beat; run on HotSpot, the instrumented program
# records exactly the calls of its traced methods (no recursion into the beat class).
. "$(dirname "$0")/lib.sh"
need_fixtures

in=$FIXTURES/beat
tci --quiet --beat-class x.y.Beat --mapping-dir "$T/map" --in "$in" --out "$T/out"
expect_rc "--beat-class x.y.Beat" 0
check "x.y.Beat copied byte for byte" same_file "$in/x/y/Beat.class" "$T/out/x/y/Beat.class"
check "x.y.z.Log (sub-package) copied byte for byte" same_file "$in/x/y/z/Log.class" "$T/out/x/y/z/Log.class"
check "Beat.i is ignored (blocked)" has_line "$T/map/ignoreMethodMapping.txt" "x.y.Beat i (I)V"
check "Log.add is ignored (blocked)" has_line "$T/map/ignoreMethodMapping.txt" "x.y.z.Log add (Ljava.lang.StringBuilder;Ljava.lang.String;)V"
check "nothing of x.y is traced" sh -c "! grep -E ',x\\.y\\.' '$T/map/methodMapping.txt'"
check "x.yz (not a sub-package) is traced" grep -q ',x\.yz\.App main (\[Ljava\.lang\.String;)V$' "$T/map/methodMapping.txt"
check "x.yz calls x/y/Beat with the mapping's ids" beat_check --beat x/y/Beat "$T/map/methodMapping.txt" "$T/out/x/yz/App.class"
check "x.yz does not call the default beat class" sh -c "! '$JAVAP' -c -p '$T/out/x/yz/App.class' | grep -q com/tencent/matrix"
check "verifies" verify "$T/out"
id() { grep ",x\\.yz\\.App $1 " "$T/map/methodMapping.txt" | cut -d, -f1; }
m=$(id main)
r=$(id run)
f=$(id fail)
want="i$m i$r i$f o$f o$r depth=1"
got=$("$JAVA" -Xshare:auto -cp "$T/out" x.yz.App 2>&1)
check "run: events \"$want\" (fail() left by its own exception gets one o)" test "$got" = "$want"
[ "$got" = "$want" ] || echo "#   got: $got"

# The default beat class's package is blocked the same way.
tci --quiet --mapping-dir "$T/map2" --in "$in" --out "$T/out2"
expect_rc "default beat class" 0
check "default beat: x.y is traced now" grep -q ',x\.y\.Beat i (I)V$' "$T/map2/methodMapping.txt"
check "default beat: calls com/tencent/matrix/trace/core/AppMethodBeat" beat_check "$T/map2/methodMapping.txt" "$T/out2/x/yz/App.class" "$T/out2/x/y/Beat.class"
finish
