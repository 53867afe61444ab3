#!/usr/bin/env bash
# The README's pictures (docs/report-*.png) of the report of the sample you just ran:
# scripts/sample.sh writes sample-out/report.html; this opens it in Debian's chromium
# (playwright-core, as tests/browser does) and writes the timeline, threads, methods,
# call stacks, reports and a slow-message report into docs/.
#
# usage: scripts/screenshots.sh [REPORT_HTML [DIR]]   (defaults: sample-out/report.html docs)
set -euo pipefail
cd "$(dirname "$0")/.."
html=${1:-sample-out/report.html}
dir=${2:-docs}
[ -f "$html" ] || { echo "screenshots: no $html (run scripts/sample.sh first)" >&2; exit 1; }
here=$PWD/tests/browser
. tests/lib/need.sh
need_cmd chromium chromium
need_cmd node nodejs
need_cmd npm npm
. "$here/node_env.sh"
mkdir -p "$dir"
node "$here/screenshots.js" "$html" "$dir"
