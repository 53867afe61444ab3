#!/usr/bin/env bash
# tc-instrument on dex: the real APKs and jar of dex of tests/dex/corpus.sh, judged by
# tools nobody here wrote.
#  1. the server APK: the same bytes for 1 and 2 threads; zip-aligned (zipalign -c -p 4);
#     a sound zip (unzip -t, python's zipfile; also from an APK with old zipalign padding);
#     signed and verified by apksigner; every dex verified by dexdump; every entry but
#     the dex files and the old signature copied as it was; every traced method
#     instrumented; the Activities' onWindowFocusChanged calls at();
#  2. a jar of dex, a lone dex file, a directory of dex files, and dex mixed with a jar
#     of class files in one run (each with the build-id marker class in one dex, or the
#     jar, only: classes.dex of the APK in 1);
#  3. the same mapping keys whether a method is instrumented as dex or as a class file
#     (enjarify's translation of the same dex), and a base mapping of the class-file
#     build keeps every id in the dex build;
#  4. bad input: a damaged dex is copied unchanged and reported (fatal with --strict); of
#     two dex entries that cannot be read, the first one's error whatever -j.
# Every dex written is also checked by tc-dexverify (tests/dex/verify), method by method,
# and the APK's by regbound.py (no register at or past registers_size, from dexdump -d).
# usage: instrument_test.sh SRC CORPUS WORK TC_INSTRUMENT TC_DUMP TC_DEXVERIFY
set -uo pipefail
src=$1 corpus=$2 work=$3 tci=$(realpath "$4") tc_dump=$(realpath "$5") dexverify=$(realpath "$6")
. "$src/tests/lib/need.sh"
need_cmd dexdump dexdump
need_cmd zipalign zipalign
need_cmd apksigner apksigner
need_cmd keytool default-jdk-headless
need_cmd enjarify enjarify
need_cmd python3 python3
need_file /usr/share/java/guava.jar libguava-java
bash "$src/tests/dex/corpus.sh" "$corpus" || exit 1
rm -rf "$work" && mkdir -p "$work"
cd "$work" || exit 1
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

verify_dir() { # every dex under a directory passes dexdump; prints the count
	local n=0 bad=0 f
	for f in $(find "$1" -name '*.dex' | sort); do
		n=$((n + 1))
		dexdump -c "$f" >"$f.log" 2>&1 && [ "$(tail -n 1 "$f.log")" = "Checksum verified" ] ||
			{ bad=$((bad + 1)); echo "# dexdump: $f: $(tail -n 1 "$f.log")"; }
	done
	echo "$n"
	return $bad
}
stat_of() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# --- 1 ---------------------------------------------------------------------------------
"$tci" --no-runtime-check -j1 --quiet --mapping-dir m1 --in "$corpus/server.apk" --out s1.apk || not_ok "tc-instrument -j1"
"$tci" --no-runtime-check -j2 --mapping-dir m2 --in "$corpus/server.apk" --out s2.apk 2>summary.txt || not_ok "tc-instrument -j2"
check "the same APK and mappings for 1 and 2 threads" \
	'cmp -s s1.apk s2.apk && cmp -s m1/methodMapping.txt m2/methodMapping.txt && cmp -s m1/ignoreMethodMapping.txt m2/ignoreMethodMapping.txt'
# classes.dex is deflated in parts on every worker: the same bytes with more workers than
# parts in flight; an APK is shipped, so level 6 unless told
"$tci" --no-runtime-check -j4 --deflate-level 6 --quiet --mapping-dir m4 --in "$corpus/server.apk" --out s4.apk ||
	not_ok "tc-instrument -j4 --deflate-level 6"
check "the same APK for 4 threads and --deflate-level 6 (an APK's default)" 'cmp -s s1.apk s4.apk'
check "the summary says to sign the APK" 'grep -q "sign it with apksigner" summary.txt'
check "zip-aligned (zipalign -c -p 4)" 'zipalign -c -p 4 s1.apk'
check "a sound zip (unzip -t, python zipfile)" 'python3 "$src/tests/lib/zipcheck.py" s1.apk "$corpus/server.apk"'
keytool -genkeypair -keystore k.jks -storepass android -keypass android -alias t -keyalg RSA -keysize 2048 \
	-validity 10000 -dname CN=test >/dev/null 2>&1
check "signed by apksigner, and verified" \
	'apksigner sign --ks k.jks --ks-pass pass:android --out signed.apk s1.apk && apksigner verify signed.apk'
mkdir -p s1 && (cd s1 && unzip -qo ../s1.apk 'classes*.dex')
n=$(verify_dir s1) && [ "$n" -ge 16 ] && ok "dexdump verifies all $n dex files of the APK" ||
	not_ok "dexdump verifies every dex file of the APK (checked $n)"
check "tc-dexverify --strict-monitors accepts every method of the APK" \
	'"$dexverify" -q --strict-monitors s1/classes*.dex >dexverify.log 2>&1 || { head -n 5 dexverify.log; false; }'
check "no method of the APK names a register past its registers_size (regbound.py over dexdump -d)" \
	'python3 "$src/tests/dex/regbound.py" s1/classes*.dex >regbound.log 2>&1 || { grep -v " 0 methods name" regbound.log | head -n 5; false; }'
python3 - "$corpus/server.apk" s1.apk >entries.txt <<'EOF'
import sys, zipfile, re
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
ia = {i.filename: i for i in a.infolist()}
ib = {i.filename: i for i in b.infolist()}
sig = re.compile(r'^META-INF/([^/]*\.(SF|RSA|DSA|EC)|MANIFEST\.MF)$')
dex = re.compile(r'^classes\d*\.dex$')
dropped = [n for n in ia if n not in ib]
problems = [n for n in dropped if not sig.match(n)] + [n for n in ib if n not in ia]
same = 0
for n, i in ia.items():
    if n in ib and not dex.match(n):
        j = ib[n]
        if (i.CRC, i.file_size, i.compress_type, i.compress_size) != (j.CRC, j.file_size, j.compress_type, j.compress_size) \
                or a.read(n) != b.read(n):
            problems.append(n)
        else:
            same += 1
print(len(dropped), same, len(problems), ' '.join(problems[:5]))
EOF
read -r dropped same problems rest <entries.txt
check "the old signature dropped ($dropped files), the $same other entries copied as they were" \
	'[ "$problems" = 0 ] && [ "$dropped" -ge 1 ]'
[ "$problems" = 0 ] || echo "# entries that changed or appeared: $rest"
traced=$(stat_of m1/instrument-stats.json "d['methods']['traced']")
inst=$(stat_of m1/instrument-stats.json "d['methods']['instrumented']")
check "every one of the $traced traced methods instrumented" '[ "$traced" -gt 40000 ] && [ "$inst" = "$traced" ]'
# but one note: netty's optional dependencies (org/conscrypt/...) are not in the APK, so
# their subclasses might be Activities for all the run knows (collect.c, note_lost_supers)
check "no problem reported but the one note on super classes found nowhere" \
	'[ "$(stat_of m1/instrument-stats.json "len([p for p in d[\"problems\"] if \"neither inputs nor on the class path\" not in p[\"problem\"]])")" = 0 ] &&
	 [ "$(stat_of m1/instrument-stats.json "len(d[\"problems\"])")" = 1 ]'
focus=$(stat_of m1/instrument-stats.json "d['classes']['focus_method_added']")
"$tc_dump" s1.apk >s1.dump 2>/dev/null
# each added onWindowFocusChanged: invoke-super, then at(this, hasFocus)
added=$(awk '/virtual method .*->onWindowFocusChanged\(Z\)V/ { m = 1; next } m && /invoke-super/ { s = 1 }
	m && /->at\(Landroid\/app\/Activity;Z\)V/ && s { n++ } /^  [a-z]+ method/ { m = s = 0 } END { print n + 0 }' s1.dump)
check "the $focus Activities without onWindowFocusChanged got one calling super, then at()" \
	'[ "$focus" -ge 1 ] && [ "$added" = "$focus" ]'
probes=$(grep -c 'Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V' s1.dump)
check "$probes entry probes for $traced traced methods" '[ "$probes" = "$traced" ]'
# The build id (issue 29): the marker class in classes.dex only, its ID the buildId file's
# (dexdump prints a static field's value); the summary names the output.
marker_in() { dexdump -d "$1" 2>/dev/null | grep -A 10 "Class descriptor  : 'Lcom/tencent/matrix/trace/generated/BuildId;'" | sed -n 's/^ *value *: "\(.*\)"$/\1/p'; }
check "classes.dex holds the build-id marker class, ID = buildId ($(cat m1/buildId))" \
	'[ "$(marker_in s1/classes.dex)" = "$(cat m1/buildId)" ]'
check "no other dex of the APK holds it (one copy per build)" \
	'for f in s1/classes?*.dex; do [ -z "$(marker_in "$f")" ] || exit 1; done'
check "the summary names the marker's output" 'grep -q "recorded by the runtime from the class com/tencent/matrix/trace/generated/BuildId in output 1" summary.txt'
"$tci" --no-runtime-check --quiet --mapping-dir m3 --in s1.apk --out s3.apk || not_ok "tc-instrument over its output"
check "instrumented again: the same APK (the marker's value replaced, not a second class)" 'cmp -s s1.apk s3.apk'

# An APK aligned by zipalign before build tools 24 (bare zero padding in the local extra
# blocks; made from the test APK): the output's alignment must be one 0xd935 field, the
# old padding gone (issue 18: "00 00 35 d9 ..." made `unzip -t` reject 52 of 64 entries).
python3 "$src/tests/dex/old_zipalign.py" "$corpus/test.apk" old-aligned.apk
check "the APK with old zipalign padding is itself sound and aligned" \
	'python3 "$src/tests/lib/zipcheck.py" old-aligned.apk && zipalign -c -p 4 old-aligned.apk'
"$tci" --no-runtime-check --quiet --mapping-dir mo --in old-aligned.apk --out old-aligned-out.apk || not_ok "tc-instrument on the old-aligned APK"
check "its output: a sound zip (unzip -t, python zipfile), aligned, signed and verified" \
	'python3 "$src/tests/lib/zipcheck.py" old-aligned-out.apk old-aligned.apk && zipalign -c -p 4 old-aligned-out.apk &&
	 apksigner sign --ks k.jks --ks-pass pass:android --out old-signed.apk old-aligned-out.apk &&
	 apksigner verify old-signed.apk && python3 "$src/tests/lib/zipcheck.py" old-signed.apk'

# --- 2 ---------------------------------------------------------------------------------
"$tci" --no-runtime-check --quiet --mapping-dir mb --in "$corpus/bootstrap.jar" --out boot.jar || not_ok "a jar of dex"
mkdir -p boot && (cd boot && unzip -qo ../boot.jar classes.dex)
check "a jar of dex: its dex rewritten and verified, a sound zip" \
	'[ "$(stat_of mb/instrument-stats.json "d[\"dex\"][\"rewritten\"]")" = 1 ] && verify_dir boot >/dev/null &&
	 python3 "$src/tests/lib/zipcheck.py" boot.jar "$corpus/bootstrap.jar"'
"$tci" --no-runtime-check --quiet --mapping-dir ml --in "$corpus/server/classes16.dex" --out lone.dex || not_ok "a lone dex"
check "a lone dex file" 'dexdump -c lone.dex 2>&1 | tail -n 1 | grep -q "Checksum verified"'
mkdir -p dexes && cp "$corpus"/test/classes*.dex dexes/
"$tci" --no-runtime-check --quiet --mapping-dir md --in dexes --out dexes2 || not_ok "a directory of dex files"
check "a directory of dex files: $(ls dexes2 | wc -l) written" \
	'[ "$(ls dexes2 | wc -l)" = "$(ls dexes | wc -l)" ] && verify_dir dexes2 >/dev/null'
"$tci" --no-runtime-check --quiet --mapping-dir mx --in /usr/share/java/guava.jar --out guava.jar \
	--in "$corpus/server/classes6.dex" --out c6.dex || not_ok "dex and a class jar in one run"
check "dex and class files in one run, one mapping; the jar a sound zip" \
	'grep -q "^[0-9]*,[0-9]*,com\.google\.common\." mx/methodMapping.txt && grep -q "^[0-9]*,[0-9]*,io\.appium\." mx/methodMapping.txt &&
	 python3 "$src/tests/lib/zipcheck.py" guava.jar /usr/share/java/guava.jar'
# the build-id marker of each kind (issue 29): one copy per run, in the first output
check "a jar of dex, a lone dex, a directory of dex files: the marker in the dex, ID = buildId" \
	'[ "$(marker_in boot/classes.dex)" = "$(cat mb/buildId)" ] && [ "$(marker_in lone.dex)" = "$(cat ml/buildId)" ] &&
	 [ "$(marker_in dexes2/classes.dex)" = "$(cat md/buildId)" ] &&
	 for f in dexes2/classes?*.dex; do [ -z "$(marker_in "$f")" ] || exit 1; done'
check "a class jar, then a dex: the marker in the jar (first), none in the dex" \
	'unzip -Z1 guava.jar | tail -n 1 | grep -qx "com/tencent/matrix/trace/generated/BuildId.class" && [ -z "$(marker_in c6.dex)" ]'

# --- 3 ---------------------------------------------------------------------------------
PYTHON=/usr/bin/python3 enjarify -f -o boot-classes.jar "$corpus/bootstrap/classes.dex" >enjarify.log 2>&1 ||
	not_ok "enjarify: $(tail -n 2 enjarify.log)"
"$tci" --no-runtime-check --quiet --mapping-dir mc --in boot-classes.jar --out boot-classes-traced.jar || not_ok "the class-file build"
keys() { { sed 1d "$1/ignoreMethodMapping.txt"; sed 's/^[0-9]*,[0-9]*,//' "$1/methodMapping.txt"; } | sort; }
keys mb >keys-dex.txt
keys mc >keys-class.txt
check "the same $(wc -l <keys-dex.txt) mapping keys as dex and as class files" \
	'[ "$(wc -l <keys-dex.txt)" -gt 300 ] && cmp -s keys-dex.txt keys-class.txt'
sed 's/^[0-9]*,[0-9]*,//' mb/methodMapping.txt | sort >traced-dex.txt
sed 's/^[0-9]*,[0-9]*,//' mc/methodMapping.txt | sort >traced-class.txt
both=$(comm -12 traced-dex.txt traced-class.txt | wc -l)
echo "# verdicts: $both traced in both builds; traced only as dex $(comm -23 traced-dex.txt traced-class.txt | wc -l)," \
	"only as class files $(comm -13 traced-dex.txt traced-class.txt | wc -l) (enjarify's translation differs from javac's code)"
"$tci" --no-runtime-check --quiet --mapping-dir mbase --base-mapping mc/methodMapping.txt --in "$corpus/bootstrap.jar" --out boot2.jar ||
	not_ok "a dex build on the class-file build's mapping"
same_ids=$(python3 - mc/methodMapping.txt mbase/methodMapping.txt <<'EOF'
import sys
def load(p):
    m = {}
    for line in open(p):
        i, _, key = line.rstrip('\n').split(',', 2)
        m[key] = int(i)
    return m
a, b = load(sys.argv[1]), load(sys.argv[2])
common = [k for k in a if k in b]
print(len(common), sum(a[k] == b[k] for k in common))
EOF
)
read -r common kept <<<"$same_ids"
check "with the class-file build as base mapping, all $common shared methods keep their ids" \
	'[ "$common" -gt 100 ] && [ "$common" = "$kept" ]'

# --- 4 ---------------------------------------------------------------------------------
head -c 50000 "$corpus/server/classes6.dex" >cut.dex
"$tci" --no-runtime-check --mapping-dir mcut --in cut.dex --out cut-out.dex 2>cut.log
check "a damaged dex is copied unchanged and reported" \
	'cmp -s cut.dex cut-out.dex && grep -q "malformed dex" mcut/instrument-stats.json'
grep -o '"detail": "[^"]*"' mcut/instrument-stats.json | head -n 1 | sed 's/^/# /'
check "... and with --strict it is an error" \
	'! "$tci" --no-runtime-check --strict --quiet --mapping-dir mcut2 --in cut.dex --out cut-out2.dex 2>strict.log && grep -q "cut.dex" strict.log'
# The dex entries of an input are read and parsed on every worker at once: with two that
# cannot be read, the error is the first entry's, as the serial listing met it, whatever
# -j (here the first, stored with a byte flipped, takes its CRC-32 over 3 MB to fail, the
# second is past --max-input-mb at once).
python3 - "$corpus/server" <<'EOF2'
import sys, zipfile
with zipfile.ZipFile("twobad.apk", "w") as z:
    z.write(sys.argv[1] + "/classes16.dex", "classes2.dex", zipfile.ZIP_STORED)
    z.write(sys.argv[1] + "/classes.dex", "classes3.dex", zipfile.ZIP_DEFLATED)
with zipfile.ZipFile("twobad.apk") as z:
    i = z.getinfo("classes2.dex")
with open("twobad.apk", "r+b") as f:
    f.seek(i.header_offset + 26)
    n, m = int.from_bytes(f.read(2), "little"), int.from_bytes(f.read(2), "little")
    at = i.header_offset + 30 + n + m + i.file_size // 2
    f.seek(at)
    b = f.read(1)[0]
    f.seek(at)
    f.write(bytes([b ^ 0xff]))
EOF2
for j in 1 2; do
	"$tci" --no-runtime-check -j$j --max-input-mb 4 --quiet --mapping-dir mbad$j --in twobad.apk --out twobad-out$j.apk \
		2>twobad$j.log && not_ok "two unreadable dex entries, -j$j: no error"
done
check "two unreadable dex entries: the first one's error for 1 and 2 threads" \
	'grep -q "classes2.dex.*CRC-32" twobad1.log && cmp -s twobad1.log twobad2.log'
sed 's/^/# /' twobad2.log

# --- 5: instrumented twice (issue 21) ---------------------------------------------------
# Over its own output, or in place, the probes an earlier run put in are recognised and
# left as they are, with their ids: the second output is the first, byte for byte.
"$tci" --no-runtime-check --mapping-dir m-again --in s1.apk --out s-again.apk 2>again.log
check "an instrumented APK instrumented again: the same bytes" 'cmp -s s1.apk s-again.apk'
check "... the same mapping files" \
	'cmp -s m1/methodMapping.txt m-again/methodMapping.txt && cmp -s m1/ignoreMethodMapping.txt m-again/ignoreMethodMapping.txt'
check "... the summary says they were instrumented already" 'grep -q "were instrumented already" again.log'
check "... and the statistics count them" \
	'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(not (j[\"methods\"][\"already_instrumented\"] > 1000 and j[\"methods\"][\"instrumented\"] == 0))" m-again/instrument-stats.json'
cp s1/classes.dex lone1.dex
"$tci" --no-runtime-check --quiet --mapping-dir m-lone1 --in lone1.dex --out lone1.dex || not_ok "a lone dex, in place"
cp lone1.dex lone2.dex
"$tci" --no-runtime-check --quiet --mapping-dir m-lone2 --in lone2.dex --out lone2.dex || not_ok "a lone dex, in place, again"
check "a lone instrumented dex, in place: unchanged" 'cmp -s lone1.dex lone2.dex'
# no method calls AppMethodBeat.i twice (dexdump -d, a tool nobody here wrote)
two_i() {
	dexdump -d "$1" 2>/dev/null | awk '/^      name          :/ { m = $0; n = 0 }
		/invoke-static.*AppMethodBeat;\.i:\(I\)V/ { if (++n == 2) print m }' | head -n 3
}
mkdir -p again && (cd again && unzip -qo ../s-again.apk 'classes*.dex')
check "no method of the twice-instrumented APK calls i() twice" \
	'for f in again/classes*.dex; do [ -z "$(two_i "$f")" ] || { echo "$f: $(two_i "$f")"; exit 1; }; done'
check "its dex files pass tc-dexverify" '"$dexverify" -q --strict-monitors again/classes*.dex >dexverify2.log 2>&1'
exit $fail
