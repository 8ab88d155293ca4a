#!/bin/bash
# sync-lineloc.sh TREE: hosttool/ is the one source of lineloc; copy the
# files hosttool/files lists into TREE's scripts/lineloc/, fold the change
# into the commit that adds them ("scripts: add lineloc"), and export the
# series again.  scripts/lineloc/Makefile is the kernel's own: it must build
# every .c of the list (a warning says which it misses).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(realpath "$1")
cd "$tree"
commit=$(git log --format=%H --grep='^scripts: add lineloc' pristine..HEAD | tail -1)
[ -n "$commit" ] || { echo "sync-lineloc: no 'scripts: add lineloc' commit in $tree" >&2; exit 1; }
if ! git diff --quiet || ! git diff --cached --quiet; then
	echo "sync-lineloc: $tree has uncommitted changes" >&2
	exit 1
fi
# hosttool/files: lib/ (shared with the kernel) and kbuild/ (what the
# kernel build runs), flat in scripts/lineloc/; a file there that the list
# no longer names goes
keep=" Makefile "
while read -r f; do
	cp "$top/hosttool/$f" "scripts/lineloc/${f##*/}"
	keep="$keep${f##*/} "
done < "$top/hosttool/files"
for f in scripts/lineloc/*; do
	case $keep in
	*" ${f##*/} "*) ;;
	*) git rm -q -f "$f" ;;
	esac
done
while read -r f; do
	case $f in
	kbuild/*.c) b=${f##*/}; grep -qw "${b%.c}\.o" scripts/lineloc/Makefile ||
		echo "sync-lineloc: warning: scripts/lineloc/Makefile does not build $b" >&2 ;;
	esac
done < "$top/hosttool/files"
if git diff --quiet && git diff --cached --quiet; then
	echo "sync-lineloc: scripts/lineloc already matches hosttool/"
	exit 0
fi
git add -f scripts/lineloc
git commit -q --fixup="$commit"
GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash pristine
"$top/scripts/series-export.sh" "$tree"
