# SPDX-License-Identifier: GPL-2.0
"""The fuzz part: dwarf_line.c, the module loader's path (modlines.c,
dwarf_reloc.c) and lineloc's ELF reader and everything after it under
libFuzzer with ASan and UBSan, deterministic runs from fixed seeds
(HT_FUZZ_SECONDS=N makes dwarf_line.c's a timed run); then each target's
runs repeated must end the same.
"""
import os
import re
import shutil
import subprocess
import time

from .common import QUICK, TOP, result, skip


FUZZ_SECONDS = os.environ.get('HT_FUZZ_SECONDS')  # set: a timed run instead


def fuzz_runs(env, prefix, quick, full):
    """PREFIX_RUNS (@quick with HT_QUICK=1, else @full) and PREFIX_SEED (1)
    in @env unless set; what the run is, for its check's name."""
    env.setdefault(prefix + '_RUNS', str(quick if QUICK else full))
    env.setdefault(prefix + '_SEED', '1')
    return '%s runs, seed %s' % (env[prefix + '_RUNS'], env[prefix + '_SEED'])


def test_fuzz(work):
    """dwarf_line.c under libFuzzer with ASan and UBSan.  By default a
    deterministic run (fixed run count and seed, the same inputs
    everywhere); HT_FUZZ_SECONDS=N makes it a timed run instead."""
    if not shutil.which('clang-14'):
        skip('fuzz', 'no clang-14')
        return
    cmd = [os.path.join(TOP, 'tests', 'hosttool', 'fuzz.sh')]
    env = dict(os.environ)
    if FUZZ_SECONDS:
        cmd.append(str(int(FUZZ_SECONDS)))
        what = 'timed run of %ss' % FUZZ_SECONDS
    else:
        what = fuzz_runs(env, 'HT_FUZZ', 300000, 2000000)
    print('== fuzz dwarf_line.c: %s' % what, flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env)
    out = p.stdout.decode('utf-8', 'replace')
    m = re.search(r'stat::number_of_executed_units: (\d+)', out)
    fin = re.search(r'DONE +(cov: \d+ ft: \d+ corp: \S+)', out)
    result(p.returncode == 0 and m, 'fuzz (%s), no crash' % what,
           '%s inputs%s' % (m.group(1) if m else '?',
                            ', final ' + fin.group(1) if fin else '')
           if p.returncode == 0 else out[-800:])


def test_fuzz_modlines(work):
    """The module loader's path (dwarf_reloc.c, modlines.c, dwarf_line.c,
    linetab_enc.c, linetab_dec.c) under libFuzzer with ASan and UBSan:
    HT_ML_FUZZ_RUNS runs (default 200,000; 50,000 with HT_QUICK=1) from
    seed HT_ML_FUZZ_SEED (1), starting from hosttool/fuzz/corpus_modlines/
    (make_modlines_corpus.py).  Deterministic: the same inputs every run."""
    if not shutil.which('clang-14'):
        skip('fuzz modlines.c', 'no clang-14')
        return
    env = dict(os.environ)
    what = fuzz_runs(env, 'HT_ML_FUZZ', 50000, 200000)
    print('== fuzz modlines.c + dwarf_reloc.c: %s' % what, flush=True)
    t0 = time.time()
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                        'fuzz-modlines-runs'], cwd=TOP, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    m = re.search(r'stat::number_of_executed_units: (\d+)', out)
    fin = re.search(r'DONE +(cov: \d+ ft: \d+ corp: \S+)', out)
    crash = re.search(r'(==\d+==ERROR: .*|SUMMARY: .*|Test unit written to .*)',
                      out)
    result(p.returncode == 0 and m and not crash,
           'fuzz modlines.c (%s), no crash' % what,
           '%s inputs%s in %.0f s' % (m.group(1) if m else '?',
                                      ', final ' + fin.group(1) if fin else '',
                                      time.time() - t0)
           if p.returncode == 0 and not crash else out[-1500:])


def test_fuzz_lineloc(work):
    """lineloc's ELF reader and everything after it (fuzz_lineloc.c: the
    program's sources in one unit, exit() jumping back, allocations and
    static data reset per input) under libFuzzer with ASan and UBSan:
    HT_LL_FUZZ_RUNS runs (default 100,000; 20,000 with HT_QUICK=1) from
    seed 1, starting from hosttool/fuzz/corpus_lineloc/
    (make_lineloc_corpus.sh).  Deterministic: the same inputs every run."""
    if not shutil.which('clang-14'):
        skip('fuzz lineloc', 'no clang-14')
        return
    runs = os.environ.get('HT_LL_FUZZ_RUNS', '20000' if QUICK else '100000')
    t0 = time.time()
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                        'hosttool/fuzz/fuzz_lineloc'], cwd=TOP,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        result(False, 'fuzz lineloc: build', p.stdout.decode('utf-8', 'replace')[-800:])
        return
    env = dict(os.environ)
    env['FUZZ_SEED'] = '1'
    p = subprocess.run([os.path.join(TOP, 'hosttool', 'fuzz', 'run.sh'),
                        '--runs', runs, 'lineloc'], cwd=TOP, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    line = [l for l in out.splitlines() if l.startswith('fuzz lineloc:')]
    result(p.returncode == 0 and line and 'no finding' in line[-1],
           'fuzz lineloc.c + elfread.c (%s runs, seed 1), no finding' % runs,
           '%s in %.0f s' % (line[-1][len('fuzz lineloc: '):], time.time() - t0)
           if p.returncode == 0 and line else out[-1500:])
    # the last of the fuzz part: every target's runs are the same runs
    test_fuzz_repeat(work)


def test_fuzz_repeat(work):
    """The deterministic runs (hosttool/fuzz/run.sh --runs, seed 1) are the
    same inputs every time: each target three times, HT_FUZZ_REPEAT_RUNS
    runs (default 10,000), with environments of different sizes (so the
    stack's alignment differs, as ASLR's layout does), must end with the
    same coverage, features and corpus.  A feature that follows addresses
    (libFuzzer's stack depth under ASan, comparison operands) breaks that,
    though not in every run: three runs catch a stack-depth build more
    often than two."""
    runs = os.environ.get('HT_FUZZ_REPEAT_RUNS', '10000')
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                        'fuzz-targets'], cwd=TOP,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        result(False, 'fuzz targets: build',
               p.stdout.decode('utf-8', 'replace')[-800:])
        return
    targets = ['dwarf_line', 'linetab', 'modlines', 'lineloc']
    ends = []
    for pad in ('', 'x' * 4000, 'x' * 4030):
        env = dict(os.environ, FUZZ_SEED='1', LINELOC_FUZZ_PAD=pad)
        p = subprocess.run([os.path.join(TOP, 'hosttool', 'fuzz', 'run.sh'),
                            '--runs', runs] + targets, cwd=TOP, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode('utf-8', 'replace')
        ends.append((p.returncode, {
            m.group(1): m.group(2) for m in re.finditer(
                r'^fuzz (\w+): seed 1: (.*)$', out, re.M)}, out))
    for t in targets:
        got = [e[1].get(t) for e in ends]
        result(all(e[0] == 0 for e in ends) and got[0] and
               len(set(got)) == 1,
               'fuzz %s: %s runs of seed 1 three times, the same end' %
               (t, runs), ' | '.join(str(g) for g in got) if all(got)
               else ''.join(e[2] for e in ends)[-800:])
