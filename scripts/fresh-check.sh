#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12, as a new user runs them: a minimal
# bookworm root (mmdebstrap --variant=apt: essential packages and apt, nothing else), a
# clone of the commit under test in /src/tracecanary, then `scripts/sample.sh` and
# `scripts/test.sh`, as root, inside it. What the scripts do not install is not there,
# so a package missing from scripts/deps.sh fails the run. .ci/run is this script.
#
# usage: scripts/fresh-check.sh [--rev REV] [--only sample|test] [--keep] [--work DIR]
#                               [--artifacts DIR] [--refresh-root] [--cold] [--ca FILE]
#                               [-- MESON_TEST_ARGS...]
#   --rev REV        the commit to check (default HEAD; uncommitted changes are not seen)
#   --only WHAT      run only scripts/sample.sh or only scripts/test.sh
#   --keep           keep the root afterwards (its path is printed), for a look inside
#   --work DIR       where the root is made (default ${TMPDIR:-/var/tmp}); a few GB
#   --artifacts DIR  where sample-out/ and the meson logs are copied (default ci-out/)
#   --refresh-root   make the cached base root again (it is otherwise reused)
#   --cold           an empty download cache for this run (every npm corpus,
#                    playwright-core and Maven artifact fetched anew inside the root),
#                    as on a new machine
#   --ca FILE        a further CA certificate (PEM) for the root to trust; repeatable
#   -- ARGS          passed to scripts/test.sh (meson test), e.g. -- --suite instrument
#
# Cached between runs, under ${XDG_CACHE_HOME:-~/.cache}/tracecanary/: the empty base
# root as a tarball, apt's downloaded .deb files and the tests' hash-checked downloads
# (tests/lib/npm_fetch.py; tests/lib/maven_fetch.py, in downloads/maven), both
# bind-mounted into the root: they change nothing about what is installed. Installed
# packages are never cached: every run unpacks the base root anew and installs into it.
#
# Isolation: the root runs in new mount and PID namespaces (unshare). Its mounts
# (/proc, /sys, /dev, /dev/shm, /dev/pts, the two caches) exist only in that namespace
# and vanish with it, on every exit path, and when the namespace's first process ends
# the kernel kills every process left in it (Gradle daemons included). The root is then
# deleted, after checking that nothing is mounted below it.
#
# TLS: the root trusts Debian's CAs and the CAs added locally on this machine (every
# *.crt under /usr/local/share/ca-certificates, Debian's place for them, and --ca
# files), so that downloads work where egress goes through a TLS proxy with its own
# CA; Node.js, which ignores the system store, is pointed at the bundle
# (NODE_EXTRA_CA_CERTS); Python's downloads (maven_fetch.py) read that store. The proxy variables (http_proxy, https_proxy, no_proxy, in
# either case) are passed on when set.
#
# Needs root, unshare (util-linux), git and mmdebstrap (installed with apt-get when
# missing). Exit status: that of the first command that failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

rev=HEAD only= keep=0 refresh=0 cold=0
extra_cas=()
work=${TMPDIR:-/var/tmp}
artifacts=$here/ci-out
test_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--rev) rev=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--work) work=$2; shift 2 ;;
	--artifacts) artifacts=$2; shift 2 ;;
	--refresh-root) refresh=1; shift ;;
	--cold) cold=1; shift ;;
	--ca) extra_cas+=("$2"); shift 2 ;;
	--) shift; test_args=("$@"); break ;;
	-h|--help) sed -n '2,43p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "fresh-check: unknown argument $1 (--help)" >&2; exit 2 ;;
	esac
done
case "$only" in ""|sample|test) ;; *) echo "fresh-check: --only sample|test" >&2; exit 2 ;; esac
for f in "${extra_cas[@]+"${extra_cas[@]}"}"; do
	grep -q -- '-----BEGIN CERTIFICATE-----' "$f" 2>/dev/null ||
		{ echo "fresh-check: --ca $f: not a PEM certificate" >&2; exit 2; }
done

say() { printf '== fresh-check: %s (%s s)\n' "$*" "$SECONDS"; }
die() { echo "fresh-check: $*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap, chroot, mounts)"
command -v unshare >/dev/null || die "needs unshare (util-linux)"
command -v git >/dev/null || die "needs git"
commit=$(git -C "$here" rev-parse --verify "$rev^{commit}") || die "no commit $rev"
if [ "$rev" = HEAD ] && [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
	echo "fresh-check: note: uncommitted changes are not checked, only $commit" >&2
fi

cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracecanary
mkdir -p "$cache/apt-archives/partial" "$cache/downloads"
# One run at a time: the .deb cache is shared, and two roots at once would only halve
# a 2-core machine.
exec 9>"$cache/lock"
if ! flock -n 9; then
	echo "fresh-check: waiting for another run to finish" >&2
	flock 9
fi

# --- the base root: made once with mmdebstrap, kept as a tarball, never modified -------
base=$cache/bookworm-apt.tar
if [ "$refresh" = 1 ] || [ ! -f "$base" ] || [ ! -s "$base" ]; then
	if ! command -v mmdebstrap >/dev/null; then
		say "installing mmdebstrap"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
	fi
	say "making the base root (mmdebstrap --variant=apt bookworm)"
	# The mirror is the one this machine's apt uses.
	src=/etc/apt/sources.list.d/debian.sources
	[ -f "$src" ] || src=/etc/apt/sources.list
	# --format: mmdebstrap otherwise guesses from the name, and "*.tmp" would be a directory.
	rm -rf "$base" "$base.tmp"
	mmdebstrap --quiet --variant=apt --format=tar --include=ca-certificates bookworm "$base.tmp" "$src" ||
		die "mmdebstrap failed"
	mv -f "$base.tmp" "$base"
fi

# --- a fresh root from it, and the clone ----------------------------------------------
mkdir -p "$work"
root=$(mktemp -d "$work/tracecanary-root.XXXXXX")
ns_pid=

# mounted_below DIR: the mount points at or below DIR that this namespace sees.
mounted_below() {
	awk -v r="$1" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [ -n "$ns_pid" ] && kill -0 "$ns_pid" 2>/dev/null; then
		# SIGKILL: unshare --fork ignores SIGTERM and SIGINT while it waits (a TERM left
		# this cleanup waiting for ever). It dies of KILL, --kill-child then SIGKILLs the
		# namespace's first process, and its end kills every other process of the namespace.
		kill -KILL "$ns_pid" 2>/dev/null || true
		wait "$ns_pid" 2>/dev/null || true
	fi
	if [ -n "$(mounted_below "$root")" ]; then
		echo "fresh-check: still mounted below $root, not deleting it:" >&2
		mounted_below "$root" >&2
		[ $rc -ne 0 ] || rc=1
	elif [ "$keep" = 1 ]; then
		echo "fresh-check: the root is kept in $root" >&2
	else
		rm -rf --one-file-system "$root"
	fi
	[ "$cold" = 0 ] || [ "$keep" = 1 ] || rm -rf "$root.downloads"

	say "done (exit $rc)"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

say "unpacking the base root into $root"
tar -xf "$base" -C "$root"
git clone -q --no-hardlinks "$here" "$root/src/tracecanary"
git -C "$root/src/tracecanary" checkout -q --detach "$commit"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's locally added CAs, and --ca files: update-ca-certificates adds them to
# the root's bundle before anything is downloaded (see the inner script).
ca_dir=$root/usr/local/share/ca-certificates/fresh-check
mkdir -p "$ca_dir"
n_cas=0
while IFS= read -r -d '' f; do
	n_cas=$((n_cas + 1))
	cp "$f" "$ca_dir/host-$n_cas.crt"
done < <(find /usr/local/share/ca-certificates -name '*.crt' \( -type f -o -type l \) -print0 2>/dev/null | sort -z)
for f in "${extra_cas[@]+"${extra_cas[@]}"}"; do
	n_cas=$((n_cas + 1))
	cp "$f" "$ca_dir/extra-$n_cas.crt"
done
[ "$n_cas" -eq 0 ] || say "the root trusts $n_cas locally added CA certificate(s) besides Debian's"
# The proxy settings, if any, go in as they are.
proxy_env=()
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
	[ -z "${!v:-}" ] || proxy_env+=("$v=${!v}")
done
downloads=$cache/downloads
if [ "$cold" = 1 ]; then
	downloads=$root.downloads
	mkdir -p "$downloads"
	say "a cold download cache: $downloads"
fi
say "checking $commit ($(git -C "$here" log -1 --format=%s "$commit" | cut -c1-60))"

# --- the two commands, in their own namespaces -----------------------------------------
inner=$(
	cat <<'EOF'
cd /src/tracecanary
if [ -n "$(ls -A /usr/local/share/ca-certificates/fresh-check 2>/dev/null)" ]; then
	# (its rehash warns of the bundle itself, which is not one certificate: said only on failure)
	out=$(update-ca-certificates 2>&1) || { echo "$out"; echo "== fresh-check: update-ca-certificates failed"; exit 1; }
fi
run() {
	echo "== fresh-check: $* ($SECONDS s inside the root)"
	"$@" || { rc=$?; echo "== fresh-check: $* failed (exit $rc)"; exit $rc; }
}
[ "$ONLY" = test ] || run scripts/sample.sh
[ "$ONLY" = sample ] || run scripts/test.sh "$@"
EOF
)
# /dev comes from the host (the JVM and the sanitizers need /dev/null, /dev/urandom and
# friends), with a private /dev/shm and /dev/pts; /proc is this PID namespace's own.
setup_ns=$(
	cat <<'EOF'
set -e
r=$1 cache=$2 only=$3 script=$4 downloads=$5 proxies=$6
shift 6
mount -t proc proc "$r/proc"
mount --rbind /sys "$r/sys"
mount --rbind /dev "$r/dev"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts" 2>/dev/null || true
mount --bind "$cache/apt-archives" "$r/var/cache/apt/archives"
mkdir -p "$r/root/.cache/tracecanary/downloads"
mount --bind "$downloads" "$r/root/.cache/tracecanary/downloads"
# proxies: NUL-free "NAME=VALUE" lines
penv=()
while IFS= read -r l; do [ -z "$l" ] || penv+=("$l"); done <<<"$proxies"
exec chroot "$r" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 CI=true \
	TC_IN_FRESH_ROOT=1 ONLY="$only" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt ${penv[@]+"${penv[@]}"} \
	/bin/bash -c "$script" inner "$@"
EOF
)
set +e
unshare --mount --propagation private --pid --fork --kill-child \
	bash -c "$setup_ns" setup "$root" "$cache" "$only" "$inner" "$downloads" \
	"$(printf '%s\n' "${proxy_env[@]+"${proxy_env[@]}"}")" \
	"${test_args[@]+"${test_args[@]}"}" &
ns_pid=$!
wait "$ns_pid"
rc=$?
ns_pid=
set -e

# --- what a user would look at: the sample's outputs and the test logs ----------------
rm -rf "$artifacts"
mkdir -p "$artifacts"
[ -d "$root/src/tracecanary/sample-out" ] && cp -r "$root/src/tracecanary/sample-out" "$artifacts/"
for b in build build-asan; do
	[ -d "$root/src/tracecanary/$b/meson-logs" ] && cp -r "$root/src/tracecanary/$b/meson-logs" "$artifacts/$b-logs"
	# the browser test's screenshots and page (tests/browser/report.sh)
	for f in "$root/src/tracecanary/$b/tests/browser/sample"/{report-*.png,report.html}; do
		[ -f "$f" ] && mkdir -p "$artifacts/$b-browser" && cp "$f" "$artifacts/$b-browser/"
	done
done
if [ "$only" != test ] && [ $rc -eq 0 ] && [ ! -s "$root/src/tracecanary/sample-out/reports.jsonl" ]; then
	echo "fresh-check: scripts/sample.sh left no sample-out/reports.jsonl" >&2
	rc=1
fi
say "artifacts in $artifacts"
exit $rc
