#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's linux-image-cloud-amd64-dbg, the reference kernel of the host-tool
# tests and benchmarks: which version, fetched (apt-get download) and
# unpacked (dpkg-deb -x) into the lineloc cache, ${LINELOC_CACHE:-~/.cache/
# lineloc}.  Every user asks here: tests/hosttool/suite/common.py
# (debian_tree), linetab.sh, bench-table.sh, bench.py.
#
# The rule: the newest version of linux-image-cloud-amd64-dbg by dpkg's
# version order (dpkg --compare-versions) among those apt's lists offer and
# those already unpacked in the cache; LINELOC_DEBIAN_VERSION=V takes V
# instead.  The metapackage of version V depends on exactly one image
# package of version V (linux-image-ABI-cloud-amd64-dbg (= V)), and that one
# is unpacked, alone, into CACHE/debian-dbg/V/: a tree never holds two
# versions.  The .deb files stay in CACHE itself.  If the download fails
# (the mirror keeps only the newest version), apt's lists are refreshed when
# root and the rule applied again.  Works as root (no sudo) and as a user.
#
# usage: debian-dbg.sh [--root | --vmlinux | --version | --all]
#   --root      (default) print the unpacked tree
#   --vmlinux   print its vmlinux (usr/lib/debug/boot/vmlinux-*)
#   --version   print the version chosen
#   --all       print version=, package=, root=, vmlinux= lines
# Standard error always says which version it chose and where it is.  Exit
# status 1, with "debian-dbg: error: ..." on standard error, when the
# package cannot be had.
set -u

meta=linux-image-cloud-amd64-dbg
cache=${LINELOC_CACHE:-$HOME/.cache/lineloc}
dir=$cache/debian-dbg

mode=${1:---root}
case $mode in
--root|--vmlinux|--version|--all) ;;
-h|--help) sed -n '3,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
*) echo "usage: debian-dbg.sh [--root | --vmlinux | --version | --all]" >&2; exit 2 ;;
esac

die() {
	echo "debian-dbg: error: $*" >&2
	exit 1
}
say() {
	echo "debian-dbg: $*" >&2
}

for t in apt-get apt-cache dpkg dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || die "no $t: this needs a Debian host"
done

# the amd64 package from any host (i386: scripts/install-deps.sh adds the
# architecture)
qual=
[ "$(dpkg --print-architecture)" = amd64 ] || qual=:amd64
# as root, apt's sandbox user could not write into root's cache folder
apt_opts="-q -o Acquire::Retries=3"
[ "$(id -u)" -ne 0 ] || apt_opts="$apt_opts -o APT::Sandbox::User=root"

mkdir -p "$dir" || die "cannot make $dir"
# one fetch at a time (the host-tool suite and a benchmark may start together)
if command -v flock >/dev/null 2>&1; then
	exec 9>"$dir/.lock" || die "cannot open $dir/.lock"
	flock 9 || die "cannot lock $dir/.lock"
fi
# an unpacking that was cut short
rm -rf "$dir"/*.partial

# newer A B: whether version A is newer than B (B empty: yes)
newer() {
	[ -z "$2" ] || dpkg --compare-versions "$1" gt "$2"
}

# the versions apt's lists offer, one a line
apt_versions() {
	# shellcheck disable=SC2086
	apt-cache $apt_opts show "$meta$qual" 2>/dev/null | sed -n 's/^Version: *//p'
}

# the versions unpacked whole in the cache, one a line
cached_versions() {
	for d in "$dir"/*/; do
		[ -f "$d.package" ] && basename "$d"
	done
}

# choose: sets version, and how (the versions considered, for the record)
choose() {
	version=${LINELOC_DEBIAN_VERSION:-}
	if [ -n "$version" ]; then
		how="LINELOC_DEBIAN_VERSION"
		return
	fi
	offered=$( { apt_versions; cached_versions; } | sort -u | tr '\n' ' ')
	for v in $offered; do
		if newer "$v" "$version"; then
			version=$v
		fi
	done
	how="the newest of: ${offered% }"
}

# the image package that metapackage version $version names
image_package() {
	if [ -f "$dir/$version/.package" ]; then
		cat "$dir/$version/.package"
		return
	fi
	# shellcheck disable=SC2086
	apt-cache $apt_opts show "$meta$qual=$version" 2>/dev/null |
		sed -n 's/^Depends: *\([^ ,(]*\).*/\1/p' | head -1
}

# fetch: the tree of $version in $dir/$version, downloaded if need be;
# returns non-zero (with $why) if it could not
fetch() {
	why=
	tree=$dir/$version
	[ -f "$tree/.package" ] && return 0
	pkg=$(image_package)
	[ -n "$pkg" ] || { why="apt knows no $meta$qual version $version"; return 1; }
	deb=$cache/${pkg}_$(printf %s "$version" | sed 's/:/%3a/')_amd64.deb
	if [ ! -f "$deb" ] ||
		[ "$(dpkg-deb -f "$deb" Package Version 2>/dev/null | tr '\n' ' ')" != \
			"Package: $pkg Version: $version " ]; then
		say "fetching $pkg$qual=$version into $cache"
		rm -f "$deb"
		# shellcheck disable=SC2086
		if ! err=$(cd "$cache" && apt-get $apt_opts download "$pkg$qual=$version" 2>&1); then
			why="apt-get download $pkg$qual=$version failed: $(printf '%s\n' "$err" | tail -2 | tr '\n' ' ')"
			return 1
		fi
		[ -f "$deb" ] || { why="apt-get download left no $deb"; return 1; }
	fi
	say "unpacking $(basename "$deb") into $tree"
	rm -rf "$tree.partial"
	if ! err=$(dpkg-deb -x "$deb" "$tree.partial" 2>&1); then
		rm -rf "$tree.partial"
		why="dpkg-deb -x $deb failed: $err"
		return 1
	fi
	if ! { printf '%s\n' "$pkg" > "$tree.partial/.package" &&
		mv "$tree.partial" "$tree"; }; then
		why="cannot move $tree.partial to $tree"
		return 1
	fi
}

choose
if [ -z "$version" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		say "apt knows no $meta$qual: apt-get update"
		# shellcheck disable=SC2086
		apt-get $apt_opts update >/dev/null 2>&1
		choose
	fi
	[ -n "$version" ] || die "apt knows no $meta$qual and the cache ($dir) holds none${qual:+ (an amd64 package on a $(dpkg --print-architecture) host: scripts/install-deps.sh adds the architecture)}; as root: apt-get update"
fi
if ! fetch; then
	# the mirror keeps only the newest version: stale lists name an older one
	if [ -n "${LINELOC_DEBIAN_VERSION:-}" ]; then
		die "$why (LINELOC_DEBIAN_VERSION=$LINELOC_DEBIAN_VERSION)"
	fi
	if [ "$(id -u)" -ne 0 ]; then
		die "$why (apt's lists may be stale: apt-get update as root)"
	fi
	say "$why; apt-get update, and the rule again"
	# shellcheck disable=SC2086
	apt-get $apt_opts update >/dev/null 2>&1 || die "$why; apt-get update failed too"
	choose
	fetch || die "$why"
fi

tree=$dir/$version
pkg=$(cat "$tree/.package")
vms=$(find "$tree/usr/lib/debug/boot" -maxdepth 1 -name 'vmlinux-*' 2>/dev/null)
if [ -z "$vms" ] || [ "$(printf '%s\n' "$vms" | wc -l)" -ne 1 ]; then
	die "$tree should hold one usr/lib/debug/boot/vmlinux-*, holds: ${vms:-none}"
fi
say "$meta $version ($how): $pkg, in $tree"
case $mode in
--root) printf '%s\n' "$tree" ;;
--vmlinux) printf '%s\n' "$vms" ;;
--version) printf '%s\n' "$version" ;;
--all) printf 'version=%s\npackage=%s\nroot=%s\nvmlinux=%s\n' "$version" "$pkg" "$tree" "$vms" ;;
esac
