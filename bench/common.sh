# Shared by the benchmark scripts: the JDK corpus, the Java peers, timing helpers.

# jdk_corpus DIR: the running JDK's classes extracted into DIR (once).
jdk_corpus() {
	local dir=$1
	if [ ! -d "$dir" ] || [ -z "$(ls -A "$dir" 2>/dev/null)" ]; then
		bash "$root/tests/extract_jdk.sh" "$dir" "$dir.stamp" >/dev/null
	fi
}

# peers OUT [jacoco]: bench/peers' jars (peers.jar; jacoco-peer.jar with `jacoco`).
peers() {
	bash "$root/bench/peers/build.sh" "$@" >/dev/null
}

# no_runtime_check TC_INSTRUMENT: --no-runtime-check when that build has it (the corpora
# are not apps with the runtime; older builds never checked), else nothing.
no_runtime_check() {
	# the help read whole first: grep -q ends the pipe at its match, and under pipefail
	# the help's last write then fails with SIGPIPE (it is more than one 4 KB buffer)
	local help
	help=$("$1" --help 2>/dev/null) || true
	if grep -q -- --no-runtime-check <<<"$help"; then echo --no-runtime-check; fi
}

# measure LABEL CMD...: appends "wall_s rss_kb" of one run to $results/LABEL. The wall
# time comes from bash's microsecond clock ($EPOCHREALTIME) around the whole process:
# GNU time's %e has 10 ms steps, too coarse for a run of about 0.1 s.
measure() {
	local label=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -f "%M" -o "$results/.last" "$@" >/dev/null 2>"$results/.err" || {
		echo "failed: $*" >&2
		cat "$results/.err" >&2
		return 1
	}
	t1=$EPOCHREALTIME
	echo "$(awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.4f", b - a }') $(cat "$results/.last")" \
		>> "$results/$label"
}

# measure_warm LABEL CMD...: appends "warm_s rss_kb": the warm median a peer run with
# --warm prints (warm_ms=, the second half of its rounds in one JVM, as a Gradle daemon
# runs a transform build after build) and the JVM's peak RSS over all its rounds.
measure_warm() {
	local label=$1 ms
	shift
	/usr/bin/time -f "%M" -o "$results/.last" "$@" >"$results/.out" 2>"$results/.err" || {
		echo "failed: $*" >&2
		cat "$results/.err" >&2
		return 1
	}
	ms=$(sed -n 's/^warm_ms=\([0-9.]*\).*/\1/p' "$results/.out")
	[ -n "$ms" ] || { echo "no warm_ms= from: $*" >&2; return 1; }
	echo "$(awk -v m="$ms" 'BEGIN { printf "%.4f", m / 1000 }') $(cat "$results/.last")" >> "$results/$label"
}

# log_load: appends the 1-minute load average to $results/load (the benchmarks print its
# range: a second core that is busy hides what -j2 and a JIT's threads gain).
log_load() {
	cut -d' ' -f1 /proc/loadavg >> "$results/load"
}

# load_range: "load 0.12-1.85 over N samples" of what log_load collected.
load_range() {
	sort -g "$results/load" | awk '{v[NR]=$1} END {printf "load %s-%s over %d samples\n", v[1], v[NR], NR}'
}

# median FILE COLUMN: the median of a column of numbers.
median() {
	sort -g -k"$2","$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}
