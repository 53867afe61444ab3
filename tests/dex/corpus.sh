#!/usr/bin/env bash
# The real dex corpus, fetched from the npm registry (pinned, hash-checked, cached; see
# tests/lib/npm_fetch.py) and unpacked into OUT:
#   OUT/server.apk, OUT/server/classes.dex .. classes16.dex   appium-uiautomator2-server 10.6.6:
#       the server APK (d8 8.13.17, dex 038, minSdk 26: Kotlin, coroutines, netty, ICU4J,
#       Gson, androidx.test), v2+v3 signed
#   OUT/test.apk, OUT/test/classes*.dex                        its androidTest APK (4 dex)
#   OUT/bootstrap.jar, OUT/bootstrap/classes.dex               appium-android-bootstrap 3.0.0:
#       a jar holding a dx-era classes.dex (035)
# Idempotent: does nothing when OUT/.done names the same versions.
# usage: tests/dex/corpus.sh OUT
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
server=(appium-uiautomator2-server 10.6.6
	'Ae7mB19OcLkEBi/U/r9eKnCmCJHV5iNf2/HYYHstuP7iWGCTXj1WXfIC++7fBfGWdSZVDoWc6nJO8miZInE1Wg==')
bootstrap=(appium-android-bootstrap 3.0.0
	'WSk57X+zX6ak+mmgBKV91Gq7qbSS/5wK+k+6pYlTOKtj4rYMb1uuv8EgH0euUjC+UQra5P10pDalY/bX8KZ2nA==')
want="${server[0]}@${server[1]} ${bootstrap[0]}@${bootstrap[1]}"
[ "$(cat "$out/.done" 2>/dev/null)" = "$want" ] && exit 0

. "$here/tests/lib/need.sh"
need_cmd python3 python3
need_cmd unzip unzip
fetch() { python3 "$here/tests/lib/npm_fetch.py" "$1" "$2" "sha512-$3"; }
tgz_server=$(fetch "${server[@]}")
tgz_boot=$(fetch "${bootstrap[@]}")

rm -rf "$out.tmp"
mkdir -p "$out.tmp/x"
tar -xzf "$tgz_server" -C "$out.tmp/x" package/apks
mv "$out.tmp/x/package/apks/appium-uiautomator2-server-v${server[1]}.apk" "$out.tmp/server.apk"
mv "$out.tmp/x/package/apks/appium-uiautomator2-server-debug-androidTest.apk" "$out.tmp/test.apk"
tar -xzf "$tgz_boot" -C "$out.tmp/x" package/bootstrap/bin/AppiumBootstrap.jar
mv "$out.tmp/x/package/bootstrap/bin/AppiumBootstrap.jar" "$out.tmp/bootstrap.jar"
rm -rf "$out.tmp/x"
unzip -q -d "$out.tmp/server" "$out.tmp/server.apk" 'classes*.dex'
unzip -q -d "$out.tmp/test" "$out.tmp/test.apk" 'classes*.dex'
unzip -q -d "$out.tmp/bootstrap" "$out.tmp/bootstrap.jar" classes.dex
echo "$want" >"$out.tmp/.done"
rm -rf "$out"
mv "$out.tmp" "$out"
