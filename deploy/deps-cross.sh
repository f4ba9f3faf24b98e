#!/bin/sh
# deps-cross.sh ARCH: installs what cross-building cardbot for ARCH (arm64:
# a 64-bit Raspberry Pi OS or any arm64 Debian; armhf: 32-bit Raspberry Pi
# OS) and running its tests under qemu-user needs, on Debian 12 (amd64).
# Used by `make check-arm64` and `make check-armhf`; does nothing when all
# is present.
#
# The libraries of ARCH come from Debian (dpkg --add-architecture), beside
# the machine's own. Only Multi-Arch: same packages are installed that way:
# libircclient1 and libircclient-dev are not co-installable, and installing
# them for ARCH would remove the machine's own. They are unpacked instead
# into build/sysroot-ARCH (dpkg-deb -x), which the Makefile's cross build
# links with and qemu's runs load from. Any install that would remove a
# package is refused before it starts.
set -u
ARCH=${1:-arm64}
case "$ARCH" in
arm64) TRIPLET=aarch64-linux-gnu ;;
armhf) TRIPLET=arm-linux-gnueabihf ;;
*) echo "deps-cross: unknown architecture $ARCH (arm64 or armhf)" >&2; exit 64 ;;
esac
cd "$(dirname "$0")/.." || exit 1
SYSROOT=build/sysroot-$ARCH
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
APT="$SUDO apt-get -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends"

NATIVE="gcc-$TRIPLET qemu-user-static"
LIBS="libc6-dev:$ARCH libjson-c-dev:$ARCH libconfig-dev:$ARCH libcurl4-openssl-dev:$ARCH
libsqlite3-dev:$ARCH libssl-dev:$ARCH libolm-dev:$ARCH"
SIDE="libircclient1 libircclient-dev"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"
}

missing=""
for p in $NATIVE $LIBS; do
	installed "$p" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps-cross: installing$missing"
	added=""
	if ! dpkg --print-foreign-architectures | grep -qx "$ARCH"; then
		$SUDO dpkg --add-architecture "$ARCH" || exit 1
		added=1
	fi
	# On failure, an architecture added here goes again (while nothing of it
	# is installed), so that it does not slow or break the machine's updates.
	undo() {
		[ -n "$added" ] && ! dpkg -l | grep -q ":$ARCH " && $SUDO dpkg --remove-architecture "$ARCH"
		exit 1
	}
	# An index that fails (a mirror in sync) need not stop the install.
	$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq || echo "deps-cross: apt-get update reported errors; trying the install" >&2
	# shellcheck disable=SC2086
	removes=$($APT -s install $missing 2>&1 | grep '^Remv ')
	if [ -n "$removes" ]; then
		printf 'deps-cross: refused: installing%s would remove:\n%s\n' "$missing" "$removes" >&2
		undo
	fi
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $APT install $missing || undo
fi

# libircclient for ARCH, unpacked beside the tree (see the head).
stamp=$SYSROOT/.unpacked
if [ ! -e "$stamp" ]; then
	rm -rf "$SYSROOT" && mkdir -p "$SYSROOT/debs" || exit 1
	for p in $SIDE; do
		# apt-get download writes to the current directory, as _apt when it can.
		(cd "$SYSROOT/debs" && chmod 777 . && apt-get -qq download "$p:$ARCH") || exit 1
	done
	for d in "$SYSROOT"/debs/*.deb; do
		dpkg-deb -x "$d" "$SYSROOT" || exit 1
	done
	test -e "$SYSROOT/usr/lib/$TRIPLET/libircclient.so.1" || {
		echo "deps-cross: libircclient.so.1 for $ARCH not found in $SYSROOT" >&2
		exit 1
	}
	: >"$stamp"
fi
exit 0
