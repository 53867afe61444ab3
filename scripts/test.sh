#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test once, in the build where it can
# fail: a normal build with warnings as errors (`build`, the one scripts/sample.sh
# configures), and an AddressSanitizer + UndefinedBehaviorSanitizer build (`build-asan`)
# in which any sanitizer report fails the test that produced it. Tests of our C code
# carry the suite `asan` and run in build-asan; tests that judge no C code of ours in a
# way ASan could (browsers, Gradle, ProGuard, HotSpot balance, the documentation, the
# dex oracles' harness, the fuzzers' and ThreadSanitizer's own builds, the ARM and musl
# builds) carry `plain` and run in build; a test with neither runs in both (hostile:
# bad reads under ASan, memory and time bounds without it). tests/meson.build says it.
# A test that skips because a tool is missing fails instead: every tool comes from
# scripts/deps.sh test. Prints how long each part took, and at the end every suite's
# time, the slowest first.
#
# usage: scripts/test.sh [meson test arguments, e.g. --suite instrument]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/build-dirs.sh
start=$SECONDS
t=$SECONDS
scripts/deps.sh test
echo "== packages: $((SECONDS - t)) s"

# A sanitizer report must fail the test, not scroll by.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# A test whose tool is missing fails rather than skips (tests/lib/need.sh).
export TC_REQUIRE_TOOLS=${TC_REQUIRE_TOOLS:-1}

t=$SECONDS
setup_build build "${plain_options[@]}"
setup_build build-asan "${asan_options[@]}"
echo "== meson setup: $((SECONDS - t)) s"

status=0
for dir in build build-asan; do
	case $dir in
	build) other=asan ;;
	build-asan) other=plain ;;
	esac
	echo "== $dir"
	t=$SECONDS
	ninja -C "$dir"
	echo "== $dir: built in $((SECONDS - t)) s"
	t=$SECONDS
	meson test -C "$dir" --print-errorlogs --num-processes 2 --no-suite "$other" "$@" || status=1
	echo "== $dir: tests ran in $((SECONDS - t)) s"
done

# Every suite's time in both builds, the slowest first; fails when a test was skipped.
python3 - build/meson-logs/testlog.json build-asan/meson-logs/testlog.json "$TC_REQUIRE_TOOLS" <<'PY' || status=1
import json, sys
*logs, require = sys.argv[1:]
rows, skipped, tests = {}, [], []
for log in logs:
    build = log.split("/")[0]
    for line in open(log):
        t = json.loads(line)
        # "project:suite+suite / name" (meson 1.0 writes no "suite" field); the build tags
        # (asan, plain) are not suites of their own
        suites = [s for s in t["name"].split(" / ")[0].split(":")[-1].split("+") if s not in ("asan", "plain")]
        r = rows.setdefault((build, "+".join(suites)), [0, 0.0, 0.0])
        r[0] += 1
        r[1] += t["duration"]
        r[2] = max(r[2], t["duration"])
        tests.append((t["duration"], build, t["name"].split(" / ")[-1]))
        if t["result"] == "SKIP":
            skipped.append(build + ": " + t["name"])
print("== time per suite (seconds, summed over its tests, which may run two at a time; the slowest test)")
print(f"   {'suite':18} {'build':10} {'tests':>5} {'seconds':>8} {'slowest':>8}")
for (build, suite), (n, secs, top) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
    print(f"   {suite:18} {build:10} {n:5} {secs:8.1f} {top:8.1f}")
total = sum(r[1] for r in rows.values())
print(f"   {'all':18} {'':10} {sum(r[0] for r in rows.values()):5} {total:8.1f}")
print("== the ten slowest tests (seconds)")
for secs, build, name in sorted(tests, reverse=True)[:10]:
    print(f"   {name:36} {build:10} {secs:8.1f}")
if skipped:
    print("== skipped (a tool is missing): " + ", ".join(skipped))
    sys.exit(1 if require == "1" else 0)
PY
echo "== scripts/test.sh: $((SECONDS - start)) s in all (exit $status)"
exit $status
