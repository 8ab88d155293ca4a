#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot what a build record names in QEMU, and write the boot record.

  qemu/boot.py --build RESULTS/ARCH/CONFIG/build.json --out-dir DIR
  qemu/boot.py --arch ARCH [--config CONFIG] --kernel-dir KDIR --out-dir DIR
               [--obj OBJ] [--src SRC] [--plan PLAN] [--module KO]

The first form is the matrix's boot stage: the image and the initramfs
(the static init qemu/init/init.c, the plan, the test module and its
variants) are matrix/build.sh's, named by its build.json.  The second
boots a kernel it is given (KDIR holds image and vmlinux; the matrix's are
in $BUILD/ARCH/kernel-LINES): it makes the init and the initramfs itself
(matrix/build_record.py, no build checks) into DIR/build.json first.

The QEMU command comes from the arch facts (arch-configs/), is printed
shell-quoted with V=1 and saved as DIR/qemu.cmd, which replays the boot
exactly.  QEMU is killed after the arch's TIMEOUT.  The record
(DIR/boot.json, matrix/records.py's Boot) names its build record and says
how QEMU ended; the judge (matrix/judge.py) reads the records and the
console log, nothing else.  Exit status: 0 when QEMU ran (whatever the
boot did: the judge decides), 1 when the boot could not be set up (the
record says why).
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
import records  # noqa: E402
from plan import Plan, PlanError  # noqa: E402


def qemu_argv(facts, image, cpio, console):
    return ([facts['QEMU'], '-M', facts['QEMU_MACHINE']] +
            (['-cpu', facts['QEMU_CPU']] if facts['QEMU_CPU'] else []) +
            ['-m', facts['MEMORY'], '-smp', facts['SMP'] or '1',
             '-display', 'none', '-monitor', 'none', '-serial', 'file:' + console,
             '-net', 'none', '-no-reboot', '-kernel', image, '-initrd', cpio,
             '-append', ('console=%s %s %s' % (facts['CONSOLE'], facts['APPEND'],
                                              os.environ.get('APPEND', ''))).strip()])


def given_kernel(a, out):
    """The build record of a kernel given by --kernel-dir: the init and
    the initramfs made for it, no build checks."""
    kdir = os.path.realpath(a.kernel_dir)
    obj = os.path.realpath(a.obj or os.path.dirname(kdir))
    build = os.path.realpath(os.environ.get('BUILD', os.path.join(TOP, 'build')))
    src = a.src or os.path.join(build, 'src', 'linux')
    if a.module is None and os.path.exists(os.path.join(kdir, 'lltest.ko')):
        a.module = os.path.join(kdir, 'lltest.ko')
    path = os.path.join(out, 'build.json')
    argv = [sys.executable, os.path.join(TOP, 'matrix', 'build_record.py'), '--arch', a.arch,
            '--config', a.config, '--obj', obj, '--kernel-dir', kdir, '--src', src,
            '--dir', os.path.join(out, 'initramfs'), '--out', path, '--plan', a.plan,
            '--module', a.module or '', '--no-checks']
    if subprocess.run(argv).returncode:
        sys.exit('boot.py: no build record for %s' % kdir)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', help='the build record (matrix/build.sh\'s build.json)')
    ap.add_argument('--arch')
    ap.add_argument('--config', default='on', help='the configuration booted (default: on)')
    ap.add_argument('--kernel-dir', help='a kernel to boot: holds image and vmlinux')
    ap.add_argument('--obj', help='its build folder (default: the parent of --kernel-dir)')
    ap.add_argument('--src', help='the kernel tree (default: $BUILD/src/linux)')
    ap.add_argument('--plan', default=os.path.join(HERE, 'plans', 'lltest.plan'))
    ap.add_argument('--module', help='the test module (default: KERNEL_DIR/lltest.ko if present)')
    ap.add_argument('--out-dir', required=True, help='where console.log, qemu.cmd and boot.json go')
    a = ap.parse_args()
    if bool(a.build) == bool(a.kernel_dir) or (a.kernel_dir and not a.arch):
        ap.error('either --build, or --arch and --kernel-dir')
    out = os.path.realpath(a.out_dir)
    os.makedirs(out, exist_ok=True)
    console = os.path.join(out, 'console.log')
    for f in (console, os.path.join(out, 'boot.json'), os.path.join(out, 'result.json')):
        if os.path.exists(f):
            os.unlink(f)
    path = os.path.realpath(a.build) if a.build else given_kernel(a, out)
    build = records.read(records.Build, path)
    facts = cell.load_arch(build.arch, build.config)
    rec = records.Boot(arch=build.arch, config=build.config, facts=facts, console=console,
                       build=path, plan=build.plan, timeout=int(facts['TIMEOUT']))

    def setup_error(msg):
        print('boot.py: %s' % msg, file=sys.stderr)
        rec.setup_error = msg
        open(console, 'a').close()
        records.write(os.path.join(out, 'boot.json'), rec)
        return 1
    if not build.ok:
        return setup_error('the build failed (%s): %s' % (build.stage, build.reason))
    try:
        Plan(records.resolve_path(build.plan, TOP))
    except (OSError, PlanError) as e:
        return setup_error('the plan: %s' % e)
    for what, p in (('kernel image', build.image), ('initramfs', build.initramfs)):
        if not p or not os.path.exists(p):
            return setup_error('no %s (%s)' % (what, p or 'not in %s' % path))
    argv = qemu_argv(facts, build.image, build.initramfs, console)
    rec.qemu_cmd = shlex.join(argv)
    with open(os.path.join(out, 'qemu.cmd'), 'w') as f:
        f.write(rec.qemu_cmd + '\n')
    if os.environ.get('V') == '1':
        print('+ ' + rec.qemu_cmd, file=sys.stderr)
    if shutil.which(facts['QEMU']) is None:
        rec.missing = facts['QEMU']
        print('[%s] %s not found' % (build.arch, facts['QEMU']))
    else:
        print('[%s] %s: booting in %s (timeout %ds)' % (build.arch, build.config, facts['QEMU'],
                                                       rec.timeout), flush=True)
        t0 = time.monotonic()
        with open(os.path.join(out, 'qemu.out'), 'wb') as qout:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=qout, stderr=qout)
            try:
                rec.qemu_rc = p.wait(timeout=rec.timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                rec.timed_out = True
        rec.seconds = int(time.monotonic() - t0)
        print('[%s] %s: QEMU %s after %d s' % (
            build.arch, build.config,
            'timed out' if rec.timed_out else 'exited %d' % rec.qemu_rc, rec.seconds),
            flush=True)
    if not os.path.exists(console):
        open(console, 'w').close()
    records.write(os.path.join(out, 'boot.json'), rec)
    return 0


if __name__ == '__main__':
    sys.exit(main())
