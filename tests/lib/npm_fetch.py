#!/usr/bin/env python3
"""Fetch a pinned npm package tarball into the download cache, once, and print its path.

usage: npm_fetch.py NAME VERSION INTEGRITY      (INTEGRITY: "sha512-<base64>", as npm gives it)

The tarball comes from the npm registry (https://registry.npmjs.org, or $NPM_REGISTRY) and
is checked against the pinned sha512 (the registry's "integrity" field) before it is
renamed into place, so a cached file is always a verified one. The cache is
$TC_DOWNLOADS, by default ${XDG_CACHE_HOME:-~/.cache}/tracecanary/downloads; CI
bind-mounts it into its fresh root. Third-party files are never committed.
"""
import base64, hashlib, os, sys, tempfile, urllib.request

def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    name, version, want = sys.argv[1:]
    cache = os.environ.get("TC_DOWNLOADS") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tracecanary", "downloads")
    os.makedirs(cache, exist_ok=True)
    base = name.split("/")[-1]
    # the scope is part of the cached name: @devicefarmer/stf and a package stf, or
    # @midscene/android and @nativescript/android, must not share a file
    path = os.path.join(cache, f"{name.lstrip('@').replace('/', '-')}-{version}.tgz")
    if os.path.exists(path):
        print(path)
        return
    registry = os.environ.get("NPM_REGISTRY", "https://registry.npmjs.org").rstrip("/")
    url = f"{registry}/{name}/-/{base}-{version}.tgz"
    fd, tmp = tempfile.mkstemp(dir=cache, prefix=".fetch-")
    try:
        h = hashlib.sha512()
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=120) as r:
            while True:
                b = r.read(1 << 20)
                if not b:
                    break
                h.update(b)
                out.write(b)
        got = "sha512-" + base64.b64encode(h.digest()).decode()
        if got != want:
            sys.exit(f"npm_fetch: {url}: integrity {got}, expected {want}")
        os.rename(tmp, path)
    except OSError as e:
        sys.exit(f"npm_fetch: {url}: {e}")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    print(path)

main()
