#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the benchmarks need, only those missing.
# Usage: scripts/deps.sh [build|test|bench]   (default: test)
set -euo pipefail

want=${1:-test}
pkgs=(meson ninja-build pkg-config gcc libzip-dev uthash-dev libpcre2-dev default-jdk-headless zip unzip)
case "$want" in
  build) ;;
  test)  pkgs+=(libcriterion-dev libasm-java jasmin-sable libguava-java proguard-cli clang libfuzzer-14-dev libclang-rt-14-dev gradle python3) ;;
  bench) pkgs+=(libcriterion-dev libasm-java libjacoco-java libguava-java hyperfine time) ;;
  *) echo "usage: $0 [build|test|bench]" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
