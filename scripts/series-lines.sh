#!/bin/bash
# series-lines.sh [SERIES_DIR]: the lines each patch of the series adds
# (SERIES_DIR default series/BASE/, BASE= default 6.1)
# (its "+" lines, "+++" headers left out), then the total and the total
# outside the KUnit tests and Documentation (patches whose subject names
# KUnit or starts with Documentation).
set -euo pipefail
dir=${1:-$(dirname "$0")/../series/${BASE:-6.1}}
total=0 core=0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	n=$(grep -c '^+\([^+]\|$\|+[^+]\|++[^ ]\)' "$dir/$p" || true)
	printf '%6d  %s\n' "$n" "$p"
	total=$((total + n))
	case $p in *KUnit*|*-Documentation-*) ;; *) core=$((core + n)) ;; esac
done < "$dir/series"
printf '%6d  total\n%6d  outside KUnit tests and Documentation\n' "$total" "$core"
