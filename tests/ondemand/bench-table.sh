#!/bin/bash
# bench-table.sh: the compact line tables on the reference vmlinux (Debian's
# cloud-amd64 6.1 debug kernel, the version scripts/debian-dbg.sh chooses,
# fetched by it into ${LINELOC_CACHE:-~/.cache/lineloc}), side by side in
# one run:
#   compact       what the kernel holds: lineloc --table-size (both tables,
#                 code tables, index, paths)
#   delta-uleb64  the 2026 CONFIG_KALLSYMS_LINEINFO scheme on the same rows
#                 (hosttool/linetab --table-size)
#   rfc-layout    what the RFC layout adds to the kallsyms tables for the
#                 same rows, from the baseline's own scripts/kallsyms (the
#                 frozen series in tests/ondemand/rfc-layout/ applied to the
#                 pristine tree), assembled with and without --lines
#   lookup        hosttool/linetab --latency: 1,000,000 random offsets
#                 through linetab_dec.c, the kernel's decoder (seed 1)
#   llvm-symbolizer  the same kind of question to the host tool, per address
# then the size/latency curve over the rows a block (linetab --curve).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/base.sh
. "$top/scripts/base.sh"
# the RFC-layout baseline is frozen on the default base
one_base bench-table
cd "$top"
: "${BUILD:=build}"
# the version scripts/debian-dbg.sh chooses (the newest by dpkg's order),
# fetched if need be; it says which on standard error
deb=$(scripts/debian-dbg.sh --all) ||
	{ echo "bench-table: Debian's debug kernel cannot be had (scripts/debian-dbg.sh)" >&2; exit 1; }
ver=$(sed -n 's/^version=//p' <<< "$deb")
vm=$(sed -n 's/^vmlinux=//p' <<< "$deb")
map=$(find "$(sed -n 's/^root=//p' <<< "$deb")/usr/lib/debug/boot" -name 'System.map-*')
if [ -z "$map" ] || [ "$(wc -l <<< "$map")" -ne 1 ]; then
	echo "bench-table: want one System.map beside $vm, found: ${map:-none}" >&2
	exit 1
fi
echo "bench-table: Debian linux-image-cloud-amd64-dbg $ver: $vm"
src=$(realpath -m "$BUILD/src/linux")
git -C "$src" rev-parse -q --verify pristine >/dev/null ||
	{ echo "bench-table: no kernel tree in $src: make prepare" >&2; exit 1; }
make -s hosttool/lineloc hosttool/linetab
work=$(mktemp -d)
trap 'git -C "$src" worktree remove --force "$work/tree" 2>/dev/null; rm -rf "$work"' EXIT

hosttool/lineloc --rows "$vm" > "$work/rows.txt"
compact=$(hosttool/lineloc --table-size "$vm" | tail -1)
cb=$(sed -E 's/.*, ([0-9]+) bytes, .*/\1/' <<< "$compact")
cr=$(sed -E 's/table: ([0-9]+) rows.*/\1/' <<< "$compact")
uleb=$(hosttool/linetab --table-size "$work/rows.txt" | sed -nE 's/^delta-uleb64: ([0-9]+) bytes.*/\1/p')
lat=$(hosttool/linetab --latency --lookups 1000000 --seed 1 "$work/rows.txt" | tail -1)
mean=$(sed -E 's/.*mean ([0-9]+) ns.*/\1/' <<< "$lat")
p99=$(sed -E 's/.*p99 ([0-9]+) ns.*/\1/' <<< "$lat")

# The baseline: its scripts/kallsyms, on the same rows and System.map.
git -C "$src" worktree add -q --detach "$work/tree" pristine
mapfile -t rfc_patches < <(grep -vE '^[[:space:]]*(#|$)' tests/ondemand/rfc-layout/series |
	sed "s|^|$top/tests/ondemand/rfc-layout/|")
git -C "$work/tree" -c user.name=bench -c user.email=bench@invalid am -q "${rfc_patches[@]}"
gcc -O2 -o "$work/kallsyms" "$work/tree/scripts/kallsyms.c"
kbytes() { # [--lines ROWS]: bytes of the kallsyms object for Debian's map
	"$work/kallsyms" --all-symbols --absolute-percpu --base-relative "$@" "$map" > "$work/k.S"
	gcc -c -x assembler-with-cpp -D__ASSEMBLY__ -I"$src/arch/x86/include/uapi" \
		-I"$src/include/uapi" -I"$src/include" -o "$work/k.o" "$work/k.S"
	size -A "$work/k.o" | awk '$1 ~ /^\./ && $1 != ".comment" { s += $2 } END { print s }'
}
stock=$(kbytes)
rfc=$(( $(kbytes --lines "$work/rows.txt") - stock ))

# llvm-symbolizer on 20,000 random .text addresses (seed 1)
python3 - "$vm" > "$work/addrs.txt" <<'PY'
import random, subprocess, sys
out = subprocess.run(['nm', sys.argv[1]], capture_output=True, text=True).stdout
s = {l.split()[2]: int(l.split()[0], 16) for l in out.splitlines()
     if len(l.split()) == 3 and l.split()[2] in ('_stext', '_etext')}
r = random.Random(1)
print('\n'.join('%#x' % r.randrange(s['_stext'], s['_etext']) for _ in range(20000)))
PY
t0=$(date +%s%N)
llvm-symbolizer --obj="$vm" --no-inlines --functions=none < "$work/addrs.txt" > /dev/null
t1=$(date +%s%N)
llvm=$(( (t1 - t0) / 20000 ))

printf 'bench-table: compact %d bytes (%s B/row); delta-uleb64 %d bytes; rfc-layout %d bytes; lookup mean %d ns p99 %d ns; llvm-symbolizer %d ns/addr\n' \
	"$cb" "$(awk -v b="$cb" -v r="$cr" 'BEGIN { printf "%.2f", b / r }')" "$uleb" "$rfc" \
	"$mean" "$p99" "$llvm"
printf 'bench-table: ratios: delta-uleb64 / compact %.2f, rfc-layout / compact %.2f, llvm-symbolizer / lookup %.0f\n' \
	"$(awk -v a="$uleb" -v b="$cb" 'BEGIN { print a / b }')" \
	"$(awk -v a="$rfc" -v b="$cb" 'BEGIN { print a / b }')" \
	"$(awk -v a="$llvm" -v b="$mean" 'BEGIN { print a / b }')"
echo "bench-table: the curve (hosttool/linetab --curve; the kernel uses 64 rows a block):"
hosttool/linetab --curve "$work/rows.txt" | sed 's/^/  /'
