#!/bin/sh
# deps.sh: installs what running, or building and testing, cardbot needs on
# Debian 12. Does nothing when all is present.
#
#   sh deploy/deps.sh run     what `make run` needs: the build libraries and
#                             ngircd for the local server (a Raspberry Pi
#                             need not fetch a browser and a homeserver)
#   sh deploy/deps.sh test    that and the test tools (`make test`, CI,
#                             `make deps`); the default
#   sh deploy/deps.sh deb     what `make deb` needs: the build libraries,
#                             debhelper, lintian and dpkg-dev's tools
#   sh deploy/deps.sh image   what `make check-image` needs: mmdebstrap (a
#                             Debian base from Debian's packages, since no
#                             container registry is reachable) and buildah
#                             (builds deploy/Dockerfile on it)
#   sh deploy/deps.sh --list run|test|deb|image   prints the packages, installs nothing
set -u

# What building needs, and `make run` with ngircd.
BUILD_PACKAGES="build-essential pkg-config libjson-c-dev libconfig-dev
libcurl4-openssl-dev libircclient-dev libsqlite3-dev libssl-dev libolm-dev"
RUN_PACKAGES="$BUILD_PACKAGES ngircd"
# libolm-dev: end-to-end encryption in Matrix rooms (adapters/matrix/matrix_crypto.c);
# ngircd: the local IRC server `make run` starts when none listens.

# What the tests add.
TEST_PACKAGES="python3 openssl inspircd atheme-services
clang libclang-rt-14-dev man-db systemd python3-yaml strace
python3-venv python3-pip python3-poetry-core python3-twisted python3-treq
python3-openssl python3-service-identity python3-cryptography python3-idna
python3-canonicaljson python3-signedjson python3-unpaddedbase64 python3-nacl
python3-jsonschema python3-frozendict python3-msgpack python3-phonenumbers
python3-pil python3-prometheus-client python3-attr python3-netaddr
python3-jinja2 python3-bleach python3-typing-extensions python3-ijson
python3-pymacaroons python3-sortedcontainers python3-pyasn1
python3-pyasn1-modules python3-matrix-common python3-bcrypt python3-packaging
python3-pydantic python3-matrix-nio python3-olm curl chromium fonts-dejavu-core"
# python3: the test scripts; openssl: test certificates; inspircd and
# atheme-services: SASL and services accounts; clang and
# libclang-rt-14-dev: `make fuzz` (libFuzzer); man-db: the man page checks;
# systemd: systemd-analyze for the unit's checks; python3-yaml: the
# compose.yaml check and tests/net/matrix/spec/spec_convert.py (the Matrix spec
# check); strace: the idle system-call figure of `make bench`; python3-venv
# to curl: what Synapse 1.67 needs to build from ../shared/synapse for
# tests/net/matrix/matrix_synapse.py (its build.sh lists the same, and would apt-get
# them itself); python3-olm: the encrypting test players
# (python3-matrix-nio); chromium and fonts-dejavu-core (the suit symbols):
# the match page's browser test (tests/cli/page_browser.py), headless. Nothing
# here starts a daemon.

# npm (with Debian's Node): installs Element's client stack for
# tests/net/matrix/matrix_element.py (`make element-deps`, from
# tests/lib/element/package-lock.json, with the Node it runs on); a machine with
# an npm of its own (NodeSource's nodejs) keeps it.
command -v npm >/dev/null 2>&1 || TEST_PACKAGES="$TEST_PACKAGES npm"

# What the Debian package's build adds, and what the image's check needs.
DEB_PACKAGES="debhelper lintian dpkg-dev fakeroot adduser"
IMAGE_PACKAGES="mmdebstrap buildah ngircd python3"

# Steps of the test list beyond Debian packages (a tool from another
# registry, say), run in order after the packages are in: each a shell
# function defined here and named in TEST_STEPS, which does nothing when
# its tool is present already and returns non-zero when it fails.
TEST_STEPS=""

list=""
if [ "${1:-}" = "--list" ]; then
	list=1
	shift
fi
case "${1:-test}" in
run) PACKAGES="$RUN_PACKAGES"; STEPS="" ;;
test) PACKAGES="$RUN_PACKAGES $TEST_PACKAGES"; STEPS="$TEST_STEPS" ;;
deb) PACKAGES="$BUILD_PACKAGES $DEB_PACKAGES"; STEPS="" ;;
image) PACKAGES="$IMAGE_PACKAGES"; STEPS="" ;;
*)
	echo "usage: deploy/deps.sh [--list] [run|test|deb|image]" >&2
	exit 64
	;;
esac
if [ -n "$list" ]; then
	echo $PACKAGES
	exit 0
fi

# One dpkg-query for every package (one a package took some 40 s on a busy
# machine, in silence), and a line saying what this step is doing. A
# package whose triggers wait (another dpkg run, an unattended upgrade, is
# processing man-db's) is installed: taken for missing, it sent apt-get
# after the lock that run holds.
echo "deps: checking that the packages cardbot needs are installed"
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $PACKAGES 2>/dev/null |
	awk '/ ok (installed|triggers-pending|triggers-awaited)$/ { print $1 }')
installed=" $(echo $installed) "
missing=""
for p in $PACKAGES; do
	case "$installed" in *" $p "*) ;; *) missing="$missing $p" ;; esac
done

status=0
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
	# ngircd, inspircd and atheme-services are only test and `make run`
	# peers: keep their packages from starting system-wide daemons
	# (policy-rc.d exit 101 = "do not start"), and below, from starting at
	# the next boot.
	guard=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
		$SUDO chmod 755 /usr/sbin/policy-rc.d
		guard=1
	fi
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing
	status=$?
	[ -n "$guard" ] && $SUDO rm -f /usr/sbin/policy-rc.d
	# Only the daemons installed just now, never ones the owner already had.
	if command -v systemctl >/dev/null 2>&1; then
		for unit in ngircd inspircd atheme-services; do
			case " $missing " in *" $unit "*) $SUDO systemctl disable "$unit" >/dev/null 2>&1 ;; esac
		done
	fi
fi
for step in $STEPS; do
	[ "$status" -eq 0 ] || break
	"$step" || status=$?
done
exit $status
