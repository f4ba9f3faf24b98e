#!/bin/sh
# deps.sh: installs what building and testing cardbot needs on Debian 12.
# Used by `make deps`, `make run` and CI; does nothing when all is present.
set -eu

PACKAGES="build-essential pkg-config python3 libjson-c-dev libconfig-dev
libcurl4-openssl-dev libircclient-dev libsqlite3-dev"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
