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
# sections' headers and entries and their tables' short headers, read from
# the sections; "load-time" is what the loader's tables of the same rows
# take (hosttool/lineloc --table-size).  Both tools are built first (make
# hosttool).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
make -s -C "$top" -f hosttool/hosttool.mk hosttool/lineloc hosttool/lineloc-kbuild
dir=${1:?usage: scripts/module-sections.sh DIR}
ll=$top/hosttool/lineloc
llk=$top/hosttool/lineloc-kbuild
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 rows=0 line=0 load=0 sec=0
while IFS= read -r -d '' m; do
	out=$("$ll" --table-size "$m")
	re='module table: ([0-9]+) \+ ([0-9]+) rows, ([0-9]+) \+ ([0-9]+) bytes .* from ([0-9]+) bytes'
	[[ $out =~ $re ]] || { echo "module-sections: $m: $out" >&2; exit 1; }
	rows=$((rows + BASH_REMATCH[1] + BASH_REMATCH[2]))
	load=$((load + BASH_REMATCH[3] + BASH_REMATCH[4]))
	line=$((line + BASH_REMATCH[5]))
	"$llk" --module-sections "$m" "$tmp/$n.core" "$tmp/$n.init"
	sec=$((sec + $(stat -c %s "$tmp/$n.core") + $(stat -c %s "$tmp/$n.init")))
	n=$((n + 1))
done < <(find "$dir" -name '*.ko' -print0 | sort -z)
[ "$rows" -gt 0 ] || { echo "module-sections: no rows under $dir" >&2; exit 1; }
# the fixed bytes of each module's two sections (<linux/lineloc/module.h>,
# <linux/lineloc/table.h>): u16 magic, the count, the entries {name,
# size}; then the table's u16 magic, u32 codes' id and 8 numbers
python3 - "$tmp" "$n" "$rows" "$line" "$load" "$sec" <<'PY'
import sys


def uleb(d, at):
    while d[at] & 0x80:
        at += 1
    return at + 1


def fixed(d):
    if not d:
        return 0
    n, at = d[2], 3                 # fewer than 128 entries: one byte
    for _ in range(n):
        k, at = d[at], uleb(d, at)
        if not k:
            at = d.index(b'\0', at) + 1
        at = uleb(d, at)
    at += 6
    for _ in range(8):
        at = uleb(d, at)
    return at


tmp, n, rows, line, load, sec = sys.argv[1], *map(int, sys.argv[2:])
each = [sum(fixed(open('%s/%d.%s' % (tmp, i, r), 'rb').read()) for r in ('core', 'init'))
        for i in range(n)]
f = sum(each)
print('modules %d, rows %d, .debug_line %d bytes; load-time %d bytes (%.2f B/row); '
      'sections %d bytes (%.2f B/row), fixed %d bytes (%.1f B a module, at most %d)' % (
          n, rows, line, load, load / rows, sec, sec / rows, f, f / n, max(each)))
PY
