#!/bin/sh
# deps.sh: installs what building and testing cardbot needs on Debian 12.
# Used by `make deps`, `make run` and CI; does nothing when all is present.
set -u

PACKAGES="build-essential pkg-config python3 libjson-c-dev libconfig-dev
libcurl4-openssl-dev libircclient-dev libsqlite3-dev libssl-dev openssl ngircd"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# ngircd is only a test and `make run` peer: keep its package from starting a
# system-wide daemon on port 6667 (policy-rc.d exit 101 = "do not start").
guard=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod 755 /usr/sbin/policy-rc.d
	guard=1
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
status=$?
[ -n "$guard" ] && $SUDO rm -f /usr/sbin/policy-rc.d
exit $status
