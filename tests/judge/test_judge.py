#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Self-test of matrix/judge.py on recorded console logs.

Each recorded log (logs/<arch>.console.log, a real green boot of that arch
with the option off, less its /proc/kallsyms listing and its textlocs
lines, which need a vmlinux to judge) must be judged green; then faults are planted in copies of it (a hang, a
panic, a missing marker, a broken chain, a wrong line, silence on a wrong
console) and each must be judged red, with a reason that names what
happened.  Closes with "judge: N passed, M failed, K skipped".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
JUDGE = os.path.join(TOP, 'matrix', 'judge.py')
MERGE = os.path.join(TOP, 'matrix', 'merge.py')
PLAN = os.path.realpath(os.path.join(TOP, 'qemu', 'plans', 'lltest.plan'))
LOGS = os.path.join(HERE, 'logs')
# the kernel tree (make prepare): its KTAP parser reads the KUnit output
SRC = os.path.realpath(os.path.join(os.environ.get('BUILD', os.path.join(TOP, 'build')),
                                    'src', 'linux'))
sys.path.insert(0, os.path.join(TOP, 'matrix'))
import cell  # noqa: E402
import console  # noqa: E402
import stack_usage  # noqa: E402
import records  # noqa: E402
from judges.modules import judge_load_cost  # noqa: E402
import plan as plans  # noqa: E402
sys.path.insert(0, os.path.join(TOP, 'tests'))
from result import Results  # noqa: E402

RESULTS = Results('judge')
result = RESULTS.check


def judge(arch, text, rc=0, timeout=30, timed_out=False, console_only=True, floor='1'):
    """Judge @text as the console of a boot of @arch: a boot record as
    qemu/boot.py writes it, with no build record: no kernel or module to check against
    (--console-only; the floor of checks @floor, since a log judged alone
    has no location checks)."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, 'console.log')
        with open(log, 'w') as f:
            f.write(text)
        # the recorded boots have the option off
        facts = dict(cell.load_arch(arch, 'off'), MIN_CHECKS=floor)
        records.write(os.path.join(d, 'boot.json'), records.Boot(
            arch=arch, config='recorded', facts=facts, console=log, plan=PLAN, qemu_rc=rc,
            timed_out=timed_out, timeout=timeout))
        p = subprocess.run([sys.executable, JUDGE, os.path.join(d, 'boot.json')] +
                           (['--console-only'] if console_only else []),
                           capture_output=True, text=True)
        with open(os.path.join(d, 'result.json')) as f:
            return p.returncode, json.load(f)


class FakeCell:
    """What a judge_* function reports to: its checks, in order."""
    def __init__(self):
        self.checks = []

    def check(self, name, ok, detail=''):
        self.checks.append((name, bool(ok), detail))
        return ok


class FakeArgs:
    """A judge's arguments with no artifacts (the variants where none are)."""
    def __init__(self, arch):
        self.facts = cell.load_arch(arch, 'off')
        self.variants = os.path.join(tempfile.gettempdir(), 'no-such-dir', 'variants.json')
        self.build_figures = {}


def expect_red(arch, what, text, want, rc=0, timed_out=False, **kw):
    code, res = judge(arch, text, rc, timed_out=timed_out, **kw)
    ok = code == 1 and re.search(want, res['reason']) is not None
    result(ok, '%s: %s -> red (%s)' % (arch, what, res['reason'][:90]))


def merge_cases():
    """merge.py: a stage that stopped one configuration keeps the
    other's checks, each check counts once, and report.py names both."""
    ok3 = [{'name': 'c%d' % i, 'ok': True, 'detail': ''} for i in range(3)]
    with tempfile.TemporaryDirectory() as d:
        def write(config, res):
            os.makedirs(os.path.join(d, config), exist_ok=True)
            p = os.path.join(d, config, 'result.json')
            records.write(p, res)
            return p

        def merge(paths):
            out = os.path.join(d, 'x86_64', 'result.json')
            os.makedirs(os.path.dirname(out), exist_ok=True)
            p = subprocess.run([sys.executable, MERGE] + paths + ['--out', out],
                               capture_output=True, text=True)
            with open(out) as f:
                return p.returncode, json.load(f)
        off = write('off', records.result('x86_64', 'off', ok3))
        on = write('on', records.failure('x86_64', 'on', 'build',
                                      'module variants failed (see variants.log)'))
        code, res = merge([off, on])
        names = [c['name'] for c in res['checks']]
        result(code == 1 and names == ['off: c0', 'off: c1', 'off: c2', 'on: build'] and
               res['tests_passed'] == 3,
               'merge: a failed stage of "on" keeps the 3 checks "off" passed (%s)' % names)
        p = subprocess.run([sys.executable, os.path.join(TOP, 'matrix', 'report.py'), d,
                            'x86_64'], capture_output=True, text=True)
        row = next((l for l in p.stdout.splitlines() if l.startswith('x86_64')), '')
        result(p.returncode == 1 and 'off 3/3, on: module variants failed' in row,
               'report: the red cell\'s row names each configuration (%s)' % row)
        # both pairs present (hardened-base/hardened and off/on): each
        # check once, however many pairs there are
        # /proc/kallsyms as each boot printed it, in its console
        for v in ('off', 'on'):
            os.makedirs(os.path.join(d, v), exist_ok=True)
            log = os.path.join(d, v, 'console.log')
            with open(log, 'w') as f:
                f.write('%s\n%s%s\n' % (console.KALLSYMS_BEGIN, ''.join(
                    'T f%d\n' % i for i in range(200)), console.KALLSYMS_END))
            records.write(os.path.join(d, v, 'boot.json'), records.Boot(
                arch='x86_64', config=v, facts=cell.load_arch('x86_64', v), console=log))
        on = write('on', records.result('x86_64', 'on', ok3))
        hb = write('hardened-base', records.result('x86_64', 'hardened-base', ok3,
                                                figures={'splats': []}))
        hh = write('hardened', records.result('x86_64', 'hardened', ok3, figures={'splats': []}))
        code, res = merge([off, on, hb, hh])
        names = [c['name'] for c in res['checks']]
        result(code == 0 and len(names) == 14 and len(set(names)) == 14,
               'merge: two pairs, 4 x 3 checks and 2 between, each once (%d, %d distinct)' % (
                   len(names), len(set(names))))


def kallsyms_cases():
    """The /proc/kallsyms hold: symbols at one address (the init marks
    them '=') may come in either order, and may share an address in one
    kernel and not in the other; any other move is red, and so is a
    symbol gained or lost but the series' own."""
    import merge as merger

    def hold(off, on):
        c = FakeCell()
        lists = {}
        for v, text in (('off', off), ('on', on)):
            lists[v] = console.kallsyms_listing(
                [console.KALLSYMS_BEGIN] + text + [console.KALLSYMS_END])
        merger.hold_kallsyms(c, 'off', 'on', lists)
        return c.checks[0]
    body = ['T f%d' % i for i in range(200)]

    def at100(*lines, cut=100):
        return body[:100] + list(lines) + body[cut:]
    off = at100('T x86_verw_sel', '=T __entry_text_start')
    cases = [
        ('two symbols at one address, listed in either order', True,
         at100('T __entry_text_start', '=T x86_verw_sel')),
        ('two symbols at one address in one kernel, one after the other in the other', True,
         at100('T __entry_text_start', 'T x86_verw_sel')),
        ('a function of the series gained', True,
         at100('T kallsyms_lookup_line', 'T x86_verw_sel', '=T __entry_text_start')),
        ('two symbols at two addresses, the other way round', False,
         at100('T x86_verw_sel', '=T __entry_text_start', 'T f101', 'T f100', cut=102)),
        ('a symbol moved across an address', False,
         at100('T x86_verw_sel', '=T __entry_text_start', '=T f101', 'T f100', cut=102)),
        ('a symbol lost', False, at100('T x86_verw_sel', cut=100)),
    ]
    for what, want, on in cases:
        name, ok, detail = hold(off, on)
        result(ok == want, 'kallsyms: %s: %s (%s)' % (what, 'green' if want else 'red',
                                                     detail[detail.index(';') + 2:][:90]))
    # arm64's __hyp_text_end: at _etext in one link (not listed), below it
    # in the other; only the symbol right before _etext may so go
    data = ['D _etext', 'D d0', 'D d1']
    edge_off = body[:150] + ['T __hyp_text_end'] + data
    for what, want, off2, on2 in (
            ('the end of a text section at _etext in one link only', True,
             edge_off, body[:150] + data),
            ('the same, the other way round', True, body[:150] + data, edge_off),
            ('a symbol lost two before _etext', False,
             body[:149] + ['T __hyp_text_end'] + data, body[:148] + ['T __hyp_text_end'] + data)):
        name, ok, detail = hold(off2, on2)
        result(ok == want, 'kallsyms: %s: %s (%s)' % (what, 'green' if want else 'red',
                                                     detail[detail.index(';') + 2:][:110]))


def cut_after(text, needle):
    i = text.index(needle)
    return text[:text.index('\n', i) + 1]


def ktap(arch, good):
    """KTAP through the kernel tree's parser (after make prepare): every
    case of the recorded boot passes; a case planted as failed is a
    failure of that case; a boot that died in mid-suite is a crash."""
    src = SRC
    lines = console.clean(good.splitlines())
    try:
        status, cases = console.kunit_results(lines, src)[console.KUNIT_SUITE]
    except (ImportError, KeyError) as e:
        result(False, '%s: KTAP: %s' % (arch, e))
        return
    # the recorded boots have the option off: cases that need it skip
    passing = [n for n, (_, s) in enumerate(cases, 1) if s == 'SUCCESS']
    result(status == 'SUCCESS' and len(cases) >= 6 and passing and
           all(s in ('SUCCESS', 'SKIPPED') for _, s in cases),
           '%s: KTAP: suite %s, %d cases, %d passed, the others skipped' % (
               arch, status, len(cases), len(passing)))
    if not passing:
        return
    k = passing[0]
    bad = [re.sub(r'^(\s*)ok %d ' % k, r'\1not ok %d ' % k, l) for l in lines]
    status, cases = console.kunit_results(bad, src)[console.KUNIT_SUITE]
    # (the parser takes the suite's status from its own result line,
    # which the judge therefore checks apart from each case)
    result(cases[k - 1][1] == 'FAILURE' and sum(s == 'FAILURE' for _, s in cases) == 1,
           '%s: KTAP: a planted failure fails case %d and no other (%s; suite line: %s)' % (
               arch, k, cases[k - 1][1], status))
    start = next(i for i, l in enumerate(lines)
                 if l.strip() == '# Subtest: %s' % console.KUNIT_SUITE)
    i = next(i for i, l in enumerate(lines) if i > start and re.match(r'\s*ok 3 ', l))
    cut = lines[:i] + ['Kernel panic - not syncing: planted']
    status, cases = console.kunit_results(cut, src).get(console.KUNIT_SUITE, ('not seen', []))
    result(status == 'TEST_CRASHED',
           '%s: KTAP: a boot that died in case 3 is a crash, not a failure (%s, %d cases seen)'
           % (arch, status, len(cases)))


def layering():
    """Facts and kconfig lines of an arch file over common.facts: plain,
    then KEY@PREFIX*, then KEY@CONFIG win, whatever the order in the
    files."""
    required = ''.join('%s=x\n' % k for k in cell.REQUIRED
                       if k not in ('MEMORY', 'WARN_PC', 'INTERRUPTED_PC'))
    common = ('WARN_PC=trap\nINTERRUPTED_PC=regs\nLINES=on\n'
              'MEMORY@hard=3\nCONFIG_A@hard=3\nMEMORY@ha*=2\nCONFIG_A@ha*=2\n')
    arch = required + 'MEMORY@hard*=2\nCONFIG_A@hard*=2\nMEMORY=1\nCONFIG_A=1\n'
    saved = cell.ARCH_DIR
    with tempfile.TemporaryDirectory() as d:
        for name, text in (('common.facts', common), ('t.arch', arch)):
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        cell.ARCH_DIR = d
        try:
            for config, want in (('off', '1'), ('half', '2'), ('hard', '3')):
                f = cell.load_arch('t', config)
                last = [x for x in f['FRAGMENT'].split('\n') if x][-1]
                result(f['MEMORY'] == want and last == 'CONFIG_A=' + want,
                       'layering: %s: MEMORY=%s, last kconfig line %s (want %s)' %
                       (config, f['MEMORY'], last, want))
        finally:
            cell.ARCH_DIR = saved


# A small lookup path, as `objdump -dr` and gcc's .su give it: printk's
# vsnprintf() tail-calls through pointer() to symbol_string(), the lookup
# reaches the decoder directly and a module's table through
# module_line_loc(), and its callback (an indirect call) prints ":%u"
# with a nested vsnprintf().  kallsyms.o has the lookup's weak stub.
STACK_DUMP = {
    'lib/vsprintf.o': """
Disassembly of section .text:

0000000000000000 <vsnprintf>:
   0:\tpush   %rbx
   1:\tcall   40 <pointer>
   6:\tcall   b <vsnprintf+0xb>
\t\t\t7: R_X86_64_PLT32\tnumber-0x4
   b:\tjmp    *0x0(,%rcx,8)
  12:\tret

0000000000000040 <pointer>:
  40:\tjmp    80 <symbol_string>

0000000000000060 <number>:
  60:\tret

0000000000000080 <symbol_string>:
  80:\tcall   85 <symbol_string+0x5>
\t\t\t81: R_X86_64_PLT32\tsprint_backtrace-0x4
  85:\tcall   8a <symbol_string+0xa>
\t\t\t86: R_X86_64_PLT32\tkallsyms_line_loc_snprint-0x4
  8a:\tret

00000000000000a0 <snprintf>:
  a0:\tcall   0 <vsnprintf>
  a5:\tret
""",
    'kernel/kallsyms.o': """
Disassembly of section .text:

0000000000000000 <sprint_backtrace>:
   0:\tcall   5 <sprint_backtrace+0x5>
\t\t\t1: R_X86_64_PLT32\tstrlen-0x4
   5:\tret

0000000000000010 <kallsyms_line_loc_snprint>:
  10:\txor    %eax,%eax
  12:\tret
""",
    'kernel/kallsyms_lines.o': """
Disassembly of section .text:

0000000000000000 <lt_block.constprop.0>:
   0:\tret

0000000000000010 <lineloc_lookup>:
  10:\tcall   0 <lt_block.constprop.0>
  15:\tret

0000000000000020 <kallsyms_line_snprint_fn>:
  20:\tcall   25 <kallsyms_line_snprint_fn+0x5>
\t\t\t21: R_X86_64_PLT32\tsnprintf-0x4
  25:\tret

0000000000000030 <kallsyms_line_with>:
  30:\tcall   10 <lineloc_lookup>
  35:\tcall   *%r13
  38:\tcall   3d <kallsyms_line_with+0xd>
\t\t\t39: R_X86_64_PLT32\tmodule_line_loc-0x4
  3d:\tret

0000000000000040 <kallsyms_line_loc_snprint>:
  40:\tcall   45 <kallsyms_line_loc_snprint+0x5>
\t\t\t41: R_X86_64_PLT32\t.text+0x2c
  45:\tret
""",
    'kernel/module/lines.o': """
Disassembly of section .text:

0000000000000000 <module_line_loc>:
   0:\tcall   5 <module_line_loc+0x5>
\t\t\t1: R_X86_64_PLT32\tlineloc_lookup-0x4
   5:\tcall   *%rbx
   7:\tret
""",
}
STACK_SU = {
    'lib/vsprintf.o': 'vsprintf.c:2750:5:vsnprintf\t72\tstatic\n'
                      'vsprintf.c:2300:7:pointer\t32\tstatic\n'
                      'vsprintf.c:400:7:number\t96\tstatic\n'
                      'vsprintf.c:995:7:symbol_string\t728\tstatic\n'
                      'vsprintf.c:2900:5:snprintf\t88\tstatic\n',
    'kernel/kallsyms.o': 'kallsyms.c:560:5:sprint_backtrace\t16\tstatic\n'
                         'kallsyms.c:678:12:kallsyms_line_loc_snprint\t0\tstatic\n',
    'kernel/kallsyms_lines.o': 'linetab_dec.c:266:12:lt_block.constprop\t408\tstatic\n'
                               'linetab_dec.c:476:5:lineloc_lookup\t192\tdynamic,bounded\n'
                               'kallsyms_lines.c:174:12:kallsyms_line_snprint_fn\t64\tstatic\n'
                               'kallsyms_lines.c:80:12:kallsyms_line_with\t80\tstatic\n'
                               'kallsyms_lines.c:216:5:kallsyms_line_loc_snprint\t24\tstatic\n',
    'kernel/module/lines.o': 'lines.c:323:5:module_line_loc\t80\tstatic\n',
}


def stack_cases(dynamic=False, su_edit=None):
    """matrix/stack_usage.py on STACK_DUMP and STACK_SU: the .su parser,
    the call graph (relocations, a tail call, an indirect call, a call
    through a section symbol, a weak stub), the deepest chains and the
    bound."""
    parts = []
    for obj, dump in STACK_DUMP.items():
        su = STACK_SU[obj]
        if dynamic:
            su = su.replace('lt_block.constprop\t408\tstatic', 'lt_block.constprop\t408\tdynamic')
        if su_edit:
            su = su.replace(*su_edit)
        weak = {'kallsyms_line_loc_snprint'} if obj == 'kernel/kallsyms.o' else set()
        parts.append((obj, stack_usage.parse_su(su, obj), stack_usage.parse_objdump(dump), weak))
    return stack_usage.chains(stack_usage.merge_objects(parts))


def stack_usage_cases():
    su = stack_usage.parse_su('/a/b.c:3:5:f.isra\t40\tdynamic,bounded\n\n'
                              'b.c:9:1:g\t8\tstatic\n')
    result(su == {'f.isra': (40, 'dynamic,bounded', ''), 'g': (8, 'static', '')},
           'stack: .su parsed: %s' % su)
    try:
        stack_usage.parse_su('b.c:9:1:g 8 static\n')
        result(False, 'stack: a .su line that does not parse is an error')
    except stack_usage.Error as e:
        result(True, 'stack: a .su line that does not parse is an error (%s)' % e)
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'kernel'))
        with open(os.path.join(d, 'kernel', '.x.o.cmd'), 'w') as f:
            f.write("cmd_kernel/x.o := /m/ccache-cc gcc -Wp,-MMD,kernel/.x.o.d -DA='\"x\"' "
                    "-DB=$$1 -c -o kernel/x.o x.c   ; ./tools/objtool/objtool kernel/x.o\n"
                    "\nsource_kernel/x.o := x.c\n")
        argv = stack_usage.read_cmd(d, 'kernel/x.o')
    result(argv[-1] == 'x.c' and '-DB=$1' in argv,
           'stack: the .cmd line read up to its ";": %s' % ' '.join(argv))
    argv = stack_usage.stack_command(argv, '/t', 'kernel__x')
    result(argv == ['gcc', '-Wp,-MMD,/t/kernel__x.d', '-DA="x"', '-DB=$1', '-c', '-o',
                    '/t/kernel__x.o', 'x.c', '-fstack-usage'],
           'stack: the command writes to the temporary folder only: %s' % ' '.join(argv))
    r = stack_cases()
    want = {'vmlinux': ['vsnprintf', 'pointer', 'symbol_string', 'kallsyms_line_loc_snprint',
                        'kallsyms_line_with', 'lineloc_lookup', 'lt_block.constprop.0'],
            'module': ['vsnprintf', 'pointer', 'symbol_string', 'kallsyms_line_loc_snprint',
                       'kallsyms_line_with', 'module_line_loc', 'lineloc_lookup',
                       'lt_block.constprop.0']}
    for k, total in (('vmlinux', 72 + 728 + 24 + 80 + 192 + 408),
                     ('module', 72 + 728 + 24 + 80 + 80 + 192 + 408)):
        got = [n for n, _ in r[k]['frames']]
        result(got == want[k] and r[k]['bytes'] == total and
               dict(r[k]['frames'])['pointer'] == 0,
               'stack: %s address: %d bytes (want %d), %s' % (
                   k, r[k]['bytes'], total, stack_usage.render(r[k])))
    # the callback's chain (indirect call, nested vsnprintf, not pointer)
    # is shallower here: 72+728+24+80+64+88+72+96
    result(r['bytes'] == 1584 and r['module']['lookup'] == 784 and
           r['symbol']['bytes'] == 72 + 728 + 16 and r['bounded_on_path'] == ['lineloc_lookup']
           and 'strlen' in r['external'],
           'stack: deepest %d, below symbol_string %d, symbol part %d, external %s' % (
               r['bytes'], r['module']['lookup'], r['symbol']['bytes'], r['external']))
    ok, detail = stack_usage.verdict(r, 2048, 1024)
    result(ok, 'stack: within 2048 / 1024: %s' % detail[:80])
    for bounds, why in (((1500, 1024), 'the whole chain'), ((2048, 700), 'the lookup part')):
        ok, detail = stack_usage.verdict(r, *bounds)
        result(not ok, 'stack: over the bound of %s (%d / %d) fails' % ((why,) + bounds))
    # a callback deeper than the decoder: its nested vsnprintf() counts,
    # not the pointer() that would reach symbol_string() again
    r = stack_cases(su_edit=('snprintf\t88', 'snprintf\t888'))
    got = [n for n, _ in r['module']['frames']]
    result(got[3:] == ['kallsyms_line_loc_snprint', 'kallsyms_line_with', 'module_line_loc',
                       'kallsyms_line_snprint_fn', 'snprintf', 'vsnprintf', 'number'] and
           r['bytes'] == 72 + 728 + 24 + 80 + 80 + 64 + 888 + 72 + 96,
           'stack: the callback through the indirect call: %d, %s' % (
               r['bytes'], stack_usage.render(r['module'])))
    ok, detail = stack_usage.verdict(stack_cases(dynamic=True), 2048, 1024)
    result(not ok and 'DYNAMIC frames: lt_block.constprop.0' in detail,
           'stack: a dynamic frame on the path fails: %s' % detail[-40:])


def plan_cases():
    """matrix/plan.py: every plan of qemu/plans parses; lltest.plan fires
    the triggers, crashes and seeded addresses the judge asks for; a step
    init does not know, or with arguments of the wrong form, is refused
    with its file and line."""
    d = os.path.join(TOP, 'qemu', 'plans')
    names = sorted(f for f in os.listdir(d) if f.endswith('.plan'))
    bad = []
    for f in names:
        try:
            plans.Plan(os.path.join(d, f))
        except plans.PlanError as e:
            bad.append(str(e))
    result(names and not bad, 'plan: the %d plans of qemu/plans parse' % len(names),
           '; '.join(bad))
    p = plans.Plan(PLAN)
    result(p.triggers()[:2] == ['init', 'dump'] and 'dump_strip' in p.triggers() and
           p.lkdtm() == ['WARNING', 'EXCEPTION', 'BUG'] and p.textlocs() == 1000 and
           p.cycles() is None and p.has('variants /m ') and not p.has('cycle '),
           'plan: lltest.plan\'s triggers, LKDTM crashes, textlocs and steps',
           '%s %s %s' % (p.triggers(), p.lkdtm(), p.textlocs()))
    with tempfile.TemporaryDirectory() as t:
        for text, want in (('say hi\ninsmod\ndone\n', ':2: insmod takes'),
                           ('# c\n\nreboot now\n', ":3: unknown step 'reboot'"),
                           ('cycle many /m/x.ko x\n', ':1: cycle takes'),
                           ('done now\n', ':1: done takes no argument')):
            f = os.path.join(t, 'bad.plan')
            with open(f, 'w') as o:
                o.write(text)
            try:
                plans.Plan(f)
                got = 'accepted'
            except plans.PlanError as e:
                got = str(e)
            result(want in got, 'plan: %r refused at its line' % text.strip(), got)


def lkdtm_cases():
    """judges.traces.judge_lkdtm: a crash's report is found after the init
    went on (printed from NMI context, it reaches the console late), but
    never after LKDTM's next entry or the module's next trigger: that
    report is theirs."""
    from judges.traces import judge_lkdtm
    entry = 'lkdtm: Performing direct entry %s'
    warn = ['------------[ cut here ]------------',
            'WARNING: CPU: 0 PID: 81 at drivers/misc/lkdtm/bugs.c:112 lkdtm_WARNING+0x18/0x20']
    fires = 'lltest: oops fires at /lltest/lltest_main.c:200'
    start = ['lltest-init: write /sys/kernel/debug/provoke-crash/DIRECT: writer exited 0',
             'lltest-init: write /sys/kernel/debug/provoke-crash/DIRECT EXCEPTION: start']
    for what, lines, ok in (
            ('the report before the init goes on', [entry % 'WARNING'] + warn + start, True),
            ('the report after the init went on', [entry % 'WARNING'] + start + warn, True),
            ('the report after the next entry',
             [entry % 'WARNING'] + start + [entry % 'EXCEPTION'] + warn, False),
            ('the report after the module\'s next trigger',
             [entry % 'WARNING'] + start + [fires] + warn, False),
            ('no report', [entry % 'WARNING'] + start, False)):
        c = FakeCell()
        judge_lkdtm(c, lines, 'WARNING')
        got = [x for x in c.checks if x[0] == 'lkdtm WARNING: report']
        result(len(got) == 1 and got[0][1] == ok,
               'lkdtm: %s -> %s' % (what, 'found' if ok else 'no report'), str(got))


def inline_cases():
    """judges.traces.judge_inlines: the "[inline]" lines before a frame and
    its location are llvm-symbolizer's chain (stubbed here), level for
    level; a level dropped, a call line off by one, a name changed or the
    outermost line kept innermost are red, and so is a chain no frame
    prints two levels deep; with the option off no "[inline]" line may be
    printed."""
    import judges.traces as tr
    from judges.traces import Frame
    chain = [('__se_sys_write', 'fs/read_write.c:637'),
             ('__do_sys_write', 'fs/read_write.c:637'),
             ('__x64_sys_write', 'fs/read_write.c:646')]
    two = [('file_start_write', 'include/linux/fs.h:3024'),
           ('vfs_write', 'fs/read_write.c:580')]

    def console(levels, frame):
        return [' %s (%s) [inline]' % lv for lv in levels] + [frame]

    cases = [
        ('the chains as llvm-symbolizer\'s', chain[:2], 'fs/read_write.c:646', True),
        ('a level dropped', chain[1:2], 'fs/read_write.c:646', False),
        ('a call line off by one', [chain[0], ('__do_sys_write', 'fs/read_write.c:638')],
         'fs/read_write.c:646', False),
        ('an inlined name changed', [('__se_sys_read', chain[0][1]), chain[1]],
         'fs/read_write.c:646', False),
        ('the frame\'s line the innermost one', chain[:2], 'fs/read_write.c:637', False)]

    class Args:
        inlines_on, vmlinux, strip = True, 'vmlinux', []
    saved = tr.symbolize_chains
    tr.symbolize_chains = lambda vm, addrs, strip: [chain, two][:len(addrs)]
    try:
        for what, levels, loc, ok in cases:
            lines = console(levels, ' __x64_sys_write+0x19/0x20 (%s)' % loc) + \
                console(two[:1], ' vfs_write+0x94/0x3e3 (%s)' % two[1][1])
            frames = [Frame(len(levels), '__x64_sys_write', 0x19, 0x20, False, loc),
                      Frame(len(lines) - 1, 'vfs_write', 0x94, 0x3e3, False, two[1][1])]
            c = FakeCell()
            figures = {'frames': {}}
            tr.judge_inlines(c, lines, Args(), frames, [0x1000, 0x2000], figures)
            got = dict((n, o) for n, o, _ in c.checks)
            agree = got.get("inlined calls: every located frame's chain is llvm-symbolizer's")
            result(agree == ok and (not ok or got.get(
                'inlined calls: a frame two levels deep or more, agreeing')),
                'inlined calls: %s -> %s' % (what, 'green' if ok else 'red'), str(c.checks))
        # no frame two levels deep: the chain one level, everything agreeing
        tr.symbolize_chains = lambda vm, addrs, strip: [two]
        lines = console(two[:1], ' vfs_write+0x94/0x3e3 (%s)' % two[1][1])
        c = FakeCell()
        tr.judge_inlines(c, lines, Args(), [Frame(1, 'vfs_write', 0x94, 0x3e3, False,
                                                  two[1][1])], [0x2000], {'frames': {}})
        got = dict((n, o) for n, o, _ in c.checks)
        result(not got.get('inlined calls: a frame two levels deep or more, agreeing'),
               'inlined calls: none two levels deep -> red', str(c.checks))
        # the option off: an "[inline]" line is red
        Args.inlines_on = False
        c = FakeCell()
        tr.judge_inlines(c, lines, Args(), [Frame(1, 'vfs_write', 0x94, 0x3e3, False,
                                                  two[1][1])], [0x2000], {'frames': {}})
        result(c.checks and not c.checks[0][1],
               'inlined calls: printed with the option off -> red', str(c.checks))
    finally:
        tr.symbolize_chains = saved


def bug_panic_cases():
    """judges.boot.boot_verdict where a kernel-mode BUG panics (BUG_PANICS):
    green only for a boot that ended at the plan's BUG, reported and
    panicking with die()'s words; that same boot is red without the fact,
    and a BUG that does not panic is red with it."""
    from judges.boot import boot_verdict

    class Run:
        def __init__(self, bug_panics):
            self.facts = {'BUG_PANICS': 'y' if bug_panics else ''}
            self.plan = plans.Plan(PLAN)
            self.missing, self.timed_out, self.qemu_rc, self.timeout = '', False, 0, 30
    head = ['lltest-init: write /sys/kernel/debug/lltest/oops 1: start', 'Oops [#1]',
            'lltest-init: write /sys/kernel/debug/lltest/oops: writer killed']
    bug = ['lltest-init: write /sys/kernel/debug/provoke-crash/DIRECT BUG: start',
           'lkdtm: Performing direct entry BUG', 'kernel BUG at drivers/misc/lkdtm/bugs.c:105!',
           'Kernel panic - not syncing: Fatal exception in interrupt']
    done = ['lltest-init: write /sys/kernel/debug/provoke-crash/DIRECT BUG: start',
            'lkdtm: Performing direct entry BUG', 'kernel BUG at drivers/misc/lkdtm/bugs.c:105!',
            'lltest-init: write /sys/kernel/debug/provoke-crash/DIRECT: writer killed',
            'lltest-init: ALL DONE', 'reboot: Restarting system']
    for what, lines, fact, want in (
            ('ended at the BUG', head + bug, True, '^$'),
            ('ended at the BUG, no fact', head + bug, False, 'unplanned panic'),
            ('panicked at the oops', head[:2] + bug[-1:], True,
             'unplanned panic.*not at the BUG step'),
            ('another panic at the BUG', head + bug[:3] + ['Kernel panic - not syncing: Oh no'],
             True, 'unplanned panic.*not one'),
            ('no BUG report', head + bug[:2] + bug[3:], True, 'no BUG report'),
            ('the BUG did not panic, with the fact', head + done, True, 'did not end the boot'),
            ('the BUG did not panic, no fact', head + done, False, '^$')):
        got = boot_verdict(Run(fact), lines)
        result(re.search(want, got), 'BUG_PANICS: %s -> %s' % (what, want), got)


def stage_cases():
    """judge.py --build: a build that stopped, or a boot that could not be
    set up, is that stage's failed check after the build checks judged
    before it; a record of the wrong schema is refused by name."""
    with tempfile.TemporaryDirectory() as d:
        def run(build, boot=None):
            bj, out = os.path.join(d, 'build.json'), os.path.join(d, 'result.json')
            records.write(bj, build)
            args = [sys.executable, JUDGE, '--build', bj, '--out', out]
            if boot is not None:
                records.write(os.path.join(d, 'boot.json'), boot)
                args += ['--boot', os.path.join(d, 'boot.json')]
            p = subprocess.run(args, capture_output=True, text=True)
            with open(out) as f:
                return p.returncode, json.load(f)
        checked = [records.Check('line table: lineloc --table-check', True, '')]
        code, res = run(records.Build(arch='x86_64', config='on', ok=False, stage='variants',
                                      reason='module variants failed', checks=checked))
        names = [(c['name'], c['ok']) for c in res['checks']]
        result(code == 1 and names == [('line table: lineloc --table-check', True),
                                       ('build', False)] and res['build'] == 'FAIL',
               'stage: a failed build keeps the build checks before it (%s)' % names)
        facts = cell.load_arch('x86_64', 'on')
        code, res = run(records.Build(arch='x86_64', config='on', checks=checked),
                        records.Boot(arch='x86_64', config='on', facts=facts, console='',
                                     setup_error='no initramfs'))
        names = [(c['name'], c['ok']) for c in res['checks']]
        result(code == 1 and names[-1] == ('boot', False) and len(names) == 2 and
               res['boot'] == 'FAIL' and 'no initramfs' in res['reason'],
               'stage: a boot not set up keeps the build checks (%s, %s)' % (names,
                                                                            res['reason']))
        bad = os.path.join(d, 'bad.json')
        with open(bad, 'w') as f:
            json.dump({'arch': 'x86_64', 'config': 'on', 'lines': 1}, f)
        try:
            records.read(records.Build, bad)
            why = 'read'
        except records.RecordError as e:
            why = str(e)
        result('lines is 1, not str' in why, 'records: a field of the wrong type is refused '
               'by name (%s)' % why)


def main():
    stage_cases()
    layering()
    plan_cases()
    lkdtm_cases()
    inline_cases()
    bug_panic_cases()
    stack_usage_cases()
    arches = sorted(f.split('.')[0] for f in os.listdir(LOGS) if f.endswith('.console.log'))
    result(len(arches) == 4, 'recorded logs for four arches: %s' % arches)
    for arch in arches:
        with open(os.path.join(LOGS, arch + '.console.log'), errors='replace') as f:
            good = f.read()
        code, res = judge(arch, good)
        result(code == 0 and res['tests_passed'] == res['tests_total'] >= 11,
               '%s: recorded boot -> green, %d/%d checks' % (arch, res['tests_passed'],
                                                              res['tests_total']))
        # A trigger that hangs: the log stops at the write, QEMU is killed.
        hang = cut_after(good, 'lltest-init: write /sys/kernel/debug/lltest/warn 1: start')
        expect_red(arch, 'hang', hang, r'timed out after 30s, last init line: write .*warn 1: start',
                   rc=-1, timed_out=True)
        # A wrong console: nothing at all, then the timeout or QEMU's exit.
        expect_red(arch, 'wrong console (timeout)', '', r'timed out.*no console output', rc=-1,
                   timed_out=True)
        expect_red(arch, 'wrong console (exit)', '', r'no console output')
        # An unplanned panic, even though QEMU then exits 0 (panic=-1).
        panic = cut_after(good, 'lltest: dump returned') + \
            '[    1.0] Kernel panic - not syncing: Attempted to kill init!\n'
        expect_red(arch, 'panic', panic, r'unplanned panic: Kernel panic')
        # The plan stopped: no success marker.
        expect_red(arch, 'no marker', good.replace('lltest-init: ALL DONE', 'lltest-init: x'),
                   r'success marker not reached')
        # Marker, but the guest did not restart by itself.
        expect_red(arch, 'no restart', re.sub(r'reboot: .*', '', good),
                   r'no guest restart')
        # A frame of the chain missing from every backtrace.
        expect_red(arch, 'broken chain', re.sub(r'lltest_chain_a', 'other_func', good),
                   r'backtrace.*missing')
        # The WARNING names another line than the trigger announced.
        expect_red(arch, 'wrong WARN line',
                   re.sub(r'(WARNING: CPU: .* at \S+:)(\d+)', lambda m: m.group(1) + '1' + m.group(2), good),
                   r'(init|warn): WARNING line')
        # A trigger fired twice (its marker is not unique).
        dup = re.search(r'.*lltest: dump fires at .*\n', good).group(0)
        expect_red(arch, 'marker twice', good.replace(dup, dup + dup), r'dump: marker: seen 2 times')
        # A green log is red when it judged fewer checks than the floor, or
        # when the record lacks what the plan needs (no --console-only).
        expect_red(arch, 'below the floor', good, r'floor: at least 100000 checks', floor='100000')
        expect_red(arch, 'record without vmlinux or module', good,
                   r'record: .*missing: vmlinux .*module', console_only=False)
        # a KUnit case missing from the suite's output (kunit-cases.txt lists it)
        expect_red(arch, 'KUnit case missing',
                   '\n'.join(l for l in good.split('\n') if 'kallsyms_test_costs' not in l),
                   r'KUnit kallsyms_line_loc')
        # test_printf ran fewer tests than the tree has
        expect_red(arch, 'test_printf count', re.sub(r'(test_printf: all )\d+', r'\g<1>3', good),
                   r'test_printf: all \d+ tests passed')
        # kernel lines between init's steps (a clocksource watchdog on a
        # loaded host) do not hide the steps after module.line_locations=0
        # (judge_load_cost() needs the artifacts: called here alone)
        step = 'lltest-init: write /sys/module/module/parameters/line_locations 0: start\n'
        noise = ''.join('[    2.1%02d] clocksource: watchdog line %d\n' % (k, k)
                        for k in range(8))
        seen = FakeCell()
        judge_load_cost(seen, good.replace(step, step + noise).split('\n'),
                                  FakeArgs(arch), {})
        chk = [c for c in seen.checks if c[0].startswith('module.line_locations=0')]
        result(len(chk) == 1 and chk[0][1],
               '%s: 8 kernel lines after the module.line_locations=0 step: '
               'its check still passes (%s)' % (arch, chk[0][2] if chk else 'no such check'))
        ktap(arch, good)
    merge_cases()
    kallsyms_cases()
    return RESULTS.finish()


if __name__ == '__main__':
    sys.exit(main())
