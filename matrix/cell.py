#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The arch facts, which every matrix program reads through this module.

arch-configs/common.facts layered under arch-configs/<arch>.arch (KEY=value
lines; CONFIG_ lines are the arch's kconfig fragment; KEY@CONFIGURATION=value
overrides KEY for one configuration, KEY@PREFIX*=value for every
configuration whose name starts with PREFIX, KEY@base-BASE=value for one
kernel base (BASE=, scripts/base.sh), and CONFIG_X@CONFIGURATION=v is a
fragment line of that configuration only), parsed here and nowhere else.
The records the stages write after them are matrix/records.py's.

Command line, for the shell scripts:
  cell.py arches [CONFIG]            the arch list, one line (with CONFIG:
                                     the arches that can run it)
  cell.py all-arches                 ARCHES, then ONDEMAND_ARCHES
  cell.py facts ARCH [CONFIG]        the facts as shell assignments (quoted)
  cell.py supports ARCH CONFIG       exit 0 when the arch has what CONFIG NEEDS
  cell.py common KEY                 one fact of common.facts
  cell.py field FILE KEY             one field of a record or a result
  cell.py derive IN OUT KEY=VALUE... a copy of a build or boot record with
                                     string fields or facts (facts.KEY=VALUE)
                                     replaced (tests/faults plants faults so)
  cell.py count RESULTS ARCH...      "matrix: N passed, M failed", a missing
                                     or unreadable cell counting as a failure
  cell.py reusable CELL_DIR KEY      exit 0 when the cell's green result was
                                     run on inputs of KEY and its artifacts
                                     are all there (matrix.sh, MATRIX_REUSE)
"""
import dataclasses
import json
import os
import re
import shlex
import subprocess
import sys

import records

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCH_DIR = os.environ.get('ARCH_DIR') or os.path.join(TOP, 'arch-configs')

# Facts every arch file must give, and the ones that may stay empty.
REQUIRED = ('KARCH', 'IMAGE', 'QEMU', 'QEMU_MACHINE', 'CONSOLE', 'MEMORY', 'TIMEOUT',
            'UNWINDER', 'WARN_PC', 'INTERRUPTED_PC', 'FAULT_PC')
OPTIONAL = ('CROSS_COMPILE', 'QEMU_CPU', 'LLVM_TARGET', 'THUMB', 'FIRST_FRAME_PC',
            'TRACE_AFTER_REGS', 'EXCEPTION_RETURN', 'EXCEPTION_ENTRY', 'BUG_PANICS',
            'BUILD_ONLY', 'CAPS', 'SMP', 'APPEND', 'BOOT_CONFIGS', 'ARCHES', 'AS_LINE_VERSION',
            'MODULE_DWARF', 'HARDENED_CONFIGS', 'TEST_HARDENED', 'TEST_BASES', 'TEST_ARCHES',
            'ONDEMAND_ARCHES',
            # what a boot configuration is (common.facts: KEY@CONFIG)
            'LINES', 'INLINES', 'KCONFIG', 'NEEDS', 'BOOT_PLAN', 'MODULE_VARIANTS', 'BASELINE',
            'BASELINE_CHECK', 'HARDENED',
            # what a green boot has judged at least (matrix/judge.py)
            'MIN_CHECKS', 'PRINTF_TESTS')
CHOICES = {'WARN_PC': ('trap', 'return'), 'INTERRUPTED_PC': ('regs', 'trace'),
           'THUMB': ('', 'y'), 'FIRST_FRAME_PC': ('', 'y'), 'TRACE_AFTER_REGS': ('', 'y'),
           'BUG_PANICS': ('', 'y'),
           'LINES': ('on', 'off'), 'INLINES': ('', 'on', 'off'),
           'BASELINE_CHECK': ('', 'kallsyms', 'splats'), 'HARDENED': ('', 'y')}
# What a configuration may turn on; CAPS says which an arch supports.
# host32: tests/host32/kernel.sh can build it with 32-bit host programs.
CAPABILITIES = ('kasan', 'smp', 'host32')

# the kernel base when BASE= is not given (scripts/base.sh)
DEFAULT_BASE = '6.1'


class FactsError(Exception):
    pass


def _parse(path, facts, fragment, config):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            if line.startswith('CONFIG_') and '=' in line:
                # CONFIG_X@CONFIGURATION=v: for that boot configuration only
                m = re.match(r'^(CONFIG_\w+)@([a-z0-9_.-]+\*?)(=.*)$', line)
                if not m:
                    fragment.append((0, line))
                elif _rank(m.group(2), config):
                    fragment.append((_rank(m.group(2), config),
                                     m.group(1) + m.group(3)))
                continue
            m = re.match(r'^([A-Z_]+)(?:@([a-z0-9_.-]+\*?))?=(.*)$', line)
            if not m:
                raise FactsError('%s:%d: not KEY=value: %s' % (path, n, line))
            key, only, val = m.groups()
            if key not in REQUIRED + OPTIONAL:
                raise FactsError('%s:%d: unknown fact %s' % (path, n, key))
            rank = _rank(only, config)
            if rank is not None:
                facts[(key, rank)] = val


def _rank(only, config):
    """How a KEY@ONLY line applies to @config: 0 a plain KEY (ONLY None),
    1 the kernel base (ONLY 'base-6.12' when BASE=6.12), 2 a prefix (ONLY
    'hardened*' for every configuration named hardened...), 3 the
    configuration itself; None when it does not apply."""
    if only is None:
        return 0
    if only.startswith('base-'):
        return 1 if only[5:] == (os.environ.get('BASE') or DEFAULT_BASE) else None
    if only.endswith('*'):
        return 2 if config and config.startswith(only[:-1]) else None
    return 3 if only == config else None


def arches(config=None):
    """The matrix's arches, in order: ARCHES in common.facts; with
    @config, those whose CAPS cover what the configuration NEEDS."""
    out = load_common().get('ARCHES', '').split()
    if config:
        out = [a for a in out if supports(load_arch(a, config))]
    return out


def all_arches():
    """Every arch with a cell: ARCHES, then ONDEMAND_ARCHES (a cell that
    make matrix and make test leave out, run by ARCH= or ARCHES=; the
    host tool's suite builds for every arch)."""
    c = load_common()
    return c.get('ARCHES', '').split() + c.get('ONDEMAND_ARCHES', '').split()


def supports(facts):
    """Whether the arch of @facts has every capability its configuration
    NEEDS."""
    return set(facts['NEEDS'].split()) <= set(facts['CAPS'].split())


def load_common():
    facts, fragment = {}, []
    path = os.path.join(ARCH_DIR, 'common.facts')
    if os.path.exists(path):
        _parse(path, facts, fragment, None)
    return {k: v for (k, _), v in facts.items()}


def load_arch(arch, config=None):
    """The facts of @arch for @config: common.facts, then <arch>.arch, an
    override KEY@config winning over KEY.  Returns a dict; FRAGMENT holds
    the kconfig lines."""
    path = os.path.join(ARCH_DIR, arch + '.arch')
    if not os.path.isfile(path):
        raise FactsError('no arch file %s (arches: %s)' % (path, ' '.join(arches())))
    ranks, fragment = ({}, {}, {}, {}), []
    for p in (os.path.join(ARCH_DIR, 'common.facts'), path):
        if os.path.exists(p):
            per = {}
            _parse(p, per, fragment, config)
            # plain keys of every file first (the arch's winning), then
            # KEY@base-BASE, KEY@PREFIX* and KEY@CONFIG of every file, in
            # that order: a KEY@CONFIG of common.facts wins over an arch's
            # plain KEY
            for (k, rank), v in per.items():
                ranks[rank][k] = v
    layered = {}
    for r in ranks:
        layered.update(r)
    for k in REQUIRED:
        if not layered.get(k):
            raise FactsError('%s: %s is not set' % (path, k))
    for k, allowed in CHOICES.items():
        if layered.get(k, '') not in allowed:
            raise FactsError('%s: %s=%s (one of %s)' % (path, k, layered.get(k, ''), allowed))
    for key in ('CAPS', 'NEEDS'):
        for c in layered.get(key, '').split():
            if c not in CAPABILITIES:
                raise FactsError('%s: unknown capability %s in %s' % (path, c, key))
    if layered.get('KCONFIG') and not os.path.isfile(
            os.path.join(ARCH_DIR, layered['KCONFIG'] + '.config')):
        raise FactsError('%s: KCONFIG=%s: no %s.config in %s' % (
            path, layered['KCONFIG'], layered['KCONFIG'], ARCH_DIR))
    if not layered.get('MODULE_VARIANTS', '0').isdigit():
        raise FactsError('%s: MODULE_VARIANTS=%s is not a count' % (path, layered['MODULE_VARIANTS']))
    facts = {k: layered.get(k, '') for k in REQUIRED + OPTIONAL}
    facts['ARCH_NAME'] = arch
    # kconfig lines ranked as the facts are (the merge takes the last):
    # plain lines of both files in file order, then CONFIG_X@PREFIX*, then
    # CONFIG_X@CONFIG
    lines = [line for _, line in sorted(fragment, key=lambda x: x[0])]
    facts['FRAGMENT'] = '\n'.join(lines) + ('\n' if lines else '')
    return facts


_HOST_TRIPLET: list = []


def host_triplet():
    """The GNU triplet the host's gcc makes code for (x86_64-linux-gnu on
    an amd64 host, i686-linux-gnu on an i386 one), or '' without gcc."""
    if not _HOST_TRIPLET:
        try:
            out = subprocess.run(['gcc', '-dumpmachine'], capture_output=True,
                                 text=True).stdout.strip()
        except OSError:
            out = ''
        _HOST_TRIPLET.append(out)
    return _HOST_TRIPLET[0]


def cross_prefix(facts):
    """The arch's toolchain prefix: CROSS_COMPILE; where that is empty (the
    host's own arch) and the host's gcc makes code for another triplet (an
    i386 host running the host-tool tests), LLVM_TARGET's cross tools."""
    if facts['CROSS_COMPILE'] or not facts['LLVM_TARGET']:
        return facts['CROSS_COMPILE']
    if host_triplet() in ('', facts['LLVM_TARGET']):
        return ''
    return facts['LLVM_TARGET'] + '-'


def tool(facts, name):
    """A binutils tool of the arch's toolchain: tool(f, 'nm')."""
    return cross_prefix(facts) + name


def reusable(cell_dir, key):
    """Whether the cell's result in @cell_dir may stand for a new run: it
    is green, its inputs' key (inputs.key, written by run-arch.sh after a
    green run) is @key, and every artifact its configurations' build and
    boot records name still exists (the suites after the matrix read them)."""
    try:
        with open(os.path.join(cell_dir, 'inputs.key')) as f:
            if not key or f.read().strip() != key:
                return False
    except OSError:
        return False
    if not records.read_result(os.path.join(cell_dir, 'result.json')).green:
        return False
    dirs = [os.path.join(cell_dir, d) for d in sorted(os.listdir(cell_dir))]
    boots = [os.path.join(d, 'boot.json') for d in dirs
             if os.path.isfile(os.path.join(d, 'boot.json'))]
    for path in boots:
        boot = records.read(records.Boot, path)
        build = records.read(records.Build, boot.build)
        for p in (boot.console, build.vmlinux, build.image, build.module, build.variants,
                  build.initramfs):
            if p and not os.path.exists(p):
                return False
    return bool(boots)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    try:
        if cmd == 'arches' and len(args) <= 1:
            print(' '.join(arches(*args)))
        elif cmd == 'all-arches' and not args:
            print(' '.join(all_arches()))
        elif cmd == 'common' and len(args) == 1:
            print(load_common().get(args[0], ''))
        elif cmd == 'supports' and len(args) == 2:
            return 0 if supports(load_arch(*args)) else 1
        elif cmd == 'facts' and len(args) in (1, 2):
            facts = load_arch(*args)
            for k, v in facts.items():
                print('%s=%s' % ('ARCH_FRAGMENT' if k == 'FRAGMENT' else k, shlex.quote(v)))
        elif cmd == 'field' and len(args) == 2:
            with open(args[0]) as f:
                v = json.load(f).get(args[1])
            print('' if v is None else json.dumps(v) if isinstance(v, (dict, list, bool)) else v)
        elif cmd == 'derive' and len(args) >= 2:
            with open(args[0]) as f:
                kind = records.Build if 'kernel_dir' in json.load(f) else records.Boot
            rec = records.read(kind, args[0])
            strings = [f.name for f in dataclasses.fields(rec) if f.type is str]
            for p in args[2:]:
                k, sep, v = p.partition('=')
                if sep and k.startswith('facts.') and k[6:] in getattr(rec, 'facts', {}):
                    rec.facts[k[6:]] = v
                    continue
                if not sep or k not in strings:
                    raise ValueError('derive: %r is not KEY=VALUE of a string field '
                                     'or facts.KEY=VALUE of a fact it has' % p)
                setattr(rec, k, v)
            records.write(args[1], rec)
        elif cmd == 'reusable' and len(args) == 2:
            return 0 if reusable(*args) else 1
        elif cmd == 'count' and len(args) >= 1:
            passed = failed = 0
            for a in args[1:]:
                r = records.cell_result(args[0], a)
                n = sum(c.ok for c in r.checks)
                passed += n
                failed += len(r.checks) - n
            print('matrix: %d passed, %d failed' % (passed, failed))
        else:
            print('cell.py: unknown command or wrong arguments: %s' % ' '.join(argv),
                  file=sys.stderr)
            return 2
    except (FactsError, ValueError, OSError) as e:
        print('cell.py: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
