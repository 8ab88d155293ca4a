# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables set here are for the scripts that source this
# Shared helpers for the matrix scripts.  Per-arch facts come only from
# arch-configs/<arch>.arch; nothing here branches on the arch name.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${BUILD:=$top/build}"
BUILD=$(realpath -m "$BUILD")
SRC=$BUILD/src/linux
RESULTS_ROOT=$(realpath -m "${RESULTS_ROOT:-$BUILD/results}")
ALL_ARCHES="x86_64 i386 arm arm64"

log() { printf '[%s] %s\n' "${ARCH_NAME:-matrix}" "$*"; }
die() { printf '[%s] error: %s\n' "${ARCH_NAME:-matrix}" "$*" >&2; exit 1; }
vrun() { [ "${V:-0}" = 1 ] && printf '+ %s\n' "$*" >&2; "$@"; }

# load_arch ARCH: set KARCH, CROSS_COMPILE, IMAGE, QEMU, ... from the
# arch file, and ARCH_FRAGMENT to the file's CONFIG_ lines.  The file is
# parsed, never sourced: only KEY=value and CONFIG_ lines are allowed.
load_arch() {
	# ARCH_DIR may name another folder of arch files (tests/faults plants
	# faults that way); RESULTS_ROOT moves the results.
	local f=${ARCH_DIR:-$top/arch-configs}/$1.arch line key val n=0
	[ -f "$f" ] || die "no arch file $f (arches: $ALL_ARCHES)"
	ARCH_NAME=$1
	ARCH_FRAGMENT=
	for key in KARCH CROSS_COMPILE IMAGE QEMU QEMU_MACHINE QEMU_CPU CONSOLE \
		   MEMORY TIMEOUT UNWINDER LLVM_TARGET WARN_PC INTERRUPTED_PC THUMB FIRST_FRAME_PC BUILD_ONLY; do
		unset "$key"
	done
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case "$line" in
		''|'#'*) continue ;;
		CONFIG_*=*) ARCH_FRAGMENT+="$line"$'\n' ;;
		[A-Z]*=*)
			key=${line%%=*}
			val=${line#*=}
			[[ $key =~ ^[A-Z_]+$ ]] || die "$f:$n: bad key '$key'"
			printf -v "$key" '%s' "$val"
			;;
		*) die "$f:$n: not KEY=value: $line" ;;
		esac
	done < "$f"
	for key in KARCH IMAGE QEMU QEMU_MACHINE CONSOLE MEMORY TIMEOUT UNWINDER WARN_PC INTERRUPTED_PC; do
		[ -n "${!key:-}" ] || die "$f: $key is not set"
	done
	: "${CROSS_COMPILE:=}" "${QEMU_CPU:=}" "${LLVM_TARGET:=}" "${THUMB:=}" "${FIRST_FRAME_PC:=}" "${BUILD_ONLY:=}"
	OBJ=$BUILD/$ARCH_NAME
	RESULTS=$RESULTS_ROOT/$ARCH_NAME
}

# kmake ARGS...: make in the kernel tree for the loaded arch.
kmake() {
	local cc=${CROSS_COMPILE}gcc hostcc=gcc
	if command -v ccache >/dev/null && [ "${CCACHE:-1}" != 0 ]; then
		cc="$top/matrix/ccache-cc $cc"
		hostcc="ccache gcc"
	fi
	vrun make -C "$SRC" O="$OBJ" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		CC="$cc" HOSTCC="$hostcc" ${V:+V=$V} \
		KBUILD_BUILD_USER=lineloc KBUILD_BUILD_HOST=matrix \
		KBUILD_BUILD_TIMESTAMP="1970-01-01" "$@"
}
