#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test twice: a normal build with
# warnings as errors, and an AddressSanitizer + UndefinedBehaviorSanitizer build in
# which any sanitizer report fails the test that produced it. A test that skips
# because a tool is missing fails instead: every tool comes from scripts/deps.sh test.
# Prints how long each part took (installs, each build, each suite).
#
# usage: scripts/test.sh [meson test arguments, e.g. --suite instrument]
set -euo pipefail
cd "$(dirname "$0")/.."
t=$SECONDS
scripts/deps.sh test
echo "== packages: $((SECONDS - t)) s"

# A sanitizer report must fail the test, not scroll by.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# A test whose tool is missing fails rather than skips (tests/lib/need.sh).
export TC_REQUIRE_TOOLS=${TC_REQUIRE_TOOLS:-1}

setup() {
	local dir=$1
	shift
	# --reconfigure looks for the dependencies again (Criterion may be new).
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

# summary DIR: seconds per suite from meson's test log; 1 when a test was skipped.
summary() {
	python3 - "$1/meson-logs/testlog.json" "$TC_REQUIRE_TOOLS" <<'EOF'
import json, sys
suites, skipped = {}, []
for line in open(sys.argv[1]):
    t = json.loads(line)
    # "project:suite+suite / name" (meson 1.0 writes no "suite" field)
    s = suites.setdefault(t["name"].split(" / ")[0].split(":")[-1], [0, 0.0])
    s[0] += 1
    s[1] += t["duration"]
    if t["result"] == "SKIP":
        skipped.append(t["name"])
print("   suite: tests, seconds (summed over tests that ran in parallel)")
for name, (n, secs) in sorted(suites.items(), key=lambda kv: -kv[1][1]):
    print(f"   {name:16} {n:3} {secs:8.1f}")
if skipped:
    print("== skipped (a tool is missing): " + ", ".join(skipped))
    sys.exit(1 if sys.argv[2] == "1" else 0)
EOF
}

t=$SECONDS
setup build -Dwerror=true
setup build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false \
	-Dc_args=-fno-sanitize-recover=all
echo "== meson setup: $((SECONDS - t)) s"

status=0
for dir in build build-asan; do
	echo "== $dir"
	t=$SECONDS
	ninja -C "$dir"
	echo "== $dir: built in $((SECONDS - t)) s"
	t=$SECONDS
	meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || status=1
	echo "== $dir: tests ran in $((SECONDS - t)) s"
	summary "$dir" || status=1
done
exit $status
