# Sourced by scripts/sample.sh and scripts/test.sh: the one set of options of each build
# directory, so that the README's two commands configure `build` alike and the second
# compiles nothing the first compiled.
#   build       the tools, the runtime and every test; warnings are errors
#   build-asan  the same under AddressSanitizer + UndefinedBehaviorSanitizer, where any
#               sanitizer report fails the test that produced it
plain_options=(-Dwerror=true)
asan_options=(-Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fno-sanitize-recover=all)

# setup_build DIR OPTION...: configures DIR with exactly these options (--reconfigure
# when it exists: it looks for the dependencies again, Criterion may be new).
setup_build() {
	local dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

# build_quietly DIR [TARGET...]: ninja, printing a line at every tenth of the way and
# whatever is not a progress line (warnings, errors) as it comes; ninja's status (the
# callers set pipefail).
build_quietly() {
	local dir=$1
	shift
	ninja -C "$dir" "$@" | awk '
		/^\[[0-9]+\/[0-9]+\] / {
			split(substr($1, 2), f, "/"); done = f[1] + 0; total = f[2] + 0
			step = int(done * 10 / total)
			if (step > shown) { shown = step; printf "   %3d%% (%d of %d build steps)\n", step * 10, done, total; fflush() }
			next
		}
		/^ninja: (Entering|no work)/ { next }
		{ print; fflush() }'
}
