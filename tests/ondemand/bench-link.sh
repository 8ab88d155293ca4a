#!/bin/bash
# bench-link.sh ARCH: the link-time cost of line locations, side by side in
# one run: for the option off and on, relink vmlinux (all kallsyms passes,
# lineloc included when on) three times and print the medians and ratio.
# A benchmark, not a test: it prints figures and asserts nothing.
set -euo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
load_arch "$1"
declare -A med
for v in off on; do
	LINELOC=$v "$top/matrix/build-kernel.sh" "$ARCH_NAME" > /dev/null
	times=()
	for _ in 1 2 3; do
		rm -f "$OBJ/vmlinux"
		t0=$(date +%s.%N)
		kmake -s -j"$(nproc)" vmlinux > /dev/null 2>&1
		times+=("$(echo "$(date +%s.%N) - $t0" | bc)")
	done
	med[$v]=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
	log "link, line locations $v: ${times[*]} s (median ${med[$v]} s)"
done
printf '[%s] bench-link: off %.1f s, on %.1f s, on/off %.2f\n' "$ARCH_NAME" \
	"${med[off]}" "${med[on]}" "$(echo "${med[on]} / ${med[off]}" | bc -l)"
