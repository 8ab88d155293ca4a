#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-hosttool: lineloc against readelf, llvm-dwarfdump,
llvm-symbolizer and addr2line on Debian's cloud-amd64 vmlinux.
Median wall time of repeated runs and peak RSS; not a pass/fail test."""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import common  # noqa: E402

REPEAT = int(os.environ.get('BENCH_REPEAT', '5'))


def measure(cmd, inp=None, repeat=REPEAT):
    """Median wall seconds and max peak RSS (MiB) over @repeat runs."""
    times, rss = [], 0
    for _ in range(repeat):
        stdin = open(inp, 'rb') if inp else subprocess.DEVNULL
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        times.append(time.monotonic() - t0)
        rss = max(rss, ru.ru_maxrss / 1024.0)
        if inp:
            stdin.close()
        if status:
            return None, rss
    return statistics.median(times), rss


def main():
    root, vm = common.debian_tree()
    if not root:
        print('bench: no Debian vmlinux: %s' % vm)
        return 1
    ll = common.LL
    # under qemu-i386-static where this kernel runs no i386 programs: the
    # figure is then the emulator's, and its name says so
    ll32 = common.ll32() if os.path.exists(common.LL32) else [common.LL32]
    i686 = 'lineloc-i686' + (' (qemu)' if len(ll32) > 1 else '')
    st = common.stats(vm)
    print('input: %s' % vm)
    print('  .debug_line %s bytes, %s rows, %s units, DWARF %s' %
          (st['bytes'], st['rows'], st['units'], st['versions']))
    print('decode and print every row (median of %d, output to /dev/null):' %
          REPEAT)
    res = {}
    for name, cmd in (
            ('lineloc --rows', [ll, '--rows', vm]),
            ('lineloc --all-rows --rows', [ll, '--all-rows', '--rows', vm]),
            (i686 + ' --rows', ll32 + ['--rows', vm]),
            ('readelf --debug-dump=decodedline',
             ['readelf', '--debug-dump=decodedline', vm]),
            ('llvm-dwarfdump --debug-line', ['llvm-dwarfdump', '--debug-line',
                                             vm])):
        if not os.path.exists(cmd[0]) and '/' in cmd[0]:
            continue
        t, rss = measure(cmd)
        res[name] = t
        print('  %-36s %8.3f s  peak RSS %7.1f MiB' % (name, t or -1, rss))
    base = res['lineloc --rows']
    for name in ('readelf --debug-dump=decodedline',
                 'llvm-dwarfdump --debug-line'):
        if res.get(name):
            print('  lineloc is %.1fx faster than %s' % (res[name] / base,
                                                         name.split()[0]))

    rnd = random.Random(4)
    addrs = common.text_sample(vm, 20000, rnd)
    inp = os.path.join(tempfile.gettempdir(), 'lineloc-bench-addrs')
    with open(inp, 'w') as f:
        f.write(''.join('0x%x\n' % a for a in addrs))
    print('look up the same 20,000 random .text addresses from stdin '
          '(median of 3, start-up included):')
    res = {}
    for name, cmd in (
            ('lineloc -e', [ll, '-e', vm]),
            ('lineloc --all-rows -e', [ll, '--all-rows', '-e', vm]),
            (i686 + ' -e', ll32 + ['-e', vm]),
            ('llvm-symbolizer', ['llvm-symbolizer', '--obj=' + vm,
                                 '--output-style=GNU', '--no-inlines',
                                 '--functions=none']),
            ('addr2line', ['addr2line', '-e', vm])):
        t, rss = measure(cmd, inp, repeat=3)
        res[name] = t
        print('  %-24s %8.3f s  %9.0f addresses/s  peak RSS %7.1f MiB' %
              (name, t, 20000 / t, rss))
    for name in ('llvm-symbolizer', 'addr2line'):
        print('  lineloc -e is %.1fx faster than %s' %
              (res[name] / res['lineloc -e'], name))
    os.unlink(inp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
