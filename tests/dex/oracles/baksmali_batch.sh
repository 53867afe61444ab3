#!/usr/bin/env bash
# Many baksmali (or smali) command lines in one JVM (java/BaksmaliBatch.java): a JVM's
# start and warm-up cost more than a small dex file's disassembly, and the dex tests run
# baksmali on dozens of files.
#
# usage: baksmali_batch.sh CACHE baksmali|smali JOBS_FILE
#   CACHE      where BaksmaliBatch is compiled, once per content (its source, javac, the
#              jars), under a lock: the tests sharing CACHE compile it once
#   JOBS_FILE  one job a line: LOG, a tab, then the tool's arguments separated by tabs
# Each job writes what `TOOL ARGS... >LOG 2>&1` writes (its output files, its log); one
# line per job goes to stdout as it ends: its exit status, a tab, LOG. Exit 0 when every
# job exited 0, 1 when one did not, 2 when BaksmaliBatch cannot be compiled.
#        baksmali_batch.sh --self-test CACHE WORK DEX
#   runs `baksmali d` as a command and as a batch job on DEX, plain and with
#   --register-info ALL,FULLMERGE, on a truncated copy of it and on a missing file; fails
#   unless the trees are byte-identical, and the exit statuses and the logs' first lines
#   (the error) the same
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# the jars the Debian wrappers (/usr/bin/baksmali, /usr/bin/smali) put on the class path
jars=/usr/share/java/antlr3-runtime.jar:/usr/share/java/baksmali.jar:/usr/share/java/dexlib2.jar:/usr/share/java/guava.jar:/usr/share/java/jcommander.jar:/usr/share/java/smali-util.jar:/usr/share/java/smali.jar

batch_classes() { # CACHE -> prints the directory of the compiled BaksmaliBatch
	local key d fd
	key=$({ cat "$here/java/BaksmaliBatch.java"; readlink -f "$(command -v javac)" "$(command -v java)"
		for j in ${jars//:/ }; do readlink -f "$j"; done; } | sha256sum | cut -c1-16)
	d=$1/baksmali-batch-$key
	mkdir -p "$d"
	exec {fd}>"$d.lock"
	flock "$fd"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d/classes"
		javac -nowarn -d "$d/classes" -cp "$jars" "$here/java/BaksmaliBatch.java" >"$d/javac.log" 2>&1 &&
			touch "$d/done"
	fi
	exec {fd}>&-
	[ -f "$d/done" ] || { cat "$d/javac.log" >&2; return 1; }
	echo "$d/classes"
}

run_batch() { # CACHE TOOL JOBS_FILE
	local classes
	classes=$(batch_classes "$1") || { echo "baksmali_batch.sh: cannot compile BaksmaliBatch.java" >&2; return 2; }
	java -Djava.security.manager=allow -cp "$classes:$jars" BaksmaliBatch "$2" "$3" 2>>"$3.err"
}

if [ "${1:-}" = --self-test ]; then
	[ $# = 4 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
	cache=$2 work=$3 dex=$4
	rm -rf "$work" && mkdir -p "$work"
	head -c 3000 "$dex" >"$work/truncated.dex"
	bad=0
	: >"$work/jobs"
	cases=(plain reginfo truncated missing)
	for c in "${cases[@]}"; do
		opts=(d -b "") in=$dex
		case $c in
		reginfo) opts+=(--register-info ALL,FULLMERGE) ;;
		truncated) in=$work/truncated.dex ;;
		missing) in=$work/missing.dex ;;
		esac
		baksmali "${opts[@]}" -o "$work/$c.cmd" "$in" >"$work/$c.cmd.log" 2>&1
		echo $? >"$work/$c.cmd.rc"
		(IFS=$'\t'; echo "$work/$c.batch.log	${opts[*]}	-o	$work/$c.batch	$in") >>"$work/jobs"
	done
	run_batch "$cache" baksmali "$work/jobs" >"$work/status"
	for c in "${cases[@]}"; do
		got=$(awk -F'\t' -v l="$work/$c.batch.log" '$2 == l { print $1 }' "$work/status")
		want=$(cat "$work/$c.cmd.rc")
		n=$(find "$work/$c.cmd" -type f 2>/dev/null | wc -l)
		# the log's first line: the error message or exception, when there is one
		first=$(head -n 1 "$work/$c.cmd.log")
		if { [ "$c" = truncated ] || [ "$c" = missing ] || [ "$n" -gt 0 ]; } &&
			{ [ ! -e "$work/$c.cmd" ] && [ ! -e "$work/$c.batch" ] ||
				diff -r "$work/$c.cmd" "$work/$c.batch" >"$work/$c.diff" 2>&1; } &&
			[ "$got" = "$want" ] && [ "$(head -n 1 "$work/$c.batch.log")" = "$first" ]; then
			echo "ok - batch baksmali ($c) writes what the command does: $n files, exit $got${first:+, $first}"
		else
			echo "not ok - batch baksmali ($c) differs from the command: exit ${got:-none} vs $want, $n files; $(head -n 4 "$work/$c.diff" 2>/dev/null | tr '\n' ' ') log: $(head -n 1 "$work/$c.batch.log") vs $first"
			bad=1
		fi
	done
	exit $bad
fi
[ $# = 3 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
run_batch "$@"
