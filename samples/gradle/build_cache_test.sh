#!/usr/bin/env bash
# The sample's instrument task served by a remote build cache (issue 29, item 4): an
# HTTP build cache (Debian's nginx with WebDAV PUT, unprivileged, on a free localhost
# port, its own prefix and temporary directories) started here; a first checkout builds
# twice with --build-cache and pushes; a second, clean checkout (its own Gradle home:
# no local cache) with the base mapping as committed gets the instrumented classes, jar
# and mapping from the server without running tc-instrument: tc-instrument is a
# wrapper that logs each call, and the second checkout's log holds no run (its
# --version, which the task's key takes, and diff only; the first checkout's log shows
# that it does log runs).
#
# (Not --offline: Gradle turns the remote cache off then; the sample needs nothing from
# the network.)
#
# usage: samples/gradle/build_cache_test.sh TC_INSTRUMENT WORK_DIR
set -euo pipefail
tc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/lib/need.sh"
need_cmd gradle gradle
need_cmd javac default-jdk-headless
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || need_missing "command 'nginx'" nginx
rm -rf "$work"
mkdir -p "$work"

# --- the cache server
ng=$work/nginx
mkdir -p "$ng/store" "$ng/tmp/body" "$ng/tmp/proxy" "$ng/tmp/fastcgi" "$ng/tmp/uwsgi" "$ng/tmp/scgi" "$ng/logs"
stop_nginx() {
	[ -s "$ng/nginx.pid" ] && kill "$(cat "$ng/nginx.pid")" 2>/dev/null || true
}
trap stop_nginx EXIT
start_nginx() {
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	# `user` counts only when started as root (as CI is): then the workers run as this
	# user too, and may write the store; otherwise nginx ignores it
	cat > "$ng/nginx.conf" <<EOF
user $(id -un) $(id -gn);
worker_processes 1;
pid $ng/nginx.pid;
error_log $ng/logs/error.log;
events { worker_connections 64; }
http {
    access_log $ng/logs/access.log;
    client_body_temp_path $ng/tmp/body;
    proxy_temp_path $ng/tmp/proxy;
    fastcgi_temp_path $ng/tmp/fastcgi;
    uwsgi_temp_path $ng/tmp/uwsgi;
    scgi_temp_path $ng/tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        root $ng/store;
        location /cache/ {
            dav_methods PUT;
            create_full_put_path on;
            client_max_body_size 64m;
        }
    }
}
EOF
	"$nginx" -p "$ng" -c "$ng/nginx.conf" -e "$ng/logs/error.log" 2>>"$ng/logs/start.log"
}
started=
for attempt in 1 2 3; do
	if start_nginx; then started=1; break; fi # the port was taken meanwhile: another
done
[ "$started" ] || { echo "nginx did not start:"; cat "$ng/logs/start.log" "$ng/logs/error.log"; exit 1; }
url=http://127.0.0.1:$port/cache/
# a PUT and a GET, as Gradle's HTTP cache makes them (python: no other client needed)
python3 - "${url}probe" <<'PY' || { echo "the cache server does not store a PUT"; cat "$ng/logs/error.log"; exit 1; }
import sys, time, urllib.request
for _ in range(50):
    try:
        urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=b"probe", method="PUT"), timeout=5)
        break
    except OSError:
        time.sleep(0.1)
assert urllib.request.urlopen(sys.argv[1], timeout=5).read() == b"probe"
PY
echo "cache server: nginx on $url"

# --- the runtime (a dependency of the app) and the logging tc-instrument
mkdir -p "$work/beat/com/tencent/matrix/trace/core"
cat > "$work/beat/com/tencent/matrix/trace/core/AppMethodBeat.java" <<'JAVA'
package com.tencent.matrix.trace.core;
public final class AppMethodBeat {
    public static void i(int id) {}
    public static void o(int id) {}
}
JAVA
javac -d "$work/beat" "$work/beat/com/tencent/matrix/trace/core/AppMethodBeat.java"
(cd "$work/beat" && jar cf "$work/beat.jar" com)
cat > "$work/tc-logged" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >> "\$TC_CALL_LOG"
exec "$tc" "\$@"
EOF
chmod +x "$work/tc-logged"

checkout() { # checkout DIR: the sample's sources, as a clone gives them
	mkdir -p "$1"
	cp -r "$here/src" "$here/build.gradle" "$here/settings.gradle" "$1/"
}
build() { # build DIR NAME: gradle --build-cache instrument in DIR, its own Gradle home and call log
	(cd "$1" && TC_BUILD_CACHE_URL=$url TC_CALL_LOG=$work/$2.calls XDG_CACHE_HOME=$work/$2.xdg \
		GRADLE_USER_HOME=$work/$2.gradle-home gradle --no-daemon --console=plain --build-cache \
		-Ptc="$work/tc-logged" -Pruntime="$work/beat.jar" instrument) >"$work/$2.log" 2>&1 ||
		{ cat "$work/$2.log"; exit 1; }
}
runs() { grep -c -- '--mapping-dir' "$work/$1.calls" 2>/dev/null || true; }

# --- the first checkout: a first build (no base mapping yet), then one with the base
checkout "$work/a"
build "$work/a" a1
build "$work/a" a2
[ "$(runs a1)" = 1 ] && [ "$(runs a2)" = 1 ] ||
	{ echo "the first checkout's builds ran tc-instrument $(runs a1) and $(runs a2) times, not once each"; exit 1; }
grep -q '"PUT /cache/' "$ng/logs/access.log" || { echo "nothing was pushed to the cache"; exit 1; }
echo "first checkout: two builds ran tc-instrument and pushed $(grep -c '"PUT /cache/' "$ng/logs/access.log") entries"

# --- a clean second checkout, the base mapping as committed: everything from the server
checkout "$work/b"
mkdir -p "$work/b/tracecanary"
cp "$work/a/tracecanary/methodMapping.txt" "$work/b/tracecanary/"
build "$work/b" b1
grep -Eq '^(> Task )?:instrument FROM-CACHE' "$work/b1.log" ||
	{ echo "the second checkout's instrument task was not restored from the cache:"; grep -E '^(> Task )?:' "$work/b1.log"; exit 1; }
[ "$(runs b1)" = 0 ] || { echo "the second checkout ran tc-instrument:"; cat "$work/b1.calls"; exit 1; }
grep -q '"GET /cache/[^ ]* HTTP/1.1" 200' "$ng/logs/access.log" || { echo "no entry was served"; exit 1; }
for f in mapping/methodMapping.txt mapping/ignoreMethodMapping.txt mapping/buildId tracecanary-gradle-sample.jar; do
	cmp "$work/a/build/tracecanary/$f" "$work/b/build/tracecanary/$f" ||
		{ echo "restored $f differs from the first checkout's"; exit 1; }
done
diff -r "$work/a/build/tracecanary/classes" "$work/b/build/tracecanary/classes" ||
	{ echo "the restored classes differ from the first checkout's"; exit 1; }
cmp "$work/a/tracecanary/methodMapping.txt" "$work/b/tracecanary/methodMapping.txt"
echo "second checkout: classes, jar and mapping from the remote cache, tc-instrument not run" \
	"(calls: $(tr '\n' ';' < "$work/b1.calls"))"
