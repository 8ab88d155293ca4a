#!/bin/bash
# Unpack Debian's linux-source of the base (BASE=, scripts/base.sh) into $1
# as a git tree whose first commit is the pristine source, then apply
# series/BASE/ with git am.  Reuses an existing tree when the source
# tarball and the series are unchanged.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/base.sh
. "$top/scripts/base.sh"
dest=$1
[ -f "$TARBALL" ] || { echo "prepare-tree: $TARBALL missing (apt-get install $SOURCE_PKG; scripts/install-deps.sh)" >&2; exit 1; }
tarball=$TARBALL

have=$(dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null || echo unknown)
want=$(cat "$SERIES/BASE-VERSION")
if [ "$have" != "$want" ]; then
	echo "prepare-tree: NOTE: series/$BASE was last rebased on $SOURCE_PKG $want, installed is $have; applying anyway"
fi

patches=()
while read -r p _; do
	case "$p" in ''|'#'*) continue ;; esac
	[ -f "$SERIES/$p" ] || { echo "prepare-tree: series/$BASE/series lists $p, which is missing" >&2; exit 1; }
	patches+=("$SERIES/$p")
done < "$SERIES/series"

stamp_of() {
	{ echo "$have"; stat -c '%s %Y' "$tarball"; cat "$SERIES/series" "${patches[@]}" /dev/null; } | sha1sum | cut -d' ' -f1
}
stamp=$(stamp_of)
# .lineloc-stamp: the stamp of the inputs the tree was made from, and the
# commit it was left at.
if [ -f "$dest/.lineloc-stamp" ]; then
	old_stamp=$(sed -n 1p "$dest/.lineloc-stamp")
	old_head=$(sed -n 2p "$dest/.lineloc-stamp")
	head=$(git -C "$dest" rev-parse HEAD 2>/dev/null || echo none)
	if [ "$old_stamp" = "$stamp" ]; then
		echo "prepare-tree: $dest is current ($SOURCE_PKG $have, ${#patches[@]} patches)"
		exit 0
	fi
	# The tree may be where series/BASE was just exported from: then keep it.
	tmp=$(mktemp -d)
	git -C "$dest" format-patch -q --no-signature --notes -o "$tmp" refs/tags/pristine..HEAD
	if [ "$(cd "$tmp" && cat -- *.patch 2>/dev/null | sha1sum)" = \
	     "$(cat "${patches[@]}" /dev/null | sha1sum)" ]; then
		rm -rf "$tmp"
		printf '%s\n%s\n' "$stamp" "$head" > "$dest/.lineloc-stamp"
		echo "prepare-tree: $dest holds series/$BASE as exported; kept"
		exit 0
	fi
	rm -rf "$tmp"
	# CI's tree is disposable; a tree without a recorded commit predates
	# the record, and nobody worked in it.
	if [ -n "$old_head" ] && [ "$old_head" != "$head" ] &&
	   [ "${FORCE:-0}" != 1 ] && [ "${CI:-}" != true ]; then
		echo "prepare-tree: $dest has commits that are not in series/$BASE:" >&2
		echo "  run 'make series-export' to keep them, or FORCE=1 to rebuild the tree" >&2
		exit 1
	fi
fi

echo "prepare-tree: unpacking $SOURCE_PKG $have into $dest"
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1
cd "$dest.tmp"
git init -q -b lineloc-import
git config user.name "${GIT_AUTHOR_NAME:-$(git -C "$top" config user.name || echo lineloc)}"
git config user.email "${GIT_AUTHOR_EMAIL:-$(git -C "$top" config user.email || echo lineloc@invalid)}"
git config core.autocrlf false
# Debian's top-level .gitignore ends with "/*" and "!/debian/": force-add.
git add -f -A
git commit -q -m "Debian $SOURCE_PKG $have (pristine)"
git tag -f pristine >/dev/null
git checkout -q -b lineloc
git branch -q -D lineloc-import
if [ ${#patches[@]} -gt 0 ]; then
	echo "prepare-tree: applying ${#patches[@]} patches"
	git am -q --whitespace=nowarn "${patches[@]}" || {
		echo "prepare-tree: series/$BASE does not apply to $SOURCE_PKG $have" >&2
		git am --abort || true
		exit 1
	}
	# What stands below a patch's "---" as "Notes:" (checkpatch findings
	# explained, for the reviewer) goes back into git notes, so that
	# series-export writes it there again.
	mapfile -t commits < <(git rev-list --reverse pristine..HEAD)
	for i in "${!commits[@]}"; do
		notes=$(sed -n '/^---$/,/^ [^ ].* | /p' "${patches[$i]}" |
			sed -n '/^Notes:$/,$p' | sed -n 's/^    //p')
		[ -z "$notes" ] || git notes add -f -m "$notes" "${commits[$i]}"
	done
	# and they follow their commits through a rebase (sync-lineloc's)
	git config notes.rewriteRef refs/notes/commits
fi
printf '%s\n%s\n' "$stamp" "$(git rev-parse HEAD)" > .lineloc-stamp
# keep the stamp out of git status
echo ".lineloc-stamp" >> .git/info/exclude
cd - >/dev/null
mv "$dest.tmp" "$dest"
echo "prepare-tree: done"
