#!/bin/sh
# run.sh NAME SECONDS: runs build/fuzz/fuzz/fuzz_NAME (built by `make fuzz`) for
# SECONDS on one core. New inputs go to build/fuzz/corpus/NAME (not into
# the tree); tests/fuzz/corpus/NAME is read as the seeds. A crash, leak or
# timeout is written to build/fuzz/artifacts/ and fails the run: copy the
# file into tests/fuzz/corpus/NAME/ once fixed, so `make test` replays it.
set -u
name=$1
seconds=$2
bin=build/fuzz/fuzz/fuzz_$name
work=build/fuzz/corpus/$name
art=build/fuzz/artifacts
mkdir -p "$work" "$art"
log=build/fuzz/$name.log
echo "fuzz: $name for ${seconds}s"
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
	-print_final_stats=1 -artifact_prefix="$art/$name-" "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1
status=$?
# The closing figures: executions, rate, coverage, corpus.
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$log" | sed "s/^/fuzz: $name: /"
if [ $status -ne 0 ]; then
	echo "fuzz: $name FAILED (status $status); the report:" >&2
	grep -E -A30 'ERROR: |SUMMARY: |fuzz property failed|deadly signal|Test unit written' "$log" | head -60 >&2
	exit 1
fi
exit 0
