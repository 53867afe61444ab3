#!/bin/sh
# Method ids: the Matrix-equivalent transform (bench/peers MatrixTransform, ASM) as the
# oracle of the traced and ignored sets; dense ids from 1 in input order; identical
# outputs for any thread count and across runs; --base-mapping; mapping stability
# across a changed build and `tc-instrument diff`.
. "$(dirname "$0")/lib.sh"
need_fixtures

J=${JAVA_LIB_DIR:-/usr/share/java}
ASM=$J/asm.jar:$J/asm-tree.jar:$J/asm-commons.jar:$J/asm-util.jar:$J/asm-analysis.jar
app=$FIXTURES/app1

# --- the traced and ignored sets are Matrix's; for one jar, even the ids are ---
tci --quiet --mapping-dir "$T/jar/map" --in "$FIXTURES/app1.jar" --out "$T/jar/out.jar"
expect_rc "app1.jar" 0
check "the instrumented jar verifies" verify "$T/jar/out.jar"
unjar "$T/jar/out.jar" "$T/jarx"
check "ids in the code match the mapping" beat_check "$T/jar/map/methodMapping.txt" $(find "$T/jarx" -name '*.class')
if [ -f "$J/asm-commons.jar" ] && unzip -l "$FIXTURES/peers/peers.jar" MatrixTransform.class >/dev/null 2>&1; then
    "$JAVA" -cp "$FIXTURES/peers/peers.jar:$ASM" MatrixTransform --quiet --mapping-dir "$T/matrix" \
        --in "$FIXTURES/app1.jar" --out "$T/matrix.jar" >"$T/matrix.log" 2>&1 ||
        not_ok "MatrixTransform ran"
    check "one jar: methodMapping.txt is Matrix's, line for line" cmp "$T/matrix/methodMapping.txt" "$T/jar/map/methodMapping.txt"
    LC_ALL=C sort "$T/matrix/ignoreMethodMapping.txt" >"$T/matrix.ignored"
    LC_ALL=C sort "$T/jar/map/ignoreMethodMapping.txt" >"$T/jar.ignored"
    check "one jar: the ignored set is Matrix's" cmp "$T/matrix.ignored" "$T/jar.ignored"
else
    need_optional "the ASM jars or MatrixTransform (the Matrix comparison)" libasm-java
fi
check "ignore list sorted by class name" "$PYTHON" -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "ignore methods:", lines[0]
names = [l.split(" ")[0] for l in lines[1:]]
assert names == sorted(names), names' "$T/jar/map/ignoreMethodMapping.txt"

# --- a directory: dense ids from 1, in byte order of the paths, then method order ---
tci --quiet --mapping-dir "$T/dir/map" --in "$app" --out "$T/dir/out"
expect_rc "app1 directory" 0
check "directory: ids dense from 1 in path order, then method order" "$PYTHON" - "$T/dir/map/methodMapping.txt" "$app" "$CLI_DIR" <<'EOF'
import os, subprocess, sys
mapping, root, cli = sys.argv[1:4]
rows = [l.rstrip("\n").split(",", 2) for l in open(mapping)]
assert rows[-1] == ["1048574", "1", "android.os.Handler dispatchMessage (Landroid.os.Message;)V"], rows[-1]
rows = rows[:-1]
ids = [int(r[0]) for r in rows]
assert ids == list(range(1, len(ids) + 1)), ids
traced = {r[2] for r in rows}
paths = sorted((os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs),
               key=lambda p: p.encode())
want = []
for p in paths:
    cls = p[:-len(".class")].replace("/", ".")
    out = subprocess.run([sys.executable, os.path.join(cli, "classinfo.py"), "methods",
                          os.path.join(root, p)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, desc, _ = line.split(" ")
        key = "%s %s %s" % (cls, name, desc.replace("/", "."))
        if key in traced:
            want.append(key)
got = [r[2] for r in rows]
assert got == want, "\n".join(["got:"] + got + ["want:"] + want)
EOF
check "directory: the output round-trips through tc-dump --roundtrip" "$TC_DUMP" --roundtrip --quiet "$T/dir/out"
check "directory: the same methods as the jar" sh -c "cut -d, -f3- '$T/dir/map/methodMapping.txt' | sort >'$T/d.k'; cut -d, -f3- '$T/jar/map/methodMapping.txt' | sort >'$T/j.k'; cmp '$T/d.k' '$T/j.k'"
check "directory: R, R\$string and BuildConfig copied byte for byte" sh -c "cmp '$app/com/example/app/R.class' '$T/dir/out/com/example/app/R.class' && cmp '$app/com/example/app/R\$string.class' '$T/dir/out/com/example/app/R\$string.class' && cmp '$app/com/example/app/BuildConfig.class' '$T/dir/out/com/example/app/BuildConfig.class'"
check "directory: R and BuildConfig are in no mapping file" sh -c "! grep -h -E 'app\\.(R|R\\\$string|BuildConfig) ' '$T/dir/map/methodMapping.txt' '$T/dir/map/ignoreMethodMapping.txt'"
check "directory: abstract Shape and interface Api are in no mapping file" sh -c "! grep -h -E 'app\\.(Shape|Api) ' '$T/dir/map/methodMapping.txt' '$T/dir/map/ignoreMethodMapping.txt'"

# --- several inputs: ids follow the order of the --in options ---
tci --quiet --mapping-dir "$T/two/map" --in "$FIXTURES/mr.jar" --out "$T/two/mr.jar" --in "$app" --out "$T/two/app"
expect_rc "two inputs" 0
check "two inputs: the first input's methods get the first ids" sh -c "head -n 4 '$T/two/map/methodMapping.txt' | cut -d, -f3 | cut -d' ' -f1 | grep -vq '^mr\\.' && exit 1; head -n 4 '$T/two/map/methodMapping.txt' | grep -c ',mr\\.' | grep -qx 4"

# --- any thread count, any run: byte-identical outputs and mappings ---
for t in 1 2 8 1; do
    n=$((n + 1))
    tci --quiet --threads $t --mapping-dir "$T/t$n/map" --in "$app" --out "$T/t$n/dir" \
        --in "$FIXTURES/meta.jar" --out "$T/t$n/meta.jar" --in "$FIXTURES/mr.jar" --out "$T/t$n/mr.jar"
    expect_rc "--threads $t" 0
done 2>/dev/null
for n in 2 3 4; do
    check "run $n: directory output identical to run 1" diff -r "$T/t1/dir" "$T/t$n/dir"
    check "run $n: jar outputs identical to run 1" sh -c "cmp '$T/t1/meta.jar' '$T/t$n/meta.jar' && cmp '$T/t1/mr.jar' '$T/t$n/mr.jar'"
    check "run $n: methodMapping.txt identical" cmp "$T/t1/map/methodMapping.txt" "$T/t$n/map/methodMapping.txt"
    check "run $n: ignoreMethodMapping.txt identical" cmp "$T/t1/map/ignoreMethodMapping.txt" "$T/t$n/map/ignoreMethodMapping.txt"
done
check "-j4 is --threads 4" sh -c "'$TC_INSTRUMENT' --no-runtime-check --quiet -j4 --mapping-dir '$T/j4/map' --in '$app' --out '$T/j4/dir' && cmp '$T/j4/map/methodMapping.txt' '$T/dir/map/methodMapping.txt'"

# --- --base-mapping: known methods keep their ids, new ones follow the largest ---
"$PYTHON" - "$T/dir/map/methodMapping.txt" "$T/base.txt" <<'EOF'
import sys
rows = [l.rstrip("\n").split(",", 2) for l in open(sys.argv[1]) if not l.startswith("1048574,")]
with open(sys.argv[2], "w") as f:
    f.write("# an earlier build, edited: ids moved, one method missing, one that is gone\n")
    for k, (i, acc, key) in enumerate(rows):
        if k == 2:
            continue                       # this one is "new" now
        f.write("%d,%s,%s\n" % (1000 - 7 * k, acc, key))
    f.write("700,1,com.example.app.Gone gone ()V\n")
    f.write("1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n")
EOF
tci --quiet --base-mapping "$T/base.txt" --mapping-dir "$T/based/map" --in "$app" --out "$T/based/out"
expect_rc "--base-mapping" 0
check "--base-mapping: known methods keep their ids, the new one gets largest + 1" "$PYTHON" - "$T/base.txt" "$T/based/map/methodMapping.txt" "$T/dir/map/methodMapping.txt" <<'EOF'
import sys
def load(p):
    return {l.split(",", 2)[2].rstrip("\n"): int(l.split(",")[0]) for l in open(p) if l[0].isdigit()}
base, got, plain = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
biggest = max(i for i in base.values() if i != 1048574)
assert biggest == 1000, biggest
for key in plain:
    if key in base:
        assert got[key] == base[key], (key, got[key], base[key])
new = [k for k in plain if k not in base]
assert len(new) == 1, new
assert got[new[0]] == biggest + 1, (new, got[new[0]])
assert set(got) - {"android.os.Handler dispatchMessage (Landroid.os.Message;)V"} == set(plain) - {"android.os.Handler dispatchMessage (Landroid.os.Message;)V"}, set(got) ^ set(plain)
ids = [int(l.split(",")[0]) for l in open(sys.argv[2])]
assert ids == sorted(ids), "methodMapping.txt not sorted by id"
EOF
check "--base-mapping: ids in the code" beat_check "$T/based/map/methodMapping.txt" $(find "$T/based/out" -name '*.class')

# --- mapping stability: change one class, instrument again with the first mapping ---
tci --quiet --base-mapping "$T/dir/map/methodMapping.txt" --mapping-dir "$T/v2/map" --in "$FIXTURES/app2" --out "$T/v2/out"
expect_rc "app v2 with v1's mapping as base" 0
tci diff "$T/dir/map/methodMapping.txt" "$T/v2/map/methodMapping.txt"
expect_rc "diff v1 v2: no id changed" 0
cp "$OUT" "$T/diff.out"
max=$(grep -v '^1048574,' "$T/dir/map/methodMapping.txt" | cut -d, -f1 | sort -n | tail -n 1)
check "diff v1 v2: the new method is added with id $((max + 1))" grep -qx "added $((max + 1)) com.example.app.Util sum (\[I)I" "$T/diff.out"
check "diff v1 v2: nothing changed or removed" sh -c "! grep -E '^(changed|removed) ' '$T/diff.out'"
check "diff v1 v2: summary" grep -qE "^[0-9]+ unchanged, 0 changed, 1 added, 0 removed$" "$T/diff.out"
check "v2: ids in the code" beat_check "$T/v2/map/methodMapping.txt" $(find "$T/v2/out" -name '*.class')
check "v2: verifies" verify "$T/v2/out"

# Without the base mapping, the new method shifts later ids: diff must say so.
tci --quiet --mapping-dir "$T/v2plain/map" --in "$FIXTURES/app2" --out "$T/v2plain/out"
tci diff "$T/dir/map/methodMapping.txt" "$T/v2plain/map/methodMapping.txt"
expect_rc "diff v1 v2-without-base: ids changed" 1
# sum() comes before the lambda of adder() in Util: the lambda moves from the last id.
check "diff lists the shifted id" grep -qxF "changed $max -> $((max + 1)) com.example.app.Util lambda\$adder\$0 (ILjava.lang.Integer;)Ljava.lang.Integer;" "$OUT"

# A deliberately edited mapping.
sed 's/^\([0-9]*\),\(.*Main area ()D\)$/4242,\2/' "$T/v2/map/methodMapping.txt" >"$T/edited.txt"
check "the edit changed one line" test "$(diff "$T/v2/map/methodMapping.txt" "$T/edited.txt" | grep -c '^>')" -eq 1
tci diff "$T/v2/map/methodMapping.txt" "$T/edited.txt"
expect_rc "diff against an edited mapping" 1
check "diff names the changed method and both ids" grep -qE "^changed [0-9]+ -> 4242 com\.example\.app\.Main area \(\)D$" "$OUT"
check "diff summary counts 1 changed" grep -qE "^[0-9]+ unchanged, 1 changed, 0 added, 0 removed$" "$OUT"
grep -v ' join ' "$T/v2/map/methodMapping.txt" >"$T/removed.txt"
tci diff "$T/v2/map/methodMapping.txt" "$T/removed.txt"
expect_rc "diff with a removed method only" 0
check "diff lists the removed method" grep -qE "^removed [0-9]+ com\.example\.app\.Util join \(Ljava\.util\.List;\)Ljava\.lang\.String;$" "$OUT"
printf 'garbage line\n' >"$T/garbage.txt"
tci diff "$T/v2/map/methodMapping.txt" "$T/garbage.txt"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then ok "diff with a malformed mapping fails (exit $rc)"; else not_ok "diff with a malformed mapping: exit $rc"; fi
stderr_has "diff with a malformed mapping: names the line" "line 1"
finish
