#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The console grammar: how a booted kernel and our init print what the
matrix reads.  The one place that knows the shape of a frame, a trace line,
a faulting pc, a located frame, a timestamp and the init's protocol; the
judge imports it and the shell scripts call its command line.

Command line:
  console.py frame-lines [--arch ARCH] [--mask FILE] [--reliable] LOG
      the lines that print a frame or a faulting pc, timestamps, leading
      blanks and a trailing location dropped; --mask FILE replaces a frame whose function matches a
      pattern of FILE (fnmatch, one a line) by "<changed by the series: F>";
      --reliable leaves out the frames printed "? " (return addresses found
      on the stack but not on the unwound path: whatever earlier calls left
      there, so that two kernels' boots differ in them however alike)
  console.py located LOG
      the lines that end in a located frame, timestamps dropped
  console.py inline-lines LOG
      the "[inline]" lines of the chains of inlined calls, timestamps dropped
"""
import argparse
import fnmatch
import os
import re
import sys

import cell

# -- the init's protocol (qemu/init/init.c) and the test module's markers
INIT = 'lltest-init: '
SUCCESS = INIT + 'ALL DONE'
# init's replies to the plan's steps (qemu/init/init.c)
INSMOD_OK = re.compile(re.escape(INIT) + r'insmod (\S+): ok(?: in (\d+) us)?')
LOADTIME = re.compile(re.escape(INIT) + r'loadtime /m/(lltest-\w+)\.ko: (\d+) loads in (\d+) us$')
KALLSYMS_BEGIN, KALLSYMS_END = INIT + 'begin /proc/kallsyms', INIT + 'end /proc/kallsyms'
READ_KALLSYMS = re.compile(r'^lltest-init: read /proc/kallsyms: (\d+) bytes, (\d+) lines in (\d+) us')
# a module's line table refused at load: "<mod>: <section>+<offset>: ...: no line locations"
WARN_NO_LINES = re.compile(r'^(?:\[[ \d.]+\] )?lltest: (\S+)\+(0x[0-9a-f]+): .*: no line locations$')
# what no load of a module variant may print
CRASH = re.compile(r'(\bOops\b|\bBUG:|KASAN|kernel BUG|Unable to handle|Internal error)')
# lltest's at file: "lltest: at <hex> <frame>[ (<path:line>)]"; the plan's
# textlocs step writes the addresses (matrix/plan.py)
AT = re.compile(r'^lltest: at ([0-9a-f]+) ')
FIRES = re.compile(r'^lltest: (\w+) fires at (\S+):(\d+)$')

# -- the kernel's
RESTART = re.compile(r'reboot: (Restarting system|Power down)')
PANIC = re.compile(r'Kernel panic - not syncing')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
# a printk that cut in mid-line: its timestamp and what follows
INNER_TIMESTAMP = re.compile(r'\[\s*\d+\.\d+\].*$')
# sym+0xoff/0xsize [module]: how %pS, %pSb, %pB and %pBb print a frame.
FRAME = re.compile(r'([A-Za-z_.$][\w.$]*)\+0x([0-9a-f]+)/0x([0-9a-f]+)(?: \[(\w+)\])?')
# A frame with its source location: sym+0xoff/0xsize [module] (path:line)
LOCATED = re.compile(FRAME.pattern + r' \(([^()\s]+):(\d+)\)')
# any "(path:line)" at all, a frame's or not
ANY_LOCATION = re.compile(r'\(\S+:\d+\)')
# lltest's line after its init text is gone ("lltest: loc_init ...")
LOC_INIT_AFTER = re.compile(r'^lltest: loc_init ')
# lltest's loc file: "lltest: loc <frame>[ (<path:line>)]"
LOC = re.compile(r'^lltest: loc ' + FRAME.pattern)
WARNING = re.compile(r'WARNING: CPU: \d+ PID: \d+ at (\S+):(\d+) ' + FRAME.pattern)
# x86 "Oops: 0002 [#1]", arm64 "Internal error: Oops: ... [#1]", arm
# "Internal error: Oops: 805 [#1]" or, for a domain fault, "Internal error: : 81b [#1]",
# riscv "Oops [#1]" or "Oops - illegal instruction [#1]".
OOPS = re.compile(r'(\bOops: |Internal error: ).*\[#\d+\]|\bOops(?: - [^[]*)? \[#\d+\]')
# The lines of a backtrace: a frame alone (x86, arm64: "? " marks a guess;
# riscv: "[<address>] " before it), or arm's "callee [mod] from
# caller+off/size [mod]".
TRACE_LINE = re.compile(r'^\s*(?:\? )?(?:\[<[0-9a-f]+>\] )?(?:[\w.$]+(?: \[\w+\])? from )?'
                        r'(?=[A-Za-z_.$][\w.$]*\+0x)')
CALLEE = re.compile(r'^\s*(?:\? )?([\w.$]+)(?: \[\w+\])? from ')
CALL_TRACE = re.compile(r'Call [Tt]race:')
# A trace line that is nothing but frames (bisect-check compares them)
FRAME_LINE = re.compile(r'^ *(\? )?(\[<[0-9a-f]+>\] )?([A-Za-z_.][A-Za-z0-9_.]*( \[[a-z_]+\])? from )?'
                        r'[A-Za-z_.][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+( \[[a-z_]+\])?$')
# A level of inlined calls, printed before its frame (innermost first)
# with CONFIG_KALLSYMS_LINE_INLINES: "[? ]name (path:line) [inline]"
INLINE_LINE = re.compile(r'^\s*(?:\? )?([A-Za-z_.$][\w.$]*) \(([^()\s]+):(\d+)\) \[inline\]$')
# a location after a frame or a pc, " (path:line)", at the end of a line
LOC_SUFFIX = re.compile(r' \([^()\s]+:\d+\)$')
KUNIT_SUITE = 'kallsyms_line_loc'
# kernel/module/lines_test.c: the resolver and the load-time table
KUNIT_MODULE_SUITE = 'module_line_locations'
# kallsyms_test_costs; kallsyms_lookup() on the same addresses as the line
# lookup, and the ratio line lookup / kallsyms_lookup, since the KUnit
# case printed them (older logs lack the two)
COSTS = re.compile(r'kallsyms costs: lookup_name (\d+) ns, on_each_symbol walk (\d+) us, '
                   r'sprint_backtrace (\d+) ns, line lookup (\d+) ns'
                   r'(?:, kallsyms_lookup (\d+) ns, ratio (\d+\.\d+))?')
MEMORY = re.compile(r'Memory: (\d+)K/(\d+)K available \((\d+)K kernel code, (\d+)K rwdata, '
                    r'(\d+)K rodata, (\d+)K init')
# -- the hardened configuration (make matrix-hardened)
# A report of a checker: its title line (the first match wins) and what
# names it, so that two boots' reports compare.  Addresses, PIDs and
# offsets are left out of the names.
SPLATS = [
    ('kasan', re.compile(r'BUG: KASAN: ([\w-]+) in ([\w.]+)')),
    ('bug', re.compile(r'\bBUG: (.*?)(?: at \S+| in \S+)?$')),
    ('kernel-bug', re.compile(r'kernel BUG at (\S+)')),
    ('oops', OOPS),
    ('fault', re.compile(r'Unable to handle kernel ([\w ]+)')),
    ('warning', re.compile(r'WARNING: CPU: \d+ PID: \d+ at (\S+) ([\w.]+)')),
    # lockdep's and RCU-lockdep's: "WARNING: possible circular locking
    # dependency detected", "WARNING: suspicious RCU usage", ...
    ('lockdep', re.compile(r'WARNING: ([a-z][\w ]+)$')),
    ('info', re.compile(r'^INFO: (.*)')),
]
# An RCU stall under TCG says more about the host's load than the kernel:
# counted as a figure, not a splat.
RCU_STALL = re.compile(r'rcu: INFO: \S+ (?:self-)?detected stall')
KMEMLEAK_OBJECT = re.compile(r'unreferenced object 0x[0-9a-f]+ \(size (\d+)\):')
# kmemleak.verbose=1 prefixes each line with "kmemleak: "; an address may
# print hashed, as (____ptrval____)
KMEMLEAK_LINE = re.compile(r'^(?:kmemleak: )?(\s+.*)$')
KMEMLEAK_FRAME = re.compile(r'^\s*\[<[^>]+>\] (?:0x[0-9a-f]+|([\w.]+)\+0x)')
# The checkers announce themselves at boot: positive evidence they are on.
# (KASAN's banner: "KernelAddressSanitizer initialized" on x86_64 and
# arm64, "kasan: Kernel address sanitizer initialized" on arm in 6.1)
ARMED = {'KASAN': re.compile(r'Kernel ?Address ?Sanitizer initialized', re.I),
         'kmemleak': re.compile(r'kmemleak: Kernel memory leak detector initialized'),
         'lockdep': re.compile(r'Lock dependency validator: Copyright'),
         '2 CPUs': re.compile(r'smp: Brought up \d+ nodes?, 2 CPUs')}
CYCLE = re.compile(r'^lltest-init: cycle (\S+): (\d+) loads and unloads in (\d+) ms')
CYCLE_READER = re.compile(r'^lltest-init: cycle reader: (\d+) reads of /proc/kallsyms')
HOLD = re.compile(r"lltest_race: held (\w+)'s (init )?line table across "
                  r"(its unload|its init's end): (.*)")
RACE = re.compile(r'lltest_race: (\d+) lookups, (\d+) located, (\d+) loads seen, cpu (-?\d+)')

# What each LKDTM crash type must produce, whatever the arch.
# LKDTM's line as it performs a crash: what comes after it is that crash's
LKDTM_ENTRY = re.compile(r'lkdtm: Performing direct entry \w+$')
LKDTM_REPORT = {'WARNING': re.compile(r'WARNING: CPU'),
                'EXCEPTION': OOPS,
                'BUG': re.compile(r'kernel BUG at')}


def splats(lines):
    """The checkers' reports in @lines (timestamps dropped), as names
    that compare across boots: 'kind: what', and for a kmemleak object
    'kmemleak: size N: f1 < f2 < ...' (its allocation backtrace)."""
    out = []
    leak = None
    for l in lines:
        m = KMEMLEAK_OBJECT.search(l)
        if m:
            leak = ['kmemleak: size %s:' % m.group(1)]
            out.append(leak)
            continue
        body = KMEMLEAK_LINE.match(l)
        if leak is not None and body:
            f = KMEMLEAK_FRAME.match(body.group(1))
            if f:
                leak.append(f.group(1) or '?')
                continue
            if re.match(r'^\s+(comm |hex dump|backtrace:|[0-9a-f]{2} )', body.group(1)):
                continue
        leak = None
        for kind, rx in SPLATS:
            m = rx.search(l)
            if m:
                out.append('%s: %s' % (kind, ' '.join(g for g in m.groups() if g)
                                       if m.groups() else l.strip()))
                break
    return [x if isinstance(x, str) else '%s %s' % (x[0], ' < '.join(x[1:])) for x in out]


def kunit_results(lines, src):
    """The KUnit suites in @lines, parsed by the kernel tree's own KTAP
    parser (@src/tools/testing/kunit/kunit_parser.py, used from the tree,
    not copied): {suite: (status, [(case, status), ...])}, statuses by
    name (SUCCESS, FAILURE, SKIPPED, TEST_CRASHED, ...).  Raises
    ImportError without the parser."""
    import io
    kunit = os.path.join(src, 'tools', 'testing', 'kunit')
    if not os.path.exists(os.path.join(kunit, 'kunit_parser.py')):
        raise ImportError('no %s/kunit_parser.py (make prepare unpacks the tree)' % kunit)
    if kunit not in sys.path:
        sys.path.insert(0, kunit)
    import kunit_parser
    import kunit_printer
    quiet = io.StringIO()
    saved, kunit_printer.stdout._output = kunit_printer.stdout._output, quiet
    try:
        top = kunit_parser.parse_run_tests(l + '\n' for l in lines)
    finally:
        kunit_printer.stdout._output = saved
    return {s.name: (s.status.name, [(c.name, c.status.name) for c in s.subtests])
            for s in top.subtests}


def fault_pc(facts=None):
    """Where an oops report prints the faulting pc: the arch's FAULT_PC
    fact, or any arch's when @facts is None."""
    if facts is not None:
        prefixes = [facts['FAULT_PC']]
    else:
        prefixes = [cell.load_arch(a)['FAULT_PC'] for a in cell.all_arches()]
    return re.compile('(?:%s)' % '|'.join(prefixes) + FRAME.pattern)


def clean(lines):
    """Console lines without line ends and timestamps."""
    return [TIMESTAMP.sub('', l.rstrip('\r\n')) for l in lines]


def read(path):
    with open(path, errors='replace') as f:
        return clean(f.readlines())


def located(m_line, start=0):
    """path:line of the located frame at @start of @m_line, or None."""
    loc = LOCATED.match(m_line, start)
    return '%s:%s' % (loc.group(5), loc.group(6)) if loc else None


def trace_frames(lines, facts, in_entry_text):
    """The frames that lines print, in order: (line index, match, exact),
    exact for a pc looked up as is, else a return address (looked up at
    the call).  A pc is: a faulting-pc line (the arch's FAULT_PC), the
    first frame of a trace from registers where FIRST_FRAME_PC says so
    (arm64), and, where the arch prints the interrupted pc as a trace frame
    (INTERRUPTED_PC=trace: arm, arm64), the frame after exception entry
    code (in_entry_text(name) says which functions are) or after a frame
    of EXCEPTION_ENTRY (riscv 6.12: handle_exception, a return address)
    or of EXCEPTION_RETURN (riscv 6.1: ret_from_exception+0x0, an address
    the entry code plants, itself a pc).  Where a trace follows a register dump
    with no "Call Trace:" line (TRACE_AFTER_REGS: riscv), it starts after
    the faulting-pc line.  On arm a line "callee from caller" follows the
    callee."""
    fpc = fault_pc(facts)
    first_frame_pc = bool(facts['FIRST_FRAME_PC'])
    exc_return = facts.get('EXCEPTION_RETURN') or None
    exc_entry = set((facts.get('EXCEPTION_ENTRY') or '').split()) | {exc_return} - {None}
    out = []
    pc_seen = first_exact = False
    prev = None             # the function the walk was in just before
    for i, l in enumerate(lines):
        pcl = fpc.search(l)
        if pcl:
            pc_seen = True
        if CALL_TRACE.search(l):
            first_exact, pc_seen, prev = first_frame_pc and pc_seen, False, None
            continue
        if pcl:
            out.append((i, FRAME.search(l, pcl.start(1)), True))
            if facts.get('TRACE_AFTER_REGS'):
                first_exact, prev = first_frame_pc, None
            continue
        if l.startswith(INIT) or FIRES.match(l):
            # the harness speaks between traces: the next trace starts anew
            # (a saved stack prints with no "Call trace:" line before it)
            first_exact, pc_seen, prev = False, False, None
            continue
        t = TRACE_LINE.match(l)
        m = FRAME.match(l, t.end()) if t else None
        if not m:
            continue
        callee = CALLEE.match(l)
        if callee:
            prev = callee.group(1)
        exact = (first_exact or m.group(1) == exc_return or
                 (facts['INTERRUPTED_PC'] == 'trace' and prev is not None and
                  (in_entry_text(prev) or prev in exc_entry)))
        first_exact = False
        out.append((i, m, exact))
        prev = m.group(1)
    return out


def inlines_before(lines, i):
    """The levels of inlined calls printed right before line @i (a
    frame's), innermost first: (name, path:line) each."""
    out = []
    while i > 0:
        m = INLINE_LINE.match(lines[i - 1])
        if not m:
            break
        out.insert(0, (m.group(1), '%s:%s' % (m.group(2), m.group(3))))
        i -= 1
    return out


def kallsyms_listing(lines):
    """The init's print of /proc/kallsyms (without addresses), or None: a
    list of runs, each the "type name" lines of the symbols at one address
    (the init starts a line with '=' when its symbol has the address of the
    line before), in the listing's order."""
    try:
        b = lines.index(KALLSYMS_BEGIN)
        e = lines.index(KALLSYMS_END)
    except ValueError:
        return None
    runs: list = []
    for l in lines[b + 1:e]:
        l = INNER_TIMESTAMP.sub('', l)
        if l.startswith('=') and runs:
            runs[-1].append(l[1:])
        elif l:
            runs.append([l])
    return runs


def frame_lines(lines, facts=None, mask=None, reliable=False):
    fpc = fault_pc(facts)
    pats = []
    if mask:
        with open(mask) as f:
            pats = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    out = []
    for l in lines:
        # the frame, not its location: module frames carry one whenever
        # module line locations are on, whatever the vmlinux option
        l = LOC_SUFFIX.sub('', l)
        if not (FRAME_LINE.match(l) or fpc.search(l)):
            continue
        l = l.lstrip(' ')
        if reliable and l.startswith('? '):
            continue
        m = re.search(r'([A-Za-z_.][\w.]*)\+0x', l)
        name = m.group(1).split('.')[0] if m else ''
        if any(fnmatch.fnmatchcase(name, p) for p in pats):
            l = '<changed by the series: %s>' % name
        out.append(l)
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    fl = sub.add_parser('frame-lines')
    fl.add_argument('--arch')
    fl.add_argument('--mask')
    fl.add_argument('--reliable', action='store_true')
    fl.add_argument('log')
    lo = sub.add_parser('located')
    lo.add_argument('log')
    il = sub.add_parser('inline-lines')
    il.add_argument('log')
    a = ap.parse_args(argv)
    lines = read(a.log)
    if a.cmd == 'frame-lines':
        out = frame_lines(lines, cell.load_arch(a.arch) if a.arch else None, a.mask,
                          a.reliable)
    elif a.cmd == 'inline-lines':
        out = [l for l in lines if INLINE_LINE.match(l)]
    else:
        out = [l for l in lines if re.search(r'\+0x[0-9a-f]+/0x[0-9a-f]+ \([^ ()]+:[0-9]+\)$', l)]
    sys.stdout.write(''.join(l + '\n' for l in out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
