# Shared by the benchmark scripts: the JDK corpus, the Java peers, timing helpers.

# jdk_corpus DIR: the running JDK's classes extracted into DIR (once).
jdk_corpus() {
	local dir=$1
	if [ ! -d "$dir" ] || [ -z "$(ls -A "$dir" 2>/dev/null)" ]; then
		bash "$root/tests/extract_jdk.sh" "$dir" "$dir.stamp" >/dev/null
	fi
}

# peers OUT: bench/peers' jar.
peers() {
	bash "$root/bench/peers/build.sh" "$1" >/dev/null
}

# measure LABEL CMD...: appends "wall_s rss_kb" of one run to $results/LABEL.
measure() {
	local label=$1
	shift
	/usr/bin/time -f "%e %M" -o "$results/.last" "$@" >/dev/null 2>"$results/.err" || {
		echo "failed: $*" >&2
		cat "$results/.err" >&2
		return 1
	}
	cat "$results/.last" >> "$results/$label"
}

# median FILE COLUMN: the median of a column of numbers.
median() {
	sort -g -k"$2","$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}
