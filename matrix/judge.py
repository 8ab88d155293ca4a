#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one boot configuration of a matrix cell from its records and its
console log.

  judge.py --build BUILD_JSON [--boot BOOT_JSON] --out RESULT_JSON
  judge.py BOOT_JSON [--out RESULT_JSON] [--console-only]

A configuration is green only on positive evidence: the init's success
marker, the guest's own restart after it, and for every trigger in the
plan its marker line, its backtrace (the module's call chain, in order)
and the source line it announced, confirmed by an oracle on the module.
QEMU's exit status alone never makes it green; a timeout, an unplanned
panic or a missing marker makes it red with a reason that says what
happened.  A stage that stopped (the build, the boot's set-up) is a failed
check of that name, and the checks judged before it (the build's) stay.

This file dispatches; the checks are by subject in matrix/judges/: boot
(the boot itself, the record, the figures the console prints), traces
(the triggers, vmlinux frames, LKDTM), modules (the test module's frames,
variants, line sources, load times), kunit (test_printf, KUnit), hardened
(the checkers and the races).  The build checks (the linked table, the
lookup's stack) are the build stage's, read from build.json.

Writes the configuration's result.json (matrix/records.py: Result), the
only writer of it, and prints one progress line per check.  Exit status:
0 green, 1 red.
"""
import argparse
import os
import re
import subprocess
import sys

import cell as cells
import records
from console import LOCATED, read
from judges.boot import boot_verdict, console_figures, judge_record
from judges.hardened import judge_hardened
from judges.kunit import judge_kunit
from judges.modules import judge_module_frames, judge_sources, judge_variants
from judges.traces import judge_lkdtm, judge_loc, judge_locations, judge_textlocs, judge_trigger
from oracles import ModuleOracle, Symbols
from plan import Plan
from records import Check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Checks:
    """The checks of one configuration, in order, each printed as judged."""

    def __init__(self, arch):
        self.arch = arch
        self.checks = []

    def check(self, name, ok, detail=''):
        # paths of over 1 KiB (the long-path trigger) keep their ends
        detail = re.sub(r'/[^\s:,]{100,}/', lambda m: '/...%s/' % m.group(0)[-60:-1], detail)
        self.checks.append(Check(name, bool(ok), detail))
        print('[%s] %s %s%s' % (self.arch, 'ok  ' if ok else 'FAIL', name,
                                ': ' + detail if detail else ''))
        return ok


class Run:
    """What the judge knows of a boot: its boot record, the build record
    it names (none for a recorded log judged alone) and the arch facts the
    boot record carries.  Whether line locations (and their chains of
    inlined calls) are on is what was built (the .config), else the
    configuration's facts LINES (and INLINES)."""

    def __init__(self, boot, build):
        self.boot, self.build = boot, build
        self.facts = boot.facts
        self.arch, self.config = boot.arch, boot.config
        self.lines_on = (build.lines if build else self.facts.get('LINES', self.config)) == 'on'
        # vmlinux's frames print the chains of inlined calls: as built, else
        # as the configuration's fact INLINES says
        self.inlines_on = self.lines_on and (
            build.kconfig.get('CONFIG_KALLSYMS_LINE_INLINES') == 'y' if build
            else self.facts.get('INLINES') == 'on')
        self.console = boot.console
        self.plan = Plan(records.resolve_path(boot.plan, TOP) or None)
        b = build or records.Build(arch=boot.arch, config=boot.config)
        self.module = b.module or None
        self.variants = b.variants or None
        self.vmlinux = b.vmlinux or None
        self.image = b.image or None
        self.strip, self.src, self.obj = b.strip, b.src, b.obj
        # the kernel tree (its KTAP parser): a log judged alone reads $BUILD's
        self.src = self.src or os.path.join(os.path.realpath(
            os.environ.get('BUILD', os.path.join(TOP, 'build'))), 'src', 'linux')
        self.build_figures = b.figures
        self.qemu_rc, self.timed_out = boot.qemu_rc, boot.timed_out
        self.timeout, self.missing = boot.timeout, boot.missing
        self.seconds = boot.seconds
        self.nm, self.addr2line = cells.tool(self.facts, 'nm'), cells.tool(self.facts, 'addr2line')
        self.objdump = cells.tool(self.facts, 'objdump')
        self.thumb = bool(self.facts['THUMB'])
        self.warn_pc = self.facts['WARN_PC']
        # a recorded log judged alone (tests/judge): no artifacts to ask for
        self.console_only = False


def judge(a):
    """The checks and figures of the boot @a (a Run); its Result."""
    out = Checks(a.arch)
    try:
        lines = read(a.console)
    except OSError as e:
        lines = []
        print('[%s] cannot read console log: %s' % (a.arch, e))
    reason = boot_verdict(a, lines)
    ended = ('ended at the plan\'s BUG (BUG_PANICS)' if a.facts.get('BUG_PANICS') == 'y'
             else 'marker reached, guest restarted')
    out.check('boot', not reason, reason or ended)
    boot = 'ok' if not reason else ('timeout' if a.timed_out else 'FAIL')
    if not a.console_only:
        judge_record(out, a)

    oracle = None
    if a.module:
        try:
            oracle = ModuleOracle(a.module, a.addr2line, a.nm, a.objdump, a.thumb)
        except (OSError, subprocess.CalledProcessError) as e:
            out.check('module symbols', False, str(e))
    syms = Symbols(a.vmlinux, a.nm) if a.vmlinux else None
    triggers = a.plan.triggers()
    for name in triggers:
        judge_trigger(out, lines, name, oracle, a, syms)
    if syms and a.plan.has('writesym '):
        judge_loc(out, lines, a, syms)
    figures = {}
    if a.vmlinux and a.plan and lines:
        judge_textlocs(out, lines, a, figures)
    if lines:
        for crash in a.plan.lkdtm():
            judge_lkdtm(out, lines, crash)
        judge_kunit(out, lines, a)
        console_figures(lines, figures)
    if a.vmlinux and lines:
        if triggers:
            judge_module_frames(out, lines, a, oracle, syms, figures)
        if a.plan.has('variants /m '):
            judge_variants(out, lines, a, figures, syms)
        if a.plan.has('insmod /m/lltest-strip.ko tag=_strip'):
            judge_sources(out, lines, a, oracle, syms)
        if a.facts.get('HARDENED') == 'y':
            judge_hardened(out, lines, a, figures)
        if a.lines_on:
            if triggers or a.plan.lkdtm():
                judge_locations(out, lines, a, figures)
        else:
            loc = [l for l in lines if (m := LOCATED.search(l)) and m.group(4) != 'lltest']
            out.check('no vmlinux locations with the option off', not loc,
                      loc[0] if loc else '')
    if a.build:
        for c in a.build.checks:
            out.check(c.name, c.ok, c.detail)
        figures.update(a.build.figures)
    floor = int(a.facts.get('MIN_CHECKS') or 0)
    out.check('floor: at least %d checks judged (MIN_CHECKS)' % floor,
              len(out.checks) >= floor, '%d checks' % len(out.checks))
    return records.result(a.arch, a.config, out.checks, figures, boot=boot,
                          seconds=a.seconds + (a.build.seconds if a.build else 0),
                          reason=reason)


def stopped(build, boot):
    """The result of a configuration whose build failed or whose boot
    could not be set up: the stage's failed check after the build's."""
    if not build.ok:
        stage, reason = 'build', build.reason
    else:
        stage, reason = 'boot', boot.setup_error if boot else 'no boot record'
    print('[%s] FAIL %s: %s' % (build.arch, stage, reason))
    return records.failure(build.arch, build.config, stage, reason,
                           build.seconds + (boot.seconds if boot else 0), build.checks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('record', nargs='?', help='a boot record (boot.json) judged alone')
    ap.add_argument('--build', help='the configuration\'s build record (build.json)')
    ap.add_argument('--boot', help='its boot record (boot.json), when it was booted')
    ap.add_argument('--out', help='the result (default: result.json beside the boot record)')
    ap.add_argument('--console-only', action='store_true',
                    help='judge a recorded console log without the artifacts its plan '
                    'needs (the judge\'s self-test)')
    a = ap.parse_args()
    if bool(a.record) == bool(a.build):
        ap.error('a boot record, or --build [--boot]')
    try:
        if a.record:
            boot = records.read(records.Boot, a.record)
            build = records.read(records.Build, boot.build) if boot.build else None
            out = a.out or os.path.join(os.path.dirname(a.record), 'result.json')
        else:
            if not a.out:
                ap.error('--build takes --out')
            build = records.read(records.Build, a.build)
            boot = records.read(records.Boot, a.boot) if a.boot else None
            out = a.out
    except (OSError, records.RecordError) as e:
        print('judge.py: %s' % e, file=sys.stderr)
        if not a.out:
            return 1
        res = records.failure('?', '-', 'run', 'no record (%s)' % e)
        records.write(a.out, res)
        return 1
    if build is not None and (not build.ok or boot is None or boot.setup_error):
        res = stopped(build, boot)
    else:
        run = Run(boot, build)
        run.console_only = a.console_only
        res = judge(run)
    records.write(out, res)
    return 0 if res.green else 1


if __name__ == '__main__':
    sys.exit(main())
