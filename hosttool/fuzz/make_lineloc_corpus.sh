#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Seeds for fuzz_lineloc.c: small ELF files compiled here, each behind a
# mode byte (see fuzz_lineloc.c).  A tiny C file with a header, compiled
# -c -g -O1 by each compiler present: relocatable objects of x86_64 (RELA,
# DWARF 5; DWARF 4; zlib-compressed debug sections), i386 and arm (REL),
# arm64 (RELA); and an x86_64 and an s390x (big-endian) executable laid
# out like a small vmlinux (_text.._etext, _sinittext.._einittext), for the
# kernel-table modes.
#
# Reproducible: compiled in a temporary folder mapped to /fixture
# (-fdebug-prefix-map), checked for any trace of that folder; the same
# compilers give the same bytes.
#
# usage: make_lineloc_corpus.sh [OUTDIR]  (default: hosttool/fuzz/corpus_lineloc)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus_lineloc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lineloc-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include/linux" "$out"
cat > "$tmp/include/linux/seed.h" <<'H'
static inline int seed_twice(int x)
{
	return x * 2 + 1;
}
H
cat > "$tmp/seed.c" <<'C'
#include "include/linux/seed.h"
int seed_counter;
static int __attribute__((noinline)) seed_helper(int x)
{
	seed_counter += x;
	return seed_twice(x) ^ seed_counter;
}
int seed_main(int x)
{
	if (x > 3)
		return seed_helper(x - 1);
	return seed_helper(x + 2);
}
__attribute__((section(".init.text"))) int seed_init(void)
{
	return seed_main(7);
}
C
cat > "$tmp/vmlinux.lds" <<'L'
SECTIONS {
	. = 0xffffffff81000000;
	.text : { _text = .; *(.text .text.*) _etext = .; }
	.rodata : { *(.rodata .rodata.*) }
	.init.text : { _sinittext = .; *(.init.text) _einittext = .; }
	.data : { *(.data .bss) }
}
L
# seed NAME MODE CC FLAGS...: compile, then write MODE + object as NAME
seed() {
	name=$1 mode=$2 cc=$3
	shift 3
	command -v "$cc" >/dev/null || { echo "make_lineloc_corpus: no $cc, no $name" >&2; return 0; }
	(cd "$tmp" && "$cc" -c -g -O1 -fno-asynchronous-unwind-tables \
		-fdebug-prefix-map="$tmp"=/fixture "$@" -o "$name.obj" seed.c)
	emit "$name" "$mode" "$tmp/$name.obj"
}
emit() {
	if grep -q "$tmp" "$3"; then
		echo "make_lineloc_corpus: $1 holds the temporary folder's path" >&2
		exit 1
	fi
	{ printf '%b' "$(printf '\\%03o' "$2")"; cat "$3"; } > "$out/$1"
}
seed x86_64-dwarf5 0 gcc -gdwarf-5
seed x86_64-dwarf4-stats 2 gcc -gdwarf-4
seed x86_64-zlib-addr 3 gcc -gdwarf-5 -gz=zlib
seed x86_64-via 6 gcc -gdwarf-5
seed x86_64-size 7 gcc -gdwarf-5
seed i386-dwarf5 1 i686-linux-gnu-gcc -gdwarf-5
seed arm-addr 3 arm-linux-gnueabi-gcc -gdwarf-5
seed arm64-via 6 aarch64-linux-gnu-gcc -gdwarf-5
# vmlinux NAME CC LD: the small vmlinux, linked with the script above
vmlinux() {
	command -v "$2" >/dev/null || { echo "make_lineloc_corpus: no $2, no $1" >&2; return 1; }
	(cd "$tmp" && "$2" -c -g -O1 -fno-asynchronous-unwind-tables -fno-pie \
		-fdebug-prefix-map="$tmp"=/fixture -gdwarf-5 -o "$1.obj" seed.c &&
		"$3" -T vmlinux.lds --build-id=none --no-warn-rwx-segments \
			-e seed_main -o "$1" "$1.obj")
}
vmlinux vmlinux gcc ld
emit vmlinux-ktable 4 "$tmp/vmlinux"
emit vmlinux-check 5 "$tmp/vmlinux"
emit vmlinux-via 6 "$tmp/vmlinux"
# big-endian: s390x
if vmlinux vmlinux-s390x s390x-linux-gnu-gcc s390x-linux-gnu-ld; then
	emit s390x-vmlinux-rows 0 "$tmp/vmlinux-s390x"
	emit s390x-vmlinux-ktable 4 "$tmp/vmlinux-s390x"
fi
find "$out" -type f -printf '%s\n' | awk '{ n++; b += $1 } END { print "make_lineloc_corpus: " n " seeds, " b " bytes" }'
