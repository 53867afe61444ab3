#!/usr/bin/env bash
# A test that stands for the tests meson could not register: missing.sh WHAT PACKAGE.
# It skips with a message naming the package (or fails under TC_REQUIRE_TOOLS=1).
. "$(dirname "$0")/need.sh"
need_missing "$1" "$2"
