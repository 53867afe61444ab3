#!/bin/sh
# Obfuscated code: ProGuard 6 with -repackageclasses '' (fixtures.sh). Instrumented
# with --proguard-mapping, the mapping files must name the original classes, methods
# and types; the traced set must be what the unobfuscated program traces; block-list
# rules in original names must apply to the obfuscated classes.
. "$(dirname "$0")/lib.sh"
need_fixtures
[ -f "$FIXTURES/shop-obf.jar" ] || need_missing "ProGuard (/usr/share/java/proguard.jar)" proguard-cli

pg=$FIXTURES/shop-mapping.txt
check "ProGuard moved the classes into the default package" grep -q '^com\.example\.shop\.Cart -> [a-z]*:$' "$pg"

# The original program's own methods, from javap on its classes: "cls name desc".
unjar "$FIXTURES/shop.jar" "$T/orig"
"$PYTHON" - "$JAVAP" "$T/orig" >"$T/orig.methods" <<'EOF'
import os, re, subprocess, sys
javap, root = sys.argv[1], sys.argv[2]
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".class"))
out = subprocess.run([javap, "-p", "-s"] + files, capture_output=True, text=True, check=True).stdout
cls = None
name = None
for line in out.splitlines():
    m = re.match(r"^(?:[\w ]*?)(?:class|interface|enum) ([\w.$]+)", line)
    if m:
        cls = m.group(1)
        continue
    m = re.match(r"^  .*?([\w$.<>]+)\(.*\);$", line)
    if m:
        name = "<init>" if m.group(1) == cls else m.group(1)
        continue
    m = re.match(r"^    descriptor: (\S+)$", line)
    if m and name:
        print("%s %s %s" % (cls, name, m.group(1).replace("/", ".")))
        name = None
EOF
check "javap listed the original methods" grep -q '^com\.example\.shop\.Cart add (Lcom\.example\.shop\.Item;I)V$' "$T/orig.methods"

# The unobfuscated program as the reference.
tci --quiet --mapping-dir "$T/plain/map" --in "$FIXTURES/shop.jar" --out "$T/plain/out.jar"
expect_rc "the original program" 0
sed 's/^[0-9]*,[0-9]*,//' "$T/plain/map/methodMapping.txt" | LC_ALL=C sort >"$T/plain.traced"

# The obfuscated program with the mapping.
tci --quiet --mapping-dir "$T/obf/map" --proguard-mapping "$pg" --in "$FIXTURES/shop-obf.jar" --out "$T/obf/out.jar"
expect_rc "the obfuscated program with --proguard-mapping" 0
sed 's/^[0-9]*,[0-9]*,//' "$T/obf/map/methodMapping.txt" | LC_ALL=C sort >"$T/obf.traced"
tail -n +2 "$T/obf/map/ignoreMethodMapping.txt" | LC_ALL=C sort >"$T/obf.ignored"
check "ignoreMethodMapping.txt starts with its header" test "$(head -n 1 "$T/obf/map/ignoreMethodMapping.txt")" = "ignore methods:"

# Every name in both files is an original method of the program.
grep -v '^android\.os\.Handler ' "$T/obf.traced" | LC_ALL=C sort >"$T/obf.names"
cat "$T/obf.ignored" >>"$T/obf.names"
LC_ALL=C sort -o "$T/orig.methods" "$T/orig.methods"
check "every traced or ignored name is an original method (class, name and descriptor)" \
    sh -c "LC_ALL=C comm -23 '$(LC_ALL=C sort "$T/obf.names" >"$T/obf.names.s"; echo "$T/obf.names.s")' '$T/orig.methods' | sed 's/^/not an original method: /' | grep . && exit 1 || exit 0"
check "the same methods are traced as in the unobfuscated program" cmp "$T/plain.traced" "$T/obf.traced"
for key in "com.example.shop.Cart add (Lcom.example.shop.Item;)V" \
           "com.example.shop.Cart add (Lcom.example.shop.Item;I)V" \
           "com.example.shop.Cart asArray ([[Lcom.example.shop.Item;J)[Lcom.example.shop.Item;" \
           "com.example.shop.Secret\$Inner tell ()V" "com.example.shop.Main main ([Ljava.lang.String;)V"; do
    check "traced under its original name: $key" has_line "$T/obf.traced" "$key"
done
check "no obfuscated class name in the mapping files" sh -c "! grep -E '^(android\\.os\\.Handler |com\\.example\\.shop\\.)' -v '$T/obf.traced' '$T/obf.ignored' | grep ."

# The instrumented obfuscated jar carries the ids of the mapping, keyed by original
# names: javap sees obfuscated names, so translate through ProGuard's mapping.
unjar "$T/obf/out.jar" "$T/obfx"
"$PYTHON" - "$pg" "$T/obf/map/methodMapping.txt" >"$T/obf-keys.txt" <<'EOF'
# methodMapping.txt rewritten to obfuscated names, with ProGuard's own mapping.txt.
import re, sys
prims = {"int": "I", "boolean": "Z", "byte": "B", "char": "C", "short": "S", "long": "J",
         "float": "F", "double": "D", "void": "V"}
cls_obf, meth_obf, cur = {}, {}, None
lines = open(sys.argv[1]).read().splitlines()
for line in lines:
    m = re.match(r"^(\S+) -> (\S+):$", line)
    if m:
        cur = m.group(1)
        cls_obf[cur] = m.group(2)
def desc(t):
    dims = t.count("[]")
    t = t.replace("[]", "")
    return "[" * dims + (prims[t] if t in prims else "L" + t + ";")
def obf_desc(d):
    return re.sub(r"L([^;]+);", lambda m: "L" + cls_obf.get(m.group(1), m.group(1)) + ";", d)
for line in lines:
    m = re.match(r"^(\S+) -> (\S+):$", line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r"^\s+(?:\d+:\d+:)?(\S+) ([\w$<>]+)\((.*?)\)(?::\d+)*(?::\d+)? -> (\S+)$", line)
    if m:
        ret, name, args, obf = m.groups()
        d = "(" + "".join(desc(a) for a in args.split(",") if a) + ")" + desc(ret)
        meth_obf[(cur, name, d)] = obf
for line in open(sys.argv[2]):
    i, acc, key = line.rstrip("\n").split(",", 2)
    c, n, d = key.split(" ")
    if c.startswith("android."):
        print(line.rstrip("\n"))
        continue
    o = meth_obf.get((c, n, d), n)
    print("%s,%s,%s %s %s" % (i, acc, cls_obf.get(c, c), o, obf_desc(d)))
EOF
check "the obfuscated classes carry the mapping's ids (javap, names via ProGuard's mapping)" \
    beat_check "$T/obf-keys.txt" $(find "$T/obfx" -name '*.class')
check "the instrumented obfuscated jar verifies" verify "$T/obf/out.jar"

# Block-list rules in original names: -keepclass of an obfuscated class and its nested
# class, -keepregex over original method names and types.
cat >"$T/block.txt" <<'EOF'
-keepclass com.example.shop.Secret
-keepregex com\.example\.shop\.Cart\.add\(Lcom\.example\.shop\.Item;I\)V
EOF
tci --quiet --mapping-dir "$T/blk/map" --proguard-mapping "$pg" --blocklist "$T/block.txt" \
    --in "$FIXTURES/shop-obf.jar" --out "$T/blk/out.jar"
expect_rc "the obfuscated program with a block list in original names" 0
check "-keepclass Secret: hide is ignored" has_line "$T/blk/map/ignoreMethodMapping.txt" "com.example.shop.Secret hide (I)V"
check "-keepclass Secret: nested Secret\$Inner.tell is ignored" has_line "$T/blk/map/ignoreMethodMapping.txt" "com.example.shop.Secret\$Inner tell ()V"
check "-keepclass Secret: not traced" sh -c "! grep -q 'com\\.example\\.shop\\.Secret' '$T/blk/map/methodMapping.txt'"
check "-keepregex over original names: add(Item,int) is ignored" has_line "$T/blk/map/ignoreMethodMapping.txt" "com.example.shop.Cart add (Lcom.example.shop.Item;I)V"
check "-keepregex: add(Item) still traced" grep -q ',com\.example\.shop\.Cart add (Lcom\.example\.shop\.Item;)V$' "$T/blk/map/methodMapping.txt"
unjar "$T/blk/out.jar" "$T/blkx"
unjar "$FIXTURES/shop-obf.jar" "$T/obfin"
secret=$(sed -n 's/^com\.example\.shop\.Secret -> \(.*\):$/\1/p' "$pg")
inner=$(sed -n 's/^com\.example\.shop\.Secret\$Inner -> \(.*\):$/\1/p' "$pg")
check "the blocked class ($secret.class) is copied byte for byte" same_file "$T/obfin/$secret.class" "$T/blkx/$secret.class"
check "its nested class ($inner.class) too" same_file "$T/obfin/$inner.class" "$T/blkx/$inner.class"
finish
