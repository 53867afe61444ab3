#!/usr/bin/env bash
# alone.sh SRC: an app's NDK build needs runtime/include/ and nothing else (issue 28, item
# 6; STYLE.md 11).
#  - Each public header compiles alone (C11, -Wall -Wextra -Werror -pedantic) with only a
#    copy of runtime/include/ on the include path: a header that reached base/ (its error
#    record tc_error.h, say) would not be found. As C++ too, when a C++ compiler is there
#    (CXX): C++11, but tc_plthook.h, whose slot for the original is C11's _Atomic, which
#    C++ has from <stdatomic.h> only in C++23.
#  - runtime/src/ compiles with runtime/include/, its own headers and only these of base/
#    (compiled into the library): json.h (the reports' JSON), bytes.h (the byte buffer
#    under it), file.h (reading a ring file whole, tc_ring_load) and try.h (TRY), with
#    tc_error.h, the error record of base's calls (file.h's), which runtime/src turns into
#    the runtime's own (tc_rt_error.h). jni_glue.c, which needs <jni.h>, with
#    JNI_INCLUDE (its directories, ':'-separated) or the JDK of JAVAC; else not checked.
# Environment: CC, CXX, JAVAC (meson sets them; CXX and JAVAC may be empty).
set -u
src=$1
cc=${CC:-cc}
cxx=${CXX:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
inc=$dir/include
mkdir -p "$inc" "$dir/base"
cp "$src"/runtime/include/*.h "$inc/"
base_allowed="json.h bytes.h file.h try.h tc_error.h"
for h in $base_allowed; do cp "$src/base/$h" "$dir/base/"; done
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; head -5 "$dir/err"; }
# alone LANG COMPILER FLAGS...: every public header, included alone
alone() {
  local lang=$1 comp=$2 ext h; shift 2
  [ "$lang" = c ] && ext=c || ext=cc
  for h in "$inc"/*.h; do
    h=$(basename "$h")
    case "$lang $h" in "c++ tc_plthook.h") continue ;; esac
    printf '#include "%s"\nint tc_header_alone_%s;\n' "$h" "${h%.h}" >"$dir/use.$ext"
    if "$comp" "$@" -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$inc" "$dir/use.$ext" 2>"$dir/err"; then
      ok "$h alone ($lang)"
    else
      not_ok "$h alone ($lang)"
    fi
  done
}
alone c "$cc" -std=c11
if [ -n "$cxx" ]; then
  alone c++ "$cxx" -std=c++11
  printf '#include "tc_plthook.h"\nint tc_header_alone_plthook;\n' >"$dir/use.cc"
  if "$cxx" -std=c++23 -fsyntax-only -x c++ /dev/null 2>/dev/null; then
    if "$cxx" -std=c++23 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$inc" "$dir/use.cc" 2>"$dir/err"; then
      ok "tc_plthook.h alone (c++23)"
    else
      not_ok "tc_plthook.h alone (c++23)"
    fi
  else
    echo "# $cxx has no -std=c++23: tc_plthook.h is not checked as C++"
  fi
else
  echo "# no C++ compiler (CXX): the headers are not checked as C++"
fi
# runtime/src: the public headers, its own, and base's allowed ones
jni=()
jni_include=${JNI_INCLUDE:-}
if [ -z "$jni_include" ] && [ -n "${JAVAC:-}" ]; then
  # the JDK's portable <jni.h> and its platform half, next to its javac
  jdk=$(dirname "$(dirname "$(readlink -f "$JAVAC")")")
  [ -f "$jdk/include/jni.h" ] && jni_include=$jdk/include:$jdk/include/linux
fi
IFS=: read -r -a jdirs <<<"$jni_include"
for d in "${jdirs[@]}"; do [ -n "$d" ] && jni+=("-I$d"); done
for f in "$src"/runtime/src/*.c; do
  name=${f##*/}
  if [ "$name" = jni_glue.c ] && [ ${#jni[@]} -eq 0 ]; then
    echo "# $name: no JNI_INCLUDE, not checked"
    continue
  fi
  if "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter -Werror -pedantic \
       -fsyntax-only -I"$inc" -I"$src/runtime/src" -I"$dir/base" "${jni[@]}" "$f" 2>"$dir/err"; then
    ok "runtime/src/$name with runtime/include, runtime/src and base's $base_allowed"
  else
    not_ok "runtime/src/$name with runtime/include, runtime/src and base's $base_allowed"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
