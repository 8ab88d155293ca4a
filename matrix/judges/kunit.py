# SPDX-License-Identifier: GPL-2.0
"""The kernel's own tests: test_printf and the KUnit suites (KTAP through
the tree's parser), each case against matrix/data/kunit-cases.txt."""
import os

from console import KUNIT_MODULE_SUITE, KUNIT_SUITE, kunit_results

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KUNIT_CASES = os.path.join(TOP, 'matrix', 'data', 'kunit-cases.txt')


def judge_kunit(cell, lines, a):
    """test_printf's count (the fact PRINTF_TESTS), then each KUnit suite
    and its cases, in the order matrix/data/kunit-cases.txt lists them."""
    tp = [l for l in lines if l.startswith('test_printf: ')]
    want = int(a.facts.get('PRINTF_TESTS') or 0)
    cell.check('test_printf: all %d tests passed' % want,
               'test_printf: all %d tests passed' % want in tp,
               next((l for l in tp if 'passed' in l or 'failed' in l), 'no result'))
    # KTAP through the tree's own parser: the suite, then each of its cases
    try:
        suites = kunit_results(lines, a.src)
    except ImportError as e:
        suites = None
        cell.check('KUnit %s' % KUNIT_SUITE, False, str(e))
    expected = kunit_expected()
    for suite in (KUNIT_SUITE, KUNIT_MODULE_SUITE) if suites is not None else ():
        status, cases = suites.get(suite, ('not seen', []))
        cell.check('KUnit %s' % suite, status == 'SUCCESS' and cases,
                   '%s, %d cases' % (status, len(cases)))
        names = [n for n, _ in cases]
        want = expected.get(suite, [])
        cell.check('KUnit %s: the expected cases, in order' % suite, names == want,
                   '%d cases' % len(names) if names == want else
                   'ran %s; %s lists %s' % (' '.join(names) or 'none',
                                            os.path.relpath(KUNIT_CASES, TOP),
                                            ' '.join(want) or 'none'))
        # with the vmlinux option off, its cases that need line locations
        # skip; the module suite runs whole in both configurations
        for name, st in cases:
            cell.check('KUnit %s: %s' % (suite, name),
                       st == 'SUCCESS' or (st == 'SKIPPED' and not a.lines_on and
                                           suite == KUNIT_SUITE), st)


def kunit_expected():
    """{suite: [case, ...]} from matrix/data/kunit-cases.txt."""
    out = {}
    with open(KUNIT_CASES) as f:
        for l in f:
            if l.strip() and not l.startswith('#'):
                suite, case = l.split()
                out.setdefault(suite, []).append(case)
    return out
