#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test suite for hosttool/lineloc (issue 4).

Every check prints PASS/FAIL/SKIP; the last line is
"hosttool: N passed, M failed" and the exit status is non-zero if M > 0.
Oracles: llvm-symbolizer first, the target's binutils addr2line second.
"""
import errno
import io
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from elftools.elf.elffile import ELFFile
except ImportError:
    # Debian's python3-pyelftools, for a python3 that is not Debian's
    sys.path.append('/usr/lib/python3/dist-packages')
    try:
        from elftools.elf.elffile import ELFFile
    except ImportError:
        sys.exit('lltest: needs pyelftools: apt-get install python3-pyelftools '
                 '(scripts/install-deps.sh)')

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'matrix'))
sys.path.insert(0, os.path.join(TOP, 'tests'))
import cell  # noqa: E402  (the arch facts)
from result import Results  # noqa: E402
from oracles import (dwarf5_path, dwarfdump_rows, dwarfdump_units, loader_answer,  # noqa: E402
                     loader_rule, oracle_a2l, oracle_llvm)
LL = os.path.join(TOP, 'hosttool', 'lineloc')
LL32 = os.path.join(TOP, 'hosttool', 'lineloc-i686')
# the kernel build's lineloc (scripts/lineloc), built from the same files
LLK = os.path.join(TOP, 'hosttool', 'lineloc-kbuild')
LLBE = os.path.join(TOP, 'hosttool', 'lineloc-s390x')    # big-endian host
SRC = os.path.join(TOP, 'tests', 'hosttool', 'src')
# lineloc's sources and headers, one a line (also hosttool.mk's list)
HT_FILES = [l.split()[0] for l in open(os.path.join(TOP, 'hosttool', 'files')).read().split('\n')
            if l.strip() and not l.startswith('#')]
# the user tool's sources: lib/, kbuild/ less the kernel build's main(),
# and hosttool/files.tool's (hosttool/hosttool.mk builds it the same way)
HT_TOOL_SRCS = [os.path.join(TOP, 'hosttool', f) for f in
                HT_FILES + open(os.path.join(TOP, 'hosttool', 'files.tool')).read().split()
                if f.endswith('.c') and f != 'kbuild/lineloc.c']
HT_INC = [a for d in ('kbuild/include', 'include', 'lib', 'kbuild')
          for a in ('-I', os.path.join(TOP, 'hosttool', d))]
CACHE = os.path.expanduser(os.environ.get('LINELOC_CACHE', '~/.cache/lineloc'))
QUICK = os.environ.get('HT_QUICK') == '1'
FUZZ_SECONDS = os.environ.get('HT_FUZZ_SECONDS')  # set: a timed run instead
MUTANT_SEED = 5     # the default; HT_MUTANT_SEED overrides
KEEP = os.path.join(tempfile.gettempdir(), 'lineloc-bad-mutants')


_LL32_CMD = []


def ll32():
    """The command that runs lineloc-i686: itself where this kernel runs
    i386 programs (IA32 emulation), else qemu-i386-static and it (a kernel
    without it says Exec format error)."""
    if not _LL32_CMD:
        try:
            subprocess.run([LL32, '--help'], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            _LL32_CMD.extend([LL32])
        except OSError as e:
            if e.errno != errno.ENOEXEC or not shutil.which('qemu-i386-static'):
                raise
            print('  this kernel runs no i386 programs: lineloc-i686 runs '
                  'under qemu-i386-static', flush=True)
            _LL32_CMD.extend(['qemu-i386-static', LL32])
    return list(_LL32_CMD)


def built_with_zlib(binary):
    """lineloc carries its no-zlib refusal only when built without zlib."""
    with open(binary, 'rb') as f:
        return b'built without zlib' not in f.read()

RESULTS = Results('hosttool')
result = RESULTS.check
skip = RESULTS.skip


def note(msg):
    print('  ' + msg, flush=True)


def run(cmd, inp=None, cwd=None, env=None):
    p = subprocess.run(cmd, input=inp, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, cwd=cwd, env=env)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), \
        p.stderr.decode('utf-8', 'replace')


def sections(path, readelf='readelf'):
    """name -> (addr, size, flags) from readelf -SW."""
    rc, out, _ = run([readelf, '-SW', path])
    res = {}
    for m in re.finditer(r'\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+'
                         r'([0-9a-f]+)\s+[0-9a-f]+\s+([A-Za-z]*)', out):
        res.setdefault(m.group(1), (int(m.group(3), 16),
                                    int(m.group(5), 16), m.group(6)))
    return res


def lineloc_e(obj, addrs, sec=None, tool=LL, extra=('--no-strip',)):
    inp = ''.join('%x\n' % a for a in addrs).encode()
    tool = tool if isinstance(tool, list) else [tool]   # ll32() is a list
    cmd = tool + list(extra) + ['-e', obj] + (['-j', sec] if sec else [])
    rc, out, err = run(cmd, inp)
    if rc:
        return None, err.strip()
    return out.splitlines(), out


def stats(obj, tool=LL):
    rc, out, err = run([tool, '--stats', obj])
    if rc:
        return None
    return dict(l.split(': ', 1) if ': ' in l else (l.rstrip(':'), '')
                for l in out.splitlines())


def rows(obj, extra=('--no-strip',)):
    rc, out, err = run([LL] + list(extra) + ['--rows', obj])
    return (out if rc == 0 else None), err


def parse_rows(text):
    """[(path, line, addr, section or None, end)]"""
    res = []
    for l in text.splitlines():
        f = l.split(' ')
        path, _, line = f[0].rpartition(':')
        end = f[-1] == 'end'
        sec = f[2] if len(f) > 2 and f[2] != 'end' else None
        res.append((path, int(line), int(f[1], 16), sec, end))
    return res


def sample_addrs(rws, rnd, n_random, sec=None):
    """Row addresses, the byte after each, sequence ends and random points."""
    addrs = set()
    seqs = []
    start = None
    for path, line, addr, s, end in rws:
        if sec is not None and s != sec:
            continue
        if start is None:
            start = addr
        if end:
            seqs.append((start, addr))
            start = None
        else:
            addrs.add(addr)
            addrs.add(addr + 1)
    for a, b in seqs:
        addrs.add(b)
        if b > a:
            for _ in range(max(1, n_random // max(1, len(seqs)))):
                addrs.add(rnd.randrange(a, b))
    return sorted(addrs)


def compare(name, obj, addrs, oracles, ours, show=8, need='llvm'):
    """Count agreement of ours with each oracle; FAIL per @need."""
    agree = {k: 0 for k in oracles}
    only = {k: 0 for k in oracles}
    none = 0
    diffs = []
    for i, a in enumerate(addrs):
        ok = {k: v[i] == ours[i] for k, v in oracles.items()}
        for k in ok:
            agree[k] += ok[k]
        if len(ok) > 1 and sum(ok.values()) == 1:
            only[[k for k in ok if ok[k]][0]] += 1
        if not any(ok.values()):
            none += 1
        if not all(ok.values()):
            diffs.append((a, ours[i], {k: v[i] for k, v in oracles.items()}))
    n = len(addrs)
    desc = ', '.join('%s %d/%d' % (k, agree[k], n) for k in oracles)
    if len(oracles) > 1:
        desc += '; only-one-agrees: ' + ', '.join(
            '%s %d' % (k, only[k]) for k in oracles)
    if need == 'none':    # judged by the caller
        ok = True
    elif need == 'llvm':
        ok = agree.get('llvm', 0) == n
    elif need == 'all':
        ok = all(v == n for v in agree.values())
    else:   # 'any': each address agrees with at least one oracle
        ok = none == 0
    result(ok and n > 0, name, desc)
    # differences with llvm-symbolizer first
    for a, o, v in sorted(diffs, key=lambda d: d[2].get('llvm', d[1]) ==
                          d[1])[:show]:
        note('0x%x: lineloc %s | %s' % (a, o, ' | '.join(
            '%s %s' % (k, x) for k, x in v.items())))
    if len(diffs) > show:
        note('... %d more differences' % (len(diffs) - show))
    return agree, diffs


def same32(name, args, expect_err=None):
    """lineloc and lineloc-i686 print the same bytes (stdout and stderr)."""
    if not os.path.exists(LL32):
        skip(name, 'no ' + LL32)
        return
    a = subprocess.run([LL] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    b = subprocess.run(ll32() + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if expect_err and b.returncode and expect_err in b.stderr.decode() and \
            not built_with_zlib(LL32):
        result(True, name, 'i686 built without zlib: clean error')
        return
    ok = a.stdout == b.stdout and a.stderr == b.stderr and \
        a.returncode == b.returncode
    result(ok, name, '%d bytes identical' % len(a.stdout) if ok else
           'outputs differ (%d vs %d bytes)' % (len(a.stdout), len(b.stdout)))


# ---------------------------------------------------------------------------
# 1. generated objects: 4 toolchains x DWARF versions, executables and .o

# name, gcc, binutils prefix: the matrix's arches (arch-configs/)
# (on an i386 host, x86_64's is x86_64-linux-gnu-gcc: matrix/cell.py)
TOOLCHAINS = [(a, cell.tool(f, 'gcc'), cell.cross_prefix(f))
              for a, f in ((a, cell.load_arch(a)) for a in cell.arches())]
CC = {a: cc for a, cc, _ in TOOLCHAINS}
# the line-table version gas writes for plain -g where gcc does not say
AS_LINE_VERSION = {a: int(cell.load_arch(a)['AS_LINE_VERSION'])
                   for a in cell.arches() if cell.load_arch(a)['AS_LINE_VERSION']}

# name, flags, expected version (per arch where it differs), offset size
VARIANTS = [
    ('default', ['-g'], 5, AS_LINE_VERSION, 4),
    ('gdwarf-2', ['-gdwarf-2'], 3, {}, 4),
    ('as-v3', ['-gdwarf-3', '-Wa,--gdwarf-3'], 3, {}, 4),
    ('as-v4', ['-gdwarf-4', '-Wa,--gdwarf-4'], 4, {}, 4),
    ('gcc-v2', ['-gdwarf-2', '-gno-as-loc-support'], 2, {}, 4),
    ('gcc-v3', ['-gdwarf-3', '-gno-as-loc-support'], 3, {}, 4),
    ('gcc-v4', ['-gdwarf-4', '-gno-as-loc-support'], 4, {}, 4),
    ('gcc-v5', ['-gdwarf-5', '-gno-as-loc-support'], 5, {}, 4),
    ('dwarf64-v4', ['-gdwarf-4', '-gdwarf64', '-gno-as-loc-support'], 4, {}, 8),
    ('dwarf64-v5', ['-gdwarf-5', '-gdwarf64', '-gno-as-loc-support'], 5, {}, 8),
    ('zlib', ['-g', '-gz=zlib'], 5, AS_LINE_VERSION, 4),
    # .debug_aranges removed: unit ranges from the DIEs (DW_AT_ranges)
    ('no-aranges', ['-g'], 5, AS_LINE_VERSION, 4),
]

# clang-14 (x86_64): DWARF 5 units give their ranges as DW_FORM_rnglistx,
# addresses as DW_FORM_addrx (.debug_addr), and list no .debug_aranges
CLANG = ('clang', 'clang-14', '')
CLANG_VARIANTS = [
    ('default', ['-g'], 5, {}, 4),
    ('gdwarf-4', ['-gdwarf-4'], 4, {}, 4),
    ('sections-v5', ['-g', '-ffunction-sections'], 5, {}, 4),
    ('sections-v4', ['-gdwarf-4', '-ffunction-sections'], 4, {}, 4),
]
QUICK_VARIANTS = ('default', 'gcc-v2', 'dwarf64-v5', 'no-aranges',
                  'sections-v5')


# Every object the suite compiles is built from a copy of src/ inside a
# build root, with paths relative to that root, and the root mapped to
# WORK_MAP: the DWARF strings, and so every byte of the objects (and of the
# mutants made from them), are the same whatever the temporary folder and
# wherever the repository is cloned.  check_reproducible() builds each
# recipe again in another root and compares.
WORK_MAP = '/lineloc-work'
BUILDS = []     # (root, tc, cc, flags, opt, [files]) of every build()


def build_dir(tc, flags):
    return '%s-%s' % (tc, '_'.join(flags).replace('=', '').replace(',', '')
                      .replace('-', ''))


def build(root, tc, cc, flags, opt, record=True):
    root = os.path.realpath(root)
    os.makedirs(os.path.join(root, 'src'), exist_ok=True)
    for n in sorted(os.listdir(SRC)):
        dst = os.path.join(root, 'src', n)
        if not os.path.exists(dst):
            shutil.copyfile(os.path.join(SRC, n), dst)
    d = build_dir(tc, flags)
    os.makedirs(os.path.join(root, d), exist_ok=True)
    # PWD: gcc takes the compilation directory from it when it names cwd
    env = dict(os.environ, PWD=root)
    cflags = [opt] + flags + ['-ffile-prefix-map=%s=%s' % (root, WORK_MAP)]
    objs = []
    for src in ('main.c', 'other.c'):
        o = os.path.join(d, src[:-2] + '.o')
        rc, out, err = run([cc] + cflags + ['-c', 'src/' + src, '-o', o],
                           cwd=root, env=env)
        if rc:
            return None, None, err
        objs.append(o)
    exe = os.path.join(d, 'prog')
    rc, out, err = run([cc] + cflags + objs + ['-o', exe], cwd=root, env=env)
    if rc:
        rc, out, err = run([cc, '-static'] + cflags + objs + ['-o', exe],
                           cwd=root, env=env)
    if rc:
        return None, os.path.join(root, objs[1]), err
    if record:
        BUILDS.append((root, tc, cc, flags, opt, objs + [exe]))
    return os.path.join(root, exe), os.path.join(root, objs[1]), err


def check_reproducible(work):
    """Every object built so far, built again in another folder (other
    name, other length): byte for byte the same, and neither folder nor
    the clone's path appears in any of them."""
    if not BUILDS:
        return
    print('== generated inputs are reproducible (%d builds)' % len(BUILDS),
          flush=True)
    other = tempfile.mkdtemp(prefix='lineloc-other-folder-with-a-longer-'
                             'name-', dir=work)
    differ, leaks, n = [], [], 0
    needles = {os.path.realpath(TOP).encode(), os.path.realpath(work).encode(),
               os.path.realpath(other).encode()}
    for i, (root, tc, cc, flags, opt, files) in enumerate(BUILDS):
        root2 = os.path.join(other, str(i))
        build(root2, tc, cc, flags, opt, record=False)
        for f in files:
            a = open(os.path.join(root, f), 'rb').read()
            p2 = os.path.join(root2, f)
            b = open(p2, 'rb').read() if os.path.exists(p2) else None
            n += 1
            if a != b:
                differ.append(os.path.join(os.path.basename(root), f))
            for x in needles:
                if x in a:
                    leaks.append('%s in %s' % (x.decode(), f))
    result(not differ and n > 0, 'same bytes built in two folders',
           '%d files identical' % (n - len(differ)) if not differ else
           '%d of %d differ, e.g. %s' % (len(differ), n, differ[:3]))
    result(not leaks and n > 0, 'no build folder or clone path in the '
           'objects', '; '.join(leaks[:3]))
    shutil.rmtree(other, ignore_errors=True)


def test_generated(work, rnd):
    print('== generated objects: %d toolchains x %d variants, clang x %d' %
          (len(TOOLCHAINS), len(VARIANTS), len(CLANG_VARIANTS)), flush=True)
    total = {'exe_llvm': [0, 0], 'exe_a2l': [0, 0], 'rel_any': [0, 0],
             'outside_cu': [0, 0]}
    for (tc, cc, pre), variants in [(t, VARIANTS) for t in TOOLCHAINS] + \
            [(CLANG, CLANG_VARIANTS)]:
        if not shutil.which(cc):
            skip(tc, 'no ' + cc)
            continue
        a2l = pre + 'addr2line'
        for vname, flags, ver, arch_ver, osz in variants:
            if QUICK and vname not in QUICK_VARIANTS:
                continue
            want_ver = arch_ver.get(tc, ver)
            opt = '-O2'
            exe, obj, err = build(os.path.join(work, 'gen'), tc, cc, flags,
                                  opt)
            name = '%s %s' % (tc, vname)
            if not exe:
                result(False, name + ' build', err.strip()[:200])
                continue
            if vname == 'no-aranges':
                rc, out, err = run([pre + 'objcopy', '-R', '.debug_aranges',
                                    exe, exe + '-noar'])
                exe += '-noar'
                st = stats(exe)
                result(rc == 0 and st and
                       st.get('info_units_ranges_aranges') == '0' and
                       st.get('info_units_ranges_die') == '2',
                       name + ': unit ranges from the DIEs', err.strip())
            for kind, f in (('exe', exe), ('.o', obj)):
                st = stats(f)
                if st is None:
                    result(False, '%s %s stats' % (name, kind),
                           run([LL, '--stats', f])[2].strip())
                    continue
                result(st.get('versions') == str(want_ver) and
                       st.get('offset_sizes') == str(osz),
                       '%s %s version/offset size read back' % (name, kind),
                       'version %s (want %d), offset size %s (want %d)' %
                       (st.get('versions'), want_ver, st.get('offset_sizes'),
                        osz))
                # every row of the line programs, as llvm-dwarfdump prints
                text, err = rows(f, ('--no-strip', '--all-rows'))
                if text is None:
                    result(False, '%s %s rows' % (name, kind), err.strip())
                    continue
                rws = parse_rows(text)
                if kind == 'exe':
                    check_dwarfdump('%s exe' % name, f, rws)
                    # sampled from every sequence, also past unit ranges
                    addrs = sample_addrs(rws, rnd, 200)
                    ours, _ = lineloc_e(f, addrs)
                    orc = {'llvm': oracle_llvm(f, addrs),
                           'addr2line': oracle_a2l(a2l, f, addrs)}
                    orc = {k: v for k, v in orc.items() if v is not None}
                    ag, _ = compare('%s exe vs oracles' % name, f, addrs,
                                    orc, ours, need='llvm')
                    total['exe_llvm'][0] += ag.get('llvm', 0)
                    total['exe_llvm'][1] += len(addrs)
                    total['exe_a2l'][0] += ag.get('addr2line', 0)
                    total['exe_a2l'][1] += len(addrs)
                    # gas writes the .subsection 1 code of other.c into
                    # the .text sequence; gcc's own tables and clang's
                    # unit ranges leave none outside
                    n = check_outside_cu('%s exe' % name, f, addrs,
                                         orc.get('llvm'), need=tc != 'clang'
                                         and '-gno-as-loc-support' not in
                                         flags)
                    total['outside_cu'][0] += n
                    total['outside_cu'][1] += 1 if n else 0
                    same32('%s exe i686 == x86_64 (--all-rows --rows)' %
                           name, ['--no-strip', '--all-rows', '--rows', f],
                           expect_err='without zlib')
                else:
                    check_rel(name + ' .o', f, rws, a2l, rnd, total)
                same32('%s %s i686 == x86_64 (--rows)' % (name, kind),
                       ['--no-strip', '--rows', f], expect_err='without zlib')
                same32('%s %s i686 == x86_64 (--stats)' % (name, kind),
                       ['--stats', f], expect_err='without zlib')
    for k, (a, n) in total.items():
        if k == 'outside_cu':
            note('total: %d addresses outside every unit\'s ranges but '
                 'inside a sequence, in %d executables: lineloc ??:0 on all'
                 % (a, n))
        else:
            note('total %s: %d/%d agree' % (k, a, n))


def seq_spans(f, extra):
    """Merged [start, end) stretches that lineloc's sequences cover."""
    rc, out, err = run([LL, '--no-strip'] + list(extra) + ['--rows', f])
    spans, start = [], None
    for l in out.splitlines():
        fl = l.split(' ')
        a = int(fl[1], 16)
        if start is None:
            start = a
        if fl[-1] == 'end':
            if a > start:
                spans.append((start, a))
            start = None
    spans.sort()
    merged = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def span_minus(A, B):
    """The parts of merged spans @A outside merged spans @B."""
    res, j = [], 0
    for a, b in A:
        cur = a
        while j < len(B) and B[j][1] <= cur:
            j += 1
        k = j
        while k < len(B) and B[k][0] < b:
            if B[k][0] > cur:
                res.append((cur, B[k][0]))
            cur = max(cur, B[k][1])
            k += 1
        if cur < b:
            res.append((cur, b))
    return res


def check_outside_cu(name, f, addrs, llvm=None, need=True):
    """Addresses inside a line-table sequence but outside every unit's
    ranges: found with the oracle (llvm-symbolizer answers ?? while
    lineloc --all-rows answers, the positive control that a sequence
    covers them); lineloc must answer ??:0 there.  Probed: @addrs (@llvm:
    the oracle's answers, if known) and the first, middle and last byte of
    every stretch that --all-rows covers and the clipped rows do not; at
    those the oracle must answer ?? too.  Returns the count found."""
    allspans = seq_spans(f, ('--all-rows',))
    gone = span_minus(allspans, seq_spans(f, ()))
    cut = sorted({x for a, b in gone for x in (a, (a + b) // 2, b - 1)})
    probe = sorted(set(addrs) | set(cut))
    known = dict(zip(addrs, llvm)) if llvm else {}
    ask = [a for a in probe if a not in known]
    if ask:
        known.update(zip(ask, oracle_llvm(f, ask) or []))
    ours, _ = lineloc_e(f, probe)
    raw, _ = lineloc_e(f, probe, extra=('--no-strip', '--all-rows'))
    if ours is None or raw is None or len(known) != len(probe):
        return result(False, '%s: outside unit ranges' % name,
                      'lineloc or llvm-symbolizer failed') and 0
    found = [(a, o, r) for a, o, r in zip(probe, ours, raw)
             if known[a] == '??:0' and r != '??:0']
    bad = [(a, o) for a, o, r in found if o != '??:0']
    cutbad = [a for a in cut if known[a] != '??:0']
    ok = not bad and not cutbad and (found or not need)
    result(ok, '%s: ??:0 inside a sequence but outside every unit\'s ranges'
           % name, '%d such of %d probed (llvm ??, --all-rows answers), '
           'lineloc ??:0 on %d; %d stretches (%d bytes) clipped, llvm ?? at '
           '%d/%d of their probes' %
           (len(found), len(probe), len(found) - len(bad), len(gone),
            sum(b - a for a, b in gone), len(cut) - len(cutbad), len(cut)))
    for a, o in bad[:5]:
        note('0x%x: lineloc %s, llvm ??' % (a, o))
    for a in cutbad[:5]:
        note('0x%x: clipped, but llvm answers %s' % (a, known[a]))
    return len(found)


def iter_rows(f):
    p = subprocess.Popen([LL, '--no-strip', '--all-rows', '--rows', f],
                         stdout=subprocess.PIPE, universal_newlines=True,
                         bufsize=1 << 20)
    for l in p.stdout:
        fl = l.split(' ')
        path, _, line = fl[0].rpartition(':')
        yield (path, int(line), int(fl[1], 16), None,
               fl[-1].rstrip() == 'end')
    p.wait()


def check_dwarfdump(name, f, rws=None):
    """Every row of lineloc --rows against llvm-dwarfdump's decoding."""
    bad = []
    nd = no = 0
    norm = {}
    ours = iter(rws) if rws is not None else iter_rows(f)
    for d in dwarfdump_rows(f):
        nd += 1
        o = next(ours, None)
        if o is None:
            continue
        no += 1
        path, line, addr, end, exact = d
        p = norm.get(o[0])
        if p is None:
            p = norm[o[0]] = o[0] if o[0] == '??' else os.path.normpath(o[0])
        same_path = p == path if exact else (p == path or
                                             p.endswith('/' + path))
        if not (same_path and o[1] == line and o[2] == addr and o[4] == end):
            bad.append((nd - 1, o, d))
    no += sum(1 for _ in ours)
    ok = not bad and no == nd and nd > 0
    result(ok, name + ' rows vs llvm-dwarfdump', '%d/%d rows identical%s' %
           (min(no, nd) - len(bad), nd,
            '' if no == nd else ' (lineloc %d rows)' % no))
    for i, o, d in bad[:5]:
        note('row %d: lineloc %s:%d 0x%x%s | llvm-dwarfdump %s:%d 0x%x%s' %
             (i, o[0], o[1], o[2], ' end' if o[4] else '', d[0], d[1], d[2],
              ' end' if d[3] else ''))
    return ok


def via_module(f, addrs, sec=None):
    """Answers through the table the kernel's module loader would build
    (lineloc --via-table on a relocatable object), or None."""
    inp = ''.join('%x\n' % a for a in addrs).encode()
    rc, out, err = run([LL, '--via-table', '-e', f] + (['-j', sec] if sec else []), inp)
    return (out.splitlines(), '') if rc == 0 else (None, err.strip())


def check_via_module(name, f, sec, addrs, ours):
    """The module loader's table answers as lineloc -e does, whole paths
    by the loader's rule (loader_rule): @ours is lineloc -e --no-strip,
    which check_rel compares, whole paths, with addr2line and
    llvm-symbolizer at each address.  Not by file name: a DWARF 5 path
    whose compilation directory is not joined, or a directory dropped,
    fails."""
    via, err = via_module(f, addrs, sec)
    if via is None and 'compressed section' in err:
        # the loader does not inflate SHF_COMPRESSED: a clean refusal, only
        # where .debug_line really is compressed
        rc, out, _ = run(['readelf', '-SW', f])
        m = re.search(r'\] \.debug_line\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+([A-Z]*)\s+\d', out)
        comp = bool(m) and 'C' in m.group(1)
        return result(comp, '%s: --via-table refuses a compressed .debug_line, as the loader'
                      % name, err[-120:])
    if via is None or len(via) != len(ours):
        return result(False, '%s: --via-table (module loader)' % name, err[-200:])
    rule, roots = loader_rule(f)
    want = [loader_answer(rule, x) for x in ours]
    bad = [(hex(a), x, y) for a, x, y in zip(addrs, via, want) if x != y]
    rel = sum(1 for x in want if x != '??:0' and not x.startswith('/'))
    result(not bad, '%s: --via-table (module loader) == -e, whole paths by '
           'the loader\'s rule' % name,
           '%d addresses (%d relative, %d absolute), roots %s%s' % (
               len(addrs), rel, sum(1 for x in want if x.startswith('/')),
               roots or 'none', '; differ (via, want): %s' % bad[:3] if bad else ''))


def check_rel(name, f, rws, a2l, rnd, total=None, n_random=100):
    """Relocatable object: llvm-symbolizer for .text offsets, addr2line -j
    for every section.  An address where neither agrees must be explained
    by a known oracle fault, with lineloc's rows matching llvm-dwarfdump."""
    rows_ok = check_dwarfdump(name, f, rws)
    secs = sorted({r[3] for r in rws if r[3]})
    if not secs:
        return result(False, name, 'no sections in --rows output')
    for sec in secs:
        addrs = sample_addrs(rws, rnd, n_random, sec)
        ours, _ = lineloc_e(f, addrs, sec)
        if ours is None:
            result(False, '%s %s' % (name, sec), 'lineloc failed')
            continue
        check_via_module('%s %s' % (name, sec), f, sec, addrs, ours)
        ends = [r[2] for r in rws if r[3] == sec and r[4]]
        last_end = max(ends) if ends else 0
        spans, start = [], None
        for r in rws:
            if r[3] != sec:
                continue
            start = r[2] if start is None else start
            if r[4]:
                spans.append((start, r[2]))
                start = None
        covered = lambda a: any(x <= a < y for x, y in spans)
        orc = {}
        if sec == '.text':
            orc['llvm'] = oracle_llvm(f, addrs)
        orc['addr2line'] = oracle_a2l(a2l, f, addrs, sec)
        orc = {k: v for k, v in orc.items() if v is not None}
        if 'addr2line' not in orc:      # a failed oracle is a failure, not a crash
            result(False, '%s %s' % (name, sec),
                   '%s -e %s -j %s failed or answered a line short' % (a2l, f, sec))
            continue
        agree = {k: 0 for k in orc}
        only = {k: 0 for k in orc}
        why = {}
        unexplained = []
        for i, a in enumerate(addrs):
            ok = {k: v[i] == ours[i] for k, v in orc.items()}
            for k in ok:
                agree[k] += ok[k]
            if len(ok) > 1 and sum(ok.values()) == 1:
                only[[k for k in ok if ok[k]][0]] += 1
            if any(ok.values()):
                continue
            ll = orc.get('llvm', [None] * len(addrs))[i]
            al = orc['addr2line'][i]
            line_of = lambda x: x.rsplit(':', 1)[-1]
            if ours[i] == '??:0' and a >= last_end and ll not in (None, '??:0'):
                k = ('llvm answers past the end of %s\'s line table (from '
                     'another section at the same offset)' % sec)
            elif al != '??:0' and ours[i] != '??:0' and \
                    line_of(al) == line_of(ours[i]) and rows_ok:
                k = ('addr2line: same row and line, other file name (its '
                     'DWARF 5 file table reading); llvm %s' %
                     ('??' if ll == '??:0' else 'n/a' if ll is None else ll))
            elif ours[i] == '??:0' and al.endswith(':0') and \
                    ll in (None, '??:0') and not covered(a) and rows_ok:
                k = ('no sequence covers it: addr2line names the unit with '
                     'line 0')
            elif ours[i] != '??:0' and al == '??:0' and \
                    ll in (None, '??:0') and rows_ok:
                k = ('both oracles ??, address inside a line-table sequence '
                     '(rows match llvm-dwarfdump)')
            else:
                unexplained.append((a, ours[i], ll, al))
                continue
            why.setdefault(k, []).append((a, ours[i], ll, al))
        desc = ', '.join('%s %d/%d' % (k, agree[k], len(addrs)) for k in orc)
        if len(orc) > 1:
            desc += '; only llvm %d, only addr2line %d' % (
                only.get('llvm', 0), only.get('addr2line', 0))
        desc += '; explained %d, unexplained %d' % (
            sum(len(x) for x in why.values()), len(unexplained))
        result(not unexplained and rows_ok, '%s %s (-j)' % (name, sec), desc)
        for k, l in why.items():
            note('%d x %s' % (len(l), k))
            a, o, ll, al = l[0]
            note('    e.g. 0x%x: lineloc %s, llvm %s, addr2line %s' %
                 (a, o, ll, al))
        for a, o, ll, al in unexplained[:8]:
            note('UNEXPLAINED 0x%x: lineloc %s, llvm %s, addr2line %s' %
                 (a, o, ll, al))
        if total is not None:
            total['rel_any'][0] += len(addrs) - len(unexplained)
            total['rel_any'][1] += len(addrs)


def test_synth(work):
    import synth
    print('== hand-assembled line programs, ELF32/64 x little/big-endian',
          flush=True)
    outs = {}
    for fl in synth.FLAVOURS:
        hand, oracle = synth.build(fl)
        fh = os.path.join(work, 'synth-%s-hand' % fl[0])
        fo = os.path.join(work, 'synth-%s-oracle' % fl[0])
        open(fh, 'wb').write(hand)
        open(fo, 'wb').write(oracle)
        text, err = rows(fh)
        want = synth.EXPECT_V2 + synth.EXPECT_VLIW
        got = text.splitlines() if text is not None else [err.strip()]
        result(got == want, '%s: v2 opcode_base 10, define_file, unknown '
               'extended opcode, v4 max_ops 3: rows as expected' % fl[0],
               '' if got == want else 'got %r' % got)
        addrs = sorted(synth.LOOKUP_V2)
        ours, _ = lineloc_e(fh, addrs)
        exp = [synth.LOOKUP_V2[a] for a in addrs]
        result(ours == exp, '%s: lookups' % fl[0],
               '' if ours == exp else 'got %r want %r' % (ours, exp))
        st = stats(fo)
        result(st and st.get('versions') == '3,5' and
               st.get('offset_sizes') == '4,8',
               '%s: v3 opcode_base 14 + v5 all forms + v5 64-bit DWARF: '
               'versions/offset sizes' % fl[0],
               st and '%s / %s' % (st.get('versions'), st.get('offset_sizes')))
        check_dwarfdump('%s: v3/v5 forms' % fl[0], fo)
        same32('%s i686 == x86_64' % fl[0], ['--rows', fo])
        outs[fl[0]] = (run([LL, '--rows', fh])[1], run([LL, '--rows', fo])[1])
    result(len(set(outs.values())) == 1,
           'same rows whatever the ELF class and byte order')
    # Rows clipped to the address ranges of their units.
    for fl in synth.FLAVOURS:
        for low_form in ('addrx', 'addrx1'):
            f = os.path.join(work, 'synth-clip-%s-%s' % (fl[0], low_form))
            open(f, 'wb').write(synth.build_clip(fl, low_form))
            name = '%s clip (low_pc %s)' % (fl[0], low_form)
            text, err = rows(f)
            got = text.splitlines() if text is not None else [err.strip()]
            result(got == synth.EXPECT_CLIP, '%s: rows cut to unit ranges '
                   '(rnglistx, every DW_RLE_*, .debug_ranges base selection, '
                   'aranges over the DIE, a table without unit, out-of-order '
                   'rows)' % name, '' if got == synth.EXPECT_CLIP else
                   'got %r' % got)
            st = stats(f) or {}
            diff = {k: (st.get(k), v) for k, v in
                    synth.EXPECT_CLIP_STATS.items() if st.get(k) != v}
            result(not diff, '%s: --stats counts' % name,
                   'got/want %r' % diff if diff else '')
            same32('%s: i686 == x86_64 (--rows)' % name, ['--rows', f])
            same32('%s: i686 == x86_64 (--stats)' % name, ['--stats', f])
            if low_form != 'addrx':
                continue    # llvm-symbolizer 14 ignores an addrx1 low_pc
            check_dwarfdump('%s: --all-rows' % name, f)
            lo, hi = synth.CLIP_UNSORTED
            grid = sorted({x for a in range(0xff0, 0x6040, 8)
                           for x in (a, a - 1) if not lo <= x <= hi})
            ours, _ = lineloc_e(f, grid)
            llvm = oracle_llvm(f, grid)
            compare('%s: %d addresses vs llvm-symbolizer' % (name, len(grid)),
                    f, grid, {'llvm': llvm}, ours, show=5)
            check_outside_cu(name, f, grid, llvm)
    # Addresses above 4 GiB (a kernel's): the i686 build keeps all 64 bits.
    for fl in synth.FLAVOURS:
        if not fl[1]:
            continue
        f = os.path.join(work, 'synth-high-%s' % fl[0])
        open(f, 'wb').write(synth.elf(fl, [('.debug_line',
                                            synth.prog_high(fl[2]))]))
        text, err = rows(f)
        got = text.splitlines() if text is not None else [err.strip()]
        result(got == synth.EXPECT_HIGH, '%s: rows above 4 GiB' % fl[0],
               '' if got == synth.EXPECT_HIGH else 'got %r' % got)
        addrs = sorted(synth.LOOKUP_HIGH)
        exp = [synth.LOOKUP_HIGH[a] for a in addrs]
        ours, _ = lineloc_e(f, addrs)
        result(ours == exp, '%s: lookups above 4 GiB' % fl[0],
               '' if ours == exp else 'got %r want %r' % (ours, exp))
        same32('%s: above 4 GiB: i686 == x86_64 (--rows)' % fl[0],
               ['--rows', f])
        if os.path.exists(LL32):
            o32, _ = lineloc_e(f, addrs, tool=ll32())
            result(o32 == exp, '%s: above 4 GiB: i686 lookups' % fl[0],
                   '' if o32 == exp else 'got %r want %r' % (o32, exp))
    # Large-file safety: .debug_line beyond 4 GiB in a sparse ELF64 file.
    fl = synth.FLAVOURS[1]
    far = os.path.join(work, 'synth-far')
    synth.write_far(far, fl, [('.debug_line', synth.prog_v2('>', 8))],
                    0x123456000)
    text, err = rows(far)
    result(text is not None and text.splitlines() == synth.EXPECT_V2,
           'section at file offset 0x123456040 (sparse 4.5 GiB file)',
           err.strip())
    same32('i686 reads past 4 GiB too', ['--rows', far])
    os.unlink(far)


# ---------------------------------------------------------------------------
# 2. command-line behaviour: -o, stdin, coprocess, errors

def elf_file(data):
    """pyelftools' reader of the ELF file in @data (either class and byte
    order)."""
    return ELFFile(io.BytesIO(data))


def elf_sections(data):
    """Section headers: name -> [sh_name, sh_type, sh_offset, sh_size,
    sh_link, sh_info, header offset], sh_type as pyelftools names it
    ('SHT_RELA')."""
    elf = elf_file(data)
    shoff, shentsize = elf.header['e_shoff'], elf.header['e_shentsize']
    res = {}
    for i, sec in enumerate(elf.iter_sections()):
        h = sec.header
        res[sec.name] = [h['sh_name'], h['sh_type'], h['sh_offset'],
                         h['sh_size'], h['sh_link'], h['sh_info'],
                         shoff + i * shentsize]
    return elf.elfclass == 64, res


KERNEL_HELPERS = {'__aeabi_uidiv', '__aeabi_idiv', '__aeabi_uidivmod',
                  '__aeabi_idivmod'}   # arch/arm/lib/lib1funcs.S


def test_freestanding(work):
    """dwarf_line.c builds as kernel code: no libc headers, no symbols but
    what every kernel has (32-bit divisions on arm)."""
    print('== dwarf_line.c freestanding, as in the kernel', flush=True)
    for tc, cc, pre in TOOLCHAINS:
        if not shutil.which(cc):
            skip('freestanding ' + tc, 'no ' + cc)
            continue
        o = os.path.join(work, 'kstub-%s.o' % tc)
        rc, out, err = run([cc, '-std=gnu11', '-O2', '-ffreestanding',
                            '-nostdinc', '-fno-builtin', '-fno-pic',
                            '-D__KERNEL__', '-I',
                            os.path.join(TOP, 'tests', 'hosttool', 'kstub'),
                            '-I', os.path.join(TOP, 'hosttool', 'include'),
                            '-Wall', '-Wextra', '-Werror', '-c',
                            os.path.join(TOP, 'hosttool', 'lib', 'dwarf_line.c'),
                            '-o', o])
        und = set()
        if rc == 0:
            rc, out, err = run([pre + 'nm', '-u', o])
            und = {l.split()[-1] for l in out.splitlines() if l.strip()}
        extra = und - KERNEL_HELPERS
        result(rc == 0 and not extra, 'dwarf_line.c freestanding for %s' % tc,
               err.strip()[:300] if rc else 'undefined: %s' %
               (' '.join(sorted(und)) or 'none'))


def test_cli(work, rnd):
    print('== command line, errors, atomic -o', flush=True)
    d = os.path.join(work, 'cli')
    os.makedirs(d, exist_ok=True)
    exe, obj, err = build(d, 'x86_64', CC['x86_64'], ['-g'], '-O1')
    exe4, obj4, err4 = build(d + '4', 'x86_64', CC['x86_64'],
                             ['-gdwarf-4', '-gno-as-loc-support'], '-O1')
    exez, objz, errz = build(d + 'z', 'x86_64', CC['x86_64'], ['-g', '-gz=zlib'],
                             '-O1')
    if not exe or not exe4 or not objz:
        return result(False, 'cli build', err + err4 + errz)

    # -o writes exactly what stdout gets, atomically
    o = os.path.join(d, 'rows.txt')
    rc, out, err = run([LL, '--rows', exe])
    rc2, out2, err2 = run([LL, '-o', o, '--rows', exe])
    result(rc == 0 and rc2 == 0 and open(o).read() == out and out,
           '-o output equals stdout')
    result(oct(os.stat(o).st_mode & 0o777) != '0o600',
           '-o file gets normal permissions, not mkstemp 0600')

    # stdin, hex with and without 0x, garbage, and flushing per line
    text, _ = rows(exe)
    rws = parse_rows(text)
    a = rws[2][2]
    rc, out, err = run([LL, '--no-strip', '-e', exe],
                       ('%x\n0x%x\nnot-hex\n0\n' % (a, a)).encode())
    ans = out.splitlines()
    result(rc == 0 and len(ans) == 4 and ans[0] == ans[1] and
           ans[0] != '??:0' and ans[2] == '??:0' and ans[3] == '??:0',
           'stdin addresses, with/without 0x, bad and unknown ones', repr(ans))
    p = subprocess.Popen([LL, '-e', exe], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    got = []
    for x in (a, a + 1):
        p.stdin.write(b'%x\n' % x)
        p.stdin.flush()
        got.append(p.stdout.readline().decode().strip())  # blocks if unflushed
    p.stdin.close()
    p.wait(timeout=10)
    result(len(got) == 2 and all(got), 'coprocess: one answer per line, '
           'flushed', repr(got))

    # kernel-style path stripping: --strip and default
    rc, out, err = run([LL, '--strip', WORK_MAP + '/src', '-e', exe,
                        '%x' % a])
    result(rc == 0 and re.match(r'(main\.c|other\.c|helper\.h):[1-9]\d*$',
                                out.strip()),
           '--strip PREFIX gives source-relative paths', out.strip())

    # bad inputs: one line naming file, section and offset; no -o file
    data = open(obj, 'rb').read()
    data4 = open(obj4, 'rb').read()
    is64, sh = elf_sections(data)
    _, sh4 = elf_sections(data4)
    dl = sh['.debug_line'][2]
    dl4 = sh4['.debug_line'][2]

    def patched(base, edits, trunc=None):
        b = bytearray(base)
        for off, val in edits:
            b[off:off + len(val)] = val
        return bytes(b[:trunc] if trunc else b)

    rela = sh['.rela.debug_line']
    q = lambda v: struct.pack('<Q', v)
    shsz = 32       # sh_size in an ELF64 section header
    eh = elf_file(data).header
    shstr = [h for h in sh.values() if h[1] == 'SHT_STRTAB' and h[6] ==
             eh['e_shoff'] + 64 * eh['e_shstrndx']][0]
    dataz = open(objz, 'rb').read()
    _, shz = elf_sections(dataz)
    cases = [
        ('empty file', b'', 'not an ELF file'),
        ('not ELF', b'hello world, this is not an ELF file at all.....'
         b'.......', 'not an ELF file'),
        ('truncated file', patched(data, [], trunc=len(data) * 2 // 3),
         'past the end of the file'),
        ('unit length past end', patched(data, [(dl, b'\xf0\xff\xff\x7f')]),
         '.debug_line+0x0: unit length past the end'),
        ('bad version', patched(data, [(dl + 4, b'\x09\x00')]),
         '.debug_line+0x4: unsupported line table version (0x9)'),
        ('line_range 0', patched(data, [(dl + 16, b'\x00')]),
         '.debug_line+0x10: line_range is 0'),
        ('opcode_base 0', patched(data, [(dl + 17, b'\x00')]),
         '.debug_line+0x11: opcode_base is 0'),
        ('unknown form', patched(data, [(dl + 32, b'\x7f')]),
         'unsupported form in entry format (0x7f)'),
        ('header_length past unit', patched(data4, [(dl4 + 6, b'\xff\xff\x00\x00')]),
         '.debug_line+0x6: header_length past the end'),
        ('relocation outside its section',
         patched(data, [(rela[2], struct.pack('<Q', 0x7ffff0))]),
         '.rela.debug_line+0x0: relocation at 0x7ffff0 is outside .debug_line'),
        ('unknown relocation type',
         patched(data, [(rela[2] + 8, struct.pack('<I', 0x7e))]),
         'unsupported relocation type 126'),
        # sizes from the file, bounded before anything is allocated
        ('.shstrtab size past the file',
         patched(data, [(shstr[6] + shsz, q(0x7f000000000000e2))]),
         'section name table (section header %d at 0x%x): sh_offset 0x%x + '
         'sh_size 0x7f000000000000e2 is past the end of the file (0x%x)' %
         ((shstr[6] - eh['e_shoff']) // 64,
          shstr[6], shstr[2], len(data))),
        ('.shstrtab size past 4 GiB',
         patched(data, [(shstr[6] + shsz, q((1 << 32) | shstr[3]))]),
         'sh_size 0x1%08x is past the end of the file' % shstr[3]),
        ('.debug_line size past the file',
         patched(data, [(sh['.debug_line'][6] + shsz, q(1 << 40))]),
         '.debug_line (section header'),
        ('.symtab size past the file',
         patched(data, [(sh['.symtab'][6] + shsz, q(0x7f00000000000018))]),
         '.symtab (section header'),
        ('e_shnum past the file', patched(data, [(60, b'\x00\xff')]),
         '65280 section headers (e_shnum) of 64 bytes at 0x'),
        ('section count in section 0 past the file',
         patched(data, [(60, b'\x00\x00'),
                        (eh['e_shoff'] + shsz,
                         q(1 << 32))]),
         '4294967296 section headers (sh_size of section header 0)'),
        ('e_shoff past the file',
         patched(data, [(40, q(0x7f00000000000000))]),
         'section header 0 (e_shoff) at 0x7f00000000000000 (0x40 bytes) is '
         'past the end of the file'),
        ('compressed ch_size impossible',
         patched(dataz, [(shz['.debug_line'][2] + 8,
                          q(0x7f000000000000e3))]),
         '.debug_line+0x8: ch_size 0x7f000000000000e3 is impossible for'),
        ('relocation symbol index past .symtab',
         patched(data, [(rela[2] + 12, struct.pack('<I', 0x7fffffff))]),
         '.rela.debug_line+0x0: bad symbol index 2147483647'),
    ]
    for cname, blob, want in cases:
        f = os.path.join(d, 'bad-' + cname.replace(' ', '_'))
        open(f, 'wb').write(blob)
        out_path = os.path.join(d, 'out-' + cname.replace(' ', '_'))
        okall = True
        detail = ''
        for mode in (['--rows'], ['--stats'], ['-e']):
            args = ['-o', out_path] + mode + [f] + (['0'] if mode == ['-e']
                                                    else [])
            p = subprocess.run([LL] + args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            e = p.stderr.decode()
            lines = e.splitlines()
            good = (p.returncode == 1 and len(lines) == 1 and
                    lines[0].startswith('lineloc: %s: ' % f) and want in e and
                    not os.path.exists(out_path) and
                    not [x for x in os.listdir(d)
                         if x.startswith(os.path.basename(out_path))])
            if not good:
                okall = False
                detail = 'rc %d: %r' % (p.returncode, e.strip())
            else:
                detail = lines[0]
        result(okall, 'bad input: ' + cname, detail)
        same32('bad input i686: ' + cname, ['--rows', f])

    # error after output began on stdout: rows, then the error line, rc 1
    two = open(exe4, 'rb').read()
    _, she = elf_sections(two)
    dle, dlsize = she['.debug_line'][2], she['.debug_line'][3]
    first_len = struct.unpack_from('<I', two, dle)[0]
    second = dle + 4 + first_len
    hlen = struct.unpack_from('<I', two, second + 6)[0]
    prog = second + 10 + hlen
    if second + 6 < dle + dlsize and two[prog] == 0:
        # the second unit's first opcode: extended, length made 0
        f = os.path.join(d, 'bad-second-unit')
        open(f, 'wb').write(patched(two, [(prog + 1, b'\x00')]))
        p = subprocess.run([LL, '--rows', f], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        e = p.stderr.decode().splitlines()
        result(p.returncode == 1 and p.stdout and len(e) == 1 and
               'extended opcode with length 0' in e[0],
               'error after output began: rows, one error line, exit 1',
               '%d bytes out, %r' % (len(p.stdout), e))
    else:
        result(False, 'error after output began', 'no second unit to break')


def mutant_seed():
    """HT_MUTANT_SEED: a number replays that run, 'random' picks one."""
    v = os.environ.get('HT_MUTANT_SEED', str(MUTANT_SEED))
    if v == 'random':
        return random.SystemRandom().randrange(1 << 32)
    return int(v, 0)


def elf_fields(data):
    """(label, offset, width) of the sizes, offsets, counts and indexes
    lineloc's ELF reader takes from @data: the ELF header's, those of
    section 0 and of every section lineloc reads, compression headers, and
    the first relocations of each relocation section.  The headers are read
    by pyelftools; the offsets and widths of their fields are what the
    mutants overwrite."""
    elf = elf_file(data)
    order = '<' if elf.little_endian else '>'

    def u(fmt, off):
        return struct.unpack_from(order + fmt, data, off)[0]

    if elf.elfclass == 64:
        fields = [('e_shoff', 40, 8), ('e_shentsize', 58, 2),
                  ('e_shnum', 60, 2), ('e_shstrndx', 62, 2)]
        shf = [('sh_flags', 8, 8), ('sh_offset', 24, 8), ('sh_size', 32, 8),
               ('sh_link', 40, 4), ('sh_info', 44, 4)]
        chf, relent, relf = [('ch_type', 0, 4), ('ch_size', 8, 8)], 24, [
            ('r_offset', 0, 8), ('r_info', 8, 8)]
    else:
        fields = [('e_shoff', 32, 4), ('e_shentsize', 46, 2),
                  ('e_shnum', 48, 2), ('e_shstrndx', 50, 2)]
        shf = [('sh_flags', 8, 4), ('sh_offset', 16, 4), ('sh_size', 20, 4),
               ('sh_link', 24, 4), ('sh_info', 28, 4)]
        chf, relent, relf = [('ch_type', 0, 4), ('ch_size', 4, 4)], 8, [
            ('r_offset', 0, 4), ('r_info', 4, 4)]
    shoff, shentsize = elf.header['e_shoff'], elf.header['e_shentsize']
    shstrndx = elf.header['e_shstrndx']
    for i, sec in enumerate(elf.iter_sections()):
        h = shoff + i * shentsize
        nm = sec.name if i else 'section 0'
        typ, off, flags = sec['sh_type'], sec['sh_offset'], sec['sh_flags']
        if not (i == 0 or i == shstrndx or nm.startswith(
                ('.debug_', '.rel.debug_', '.rela.debug_')) or
                nm in ('.symtab', '.text')):
            continue
        fields += [('%s %s' % (nm, f), h + o, w) for f, o, w in shf]
        if flags & 0x800:       # SHF_COMPRESSED
            fields += [('%s %s' % (nm, f), off + o, w) for f, o, w in chf]
        if typ in ('SHT_RELA', 'SHT_REL'):
            ent = relent if typ == 'SHT_RELA' else relent * 2 // 3
            for k in range(2):
                fields += [('%s[%d] %s' % (nm, k, f), off + k * ent + o, w)
                           for f, o, w in relf]
        # the first header of the DWARF sections read for unit ranges
        if flags & 0x800 or nm not in DWARF_HEADERS or \
                u('I', off) == 0xffffffff:
            continue
        hf = DWARF_HEADERS[nm]
        if nm == '.debug_info':
            hf = hf[u('H', off + 4) >= 5]
        fields += [('%s %s' % (nm, f), off + o, w) for f, o, w in hf]
    return fields


# (field, offset, width) of the first header of a 32-bit DWARF section
DWARF_HEADERS = {
    '.debug_info': ([('unit_length', 0, 4), ('version', 4, 2),
                     ('debug_abbrev_offset', 6, 4), ('address_size', 10, 1)],
                    [('unit_length', 0, 4), ('version', 4, 2),
                     ('unit_type', 6, 1), ('address_size', 7, 1),
                     ('debug_abbrev_offset', 8, 4)]),
    '.debug_aranges': [('unit_length', 0, 4), ('version', 4, 2),
                       ('debug_info_offset', 6, 4), ('address_size', 10, 1),
                       ('segment_selector_size', 11, 1)],
    '.debug_rnglists': [('unit_length', 0, 4), ('version', 4, 2),
                        ('address_size', 6, 1), ('offset_entry_count', 8, 4)],
    '.debug_addr': [('unit_length', 0, 4), ('version', 4, 2),
                    ('address_size', 6, 1)],
}


def field_mutants(data):
    """Each field of elf_fields() in turn set to values that break naive
    size arithmetic: 0 and the top of a 16-bit field; 2^31, 2^32 - 1 and
    one past the file in a 32-bit one; the old value plus 2^32 (where a
    32-bit size_t wraps), 0x7f000000000000e3 and one past the file in a
    64-bit one; sh_flags with SHF_COMPRESSED flipped."""
    order = 'little' if elf_file(data).little_endian else 'big'
    for label, off, w in elf_fields(data):
        old = int.from_bytes(data[off:off + w], order)
        if label.endswith('sh_flags'):
            vals = {old ^ 0x800}
        elif w == 1:
            vals = {0, 3, 0xff}
        elif w == 2:
            vals = {0, 0xff00, 0xffff}
        elif w == 4:
            vals = {0x80000000, 0xffffffff, len(data) + 1}
        else:
            vals = {(1 << 32) | (old & 0xffffffff), 0x7f000000000000e3,
                    len(data) + 1}
        for v in sorted(vals):
            v &= (1 << (8 * w)) - 1
            if v != old:
                b = bytearray(data)
                b[off:off + w] = v.to_bytes(w, order)
                yield '%s = 0x%x' % (label, v), bytes(b)


def mutant_ok(f, p):
    """Exit 0, or 1 with exactly one line naming @f; no sanitizer report."""
    e = p.stderr.decode('utf-8', 'replace')
    lines = e.splitlines()
    return not (p.returncode not in (0, 1) or 'Sanitizer' in e or
                'runtime error' in e or
                (p.returncode == 1 and (len(lines) != 1 or not lines[0]
                                        .startswith('lineloc: %s: ' % f))))


def test_mutants(work, seed):
    """lineloc's own parsing (ELF, relocations, .debug_info, paths) under
    ASan and UBSan on corrupted objects: exit 0 or 1, one error line, no
    sanitizer report.  (dwarf_line.c gets the libFuzzer target.)  The
    objects are reproducible and the corruption comes from @seed, so a
    run is replayed with HT_MUTANT_SEED=@seed.  Then every size, offset,
    count and index field the ELF reader reads, set to extreme values."""
    rnd = random.Random(seed)
    n = 40 if QUICK else 250
    print('== %d corrupted objects and executables through an ASan/UBSan '
          'lineloc, seed %d (HT_MUTANT_SEED=%d replays, HT_MUTANT_SEED=random '
          'explores)' % (8 * n, seed, seed), flush=True)
    asan = os.path.join(work, 'lineloc-asan')
    rc, out, err = run(['gcc', '-std=c11', '-g', '-O1', '-DHAVE_ZLIB',
                        '-D_FILE_OFFSET_BITS=64', '-fsanitize=address,undefined',
                        '-fno-sanitize-recover=all', '-o', asan] + HT_INC +
                       HT_TOOL_SRCS + ['-lz'])
    if rc:
        return result(False, 'build ASan lineloc', err[-300:])
    bases = []
    exes = []
    for tc, cc, flags in (('x86_64', CC['x86_64'], ['-g']),
                          ('arm', 'arm-linux-gnueabi-gcc',
                           ['-gdwarf-2', '-gno-as-loc-support']),
                          ('arm64', 'aarch64-linux-gnu-gcc',
                           ['-gdwarf-5', '-gdwarf64', '-gno-as-loc-support']),
                          ('i386', 'i686-linux-gnu-gcc', ['-g', '-gz=zlib'])):
        if shutil.which(cc):
            exe, obj, err = build(os.path.join(work, 'mut'), tc, cc, flags,
                                  '-O1')
            if obj:
                bases.append(open(obj, 'rb').read())
            if exe:
                exes.append(open(exe, 'rb').read())
    env = dict(os.environ, ASAN_OPTIONS='detect_leaks=0:allocator_may_return_null=1')
    bad = []
    runs = 0
    # Objects: bytes anywhere.  Executables: bytes of their DWARF sections,
    # where the unit DIEs, .debug_aranges and the range lists are read.
    targets = [(b, [(0, len(b))]) for b in bases]
    for b in exes:
        _, sh = elf_sections(b)
        targets.append((b, [(h[2], h[3]) for k, h in sorted(sh.items())
                            if k.startswith('.debug_') and h[3]]))
    for base, regions in targets:
        for i in range(n):
            b = bytearray(base)
            for _ in range(rnd.choice((1, 2, 4, 8))):
                r0, rn = rnd.choice(regions)
                off = r0 + rnd.randrange(rn)
                b[off] = rnd.choice((0, 0xff, 0x7f, 0x80, rnd.randrange(256)))
            if rnd.random() < 0.1:
                b = b[:rnd.randrange(len(b))]
            f = os.path.join(work, 'mutant')
            open(f, 'wb').write(bytes(b))
            mode = rnd.choice((['--rows', f], ['--stats', f],
                               ['-e', f, '-j', '.text', '0', '10', '20']))
            p = subprocess.run([asan] + mode, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env)
            runs += 1
            if not mutant_ok(f, p):
                keep = os.path.join(KEEP, 'bad-mutant-%d-%d' % (seed, runs))
                os.makedirs(KEEP, exist_ok=True)
                shutil.copy(f, keep)
                bad.append((p.returncode, p.stderr.decode('utf-8', 'replace')
                            .strip()[:400],
                            ' '.join(mode[:1] + [keep] + mode[2:])))
    result(not bad and runs > 0, 'corrupted objects and executables: no '
           'crash, one error line', 'seed %d, %d runs, %d bad' %
           (seed, runs, len(bad)))
    for rc, e, cmd in bad[:3]:
        note('rc %d: lineloc %s: %s' % (rc, cmd, e))

    # Field mutants: deterministic, no seed.  Each through the ASan build
    # (--stats reads what -e reads) and through lineloc-i686, which must
    # print the same bytes: sizes past 4 GiB are where a 32-bit host's
    # size_t would wrap.
    bad, diff32, runs, errs = [], [], 0, {}
    f = os.path.join(work, 'field-mutant')
    muts = [m for base in bases + exes for m in field_mutants(base)]
    if QUICK:
        muts = muts[::5]
    print('== %d field mutants: sizes, offsets, counts, indexes of the ELF '
          'reader set to extreme values' % len(muts), flush=True)
    for label, blob in muts:
        open(f, 'wb').write(blob)
        mode = ['--stats', f] if runs % 2 else ['--rows', f]
        runs += 1
        p = subprocess.run([asan] + mode, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        if not mutant_ok(f, p):
            keep = os.path.join(KEEP, 'bad-field-mutant-%d' % runs)
            os.makedirs(KEEP, exist_ok=True)
            shutil.copy(f, keep)
            bad.append((label, p.returncode, p.stderr.decode(
                'utf-8', 'replace').strip()[:400], mode[0] + ' ' + keep))
        elif p.returncode:
            k = re.sub(r'0x[0-9a-f]+|\d+', 'N', p.stderr.decode()
                       .split(': ', 2)[-1].strip())
            errs[k] = errs.get(k, 0) + 1
        if os.path.exists(LL32):
            b = subprocess.run(ll32() + mode, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            if (p.returncode, p.stdout, p.stderr) != \
                    (b.returncode, b.stdout, b.stderr) and \
                    b'without zlib' not in b.stderr:
                diff32.append((label, p.stderr.decode().strip()[:200],
                               b.stderr.decode().strip()[:200]))
    result(not bad and runs > 0, 'field mutants: no crash, one error line '
           'naming the file', '%d runs, %d bad, %d kinds of error' %
           (runs, len(bad), len(errs)))
    for label, rc, e, cmd in bad[:5]:
        note('%s: rc %d: lineloc %s: %s' % (label, rc, cmd, e))
    if os.path.exists(LL32):
        result(not diff32, 'field mutants: lineloc-i686 prints the same bytes',
               '%d differ' % len(diff32))
        for label, a, b in diff32[:5]:
            note('%s: x86_64 %s | i686 %s' % (label, a, b))
    for k, v in sorted(errs.items(), key=lambda x: -x[1])[:8]:
        note('%4d x %s' % (v, k))


# ---------------------------------------------------------------------------
# 3. Debian's cloud-amd64 vmlinux and modules

DEBIAN = {}


def debian_tree():
    """Debian's debug kernel, as scripts/debian-dbg.sh chooses it (the
    newest version by dpkg's order; fetched into CACHE if need be): (its
    unpacked tree, its vmlinux), or (None, why).  Asked once a run.
    LINELOC_NO_DEBIAN=REASON does without it, saying why."""
    if os.environ.get('LINELOC_NO_DEBIAN'):
        return None, 'LINELOC_NO_DEBIAN: ' + os.environ['LINELOC_NO_DEBIAN']
    if not DEBIAN:
        p = subprocess.run([os.path.join(TOP, 'scripts', 'debian-dbg.sh'),
                            '--all'], capture_output=True, text=True,
                           env=dict(os.environ, LINELOC_CACHE=CACHE))
        for l in p.stderr.splitlines():
            print('  ' + l, flush=True)
        DEBIAN.update(l.split('=', 1) for l in p.stdout.splitlines()
                      if '=' in l)
        if p.returncode or not DEBIAN.get('vmlinux'):
            DEBIAN.clear()
            err = [l for l in p.stderr.splitlines() if 'error' in l]
            return None, (err or p.stderr.splitlines() or
                          ['scripts/debian-dbg.sh exited %d' % p.returncode])[-1]
    return DEBIAN['root'], DEBIAN['vmlinux']


def text_sample(vm, n, rnd):
    s = sections(vm)
    addr, size, _ = s['.text']
    return sorted(rnd.randrange(addr, addr + size) for _ in range(n))


def explain_a2l(diffs, key='addr2line'):
    """Classify the addr2line differences on a kernel (listed, not failed)."""
    kinds = {}
    for a, ours, v in diffs:
        if key not in v or v[key] == ours:
            continue
        x = v[key]
        if v.get('llvm', ours) != ours:
            k = 'llvm differs too (see above)'
        elif 'include/trace/events/' in ours and \
                x.rsplit(':', 1)[-1] == ours.rsplit(':', 1)[-1]:
            k = ('include/trace/events/*.h line: addr2line names the .c '
                 'file that expanded the tracepoint, with the same line')
        elif ours != '??:0' and x != '??:0' and \
                x.rsplit(':', 1)[-1] == ours.rsplit(':', 1)[-1]:
            k = ('header line: addr2line names the unit\'s .c file with the '
                 'same line number')
        elif ours == '??:0' and x.endswith(':0'):
            k = ('past a sequence\'s end: addr2line names the unit with line '
                 '0 (no row covers it; llvm ?? too)')
        elif ours == '??:0' and v.get('llvm') == '??:0':
            k = ('outside every unit\'s ranges, inside a sequence: '
                 'addr2line answers from the sequence (llvm ?? too)')
        else:
            k = 'other'
        kinds.setdefault(k, []).append((a, ours, x))
    for k, l in sorted(kinds.items(), key=lambda x: -len(x[1])):
        note('addr2line differs, %d x %s' % (len(l), k))
        for a, o, x in l[:2]:
            note('    0x%x: lineloc %s, addr2line %s' % (a, o, x))
    return kinds


def check_kernel_paths(name, vm, addrs):
    """Kernel paths by default: relative, never absolute, never a bare
    basename, and the --no-strip answer minus a prefix."""
    rc, out, err = run([LL, '-e', vm] + ['%x' % a for a in addrs[:500]])
    rc2, full, err = run([LL, '--no-strip', '-e', vm] +
                         ['%x' % a for a in addrs[:500]])
    pairs = [(a, b) for a, b in zip(out.splitlines(), full.splitlines())
             if a != '??:0']
    bad = [a for a, b in pairs if a.startswith('/') or '/' not in a or
           not b.endswith('/' + a)]
    result(rc == 0 and pairs and not bad,
           '%s: default paths are source-relative (kernel/panic.c)' % name,
           '%d answers, e.g. %s; bad: %s' % (len(pairs), pairs[0][0] if pairs
                                             else None, bad[:3]))


def test_debian(work, rnd):
    print('== Debian linux-image-cloud-amd64-dbg', flush=True)
    root, vm = debian_tree()
    if not root:
        # a skip only when asked for, with a reason: otherwise a failure
        if os.environ.get('LINELOC_NO_DEBIAN'):
            skip('Debian vmlinux', vm)
        else:
            result(False, 'Debian vmlinux: scripts/debian-dbg.sh', vm)
        return
    note('%s %s (scripts/debian-dbg.sh: the newest by dpkg\'s order)' %
         (DEBIAN['package'], DEBIAN['version']))
    st = stats(vm)
    result(st is not None and st.get('versions') == '5' and
           int(st.get('rows', 0)) > 4000000,
           'vmlinux --stats', 'versions %s, rows %s, bytes %s' %
           (st and st.get('versions'), st and st.get('rows'),
            st and st.get('bytes')))
    n = 2000 if QUICK else 20000
    addrs = text_sample(vm, n, rnd)
    t0 = time.time()
    ours, raw = lineloc_e(vm, addrs)
    t1 = time.time()
    llvm = oracle_llvm(vm, addrs)
    t2 = time.time()
    a2l = oracle_a2l('addr2line', vm, addrs)
    t3 = time.time()
    note('lookup of %d addresses: lineloc %.2fs, llvm-symbolizer %.2fs, '
         'addr2line %.2fs' % (n, t1 - t0, t2 - t1, t3 - t2))
    orc = {'llvm': llvm}
    if a2l:
        orc['addr2line'] = a2l
    ag, diffs = compare('vmlinux: %d random .text addresses vs '
                        'llvm-symbolizer' % n, vm, addrs, orc, ours,
                        show=3, need='llvm')
    explain_a2l(diffs)
    check_outside_cu('vmlinux', vm, addrs, llvm)
    # The compact tables the kernel would hold (issue 10): what they cost,
    # and that they answer as the rows do, and as llvm-symbolizer does.
    p = subprocess.run([LL, '--table-size', vm], capture_output=True, text=True)
    m = re.search(r'table: (\d+) rows, (\d+) bytes, ([\d.]+) B/row', p.stdout)
    result(m is not None and int(m.group(2)) <= 2000000,
           'vmlinux: compact tables at most 2.0 MB', m.group(0) if m else p.stderr[-200:])
    p = subprocess.run([LL, '--table-check', vm], capture_output=True, text=True)
    result(p.returncode == 0, 'vmlinux: --table-check',
           (p.stdout + p.stderr).strip()[-200:])
    via, _ = lineloc_e(vm, addrs, extra=('--no-strip', '--via-table'))
    via = via or []
    same = sum(1 for x, y in zip(via, ours or []) if x == y)
    result(ours is not None and len(via) == len(ours) and same == len(ours),
           'vmlinux: %d random .text addresses, --via-table == -e' % n,
           '%d/%d identical' % (same, len(ours)))
    result(st is not None and st.get('clip') == 'unit ranges' and
           st.get('info_units') == st.get('units') and
           st.get('info_units_unreadable') == '0' and
           st.get('tables_clipped') == st.get('units'),
           'vmlinux: every line table clipped to the ranges of its unit',
           ', '.join('%s %s' % (k, st.get(k)) for k in (
               'info_units', 'info_units_ranges_aranges',
               'info_units_ranges_die', 'tables_clipped',
               'tables_without_unit', 'clip_rows_dropped', 'clip_rows_added',
               'clip_sequences_dropped', 'clip_sequences_split'))
           if st else '')
    t0 = time.time()
    check_dwarfdump('vmlinux --all-rows (every row)', vm)
    note('row comparison took %.1fs' % (time.time() - t0))
    check_kernel_paths('vmlinux', vm, addrs)
    same32('vmlinux i686 == x86_64 (--rows, every row)', ['--rows', vm])
    same32('vmlinux i686 == x86_64 (--all-rows --rows)',
           ['--all-rows', '--rows', vm])
    same32('vmlinux i686 == x86_64 (--stats)', ['--stats', vm])
    if not os.path.exists(LL32):
        skip('vmlinux i686 -e', 'no lineloc-i686')
    else:
        o32, _ = lineloc_e(vm, addrs, tool=ll32())
        result(o32 == ours, 'vmlinux i686 == x86_64 (-e, %d addresses)' % n)

    mods = []
    for dp, dn, fn in os.walk(os.path.join(root, 'usr', 'lib', 'debug',
                                           'lib', 'modules')):
        mods += [os.path.join(dp, x) for x in fn if x.endswith('.ko')]
    mods.sort()
    result(len(mods) > 1000, 'Debian modules found', '%d' % len(mods))
    pick = rnd.sample(mods, min(len(mods), 4 if QUICK else 16))
    for m in pick:
        name = 'module %s' % os.path.basename(m)
        text, err = rows(m)
        if text is None:
            result(False, name, err.strip())
            continue
        check_rel(name, m, parse_rows(text), 'addr2line', rnd, n_random=60)
        same32(name + ' i686 == x86_64', ['--rows', m])
    check_debian_modules(mods, rnd)
    check_module_sections(mods, rnd, work)
    check_shared_codes(mods, work)


def check_shared_codes(mods, work):
    """The shared codes of module tables (hosttool/lib/linetab_codes.h)
    are what lineloc-kbuild --shared-codes makes from Debian's modules:
    regenerated here byte for byte.  The file names the modules and rows
    it was made from; from another Debian version (other rows) the
    comparison is a counted skip, not a pass."""
    lst = os.path.join(work, 'shared-codes.list')
    out = os.path.join(work, 'linetab_codes.h')
    open(lst, 'w').write(''.join(m + '\n' for m in mods))
    rc, _, err = run([LLK, '--shared-codes', out, lst])
    if rc:
        return result(False, 'shared codes regenerated from Debian\'s modules',
                      err.strip()[-200:])
    mine = open(os.path.join(TOP, 'hosttool', 'lib', 'linetab_codes.h')).read()
    new = open(out).read()
    src = re.compile(r' (\d+) modules, (\d+) rows')
    if mine != new and src.search(mine).groups() != src.search(new).groups():
        return skip('shared codes regenerated from Debian\'s modules',
                    'made from %s modules, %s rows; this corpus has %s, %s' %
                    (src.search(mine).groups() + src.search(new).groups()))
    result(mine == new, 'shared codes: hosttool/lib/linetab_codes.h is what '
           'lineloc-kbuild --shared-codes makes from Debian\'s modules',
           '%s modules, %s rows' % src.search(new).groups())


def text_size(f):
    rc, out, _ = run(['readelf', '-SW', f])
    for l in out.splitlines():
        m = re.search(r'\] \.text\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)', l)
        if m:
            return int(m.group(1), 16)
    return 0


def exec_sections(f):
    """{name: size} of the allocated executable sections of @f."""
    rc, out, _ = run(['readelf', '-SW', f])
    secs = {}
    for l in out.splitlines():
        m = re.search(r'\] (\S+)\s+(?:PROGBITS|NOBITS)\s+\S+\s+\S+\s+([0-9a-f]+)\s+\S+\s+(\S+)', l)
        if m and 'A' in m.group(3) and 'X' in m.group(3) and int(m.group(2), 16):
            secs[m.group(1)] = int(m.group(2), 16)
    return secs


def check_module_sections(mods, rnd, work):
    """Debian's modules with the sections of line tables that the kernel
    build adds when a module is finalised (lineloc --module-sections, then
    objcopy as scripts/Makefile.modfinal runs it), stripped as
    INSTALL_MOD_STRIP=1 strips them: at offsets of every text section they
    answer as lineloc -e -j SECTION does on the unstripped module (whose
    rows check_rel() holds against addr2line).  The bytes of the sections
    against the .debug_line they replace are a figure."""
    pick = rnd.sample(mods, min(len(mods), 8 if QUICK else 40))
    d = os.path.join(work, 'modsec')
    os.makedirs(d, exist_ok=True)
    same = total = nsec = secbytes = linebytes = 0
    bad = []
    for m in pick:
        b = os.path.basename(m)
        core, init = os.path.join(d, b + '.core'), os.path.join(d, b + '.init')
        withsec, stripped = os.path.join(d, b), os.path.join(d, 'stripped-' + b)
        rc, _, err = run([LLK, '--module-sections', m, core, init])
        add = []
        for sec, f in (('.lineloc', core), ('.init.lineloc', init)):
            if rc == 0 and os.path.getsize(f):
                add += ['--add-section', '%s=%s' % (sec, f), '--set-section-flags',
                        '%s=alloc,readonly,contents' % sec]
                secbytes += os.path.getsize(f)
        if rc == 0:
            rc, _, err = run(['objcopy'] + add + [m, withsec])
        if rc == 0:
            rc, _, err = run(['strip', '--strip-debug', '-o', stripped, withsec])
        if rc:
            bad.append('%s: %s' % (b, err.strip()[-100:]))
            continue
        nsec += bool(add)
        rc, out, _ = run(['readelf', '-SW', m])
        mm = re.search(r'\] \.debug_line\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)', out)
        linebytes += int(mm.group(1), 16) if mm else 0
        for sec, n in sorted(exec_sections(m).items()):
            addrs = list(range(n)) if n <= 4000 else sorted(rnd.sample(range(n), 4000))
            ours, err = lineloc_e(m, addrs, sec, extra=())
            via, err2 = via_module(stripped, addrs, sec)
            if ours is None or via is None:
                bad.append('%s %s: %s' % (b, sec, (err or err2)[-100:]))
                continue
            total += len(addrs)
            diff = [(hex(a), x, y) for a, x, y in zip(addrs, via, ours) if x != y]
            same += len(addrs) - len(diff)
            if diff:
                bad.append('%s %s: %s' % (b, sec, diff[:2]))
    result(not bad and total > 0 and nsec > 0,
           'Debian modules: %d with sections of line tables, stripped, answer as '
           'lineloc -e -j SECTION on every text section' % len(pick),
           '%d/%d offsets identical, %d modules with sections%s' % (
               same, total, nsec, '; ' + '; '.join(bad[:3]) if bad else ''))
    note('Debian modules: %d bytes of sections of line tables for %d bytes of .debug_line '
         '(%.1f%%)' % (secbytes, linebytes, 100.0 * secbytes / linebytes if linebytes else 0))


def check_debian_modules(mods, rnd):
    """The module loader's tables of Debian's modules (issue 11): at every
    offset of .text they answer as lineloc -e -j .text, paths and all; and
    what they cost, aggregated."""
    pick = rnd.sample(mods, min(len(mods), 8 if QUICK else 40))
    rows = size = fixed = 0
    same = total = 0
    bad = []
    for m in pick:
        p = subprocess.run([LL, '--table-size', m], capture_output=True, text=True)
        t = re.search(r'module table: (\d+) \+ (\d+) rows, (\d+) \+ (\d+) bytes '
                      r'\(core \+ init\), of which (\d+) fixed', p.stdout)
        if not t:
            bad.append('%s: %s' % (os.path.basename(m), p.stderr.strip()[-100:]))
            continue
        r0, r1, b0, b1, fx = map(int, t.groups())
        rows += r0 + r1
        size += b0 + b1
        fixed += fx
        n = text_size(m)
        addrs = list(range(n)) if n <= 20000 else sorted(rnd.sample(range(n), 20000))
        ours, err = lineloc_e(m, addrs, '.text', extra=())
        via, err2 = via_module(m, addrs, '.text')
        if ours is None or via is None:
            bad.append('%s: %s' % (os.path.basename(m), (err or err2)[-100:]))
            continue
        total += len(addrs)
        d = [(hex(a), x, y) for a, x, y in zip(addrs, via, ours) if x != y]
        same += len(addrs) - len(d)
        if d:
            bad.append('%s: %s' % (os.path.basename(m), d[:2]))
    result(not bad and total > 0,
           'Debian modules: %d modules\' load-time tables == lineloc -e -j .text' % len(pick),
           '%d/%d offsets identical%s' % (same, total, '; ' + '; '.join(bad[:3]) if bad else ''))
    # A table's fixed bytes (header, prefix codes) do not grow with rows.
    per = (size - fixed) / rows if rows else 0
    result(rows > 0 and per <= 2.5,
           'Debian modules: load-time tables at most 2.5 B/row, fixed bytes apart',
           '%d rows in %d bytes (%d fixed): %.2f B/row all-in, %.2f B/row beyond the fixed'
           % (rows, size, fixed, size / rows if rows else 0, per))


# ---------------------------------------------------------------------------
# 4. the matrix kernels (build/<arch>/), once they exist

MATRIX = [(a, pre) for a, _, pre in TOOLCHAINS]


def test_matrix(work, rnd):
    print('== matrix kernels', flush=True)
    build = os.environ.get('BUILD') or 'build'   # the top Makefile's BUILD=
    for arch, pre in MATRIX:
        vm = os.path.join(TOP, build, arch, 'vmlinux')
        if not os.path.exists(vm):
            skip('matrix %s' % arch, 'no %s/%s/vmlinux' % (build, arch))
            continue
        st = stats(vm)
        result(st is not None, 'matrix %s --stats' % arch,
               st and 'versions %s rows %s' % (st.get('versions'),
                                               st.get('rows')))
        addrs = text_sample(vm, 500 if QUICK else 3000, rnd)
        ours, _ = lineloc_e(vm, addrs)
        orc = {'llvm': oracle_llvm(vm, addrs),
               'addr2line': oracle_a2l(pre + 'addr2line', vm, addrs)}
        orc = {k: v for k, v in orc.items() if v is not None}
        ag, diffs = compare('matrix %s vmlinux vs oracles' % arch, vm,
                            addrs, orc, ours, show=3, need='llvm')
        check_outside_cu('matrix %s vmlinux' % arch, vm, addrs,
                         orc.get('llvm'), need=False)
        check_kernel_paths('matrix %s vmlinux' % arch, vm, addrs)
        explain_a2l(diffs)
        check_dwarfdump('matrix %s vmlinux' % arch, vm)
        same32('matrix %s i686 == x86_64' % arch, ['--rows', vm])
        # the test module, and its builds with each line-table version
        # (not the corrupted variants: their errors are the matrix's test)
        kos = [os.path.join(TOP, build, arch, 'lltest', 'lltest.ko')]
        ddir = os.path.join(TOP, build, arch, 'variant-on', 'variants', 'dwarf')
        if os.path.isdir(ddir):
            kos += [os.path.join(ddir, x) for x in sorted(os.listdir(ddir))]
        for m in [k for k in kos if os.path.exists(k)]:
            text, err = rows(m)
            if text is None:
                result(False, 'matrix %s %s' % (arch, m), err.strip())
                continue
            check_rel('matrix %s %s' % (arch, os.path.basename(m)), m,
                      parse_rows(text), pre + 'addr2line', rnd, n_random=60)
            same32('matrix %s %s i686' % (arch, os.path.basename(m)),
                   ['--rows', m])


# ---------------------------------------------------------------------------
# 5. fuzzing

def test_fuzz(work):
    """dwarf_line.c under libFuzzer with ASan and UBSan.  By default a
    deterministic run (fixed run count and seed, the same inputs
    everywhere); HT_FUZZ_SECONDS=N makes it a timed run instead."""
    if not shutil.which('clang-14'):
        skip('fuzz', 'no clang-14')
        return
    cmd = [os.path.join(TOP, 'tests', 'hosttool', 'fuzz.sh')]
    env = dict(os.environ)
    if FUZZ_SECONDS:
        cmd.append(str(int(FUZZ_SECONDS)))
        what = 'timed run of %ss' % FUZZ_SECONDS
    else:
        if QUICK:
            env.setdefault('HT_FUZZ_RUNS', '300000')
        env.setdefault('HT_FUZZ_RUNS', '2000000')
        env.setdefault('HT_FUZZ_SEED', '1')
        what = '%s runs, seed %s' % (env['HT_FUZZ_RUNS'], env['HT_FUZZ_SEED'])
    print('== fuzz dwarf_line.c: %s' % what, flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env)
    out = p.stdout.decode('utf-8', 'replace')
    m = re.search(r'stat::number_of_executed_units: (\d+)', out)
    fin = re.search(r'DONE +(cov: \d+ ft: \d+ corp: \S+)', out)
    result(p.returncode == 0 and m, 'fuzz (%s), no crash' % what,
           '%s inputs%s' % (m.group(1) if m else '?',
                            ', final ' + fin.group(1) if fin else '')
           if p.returncode == 0 else out[-800:])


def test_fuzz_modlines(work):
    """The module loader's path (dwarf_reloc.c, modlines.c, dwarf_line.c,
    linetab_enc.c, linetab_dec.c) under libFuzzer with ASan and UBSan:
    HT_ML_FUZZ_RUNS runs (default 200,000; 50,000 with HT_QUICK=1) from
    seed HT_ML_FUZZ_SEED (1), starting from hosttool/fuzz/corpus_modlines/
    (make_modlines_corpus.py).  Deterministic: the same inputs every run."""
    if not shutil.which('clang-14'):
        skip('fuzz modlines.c', 'no clang-14')
        return
    env = dict(os.environ)
    if QUICK:
        env.setdefault('HT_ML_FUZZ_RUNS', '50000')
    env.setdefault('HT_ML_FUZZ_RUNS', '200000')
    env.setdefault('HT_ML_FUZZ_SEED', '1')
    what = '%s runs, seed %s' % (env['HT_ML_FUZZ_RUNS'], env['HT_ML_FUZZ_SEED'])
    print('== fuzz modlines.c + dwarf_reloc.c: %s' % what, flush=True)
    t0 = time.time()
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                        'fuzz-modlines-runs'], cwd=TOP, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    m = re.search(r'stat::number_of_executed_units: (\d+)', out)
    fin = re.search(r'DONE +(cov: \d+ ft: \d+ corp: \S+)', out)
    crash = re.search(r'(==\d+==ERROR: .*|SUMMARY: .*|Test unit written to .*)',
                      out)
    result(p.returncode == 0 and m and not crash,
           'fuzz modlines.c (%s), no crash' % what,
           '%s inputs%s in %.0f s' % (m.group(1) if m else '?',
                                      ', final ' + fin.group(1) if fin else '',
                                      time.time() - t0)
           if p.returncode == 0 and not crash else out[-1500:])


def test_fuzz_lineloc(work):
    """lineloc's ELF reader and everything after it (fuzz_lineloc.c: the
    program's sources in one unit, exit() jumping back, allocations and
    static data reset per input) under libFuzzer with ASan and UBSan:
    HT_LL_FUZZ_RUNS runs (default 100,000; 20,000 with HT_QUICK=1) from
    seed 1, starting from hosttool/fuzz/corpus_lineloc/
    (make_lineloc_corpus.sh).  Deterministic: the same inputs every run."""
    if not shutil.which('clang-14'):
        skip('fuzz lineloc', 'no clang-14')
        return
    runs = os.environ.get('HT_LL_FUZZ_RUNS', '20000' if QUICK else '100000')
    t0 = time.time()
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                        'hosttool/fuzz/fuzz_lineloc'], cwd=TOP,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        result(False, 'fuzz lineloc: build', p.stdout.decode('utf-8', 'replace')[-800:])
        return
    env = dict(os.environ)
    env['FUZZ_SEED'] = '1'
    p = subprocess.run([os.path.join(TOP, 'hosttool', 'fuzz', 'run.sh'),
                        '--runs', runs, 'lineloc'], cwd=TOP, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    line = [l for l in out.splitlines() if l.startswith('fuzz lineloc:')]
    result(p.returncode == 0 and line and 'no finding' in line[-1],
           'fuzz lineloc.c + elfread.c (%s runs, seed 1), no finding' % runs,
           '%s in %.0f s' % (line[-1][len('fuzz lineloc: '):], time.time() - t0)
           if p.returncode == 0 and line else out[-1500:])
    # the last of the fuzz part: every target's runs are the same runs
    test_fuzz_repeat(work)


def test_fuzz_repeat(work):
    """The deterministic runs (hosttool/fuzz/run.sh --runs, seed 1) are the
    same inputs every time: each target three times, HT_FUZZ_REPEAT_RUNS
    runs (default 10,000), with environments of different sizes (so the
    stack's alignment differs, as ASLR's layout does), must end with the
    same coverage, features and corpus.  A feature that follows addresses
    (libFuzzer's stack depth under ASan, comparison operands) breaks that,
    though not in every run: three runs catch a stack-depth build more
    often than two."""
    runs = os.environ.get('HT_FUZZ_REPEAT_RUNS', '10000')
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                        'fuzz-targets'], cwd=TOP,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        result(False, 'fuzz targets: build',
               p.stdout.decode('utf-8', 'replace')[-800:])
        return
    targets = ['dwarf_line', 'linetab', 'modlines', 'lineloc']
    ends = []
    for pad in ('', 'x' * 4000, 'x' * 4030):
        env = dict(os.environ, FUZZ_SEED='1', LINELOC_FUZZ_PAD=pad)
        p = subprocess.run([os.path.join(TOP, 'hosttool', 'fuzz', 'run.sh'),
                            '--runs', runs] + targets, cwd=TOP, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode('utf-8', 'replace')
        ends.append((p.returncode, {
            m.group(1): m.group(2) for m in re.finditer(
                r'^fuzz (\w+): seed 1: (.*)$', out, re.M)}, out))
    for t in targets:
        got = [e[1].get(t) for e in ends]
        result(all(e[0] == 0 for e in ends) and got[0] and
               len(set(got)) == 1,
               'fuzz %s: %s runs of seed 1 three times, the same end' %
               (t, runs), ' | '.join(str(g) for g in got) if all(got)
               else ''.join(e[2] for e in ends)[-800:])


def test_linetab(work):
    """The compact line table alone (tests/hosttool/linetab.sh: a fixed
    generated row set at several block sizes, and Debian's rows, from
    scripts/debian-dbg.sh), then its decoder under libFuzzer with ASan
    and UBSan: HT_LT_FUZZ_RUNS runs (default 20,000 here) from seed 1."""
    print('== linetab', flush=True)
    p = subprocess.run([os.path.join(TOP, 'tests', 'hosttool', 'linetab.sh')],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    checks = [l for l in out.splitlines() if 'table-check' in l]
    result(p.returncode == 0, 'linetab.sh: tables of a generated row set and of '
           'Debian\'s rows agree with the rows',
           checks[-1].strip() if checks and p.returncode == 0 else out[-800:])
    if not shutil.which('clang-14'):
        skip('fuzz linetab_dec.c', 'no clang-14')
        return
    env = dict(os.environ)
    env.setdefault('HT_LT_FUZZ_RUNS', '20000')
    p = subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk', 'fuzz-linetab'],
                       cwd=TOP, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    m = re.search(r'stat::number_of_executed_units: (\d+)', out)
    result(p.returncode == 0 and m, 'fuzz linetab_dec.c (%s runs, seed 1), no crash'
           % env['HT_LT_FUZZ_RUNS'], '%s inputs' % m.group(1) if m else out[-800:])


def be_qemu(what):
    """qemu-s390x-static, or None after a skip naming @what."""
    qemu = shutil.which('qemu-s390x-static')
    if not qemu or not os.path.exists(LLBE):
        skip(what, 'no qemu-s390x-static or no ' + LLBE)
        return None
    return qemu


def be_compare(qemu, files, rnd):
    """lineloc for s390x prints what the native one does on each of @files
    ((label, path)): --rows, --stats, and for a linked file -e and, of a
    kernel, the compact tables."""
    for name, f in files:
        if not os.path.exists(f):
            skip('s390x == x86_64: ' + name, 'no ' + f)
            continue
        with open(f, 'rb') as fh:
            h = fh.read(18)
        rel = int.from_bytes(h[16:18], 'little' if h[5] == 1 else 'big') == 1
        kernel = 'vmlinux' in name
        addrs = None if rel else ''.join('%x\n' % a for a in
                                         text_sample(f, 500 if kernel else 50, rnd))
        modes = [['--rows', f], ['--stats', f]]
        if addrs:
            modes += [['-e', f]]
        if addrs and kernel:
            modes += [['--table-size', f], ['--kernel-table', f]]
        for m in modes:
            a = subprocess.run([LL] + m, input=addrs.encode() if addrs and m[0] == '-e'
                               else None, capture_output=True)
            b = subprocess.run([qemu, LLBE] + m, input=addrs.encode() if addrs and
                               m[0] == '-e' else None, capture_output=True)
            ok = a.stdout == b.stdout and a.stderr == b.stderr and \
                a.returncode == b.returncode
            result(ok, 's390x == x86_64: %s %s' % (name, m[0]),
                   '%d bytes identical' % len(a.stdout) if ok else
                   'outputs differ (%d vs %d bytes, exit %d vs %d)' %
                   (len(a.stdout), len(b.stdout), a.returncode, b.returncode))


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
        d = os.path.join(TOP, build, arch, 'variant-on')
        files += [(arch + ' vmlinux', os.path.join(d, 'vmlinux')),
                  (arch + ' lltest.ko', os.path.join(d, 'lltest.ko'))]
    root, vm = debian_tree()
    if root:
        files.append(('Debian vmlinux', vm))
    be_compare(qemu, files, rnd)


def test_bigendian_generated(rnd):
    """The same on the generated part's objects, in that part: every
    toolchain and line-table version, DWARF64, zlib-compressed sections
    (the s390x build has zlib too)."""
    print('== big-endian host: the generated objects', flush=True)
    qemu = be_qemu('big-endian host: generated objects')
    if not qemu:
        return
    files = []
    for root, tc, cc, flags, opt, objs in BUILDS:
        for o in (objs[1], objs[2]):
            files.append(('%s %s' % (os.path.basename(root) + '/' +
                                     os.path.dirname(o), os.path.basename(o)),
                          os.path.join(root, o)))
    result(bool(files), 'big-endian host: the generated part built objects to compare',
           '%d objects' % len(files))
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


# ---------------------------------------------------------------------------
# Oracles that are not the code under test (issue 26 item 6): DWARF 5 entry
# formats with every form against llvm-dwarfdump, big-endian relocatable
# objects against the cross addr2line, damaged compact tables.


def test_forms(work):
    """DWARF 5 directory/file entry formats with every form dwarf_line.c
    accepts (formsynth.py), in ELF32/64 of both byte orders: llvm-dwarfdump
    must read the tables as written, then lineloc's rows must be its rows,
    whole paths; and each form it does not accept there is refused with
    one line naming form and offset, nothing on stdout."""
    import formsynth
    import synth
    print('== DWARF 5 entry formats: every accepted form vs llvm-dwarfdump, '
          '%d refused forms' % len(formsynth.REFUSE), flush=True)
    have_dd = shutil.which('llvm-dwarfdump')
    if not have_dd:
        skip('DWARF 5 entry forms vs llvm-dwarfdump', 'no llvm-dwarfdump')
    used = set()
    for _, _, dfmt, ffmt in formsynth.ACCEPTED:
        used |= {f for _, f in dfmt + ffmt}
    missing = sorted(set(formsynth.ACCEPT) - used)
    result(not missing, 'formsynth: the units use every accepted form (%d)'
           % len(formsynth.ACCEPT), 'unused: %s' % missing if missing else '')
    for fl in synth.FLAVOURS if have_dd else []:
        data, expect = formsynth.accepted(fl)
        f = os.path.join(work, 'forms-%s' % fl[0])
        open(f, 'wb').write(data)
        rc, err, units = dwarfdump_units(f)
        # the oracle decoded what was written (else it proves nothing)
        bad = []
        for i, (name, d64, dirs, files) in enumerate(expect):
            u = units[i] if i < len(units) else None
            if u is None:
                bad.append('%s: no unit' % name)
            elif (u['dirs'], u['files'], u['format'], u['version'],
                  len(u['rows'])) != (dirs, files,
                                      'DWARF64' if d64 else 'DWARF32', '5',
                                      len(files) + 2):
                bad.append('%s: dirs %r files %r %s v%s %d rows' %
                           (name, u['dirs'], u['files'], u['format'],
                            u['version'], len(u['rows'])))
        result(rc == 0 and not err.strip() and len(units) == len(expect)
               and not bad, '%s: llvm-dwarfdump reads the %d units as '
               'written' % (fl[0], len(expect)),
               (err.strip()[:200] + '; '.join(bad[:2]))[:400])
        text, lerr = rows(f, ('--no-strip', '--all-rows'))
        ours = parse_rows(text) if text is not None else []
        result(text is not None, '%s: lineloc reads them' % fl[0],
               lerr.strip())
        at = 0
        for i, (name, d64, _, _) in enumerate(expect):
            u = units[i] if i < len(units) else {'rows': [], 'dirs': [],
                                                 'files': []}
            want = []
            for a, line, fi, end in u['rows']:
                fn, di = u['files'][fi] if fi < len(u['files']) else ('?', 0)
                want.append((dwarf5_path(u['dirs'], fn, di) if u['dirs']
                             else '?', line, a, None, end))
            got = ours[at:at + len(want)]
            at += len(want)
            diff = [(g, w) for g, w in zip(got, want) if g != w]
            result(want and got == want, '%s %s: rows == llvm-dwarfdump '
                   '(whole paths: every file entry, its directory)' %
                   (fl[0], name), '%d rows%s' % (len(want), '; first '
                                                 'difference: lineloc %r, '
                                                 'llvm %r' % diff[0]
                                                 if diff else
                                                 ('' if got == want else
                                                  '; lineloc %d' % len(got))))
        result(at == len(ours) and at > 0, '%s: no rows beyond llvm-dwarfdump\'s'
               % fl[0], 'lineloc %d, llvm %d' % (len(ours), at))
    # refused: the one error line, form and offset named, stdout empty
    for n, (form, code) in enumerate(sorted(formsynth.REFUSE.items(),
                                            key=lambda x: x[1])):
        msgs = []
        ok = True
        for where, fl in (('dir', synth.FLAVOURS[n % 4]),
                          ('file', synth.FLAVOURS[(n + 1) % 4])):
            data, off = formsynth.refused(fl, form, where)
            f = os.path.join(work, 'refused-%s-%x' % (where, code))
            open(f, 'wb').write(data)
            want = ('lineloc: %s: .debug_line+0x%x: unsupported form in '
                    'entry format (0x%x)\n' % (f, off, code))
            for mode in (['--rows'], ['-e', f, '0x1000']):
                args = mode if mode[0] != '-e' else mode[:1]
                cmd = [LL] + args + [f] + (mode[2:] if mode[0] == '-e' else [])
                p = subprocess.run(cmd, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
                e = p.stderr.decode('utf-8', 'replace')
                if p.returncode != 1 or p.stdout or e != want:
                    ok = False
                    msgs.append('%s %s: exit %d, stdout %r, stderr %r' %
                                (where, mode[0], p.returncode,
                                 p.stdout[:60], e[:160]))
        result(ok, 'DW_FORM_%s (0x%x) refused in a directory and in a file '
               'entry format: exit 1, one line naming it and its offset'
               % (form, code), '; '.join(msgs)[:400])
    # -o: no file on a refusal
    data, off = formsynth.refused(synth.FLAVOURS[0], 'strx1', 'file')
    f = os.path.join(work, 'refused-o')
    open(f, 'wb').write(data)
    out = os.path.join(work, 'refused-o.out')
    rc, o, e = run([LL, '-o', out, '--rows', f])
    result(rc == 1 and not os.path.exists(out) and
           e.count('\n') == 1 and '+0x%x:' % off in e,
           'a refused form with -o: exit 1, no output file', e.strip())


# big-endian targets: (name, cross prefix, relocation section)
BE_TARGETS = [('armeb', 'arm-linux-gnueabi-', '.rel.debug_line'),
              ('aarch64_be', 'aarch64-linux-gnu-', '.rela.debug_line')]
BE_VARIANTS = [('gas dwarf4', ['-gdwarf-4']),
               ('gas dwarf5', ['-gdwarf-5']),
               ('gcc dwarf4', ['-gdwarf-4', '-gno-as-loc-support']),
               ('gcc dwarf5', ['-gdwarf-5', '-gno-as-loc-support'])]


def test_be_objects(work, rnd):
    """Relocatable objects of big-endian arm (REL) and arm64 (RELA): rows
    against llvm-dwarfdump, then lineloc -e -j SECTION and --via-table -e
    -j SECTION (the module loader's resolver, dwarf_reloc.c) at sampled
    offsets of every section against the cross addr2line -j SECTION, whole
    paths.  The sources are compiled by absolute path (mapped to
    WORK_MAP), so that every line-table version names whole paths: the
    loader has no DW_AT_comp_dir.  The rule: answers equal as path:line,
    discriminators dropped (norm_answer), and an answer with line 0 (no
    source line) equal to no answer: where no sequence covers an offset
    addr2line names the unit with line 0 (other.c:0), lineloc ??:0."""
    no_line = lambda x: '??:0' if x.endswith(':0') else x
    print('== big-endian relocatable objects (armeb REL, aarch64_be RELA)',
          flush=True)
    if not shutil.which('llvm-dwarfdump'):
        skip('big-endian objects', 'no llvm-dwarfdump')
        return
    versions = {}
    for arch, pre, relsec in BE_TARGETS:
        cc, a2l = pre + 'gcc', pre + 'addr2line'
        if not shutil.which(cc) or not shutil.which(a2l):
            skip('%s objects' % arch, 'no %s or %s' % (cc, a2l))
            continue
        root = os.path.realpath(os.path.join(work, 'be-' + arch))
        os.makedirs(os.path.join(root, 'src'), exist_ok=True)
        for n in sorted(os.listdir(SRC)):
            shutil.copyfile(os.path.join(SRC, n), os.path.join(root, 'src', n))
        env = dict(os.environ, PWD=root)
        for vname, flags in BE_VARIANTS:
            for src in ('main.c', 'other.c'):
                name = '%s %s %s' % (arch, vname, src)
                o = os.path.join(root, '%s-%s.o' % (
                    vname.replace(' ', '-'), src[:-2]))
                rc, _, err = run([cc, '-mbig-endian', '-O2', '-g'] + flags +
                                 ['-ffile-prefix-map=%s=%s' % (root, WORK_MAP),
                                  '-c', os.path.join(root, 'src', src),
                                  '-o', o], cwd=root, env=env)
                if rc:
                    result(False, name + ' build', err.strip()[:200])
                    continue
                with open(o, 'rb') as fh:
                    ef = ELFFile(fh)
                    big = not ef.little_endian
                    rs = ef.get_section_by_name(relsec)
                    nrel = rs.num_relocations() if rs else 0
                st = stats(o) or {}
                rcd, _, units = dwarfdump_units(o)
                vers = ','.join(sorted({u['version'] for u in units}))
                versions.setdefault(arch, set()).add(vers)
                result(big and nrel > 0 and st.get('versions') == vers and
                       int(st.get('relocations_applied', '0')) > 0,
                       '%s: big-endian, %d relocations in %s, line-table '
                       'version read back as llvm-dwarfdump\'s' %
                       (name, nrel, relsec), 'elf %s, lineloc v%s, llvm v%s'
                       % ('big' if big else 'little', st.get('versions'), vers))
                text, err = rows(o, ('--no-strip', '--all-rows'))
                if text is None:
                    result(False, name + ' rows', err.strip())
                    continue
                rws = parse_rows(text)
                check_dwarfdump(name, o, rws)
                for sec in sorted({r[3] for r in rws if r[3]}):
                    addrs = sample_addrs(rws, rnd, 40, sec)
                    want = oracle_a2l(a2l, o, addrs, sec)
                    ours, _ = lineloc_e(o, addrs, sec)
                    via, verr = via_module(o, addrs, sec)
                    for what, got in (('-e', ours), ('--via-table -e', via)):
                        diff = [(hex(a), g, w) for a, g, w in
                                zip(addrs, got or [], want or [])
                                if no_line(g) != no_line(w)]
                        result(want is not None and got is not None and
                               len(got) == len(addrs) and not diff,
                               '%s %s: lineloc %s -j == %s -j, whole paths'
                               % (name, sec, what, a2l),
                               '%d offsets%s%s' % (
                                   len(addrs), '; differ: %s' % diff[:3]
                                   if diff else '',
                                   '' if got is not None else '; ' + verr))
    for arch, _, _ in BE_TARGETS:
        v = versions.get(arch, set())
        if v:
            result('4' in v and '5' in v, '%s: line tables of DWARF 4 and 5 '
                   'among them' % arch, 'versions %s' % sorted(v))


# The path rule (issue 26 item 6): a fake kernel tree built three ways,
# and a user-space program that includes <linux/types.h>.
PATH_SOURCES = {
    'include/linux/llk.h': 'static inline int llk_twice(volatile int *x)\n'
                           '{\n\t*x = *x * 2;\n\treturn *x + 1;\n}\n',
    'kernel/kfile.c': '#include <linux/llk.h>\nint kfile_f(volatile int x)\n'
                      '{\n\treturn llk_twice(&x) + 3;\n}\n',
    'kernel/kgen.c': '#include <linux/llk.h>\n#include <generated/llgen.h>\n'
                     'int kgen_f(volatile int x)\n'
                     '{\n\treturn llgen_more(&x) + llk_twice(&x);\n}\n',
    'arch/any/lib/kasm.S': '\t.text\n\t.globl kasm_f\nkasm_f:\n\tnop\n\tnop\n',
}
PATH_GENERATED = {
    'include/generated/llgen.h': 'static inline int llgen_more(volatile int *x)\n'
                                 '{\n\t*x = *x + 7;\n\treturn *x;\n}\n',
}
PATH_USER = '#include <linux/types.h>\n__le32 uprog_f(volatile __le32 x)\n' \
            '{\n\treturn x * 3 + 1;\n}\n'


def test_path_rule(work):
    """Paths whole, by the documented rules, against the cross addr2line
    -j .text at every offset of .text (norm_answer; line 0 counts as no
    answer).  A kernel-like object (a tree R with include/linux/, compiled
    in the tree with relative paths, in it with absolute paths, and from an
    object folder O with R's sources absolute and O's include/generated
    relative: a C unit and an assembler unit, ld -r) with DWARF 4 and 5:
    lineloc -e (default stripping) answers addr2line's path relative to R,
    or to the compilation directory O (hosttool/README "Stripping");
    --via-table answers loader_answer() of it (the line table's own path,
    R's root stripped: README "Module line locations").  A user-space
    program that includes <linux/types.h> from /usr/include is no kernel:
    lineloc -e answers addr2line's absolute path as it is, --via-table the
    line table's."""
    print('== the path rule: a kernel tree three ways, a user program with '
          '<linux/types.h>', flush=True)
    no_line = lambda x: '??:0' if x.endswith(':0') else x
    if not shutil.which('llvm-dwarfdump'):
        skip('path rule', 'no llvm-dwarfdump')
        return
    for tc, cc, pre in TOOLCHAINS:
        if not shutil.which(cc) or not shutil.which(pre + 'addr2line'):
            skip('path rule %s' % tc, 'no %s or %saddr2line' % (cc, pre))
            continue
        base = os.path.realpath(os.path.join(work, 'paths-' + tc))
        R, O = os.path.join(base, 'linux'), os.path.join(base, 'obj')
        for tree, files in ((R, PATH_SOURCES), (O, PATH_GENERATED)):
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
                open(os.path.join(tree, rel), 'w').write(text)
        layouts = [
            ('in-tree', R, ['-Iinclude'], 'kernel/kfile.c', 'arch/any/lib/kasm.S'),
            ('absolute', R, ['-I' + R + '/include'], R + '/kernel/kfile.c',
             R + '/arch/any/lib/kasm.S'),
            ('O=', O, ['-Iinclude', '-I' + R + '/include'], R + '/kernel/kgen.c',
             R + '/arch/any/lib/kasm.S')]
        for v in ('4', '5'):
            for lname, cwd, inc, csrc, ssrc in layouts:
                name = '%s DWARF %s %s' % (tc, v, lname)
                env = dict(os.environ, PWD=cwd)
                objs = [os.path.join(base, '%s-%s-%s.o' % (lname[:2], v, x))
                        for x in ('c', 'S', 'all')]
                steps = [[cc, '-O1', '-gdwarf-' + v] + inc + ['-c', csrc, '-o', objs[0]],
                         [cc, '-gdwarf-' + v, '-c', ssrc, '-o', objs[1]],
                         [pre + 'ld', '-r', objs[0], objs[1], '-o', objs[2]]]
                errs = [run(c, cwd=cwd, env=env)[2] for c in steps]
                if not os.path.exists(objs[2]):
                    result(False, name + ': build', ' '.join(errs)[:200])
                    continue
                want_files = {'kernel/' + os.path.basename(csrc),
                              'include/linux/llk.h', 'arch/any/lib/kasm.S'}
                if lname == 'O=':
                    want_files.add('include/generated/llgen.h')
                to_rel = lambda p, cwd=cwd: (
                    p[len(R) + 1:] if p.startswith(R + '/') else
                    p[len(cwd) + 1:] if p.startswith(cwd + '/') else
                    '<outside R and the compilation directory>' + p)
                check_path_rule(name, objs[2], pre + 'addr2line', to_rel,
                                want_files, no_line)
    # the user-space program: the host's gcc and /usr/include
    if not os.path.exists('/usr/include/linux/types.h') or not shutil.which('gcc'):
        skip('path rule: user program', 'no gcc or /usr/include/linux/types.h')
        return
    base = os.path.realpath(os.path.join(work, 'paths-user'))
    os.makedirs(os.path.join(base, 'src'), exist_ok=True)
    open(os.path.join(base, 'src', 'uprog.c'), 'w').write(PATH_USER)
    # ('4', 'x/y'): a relative compilation directory (-fdebug-prefix-map)
    # and the source in it, so that its file entry uses directory 0, which
    # lineloc once joined to itself (x/y/x/y/uprog.c).  Not with DWARF 5:
    # there addr2line and llvm-symbolizer both join directory 0 (which is
    # the compilation directory) to DW_AT_comp_dir and answer x/y/x/y/,
    # where lineloc answers x/y/ (hosttool/README.md, "Paths").
    for v, rel in (('4', ''), ('5', ''), ('4', 'x/y')):
        o = os.path.join(base, 'u%s%s.o' % (v, rel.replace('/', '')))
        cc, a2l, usr = 'gcc', 'addr2line', '/usr/include/linux'
        cwd = os.path.join(base, 'src') if rel else base
        rc, _, err = run(['gcc', '-O1', '-gdwarf-' + v] +
                         (['-fdebug-prefix-map=%s=%s' % (cwd, rel)] if rel else []) +
                         ['-c', 'uprog.c' if rel else 'src/uprog.c', '-o', o],
                         cwd=cwd, env=dict(os.environ, PWD=cwd))
        name = 'user program DWARF %s%s' % (v, ', compilation directory ' + rel if rel else '')
        if rc:
            result(False, name + ': build', err[:200])
            continue
        _, _, units = dwarfdump_units(o)
        named = any(d and d.rstrip('/') == usr
                    for u in units for d in u['dirs'])
        result(named, name + ': its line table names /usr/include/linux '
               '(the positive control)', '' if named else 'not named: %s' %
               [u['dirs'] for u in units])
        check_path_rule(name, o, a2l, lambda p: p,
                        {rel + '/uprog.c' if rel else base + '/src/uprog.c'}, no_line)
    # the same program from the cross compilers: their headers are in
    # /usr/<triplet>/include, which is no kernel tree either
    for tc, cc, pre in TOOLCHAINS:
        triplet = pre.rstrip('-')
        usr = '/usr/%s/include/linux' % triplet
        if not pre or not shutil.which(cc) or not os.path.exists(usr + '/types.h'):
            continue
        for v in ('4', '5'):
            o = os.path.join(base, 'u%s-%s.o' % (v, tc))
            rc, _, err = run([cc, '-O1', '-gdwarf-' + v, '-c', 'src/uprog.c', '-o', o],
                             cwd=base, env=dict(os.environ, PWD=base))
            name = 'user program %s DWARF %s' % (tc, v)
            if rc:
                result(False, name + ': build', err[:200])
                continue
            _, _, units = dwarfdump_units(o)
            named = any(d and d.rstrip('/') == usr for u in units for d in u['dirs'])
            result(named, name + ': its line table names %s (the positive control)' % usr,
                   '' if named else 'not named: %s' % [u['dirs'] for u in units])
            check_path_rule(name, o, pre + 'addr2line', lambda p: p,
                            {base + '/src/uprog.c'}, no_line)


def check_path_rule(name, o, a2l, to_rel, want_files, no_line):
    """lineloc -e -j .text (default stripping) and --via-table -e -j .text
    of @o at every offset of .text against @a2l: default == to_rel(the
    oracle's path), --via-table == loader_answer(the oracle's answer)."""
    n = text_size(o)
    addrs = list(range(n))
    orc = oracle_a2l(a2l, o, addrs, '.text')
    if not n or orc is None:
        return result(False, name + ': addr2line -j .text', '%d bytes of .text' % n)
    orc = [no_line(x) for x in orc]
    want_def = ['??:0' if x == '??:0' else '%s:%s' % (
        to_rel(x.rpartition(':')[0]), x.rpartition(':')[2]) for x in orc]
    rule, roots = loader_rule(o)
    want_via = [loader_answer(rule, x) for x in orc]
    seen = {x.rpartition(':')[0] for x in want_def if x != '??:0'}
    result(want_files <= seen, name + ': addr2line names every file at some '
           'offset', 'missing %s' % sorted(want_files - seen) if
           not want_files <= seen else '%d files' % len(seen))
    for what, extra, want in (('lineloc -e (default stripping)', [], want_def),
                              ('--via-table -e', ['--via-table'], want_via)):
        rc, out, err = run([LL] + extra + ['-e', o, '-j', '.text'],
                           ''.join('%x\n' % a for a in addrs).encode())
        got = [no_line(x) for x in out.splitlines()]
        diff = [(hex(a), g, w) for a, g, w in zip(addrs, got, want) if g != w]
        result(rc == 0 and len(got) == n and not diff,
               '%s: %s == the rule applied to %s -j .text, whole paths' % (name, what, a2l),
               '%d offsets, e.g. %s%s' % (n, sorted({x.rpartition(':')[0] for x in want
                                                    if x != '??:0'})[:4],
                                        '; differ (got, want): %s' % diff[:3] if diff
                                        else '' if rc == 0 else '; ' + err[-150:]))


def ltprobe(work):
    """tests/hosttool/ltprobe.c built against linetab_dec.c, or None."""
    exe = os.path.join(work, 'ltprobe')
    if not os.path.exists(exe):
        rc, _, err = run(['gcc', '-std=c11', '-Wall', '-Wextra', '-Werror',
                          '-O2'] + HT_INC + ['-o',
                          exe, os.path.join(TOP, 'tests', 'hosttool',
                                            'ltprobe.c'),
                          os.path.join(TOP, 'hosttool', 'lib', 'linetab_dec.c')])
        result(rc == 0, 'ltprobe.c builds warning-free', err.strip()[:300])
        if rc:
            return None
    return exe


def probe(exe, tab, offs):
    """(check_header's code, {offset: (code, answer)})"""
    rc, out, err = run([exe, tab] + ['%x' % o for o in offs])
    if rc:
        return None, {}
    chk, res = None, {}
    for l in out.splitlines():
        f = l.split(' ')
        if f[0] == 'check':
            chk = int(f[1])
        elif f[0] == 'lookup':
            res[int(f[1], 16)] = (int(f[2]), f[3] if len(f) > 3 else None)
    return chk, res


def test_damaged_tables(work):
    """A real compact table (hosttool/linetab, 4 rows a block, from
    lineloc's rows of a gcc-built program), damaged in one precise way per
    case; lineloc_check_header() and lineloc_lookup() must return exactly
    the documented code: LINELOC_E_HEADER (2), _CODE (3), _DATA (4), each
    once from the check and once from a lookup that the check lets
    through; and the same rows coded with the shared codes (linetab
    --shared-codes, with the short header): answers as the rows say,
    _CODESET (5) for another set's id, _HEADER for a short header cut in
    its numbers or whose parts outgrow the table."""
    print('== damaged compact tables: each LINELOC_E_* code', flush=True)
    lt = os.path.join(TOP, 'hosttool', 'linetab')
    # as linetab.sh: make test-hosttool builds lineloc, not linetab
    rc, _, err = run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                      'hosttool/linetab'], cwd=TOP)
    if rc or not os.path.exists(lt):
        return result(False, 'damaged tables: make hosttool/linetab',
                      err.strip()[-300:])
    if not shutil.which('gcc'):
        skip('damaged compact tables', 'no gcc')
        return
    exe = ltprobe(work)
    if not exe:
        return
    root = os.path.join(work, 'ltdamage')
    prog, _, err = build(root, 'x86_64', 'gcc', ['-g'], '-O2', record=False)
    text, err2 = rows(prog, ()) if prog else (None, err)
    if text is None:
        return result(False, 'damaged tables: rows of a program', err2[-200:])
    rws = parse_rows(text)
    rfile = os.path.join(root, 'rows.txt')
    open(rfile, 'w').write(text)
    good = os.path.join(root, 'good.bin')
    rc, _, err = run([lt, '--block', '4', '-o', good, rfile])
    if rc:
        return result(False, 'damaged tables: linetab -o', err.strip())
    t = bytearray(open(good, 'rb').read())
    H = list(struct.unpack_from('<21I', t, 0))
    base = min(r[2] for r in rws)
    last = max(r[2] for r in rws if not r[4]) - base
    final = max(r[2] for r in rws) - base   # the last entry: an end
    # the positive control: the table answers as the rows say
    first = [r for r in rws if r[2] == base and not r[4]][-1]
    lastr = [r for r in rws if r[2] == last + base and not r[4]][-1]
    want = {0: (0, '%s:%d' % first[:2]), last: (0, '%s:%d' % lastr[:2]),
            final: (1, None)}
    chk, res = probe(exe, good, [0, last, final])
    result(chk == 0 and res == want and H[4] > 1,
           'the undamaged table: check 0, lookups answer as the rows (%d '
           'entries, %d blocks)' % (H[2], H[4]), '%r %r, want %r' %
           (chk, res, want))
    E_HEADER, E_CODE, E_DATA, E_CODESET = -2, -3, -4, -5
    # header words (enum LINELOC_H_* in <linux/lineloc/table.h>)
    (SIZE, CODES, LUT_OFF, LONG_OFF, SUPER_OFF, INDEX_OFF, DATA_SIZE,
     NFILES, NDIRS, FILES_OFF) = 1, 5, 6, 7, 9, 10, 12, 13, 14, 15
    lut_bits = H[CODES] >> 16
    ngroups = (H[NFILES] + 15) // 16

    def put(b, off, fmt, v):
        struct.pack_into('<' + fmt, b, off, v)

    def dmg_magic(b):
        b[0] ^= 0x20

    def dmg_size(b):
        put(b, 4 * SIZE, 'I', len(b) + 1)

    def dmg_nctx(b):
        put(b, 4 * CODES, 'I', (H[CODES] & ~0xffff) | 25)

    def dmg_dirs(b):    # every file's directory index out of range
        for i in range(H[NFILES]):
            put(b, H[FILES_OFF] + 4 * ngroups + H[NFILES] + 2 * i, 'H',
                H[NDIRS])

    def dmg_walk(b):    # the first long code of context 0's record
        pos = struct.unpack_from('<I', b, H[LONG_OFF])[0]
        v = struct.unpack_from('<H', b, pos + 1 + 12)[0]
        put(b, pos + 1 + 12, 'H', (v + 1) & 0xffff)

    def dmg_lut(b):     # every decode table entry says "longer code"
        for i in range(26 << lut_bits):
            put(b, H[LUT_OFF] + 2 * i, 'H', 0xffff)

    def dmg_super(b):   # the first superblock starts at block 1
        put(b, H[SUPER_OFF] + 8, 'I', 1)

    def dmg_index(b):   # block 0's first row past every offset asked
        put(b, H[INDEX_OFF], 'H', 0xffff)

    def dmg_trunc(b):   # the data one byte short: the last block's end
        put(b, 4 * DATA_SIZE, 'I', H[DATA_SIZE] - 1)

    # name, damage, code of the check, lookup offset, code of the lookup
    cases = [
        ('magic', dmg_magic, E_HEADER, 0, E_HEADER),
        ('size past the buffer', dmg_size, E_HEADER, 0, E_HEADER),
        ('context count 25', dmg_nctx, E_HEADER, 0, E_HEADER),
        ('file records name a directory past the last', dmg_dirs, E_HEADER,
         0, E_HEADER),
        ('a long-code record\'s walk state', dmg_walk, E_CODE, None, None),
        ('decode tables all "longer code", records intact', dmg_lut, 0, 0,
         E_CODE),
        ('first superblock not at block 0', dmg_super, E_DATA, None, None),
        ('block index out of order', dmg_index, 0, 0, E_DATA),
        ('data one byte short, lookup of the last entry', dmg_trunc, 0,
         final, E_DATA),
    ]
    shared = os.path.join(root, 'shared.bin')
    rc, _, err = run([lt, '--block', '4', '--shared-codes', '-o', shared,
                      rfile])
    if rc:
        return result(False, 'damaged tables: linetab --shared-codes -o',
                      err.strip())
    ts = bytearray(open(shared, 'rb').read())
    chk, res = probe(exe, shared, [0, last, final])
    # u16 "LS", u32 the set's id, then 8 ULEB128 numbers (table.h)
    nums, at, starts = [], 6, []
    for _ in range(8):
        starts.append(at)
        v = sh = 0
        while True:
            v |= (ts[at] & 0x7f) << sh
            sh += 7
            at += 1
            if not ts[at - 1] & 0x80:
                break
        nums.append(v)
    result(chk == 0 and res == want and ts[:2] == b'LS' and nums[0] == H[2] and
           len(ts) < len(t),
           'the table with the shared codes: check 0, lookups answer as '
           'the rows, %d bytes (a %d-byte header) against %d with its own' % (
               len(ts), at, len(t)),
           '%r %r, want %r; header %s' % (chk, res, want, bytes(ts[:at]).hex()))

    def dmg_setid(b):   # another set's id
        b[2] ^= 1

    def dmg_cut(b):     # the table cut inside its header's numbers
        del b[at - 1:]

    def dmg_rows0(b):   # no rows a block: the blocks cannot be counted
        b[starts[1]:starts[2]] = bytes([0x80] * (starts[2] - starts[1] - 1) + [0])

    def dmg_strings(b):     # string bytes past the table's end
        del b[at - 1:at]
        b[at - 1:at - 1] = bytes([0xff, 0x7f])

    cases += [
        ('shared codes, another set\'s id', dmg_setid, E_CODESET, 0,
         E_CODESET),
        ('shared codes, the short header cut', dmg_cut, E_HEADER, 0, E_HEADER),
        ('shared codes, 0 rows a block', dmg_rows0, E_HEADER, 0, E_HEADER),
        ('shared codes, 16,383 string bytes', dmg_strings, E_HEADER, 0, E_HEADER),
    ]
    seen = set()
    for name, fn, want_chk, off, want_lk in cases:
        b = bytearray(ts if fn in (dmg_setid, dmg_cut, dmg_rows0, dmg_strings) else t)
        fn(b)
        f = os.path.join(root, 'bad-%d.bin' % len(seen))
        open(f, 'wb').write(b)
        seen.add(name)
        offs = [off] if off is not None else []
        chk, res = probe(exe, f, offs)
        got_lk = res.get(off, (None,))[0] if off is not None else None
        result(b not in (t, ts) and chk == want_chk and got_lk == want_lk,
               'damaged table, %s: check %d%s' % (
                   name, want_chk, '' if off is None else
                   ', lookup at 0x%x %d' % (off, want_lk)),
               'check %r, lookup %r' % (chk, res))


def part_random(part):
    """Each part draws from its own fixed stream (str seeds hash the same
    on every Python), so a part run alone samples what it samples in a
    full run."""
    return random.Random('lineloc-' + part)


PARTS = ['synth', 'generated', 'cli', 'mutants', 'debian', 'matrix', 'fuzz', 'linetab',
         'oracles', 'bigendian']
# Groups: the parts that read the matrix's kernels (tests/run.sh runs them
# after the matrix), and all the others.
KERNEL_PARTS = ['matrix', 'bigendian']
GROUPS = {'kernels': KERNEL_PARTS,
          'tools': [p for p in PARTS if p not in KERNEL_PARTS]}


def main():
    if set(sys.argv[1:]) & {'-h', '--help'}:
        print('usage: lltest.py [PART...]; PARTs: %s (default: all); '
              'groups: kernels (%s), tools (the others)' %
              (' '.join(PARTS), ' '.join(KERNEL_PARTS)))
        return 0
    bad = [a for a in sys.argv[1:] if a not in PARTS and a not in GROUPS]
    if bad:
        print('lltest: unknown part %s; the parts are: %s' %
              (', '.join(repr(a) for a in bad), ' '.join(PARTS)),
              file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix='lineloc-test-')
    try:
        for f in (LL, LL32, LLBE):
            if not os.path.exists(f):
                print('missing %s: run make hosttool hosttool-i686 hosttool-s390x' % f)
            elif f != LL:
                # scripts/install-deps.sh brings each arch's static zlib
                z = built_with_zlib(f)
                result(z, '%s is built with zlib' % os.path.basename(f),
                       '' if z else 'no zlib: run scripts/install-deps.sh')
        only = [p for a in sys.argv[1:] for p in GROUPS.get(a, [a])] or PARTS
        if 'synth' in only:
            test_synth(work)
        if 'cli' in only:
            test_freestanding(work)
            test_cli(work, part_random('cli'))
        if 'mutants' in only:
            test_mutants(work, mutant_seed())
        if 'generated' in only:
            test_generated(work, part_random('generated'))
            test_bigendian_generated(part_random('generated-s390x'))
        if 'debian' in only:
            test_debian(work, part_random('debian'))
        if 'matrix' in only:
            test_matrix(work, part_random('matrix'))
        if 'fuzz' in only:
            test_fuzz(work)
            test_fuzz_modlines(work)
            test_fuzz_lineloc(work)
        if 'linetab' in only:
            test_linetab(work)
        if 'oracles' in only:
            print('  oracles: random stream part_random(\'oracles\'), seed '
                  '\'lineloc-oracles\'', flush=True)
            test_forms(work)
            test_be_objects(work, part_random('oracles'))
            test_path_rule(work)
            test_damaged_tables(work)
        if 'bigendian' in only:
            test_bigendian(work, part_random('bigendian'))
            test_bigendian_kallsyms(work)
        check_reproducible(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return RESULTS.finish()


if __name__ == '__main__':
    sys.exit(main())
