# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables set here are for the scripts that source this
# Shared helpers for the matrix scripts.  Per-arch facts come only from
# arch-configs/<arch>.arch; nothing here branches on the arch name.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# the kernel base (BASE=, default 6.1): its series and its build folder
# shellcheck source=scripts/base.sh
. "$top/scripts/base.sh"
: "${BUILD:=$BASE_BUILD}"
BUILD=$(realpath -m "$BUILD")
SRC=$BUILD/src/linux
RESULTS_ROOT=$(realpath -m "${RESULTS_ROOT:-$BUILD/results}")
ALL_ARCHES=$(python3 "$top/matrix/cell.py" arches)

# The project's files that build, boot and judge a cell (inputs_key).
MATRIX_INPUTS="Makefile arch-configs hosttool matrix qemu scripts tests/module"

# inputs_key ARCH: a hash of what the cell's result depends on, so that a
# green result can stand while none of it changed (matrix.sh with
# MATRIX_REUSE=1): the kernel tree (its commit and any change in it), the
# project's MATRIX_INPUTS (committed, changed or new), the installed
# packages (compilers, QEMU) and the variables that steer a run.  Empty,
# so that nothing is reused, when any of it cannot be read.
inputs_key() {
	local out
	# shellcheck disable=SC2086 # MATRIX_INPUTS is a list of paths
	out=$( {
		echo "arch $1"
		git -C "$SRC" rev-parse HEAD &&
		git -C "$SRC" status --porcelain=v1 --untracked-files=all &&
		git -C "$SRC" diff HEAD &&
		git -C "$top" ls-files -s -- $MATRIX_INPUTS &&
		git -C "$top" diff HEAD -- $MATRIX_INPUTS &&
		(cd "$top" && git ls-files -o --exclude-standard -z -- $MATRIX_INPUTS |
			xargs -0r sha256sum) &&
		dpkg-query -W -f '${Package}=${Version}\n' &&
		{ env | grep -E '^(ARCH_DIR|BOOT_CONFIG|BASE|CCACHE|DWARF|EXTRA_CONFIG|KHOSTCC|CONFIGS|LINELOC|PLAN|SKIP_BUILD|VARIANT_SEED)=.' | sort || true; }
	} 2>/dev/null ) || return 0
	sha256sum <<< "$out" | cut -c1-16
}

# kconfig_symbols TREE: every CONFIG_ symbol the Kconfig files of the git
# tree TREE define, sorted, one a line.
kconfig_symbols() {
	git -C "$1" grep -hoE '^\s*(menu)?config [A-Za-z0-9_]+' -- '*Kconfig*' |
		awk '{ print "CONFIG_" $2 }' | sort -u
}

log() { printf '[%s] %s\n' "${ARCH_NAME:-matrix}" "$*"; }
die() { printf '[%s] error: %s\n' "${ARCH_NAME:-matrix}" "$*" >&2; exit 1; }
vrun() { [ "${V:-0}" = 1 ] && printf '+ %s\n' "$*" >&2; "$@"; }

# load_arch ARCH [CONFIG]: set KARCH, CROSS_COMPILE, IMAGE, QEMU, ... and
# ARCH_FRAGMENT (the arch's CONFIG_ lines) from the arch facts, which
# matrix/cell.py alone parses (common.facts under <arch>.arch; ARCH_DIR may
# name another folder of them: tests/faults plants faults that way).  Its
# output is shell-quoted assignments, so eval runs nothing from the files.
# CONFIG (default $BOOT_CONFIG) picks a boot configuration's facts; one
# with its own fragment (KCONFIG) builds in $BUILD/ARCH-KCONFIG.
load_arch() {
	local facts
	facts=$(python3 "$top/matrix/cell.py" facts "$1" "${2:-${BOOT_CONFIG:-}}") ||
		die "cannot load the facts of $1"
	eval "$facts"
	OBJ=$BUILD/$ARCH_NAME${KCONFIG:+-$KCONFIG}
	RESULTS=$RESULTS_ROOT/$ARCH_NAME
}

# kmake_argv ARGS...: KMAKE, the make command in the kernel tree for the
# loaded arch, with ARGS.  KHOSTCC names the compiler of the kernel's host
# programs (default gcc; tests/host32 builds them for a 32-bit host).
kmake_argv() {
	local cc=${CROSS_COMPILE}gcc hostcc=${KHOSTCC:-gcc}
	if command -v ccache >/dev/null && [ "${CCACHE:-1}" != 0 ]; then
		cc="$top/matrix/ccache-cc $cc"
		hostcc="$top/matrix/ccache-hostcc $hostcc"
	fi
	KMAKE=(make -C "$SRC" O="$OBJ" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE"
		CC="$cc" HOSTCC="$hostcc" ${V:+V=$V}
		KBUILD_BUILD_USER=lineloc KBUILD_BUILD_HOST=matrix
		KBUILD_BUILD_TIMESTAMP="1970-01-01" "$@")
}

# kmake ARGS...: run that make command.
kmake() {
	kmake_argv "$@"
	vrun "${KMAKE[@]}"
}

# logged LOG CMD...: run CMD with its output in LOG, whose first line is
# CMD, shell-quoted: the line that reproduces the log (as qemu.cmd replays
# a boot).
logged() {
	local log=$1
	shift
	{ printf '%q' "$1"; [ $# -gt 1 ] && printf ' %q' "${@:2}"; printf '\n'; } > "$log"
	vrun "$@" >> "$log" 2>&1
}
