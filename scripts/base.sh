# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables set here are for the scripts that source this
# shellcheck disable=SC2154 # $top is the sourcing script's
# base.sh: the kernel base a run works on, BASE= (default 6.1, Debian 12's
# linux-source; 6.12, its security suite's linux-source-6.12): the series
# of that base (series/BASE/), Debian's source package and its tarball,
# and the build folder of that base (BUILD default: build/ for 6.1,
# build/base-BASE for another).  Sourced after $top is set; every script
# that reads a series or a kernel tree goes through it.
: "${BASE:=6.1}"
DEFAULT_BASE=6.1
SERIES=$top/series/$BASE
SOURCE_PKG=linux-source-$BASE
TARBALL=/usr/src/linux-source-$BASE.tar.xz
if [ "$BASE" = "$DEFAULT_BASE" ]; then
	BASE_BUILD=$top/build
else
	BASE_BUILD=$top/build/base-$BASE
fi
if [ ! -f "$SERIES/series" ]; then
	printf 'BASE=%s: no series for it (no %s/series); the bases:%s\n' "$BASE" "$SERIES" \
		"$(cd "$top/series" && for d in */; do [ -f "$d/series" ] && printf ' %s' "${d%/}"; done)" >&2
	exit 1
fi
# one_base WHAT: stop, saying so, unless BASE is the default base (the
# targets built on the frozen RFC-layout baseline exist on it alone)
one_base() {
	[ "$BASE" = "$DEFAULT_BASE" ] && return 0
	printf '%s: only on BASE=%s (its baseline is frozen on that base), not BASE=%s\n' \
		"$1" "$DEFAULT_BASE" "$BASE" >&2
	exit 2
}
