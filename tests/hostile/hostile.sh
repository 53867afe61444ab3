#!/usr/bin/env bash
# The hostile-input suite (hostile.py; README.md here), with the tools it needs.
# usage: hostile.sh SRC_ROOT TC_INSTRUMENT WORK_DIR [hostile.py options]
set -uo pipefail
src=$1 tci=$2 work=$3
shift 3
. "$src/tests/lib/need.sh"
need_cmd python3 python3
need_cmd unzip unzip
need_cmd dexdump dexdump
need_file /usr/bin/time time
exec python3 "$src/tests/hostile/hostile.py" --tci "$tci" --src "$src" --work "$work" "$@"
