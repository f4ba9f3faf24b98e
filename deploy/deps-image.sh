#!/bin/sh
# deps-image.sh: installs what `make check-image` needs: mmdebstrap (a Debian
# base from Debian's packages, since no container registry is reachable)
# and buildah (builds deploy/Dockerfile on it). Does nothing when present.
set -u
PACKAGES="mmdebstrap buildah ngircd python3"
missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps-image: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing
