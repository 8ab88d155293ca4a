#!/bin/sh
# Install, from Debian's archive only, everything the matrix, the host tool
# and their tests need on a fresh Debian 12 machine.  Works as root and as a
# user with sudo.  What is installed follows the host's Debian architecture
# (dpkg --print-architecture):
#   amd64  everything (the matrix, the host tools for i686 and s390x, the
#          32-bit userland of the host-32 suite, libdw for tests/libdw);
#   i386   the host-tool suite only (the workflow's host-32 job, and the
#          userland that tests/host32/run.sh makes with debootstrap).
set -eu

host=$(dpkg --print-architecture)
# what both hosts need for make test-hosttool
HOSTTOOL="
	make gcc libc6-dev git perl python3 python3-pyelftools python3-pyflakes
	libelf-dev zlib1g-dev xz-utils
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi libc6-dev-armel-cross
	gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu libc6-dev-riscv64-cross
	llvm clang libclang-rt-14-dev
"
case $host in
amd64)
	PKGS="$HOSTTOOL
	bc bison flex cpio kmod rsync libssl-dev libdw-dev
	linux-source linux-source-6.12
	gcc-i686-linux-gnu binutils-i686-linux-gnu libc6-dev-i386-cross
	gcc-s390x-linux-gnu libc6-dev-s390x-cross
	qemu-system-x86 qemu-system-arm qemu-system-misc qemu-user-static
	busybox-static ccache debootstrap
	yamllint shellcheck mypy
"
	# static zlib for hosttool/lineloc-i686 and lineloc-s390x
	ZLIB_ARCHES="i386 s390x"
	FOREIGN=
	;;
i386)
	# i686 code is the native gcc's; x86_64 code is a cross compiler's
	PKGS="$HOSTTOOL
	gcc-x86-64-linux-gnu binutils-x86-64-linux-gnu libc6-dev-amd64-cross
"
	ZLIB_ARCHES=
	# the host-tool suite's debian part downloads linux-image-cloud-amd64-dbg:amd64
	FOREIGN=amd64
	;;
*)
	echo "install-deps: no package list for a $host host (amd64 or i386)" >&2
	exit 1
	;;
esac

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done

# A foreign arch's zlib1g-dev is downloaded and unpacked into the cache, not
# installed: installing it drags in that arch's libc6-dev, which must have
# exactly the host's version, and the archive's s390x and amd64 versions
# differ (bookworm-security has no s390x).  hosttool/hosttool.mk looks there.
zdir=${LINELOC_CACHE:-$HOME/.cache/lineloc}/zlib
zmissing=
newarch=
for a in $ZLIB_ARCHES; do
	[ -f "$zdir/$a/usr/include/zlib.h" ] && continue
	zmissing="$zmissing $a"
done
# the arches apt must know: the zlibs to download, and FOREIGN
for a in $zmissing $FOREIGN; do
	dpkg --print-foreign-architectures | grep -qx "$a" || newarch="$newarch $a"
done

if [ -z "$missing" ] && [ -z "$zmissing" ] && [ -z "$newarch" ]; then
	echo "install-deps: all packages present"
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
for a in $newarch; do
	echo "install-deps: dpkg --add-architecture $a"
	$SUDO dpkg --add-architecture "$a"
done
# A mirror caught mid-sync fails an index's size or hash check ("Mirror
# sync in progress?"); Acquire::Retries does not cover that, and apt-get
# update exits 100 having kept every index it could read.  Try a few
# times; then go on with those indexes: a package that only a missing
# index lists fails the install below, by name.
retry() {
	try=1
	until "$@"; do
		if [ "$try" -ge 3 ]; then
			echo "install-deps: failed $try times: $*" >&2
			return 1
		fi
		echo "install-deps: failed (try $try of 3), again in $((try * 15)) s: $*" >&2
		sleep $((try * 15))
		try=$((try + 1))
	done
}
retry $SUDO apt-get -q -o Acquire::Retries=3 update ||
	echo "install-deps: going on with the package indexes apt-get could read" >&2
if [ -n "$missing" ]; then
	echo "install-deps: installing:$missing"
	# shellcheck disable=SC2086
	retry $SUDO apt-get -q -o Acquire::Retries=3 install -y --no-install-recommends $missing
fi
for a in $zmissing; do
	echo "install-deps: zlib1g-dev:$a into $zdir/$a"
	tmp=$(mktemp -d)
	# as root, apt warns that it downloads unsandboxed: say nothing of it
	(cd "$tmp" && retry apt-get -q -o Acquire::Retries=3 download "zlib1g-dev:$a" 2>&1) | grep -v unsandboxed || :
	deb=$(ls "$tmp"/zlib1g-dev_*_"$a".deb)
	mkdir -p "$zdir"
	dpkg-deb -x "$deb" "$tmp/root"
	rm -rf "${zdir:?}/$a"
	mv "$tmp/root" "$zdir/$a"
	rm -rf "$tmp"
done
