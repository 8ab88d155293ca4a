#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a built kernel in QEMU with the matrix's initramfs, and write the
cell record of the boot.

The initramfs holds our static init (qemu/init/init.c, built with the
arch's compiler), the plan it runs (qemu/plans/) and the test module.  The
QEMU command comes from the arch facts (arch-configs/), is printed
shell-quoted with V=1 and saved as qemu.cmd, which replays the boot
exactly.  QEMU is killed after the arch's TIMEOUT.  The record (cell.json,
matrix/cell.py's schema) says what was booted and how QEMU ended; the judge
(matrix/judge.py) reads it and the console log, nothing else.

Alone, on a kernel the matrix built:
  qemu/boot.py --arch x86_64 --kernel-dir build/x86_64/variant-on --out-dir /tmp/boot
(or make ARCH=x86_64 boot).  Exit status: 0 when QEMU ran (whatever the
boot did: the judge decides), 1 when the boot could not be set up.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, 'matrix'))
import cell  # noqa: E402
from plan import Plan, PlanError  # noqa: E402


def fail(msg):
    print('boot.py: %s' % msg, file=sys.stderr)
    sys.exit(1)


def initramfs(facts, a, kdir, out):
    """Build the init and the initramfs; return the cpio's path."""
    init = os.path.join(a.obj, 'lltest-init')
    cc = cell.tool(facts, 'gcc')
    log = os.path.join(out, 'init.log')
    with open(log, 'w') as f:
        if subprocess.run([cc, '-static', '-Os', '-Wall', '-Wextra', '-Werror', '-std=gnu11',
                           '-o', init, os.path.join(HERE, 'init', 'init.c')],
                          stdout=f, stderr=f).returncode:
            fail('init build failed (see %s)' % log)
    lst = os.path.join(kdir, 'initramfs.list')
    files = [('init', init, '0755'), ('plan', a.plan, '0644')]
    if a.module:
        files.append(('lltest.ko', a.module, '0644'))
        # its companions built beside it (lltest_race.ko), at / too
        mdir = os.path.dirname(a.module)
        files += [(x, os.path.join(mdir, x), '0644') for x in sorted(os.listdir(mdir))
                  if x.endswith('.ko') and x != 'lltest.ko' and
                  os.path.join(mdir, x) != os.path.realpath(a.module)]
    # the module's load-time variants (qemu/variants.py), in /m
    if a.variants:
        vdir = os.path.dirname(a.variants)
        files += [('m/' + x, os.path.join(vdir, x), '0644')
                  for x in sorted(os.listdir(vdir)) if x.endswith('.ko')]
        ddir = os.path.join(vdir, 'dwarf')
        if os.path.isdir(ddir):
            files += [('v/' + x, os.path.join(ddir, x), '0644')
                      for x in sorted(os.listdir(ddir)) if x.endswith('.ko')]
    with open(lst, 'w') as f:
        f.write('dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n'
                'dir /proc 0755 0 0\ndir /sys 0755 0 0\ndir /m 0755 0 0\n'
                'dir /v 0755 0 0\n')
        for name, path, mode in files:
            f.write('file /%s %s %s 0 0\n' % (name, path, mode))
    cpio = os.path.join(kdir, 'initramfs.cpio')
    gen = os.path.join(a.obj, 'usr', 'gen_init_cpio')
    with open(cpio, 'wb') as f:
        if not os.access(gen, os.X_OK) or subprocess.run([gen, lst], stdout=f).returncode:
            fail('gen_init_cpio failed (%s)' % gen)
    return cpio


def qemu_argv(facts, image, cpio, console):
    return ([facts['QEMU'], '-M', facts['QEMU_MACHINE']] +
            (['-cpu', facts['QEMU_CPU']] if facts['QEMU_CPU'] else []) +
            ['-m', facts['MEMORY'], '-smp', facts['SMP'] or '1',
             '-display', 'none', '-monitor', 'none', '-serial', 'file:' + console,
             '-net', 'none', '-no-reboot', '-kernel', image, '-initrd', cpio,
             '-append', ('console=%s %s %s' % (facts['CONSOLE'], facts['APPEND'],
                                              os.environ.get('APPEND', ''))).strip()])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--arch', required=True)
    ap.add_argument('--config', default='on', help='the configuration booted (default: on)')
    ap.add_argument('--kernel-dir', required=True,
                    help='holds image and vmlinux (the matrix: $BUILD/ARCH/variant-CONFIG)')
    ap.add_argument('--obj', help='the kernel build folder (default: the parent of --kernel-dir)')
    ap.add_argument('--src', help='the kernel tree (default: $BUILD/src/linux)')
    ap.add_argument('--plan', default=os.path.join(HERE, 'plans', 'lltest.plan'))
    ap.add_argument('--module', help='the test module (default: KERNEL_DIR/lltest.ko if present)')
    ap.add_argument('--out-dir', required=True, help='where console.log, qemu.cmd and cell.json go')
    a = ap.parse_args()
    try:
        facts = cell.load_arch(a.arch, a.config)
    except cell.FactsError as e:
        fail(str(e))
    try:
        Plan(a.plan)
    except (OSError, PlanError) as e:
        fail('the plan: %s' % e)
    kdir = os.path.realpath(a.kernel_dir)
    a.obj = os.path.realpath(a.obj or os.path.dirname(kdir))
    build = os.path.realpath(os.environ.get('BUILD', os.path.join(TOP, 'build')))
    src = a.src or os.path.join(build, 'src', 'linux')
    if a.module is None and os.path.exists(os.path.join(kdir, 'lltest.ko')):
        a.module = os.path.join(kdir, 'lltest.ko')
    a.variants = os.path.join(os.path.dirname(a.module), 'variants', 'variants.json') \
        if a.module else ''
    if a.variants and not os.path.exists(a.variants):
        a.variants = ''
    image, vmlinux = os.path.join(kdir, 'image'), os.path.join(kdir, 'vmlinux')
    if not os.path.exists(image):
        fail('no kernel image %s' % image)
    out = os.path.realpath(a.out_dir)
    os.makedirs(out, exist_ok=True)
    console = os.path.join(out, 'console.log')
    for f in (console, os.path.join(out, 'cell.json'), os.path.join(out, 'result.json')):
        if os.path.exists(f):
            os.unlink(f)

    cpio = initramfs(facts, a, kdir, out)
    argv = qemu_argv(facts, image, cpio, console)
    cmd = shlex.join(argv)
    with open(os.path.join(out, 'qemu.cmd'), 'w') as f:
        f.write(cmd + '\n')
    if os.environ.get('V') == '1':
        print('+ ' + cmd, file=sys.stderr)
    timeout = int(facts['TIMEOUT'])
    rec = {'arch': a.arch, 'config': a.config, 'facts': facts, 'console': console,
           'image': image, 'vmlinux': vmlinux if os.path.exists(vmlinux) else '',
           'module': a.module or '', 'variants': a.variants, 'plan': cell.project_path(a.plan), 'src': src,
           'obj': a.obj, 'strip': [src + '/', os.path.realpath(src) + '/', a.obj + '/'],
           'cross_compile': facts['CROSS_COMPILE'], 'qemu_cmd': cmd, 'timeout': timeout,
           'qemu_rc': -1, 'timed_out': False, 'missing': '', 'seconds': 0}
    if shutil.which(facts['QEMU']) is None:
        rec['missing'] = facts['QEMU']
        print('[%s] %s not found' % (a.arch, facts['QEMU']))
    else:
        print('[%s] %s: booting in %s (timeout %ds)' % (a.arch, a.config, facts['QEMU'], timeout),
              flush=True)
        t0 = time.monotonic()
        with open(os.path.join(out, 'qemu.out'), 'wb') as qout:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=qout, stderr=qout)
            try:
                rec['qemu_rc'] = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                rec['timed_out'] = True
        rec['seconds'] = int(time.monotonic() - t0)
        print('[%s] %s: QEMU %s after %d s' % (
            a.arch, a.config, 'timed out' if rec['timed_out'] else 'exited %d' % rec['qemu_rc'],
            rec['seconds']), flush=True)
    if not os.path.exists(console):
        open(console, 'w').close()
    cell.write_record(os.path.join(out, 'cell.json'), rec)
    return 0


if __name__ == '__main__':
    sys.exit(main())
