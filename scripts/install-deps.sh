#!/bin/sh
# Install, from Debian's archive only, everything the matrix, the host tool
# and their tests need on a fresh Debian 12 machine.
set -eu

PKGS="
	make gcc libc6-dev git bc bison flex cpio kmod rsync xz-utils perl python3
	libelf-dev libssl-dev zlib1g-dev
	linux-source
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi libc6-dev-armel-cross
	gcc-i686-linux-gnu binutils-i686-linux-gnu libc6-dev-i386-cross
	gcc-s390x-linux-gnu libc6-dev-s390x-cross
	qemu-system-x86 qemu-system-arm qemu-user-static
	busybox-static ccache
	llvm clang libclang-rt-14-dev
	yamllint shellcheck
	python3-pyelftools
"

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
