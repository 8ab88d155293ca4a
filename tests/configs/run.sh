#!/bin/bash
# Build-only configurations (arch-configs/build-only/*.config): the series
# must build, warning-free, with CONFIG_KALLSYMS off and with debug
# information off.  Each arch builds the ones its arch file lists in
# BUILD_ONLY (ARCHES=, default all); BUILD_ONLY_ALL=1 (make build-configs)
# builds every configuration on every arch.
# An arch's configurations share one O= folder ($BUILD/<arch>-build-only):
# the second recompiles only what its options change.  Then an option that
# no Kconfig defines must fail a configuration by name.  Ends with
# "configs: N passed, M failed".
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
# shellcheck source=tests/result.sh
. "$top/tests/result.sh"
for a in ${ARCHES:-$ALL_ARCHES}; do
	load_arch "$a"
	cfgs=$BUILD_ONLY
	if [ "${BUILD_ONLY_ALL:-0}" = 1 ]; then
		cfgs=$(for f in "$top"/arch-configs/build-only/*.config; do basename "$f" .config; done)
	fi
	for c in $cfgs; do
		t0=$(date +%s)
		if out=$("$top/matrix/build-kernel.sh" "$a" "$c" 2>&1); then
			ok "$a $c: builds without warnings ($(( $(date +%s) - t0 )) s)"
		else
			bad "$a $c: $(grep -m1 'error:' <<< "$out" || tail -1 <<< "$out")"
			printf '%s\n' "$out" | tail -12 | sed 's/^/  | /'
		fi
	done
done
# A requested option that this tree's Kconfig does not define fails the
# configuration by name, "=n" included (else a renamed option would pass).
scratch=$(mktemp -d)
printf 'CONFIG_LINELOC_NO_SUCH_OPTION=n\n' > "$scratch/extra.config"
read -r a _ <<< "${ARCHES:-$ALL_ARCHES}"
named=no
if ! out=$(EXTRA_CONFIG=$scratch/extra.config KOBJ=$scratch/obj CONFIGURE_ONLY=1 \
	"$top/matrix/build-kernel.sh" "$a" 2>&1) &&
	grep -q 'no Kconfig of .* defines: CONFIG_LINELOC_NO_SUCH_OPTION$' <<< "$out"; then
	named=yes
fi
check "$a: an =n option no Kconfig defines fails by name: '$(grep -m1 'error:' <<< "$out")'" \
	[ "$named" = yes ]
rm -rf "$scratch"
finish configs
