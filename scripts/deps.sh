#!/usr/bin/env bash
# The Debian 12 packages each purpose needs, in one place, and their installer.
#
# usage: scripts/deps.sh [--list|--missing] [PURPOSE...]    (default purpose: test)
#   build   meson setup + ninja: tc-instrument, tc-dump, the runtime and its Java classes
#   sample  scripts/sample.sh: build, then compile, instrument and run the sample app
#   test    scripts/test.sh: everything any test runs (build and sample included)
#   bench   bench/*.sh: the benchmarks and their peers (build included)
# Installs, with apt-get, the packages of the purposes that are not installed yet.
# --list prints the packages of the purposes, one per line; --missing prints those not
# installed and exits 1 when there are any. A test that needs a tool takes it from the
# `test` list (never from `bench`): .ci/run installs nothing else.
set -euo pipefail

build=(meson ninja-build pkg-config gcc libc6-dev libzip-dev libdeflate-dev libxxhash-dev uthash-dev libpcre2-dev libssl-dev python3
	default-jdk-headless)
sample=("${build[@]}")
test=("${sample[@]}"
	libcriterion-dev                        # the unit tests
	clang libfuzzer-14-dev libclang-rt-14-dev # the fuzz suites
	lld                                     # Android's packed relocations (tests/runtime/plthook)
	libasm-java                             # bench/peers: the Matrix-equivalent, VerifyAll
	libguava-java                           # guava.jar: the Matrix contract, the corpora
	jasmin-sable                            # hand-written class files (tests/data/jasmin)
	proguard-cli                            # obfuscated jars and real mapping.txt files
	gradle                                  # samples/gradle: the Exec wiring
	nginx                                   # samples/gradle: an HTTP build cache (WebDAV PUT) for the cacheable task
	apktool                                 # smali and baksmali: dex cases, the dex oracles
	enjarify                                # dex to class files: HotSpot checks dex code
	dexdump                                 # ART's dex file verifier (tests/dex)
	zipalign apksigner                      # instrumented APKs: alignment and signing
	aapt                                    # the sample packaged as a real APK (tests/samples/dex_sample_apk.sh)
	time                                    # peak memory of a run (tests/hostile)
	gcc-arm-linux-gnueabihf libc6-dev-armhf-cross # the runtime for 32-bit ARM (tests/runtime/cross.sh)
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross   # ... and 64-bit ARM
	gcc-i686-linux-gnu libc6-dev-i386-cross       # ... and 32-bit x86
	qemu-user                               # ... whose tests run under qemu-arm / qemu-aarch64 / qemu-i386
	musl-tools                              # ... and the runtime built and tested with musl-gcc
	mount util-linux                        # a full disk: a 64 KiB tmpfs in a mount namespace (tests/runtime/disk)
	chromium nodejs npm                     # the HTML report in a browser (tests/browser; npm ci fetches playwright-core)
	protobuf-compiler                       # protoc: tc-trace perfetto's output against Perfetto's protos (tests/trace/perfetto.sh)
	zip unzip)
bench=("${build[@]}" libasm-java libguava-java libjacoco-java hyperfine time
	libcommons-lang3-java libjackson2-databind-java libjackson2-core-java libecj-java groovy # bench/instrument.sh: the six-jar set
	apktool enjarify zip unzip              # bench/dex.sh: the corpus as class files
	# bench/instrument.sh --big: every jar of these, 100+ MB of class files
	jruby groovy liblucene4.10-java libfop-java libicu4j-java scala jython libbatik-java
	libbcprov-java libtomcat9-java libeclipse-jdt-core-java libapache-poi-java libsaxonhe-java
	libnetty-java libxalan2-java libjetty9-java libpdfbox2-java)

mode=install
case "${1:-}" in
--list) mode=list; shift ;;
--missing) mode=missing; shift ;;
-h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -gt 0 ] || set -- test

pkgs=()
for want in "$@"; do
	case "$want" in
	build) pkgs+=("${build[@]}") ;;
	sample) pkgs+=("${sample[@]}") ;;
	test) pkgs+=("${test[@]}") ;;
	bench) pkgs+=("${bench[@]}") ;;
	*) echo "usage: $0 [--list|--missing] [build|sample|test|bench]..." >&2; exit 2 ;;
	esac
done
mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)

if [ "$mode" = list ]; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "$mode" = missing ]; then
	[ ${#missing[@]} -eq 0 ] && exit 0
	printf '%s\n' "${missing[@]}"
	exit 1
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing with apt-get (a few minutes on a new machine): ${missing[*]}" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
# Several scripts may install at once (parallel builds): one apt at a time.
$sudo flock /var/lib/apt/tracecanary-deps.lock sh -c '
	apt-get update -qq &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null' \
	deps "${missing[@]}"
