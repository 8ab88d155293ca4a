#!/bin/bash
# build-kernel.sh ARCH: configure (tinyconfig + common + arch fragments) and
# build the kernel for ARCH in $BUILD/ARCH.  Fails, naming them, when
# requested options did not survive olddefconfig.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_arch "$1"

export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
mkdir -p "$OBJ" "$RESULTS"

frag=$OBJ/lineloc.config
{
	cat "${ARCH_DIR:-$top/arch-configs}/common.config"
	printf '%s' "$ARCH_FRAGMENT"
	case "${DWARF:-5}" in
	5) echo "CONFIG_DEBUG_INFO_DWARF5=y" ;;
	4) echo "CONFIG_DEBUG_INFO_DWARF4=y" ;;
	*) die "DWARF=${DWARF} (only 4 or 5)" ;;
	esac
	[ -n "${EXTRA_CONFIG:-}" ] && cat "$EXTRA_CONFIG"
} > "$frag"

stamp=$( { cat "$frag"; git -C "$SRC" rev-parse HEAD 2>/dev/null; } | sha1sum | cut -d' ' -f1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.lineloc-config" 2>/dev/null)" != "$stamp" ]; then
	log "configuring: tinyconfig + common.config + $ARCH_NAME.arch (DWARF ${DWARF:-5})"
	kmake -s tinyconfig >/dev/null
	vrun "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$frag" >/dev/null
	kmake -s olddefconfig >/dev/null
	missing=
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$OBJ/.config" && missing+=" $line(got $(grep "^$opt=" "$OBJ/.config"))"
		else
			grep -qx "$line" "$OBJ/.config" || missing+=" $line"
		fi
	done < "$frag"
	[ -z "$missing" ] || die "requested options missing from the final .config:$missing"
	echo "$stamp" > "$OBJ/.lineloc-config"
fi

# The variant: CONFIG_KALLSYMS_LINE_LOCATIONS off ("stock": the patched tree
# with the option off) or on, toggled in the one O= folder so that kbuild
# rebuilds only what depends on it.
# (Off also covers a tree without the option: bisect-check boots those.)
variant=${LINELOC:-on}
is_on() { grep -qx CONFIG_KALLSYMS_LINE_LOCATIONS=y "$OBJ/.config"; }
case $variant in
on) set_opt=--enable ;;
off) set_opt=--disable ;;
*) die "LINELOC=$variant (on or off)" ;;
esac
if { [ "$variant" = on ] && ! is_on; } || { [ "$variant" = off ] && is_on; }; then
	vrun "$SRC/scripts/config" --file "$OBJ/.config" $set_opt KALLSYMS_LINE_LOCATIONS
	kmake -s olddefconfig >/dev/null
	if [ "$variant" = on ] && ! is_on; then
		die "cannot enable CONFIG_KALLSYMS_LINE_LOCATIONS (see $OBJ/.config)"
	fi
	if [ "$variant" = off ] && is_on; then
		die "cannot disable CONFIG_KALLSYMS_LINE_LOCATIONS (see $OBJ/.config)"
	fi
fi

log "building kernel, line locations $variant ($UNWINDER unwinder)"
start=$(date +%s)
kmake -j"$(nproc)" all > "$RESULTS/build-$variant.log" 2>&1 || {
	tail -30 "$RESULTS/build-$variant.log" >&2
	die "kernel build failed (log: $RESULTS/build-$variant.log)"
}
[ -f "$OBJ/$IMAGE" ] || die "build produced no $IMAGE"
log "kernel built in $(( $(date +%s) - start )) s"
# Keep this variant's artifacts aside: the other variant rebuilds in place.
out=$OBJ/variant-$variant
mkdir -p "$out"
cp "$OBJ/vmlinux" "$OBJ/System.map" "$OBJ/.config" "$out/"
cp "$OBJ/$IMAGE" "$out/image"
