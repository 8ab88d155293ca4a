# SPDX-License-Identifier: GPL-2.0
"""The bigendian part: lineloc built for a big-endian host (s390x, run
under qemu-s390x-static) prints the same bytes as the native one on the
matrix's kernels and modules and on Debian's vmlinux; and the series'
scripts/kallsyms built for s390x writes what the build wrote.
"""
import os
import shutil
import subprocess

from .common import (MATRIX, TOP, be_compare, be_qemu, debian_tree, result,
                     run, skip)


def test_bigendian(work, rnd):
    """lineloc built for a big-endian host (s390x, run under
    qemu-s390x-static) prints the same bytes as the native one on the
    matrix's kernels and modules (both byte orders of reader and file
    meet) and on Debian's vmlinux."""
    print('== big-endian host (s390x under qemu-s390x-static)', flush=True)
    qemu = be_qemu('big-endian host')
    if not qemu:
        return
    files = []
    build = os.environ.get('BUILD') or 'build'
    for arch, _ in MATRIX:
        d = os.path.join(TOP, build, arch)
        files += [(arch + ' vmlinux', os.path.join(d, 'kernel-on', 'vmlinux')),
                  (arch + ' lltest.ko', os.path.join(d, 'config-on', 'lltest.ko'))]
    root, vm = debian_tree()
    if root:
        files.append(('Debian vmlinux', vm))
    be_compare(qemu, files, rnd)


# scripts/link-vmlinux.sh's kallsyms(): the option each config symbol adds
KALLSYMS_OPTS = [('CONFIG_KALLSYMS_ALL', '--all-symbols'),
                 ('CONFIG_KALLSYMS_ABSOLUTE_PERCPU', '--absolute-percpu'),
                 ('CONFIG_KALLSYMS_BASE_RELATIVE', '--base-relative'),
                 ('CONFIG_LTO_CLANG', '--lto-clang')]


def test_bigendian_kallsyms(work):
    """The kernel's other table writer on a big-endian host: the series'
    scripts/kallsyms, built for s390x, run under qemu on each matrix
    kernel's saved input (.tmp_vmlinux.kallsyms1.syms and ...2.syms, the
    link's symbol map) with that kernel's options, writes exactly the .S
    the 64-bit build wrote; the same binary built for this host does too,
    so the recipe is the build's own.  (lineloc, the line-table writer,
    is compared with --kernel-table above.)"""
    qemu = shutil.which('qemu-s390x-static')
    build = os.path.realpath(os.environ.get('BUILD') or 'build')
    src = os.path.join(build, 'src', 'linux', 'scripts', 'kallsyms.c')
    if not qemu or not shutil.which('s390x-linux-gnu-gcc') or not os.path.exists(src):
        skip('s390x scripts/kallsyms', 'no qemu-s390x-static, s390x-linux-gnu-gcc or ' + src)
        return
    bins = {}
    for name, cc in (('native', 'gcc'), ('s390x', 's390x-linux-gnu-gcc')):
        bins[name] = os.path.join(work, 'kallsyms-' + name)
        rc, out, err = run([cc, '-O2', '-static', '-o', bins[name], src])
        if rc:
            return result(False, 'build scripts/kallsyms for ' + name, err[-300:])
    for arch, _ in MATRIX:
        d = os.path.join(build, arch)
        cfg = os.path.join(d, '.config')
        steps = [n for n in (1, 2, 3) if os.path.exists(
            os.path.join(d, '.tmp_vmlinux.kallsyms%d.syms' % n))]
        if not os.path.exists(cfg) or not steps:
            skip('s390x scripts/kallsyms: ' + arch, 'no kallsyms inputs in ' + d)
            continue
        conf = set(open(cfg).read().split('\n'))
        opts = [o for c, o in KALLSYMS_OPTS if c + '=y' in conf]
        for n in steps:
            base = os.path.join(d, '.tmp_vmlinux.kallsyms%d' % n)
            want = open(base + '.S', 'rb').read()
            got = {k: subprocess.run(([qemu] if k == 's390x' else []) +
                                     [b] + opts + [base + '.syms'],
                                     capture_output=True).stdout
                   for k, b in bins.items()}
            result(got['native'] == want and got['s390x'] == want,
                   's390x scripts/kallsyms == the build\'s: %s pass %d (%s)' %
                   (arch, n, ' '.join(opts) or 'no options'),
                   '%d bytes identical' % len(want) if got['s390x'] == want else
                   'native %s, s390x %s the build\'s %d bytes' % (
                       'matches' if got['native'] == want else 'differs from',
                       'matches' if got['s390x'] == want else 'differs from',
                       len(want)))
