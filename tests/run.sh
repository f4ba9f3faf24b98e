#!/bin/sh
# run.sh: runs every test program given, then the replay records, and adds up
# their "N passed, N failed" lines into one closing line.
# Environment: CARDBOT (the binary under test), BUILD (build directory).
set -u
: "${CARDBOT:=bin/cardbot}"
export CARDBOT
total_pass=0
total_fail=0
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

tally() {
	line=$(grep -E '^[A-Za-z0-9_ -]*:? ?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=1
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

for t in "$@"; do
	echo "== $t"
	if "$t" >"$log" 2>&1; then :; else status=1; fi
	cat "$log"
	tally
done

for script in tests/*.py; do
	[ -f "$script" ] || continue
	case "$script" in *lib.py) continue ;; esac # shared modules, not tests
	echo "== $script"
	if python3 "$script" >"$log" 2>&1; then :; else status=1; fi
	cat "$log"
	tally
done

[ "$total_fail" -eq 0 ] || status=1
echo "total: $total_pass passed, $total_fail failed"
exit $status
