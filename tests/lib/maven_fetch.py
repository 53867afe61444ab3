#!/usr/bin/env python3
"""Fetch pinned Maven artifacts into the download cache, once, and print their paths.

usage: maven_fetch.py [--lock FILE] [--offline] COORD...   the cached, verified files, one a line
       maven_fetch.py --pin COORD...                       lock lines for new artifacts

COORD is group:artifact:version, with :classifier after it and @ext at its end when the
file is not the plain jar (org.robolectric:android-all:14-robolectric-10818077,
junit:junit:4.13.2@pom). Each must have a line "COORD SHA256" in the lock file
(default: maven.lock beside this script); the file is checked against that sha256
before it is renamed into place, so a cached file is always a verified one. --pin
downloads the artifact, checks it against the repository's own .sha1 and prints the
line to add to the lock (review it and commit it); the file stays in the cache.

The cache is $TC_DOWNLOADS/maven (by default ${XDG_CACHE_HOME:-~/.cache}/tracecanary/
downloads/maven, the directory CI bind-mounts into its fresh root), laid out as a Maven
local repository (group/with/slashes/artifact/version/artifact-version.jar), so
`mvn -o -Dmaven.repo.local=...` can read it. The repository is Maven Central, or
$MAVEN_REPOSITORY (a mirror's URL); proxies come from https_proxy/no_proxy and CAs from
the system store, as for every other download of the tests. --offline (or
TC_OFFLINE=1) never downloads.

Why not `mvn dependency:get`: Maven is not otherwise needed by the tests, its dependency
plugin and that plugin's own dependencies would themselves be downloaded unpinned in
CI's fresh root (Debian's libmaven-dependency-plugin-java lives in a repository mvn does
not read by default), mvn reads no proxy variables (it wants a settings.xml) and trusts
the JVM's store, not the system's, and each run starts a JVM. This speaks Maven's
repository layout, the only part of Maven a pinned download needs.

Exit status 0 when every artifact is in the cache; 1, with a message naming the
artifact, its URL, the cache and what went wrong, when one is not in the lock, cannot
be fetched or does not match its checksum: a test that needs it fails, it does not skip.
"""
import fcntl, hashlib, os, sys, tempfile, urllib.request

CENTRAL = "https://repo.maven.apache.org/maven2"


def die(msg):
    print(f"maven_fetch: {msg}", file=sys.stderr)
    sys.exit(1)


def parse(coord):
    ext = "jar"
    if "@" in coord:
        coord, ext = coord.rsplit("@", 1)
    parts = coord.split(":")
    if len(parts) not in (3, 4) or not all(parts) or not ext:
        die(f"{coord}: not group:artifact:version[:classifier][@ext]")
    g, a, v = parts[:3]
    c = parts[3] if len(parts) == 4 else None
    name = f"{a}-{v}" + (f"-{c}" if c else "") + f".{ext}"
    return os.path.join(*g.split("."), a, v, name)


def cache_dir():
    d = os.environ.get("TC_DOWNLOADS") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tracecanary", "downloads")
    return os.path.join(d, "maven")


def read_lock(path):
    lock = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.split("#", 1)[0].split()
                if not line:
                    continue
                if len(line) != 2 or len(line[1]) != 64:
                    die(f"{path}:{n}: expected 'COORD SHA256'")
                lock[line[0]] = line[1].lower()
    except OSError as e:
        die(f"{path}: {e}")
    return lock


def download(url, dest_dir, hasher):
    """Downloads url into a temporary file in dest_dir; returns (path, hexdigest)."""
    fd, tmp = tempfile.mkstemp(dir=dest_dir, prefix=".fetch-")
    h = hasher()
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=120) as r:
            while True:
                b = r.read(1 << 20)
                if not b:
                    break
                h.update(b)
                out.write(b)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp, h.hexdigest()


def fetch(coord, want, repo, cache, offline, lock_path):
    rel = parse(coord)
    path = os.path.join(cache, rel)
    if os.path.exists(path):
        return path
    url = f"{repo}/{rel}"
    if offline:
        die(f"{coord}: not in the cache {cache} and downloads are off (--offline/TC_OFFLINE); "
            f"fetch {url} first")
    d = os.path.dirname(path)
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        die(f"{coord}: not in the cache {cache}, and the cache cannot take it: {e}")
    # One download per file even when tests run in parallel: the second waits, then finds it.
    with open(os.path.join(d, ".lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if os.path.exists(path):
            return path
        try:
            tmp, got = download(url, d, hashlib.sha256)
        except OSError as e:
            die(f"{coord}: not in the cache {cache} and cannot be fetched from {url}: {e}")
        if got != want:
            os.unlink(tmp)
            die(f"{coord}: {url}: sha256 {got}, but {lock_path} pins {want}")
        os.rename(tmp, path)
    return path


def pin(coord, repo, cache):
    """Prints the lock line; the file, checked against the repository's .sha1, is cached."""
    rel = parse(coord)
    url = f"{repo}/{rel}"
    path = os.path.join(cache, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        tmp, sha256 = download(url, os.path.dirname(path), hashlib.sha256)
        with open(tmp, "rb") as f:
            sha1 = hashlib.sha1(f.read()).hexdigest()
        with urllib.request.urlopen(url + ".sha1", timeout=60) as r:
            want1 = r.read().decode().split()[0].lower()
    except OSError as e:
        die(f"{coord}: {url}: {e}")
    if sha1 != want1:
        os.unlink(tmp)
        die(f"{coord}: {url}: sha1 {sha1}, the repository says {want1}")
    os.rename(tmp, path)
    print(f"{coord} {sha256}")


def main():
    args = sys.argv[1:]
    lock_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "maven.lock")
    offline = os.environ.get("TC_OFFLINE") == "1"
    mode = "fetch"
    while args and args[0].startswith("--"):
        a = args.pop(0)
        if a == "--lock" and args:
            lock_path = args.pop(0)
        elif a == "--offline":
            offline = True
        elif a == "--pin":
            mode = "pin"
        else:
            die(__doc__.split("\n\n")[1])
    if not args:
        die(__doc__.split("\n\n")[1])
    repo = (os.environ.get("MAVEN_REPOSITORY") or CENTRAL).rstrip("/")
    cache = cache_dir()
    if mode == "pin":
        for c in args:
            pin(c, repo, cache)
        return
    lock = read_lock(lock_path)
    for c in args:
        parse(c)
        if c not in lock:
            die(f"{c}: not pinned in {lock_path} (maven_fetch.py --pin {c} prints its line)")
    for c in args:
        print(fetch(c, lock[c], repo, cache, offline, lock_path))


main()
