#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The last step of the build stage (matrix/build.sh): the init and the
initramfs of a configuration, the build checks, and build.json.

  build_record.py --arch ARCH --config CONFIG --obj OBJ --kernel-dir KDIR
                  --src SRC --dir CFGDIR --out BUILD_JSON --plan PLAN
                  [--module KO] [--variants MANIFEST] [--dwarf KO...]
                  [--failed STAGE --reason TEXT] [--seconds N] [--log LOG...]
                  [--no-checks]

With --failed, only the record of a build that stopped at STAGE (kernel,
module, variants) is written: what was built before, the reason.  Else the
init (qemu/init/init.c, the arch's gcc, static) and the initramfs (init,
plan, the test module and its companions at /, the variants in /m, the
DWARF flavours in /v) are made in CFGDIR, then the build checks run on
what was built:

- with CONFIG_KALLSYMS_LINE_LOCATIONS=y (read from the .config): the table
  linked into vmlinux is the one the kernel's own scripts/lineloc builds
  from vmlinux again, and the project's lineloc --table-check agrees with
  it (every row start, start - 1, every end); its size is a figure;
- and for the kernel as configured for use (no KCONFIG fragment): the
  stack of the line lookup (matrix/stack_usage.py);
- figures: size(1) of vmlinux, the image's bytes, the bytes of the
  .debug_line of the variants' lltest-min.ko.

Each log starts with the command that reproduces it.  Exit status 0 when
the record was written (a failed build or check is in it), 1 when it
could not be.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
import cell  # noqa: E402
import records  # noqa: E402
import stack_usage  # noqa: E402
from records import Check  # noqa: E402

LINES_OPTION = 'CONFIG_KALLSYMS_LINE_LOCATIONS'
# the chains of inlined calls in vmlinux's table, with LINES_OPTION
INLINES_OPTION = 'CONFIG_KALLSYMS_LINE_INLINES'


def logged(log, argv, **kw):
    """Run @argv with its output in @log, whose first line is the command
    line (shell-quoted) that reproduces it; the exit status."""
    with open(log, 'w') as f:
        f.write(shlex.join(argv) + '\n')
        f.flush()
        return subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, **kw).returncode


class BuildError(Exception):
    pass


def make_init(facts, out_dir, log):
    init = os.path.join(out_dir, 'init')
    argv = [cell.tool(facts, 'gcc'), '-static', '-Os', '-Wall', '-Wextra', '-Werror',
            '-std=gnu11', '-o', init, os.path.join(TOP, 'qemu', 'init', 'init.c')]
    if logged(log, argv):
        raise BuildError('init build failed (see %s)' % log)
    return init


def make_initramfs(obj, out_dir, init, plan, module='', companions=(), variants='', dwarf=()):
    """The cpio of the init, the plan and the modules; its path."""
    files = [('init', init, '0755'), ('plan', plan, '0644')]
    if module:
        files.append(('lltest.ko', module, '0644'))
        files += [(os.path.basename(x), x, '0644') for x in companions]
    if variants:
        vdir = os.path.dirname(variants)
        files += [('m/' + x, os.path.join(vdir, x), '0644')
                  for x in sorted(os.listdir(vdir)) if x.endswith('.ko')]
    files += [('v/' + os.path.basename(x), x, '0644') for x in dwarf]
    lst = os.path.join(out_dir, 'initramfs.list')
    with open(lst, 'w') as f:
        f.write('dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n'
                'dir /proc 0755 0 0\ndir /sys 0755 0 0\ndir /m 0755 0 0\n'
                'dir /v 0755 0 0\n')
        for name, path, mode in files:
            f.write('file /%s %s %s 0 0\n' % (name, path, mode))
    cpio = os.path.join(out_dir, 'initramfs.cpio')
    gen = os.path.join(obj, 'usr', 'gen_init_cpio')
    with open(cpio, 'wb') as f:
        if not os.access(gen, os.X_OK) or subprocess.run([gen, lst], stdout=f).returncode:
            raise BuildError('gen_init_cpio failed (%s)' % gen)
    return cpio


def read_kconfig(kdir, obj):
    """What was built: the options the configuration's fragment
    ($OBJ/lineloc.config) names, and the line-location option, as the
    kernel's .config has them ('n' for one not set)."""
    have = {}
    try:
        with open(os.path.join(kdir, '.config')) as f:
            for l in f:
                m = re.match(r'^(CONFIG_\w+)=(.*)$', l.strip())
                if m:
                    have[m.group(1)] = m.group(2)
    except OSError:
        return {}
    names = {LINES_OPTION, INLINES_OPTION}
    try:
        with open(os.path.join(obj, 'lineloc.config')) as f:
            names |= {m.group(1) for m in map(re.compile(r'^(CONFIG_\w+)=').match, f) if m}
    except OSError:
        pass
    return {n: have.get(n, 'n') for n in sorted(names)}


def check_table(rec, out_dir, checks, figures):
    """The linked table is scripts/lineloc's table of vmlinux, and agrees
    with its rows (lineloc --table-check)."""
    ll = os.path.join(rec.obj, 'scripts', 'lineloc', 'lineloc')
    linked = os.path.join(rec.obj, '.tmp_vmlinux.lines.bin')
    again = os.path.join(out_dir, 'lines.bin')
    strip = [x for s in rec.strip for x in ('--strip', s)]
    inl = ['--inlines'] if rec.kconfig.get(INLINES_OPTION) == 'y' else []
    p = subprocess.run([ll] + strip + inl + ['-o', again, '--kernel-table', rec.vmlinux],
                       capture_output=True, text=True)
    same = p.returncode == 0 and os.path.exists(linked) and \
        open(linked, 'rb').read() == open(again, 'rb').read()
    checks.append(Check('line table: the linked table is lineloc\'s table of vmlinux', same,
                        p.stderr.strip()[-120:] or '%d bytes' % os.path.getsize(again)))
    # the check is the user tool's (the kernel build's lineloc only
    # writes): the project's build of the same sources
    user = os.path.join(TOP, 'hosttool', 'lineloc')
    p = subprocess.run([user] + strip + ['--table-check', rec.vmlinux],
                       capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip().splitlines()
    checks.append(Check('line table: lineloc --table-check', p.returncode == 0,
                        out[-1] if out else 'no output (exit %d)' % p.returncode))
    p = subprocess.run([user] + strip + ['--table-size', rec.vmlinux],
                       capture_output=True, text=True)
    m = re.search(r'table: (\d+) rows, (\d+) bytes', p.stdout)
    if m:
        figures['table_rows'], figures['table_bytes'] = int(m.group(1)), int(m.group(2))


def check_stack(rec, checks, figures):
    """The stack of the line lookup in a backtrace (matrix/stack_usage.py),
    with the bounds of the chains of inlined calls where they are on."""
    bounds = (stack_usage.BOUND_INLINES, stack_usage.LOOKUP_BOUND_INLINES) \
        if rec.kconfig.get(INLINES_OPTION) == 'y' else \
        (stack_usage.BOUND, stack_usage.LOOKUP_BOUND)
    name = 'stack: the line lookup path uses at most %d bytes from vsnprintf(), ' \
        '%d below symbol_string() (-fstack-usage)' % bounds
    try:
        r = stack_usage.measure(rec.obj)
    except (stack_usage.Error, OSError) as e:
        checks.append(Check(name, False, 'not measured: %s' % e))
        return
    ok, detail = stack_usage.verdict(r, *bounds)
    checks.append(Check(name, ok, detail))
    figures['lookup_stack_bytes'] = r['bytes']


def size_figures(facts, rec, figures):
    out = subprocess.run([cell.tool(facts, 'size'), rec.vmlinux], capture_output=True,
                         text=True).stdout.split('\n')
    if len(out) > 1 and out[1].split():
        t, d, b = out[1].split()[:3]
        figures['text'], figures['data'], figures['bss'] = int(t), int(d), int(b)
    if rec.image and os.path.exists(rec.image):
        figures['image'] = os.path.getsize(rec.image)
    if rec.variants:
        ko = os.path.join(os.path.dirname(rec.variants), 'lltest-min.ko')
        p = subprocess.run([cell.tool(facts, 'readelf'), '-SW', ko],
                           capture_output=True, text=True)
        m = re.search(r'\] \.debug_line\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)', p.stdout)
        if m:
            figures['module_debug_line_bytes'] = int(m.group(1), 16)
        module_table(rec, figures)


TABLE_SIZE = re.compile(r'module table: .*?(\d+) \+ (\d+) bytes \(core \+ init\)')


def module_table(rec, figures):
    """The bytes of the stripped variant's table after init and of its
    init part, as lineloc --table-size predicts them from the sections
    as the loader lays them out (the judge holds linesize to it)."""
    try:
        with open(rec.variants) as f:
            man = json.load(f)
    except (OSError, ValueError) as e:
        figures['module_table'] = {'error': 'manifest: %s' % e}
        return
    v = next((v for v in man['variants'] if v['kind'] == 'stripped'), None)
    if v is None:
        return
    # the project's build of lineloc (make builds it for the matrix): the
    # kernel's scripts/lineloc is built only with the vmlinux option on
    ko = os.path.join(os.path.dirname(rec.variants), v['file'])
    p = subprocess.run([os.path.join(TOP, 'hosttool', 'lineloc'), '--table-size', ko],
                       capture_output=True, text=True)
    m = TABLE_SIZE.search(p.stdout)
    figures['module_table'] = {'core': int(m.group(1)), 'init': int(m.group(2))} if m else \
        {'error': p.stderr.strip() or 'no answer'}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ('--arch', '--config', '--obj', '--kernel-dir', '--src', '--dir', '--out',
                '--plan'):
        ap.add_argument(opt, required=True)
    ap.add_argument('--module', default='')
    ap.add_argument('--companions', nargs='*', default=[])
    ap.add_argument('--variants', default='')
    ap.add_argument('--dwarf', nargs='*', default=[])
    ap.add_argument('--failed', help='the stage that failed: kernel, module, variants')
    ap.add_argument('--reason', default='')
    ap.add_argument('--seconds', type=int, default=0)
    ap.add_argument('--log', nargs='*', default=[])
    ap.add_argument('--no-checks', action='store_true',
                    help='no build checks (qemu/boot.py on a kernel it was given)')
    a = ap.parse_args()
    t0 = time.monotonic()
    try:
        facts = cell.load_arch(a.arch, a.config)
    except cell.FactsError as e:
        print('build_record.py: %s' % e, file=sys.stderr)
        return 1
    kdir, obj, src = (os.path.realpath(x) for x in (a.kernel_dir, a.obj, a.src))
    out_dir = os.path.dirname(os.path.realpath(a.out))
    image, vmlinux = os.path.join(kdir, 'image'), os.path.join(kdir, 'vmlinux')
    kconfig = read_kconfig(kdir, obj)
    rec = records.Build(
        arch=a.arch, config=a.config, src=src, obj=obj, kernel_dir=kdir,
        image=image if os.path.exists(image) else '',
        vmlinux=vmlinux if os.path.exists(vmlinux) else '',
        kconfig=kconfig, lines='on' if kconfig.get(LINES_OPTION) == 'y' else 'off',
        module=a.module, companions=a.companions, variants=a.variants, dwarf=a.dwarf,
        plan=records.project_path(a.plan, TOP),
        strip=[src + '/', os.path.realpath(src) + '/', obj + '/'], logs=a.log)
    if a.failed:
        rec.ok, rec.stage, rec.reason = False, a.failed, a.reason
    else:
        try:
            d = os.path.realpath(a.dir)
            os.makedirs(d, exist_ok=True)
            log = os.path.join(out_dir, 'init.log')
            rec.logs.append(log)
            rec.init = make_init(facts, d, log)
            rec.initramfs = make_initramfs(obj, d, rec.init, a.plan, a.module, a.companions,
                                           a.variants, a.dwarf)
        except (BuildError, OSError) as e:
            rec.ok, rec.stage, rec.reason = False, 'init', str(e)
    if rec.vmlinux and not a.no_checks:
        checks, figures = [], {}
        if rec.lines == 'on':
            check_table(rec, out_dir, checks, figures)
            # the bound is for the kernel as configured for use, not for
            # a KASAN build (KCONFIG=hardened), whose frames grow
            if not facts.get('KCONFIG'):
                check_stack(rec, checks, figures)
        size_figures(facts, rec, figures)
        rec.checks, rec.figures = checks, figures
    rec.seconds = a.seconds + int(time.monotonic() - t0)
    records.write(a.out, rec)
    return 0


if __name__ == '__main__':
    sys.exit(main())
