#!/usr/bin/env bash
# maven_fetch.py on a local repository (file:// URLs, no network): a pinned artifact is
# fetched into a Maven-layout cache and printed; the second call finds it without the
# repository; a checksum that differs, an artifact not in the lock, a missing one and
# --offline with an empty cache each fail with a message naming the artifact and
# leave nothing in the cache; and every line of tests/lib/maven.lock parses.
# usage: maven_fetch_test.sh WORK_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$1
rm -rf "$work" && mkdir -p "$work/repo/org/example/thing/1.0" "$work/cache"
fail=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; fail=1; }
export TC_DOWNLOADS=$work/cache MAVEN_REPOSITORY=file://$work/repo
unset TC_OFFLINE
fetch() { python3 "$here/maven_fetch.py" --lock "$work/lock" "$@"; }

printf 'the artifact\n' >"$work/repo/org/example/thing/1.0/thing-1.0.jar"
printf 'its sources\n' >"$work/repo/org/example/thing/1.0/thing-1.0-sources.jar"
printf '<project/>\n' >"$work/repo/org/example/thing/1.0/thing-1.0.pom"
sha() { sha256sum "$1" | cut -d' ' -f1; }
cat >"$work/lock" <<EOF
# a comment, and a blank line

org.example:thing:1.0 $(sha "$work/repo/org/example/thing/1.0/thing-1.0.jar")
org.example:thing:1.0:sources $(sha "$work/repo/org/example/thing/1.0/thing-1.0-sources.jar")
org.example:thing:1.0@pom $(sha "$work/repo/org/example/thing/1.0/thing-1.0.pom")  # the pom
org.example:thing:1.0@zip 0000000000000000000000000000000000000000000000000000000000000000
org.example:gone:1.0 0000000000000000000000000000000000000000000000000000000000000000
EOF

out=$(fetch org.example:thing:1.0 org.example:thing:1.0:sources org.example:thing:1.0@pom 2>&1)
want="$work/cache/maven/org/example/thing/1.0/thing-1.0.jar
$work/cache/maven/org/example/thing/1.0/thing-1.0-sources.jar
$work/cache/maven/org/example/thing/1.0/thing-1.0.pom"
[ "$out" = "$want" ] && cmp -s "$work/cache/maven/org/example/thing/1.0/thing-1.0.jar" \
	"$work/repo/org/example/thing/1.0/thing-1.0.jar" &&
	ok "fetched into the cache in Maven's layout, paths printed" ||
	{ echo "$out"; not_ok "fetched into the cache in Maven's layout, paths printed"; }

mv "$work/repo" "$work/repo.away"
out=$(fetch --offline org.example:thing:1.0 2>&1) && [ "$out" = "${want%%$'\n'*}" ] &&
	ok "a cached artifact needs no repository (--offline)" ||
	{ echo "$out"; not_ok "a cached artifact needs no repository (--offline)"; }
mv "$work/repo.away" "$work/repo"

# expect_fail NAME PATTERN ARGS...: exit 1, the message matches, nothing new cached
expect_fail() {
	local name=$1 pattern=$2
	shift 2
	local before after
	before=$(find "$work/cache" -type f ! -name .lock | sort)
	if out=$(fetch "$@" 2>&1); then
		echo "$out"
		not_ok "$name: fails"
		return
	fi
	after=$(find "$work/cache" -type f ! -name .lock | sort)
	if ! grep -q -- "$pattern" <<<"$out"; then
		echo "$out"
		not_ok "$name: says '$pattern'"
	elif [ "$before" != "$after" ]; then
		echo "$after"
		not_ok "$name: leaves nothing in the cache"
	else
		echo "#   $out"
		ok "$name"
	fi
}
cp "$work/repo/org/example/thing/1.0/thing-1.0.jar" "$work/repo/org/example/thing/1.0/thing-1.0.zip"
expect_fail "a checksum that differs" 'org.example:thing:1.0@zip: .*sha256 .*pins 0000' org.example:thing:1.0@zip
expect_fail "an artifact the lock lacks" 'org.example:other:2.0: not pinned in' org.example:other:2.0
expect_fail "an artifact the repository lacks" 'org.example:gone:1.0: not in the cache .* cannot be fetched from file://' org.example:gone:1.0
rm -rf "$work/cache/maven/org/example/thing/1.0/thing-1.0.pom"
expect_fail "--offline with the artifact not cached" 'org.example:thing:1.0@pom: not in the cache .*downloads are off' --offline org.example:thing:1.0@pom
TC_OFFLINE=1 expect_fail "TC_OFFLINE=1 likewise" 'downloads are off' org.example:thing:1.0@pom
expect_fail "a bad coordinate" 'not group:artifact:version' --lock "$work/lock" org.example:thing

# the project's lock: every line "COORD SHA256", each coordinate one the script parses
python3 - "$here/maven.lock" <<'EOF' && ok "tests/lib/maven.lock parses" || not_ok "tests/lib/maven.lock parses"
import re, sys
n = 0
for i, line in enumerate(open(sys.argv[1]), 1):
    line = line.split("#", 1)[0].split()
    if not line:
        continue
    n += 1
    if len(line) != 2 or not re.fullmatch(r"[0-9a-f]{64}", line[1]) or \
            not re.fullmatch(r"[\w.-]+:[\w.-]+:[\w.-]+(:[\w.-]+)?(@\w+)?", line[0]):
        sys.exit(f"{sys.argv[1]}:{i}: {' '.join(line)}")
sys.exit(0 if n else "no entries")
EOF

[ $fail = 0 ] && echo "maven_fetch: all passed" || echo "maven_fetch: FAILED"
exit $fail
