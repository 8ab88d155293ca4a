#!/bin/bash
# sync-lineloc.sh TREE: hosttool/ is the one source of lineloc; copy each
# file hosttool/files lists ("HOSTTOOL-PATH TREE-PATH") to its place in
# TREE (lib/lineloc/, include/linux/lineloc/, scripts/lineloc/), fold each
# change into the series' commit whose subject the list gives for the file
# ("# SUBJECT" lines), and export the series again.  A file in those
# folders that the list no longer names is removed from the commit that
# added it, except the kernel's own: Makefiles, .gitignore and
# scripts/lineloc's lib_*.c, which build lib/lineloc/ for the host.
# scripts/lineloc/Makefile must build every kbuild/ .c of the list (a
# warning says which it misses).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/base.sh
. "$top/scripts/base.sh"
tree=$(realpath "$1")
cd "$tree"
if ! git diff --quiet || ! git diff --cached --quiet; then
	echo "sync-lineloc: $tree has uncommitted changes" >&2
	exit 1
fi
dirs="lib/lineloc include/linux/lineloc scripts/lineloc"
# rewrite path P | rewrite text: P, or standard input, as the base's
# series/BASE/rewrites has it ("path A => B", "text A => B": whole lines)
rewrite() {
	python3 -c '
import sys
kind, rules = sys.argv[1], {}
try:
    for l in open(sys.argv[2]):
        k, _, r = l.rstrip("\n").partition(" ")
        if k == kind and " => " in r:
            a, b = r.split(" => ", 1)
            rules[a] = b
except OSError:
    pass
if kind == "path":
    print(rules.get(sys.argv[3], sys.argv[3]))
else:
    for l in sys.stdin:
        e = l.endswith("\n")
        l = l.rstrip("\n")
        sys.stdout.write(rules.get(l, l) + ("\n" if e else ""))
' "$1" "$SERIES/rewrites" "${2:-}"
}
# commit_of SUBJECT: the series' commit with that subject
commit_of() {
	local c
	c=$(git log --format=%H --fixed-strings --grep="$1" pristine..HEAD |
		while read -r h; do
			[ "$(git log -1 --format=%s "$h")" = "$1" ] && echo "$h"
		done | tail -1)
	[ -n "$c" ] || { echo "sync-lineloc: no commit '$1' in $tree" >&2; exit 1; }
	echo "$c"
}
keep=" "
subject=''
files=()
changed=0
# flush: commit the group's changes as a fixup of its commit
flush() {
	[ -n "$subject" ] || return 0
	git add -f -- "${files[@]}"
	if ! git diff --cached --quiet; then
		git commit -q --fixup="$(commit_of "$subject")"
		changed=1
	fi
	files=()
}
while read -r src dst; do
	case $src in
	'#')	s=$dst
		# a subject line: "scripts: ...", "scripts/lineloc: ...",
		# "lib/lineloc: ..."
		case $s in
		scripts*:*|lib/lineloc:*) flush; subject=$s ;;
		esac ;;
	'#'*|'') ;;
	*)	[ -n "$dst" ] || { echo "sync-lineloc: $src: no place in the tree" >&2; exit 1; }
		# this base's place and lines for it (series/BASE/rewrites)
		dst=$(rewrite path "$dst" < /dev/null)
		mkdir -p "$(dirname "$dst")"
		rewrite text < "$top/hosttool/$src" > "$dst"
		files+=("$dst")
		keep="$keep$dst " ;;
	esac
done < "$top/hosttool/files"
flush
# A file no longer listed goes from the commit that added it (each file
# is added and changed by one commit only).
# shellcheck disable=SC2086
for f in $(git ls-files -- $dirs); do
	case $f in
	*/Makefile|*/.gitignore|scripts/lineloc/lib_*.c) continue ;;
	esac
	case $keep in
	*" $f "*) continue ;;
	esac
	add=$(git log --format=%H --diff-filter=A pristine..HEAD -- "$f" | tail -1)
	git rm -q -f "$f"
	git commit -q --fixup="$add"
	changed=1
done
while read -r src dst; do
	case $src in
	kbuild/*.c) b=${dst##*/}; grep -qw "${b%.c}\.o" scripts/lineloc/Makefile ||
		echo "sync-lineloc: warning: scripts/lineloc/Makefile does not build $b" >&2 ;;
	esac
done < "$top/hosttool/files"
if [ "$changed" = 0 ]; then
	echo "sync-lineloc: the tree already matches hosttool/"
	exit 0
fi
# No rename detection: a file moved to a new folder in one commit would
# otherwise pull the later commits' new files in that folder along.
GIT_SEQUENCE_EDITOR=: git -c merge.directoryRenames=false -c merge.renames=false \
	rebase -q -i --autosquash pristine
"$top/scripts/series-export.sh" "$tree"
