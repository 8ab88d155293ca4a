# shellcheck shell=bash
# The shell suites' results: one "ok   WHAT" or "FAIL WHAT" line per check,
# and a closing "<suite>: N passed, M failed" that tests/run.sh counts.
#   ok WHAT / bad WHAT      record a check that passed / failed
#   check WHAT CMD [ARG...] run CMD: its exit status decides
#   finish SUITE            print the closing line; exit 0 only if none failed
# tests/result.py is the same for the Python suites.
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}
finish() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
