#!/bin/sh
# run.sh: runs every test program given (two at a time: UNIT_JOBS), then the
# tests/*.py checks of the binary (TEST_JOBS at a time: they mostly wait on
# servers and timers; each uses its own ports and temp directory), and adds
# up their "N passed, N failed" lines into one closing line. Each test's
# output is printed whole, in a fixed order, with the seconds it took.
# The checks known to take longest start first, so the run does not end on
# one long check started last.
# Environment: CARDBOT (the binary under test), BUILD (build directory),
# UNIT_JOBS (test programs at once; default 2), TEST_JOBS (Python checks at
# once; default 3), TEST_ONLY (a substring: run only the tests whose name
# contains it).
set -u
: "${CARDBOT:=bin/cardbot}"
: "${UNIT_JOBS:=2}"
: "${TEST_JOBS:=3}"
: "${TEST_ONLY:=}"
export CARDBOT
total_pass=0
total_fail=0
status=0
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

# The slowest first (seconds in a plain CI run, November 2026). matrix_e2ee
# (two Synapse scenarios and nio's crypto in Python: CPU-heavy) starts after
# the timing-sensitive Matrix checks, not beside them: run beside matrix_rush
# on two cores, rush's scripted players fell behind and its deal stalled.
SLOW_FIRST="matrix_synapse matrix_rush matrix_brief crash_recovery irc_game irc_six test_g304_simple test_g304_props test_g304_ai matrix_game matrix_basic irc_games bot_table matrix_e2ee"

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

# slow_first LIST: the same words, those named in SLOW_FIRST first (in that order).
slow_first() {
	first=""
	for s in $SLOW_FIRST; do
		for t in "$@"; do
			case "$t" in */"$s"|*/"$s".py) first="$first $t" ;; esac
		done
	done
	rest=""
	for t in "$@"; do
		case " $first " in *" $t "*) ;; *) rest="$rest $t" ;; esac
	done
	echo $first $rest
}

# run_all PREFIX JOBS CMD...: runs each CMD (a program, or a .py script)
# JOBS at a time; log, exit status and seconds go to $logdir/PREFIX<i>.*,
# where i is the CMD's place in the list as given.
run_all() {
	prefix=$1
	jobs=$2
	shift 2
	order=$(slow_first "$@")
	for t in $order; do
		i=0
		for u in "$@"; do
			i=$((i + 1))
			[ "$u" = "$t" ] && break
		done
		while [ "$(ls "$logdir" | grep -c "^$prefix.*\.start\$")" -ge \
			$(( $(ls "$logdir" | grep -c "^$prefix.*\.rc\$") + jobs )) ]; do
			sleep 0.2
		done
		: >"$logdir/$prefix$i.start"
		(
			start=$(date +%s)
			case "$t" in
			*.py) python3 "$t" >"$logdir/$prefix$i.log" 2>&1 ;;
			*) "$t" >"$logdir/$prefix$i.log" 2>&1 ;;
			esac
			rc=$?
			echo $(( $(date +%s) - start )) >"$logdir/$prefix$i.secs"
			echo $rc >"$logdir/$prefix$i.rc"
		) &
	done
	wait
	i=0
	for t in "$@"; do
		i=$((i + 1))
		echo "== $t ($(cat "$logdir/$prefix$i.secs" 2>/dev/null || echo '?') s)"
		cat "$logdir/$prefix$i.log"
		rc=$(cat "$logdir/$prefix$i.rc" 2>/dev/null || echo 1)
		[ "$rc" = 0 ] || status=1
		tally "$logdir/$prefix$i.log"
	done
}

programs=""
for t in "$@"; do
	wanted "$t" && programs="$programs $t"
done
# shellcheck disable=SC2086
[ -z "$programs" ] || run_all unit "$UNIT_JOBS" $programs

scripts=""
for script in tests/*.py; do
	[ -f "$script" ] || continue
	case "$script" in *lib.py) continue ;; esac # shared modules, not tests
	wanted "$script" || continue
	scripts="$scripts $script"
done
# shellcheck disable=SC2086
[ -z "$scripts" ] || run_all py "$TEST_JOBS" $scripts

[ "$total_fail" -eq 0 ] || status=1
echo "total: $total_pass passed, $total_fail failed"
exit $status
