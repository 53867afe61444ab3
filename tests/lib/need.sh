# Sourced by test scripts that need a tool or a file from a Debian package:
#
#   . "$SRC/tests/lib/need.sh"
#   need_cmd jasmin jasmin-sable           # a command on PATH
#   need_file /usr/share/java/asm.jar libasm-java
#
# When it is missing the test is skipped (exit 77, meson's SKIP) with a message that
# names the package. scripts/test.sh installs every package of the `test` list and sets
# TC_REQUIRE_TOOLS=1: there a missing tool is a failure, so that a package left out of
# scripts/deps.sh fails CI instead of quietly skipping tests.

need_missing() {
	# need_missing WHAT PACKAGE
	if [ "${TC_REQUIRE_TOOLS:-0}" = 1 ]; then
		echo "FAIL: $1 is missing (Debian package $2); scripts/deps.sh test should install it" >&2
		exit 1
	fi
	echo "SKIP: $1 is missing (install the Debian package $2, or run scripts/deps.sh test)"
	exit 77
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || need_missing "command '$1'" "$2"
}

need_file() {
	[ -e "$1" ] || need_missing "$1" "$2"
}

# need_stamp STAMP: test data built by a custom target whose script found a tool
# missing writes "missing: WHAT (PACKAGE)" into its stamp and succeeds, so that a plain
# `ninja` never fails for want of a test-only tool; the test then skips (or fails).
need_stamp() {
	local line
	line=$(head -n 1 "$1" 2>/dev/null) || need_missing "$1 (its custom target did not run)" "?"
	case "$line" in
	missing:*)
		line=${line#missing: }
		need_missing "${line% (*}" "$(echo "$line" | sed -n 's/.*(\(.*\))$/\1/p')"
		;;
	esac
}

# need_optional WHAT PACKAGE: for a part of a test that can be left out (the test goes
# on): a failure under TC_REQUIRE_TOOLS=1, a "# skipped" line otherwise.
need_optional() {
	if [ "${TC_REQUIRE_TOOLS:-0}" = 1 ]; then
		echo "FAIL: $1 is missing (Debian package $2); scripts/deps.sh test should install it" >&2
		exit 1
	fi
	echo "# skipped: $1 is missing (Debian package $2)"
}
