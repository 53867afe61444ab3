#!/usr/bin/env bash
# dex-tight-frames: issue 18's methods from real minified APKs, as smali (tight/): a wide
# result moved back into the parameter pair of a 3-register frame (Play services'
# SafeParcelReader.readLong and readDouble, protobuf's UnsafeUtil.getLong).
# tc-instrument must hook them without growing the frame, the probe before each
# return-wide in v0 (it was v3, past registers_size), and the output must pass
# tc-dexverify, dexdump and baksmali's register analysis. Also the runtime's presence in
# dex: the dex alone is refused (no beat class), with the beat class of runtime/good
# assembled in it is accepted, with runtime/private's (o(I)V private) refused.
# usage: tight_test.sh SRC WORK TC_INSTRUMENT TC_DEXVERIFY
set -uo pipefail
src=$1 work=$2 tci=$(realpath "$3") dexverify=$(realpath "$4")
. "$src/tests/lib/need.sh"
need_cmd dexdump dexdump
need_cmd smali apktool
need_cmd baksmali apktool
need_cmd python3 python3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }

smali a --api 26 -o in.dex "$src/tests/dex/gen/tight" >smali.log 2>&1 || { not_ok "smali: $(head -n 3 smali.log)"; exit 1; }
"$dexverify" in.dex >in.vfy 2>&1 && ok "the input passes tc-dexverify" || not_ok "input: $(head -n 3 in.vfy)"
"$tci" --no-runtime-check --quiet --mapping-dir m --in in.dex --out out.dex || { not_ok "tc-instrument"; exit 1; }
"$dexverify" out.dex >out.vfy 2>&1 && ok "tc-dexverify accepts every instrumented method" ||
	not_ok "tc-dexverify: $(head -n 3 out.vfy | tr '\n' ' ')"
dexdump -c out.dex >dd.log 2>&1 && [ "$(tail -n 1 dd.log)" = "Checksum verified" ] && ok "dexdump verifies the output" ||
	not_ok "dexdump: $(tail -n 2 dd.log | tr '\n' ' ')"
baksmali d --register-info ALL,FULLMERGE -b "" --di false --pr false -o out out.dex >bs.log 2>&1 &&
	ok "baksmali's register analysis accepts the output" || not_ok "baksmali: $(grep -m 2 -i exception bs.log)"
python3 - out <<'EOF' && ok "each wide return keeps 3 registers, its probe in v0" || not_ok "probe registers"
import os, re, sys
want = {'readLong(Landroid/os/Parcel;I)J', 'readDouble(Landroid/os/Parcel;I)D', 'getLong(J)J'}
seen = set()
for d, _, fs in os.walk(sys.argv[1]):
    for fn in fs:
        body, name = [], None
        for line in open(os.path.join(d, fn)):
            line = line.strip()
            if line.startswith('.method '):
                name, body = line.split()[-1], []
            elif line == '.end method' and name in want:
                code = [l for l in body if l and not l.startswith(('#', ':', '.catch'))]
                regs = [l for l in code if l.startswith('.registers')]
                k = code.index('return-wide v1')
                probe = code[k - 2:k]
                good = regs == ['.registers 3'] and re.match(r'const/16 v0, ', probe[0]) and \
                    re.match(r'invoke-static \{v0\}, L[^;]*;->o\(I\)V', probe[1])
                print('%s %s: %s; %s' % ('ok' if good else 'BAD', name, regs, ' | '.join(probe)))
                if good:
                    seen.add(name)
            else:
                body.append(line)
sys.exit(0 if seen == want else 1)
EOF
# The runtime check on dex (tc-instrument as a user runs it, without --no-runtime-check).
fix="add the runtime (tracecanary-runtime.jar) to the app's inputs"
for k in none good private; do
	rm -rf "m-$k" "rt-$k.dex"
	if [ $k = none ]; then cp in.dex in-none.dex; else
		smali a --api 26 -o "in-$k.dex" "$src/tests/dex/gen/tight" "$src/tests/dex/gen/runtime/$k" >>smali.log 2>&1 ||
			{ not_ok "smali $k: $(tail -n 3 smali.log)"; continue; }
	fi
	rc=0
	"$tci" --quiet --mapping-dir "m-$k" --in "in-$k.dex" --out "rt-$k.dex" 2>"rt-$k.log" || rc=$?
	case $k in
	none) [ $rc = 1 ] && grep -qF "which no input and no --classpath entry defines" "rt-$k.log" && grep -qF "$fix" "rt-$k.log" &&
		[ ! -e "rt-$k.dex" ] && [ ! -e "m-$k" ] ;;
	good) [ $rc = 0 ] && "$dexverify" "rt-$k.dex" >/dev/null 2>&1 ;;
	private) [ $rc = 1 ] && grep -qF "(o(I)V is not public and static)" "rt-$k.log" && [ ! -e "rt-$k.dex" ] ;;
	esac && ok "runtime check, beat class $k: exit $rc" || { not_ok "runtime check, beat class $k: exit $rc"; sed 's/^/#   /' "rt-$k.log"; }
done
exit $fail
