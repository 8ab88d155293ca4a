#!/bin/bash
# make ARCH=<arch> test-host32: the kernel built by 32-bit host programs.
# The RFC's patch 4/8 fixed a host program that misread a 64-bit ELF file on
# a 32-bit host, during the kernel build.  This builds the arch's matrix
# configuration twice in one O= folder ($BUILD/host32/<arch>, emptied
# before each build): first with the host programs built by gcc for this
# host, then by HOST32_CC (default i686-linux-gnu-gcc), with the same
# KBUILD_BUILD_* and KBUILD_BUILD_VERSION.  It requires:
#  - every host program of the second build to be a 32-bit i386 ELF file, and
#    of the first a 64-bit one (fixdep, conf, kallsyms, modpost, sorttable,
#    lineloc, ...);
#  - byte-identical text outputs: .config, autoconf.h, the kallsyms .S
#    files, the line-table writer's output (.tmp_vmlinux.lines.bin),
#    System.map, Module.symvers, every modpost *.mod.c;
#  - byte-identical allocated sections of vmlinux and of every module
#    (tests/host32/alloc-sections.py; this covers sorttable's in-place sort).
# Target objects are the same compiles both times: ccache serves the second.
# Ends with "host32-kernel: N passed, M failed".
set -uo pipefail
# The 32-bit host programs run where this kernel runs none (no IA32
# emulation): scripts/i386-run hands them to qemu-i386-static.
if [ -z "${HOST32_IN_I386_RUN:-}" ]; then
	HOST32_IN_I386_RUN=1 exec "$(dirname "$0")/../../scripts/i386-run" "$0" "$@"
fi
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
# shellcheck source=tests/result.sh
. "$top/tests/result.sh"

arch=${1:?usage: kernel.sh ARCH}
load_arch "$arch"
case " $CAPS " in
*" host32 "*) ;;
*) bad "$arch: not built with 32-bit host programs (no host32 in CAPS: see arch-configs/$arch.arch)"
   finish host32-kernel ;;
esac
HOST32_CC=${HOST32_CC:-i686-linux-gnu-gcc}
command -v "$HOST32_CC" >/dev/null || { bad "no $HOST32_CC (scripts/install-deps.sh)"; finish host32-kernel; }
export CCACHE_DEPEND=1 KBUILD_BUILD_VERSION=1
kobj=$BUILD/host32/$ARCH_NAME
export KOBJ=$kobj

# build WORD HOSTCC: configure and build from an empty $kobj, then keep
# what is compared in $kobj-WORD.
build() {
	local word=$1 hcc=$2 keep=$kobj-$1 t0 f
	t0=$(date +%s)
	rm -rf "$kobj" "$keep"
	mkdir -p "$kobj" "$keep/text" "$RESULTS"
	# the matrix's configuration, with line locations on (its 'on' boot)
	if ! KHOSTCC=$hcc CONFIGURE_ONLY=1 "$top/matrix/build-kernel.sh" "$arch" >/dev/null ||
		! "$SRC/scripts/config" --file "$kobj/.config" --enable KALLSYMS_LINE_LOCATIONS ||
		! OBJ=$kobj KHOSTCC=$hcc kmake -s olddefconfig > "$keep/build.log" 2>&1 ||
		! grep -qx CONFIG_KALLSYMS_LINE_LOCATIONS=y "$kobj/.config" ||
		! OBJ=$kobj KHOSTCC=$hcc kmake -j"$(nproc)" all >> "$keep/build.log" 2>&1; then
		tail -20 "$keep/build.log" 2>/dev/null | sed 's/^/  | /'
		bad "$arch: build with $word-bit host programs ($hcc)"
		return 1
	fi
	ok "$arch: built with $word-bit host programs ($hcc) in $(( $(date +%s) - t0 )) s"
	(
		cd "$kobj" || exit 1
		for f in .config include/generated/autoconf.h System.map Module.symvers \
			modules.order .tmp_vmlinux.kallsyms*.S .tmp_vmlinux.lines.bin; do
			[ -f "$f" ] && cp --parents "$f" "$keep/text/"
		done
		find . -name '*.mod.c' -exec cp --parents {} "$keep/text/" \;
		find . -type f -path './scripts/*' -perm -u+x | sort > "$keep/hostprogs"
		# shellcheck disable=SC2046
		python3 "$top/tests/host32/alloc-sections.py" vmlinux \
			$(find . -name '*.ko' | sort) > "$keep/sections"
	)
}

# elf_class FILE: "32 3" (ELFCLASS32, EM_386) style: class bits and e_machine
elf_class() {
	od -An -tu1 -j4 -N1 "$1" | awk '{print ($1 == 1) ? 32 : 64}' | tr -d '\n'
	printf ' '
	od -An -tu2 -j18 -N2 "$1" | tr -d ' \n'
}

# hostprogs WORD MACHINE: every host program of that build is WORD-bit
# for MACHINE, and the ones this series runs are among them
hostprogs() {
	local word=$1 mach=$2 keep=$kobj-$1 f n=0 wrong=
	while read -r f; do
		n=$((n + 1))
		[ "$(elf_class "$kobj/$f")" = "$word $mach" ] || wrong+=" $f($(elf_class "$kobj/$f"))"
	done < "$keep/hostprogs"
	for f in basic/fixdep kconfig/conf kallsyms mod/modpost lineloc/lineloc; do
		grep -qx "./scripts/$f" "$keep/hostprogs" || wrong+=" scripts/$f(missing)"
	done
	if [ -z "$wrong" ]; then
		ok "$arch: $n host programs, all $word-bit (e_machine $mach)"
	else
		bad "$arch: host programs of the $word-bit build:$wrong"
	fi
}

build 64 gcc || finish host32-kernel
hostprogs 64 62
build 32 "$HOST32_CC" || finish host32-kernel
hostprogs 32 3

# the build-time outputs, file by file
n=0 differ=
while read -r f; do
	n=$((n + 1))
	cmp -s "$kobj-64/text/$f" "$kobj-32/text/$f" || differ+=" $f"
done < <(cd "$kobj-64/text" && find . -type f | sort)
[ "$(cd "$kobj-64/text" && find . -type f | sort)" = "$(cd "$kobj-32/text" && find . -type f | sort)" ] ||
	differ+=" (not the same files)"
if [ -z "$differ" ] && [ "$n" -gt 0 ]; then
	ok "$arch: $n build-time text outputs identical (kallsyms .S, line tables, modpost, System.map)"
else
	bad "$arch: text outputs differ:$differ"
fi
for f in .tmp_vmlinux.lines.bin .tmp_vmlinux.kallsyms1.S; do
	[ -f "$kobj-64/text/$f" ] || bad "$arch: the 64-bit build wrote no $f"
done
# allocated sections of vmlinux and the modules
s64=$(wc -l < "$kobj-64/sections")
if cmp -s "$kobj-64/sections" "$kobj-32/sections" && [ "$s64" -gt 0 ]; then
	ok "$arch: $s64 allocated sections of vmlinux and $(grep -c '\.ko ' "$kobj-64/sections" | tr -d ' ') of modules identical"
else
	bad "$arch: allocated sections differ: $(diff "$kobj-64/sections" "$kobj-32/sections" | grep '^[<>]' | head -4 | tr '\n' ';')"
fi
finish host32-kernel
