#!/bin/sh
# run.sh: runs every test program given (one after another: they keep the
# cores busy), then the tests/*.py checks of the binary, several at once
# (they mostly wait on servers and timers; each uses its own ports and temp
# directory), and adds up their "N passed, N failed" lines into one closing
# line. Each test's output is printed whole, in a fixed order.
# Environment: CARDBOT (the binary under test), BUILD (build directory),
# TEST_JOBS (Python checks at once; default 3), TEST_ONLY (a substring: run
# only the tests whose name contains it).
set -u
: "${CARDBOT:=bin/cardbot}"
: "${TEST_JOBS:=3}"
: "${TEST_ONLY:=}"
export CARDBOT
total_pass=0
total_fail=0
status=0
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

tally() {
	line=$(grep -E '^[A-Za-z0-9_ -]*:? ?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	p=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=1
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

wanted() {
	[ -z "$TEST_ONLY" ] && return 0
	case "$1" in *"$TEST_ONLY"*) return 0 ;; esac
	return 1
}

n=0
for t in "$@"; do
	wanted "$t" || continue
	n=$((n + 1))
	log="$logdir/$n.log"
	start=$(date +%s)
	if "$t" >"$log" 2>&1; then :; else status=1; fi
	echo "== $t ($(( $(date +%s) - start )) s)"
	cat "$log"
	tally "$log"
done

# The Python checks: up to TEST_JOBS at a time.
scripts=""
for script in tests/*.py; do
	[ -f "$script" ] || continue
	case "$script" in *lib.py) continue ;; esac # shared modules, not tests
	wanted "$script" || continue
	scripts="$scripts $script"
done
i=0
running=0
for script in $scripts; do
	i=$((i + 1))
	(
		start=$(date +%s)
		python3 "$script" >"$logdir/py$i.log" 2>&1
		echo $? >"$logdir/py$i.rc"
		echo $(( $(date +%s) - start )) >"$logdir/py$i.secs"
	) &
	running=$((running + 1))
	if [ "$running" -ge "$TEST_JOBS" ]; then
		wait_one=1
		# wait for any one of them: poll for finished ones
		while [ "$wait_one" = 1 ]; do
			done_count=$(ls "$logdir" | grep -c '\.rc$')
			started=$i
			if [ $((started - done_count)) -lt "$TEST_JOBS" ]; then
				wait_one=0
			else
				sleep 0.2
			fi
		done
		running=$((i - $(ls "$logdir" | grep -c '\.rc$')))
	fi
done
wait
i=0
for script in $scripts; do
	i=$((i + 1))
	echo "== $script ($(cat "$logdir/py$i.secs" 2>/dev/null || echo '?') s)"
	cat "$logdir/py$i.log"
	rc=$(cat "$logdir/py$i.rc" 2>/dev/null || echo 1)
	[ "$rc" = 0 ] || status=1
	tally "$logdir/py$i.log"
done

[ "$total_fail" -eq 0 ] || status=1
echo "total: $total_pass passed, $total_fail failed"
exit $status
