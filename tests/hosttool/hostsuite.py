#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host-tool test suite for hosttool/lineloc (make test-hosttool,
through tests/hosttool/run.sh): its runner.

hostsuite.py [PART...] runs the parts named (default: all) or groups of
them (kernels, tools), each from its module in tests/hosttool/suite/
(what more than one part uses: suite/common.py), in a fixed order, each
from its own random stream (part_random), then checks that every object
the parts built is reproducible.  Every check prints an ok/FAIL/SKIP line;
the last line is "hosttool: N passed, M failed, K skipped" and the exit
status is non-zero if M > 0.  Oracles: llvm-symbolizer first, the target's
binutils addr2line second.
"""
import os
import shutil
import sys
import tempfile

from suite.common import (BUILDS, LL, LL32, LLBE, RESULTS, TOP, build,
                          built_with_zlib, part_random, result)
from suite.bigendian import test_bigendian, test_bigendian_kallsyms
from suite.cli import test_cli, test_freestanding
from suite.debian import test_debian
from suite.fuzz import test_fuzz, test_fuzz_lineloc, test_fuzz_modlines
from suite.generated import test_bigendian_generated, test_generated
from suite.linetab import test_linetab
from suite.matrix import test_matrix
from suite.mutants import mutant_seed, test_mutants
from suite.oracle_checks import (test_be_objects, test_damaged_tables,
                                 test_forms, test_path_rule)
from suite.synth import test_synth


def check_reproducible(work):
    """Every object built so far, built again in another folder (other
    name, other length): byte for byte the same, and neither folder nor
    the clone's path appears in any of them."""
    if not BUILDS:
        return
    print('== generated inputs are reproducible (%d builds)' % len(BUILDS),
          flush=True)
    other = tempfile.mkdtemp(prefix='lineloc-other-folder-with-a-longer-'
                             'name-', dir=work)
    differ, leaks, n = [], [], 0
    needles = {os.path.realpath(TOP).encode(), os.path.realpath(work).encode(),
               os.path.realpath(other).encode()}
    for i, (root, tc, cc, flags, opt, files) in enumerate(BUILDS):
        root2 = os.path.join(other, str(i))
        build(root2, tc, cc, flags, opt, record=False)
        for f in files:
            a = open(os.path.join(root, f), 'rb').read()
            p2 = os.path.join(root2, f)
            b = open(p2, 'rb').read() if os.path.exists(p2) else None
            n += 1
            if a != b:
                differ.append(os.path.join(os.path.basename(root), f))
            for x in needles:
                if x in a:
                    leaks.append('%s in %s' % (x.decode(), f))
    result(not differ and n > 0, 'same bytes built in two folders',
           '%d files identical' % (n - len(differ)) if not differ else
           '%d of %d differ, e.g. %s' % (len(differ), n, differ[:3]))
    result(not leaks and n > 0, 'no build folder or clone path in the '
           'objects', '; '.join(leaks[:3]))
    shutil.rmtree(other, ignore_errors=True)


PARTS = ['synth', 'generated', 'cli', 'mutants', 'debian', 'matrix', 'fuzz', 'linetab',
         'oracles', 'bigendian']
# Groups: the parts that read the matrix's kernels (tests/run.sh runs them
# after the matrix), and all the others.
KERNEL_PARTS = ['matrix', 'bigendian']
GROUPS = {'kernels': KERNEL_PARTS,
          'tools': [p for p in PARTS if p not in KERNEL_PARTS]}


def main():
    if set(sys.argv[1:]) & {'-h', '--help'}:
        print('usage: hostsuite.py [PART...]; PARTs: %s (default: all); '
              'groups: kernels (%s), tools (the others)' %
              (' '.join(PARTS), ' '.join(KERNEL_PARTS)))
        return 0
    bad = [a for a in sys.argv[1:] if a not in PARTS and a not in GROUPS]
    if bad:
        print('hostsuite: unknown part %s; the parts are: %s' %
              (', '.join(repr(a) for a in bad), ' '.join(PARTS)),
              file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix='lineloc-test-')
    try:
        for f in (LL, LL32, LLBE):
            if not os.path.exists(f):
                print('missing %s: run make hosttool hosttool-i686 hosttool-s390x' % f)
            elif f != LL:
                # scripts/install-deps.sh brings each arch's static zlib
                z = built_with_zlib(f)
                result(z, '%s is built with zlib' % os.path.basename(f),
                       '' if z else 'no zlib: run scripts/install-deps.sh')
        only = [p for a in sys.argv[1:] for p in GROUPS.get(a, [a])] or PARTS
        if 'synth' in only:
            test_synth(work)
        if 'cli' in only:
            test_freestanding(work)
            test_cli(work, part_random('cli'))
        if 'mutants' in only:
            test_mutants(work, mutant_seed())
        if 'generated' in only:
            test_generated(work, part_random('generated'))
            test_bigendian_generated(part_random('generated-s390x'))
        if 'debian' in only:
            test_debian(work, part_random('debian'))
        if 'matrix' in only:
            test_matrix(work, part_random('matrix'))
        if 'fuzz' in only:
            test_fuzz(work)
            test_fuzz_modlines(work)
            test_fuzz_lineloc(work)
        if 'linetab' in only:
            test_linetab(work)
        if 'oracles' in only:
            print('  oracles: random stream part_random(\'oracles\'), seed '
                  '\'lineloc-oracles\'', flush=True)
            test_forms(work)
            test_be_objects(work, part_random('oracles'))
            test_path_rule(work)
            test_damaged_tables(work)
        if 'bigendian' in only:
            test_bigendian(work, part_random('bigendian'))
            test_bigendian_kallsyms(work)
        check_reproducible(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return RESULTS.finish()


if __name__ == '__main__':
    sys.exit(main())
