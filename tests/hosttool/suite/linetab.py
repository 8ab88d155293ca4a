# SPDX-License-Identifier: GPL-2.0
"""The linetab part: the compact line table alone
(tests/hosttool/linetab.sh), then its decoder under libFuzzer with ASan
and UBSan.
"""
import os
import re
import shutil
import subprocess

from .common import TOP, result, skip


def test_linetab(work):
    """The compact line table alone (tests/hosttool/linetab.sh: a fixed
    generated row set at several block sizes, and Debian's rows, from
    scripts/debian-dbg.sh), then its decoder under libFuzzer with ASan
    and UBSan: HT_LT_FUZZ_RUNS runs (default 20,000 here) from seed 1."""
    print('== linetab', flush=True)
    p = subprocess.run([os.path.join(TOP, 'tests', 'hosttool', 'linetab.sh')],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    checks = [l for l in out.splitlines() if 'table-check' in l]
    result(p.returncode == 0, 'linetab.sh: tables of a generated row set and of '
           'Debian\'s rows agree with the rows',
           checks[-1].strip() if checks and p.returncode == 0 else out[-800:])
    if not shutil.which('clang-14'):
        skip('fuzz linetab_dec.c', 'no clang-14')
        return
    env = dict(os.environ)
    env.setdefault('HT_LT_FUZZ_RUNS', '20000')
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk', 'fuzz-linetab'],
                       cwd=TOP, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    m = re.search(r'stat::number_of_executed_units: (\d+)', out)
    result(p.returncode == 0 and m, 'fuzz linetab_dec.c (%s runs, seed 1), no crash'
           % env['HT_LT_FUZZ_RUNS'], '%s inputs' % m.group(1) if m else out[-800:])
