#!/bin/bash
# run-arch.sh ARCH: build the kernel, the test module and the initramfs for
# ARCH, boot it in QEMU and judge the console log.  Writes
# $BUILD/results/ARCH/{console.log,result.json}; exits 0 only for a green cell.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
load_arch "$1"

mkdir -p "$RESULTS"
rm -f "$RESULTS/result.json" "$RESULTS/console.log"
t0=$(date +%s)
stage_fail() { # STAGE REASON
	python3 "$top/matrix/judge.py" --arch "$ARCH_NAME" --fail "$1" --reason "$2" \
		--seconds $(( $(date +%s) - t0 )) --out "$RESULTS/result.json"
	log "FAIL ($1): $2"
	exit 1
}

if [ "${SKIP_BUILD:-0}" != 1 ]; then
	"$top/matrix/build-kernel.sh" "$ARCH_NAME" || stage_fail build "kernel build failed (see $RESULTS/build.log)"
fi
[ -f "$OBJ/$IMAGE" ] || stage_fail build "no kernel image $OBJ/$IMAGE"

# The test module, built out of tree (M=) against this kernel.
mod=$OBJ/lltest
rm -rf "$mod"; mkdir -p "$mod"
cp "$top"/tests/module/* "$mod/"
log "building test module"
kmake M="$mod" modules > "$RESULTS/module.log" 2>&1 ||
	stage_fail build "test module build failed (see $RESULTS/module.log)"

# The initramfs: our static init, the module and the plan.
plan=${PLAN:-$top/tests/plans/lltest.plan}
log "building init and initramfs"
"${CROSS_COMPILE}gcc" -static -Os -Wall -Wextra -Werror -std=gnu11 \
	-o "$OBJ/lltest-init" "$top/tests/init/init.c" > "$RESULTS/init.log" 2>&1 ||
	stage_fail build "init build failed (see $RESULTS/init.log)"
cat > "$OBJ/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $OBJ/lltest-init 0755 0 0
file /lltest.ko $mod/lltest.ko 0644 0 0
file /plan $plan 0644 0 0
LIST
"$OBJ/usr/gen_init_cpio" "$OBJ/initramfs.list" > "$OBJ/initramfs.cpio" ||
	stage_fail build "gen_init_cpio failed"

# Boot.  -no-reboot turns the init's final restart into QEMU's exit; panic=-1
# does the same for a panic, which the judge then reports (the success
# marker, not QEMU's exit status, decides).
cmd=("$QEMU" -M "$QEMU_MACHINE" ${QEMU_CPU:+-cpu "$QEMU_CPU"} -m "$MEMORY"
	-display none -monitor none -serial "file:$RESULTS/console.log" -net none
	-no-reboot -kernel "$OBJ/$IMAGE" -initrd "$OBJ/initramfs.cpio"
	-append "console=$CONSOLE panic=-1 nokaslr loglevel=8 ${APPEND:-}")
echo "${cmd[*]}" > "$RESULTS/qemu.cmd"
log "booting in $QEMU (timeout ${TIMEOUT}s)"
[ "${V:-0}" = 1 ] && echo "+ ${cmd[*]}" >&2
tb=$(date +%s)
timeout -k 5 "$TIMEOUT" "${cmd[@]}" < /dev/null > "$RESULTS/qemu.out" 2>&1
qrc=$?
log "QEMU exited $qrc after $(( $(date +%s) - tb )) s"

python3 "$top/matrix/judge.py" --arch "$ARCH_NAME" --console "$RESULTS/console.log" \
	--qemu-rc "$qrc" --timeout "$TIMEOUT" --plan "$plan" --module "$mod/lltest.ko" \
	--addr2line "${CROSS_COMPILE}addr2line" --nm "${CROSS_COMPILE}nm" \
	--warn-pc "$WARN_PC" ${THUMB:+--thumb} \
	--seconds $(( $(date +%s) - t0 )) --out "$RESULTS/result.json"
