#!/usr/bin/env bash
# full_disk.sh FILL_RING: a ring file on a full disk. The ring (808 KB) goes on a 64 KiB
# tmpfs, mounted in a mount namespace of its own (unshare, as root or in a user
# namespace); where that is refused, under a 64 KiB file-size limit. The runtime must
# notice that it cannot reserve the file, say so and record in memory: a sparse file
# would have faulted (SIGBUS) at the first slot past the free space.
set -uo pipefail
fill=$1
src=$(cd "$(dirname "$0")/../../.." && pwd)
. "$src/tests/lib/need.sh"
need_cmd unshare util-linux
need_cmd mount mount
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/disk"
if unshare -m true 2>/dev/null; then
  ns=(unshare -m)
elif unshare -rm true 2>/dev/null; then
  ns=(unshare -rm)
else
  ns=()
fi
if [ ${#ns[@]} -gt 0 ]; then
  what="a full 64 KiB tmpfs"
  "${ns[@]}" sh -c 'mount -t tmpfs -o size=64k tc-full "$1" && exec "$2" "$1/trace.ring" 100000' sh \
    "$dir/disk" "$fill" >"$dir/out" 2>&1
  rc=$?
else
  what="a 64 KiB file-size limit"
  (ulimit -f 64 && exec "$fill" "$dir/disk/trace.ring" 100000) >"$dir/out" 2>&1
  rc=$?
fi
echo "# $what:"
sed 's/^/# /' "$dir/out"
pass=0 fail=0
expect() { # expect DESCRIPTION COMMAND...
  local d=$1
  shift
  if "$@"; then pass=$((pass + 1)); echo "ok - $d"; else fail=$((fail + 1)); echo "not ok - $d"; fi
}
expect "all 100000 events written (exit $rc; 135 is SIGBUS)" sh -c "[ $rc -eq 0 ] && grep -q '^written 100000$' '$dir/out'"
expect "a warning says the ring file had no room and the ring is in memory" \
  grep -Eq 'reserve 808448 bytes for .*: (No space left on device|File too large): the ring is in memory instead' \
  "$dir/out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
