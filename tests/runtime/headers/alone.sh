#!/usr/bin/env bash
# alone.sh SRC: each public header of runtime/ compiles alone (C11, -Wall -Wextra -Werror
# -pedantic), given only the headers it is allowed (issue 28, item 6; STYLE.md 11): an
# app's NDK build should need runtime/include/ and nothing else. Each header is copied into
# an empty directory with its allowed headers, and a file including it alone is compiled
# with -I that directory only. What is still outside runtime/include/ is named: base's
# tc_error.h (the error record and codes), which tc_runtime.h and tc_plthook.h include.
# Environment: CC (meson sets it).
set -u
src=$1
cc=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
inc=$src/runtime/include
pass=0 fail=0
# alone HEADER ALLOWED...: HEADER compiles with only ALLOWED beside it (runtime/include's
# names, or base/NAME)
alone() {
  local h=$1 d=$dir/$1; shift
  mkdir -p "$d"
  cp "$inc/$h" "$d/"
  for a in "$@"; do
    case $a in base/*) cp "$src/$a" "$d/" ;; *) cp "$inc/$a" "$d/" ;; esac
  done
  printf '#include "%s"\nint tc_header_alone_%s;\n' "$h" "${h%.h}" >"$d/use.c"
  if "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$d" "$d/use.c" 2>"$d/err"; then
    pass=$((pass + 1)); echo "ok - $h alone${*:+, with $*}"
  else
    fail=$((fail + 1)); echo "not ok - $h alone${*:+, with $*}"; head -5 "$d/err"
  fi
}
alone tc_event.h
alone tc_analysis.h
alone tc_plthook.h base/tc_error.h
alone tc_runtime.h tc_event.h base/tc_error.h
alone tc_ringfile.h tc_runtime.h tc_event.h base/tc_error.h
# every public header is listed above
for h in "$inc"/*.h; do
  [ -d "$dir/$(basename "$h")" ] || { fail=$((fail + 1)); echo "not ok - $(basename "$h") is not checked"; }
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
