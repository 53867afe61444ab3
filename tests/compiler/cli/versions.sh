#!/bin/sh
# Every class-file version: javac 17 with --release 7..17, hand-made 45.3 and 49.0
# classes, and a javac 17 class patched to 62..69 (Java 18..25); module-info.class; a
# multi-release jar. Instrumented code is checked against the mapping with javap (and
# tc-dump for the patched versions), verified on HotSpot where HotSpot 17 can load it.
. "$(dirname "$0")/lib.sh"
need_fixtures

# --- --release 7..17, one run over eleven inputs ---
args=""
for r in 7 8 9 10 11 12 13 14 15 16 17; do
    args="$args --in $FIXTURES/rel/r$r --out $T/rel/r$r"
done
tci --quiet --mapping-dir "$T/rel/map" $args
expect_rc "--release 7..17 in one run" 0
map=$T/rel/map/methodMapping.txt
for key in "rel.Hello <init> (I)V" "rel.Hello greet (Ljava.lang.String;)Ljava.lang.String;" \
           "rel.Hello parse (Ljava.lang.String;)I" "rel.Hello loop (J)J" "rel.Hello locked ()V" \
           "rel.Hello main ([Ljava.lang.String;)V" "rel.Hello\$Nested bump ()V" \
           "rel.Hello\$Inner last ()Ljava.lang.String;" "rel.Lambdas counter (I)Ljava.util.function.IntSupplier;"; do
    check "traced: $key" grep -qE "^[0-9]+,[0-9]+,$(printf '%s' "$key" | sed 's/[][\.$()]/\\&/g')\$" "$map"
done
check "the same method in eleven inputs has one id" test "$(grep -c ' greet ' "$map")" -eq 1
for r in 7 8 9 10 11 12 13 14 15 16 17; do
    v=$(od -An -j6 -N2 -tu1 "$T/rel/r$r/rel/Hello.class" | awk '{print $1 * 256 + $2}')
    check "--release $r: class version kept ($v)" test "$v" -eq $((r + 44))
    check "--release $r: verifies on HotSpot" verify "$T/rel/r$r"
done

check "--release 7..17: ids in the code match the mapping" beat_check "$map" $(find "$T/rel" -name '*.class')

# --- before StackMapTable: 45.3 and 49.0 ---
for v in 45 49; do
    tci --quiet --mapping-dir "$T/old$v/map" --in "$FIXTURES/old/v$v" --out "$T/old$v/out"
    expect_rc "class file $v" 0
    check "class file $v: run traced" has_line "$T/old$v/map/methodMapping.txt" "1,1,p.Old run (I)V"
    check "class file $v: ids in the code" beat_check "$T/old$v/map/methodMapping.txt" "$T/old$v/out/p/Old.class"
    check "class file $v: version kept" cmp -n 8 "$FIXTURES/old/v$v/p/Old.class" "$T/old$v/out/p/Old.class"
    check "class file $v: verifies on HotSpot" verify "$T/old$v/out"
done

# --- patched to 62..69 (Java 18..25): instrumented like 61, in one run ---
args=""
outs=""
for v in 62 63 64 65 66 67 68 69; do
    args="$args --in $FIXTURES/v/$v --out $T/v/$v"
    outs="$outs $T/v/$v/rel/Hello.class"
done
tci --quiet --mapping-dir "$T/v/map" $args
expect_rc "class file versions 62..69" 0
for v in 62 63 64 65 66 67 68 69; do
    check "version $v: kept" cmp -n 8 "$FIXTURES/v/$v/rel/Hello.class" "$T/v/$v/rel/Hello.class"
    check "version $v: instrumented (not copied)" differ "$FIXTURES/v/$v/rel/Hello.class" "$T/v/$v/rel/Hello.class"
done
check "62..69: ids in the code (tc-dump)" "$PYTHON" "$CLI_DIR/beat.py" check --tool tc-dump --dump "$TC_DUMP" "$T/v/map/methodMapping.txt" $outs
check "62..69: ids in the code (javap)" beat_check "$T/v/map/methodMapping.txt" $outs
check "62..69: tc-dump --roundtrip" "$TC_DUMP" --roundtrip --quiet $outs
check "62..69: no problem reported" test "$(json "$T/v/map/instrument-stats.json" 'len(j["problems"])')" = 0
check "62..69: eight classes instrumented" test "$(json "$T/v/map/instrument-stats.json" 'j["classes"]["instrumented"]')" = 8
# They trace what version 61 traces.
tci --quiet --mapping-dir "$T/h61/map" --in "$FIXTURES/rel/r17" --out "$T/h61/out"
grep ' rel\.Hello ' "$T/h61/map/methodMapping.txt" | sed 's/^[0-9]*,//' | sort >"$T/h61.keys"
grep ' rel\.Hello ' "$T/v/map/methodMapping.txt" | sed 's/^[0-9]*,//' | sort >"$T/h69.keys"
check "62..69 trace the same methods of Hello as 61" cmp "$T/h61.keys" "$T/h69.keys"

# --- 70 is not a version this tool knows: copied unchanged and reported ---
tci --quiet --mapping-dir "$T/v70/map" --in "$FIXTURES/v/70" --out "$T/v70/out"
expect_rc "class file version 70" 0
check "version 70: copied byte for byte" same_file "$FIXTURES/v/70/rel/Hello.class" "$T/v70/out/rel/Hello.class"
check "version 70: reported" test "$(json "$T/v70/map/instrument-stats.json" 'len(j["problems"])')" = 1

# --- module-info.class, in a directory and in a jar ---
tci --quiet --mapping-dir "$T/mod/map" --in "$FIXTURES/module" --out "$T/mod/out"
expect_rc "module directory" 0
check "module-info.class copied byte for byte" same_file "$FIXTURES/module/module-info.class" "$T/mod/out/module-info.class"
check "the module's class is traced" has_line "$T/mod/map/methodMapping.txt" "1,1,mpkg.Thing name ()Ljava.lang.String;"
check "module: ids in the code" beat_check "$T/mod/map/methodMapping.txt" "$T/mod/out/mpkg/Thing.class"
check "module: stats count one module-info" test "$(json "$T/mod/map/instrument-stats.json" 'j["classes"]["module_info"]')" = 1
tci --quiet --mapping-dir "$T/modj/map" --in "$FIXTURES/module.jar" --out "$T/modj/out.jar"
expect_rc "module jar" 0
unjar "$T/modj/out.jar" "$T/modj/x"
unjar "$FIXTURES/module.jar" "$T/modj/in"
check "module jar: module-info.class unchanged" same_file "$T/modj/in/module-info.class" "$T/modj/x/module-info.class"
check "module jar: the class after module-info is traced" has_line "$T/modj/map/methodMapping.txt" "1,1,mpkg.Thing name ()Ljava.lang.String;"
check "module jar: ids in the code" beat_check "$T/modj/map/methodMapping.txt" "$T/modj/x/mpkg/Thing.class"
check "module jar: verifies" verify "$T/modj/x"

# --- a multi-release jar: the versioned copy gets the base version's ids ---
tci --quiet --mapping-dir "$T/mr/map" --in "$FIXTURES/mr.jar" --out "$T/mr/out.jar"
expect_rc "multi-release jar" 0
cat >"$T/mr.want" <<'EOF'
1,1,mr.Api version ()Ljava.lang.String;
2,1,mr.Api work (I)I
3,9,mr.Other main ([Ljava.lang.String;)V
4,1,mr.Api only11 ()Ljava.lang.String;
1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V
EOF
check "multi-release: mapping (ids in entry order, one id per method)" cmp "$T/mr.want" "$T/mr/map/methodMapping.txt"
unjar "$T/mr/out.jar" "$T/mr/x"
check "multi-release: base classes carry the ids" beat_check "$T/mr/map/methodMapping.txt" "$T/mr/x/mr/Api.class" "$T/mr/x/mr/Other.class"
check "multi-release: versions/11 carries the same ids" beat_check "$T/mr/map/methodMapping.txt" "$T/mr/x/META-INF/versions/11/mr/Api.class"
check "multi-release: base verifies" verify "$T/mr/x"
check "multi-release: versions/11 verifies" verify "$T/mr/x/META-INF/versions/11"
unjar "$FIXTURES/mr.jar" "$T/mr/in"
check "multi-release: manifest unchanged" same_file "$T/mr/in/META-INF/MANIFEST.MF" "$T/mr/x/META-INF/MANIFEST.MF"
finish
