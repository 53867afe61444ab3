#!/usr/bin/env bash
# The sample as a real APK: samples/app compiled against the framework's own classes
# (org.robolectric:android-all, API 26), dexed with AOSP's dx (dalvik-dx 16.0.1) together
# with the runtime's classes, packaged by Debian's aapt with a manifest (the application
# class and a launcher Activity), zip-aligned and signed with apksigner. Then the APK flow
# of tc-instrument on it, with no --classpath and no --no-runtime-check: its runtime check
# passes because the APK's own dex defines AppMethodBeat (the same APK with the sample's
# classes alone is refused, naming the runtime). The output is zip-aligned, signed again
# and verified by apksigner, every dex passes dexdump's checksum and tc-dexverify, the
# sample's methods call AppMethodBeat.i/o and the Activities' onWindowFocusChanged calls
# at(), and the runtime's own classes are left as they were.
# The android-all jar and dx come from the download cache (tests/lib/maven_fetch.py):
# one it lacks and cannot fetch fails the test.
# usage: dex_sample_apk.sh SRC WORK TC_INSTRUMENT TC_DEXVERIFY RUNTIME_JAR
set -uo pipefail
src=$1 work=$2 tci=$(realpath "$3") dexverify=$(realpath "$4") rtjar=$(realpath "$5")
. "$src/tests/lib/need.sh"
need_cmd aapt aapt
need_cmd zipalign zipalign
need_cmd apksigner apksigner
need_cmd dexdump dexdump
need_cmd keytool default-jdk-headless
need_cmd javac default-jdk-headless
rm -rf "$work" && mkdir -p "$work"
cd "$work" || exit 1
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
die() { echo "not ok - $1"; echo "dex-sample-apk: FAILED"; exit 1; }

min_sdk=26 # dx turns the runtime's lambdas into invoke-custom only from API 26 (dex 038)
mapfile -t got < <(python3 "$src/tests/lib/maven_fetch.py" org.robolectric:android-all:8.0.0_r4-robolectric-r1 \
	com.jakewharton.android.repackaged:dalvik-dx:16.0.1) && [ ${#got[@]} -eq 2 ] ||
	die "android-all (API $min_sdk) and dalvik-dx are in the download cache or can be fetched (tests/lib/maven_fetch.py)"
android_jar=${got[0]} dx_jar=${got[1]}
dx() { java -cp "$dx_jar" com.android.dx.command.Main --dex --min-sdk-version=$min_sdk "$@"; }

# --- build it as an app is built --------------------------------------------------------
# Launcher.java is the JVM driver that plays the framework for scripts/sample.sh: no part
# of an app.
mapfile -t sources < <(ls "$src"/samples/app/src/sample/*.java | grep -v /Launcher.java)
javac -nowarn -source 8 -target 8 -d classes -cp "$android_jar:$rtjar" "${sources[@]}" 2>javac.log ||
	{ cat javac.log; die "the sample compiles against android-all (API $min_sdk)"; }
ok "the sample compiles against the framework's own classes (android-all, API $min_sdk)"
dx --output=classes.dex classes "$rtjar" 2>dx.log || { cat dx.log; die "dx dexes the sample and the runtime"; }
dx --output=alone.dex classes 2>dx-alone.log || { cat dx-alone.log; die "dx dexes the sample alone"; }
ok "dx dexes the sample with the runtime's classes, and the sample alone"
cat >AndroidManifest.xml <<EOF
<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    package="sample" android:versionCode="1" android:versionName="1.0">
    <uses-sdk android:minSdkVersion="$min_sdk" android:targetSdkVersion="$min_sdk" />
    <application android:name="sample.SampleApp">
        <activity android:name="sample.SplashActivity">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
    </application>
</manifest>
EOF
# package: the manifest compiled against the framework's resources; then the dex
apk() { # apk OUT DEX
	rm -rf "pkg-$1" && mkdir "pkg-$1" && cp "$2" "pkg-$1/classes.dex" &&
		aapt package -f -M AndroidManifest.xml -I "$android_jar" -F "$1.unaligned.apk" >aapt.log 2>&1 &&
		(cd "pkg-$1" && aapt add "../$1.unaligned.apk" classes.dex >/dev/null) &&
		zipalign -f -p 4 "$1.unaligned.apk" "$1.apk"
}
apk app classes.dex && apk alone alone.dex || { cat aapt.log; die "aapt packages the APKs"; }
keytool -genkeypair -keystore k.jks -storepass android -keypass android -alias t -keyalg RSA -keysize 2048 \
	-validity 10000 -dname CN=test >/dev/null 2>&1 || die "keytool makes a key"
sign() { apksigner sign --ks k.jks --ks-pass pass:android --out "$2" "$1"; }
check "aapt's APK: the application and its launcher Activity (aapt dump badging)" \
	'aapt dump badging app.apk >badging.txt && grep -q "launchable-activity: name='"'"'sample.SplashActivity'"'"'" badging.txt &&
	 grep -q "sdkVersion:'"'"'$min_sdk'"'"'" badging.txt'
check "the APK as built is signed and verified by apksigner" 'sign app.apk app-signed.apk && apksigner verify app-signed.apk'

# --- tc-instrument's APK flow ----------------------------------------------------------
"$tci" --mapping-dir map --in app-signed.apk --out out.apk 2>instrument.log
rc=$?
check "tc-instrument instruments the APK with no --classpath: its own dex has the runtime" \
	'[ $rc = 0 ] && ! grep -q "runtime:" instrument.log'
"$tci" --mapping-dir map-alone --in alone.apk --out out-alone.apk 2>alone.log
rc=$?
check "the APK without the runtime's classes is refused by the runtime check, naming the runtime" \
	'[ $rc != 0 ] && grep -q "runtime: the instrumented code calls com.tencent.matrix.trace.core.AppMethodBeat, which no input" alone.log &&
	 [ ! -e out-alone.apk ]'
check "zip-aligned (zipalign -c -p 4)" 'zipalign -c -p 4 out.apk'
check "signed again and verified by apksigner" 'sign out.apk out-signed.apk && apksigner verify out-signed.apk'
mkdir -p out && (cd out && unzip -qo ../out.apk 'classes*.dex')
check "dexdump verifies the dex's checksum" \
	'dexdump -c out/classes.dex >dexdump-c.log 2>&1 && [ "$(tail -n 1 dexdump-c.log)" = "Checksum verified" ]'
check "tc-dexverify --strict-monitors accepts every method" \
	'"$dexverify" -q --strict-monitors out/classes.dex >dexverify.log 2>&1 || { cat dexverify.log; false; }'
dexdump -d out/classes.dex >dump.txt 2>&1
# calls of the runtime in each method of a class: "CLASS NAME i o at" counts
calls() {
	awk -v cls="$1" '
		/^  Class descriptor  :/ { c = $4; gsub(/\x27/, "", c) }
		/^      name          :/ { m = $3; gsub(/\x27/, "", m) }
		c == cls && /invoke-static/ && /AppMethodBeat;\.i:\(I\)V/ { i[m]++ }
		c == cls && /invoke-static/ && /AppMethodBeat;\.o:\(I\)V/ { o[m]++ }
		c == cls && /invoke-static/ && /AppMethodBeat;\.at:/ { at[m]++ }
		END { for (k in i) print k, i[k], o[k] + 0, at[k] + 0; for (k in at) if (!(k in i)) print k, 0, 0, at[k] }' dump.txt
}
check "the sample's methods call AppMethodBeat.i and .o (Catalog.search, SampleApp.onCreate)" \
	'calls Lsample/Catalog\; | grep -Eq "^search [1-9][0-9]* [1-9]" && calls Lsample/SampleApp\; | grep -Eq "^onCreate [1-9][0-9]* [1-9]"'
check "SplashActivity.onWindowFocusChanged calls AppMethodBeat.at" \
	'calls Lsample/SplashActivity\; | grep -Eq "^onWindowFocusChanged [0-9]+ [0-9]+ [1-9]"'
check "MainActivity gets an onWindowFocusChanged that calls AppMethodBeat.at" \
	'calls Lsample/MainActivity\; | grep -Eq "^onWindowFocusChanged [0-9]+ [0-9]+ [1-9]"'
# the runtime's classes, instruction by instruction (the code column; pool indices differ)
runtime_code() {
	dexdump -d "$1" 2>/dev/null | awk '
		/^  Class descriptor  :/ { keep = index($0, "Lcom/tencent/matrix/trace/") > 0 &&
			index($0, "Lcom/tencent/matrix/trace/generated/BuildId;") == 0 } # the build-id marker, added
		keep && /^      name          :/ { print }
		keep && /\|[0-9a-f]+: / { sub(/^[^|]*\|[0-9a-f]+: /, ""); sub(/ \/\/ [a-z]+@[0-9a-f]+$/, ""); print }'
}
runtime_code classes.dex >runtime-before.txt
runtime_code out/classes.dex >runtime-after.txt
check "the runtime's own classes are left as they were ($(grep -c "name " runtime-before.txt) members)" \
	'[ -s runtime-before.txt ] && cmp -s runtime-before.txt runtime-after.txt'
n=$(grep -c . map/methodMapping.txt)
check "methodMapping.txt names the sample's methods ($n) and none of the runtime's" \
	'[ "$n" -ge 10 ] && grep -q "sample.Catalog search" map/methodMapping.txt && ! grep -q "com.tencent" map/methodMapping.txt'
[ $fail = 0 ] && echo "dex-sample-apk: all passed" || echo "dex-sample-apk: FAILED"
exit $fail
