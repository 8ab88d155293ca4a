#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test-hosttool32: the host-tool suite on a 32-bit host, here.
# The workflow's host-32 job runs make test-hosttool in an i386 Debian
# userland; this makes that userland locally and runs the same command in it,
# so that what CI runs is the 32-bit job itself:
#  - an i386 Debian 12 root made once by debootstrap (minbase, from the
#    host's mirror) and kept at $LINELOC_I386_ROOT (default
#    /var/cache/lineloc-ci/i386-root, outside the clone); scripts/install-deps.sh
#    runs inside it, so its packages are the i386 list and stay installed;
#  - the clone's tracked files copied to /src in it (a fixed path: the
#    generated objects hold no temp-dir or clone path);
#  - the lineloc cache (Debian's vmlinux and modules, zlib) bind-mounted from
#    the host, read by the debian part;
#  - run as root in a private mount and pid namespace (unshare --kill-child:
#    nothing is left running or mounted), under setarch i686; where this
#    kernel runs no i386 programs, scripts/i386-run hands them to
#    qemu-i386-static (so debootstrap's second stage too).
# It checks that the userland is i386 and that the lineloc it tested is a
# 32-bit i386 program, then counts the inner suite's checks.  Ends with
# "host32: N passed, M failed, K skipped".  HOST32_PARTS= picks the host-tool
# suite's parts (tests/hosttool/hostsuite.py; default all), HT_QUICK and
# HT_MUTANT_SEED pass through.  Where the kernel runs i386 programs itself
# the suite is native; under
# qemu-i386-static (measured here, another build running) the root took
# 20 min to make and the parts synth cli generated debian linetab 37 min,
# and i386 ASan hangs or fails at random: make test leaves the sanitizer
# parts out (tests/run.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
root=${LINELOC_I386_ROOT:-/var/cache/lineloc-ci/i386-root}
cache=${LINELOC_CACHE:-$HOME/.cache/lineloc}
# the host-tool suite's parts (tests/hosttool/hostsuite.py; empty: all)
parts=${HOST32_PARTS-}
# what the root is made of; a change makes a new root
recipe="bookworm i386 minbase 1"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pass=0 fail=0 skipped=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() {
	echo "host32: $pass passed, $fail failed, $skipped skipped"
	[ "$fail" -eq 0 ]
	exit
}

for t in debootstrap unshare setarch chroot; do
	command -v "$t" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
	command -v "$t" >/dev/null || { bad "no $t (scripts/install-deps.sh)"; finish; }
done
if [ "$(dpkg --print-architecture)" != amd64 ]; then
	bad "an i386 root is made on an amd64 host, not on $(dpkg --print-architecture)"
	finish
fi

if [ "$($SUDO cat "$root/.lineloc-root" 2>/dev/null)" != "$recipe" ]; then
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
	mirror=${mirror:-http://deb.debian.org/debian}
	echo "host32: debootstrap --arch=i386 bookworm $root ($mirror)"
	t0=$(date +%s)
	$SUDO rm -rf "$root" "$root.new"
	$SUDO mkdir -p "$(dirname "$root")"
	dlog=$(mktemp)
	# the first stage (download, unpack, device nodes) here; the second
	# (the i386 packages' scripts) runs i386 programs, maybe in i386-run's
	# user namespace, where mknod is refused: container=lxc tells
	# debootstrap not to test it (the first stage made the nodes)
	if ! { $SUDO debootstrap --foreign --arch=i386 --variant=minbase bookworm \
		"$root.new" "$mirror" &&
		$SUDO "$top/scripts/i386-run" env container=lxc \
			chroot "$root.new" /debootstrap/debootstrap --second-stage
		} > "$dlog" 2>&1; then
		tail -20 "$dlog" | sed 's/^/  | /'
		rm -f "$dlog"
		bad "debootstrap of the i386 root"
		finish
	fi
	rm -f "$dlog"
	echo "$recipe" | $SUDO tee "$root.new/.lineloc-root" >/dev/null
	$SUDO mv "$root.new" "$root"
	echo "host32: i386 root made in $(( $(date +%s) - t0 )) s"
fi

# the tracked files, as they are in the work tree
$SUDO rm -rf "$root/src"
$SUDO mkdir -p "$root/src" "$root/lineloc-cache"
mkdir -p "$cache"
(cd "$top" && git ls-files -z | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) |
	$SUDO tar -C "$root/src" -xf - ||
	{ bad "copy of the tracked files to $root/src"; finish; }
$SUDO cp /etc/resolv.conf "$root/etc/resolv.conf"
$SUDO rm -f "$root/tmp/host32-arch"

# inside: install-deps (the i386 list), then the workflow job's command
quick=${HT_QUICK-} seed=${HT_MUTANT_SEED-}
case $parts$quick$seed in
*[!a-z0-9\ ]*) bad "HOST32_PARTS, HT_QUICK, HT_MUTANT_SEED: words and numbers only"; finish ;;
esac
# (passed in the command: sudo would drop them from the environment)
inner="cd /src && ./scripts/install-deps.sh && dpkg --print-architecture > /tmp/host32-arch &&
${quick:+HT_QUICK=$quick }${seed:+HT_MUTANT_SEED=$seed }make --no-print-directory test-hosttool HT_PARTS='${parts:-tools}'"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
t0=$(date +%s)
# shellcheck disable=SC2016
$SUDO "$top/scripts/i386-run" unshare --mount --pid --fork --kill-child -- sh -c '
	set -e
	mount --rbind /dev "$1/dev"
	mount -t proc proc "$1/proc"
	mount --bind "$2" "$1/lineloc-cache"
	exec setarch i686 chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 LINELOC_CACHE=/lineloc-cache /bin/sh -c "$3"' sh "$root" "$(realpath "$cache")" "$inner" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
echo "host32: the suite ran in $(( $(date +%s) - t0 )) s (exit status $rc)"

arch=$($SUDO cat "$root/tmp/host32-arch" 2>/dev/null)
if [ "$arch" = i386 ]; then
	ok "the userland is Debian i386"
else
	bad "the userland is Debian ${arch:-unknown}, not i386"
fi
# ELF32 (EI_CLASS 1), little-endian, e_machine 3 (EM_386)
hdr=$(od -An -tx1 -N20 "$root/src/hosttool/lineloc" 2>/dev/null | tr -d ' \n')
if [ "${hdr:0:12}" = 7f454c460101 ] && [ "${hdr:36:4}" = 0300 ]; then
	ok "the lineloc it tested is a 32-bit i386 program"
else
	bad "the lineloc it tested is not a 32-bit i386 program (ELF header ${hdr:-missing})"
fi
line=$(grep -E '^hosttool: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
if [ -z "$line" ]; then
	bad "the inner suite ended without its hosttool: line"
else
	p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$line")
	f=$(sed -E 's/.*passed, ([0-9]+) failed.*/\1/' <<< "$line")
	k=$(sed -nE 's/.*failed, ([0-9]+) skipped.*/\1/p' <<< "$line")
	pass=$((pass + p)) fail=$((fail + f)) skipped=$((skipped + ${k:-0}))
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && bad "the inner suite exited $rc"
fi
finish
