#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test-libdw: lineloc's rows against a third oracle, tests/libdw/dwrows
# (the same rows read through elfutils' libdw), on the matrix's kernels
# ($BUILD/<arch>/kernel-on/vmlinux for each arch of ARCHES) and Debian's
# cloud-amd64 vmlinux (scripts/debian-dbg.sh; LINELOC_NO_DEBIAN=REASON does
# without it).  Per kernel: both exit 0, both print rows, and the two sets
# of rows, sorted, are equal; else the first lines of their diff.  A kernel
# that is not there is a SKIP saying why.
#   usage: compare.sh [VMLINUX...]   (default: the kernels above)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
# shellcheck source=tests/result.sh
. tests/result.sh
export LC_ALL=C
: "${BUILD:=build}"
ll=hosttool/lineloc
dw=tests/libdw/dwrows
for p in "$ll" "$dw"; do
	[ -x "$p" ] || { echo "compare.sh: no $p: make $p" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/libdw-compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# compare NAME VMLINUX [copy]: one check; with "copy", both read a copy
# (a matrix run may relink that kernel meanwhile)
compare() {
	local name=$1 vm=$2 a=$tmp/lineloc b=$tmp/libdw n m
	if [ "${3:-}" = copy ]; then
		if ! cp "$vm" "$tmp/vmlinux"; then
			bad "$name: cannot copy $vm"
			return
		fi
		vm=$tmp/vmlinux
	fi
	if ! "$ll" --rows "$vm" > "$a.rows" 2> "$a.err"; then
		bad "$name: lineloc --rows failed: $(head -1 "$a.err")"
		return
	fi
	if ! "$dw" "$vm" > "$b.rows" 2> "$b.err"; then
		bad "$name: dwrows failed: $(head -1 "$b.err")"
		return
	fi
	sort "$a.rows" > "$a.sorted"
	sort "$b.rows" > "$b.sorted"
	n=$(wc -l < "$a.sorted")
	m=$(wc -l < "$b.sorted")
	if [ "$n" -eq 0 ]; then
		bad "$name: lineloc printed no rows"
	elif cmp -s "$a.sorted" "$b.sorted"; then
		ok "$name: $n rows, libdw's equal lineloc's ($(grep -c ' end$' "$a.sorted") ends of sequences)"
	else
		bad "$name: rows differ: lineloc $n, libdw $m (< lineloc only, > libdw only; sorted):"
		diff "$a.sorted" "$b.sorted" | grep '^[<>]' | head -20 | sed 's/^/    /'
		echo "    ... $(diff "$a.sorted" "$b.sorted" | grep -c '^[<>]') lines differ"
	fi
	rm -f "$tmp/vmlinux"
}

if [ $# -gt 0 ]; then
	for vm in "$@"; do
		compare "$vm" "$vm"
	done
	finish libdw
fi

arches=${ARCHES:-$(python3 matrix/cell.py arches)}
for arch in $arches; do
	vm=$BUILD/$arch/kernel-on/vmlinux
	if [ -f "$vm" ]; then
		compare "$arch" "$vm" copy
	else
		skip "$arch: rows against libdw" "no $vm (make ARCH=$arch qemu-test builds it)"
	fi
done
if [ -n "${LINELOC_NO_DEBIAN:-}" ]; then
	skip "debian: rows against libdw" "LINELOC_NO_DEBIAN: $LINELOC_NO_DEBIAN"
elif deb=$(scripts/debian-dbg.sh --vmlinux 2> "$tmp/debian.err"); then
	compare "debian $(basename "$deb")" "$deb"
else
	skip "debian: rows against libdw" "$(grep error "$tmp/debian.err" | tail -1)"
fi
finish libdw
