# SPDX-License-Identifier: GPL-2.0
"""The oracles: what tools independent of the code under test say of an
address or a line table, and the path rules that make their answers
comparable with the kernel's.  The matrix's judge (matrix/judge.py and
matrix/judges/), tests/decode and the host-tool suite (tests/hosttool)
all read them from here, so that one rule is one function.

- path rules: strip_path() (the kernel's: tree roots stripped),
  module_strip() (a module's roots), kernel_root()/strip_roots() and
  loader_rule()/loader_answer() (the module loader's documented rule);
- llvm-symbolizer and the target's addr2line on a batch of addresses
  (oracle_llvm(), oracle_a2l(), norm_answer()), on vmlinux as the kernel
  prints (symbolize()) and on a module by symbol (ModuleOracle);
- llvm-dwarfdump's decoding of line tables and units (dwarfdump_rows(),
  dwarfdump_units(), dwarfdump_cus(), dwarf5_path());
- vmlinux's text symbols (Symbols).

Plain Python 3 and subprocess only: it also runs inside the i386
userland of tests/host32.
"""
import os
import re
import subprocess


def _run(cmd, inp=None):
    p = subprocess.run(cmd, input=inp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), \
        p.stderr.decode('utf-8', 'replace')


# --- path rules -------------------------------------------------------------


def module_strip(strip, obj):
    """What the kernel strips from a module's paths: the roots of the
    kernel's source tree, not the object tree (the M= module's own sources
    stay absolute; hosttool/lib/modlines.h)."""
    return [p for p in strip if p.rstrip('/') != obj.rstrip('/')]


def strip_path(loc, strip):
    """A path:line as the kernel prints it: the tree roots stripped."""
    path, _, num = loc.rpartition(':')
    path = os.path.normpath(path) if path not in ('??', '') else '??'
    for pre in sorted(strip, key=len, reverse=True):
        if path.startswith(pre):
            path = path[len(pre):]
            break
    return '%s:%s' % (path, num)


def kernel_root(d):
    """What precedes "include/linux" in directory @d (a whole segment pair,
    not the host's /usr/include), or None."""
    for m in re.finditer(r'(?:^|/)(include/linux)(?:/|$)', d):
        pre = d[:m.start(1)]
        if not pre.endswith('/usr/'):
            return pre
    return None


def strip_roots(path, roots):
    """@path without the longest of @roots it starts with (and goes past)."""
    best = max((r for r in roots if path.startswith(r) and len(path) > len(r)),
               key=len, default='')
    return path[len(best):]


_LOADER_RULE: dict = {}


def loader_rule(obj):
    """The module loader's documented path rule (README "Module line
    locations"; hosttool/README, modlines.c), applied to @obj's line tables
    as llvm-dwarfdump reads them: ({whole path: loader's path}, roots).  The
    whole path is what addr2line, llvm-symbolizer and lineloc --no-strip
    name: file name, its directory entry, the compilation directory.  The
    loader's path is the line table's own, which is exactly:
      DWARF 5: file name joined to its directory entry and, when that is
        relative, to directory 0 (the compilation directory): whole;
      DWARF 2-4: file name joined to its directory entry (index >= 1) only,
        never to DW_AT_comp_dir (in .debug_info, which the loader does not
        read): relative wherever the table is relative;
    normalised lexically, then the roots of a kernel tree stripped: what
    precedes "include/linux" in a directory (not /usr/include), and in a
    kernel, what precedes "arch/" in an assembler unit's absolute
    directories that no root covers.  A whole path that two entries name
    differently maps to None (the test cannot say which the loader used)."""
    if obj in _LOADER_RULE:
        return _LOADER_RULE[obj]
    _, _, units = dwarfdump_units(obj)
    cus = dwarfdump_cus(obj)
    entries, dirs_of = [], []
    for u in units:
        v5 = u['version'] == '5'
        comp, lang = cus.get(u['offset'], (None, None))
        dirs = u['dirs']
        if v5 and dirs:
            comp = dirs[0]
        tdirs = []     # the table's directories, index -> path or None
        for i, d in enumerate(dirs):
            if d is None:
                tdirs.append(None)
            elif v5 and i and not d.startswith('/'):
                tdirs.append(os.path.normpath(os.path.join(dirs[0], d)))
            else:
                tdirs.append(os.path.normpath(d))
        dirs_of.append((tdirs, lang))
        for name, di in u['files']:
            td = tdirs[di] if (v5 or di) and di is not None and \
                di < len(tdirs) and tdirs[di] is not None else ''
            table = os.path.normpath(os.path.join(td, name))
            # DWARF 5's table already holds directory 0, the compilation
            # directory, which may itself be relative (Debian's builds map
            # it to debian/build/...): joining it again would name it twice
            whole = table if v5 else os.path.normpath(os.path.join(comp or '', table))
            entries.append((whole, table))
    found = [kernel_root(d) for t, _ in dirs_of for d in t if d]
    kernel = any(r is not None for r in found)
    roots = {r for r in found if r}
    for tdirs, lang in dirs_of if kernel else []:
        if lang != 'DW_LANG_Mips_Assembler':
            continue
        for d in tdirs:
            k = (d or '').find('/arch/')
            covered = d and strip_roots(d + '/', roots) != d + '/'
            if d and d.startswith('/') and k >= 0 and not covered:
                roots.add(d[:k + 1])
    rule = {}
    for whole, table in entries:
        want = strip_roots(table, roots)
        rule[whole] = want if rule.get(whole, want) == want else None
    _LOADER_RULE[obj] = (rule, sorted(roots))
    return _LOADER_RULE[obj]


def loader_answer(rule, x):
    """The loader's answer for a whole-path answer @x (path:line or ??:0)
    under @rule (loader_rule); '<...>' when the rule cannot say."""
    if x == '??:0':
        return x
    path, _, line = x.rpartition(':')
    want = rule.get(os.path.normpath(path), '<not in the file tables>')
    return '%s:%s' % (want, line) if want else '<named two ways>'


# --- llvm-symbolizer and addr2line ------------------------------------------


def norm_answer(s):
    """An oracle's answer in lineloc's form: path:line or ??:0."""
    s = s.strip()
    s = re.sub(r' \(discriminator \d+\)$', '', s)
    if s.startswith('??'):
        return '??:0'
    path, _, line = s.rpartition(':')
    if line in ('?', ''):
        line = '0'
    if path.startswith('/'):
        path = os.path.normpath(path)
        if path.startswith('//'):
            path = path[1:]
    elif path:
        path = os.path.normpath(path)
    return '%s:%s' % (path, line)


def oracle_llvm(obj, addrs):
    inp = ''.join('0x%x\n' % a for a in addrs).encode()
    rc, out, err = _run(['llvm-symbolizer', '--obj=' + obj, '--output-style=GNU',
                        '--no-inlines', '--functions=none'], inp)
    lines = out.splitlines()
    if rc or len(lines) != len(addrs):
        return None
    return [norm_answer(x) for x in lines]


def parse_chains(text):
    """The answers of `-a -i -f` (llvm-symbolizer --output-style=GNU, or
    lineloc): per address, its levels innermost first, each (name,
    path:line) in lineloc's form."""
    out, cur = [], None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith('0x'):
            cur = []
            out.append(cur)
            i += 1
            continue
        if cur is None or i + 1 >= len(lines):
            raise ValueError('not an -a -i -f answer at line %d: %r' % (i + 1, lines[i]))
        cur.append((lines[i], norm_answer(lines[i + 1])))
        i += 2
    return out


def oracle_llvm_chains(obj, addrs):
    """llvm-symbolizer's chain of inlined calls at each address (see
    parse_chains), or None."""
    inp = ''.join('0x%x\n' % a for a in addrs).encode()
    rc, out, err = _run(['llvm-symbolizer', '--obj=' + obj, '--output-style=GNU',
                         '--inlining', '--functions=linkage', '--addresses'], inp)
    if rc:
        return None
    try:
        ch = parse_chains(out)
    except ValueError:
        return None
    return ch if len(ch) == len(addrs) else None


def chain_differs(ours, theirs):
    """Why chain @ours is not llvm-symbolizer's @theirs, or '': one rule
    for every level, innermost first: the same number of levels, each
    level's path:line the same, and each inlined level's name (every level
    but the outermost, which llvm-symbolizer takes from the symbol table,
    as a backtrace takes it from kallsyms)."""
    if len(ours) != len(theirs):
        return '%d levels, llvm-symbolizer %d' % (len(ours), len(theirs))
    for k, ((n1, l1), (n2, l2)) in enumerate(zip(ours, theirs)):
        if l1 != l2:
            return 'level %d: %s, llvm-symbolizer %s' % (k, l1, l2)
        if k + 1 < len(ours) and n1 != n2:
            return 'level %d: name %s, llvm-symbolizer %s' % (k, n1, n2)
    return ''


def oracle_a2l(tool, obj, addrs, sec=None):
    inp = ''.join('0x%x\n' % a for a in addrs).encode()
    cmd = [tool, '-e', obj] + (['-j', sec] if sec else [])
    rc, out, err = _run(cmd, inp)
    lines = out.splitlines()
    if rc or len(lines) != len(addrs):
        return None
    return [norm_answer(x) for x in lines]


def symbolize(vmlinux, addrs, strip):
    """llvm-symbolizer's path:line of each address, paths made relative
    to the source tree as the kernel prints them."""
    if not addrs:
        return []
    p = subprocess.run(['llvm-symbolizer', '--obj=' + vmlinux, '--output-style=GNU',
                        '--no-inlines', '--functions=none'],
                       input=''.join('%#x\n' % a for a in addrs), capture_output=True, text=True)
    # one rule for the oracle and the printed frames: strip_path()
    return [strip_path(re.sub(r' \(discriminator \d+\)$', '', line.strip()), strip)
            for line in p.stdout.splitlines()]



def symbolize_chains(vmlinux, addrs, strip):
    """llvm-symbolizer's chain of inlined calls at each address (see
    parse_chains), paths made relative to the source tree as the kernel
    prints them; a chain of one level where there is none."""
    if not addrs:
        return []
    ch = oracle_llvm_chains(vmlinux, addrs)
    if ch is None:
        raise RuntimeError('llvm-symbolizer --inlining failed on %s' % vmlinux)
    return [[(name, strip_path(loc, strip)) for name, loc in c] for c in ch]


def symbolize_outer(vmlinux, addrs, strip):
    """The path:line of each address in the function the symbol table
    names: the call site of the outermost level of inlined calls there
    (llvm-symbolizer --inlining's last level), as the kernel prints a
    frame with CONFIG_KALLSYMS_LINE_INLINES."""
    return [c[-1][1] if c else '??:0' for c in symbolize_chains(vmlinux, addrs, strip)]


class ModuleOracle:
    """Source line of a module address: the target's addr2line -j SECTION
    (it applies the target's REL/RELA relocations) for every section, and
    llvm-symbolizer for .text (LLVM 14 cannot tell .init.text from .text
    in a relocatable object)."""

    def __init__(self, ko, addr2line, nm, objdump, thumb):
        self.ko, self.addr2line = ko, addr2line
        self.syms = {}
        self.section = {}       # function name -> its section
        self.text = []          # (value, name) of the functions in .text
        out = subprocess.run([nm, '--defined-only', ko], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'tT':
                # a Thumb function's symbol carries bit 0; elsewhere (x86
                # at -Os) a function may start at an odd address
                self.syms[parts[2]] = int(parts[0], 16) & ~(1 if thumb else 0)
        out = subprocess.run([objdump, '-t', ko], capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r'^([0-9a-f]+) .{6}F (\.\S+)\s+[0-9a-f]+ (\S+)$', line)
            if m:
                self.section[m.group(3)] = m.group(2)
                if m.group(2) == '.text':
                    self.text.append((int(m.group(1), 16) & ~(1 if thumb else 0),
                                      m.group(3)))

    def function_at(self, addr):
        """The .text function that holds offset @addr, or None."""
        below = [x for x in self.text if x[0] <= addr]
        return max(below)[1] if below else None

    @staticmethod
    def _first(out):
        line = out.strip().splitlines()[0] if out.strip() else '??:0'
        return re.sub(r' \(discriminator \d+\)$', '', line)

    def lookup(self, sym, off, back, thumb):
        """Line of sym+off; back=1 for a return address, which is looked
        up at the call: at - 1, after dropping the Thumb bit that a Thumb
        return address carries (else - 1 lands on the next instruction)."""
        if sym not in self.syms:
            return None, None, None
        addr = self.syms[sym] + off
        if back:
            addr = (addr & ~1 if thumb else addr) - 1
        sec = self.section.get(sym, '.text')
        a2l = self._first(subprocess.run(
            [self.addr2line, '-e', self.ko, '-j', sec, '%#x' % addr],
            capture_output=True, text=True).stdout)
        if sec != '.text':
            return addr, a2l, '?? (not .text)'
        llvm = subprocess.run(
            ['llvm-symbolizer', '--obj=' + self.ko, '--output-style=GNU',
             '--no-inlines', '--functions=none', '%#x' % addr],
            capture_output=True, text=True).stdout
        return addr, a2l, self._first(llvm)


# --- llvm-dwarfdump ------------------------------------------------------------


def dwarfdump_rows(obj):
    """Rows as llvm-dwarfdump --debug-line decodes them (relocations applied),
    streamed: (path, line, addr, end, exact); exact is False for DWARF 2-4,
    whose compilation directory is not in the line table (then only a
    suffix of lineloc's path can be checked)."""
    p = subprocess.Popen(['llvm-dwarfdump', '--debug-line', obj],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, bufsize=1 << 20)
    ver = 5
    dirs, files = {}, {}
    cur = None
    cache = {}
    for l in p.stdout:
        if l.startswith('0x'):
            f = l.split()
            addr, line, fi = int(f[0], 16), int(f[1]), int(f[3])
            key = (fi, ver)
            path = cache.get(key)
            if path is None:
                if fi in files:
                    name, di = files[fi]
                    if ver >= 5:
                        d = dirs.get(di, '')
                        if di and not d.startswith('/'):
                            d = os.path.join(dirs.get(0, ''), d)
                    else:
                        d = dirs.get(di, '') if di else ''
                    path = os.path.normpath(os.path.join(d, name))
                else:
                    path = '??'
                cache[key] = path
            yield (path, line, addr, l.rstrip().endswith('end_sequence'),
                   ver >= 5)
            continue
        if l.startswith('debug_line['):
            dirs, files, cache = {}, {}, {}
            continue
        m = re.match(r'^\s+version: (\d+)', l)
        if m:
            ver = int(m.group(1))
            continue
        m = re.match(r'^include_directories\[\s*(\d+)\] = "(.*)"', l)
        if m:
            dirs[int(m.group(1))] = m.group(2)
            continue
        m = re.match(r'^file_names\[\s*(\d+)\]:', l)
        if m:
            cur = int(m.group(1))
            files[cur] = ['', 0]
            continue
        m = re.match(r'^\s+name: "(.*)"', l)
        if m and cur is not None:
            files[cur][0] = m.group(1)
            continue
        m = re.match(r'^\s+dir_index: (\d+)', l)
        if m and cur is not None:
            files[cur][1] = int(m.group(1))
    p.wait()


def dwarfdump_units(obj):
    """llvm-dwarfdump --debug-line of @obj: (exit status, stderr, units);
    a unit: {'offset', 'version', 'format', 'dirs': [str], 'files': [(name,
    dir_index)], 'rows': [(addr, line, file, end)]}."""
    rc, out, err = _run(['llvm-dwarfdump', '--debug-line', obj])
    units, u, cur = [], None, None
    for l in out.splitlines():
        if l.startswith('debug_line['):
            u = {'version': None, 'format': None, 'dirs': [], 'files': [],
                 'rows': [], 'offset': int(l[11:].split(']')[0], 16)}
            units.append(u)
            cur = None
            continue
        if u is None:
            continue
        m = re.match(r'^0x([0-9a-f]+)\s+(\d+)\s+\d+\s+(\d+)\s', l)
        if m:
            u['rows'].append((int(m.group(1), 16), int(m.group(2)),
                              int(m.group(3)), l.rstrip().endswith(
                                  'end_sequence')))
            continue
        m = re.match(r'^\s+(version|format): (\S+)', l)
        if m:
            u[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^include_directories\[\s*(\d+)\] = "(.*)"$', l)
        if m:
            if int(m.group(1)) != len(u['dirs']):
                u['dirs'].append(None)      # out of order: a mismatch
            u['dirs'].append(m.group(2))
            continue
        m = re.match(r'^file_names\[\s*(\d+)\]:', l)
        if m:
            u['files'].append(['', None])
            cur = u['files'][-1]
            continue
        m = re.match(r'^\s+name: "(.*)"$', l)
        if m and cur is not None:
            cur[0] = m.group(1)
            continue
        m = re.match(r'^\s+dir_index: (\d+)$', l)
        if m and cur is not None:
            cur[1] = int(m.group(1))
    for u in units:
        u['files'] = [tuple(f) for f in u['files']]
    return rc, err, units


def dwarfdump_cus(obj):
    """llvm-dwarfdump --debug-info of @obj: {DW_AT_stmt_list: (comp_dir or
    None, language or None)}, read from each unit's first DIE."""
    rc, out, _ = _run(['llvm-dwarfdump', '--debug-info', obj])
    cus, cur = {}, None
    for l in out.splitlines() + ['']:
        if re.search(r'DW_TAG_(compile|partial|skeleton)_unit$', l):
            cur = {}
            continue
        if cur is None:
            continue
        if not l.strip():
            if 'stmt' in cur:
                cus[cur['stmt']] = (cur.get('comp'), cur.get('lang'))
            cur = None
            continue
        m = re.match(r'^\s+DW_AT_(stmt_list|comp_dir|language)\s+\((.*)\)$', l)
        if m and m.group(1) == 'stmt_list':
            cur['stmt'] = int(m.group(2), 16)
        elif m and m.group(1) == 'comp_dir':
            cur['comp'] = m.group(2).strip('"')
        elif m:
            cur['lang'] = m.group(2)
    return cus


def dwarf5_path(dirs, name, di):
    """A DWARF 5 entry's whole path: name, its directory, directory 0."""
    d = dirs[di] if 0 <= di < len(dirs) else '?'
    if not d.startswith('/'):
        d = os.path.join(dirs[0], d)
    return os.path.normpath(os.path.join(d, name))



# --- vmlinux symbols ------------------------------------------------------------


class Symbols:
    """vmlinux's text symbols, to turn sym+off/size back into an address."""

    def __init__(self, vmlinux, nm):
        out = subprocess.run([nm, '-n', '--defined-only', vmlinux], capture_output=True,
                             text=True, check=True).stdout
        syms = []
        marks = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] in ('__entry_text_start', '__entry_text_end'):
                marks[parts[2]] = int(parts[0], 16)
            if len(parts) == 3 and parts[1] in 'tTwW':
                syms.append((int(parts[0], 16), parts[2]))
        self.entry = (marks.get('__entry_text_start', 0), marks.get('__entry_text_end', 0))
        self.by_name = {}
        addrs = sorted(set(a for a, _ in syms))
        nxt = {a: b for a, b in zip(addrs, addrs[1:])}
        for a, n in syms:
            self.by_name.setdefault(n, []).append((a, nxt.get(a, a) - a))

    def in_entry_text(self, name):
        """Is the function @name exception entry code (.entry.text)?"""
        cands = self.by_name.get(name, [])
        return any(self.entry[0] <= a < self.entry[1] for a, _ in cands)

    def address(self, name, off, size):
        cands = self.by_name.get(name, [])
        if len(cands) > 1:
            cands = [c for c in cands if c[1] == size] or cands
        return cands[0][0] + off if len(cands) == 1 else None
