#!/bin/bash
# module-sections.sh DIR: what the line tables of every module under DIR
# (*.ko, with .debug_line) cost built with the module, as
# scripts/Makefile.modfinal adds them (hosttool/lineloc-kbuild
# --module-sections: the sections .lineloc and .init.lineloc), beside the
# tables the loader builds from .debug_line at load time (hosttool/lineloc
# --table-size), over the same rows.  One line of sums:
#   modules N, rows R, .debug_line B; load-time T bytes (X B/row);
#   sections S bytes (Y B/row), fixed F bytes (Z B a module, at most M)
# where "fixed" is what does not grow with a module's rows and files: the
# sections' headers, entries and names, and each table's header and codes
# (lineloc --table-size's "fixed"; with the shared codes, the header).  The
# sections' tables are the load-time ones (the same rows and layout, the
# same encoder), so the sections' own bytes are their sizes less those.
# Both tools are built first (make hosttool).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
make -s -C "$top" -f hosttool/hosttool.mk hosttool/lineloc hosttool/lineloc-kbuild
dir=${1:?usage: scripts/module-sections.sh DIR}
ll=$top/hosttool/lineloc
llk=$top/hosttool/lineloc-kbuild
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 rows=0 line=0 load=0 sec=0 fixed=0 fmax=0
while IFS= read -r -d '' m; do
	out=$("$ll" --table-size "$m")
	re='module table: ([0-9]+) \+ ([0-9]+) rows, ([0-9]+) \+ ([0-9]+) bytes .*of which ([0-9]+) fixed.* from ([0-9]+) bytes'
	[[ $out =~ $re ]] || { echo "module-sections: $m: $out" >&2; exit 1; }
	rows=$((rows + BASH_REMATCH[1] + BASH_REMATCH[2]))
	load=$((load + BASH_REMATCH[3] + BASH_REMATCH[4]))
	line=$((line + BASH_REMATCH[6]))
	f=$((BASH_REMATCH[5]))
	"$llk" --module-sections "$m" "$tmp/core" "$tmp/init"
	s=$(($(stat -c %s "$tmp/core") + $(stat -c %s "$tmp/init")))
	sec=$((sec + s))
	# the sections less their tables, which are the load-time ones
	f=$((f + s - BASH_REMATCH[3] - BASH_REMATCH[4]))
	fixed=$((fixed + f))
	[ "$f" -le "$fmax" ] || fmax=$f
	n=$((n + 1))
done < <(find "$dir" -name '*.ko' -print0 | sort -z)
[ "$rows" -gt 0 ] || { echo "module-sections: no rows under $dir" >&2; exit 1; }
awk -v n=$n -v r=$rows -v l=$line -v t=$load -v s=$sec -v f=$fixed -v m=$fmax 'BEGIN {
	printf "modules %d, rows %d, .debug_line %d bytes; load-time %d bytes (%.2f B/row); sections %d bytes (%.2f B/row), fixed %d bytes (%.1f B a module, at most %d)\n",
	       n, r, l, t, t / r, s, s / r, f, f / n, m }'
