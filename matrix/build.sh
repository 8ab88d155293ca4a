#!/bin/bash
# build.sh ARCH CONFIG: the build stage of one boot configuration.  Builds
# the kernel (matrix/build-kernel.sh; KERNEL=0 when this run built it for
# a configuration that shares it), the test module out of tree (M=), the
# module again with each line-table version of the fact MODULE_DWARF, its
# load-time variants (matrix/variants.py), the init and the initramfs, and
# writes $RESULTS/CONFIG/build.json (matrix/build_record.py: what was
# built, as read from the .config, the build checks and figures).  A stage
# that fails is in build.json (stage, reason); the exit status is 0 only
# when everything was built.
#
# Where things go: the kernel in $OBJ (KCONFIG's folder), its image and
# vmlinux kept in $OBJ/kernel-LINES; this configuration's module,
# variants, init and initramfs in $OBJ/config-CONFIG; logs in
# $RESULTS/CONFIG, each starting with the command that reproduces it.
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/lib.sh"
[ $# = 2 ] || die "usage: build.sh ARCH CONFIG"
load_arch "$1" "$2"
v=$2
R=$RESULTS/$v
plan=${PLAN:-$top/qemu/plans/$BOOT_PLAN.plan}
lines=${LINELOC:-$LINES}
K=$OBJ/kernel-$lines
C=$OBJ/config-$v
mkdir -p "$R"
t0=$(date +%s)
args=(--arch "$ARCH_NAME" --config "$v" --obj "$OBJ" --kernel-dir "$K" --src "$SRC"
	--dir "$C" --out "$R/build.json" --plan "$plan")
logs=("$RESULTS/build-$lines.log")
# failed STAGE REASON: the record of a build that stopped
failed() {
	log "FAIL $v ($1): $2"
	python3 "$top/matrix/build_record.py" "${args[@]}" --failed "$1" --reason "$2" \
		--seconds $(( $(date +%s) - t0 )) --log "${logs[@]}"
	exit 1
}

python3 "$top/matrix/cell.py" supports "$ARCH_NAME" "$v" ||
	failed kernel "$ARCH_NAME cannot run $v: it needs $NEEDS, the arch has ${CAPS:-none}"
if [ "${SKIP_BUILD:-0}" != 1 ] && [ "${KERNEL:-1}" != 0 ]; then
	BOOT_CONFIG=$v LINELOC=$lines "$top/matrix/build-kernel.sh" "$ARCH_NAME" ||
		failed kernel "kernel build ($v) failed (see $RESULTS/build-$lines.log)"
fi
[ -f "$K/image" ] || failed kernel "no kernel image in $K"

# The test module, built out of tree (M=) against this kernel.
rm -rf "$C"; mkdir -p "$C"
mod=$OBJ/lltest
rm -rf "$mod"; mkdir -p "$mod"
cp "$top"/tests/module/* "$mod/"
log "$v: building test module"
kmake_argv M="$mod" modules
logs+=("$R/module.log")
logged "$R/module.log" "${KMAKE[@]}" || failed module "test module build failed (see $R/module.log)"
cp "$mod/lltest.ko" "$mod/lltest_race.ko" "$C/"
# The module again with each line-table version of the fact MODULE_DWARF:
# gccN written by gcc itself, gasN by gas (-gdwarf-2 gives version 3;
# arm's gcc never passes a version to gas).
dwarf=()
for d in $MODULE_DWARF; do
	case $d in
	gcc[2-5]) fl="-gdwarf-${d#gcc} -gno-as-loc-support" ;;
	gas3) fl="-gdwarf-2" ;;
	gas[45]) fl="-gdwarf-${d#gas} -Wa,--gdwarf-${d#gas}" ;;
	*) failed module "MODULE_DWARF: $d is not gcc2..gcc5 or gas3..gas5" ;;
	esac
	vm=$OBJ/lltest-$d
	rm -rf "$vm"; mkdir -p "$vm"
	cp "$top"/tests/module/* "$vm/"
	kmake_argv M="$vm" KCFLAGS="$fl" modules
	logs+=("$R/module-$d.log")
	logged "$R/module-$d.log" "${KMAKE[@]}" ||
		failed module "test module ($d) build failed (see $R/module-$d.log)"
	dwarf+=("$d=$vm/lltest.ko")
done
# Its load-time variants: stripped to the line table, and corrupted.
logs+=("$R/variants.log")
logged "$R/variants.log" python3 "$top/matrix/variants.py" --ko "$C/lltest.ko" \
	--objcopy "${CROSS_COMPILE}objcopy" --out "$C/variants" --seed "${VARIANT_SEED:-1}" \
	--count "$MODULE_VARIANTS" --dwarf "${dwarf[@]}" ||
	failed variants "module variants failed (see $R/variants.log)"
flavours=()
[ -d "$C/variants/dwarf" ] && mapfile -t flavours < <(find "$C/variants/dwarf" -name '*.ko' | sort)

python3 "$top/matrix/build_record.py" "${args[@]}" --module "$C/lltest.ko" \
	--companions "$C/lltest_race.ko" --variants "$C/variants/variants.json" \
	--dwarf "${flavours[@]}" --seconds $(( $(date +%s) - t0 )) --log "${logs[@]}" || exit 1
[ "$(python3 "$top/matrix/cell.py" field "$R/build.json" ok)" = true ]
