#!/bin/bash
# sync-lineloc.sh TREE: hosttool/ is the one source of lineloc; copy its
# files into TREE's scripts/lineloc/, fold the change into the commit that
# adds them ("scripts: add lineloc"), and export the series again.
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
while read -r f; do
	cp "$top/hosttool/$f" "scripts/lineloc/$f"
done < "$top/matrix/lineloc-files"
if git diff --quiet; then
	echo "sync-lineloc: scripts/lineloc already matches hosttool/"
	exit 0
fi
git add -f scripts/lineloc
git commit -q --fixup="$commit"
GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash pristine
"$top/scripts/series-export.sh" "$tree"
