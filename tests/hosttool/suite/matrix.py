# SPDX-License-Identifier: GPL-2.0
"""The matrix part: the matrix's kernels (build/<arch>/), once they exist:
each vmlinux against llvm-symbolizer and the cross addr2line, every row
against llvm-dwarfdump, kernel paths, lineloc-i686; the test module
lltest.ko and its builds with each line-table version, per section.
"""
import os

from .inlines import check_chains
from .common import (MATRIX, QUICK, TOP, check_dwarfdump, check_kernel_paths,
                     check_outside_cu, check_rel, compare, explain_a2l,
                     lineloc_e, parse_rows, result, rows, same32, skip, stats,
                     text_sample)
# matrix/oracles.py, on sys.path since .common was imported
from oracles import oracle_a2l, oracle_llvm


def test_matrix(work, rnd):
    print('== matrix kernels', flush=True)
    build = os.environ.get('BUILD') or 'build'   # the top Makefile's BUILD=
    for arch, pre in MATRIX:
        vm = os.path.join(TOP, build, arch, 'vmlinux')
        if not os.path.exists(vm):
            skip('matrix %s' % arch, 'no %s/%s/vmlinux' % (build, arch))
            continue
        st = stats(vm)
        result(st is not None, 'matrix %s --stats' % arch,
               st and 'versions %s rows %s' % (st.get('versions'),
                                               st.get('rows')))
        addrs = text_sample(vm, 500 if QUICK else 3000, rnd)
        ours, _ = lineloc_e(vm, addrs)
        orc = {'llvm': oracle_llvm(vm, addrs),
               'addr2line': oracle_a2l(pre + 'addr2line', vm, addrs)}
        orc = {k: v for k, v in orc.items() if v is not None}
        ag, diffs = compare('matrix %s vmlinux vs oracles' % arch, vm,
                            addrs, orc, ours, show=3, need='llvm')
        check_outside_cu('matrix %s vmlinux' % arch, vm, addrs,
                         orc.get('llvm'), need=False)
        check_kernel_paths('matrix %s vmlinux' % arch, vm, addrs)
        explain_a2l(diffs)
        # chains of inlined calls, from .debug_info and through the
        # tables the kernel would hold with them
        check_chains('matrix %s vmlinux: chains of inlined calls vs '
                     'llvm-symbolizer' % arch, vm, addrs)
        check_chains('matrix %s vmlinux: chains through the tables '
                     '(--via-table -i) vs llvm-symbolizer' % arch, vm, addrs,
                     extra=('--via-table',))
        check_dwarfdump('matrix %s vmlinux' % arch, vm)
        same32('matrix %s i686 == x86_64' % arch, ['--rows', vm])
        # the test module, and its builds with each line-table version
        # (not the corrupted variants: their errors are the matrix's test)
        kos = [os.path.join(TOP, build, arch, 'lltest', 'lltest.ko')]
        ddir = os.path.join(TOP, build, arch, 'config-on', 'variants', 'dwarf')
        if os.path.isdir(ddir):
            kos += [os.path.join(ddir, x) for x in sorted(os.listdir(ddir))]
        for m in [k for k in kos if os.path.exists(k)]:
            text, err = rows(m)
            if text is None:
                result(False, 'matrix %s %s' % (arch, m), err.strip())
                continue
            check_rel('matrix %s %s' % (arch, os.path.basename(m)), m,
                      parse_rows(text), pre + 'addr2line', rnd, n_random=60)
            same32('matrix %s %s i686' % (arch, os.path.basename(m)),
                   ['--rows', m])
