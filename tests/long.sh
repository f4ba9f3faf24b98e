#!/bin/sh
# long.sh: the checks that are long by nature, run by `make test-long` (not
# in CI; tests/README.md): the same tests as `make test`, at the sizes that
# take an hour rather than minutes. Each prints its own "N passed, N failed";
# tests/run.sh adds them up.
#   crash_recovery         LONG_KILLS kill -9s (default 1000), every record verified
#   matrix_synapse_limits  three deals at Synapse's default limit, 3 s a move
#   matrix_brief, matrix_rush   the stand-in at Synapse's own limit (MX_BRIEF_SPEED=1)
# `make test-long` then runs each fuzzer for LONG_FUZZ_SECONDS (an hour).
set -u
export CRASH_KILLS="${LONG_KILLS:-1000}"
export MX_SYNAPSE_DEALS=3
export MX_BRIEF_SPEED=1
status=0
for t in crash_recovery matrix_synapse_limits matrix_brief matrix_rush; do
	TEST_ONLY="$t" TEST_KIND=net sh tests/run.sh || status=1
done
exit $status
