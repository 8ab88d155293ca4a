# SPDX-License-Identifier: GPL-2.0
"""What more than one part of the host-tool suite uses: the paths of
the lineloc builds and the suite's settings, the results (every check an
ok/FAIL/SKIP line), running lineloc and the oracles and comparing their
answers, the reproducible builds of the generated objects, the row checks
(against llvm-dwarfdump, outside unit ranges, relocatable objects per
section), Debian's debug kernel, the matrix's kernels and the big-endian
host's comparison.  Oracles: llvm-symbolizer first, the target's binutils
addr2line second.

Importing it puts tests/hosttool (synth.py, formsynth.py), tests
(result.py) and matrix (cell.py, oracles.py) on sys.path.
"""
import errno
import io
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)     # tests/hosttool: synth.py, formsynth.py
try:
    from elftools.elf.elffile import ELFFile
except ImportError:
    # Debian's python3-pyelftools, for a python3 that is not Debian's
    sys.path.append('/usr/lib/python3/dist-packages')
    try:
        from elftools.elf.elffile import ELFFile
    except ImportError:
        sys.exit('hostsuite: needs pyelftools: apt-get install python3-pyelftools '
                 '(scripts/install-deps.sh)')

TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'matrix'))
sys.path.insert(0, os.path.join(TOP, 'tests'))
import cell  # noqa: E402  (the arch facts)
from result import Results  # noqa: E402
from oracles import (dwarfdump_rows, loader_answer, loader_rule,  # noqa: E402
                     oracle_a2l, oracle_llvm)
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


# name, gcc, binutils prefix: the matrix's arches (arch-configs/)
# (on an i386 host, x86_64's is x86_64-linux-gnu-gcc: matrix/cell.py)
TOOLCHAINS = [(a, cell.tool(f, 'gcc'), cell.cross_prefix(f))
              for a, f in ((a, cell.load_arch(a)) for a in cell.all_arches())]
CC = {a: cc for a, cc, _ in TOOLCHAINS}


# Every object the suite compiles is built from a copy of src/ inside a
# build root, with paths relative to that root, and the root mapped to
# WORK_MAP: the DWARF strings, and so every byte of the objects (and of the
# mutants made from them), are the same whatever the temporary folder and
# wherever the repository is cloned.  check_reproducible() (hostsuite.py)
# builds each recipe again in another root and compares.
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


def text_size(f):
    rc, out, _ = run(['readelf', '-SW', f])
    for l in out.splitlines():
        m = re.search(r'\] \.text\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)', l)
        if m:
            return int(m.group(1), 16)
    return 0


# the matrix's arches (make test builds their cells first), and the
# on-demand ones (ONDEMAND_ARCHES) whose cell has been run here
MATRIX = [(a, pre) for a, _, pre in TOOLCHAINS if a in cell.arches() or
          os.path.exists(os.path.join(TOP, os.environ.get('BUILD') or 'build', a, 'vmlinux'))]


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


def part_random(part):
    """Each part draws from its own fixed stream (str seeds hash the same
    on every Python), so a part run alone samples what it samples in a
    full run."""
    return random.Random('lineloc-' + part)
