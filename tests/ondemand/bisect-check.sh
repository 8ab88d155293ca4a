#!/bin/bash
# bisect-check.sh ARCH: on demand (make ARCH=x86_64 bisect-check), build and
# boot every commit of the series on one arch, in a worktree of the kernel
# tree and build folders of its own ($BUILD/bisect): each patch must build
# and boot on its own.  The option is on from the patch that adds it; the
# kconfig lines of the fragments that a commit does not know yet are left
# out.  A commit passes when its kernel and the test module build and the
# boot reaches the success marker with no unplanned panic (before module
# line locations, the plan without its linesize, linesource and
# line_locations steps; before the sections of line tables, without its
# linesource steps).  The pristine
# tree is booted first, and its backtraces (frames and faulting PCs, that is
# symbol+offset/size, timestamps and addresses aside) must be those of the
# matrix's boot of the whole series with the option off ("stock").  Each
# commit is also built, warning-free, with CONFIG_KALLSYMS off
# (arch-configs/build-only/nokallsyms.config).
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
arch=$1
main_src=$SRC
main_results=$RESULTS_ROOT
B=$BUILD/bisect
mkdir -p "$B/src"
if [ ! -d "$B/src/linux/.git" ] && [ ! -f "$B/src/linux/.git" ]; then
	git -C "$main_src" worktree add -q --detach "$B/src/linux" HEAD
fi
export BUILD=$B
unset RESULTS_ROOT
# shellcheck source=tests/result.sh
. "$top/tests/result.sh"
for c in $(git -C "$main_src" rev-parse refs/tags/pristine) \
	 $(git -C "$main_src" rev-list --reverse refs/tags/pristine..HEAD); do
	subj=$(git -C "$main_src" log -1 --format=%s "$c")
	git -C "$B/src/linux" checkout -q --detach "$c"
	dir=$B/arch-configs
	rm -rf "$dir"; cp -r "$top/arch-configs" "$dir"
	kconfig_symbols "$B/src/linux" > "$B/defined"
	grep -hoE '^CONFIG_[A-Z0-9_]+' "$dir"/*.config "$dir"/*.arch | sort -u |
		comm -23 - "$B/defined" | while read -r opt; do
			sed -i "/^$opt=/d" "$dir"/*.config "$dir"/*.arch
		done
	v=off
	grep -qs '^config KALLSYMS_LINE_LOCATIONS$' "$B/src/linux/init/Kconfig" && v=on
	# before module line locations there is no linesize and no
	# module.line_locations, and before the sections of line tables no
	# linesource: the plan's steps that read or set them go
	plan=$top/qemu/plans/lltest.plan
	if ! grep -qs '^config MODULE_LINE_LOCATIONS$' "$B/src/linux/kernel/module/Kconfig"; then
		grep -vE '/linesize$|/linesource$|/parameters/line_locations ' "$plan" > "$B/lltest-nomodlines.plan"
		plan=$B/lltest-nomodlines.plan
	elif ! grep -qs linesource "$B/src/linux/kernel/module/lines.c"; then
		grep -vE '/linesource$' "$plan" > "$B/lltest-nosections.plan"
		plan=$B/lltest-nosections.plan
	fi
	if PLAN=$plan ARCH_DIR=$dir CONFIGS=$v "$top/matrix/run-arch.sh" "$arch" > "$B/run.log" 2>&1 ||
	   [ "$(python3 "$top/matrix/cell.py" field "$B/results/$arch/result.json" build)/$(python3 \
		"$top/matrix/cell.py" field "$B/results/$arch/result.json" boot)" = ok/ok ]; then
		ok "$(git -C "$main_src" log -1 --format=%h "$c") ($v) $subj"
	else
		bad "$(git -C "$main_src" log -1 --format=%h "$c") ($v) $subj: $(grep -m1 -E 'FAIL|error' "$B/run.log")"
	fi
	# and with CONFIG_KALLSYMS off, warning-free (its own O= folder)
	if ARCH_DIR=$dir "$top/matrix/build-kernel.sh" "$arch" nokallsyms > "$B/nokallsyms.log" 2>&1; then
		ok "$(git -C "$main_src" log -1 --format=%h "$c") (KALLSYMS=n) builds without warnings"
	else
		bad "$(git -C "$main_src" log -1 --format=%h "$c") (KALLSYMS=n) $subj: $(grep -m1 -E 'warning|error' "$B/nokallsyms.log")"
	fi
	[ "$c" = "$(git -C "$main_src" rev-parse refs/tags/pristine)" ] &&
		cp "$B/results/$arch/off/console.log" "$B/pristine-console.log"
done

# Stock prints as pristine: the same frame lines, in the same order, those
# of the functions the series changes masked, and the "? " frames left out
# (whatever earlier calls left on the stack: two boots of 6.12's x86_64
# differed in them, the series aside).
frames() {
	python3 "$top/matrix/console.py" frame-lines --arch "$arch" --reliable \
		--mask "$top/matrix/data/series-changed.txt" "$1"
}
if [ -f "$B/pristine-console.log" ] && [ -f "$main_results/$arch/off/console.log" ]; then
	frames "$B/pristine-console.log" > "$B/pristine-frames.txt"
	frames "$main_results/$arch/off/console.log" > "$B/stock-frames.txt"
	n=$(wc -l < "$B/pristine-frames.txt")
	diff -u "$B/pristine-frames.txt" "$B/stock-frames.txt" > "$B/frames.diff"
	if [ "$n" -gt 20 ] && [ ! -s "$B/frames.diff" ]; then
		ok "the series, option off, prints the $n frame lines of the pristine tree"
	else
		bad "stock and pristine frame lines differ ($n lines): see $B/frames.diff"
		head -20 "$B/frames.diff"
	fi
else
	bad "no pristine boot or no matrix 'off' boot to compare"
fi
finish bisect-check
