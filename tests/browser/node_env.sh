# Sourced by report.sh and scripts/screenshots.sh (with $here set to this
# directory): installs playwright-core, pinned with its integrity hash in
# package-lock.json, with `npm ci` into the download cache (outside the repository
# and the build directory), once per lock file, and exports NODE_PATH to it.
# Env: TC_DOWNLOADS (the cache, as for tests/lib/npm_fetch.py).
# Node.js trusts only its own CA list, not the system's; the system bundle also holds the
# CAs added locally (a TLS proxy's), so npm is pointed at it unless told otherwise.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
	export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi

# playwright-core, once per lock file
cache=${TC_DOWNLOADS:-${XDG_CACHE_HOME:-$HOME/.cache}/tracecanary/downloads}
lock=$(sha256sum "$here/package-lock.json" | cut -c1-16)
mods=$cache/browser-node-$lock
if [ ! -d "$mods/node_modules/playwright-core" ]; then
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.browser-node.XXXXXX")
	cp "$here/package.json" "$here/package-lock.json" "$tmp/"
	if ! (cd "$tmp" && npm ci --no-audit --no-fund --ignore-scripts --cache "$cache/npm-cache" >&2); then
		rm -rf "$tmp"
		echo "not ok - npm ci (playwright-core, tests/browser/package-lock.json)" >&2
		exit 1
	fi
	rm -rf "$mods"
	mv "$tmp" "$mods"
fi
export NODE_PATH=$mods/node_modules
