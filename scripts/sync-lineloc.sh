#!/bin/bash
# sync-lineloc.sh TREE: hosttool/ is the one source of lineloc; copy the
# files hosttool/files lists (lib/ and kbuild/) flat into TREE's
# scripts/lineloc/, fold each change into the series' commit whose subject
# the list gives for the file ("# SUBJECT" lines), and export the series
# again.  A file there that the list no longer names is removed (in the
# commit of the Makefile, the last).  scripts/lineloc/Makefile is the
# kernel's own: it must build every kbuild/ .c of the list (a warning says
# which it misses).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(realpath "$1")
cd "$tree"
if ! git diff --quiet || ! git diff --cached --quiet; then
	echo "sync-lineloc: $tree has uncommitted changes" >&2
	exit 1
fi
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
keep=" Makefile .gitignore "
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
while IFS= read -r l; do
	case $l in
	'# '*)	s=${l#\# }
		# a subject line: "scripts: ..." or "scripts/lineloc: ..."
		case $s in
		scripts*:*) flush; subject=$s ;;
		esac ;;
	'#'*|'') ;;
	*)	cp "$top/hosttool/$l" "scripts/lineloc/${l##*/}"
		files+=("scripts/lineloc/${l##*/}")
		keep="$keep${l##*/} " ;;
	esac
done < "$top/hosttool/files"
flush
last=$subject
for f in scripts/lineloc/*; do
	case $keep in
	*" ${f##*/} "*) ;;
	*) git rm -q -f "$f" ;;
	esac
done
if ! git diff --cached --quiet; then
	git commit -q --fixup="$(commit_of "$last")"
	changed=1
fi
while IFS= read -r f; do
	case $f in
	kbuild/*.c) b=${f##*/}; grep -qw "${b%.c}\.o" scripts/lineloc/Makefile ||
		echo "sync-lineloc: warning: scripts/lineloc/Makefile does not build $b" >&2 ;;
	esac
done < "$top/hosttool/files"
if [ "$changed" = 0 ]; then
	echo "sync-lineloc: scripts/lineloc already matches hosttool/"
	exit 0
fi
GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash pristine
"$top/scripts/series-export.sh" "$tree"
