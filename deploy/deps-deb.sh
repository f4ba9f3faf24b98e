#!/bin/sh
# deps-deb.sh: installs what `make deb` needs beyond deploy/deps.sh (the
# build's own libraries): debhelper, lintian and dpkg-dev's tools. Does
# nothing when all is present.
set -u
PACKAGES="debhelper lintian dpkg-dev fakeroot build-essential pkg-config adduser
libjson-c-dev libconfig-dev libcurl4-openssl-dev libircclient-dev libsqlite3-dev libssl-dev libolm-dev"
missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps-deb: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq || exit 1
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing
