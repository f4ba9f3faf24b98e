#!/bin/sh
# cross.sh ARCH: `make check-arm64` / `make check-armhf`. Cross-builds cardbot
# and every unit test program (tests/unit/*/*.c: the engine's rules, property
# and computer-player tests, and the bot's) with Debian's cross compiler for
# ARCH (JOBS compilers at once, default 2), then runs them under qemu-user,
# QEMU_JOBS at a time (default 4), and
# the cross-built binary itself through the configuration checker's tests
# (config_check.py; with CROSS_RECORDS=1 also every kept game record
# replayed, replay_records.py). Prints each job's output and seconds, then one
# "N passed, N failed" line.
#
# Under qemu the code runs about ten times slower than natively, so the
# property and computer-player tests play fewer games than in `make test`
# (the counts below, each the test's own environment variable); the rules
# they check are the same, on the other machine's word size, alignment,
# char signedness (unsigned on ARM) and libc.
set -u
if [ "${1:-}" = "--job" ]; then # --job NAME COMMAND...: one job of the list below
	name=$2
	shift 2
	s=$(date +%s)
	"$@" >"$logs/$name.log" 2>&1
	echo $? >"$logs/$name.rc"
	echo $(( $(date +%s) - s )) >"$logs/$name.secs"
	exit 0
fi
ARCH=${1:-arm64}
: "${JOBS:=2}"
# Jobs under qemu at once: several of the tests mostly wait (timers, the
# computer players' thinking time), so more than the cores.
: "${QEMU_JOBS:=4}"
case "$ARCH" in
arm64) TRIPLET=aarch64-linux-gnu QEMU=qemu-aarch64-static ;;
armhf) TRIPLET=arm-linux-gnueabihf QEMU=qemu-arm-static ;;
*) echo "cross: unknown architecture $ARCH (arm64 or armhf)" >&2; exit 64 ;;
esac
cd "$(dirname "$0")/../.." || exit 1
sh deploy/deps-cross.sh "$ARCH" || { echo "cross: installing the $ARCH tools failed" >&2; exit 1; }

SYSROOT=$PWD/build/sysroot-$ARCH
OUT=build/$ARCH
TESTS=$(for c in tests/unit/engine/*.c tests/unit/bot/*.c; do n=${c##*/}; echo "$OUT/tests/${n%.c}"; done)
start=$(date +%s)
# shellcheck disable=SC2086
make --no-print-directory -j"$JOBS" BUILD="$OUT" BINDIR="$OUT" CC="$TRIPLET-gcc" HOSTCC=cc \
	PKG_CONFIG="env PKG_CONFIG_LIBDIR=/usr/lib/$TRIPLET/pkgconfig:/usr/share/pkgconfig pkg-config" \
	CPPFLAGS="-I$SYSROOT/usr/include" LDFLAGS="-L$SYSROOT/usr/lib/$TRIPLET" \
	"$OUT/cardbot" $TESTS >"$OUT.build.log" 2>&1 || {
	cat "$OUT.build.log"
	echo "cross: the $ARCH build failed"
	echo "cross-$ARCH: 0 passed, 1 failed"
	exit 1
}
echo "cross: built for $ARCH in $(( $(date +%s) - start )) s ($(file -b "$OUT/cardbot" | cut -d, -f1-2))"

# The reduced counts (see the head); the plain run's are in each test.
export PROPS_MATCHES="${PROPS_MATCHES:-40}" PROPS_DEFERRED_DEALS="${PROPS_DEFERRED_DEALS:-20}"
export AI_TEST_DEALS="${AI_TEST_DEALS:-2}" AI_TEST_DUP="${AI_TEST_DUP:-16}" AI_TEST_OPEN_DEALS="${AI_TEST_OPEN_DEALS:-30}"
export G6_AI_DEALS="${G6_AI_DEALS:-3}" G6_AI_DUP="${G6_AI_DUP:-6}"
export T304_AI_DEALS="${T304_AI_DEALS:-6}" T304_AI_DUP="${T304_AI_DUP:-6}"
export SIMPLE_MATCHES="${SIMPLE_MATCHES:-12}"
export ROOK_PROPS_HANDS="${ROOK_PROPS_HANDS:-300}" T304_PROPS_DEALS="${T304_PROPS_DEALS:-300}"
# qemu runs the program; the sysroot holds the libircclient for ARCH.
export QEMU LD_LIBRARY_PATH="$SYSROOT/usr/lib/$TRIPLET"

# A wrapper that runs the cross-built binary, for the Python checks.
wrap=$OUT/cardbot-qemu
printf '#!/bin/sh\nexec %s %s "$@"\n' "$QEMU" "$PWD/$OUT/cardbot" >"$wrap" && chmod 755 "$wrap"

SLOW_FIRST=$(for n in test_no_peeking test_g304_ai test_rook_ai bot_games test_g304_simple; do echo "$OUT/tests/$n"; done)
listed=""
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
export logs
# One line per job: a name and the command.
{
	# The longest first, so that the run does not end on one started last.
	for t in $SLOW_FIRST $TESTS; do
		case " $listed " in *" $t "*) continue ;; esac
		case "$t" in */bot_ai_worker) continue ;; esac # alone, below
		listed="$listed $t"
		echo "${t##*/} $QEMU $t"
	done
	# Every kept record through the ARM binary: 90 s more under qemu (a
	# process a replay), so only when asked: CROSS_RECORDS=1.
	[ "${CROSS_RECORDS:-0}" = 1 ] && echo "replay_records env CARDBOT=$wrap python3 tests/cli/replay_records.py"
	echo "config_check env CARDBOT=$wrap python3 tests/cli/config_check.py"
} >"$logs/jobs"
# xargs runs JOBS at a time, each through this script's --job (at its head).
xargs -P "$QEMU_JOBS" -L 1 sh "$0" --job <"$logs/jobs"
# bot_ai_worker counts the event loop's 5 ms ticks while a search thread
# thinks for 200 ms: run beside three busy qemus on two cores, the loop got
# 9 of the 10 ticks it needs. It runs last, alone.
echo "bot_ai_worker $QEMU $OUT/tests/bot_ai_worker" >>"$logs/jobs"
sh "$0" --job bot_ai_worker "$QEMU" "$OUT/tests/bot_ai_worker"

pass=0
fail=0
status=0
while read -r name _; do
	echo "== $name ($ARCH, $(cat "$logs/$name.secs" 2>/dev/null || echo '?') s)"
	cat "$logs/$name.log"
	rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 1)
	[ "$rc" = 0 ] || { status=1; echo "cross: $name exited with status $rc"; }
	line=$(grep -E '^[A-Za-z0-9_ -]*:? ?[0-9]+ passed, [0-9]+ failed' "$logs/$name.log" | tail -n 1)
	p=$(printf '%s' "$line" | sed -nE 's/^(.*[^0-9])?([0-9]+) passed.*/\2/p')
	f=$(printf '%s' "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=1
	pass=$((pass + p))
	fail=$((fail + f))
done <"$logs/jobs"
[ "$fail" -eq 0 ] || status=1
echo "cross-$ARCH: $(( $(date +%s) - start )) s in all"
echo "cross-$ARCH: $pass passed, $fail failed"
exit $status
