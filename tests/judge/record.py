#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Record the judge's self-test logs from a matrix run:

  tests/judge/record.py [ARCH...]

copies each arch's console of its boot with the option off
($BUILD/results/ARCH/off/console.log, default BUILD=build) to
tests/judge/logs/ARCH.console.log, less its /proc/kallsyms listing and its
textlocs lines (lltest: at ...), which need a vmlinux to judge.  Run it
after a green matrix whose plan changed."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
INIT = 'lltest-init: '


def main():
    build = os.environ.get('BUILD') or os.path.join(TOP, 'build')
    for arch in sys.argv[1:] or ['x86_64', 'i386', 'arm', 'arm64']:
        src = os.path.join(build, 'results', arch, 'off', 'console.log')
        out, inside = [], False
        for l in open(src, errors='replace').read().split('\n'):
            if l == INIT + 'end /proc/kallsyms':
                inside = False
            if inside or ' lltest: at ' in l or l.startswith('lltest: at '):
                continue
            out.append(l)
            if l == INIT + 'begin /proc/kallsyms':
                inside = True
        with open(os.path.join(HERE, 'logs', arch + '.console.log'), 'w') as f:
            f.write('\n'.join(out))
        print('record: %s: %d lines from %s' % (arch, len(out), src))
    return 0


if __name__ == '__main__':
    sys.exit(main())
