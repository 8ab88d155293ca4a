# SPDX-License-Identifier: GPL-2.0
"""The Python suites' results: one "ok   WHAT" or "FAIL WHAT" line per
check, and a closing "<suite>: N passed, M failed, K skipped" that tests/run.sh
counts (tests/result.sh is the same for the shell suites)."""
import sys


class Results:
    def __init__(self, suite):
        self.suite, self.passed, self.failed, self.skipped = suite, 0, 0, 0

    def check(self, ok, what, detail=''):
        """Record a check; returns @ok."""
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print('%s %s%s' % ('ok  ' if ok else 'FAIL', what, ' -- ' + detail if detail else ''),
              flush=True)
        return ok

    def skip(self, what, why):
        """A check that cannot run here, and why (counted apart)."""
        self.skipped += 1
        print('SKIP %s -- %s' % (what, why), flush=True)

    def finish(self):
        """Print the closing line; the exit status for the suite."""
        print('%s: %d passed, %d failed, %d skipped' %
              (self.suite, self.passed, self.failed, self.skipped))
        return 1 if self.failed else 0


if __name__ == '__main__':
    sys.exit('tests/result.py is a module')
