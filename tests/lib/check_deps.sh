#!/usr/bin/env bash
# The rules of CI's dependency lists, checked without installing anything:
#  1. every Debian package that a test names (need_cmd/need_file/need_missing/
#     need_optional calls and "missing: WHAT (PACKAGE)" stamps) is in the `test` list of
#     scripts/deps.sh, so that CI's fresh root gets it;
#  2. `test` contains `build` and `sample`, and `bench` contains `build`;
#  3. a custom target that builds test data from a test-only tool succeeds without the
#     tool, writing a "missing:" stamp (a plain `ninja` must not fail), and the test that
#     reads the stamp skips with the package's name, or fails under TC_REQUIRE_TOOLS=1.
# usage: check_deps.sh SOURCE_ROOT WORK_DIR
set -uo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }

list() { "$src/scripts/deps.sh" --list "$1"; }
list test >"$work/test" && list build >"$work/build" && list sample >"$work/sample" &&
	list bench >"$work/bench" || not_ok "scripts/deps.sh --list"

# --- 1. packages named by tests ---
# need_cmd CMD PKG | need_file PATH PKG | need_missing WHAT PKG | need_optional WHAT PKG,
# with literal arguments; and stamps "missing: WHAT (PKG)".
cd "$src" || exit 1
git_files() {
	if command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -- "$@"
	else
		find "$@" -type f
	fi
}
mapfile -t files < <(git_files tests scripts samples bench | grep -Ev '^tests/lib/(need|check_deps)\.sh$')
named=$(grep -hoE '(need_cmd|need_file) +[^ ]+ +[a-z0-9][a-z0-9.+-]+ *$|(need_missing|need_optional) +"[^"]*" +"?[a-z0-9][a-z0-9.+-]+"? *$|missing: [^"]* \(([a-z0-9][a-z0-9.+-]+)\)' \
	"${files[@]}" 2>/dev/null |
	sed -E 's/^missing: .*\(([^)]*)\)$/\1/; s/^need_[a-z]+ +("[^"]*"|[^ ]+) +"?([^" ]+)"? *$/\2/' | sort -u)
[ -n "$named" ] || not_ok "found the packages tests name (the patterns above match nothing)"
for p in $named; do
	grep -qx "$p" "$work/test" || not_ok "package $p, named by a test, is in the test list of scripts/deps.sh"
done
ok "$(echo "$named" | wc -w) packages named by tests are all in the test list"

# --- 2. the lists nest ---
for sub in build sample; do
	missing=$(comm -23 "$work/$sub" "$work/test")
	[ -z "$missing" ] && ok "test contains $sub" || not_ok "test contains $sub (not: $missing)"
done
missing=$(comm -23 "$work/build" "$work/bench")
[ -z "$missing" ] && ok "bench contains build" || not_ok "bench contains build (not: $missing)"

# --- 3. test data without its tool, and the test that reads the stamp ---
mkdir -p "$work/nojava"
JAVA_LIB_DIR=$work/nojava bash "$src/tests/classfile/build_jasmin_corpus.sh" "$src" "$work/jasmin" \
	"$work/jasmin.stamp" >"$work/jasmin.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "the jasmin corpus target succeeds without jasmin" ||
	not_ok "the jasmin corpus target succeeds without jasmin (exit $rc: $(cat "$work/jasmin.log"))"
grep -q '^missing: .* (jasmin-sable)$' "$work/jasmin.stamp" && ok "its stamp names jasmin-sable" ||
	not_ok "its stamp names jasmin-sable ($(cat "$work/jasmin.stamp" 2>/dev/null))"
reader() { bash -c '. "$1/tests/lib/need.sh"; need_stamp "$2"; echo ran' reader "$src" "$work/jasmin.stamp"; }
out=$(TC_REQUIRE_TOOLS=0 reader)
rc=$?
[ $rc -eq 77 ] && [[ "$out" == *"jasmin-sable"* ]] && ok "a test reading it skips, naming the package" ||
	not_ok "a test reading it skips, naming the package (exit $rc: $out)"
out=$(TC_REQUIRE_TOOLS=1 reader 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ "$out" == *"jasmin-sable"* ]] && ok "under TC_REQUIRE_TOOLS=1 it fails, naming the package" ||
	not_ok "under TC_REQUIRE_TOOLS=1 it fails, naming the package (exit $rc: $out)"
exit $fail
