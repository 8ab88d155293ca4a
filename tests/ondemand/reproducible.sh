#!/bin/bash
# reproducible.sh ARCH: on demand (make ARCH=x86_64 test-reproducible), build
# ARCH with line locations on in a second O= folder and require the same
# line tables as the matrix's build: the rows lineloc read and the kallsyms
# tables made of them, byte for byte.  Paths are relative to the source
# tree, so the O= folder must not show.  Costs one more kernel build.
set -euo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
load_arch "$1"
first=$OBJ
# The matrix's folder, built from the current tree with the option on.
LINELOC=on "$top/matrix/build-kernel.sh" "$ARCH_NAME"
OBJ=$BUILD/$ARCH_NAME-second-O
mkdir -p "$OBJ"
cp "$first/.config" "$OBJ/.config"
log "building in a second O= folder: $OBJ"
kmake -s olddefconfig
kmake -j"$(nproc)" vmlinux > "$OBJ/build.log" 2>&1 || die "build failed: $OBJ/build.log"
n=0
for f in .tmp_vmlinux.kallsyms2.lines .tmp_vmlinux.kallsyms2.S; do
	if cmp -s "$first/$f" "$OBJ/$f"; then
		log "ok   $f identical ($(wc -l < "$OBJ/$f") lines)"
	else
		log "FAIL $f differs between $first and $OBJ"
		n=$((n + 1))
	fi
done
[ "$n" -eq 0 ]
