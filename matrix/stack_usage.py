#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The stack that a %pBl (or %pSl) line lookup uses, from -fstack-usage.

usage: stack_usage.py [--json] [--bound BYTES] OBJ_DIR...

For a kernel O= folder built with CONFIG_KALLSYMS_LINE_LOCATIONS=y, each
object of the lookup path (OBJECTS) is compiled again into a temporary
folder with kbuild's own command for it (the first line of
<O>/<dir>/.<name>.o.cmd, its compiler included, so a cross gcc for a
cross build) and -fstack-usage added; its dependency file and object go to
the temporary folder, the O= folder is only read.  The call graph is the
objects' own: the call and tail-call targets of `objdump -dr` of the
objects just compiled, restricted to the functions these objects define;
the indirect calls of the lookup (the kallsyms_line_fn callback that
kallsyms_line_with() and module_line_loc() call) are edges from the
sources (INDIRECT).

The chain is the deepest one, in bytes, of a %pBl that reaches the line
lookup: printk's vsnprintf() down to symbol_string() (the 'l' handling),
then kallsyms_line_loc_snprint() and everything below it, for a vmlinux
address (the table linked into vmlinux) and for a module address (through
module_line_loc()).  A frame is the .su figure of its function; a
function marked "dynamic" (not bounded) is a failure.  Functions of other
objects (strlen, memcpy, __module_address) are leaves of the measured
chain, counted as 0 and named.  For comparison, the deepest chain of the
symbol part of the same %pB (sprint_backtrace() and below, within these
objects) is given too.

Prints one line per folder; exit status 0 when every folder was measured,
had no dynamic frame and (with --bound) stayed within the bound.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

OBJECTS = ['kernel/kallsyms_lines.o', 'kernel/module/lines.o', 'lib/vsprintf.o',
           'kernel/kallsyms.o', 'lib/lineloc/linetab_dec.o']
OPTION = 'CONFIG_KALLSYMS_LINE_LOCATIONS=y'
ENTRY = 'vsnprintf'             # printk's way into lib/vsprintf.c
VIA = 'symbol_string'           # the %p[SsB] handling, its 'l' included
LOOKUP = 'kallsyms_line_loc_snprint'
MODULE = 'module_line_loc'
SYMBOL = ('sprint_backtrace', 'sprint_backtrace_build_id')
# Indirect calls, from kernel/kallsyms_lines.c and kernel/module/lines.c:
# kallsyms_line_with() and module_line_loc() call the kallsyms_line_fn
# they are given; a %p[SB]l passes kallsyms_line_snprint_fn.  An indirect
# call of a function of the chain that is not listed here is reported.
INDIRECT = {'kallsyms_line_snprint_fn'}
INDIRECT_CALLERS = {'kallsyms_line_with', 'module_line_loc', LOOKUP}
# The printf entry points that a function of the chain may call again
# below printk's own vsnprintf() (kallsyms_line_len() formats ":%u").
PRINTF = {'vsnprintf', 'snprintf', 'sprintf', 'scnprintf', 'vscnprintf', 'vsprintf'}
# Below symbol_string(), pointer() is reached again only by __sprint_symbol()'s
# " %20phN" (the build ID of %pBb): hex_string().  The line lookup's own
# formats have no %p (checked in the sources, see no_pointer_formats()).
NESTED_POINTER = {'hex_string'}
# The bounds (see README.md): the deepest chain from printk's vsnprintf(),
# and its part below symbol_string(), which the series adds.
BOUND = 2048
LOOKUP_BOUND = 1024
# With CONFIG_KALLSYMS_LINE_INLINES the lookup of a %pBl decodes the chain
# of inlined calls to find the outermost call's line (lineloc_lookup_outer()):
# its state is about 600 bytes more, which the option's help text states
# (riscv64's decoder frame is the deepest: 1,552 bytes below
# symbol_string(), 2,464 from vsnprintf(), on 2026-12-07).
BOUND_INLINES = 2560
LOOKUP_BOUND_INLINES = 1600
LOOKUP_SOURCES = ['kernel/kallsyms_lines.c', 'lib/lineloc/linetab_dec.c',
                  'kernel/module/lines.c']


class Error(Exception):
    pass


# ---------------------------------------------------------------- .cmd

def read_cmd(obj_dir, obj):
    """kbuild's compiler command of @obj (relative to @obj_dir), as argv:
    the first line of its .cmd file, up to the first ';' (objtool and the
    like follow), with make's $$ as $."""
    d, name = os.path.split(obj)
    path = os.path.join(obj_dir, d, '.%s.cmd' % name)
    try:
        with open(path) as f:
            first = f.readline().rstrip('\n')
    except OSError as e:
        raise Error('%s: %s' % (obj, e.strerror))
    # "cmd_" up to 6.2, "savedcmd_" since
    m = re.match(r'^(?:saved)?cmd_(\S+) := (.*)$', first)
    if not m:
        raise Error('%s: no cmd_ (or savedcmd_) line' % path)
    lex = shlex.shlex(m.group(2).replace('$$', '$'), posix=True, punctuation_chars=';&|')
    lex.whitespace_split = True
    argv = []
    for tok in lex:
        if tok and set(tok) <= set(';&|'):
            break
        argv.append(tok)
    if '-c' not in argv or '-o' not in argv:
        raise Error('%s: not a compile command: %s' % (path, ' '.join(argv[:4])))
    return argv


def stack_command(argv, tmp, stem):
    """@argv with its outputs in @tmp (object, dependency file, and so the
    .su beside the object), -fstack-usage added, and the compiler without
    its cache wrapper (matrix/ccache-cc, ccache)."""
    while argv and os.path.basename(argv[0]) in ('ccache', 'ccache-cc', 'sccache'):
        argv = argv[1:]
    out = []
    it = iter(argv)
    for a in it:
        if a == '-o':
            next(it)
            out += ['-o', os.path.join(tmp, stem + '.o')]
        elif a.startswith('-Wp,-MMD,') or a.startswith('-Wp,-MD,'):
            out.append(a.split(',', 2)[0] + ',' + a.split(',', 2)[1] + ',' +
                       os.path.join(tmp, stem + '.d'))
        elif a in ('-MD', '-MMD', '-MF', '-MT', '-MQ') or a.startswith('-MF'):
            raise Error('dependency flag %s: only -Wp,-MMD is handled' % a)
        else:
            out.append(a)
    return out + ['-fstack-usage']


def tool_of(cc, name):
    """The binutils @name beside compiler @cc (a cross gcc's prefix)."""
    base = os.path.basename(cc)
    if 'clang' in base:
        return 'llvm-' + name
    m = re.match(r'^(.*-)?(gcc|cc)(-\d+)?$', base)
    return ((m.group(1) or '') if m else '') + name


def compile_su(obj_dir, obj, tmp):
    """Compile @obj again with -fstack-usage into @tmp: (path of the new
    object, .su text, compiler argv[0])."""
    stem = obj.replace('/', '__')[:-2]
    cmd = stack_command(read_cmd(obj_dir, obj), tmp, stem)
    p = subprocess.run(cmd, cwd=obj_dir, capture_output=True, text=True)
    if p.returncode:
        raise Error('%s: compile failed (%d): %s' % (obj, p.returncode, p.stderr.strip()[-300:]))
    su = os.path.join(tmp, stem + '.su')
    if not os.path.exists(su):
        raise Error('%s: the compiler wrote no %s' % (obj, os.path.basename(su)))
    with open(su) as f:
        return os.path.join(tmp, stem + '.o'), f.read(), cmd[0]


# ---------------------------------------------------------------- parsing

SU_LINE = re.compile(r'^(.*):(\d+):(\d+):(\S+)\t(\d+)\t(static|dynamic|dynamic,bounded)$')


def parse_su(text, obj=''):
    """{function: (bytes, qualifier, obj)} of a .su text (gcc's
    file:line:col:function<TAB>bytes<TAB>qualifier); a line that does not
    parse is an error, never skipped."""
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        m = SU_LINE.match(line)
        if not m:
            raise Error('%s: .su line not understood: %r' % (obj, line))
        out[m.group(4)] = (int(m.group(5)), m.group(6), obj)
    return out


FUNC = re.compile(r'^[0-9a-f]+ <([^>]+)>:$')
INSN = re.compile(r'^\s*([0-9a-f]+):\t(?:(?:[0-9a-f]{2,8} )+\s*\t)?(\S+)\s*(.*)$')
RELOC = re.compile(r'^\s*([0-9a-f]+): (R_\S+)\s+([^\s+-]+)(?:\+0x([0-9a-f]+))?')
TARGET = re.compile(r'<([^>+]+)(\+0x[0-9a-f]+)?>')
CALL_OPS = re.compile(r'^(call[lq]?|bl|blx|bl\.w|blx\.w)$')
# riscv calls and tail calls: auipc ra (or t1, t0 for a tail call) with
# R_RISCV_CALL(_PLT) naming the callee, then jalr ra (jr t1)
RISCV_CALL = re.compile(r'^auipc\s+ra,')
RISCV_TAIL = re.compile(r'^auipc\s+t[01],')
# jumps, conditional ones too (a conditional tail call): x86 jmp/jcc,
# arm b<cc>[.w/.n] and bx, arm64 b, b.<cc>, cbz/cbnz, tbz/tbnz
CC = r'(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)'
JUMP_OPS = re.compile(r'^(j[a-z]{1,5}|bx|b%s?(\.[wn])?|b\.%s|cbn?z|tbn?z)$' % (CC, CC))
# indirect calls; an indirect jump is a switch's jump table (x86 jmp *,
# arm64 br) or a return (bx lr), not a call
INDIRECT_OPS = re.compile(r'^(call[lq]?\s+\*|blx\s+r\d|blr\s+x\d|jalr\s+(?!ra\b)\w+\s*$)')
THUNK = re.compile(r'^__x86_indirect_(call_)?thunk_')


def parse_objdump(text):
    """{function: {'calls': set, 'tails': set, 'indirect': bool}} from
    `objdump -dr`: call instructions and their relocations, and jumps to
    the start of another function (tail calls)."""
    funcs = {}
    starts = {}             # (section, offset) -> function
    section = ''
    pending = []            # calls through a section symbol: resolved at the end
    cur = None
    last_op, insn_at = '', 0
    for line in text.splitlines():
        m = re.match(r'^Disassembly of section (\S+):$', line)
        if m:
            section = m.group(1)
            continue
        m = FUNC.match(line)
        # riscv objects keep their local labels (.L*, $x mapping symbols)
        # in the symbol table: objdump heads a block with each, inside the
        # function
        if m and m.group(1)[0] in '.$':
            continue
        if m:
            cur = funcs.setdefault(m.group(1), {'calls': set(), 'tails': set(),
                                                'indirect': False})
            name = m.group(1)
            starts[(section, int(line.split()[0], 16))] = name
            continue
        if cur is None:
            continue
        m = RELOC.match(line)
        if m:
            # the relocation of the branch just read (not a literal pool's)
            if not last_op or not 0 <= int(m.group(1), 16) - insn_at < 8:
                continue
            kind = 'calls' if last_op == 'call' else 'tails'
            target = m.group(3)
            last_op = ''
            if THUNK.match(target):
                cur['indirect'] = True
            elif target.startswith('.'):
                # R_X86_64_PLT32 and the like carry the -4 of the pc: the
                # target's start is the one at or just past the addend
                pending.append((cur, kind, target, int(m.group(4) or '0', 16)))
            elif target != name:
                cur[kind].add(target)
            continue
        m = INSN.match(line)
        if not m:
            continue
        insn_at, op, args = int(m.group(1), 16), m.group(2), m.group(3)
        last_op = 'call' if CALL_OPS.match(op) else 'jump' if JUMP_OPS.match(op) else ''
        if RISCV_CALL.match(op + ' ' + args):
            last_op = 'call'
        elif RISCV_TAIL.match(op + ' ' + args):
            last_op = 'jump'
        if INDIRECT_OPS.match(op + ' ' + args):
            cur['indirect'] = True
            last_op = ''
            continue
        t = TARGET.search(args)
        if t and last_op and t.group(1) != name and not t.group(1).startswith('.'):
            # a jump into another function's middle is not a tail call
            if last_op == 'call' or not t.group(2) or int(t.group(2), 16) == 0:
                cur['calls' if last_op == 'call' else 'tails'].add(t.group(1))
    for f, kind, sec, off in pending:
        t = next((starts[(sec, o)] for o in range(off, off + 5) if (sec, o) in starts), None)
        if t:
            f[kind].add(t)
    return funcs


def clone(name):
    """A function's name without the numbers of gcc's clones."""
    return re.sub(r'\.\d+(?=\.|$)', '', name)


def base(name):
    """A function's name without gcc's clone suffix (.isra.0, .constprop.0,
    .part.0, .cold)."""
    return name.split('.')[0]


# ---------------------------------------------------------------- chains

class Graph:
    """The functions of the measured objects: frame bytes and callees."""

    def __init__(self, frames, funcs):
        # name -> (bytes, qualifier, obj); gcc's .su says lt_block.constprop
        # where the symbol is lt_block.constprop.0
        self.frames = dict((clone(n), v) for n, v in frames.items())
        self.funcs = funcs              # name -> objdump edges
        self.by_base = {}
        for n in funcs:
            self.by_base.setdefault(base(n), []).append(n)
        self.external = set()

    def names(self, fn):
        """The defined functions of source function @fn (clones too)."""
        return self.by_base.get(fn, [])

    def su(self, fn):
        """(bytes, qualifier, obj) of function @fn, or None."""
        return self.frames.get(clone(fn)) or self.frames.get(base(fn))

    def frame(self, fn):
        return (self.su(fn) or (0,))[0]

    def edges(self, fn):
        """(callee, tail) of @fn within the objects; other callees are
        remembered as external leaves."""
        f = self.funcs[fn]
        out = []
        for kind in ('calls', 'tails'):
            for t in sorted(f[kind]):
                if t in self.funcs:
                    out.append((t, kind == 'tails'))
                else:
                    self.external.add(t)
        if f['indirect'] and base(fn) in INDIRECT_CALLERS:
            out += [(t, False) for cb in sorted(INDIRECT) for t in self.names(cb)]
        return out

    def deepest(self, fn, path, allow, stop=None):
        """The deepest chain from @fn that avoids the functions on @path
        (printf's entry points may come again) and follows only the edges
        that @allow(caller, callee, path) lets through: (chain, bytes),
        the chain a list of (function, counted), where a function that
        tail-calls the next one is not counted (its frame is gone).  With
        @stop, only chains that end at that function: the deepest way to
        reach it, or None."""
        path = path + [fn]
        if stop and fn == stop:
            return [(fn, True)], self.frame(fn)
        best = None if stop else ([(fn, True)], self.frame(fn))
        for t, tail in self.edges(fn):
            if t in path and base(t) not in PRINTF:
                continue
            if not allow(fn, t, path):
                continue
            sub = self.deepest(t, path, allow, stop)
            if sub is None:
                continue
            chain = [(fn, not tail)] + sub[0]
            size = sub[1] + (0 if tail else self.frame(fn))
            if best is None or size > best[1]:
                best = (chain, size)
        return best


def allow_nested(fn, t, path):
    """pointer() below symbol_string() only for the build ID's %ph."""
    if base(fn) == 'pointer' and [base(p) for p in path].count('pointer') > 1:
        return base(t) in NESTED_POINTER
    return True


def no_pointer_formats(src):
    """The line lookup's sources print no %p: their printf calls cannot
    reach pointer() (and so symbol_string()) again.  The lines that would."""
    bad = []
    for rel in LOOKUP_SOURCES:
        try:
            with open(os.path.join(src, rel)) as f:
                for i, line in enumerate(f, 1):
                    if re.search(r'"[^"]*%p[^"]*"', line):
                        bad.append('%s:%d' % (rel, i))
        except OSError:
            pass
    return bad


def source_dir(obj_dir):
    """The kernel source tree of an O= folder (its Makefile's include)."""
    try:
        with open(os.path.join(obj_dir, 'Makefile')) as f:
            m = re.search(r'^include (\S+)/Makefile$', f.read(), re.M)
            return m.group(1) if m else ''
    except OSError:
        return ''


def weak_functions(objdump_t):
    """The weak functions of an `objdump -t` listing."""
    out = set()
    for line in objdump_t.splitlines():
        f = line.split()
        if len(f) >= 6 and ' w ' in line[:30] and 'F' in f[1:4]:
            out.add(f[-1])
    return out


def merge_objects(parts):
    """One graph from each object's (obj, frames, funcs, weak): a weak
    definition (kernel/kallsyms.c's stubs of the line lookup) gives way to
    a strong one; two strong definitions of one name are an error."""
    frames, funcs, weak = {}, {}, {}
    for obj, fr, fu, wk in parts:
        for name, edges in fu.items():
            if name in funcs:
                if name in wk:
                    continue
                if not weak.get(name):
                    raise Error('%s is defined in %s and in another object' % (name, obj))
            funcs[name] = edges
            weak[name] = name in wk
            k = clone(name)
            hit = [n for n in fr if clone(n) == k]
            if hit:
                frames[name] = fr[hit[0]]
        for name, v in fr.items():
            if not any(clone(n) == clone(name) for n in fu) and name not in frames:
                frames[name] = v        # no code (inlined everywhere): kept for the record
    return Graph(frames, funcs)


def measure(obj_dir, objects=OBJECTS):
    """The stack of the line lookup path in the O= folder @obj_dir: see
    chains().  Raises Error when it cannot measure."""
    obj_dir = os.path.abspath(obj_dir)
    try:
        with open(os.path.join(obj_dir, '.config')) as f:
            if OPTION not in f.read().split('\n'):
                raise Error('%s holds a build without %s' % (obj_dir, OPTION))
    except OSError as e:
        raise Error('%s: no .config (%s)' % (obj_dir, e.strerror))
    parts = []
    tmp = tempfile.mkdtemp(prefix='stack-usage.')
    try:
        for obj in objects:
            o, su, cc = compile_su(obj_dir, obj, tmp)
            out = []
            for flags in (['-dr', '--no-show-raw-insn'], ['-t']):
                p = subprocess.run([tool_of(cc, 'objdump')] + flags + [o],
                                   capture_output=True, text=True)
                if p.returncode:
                    raise Error('%s: objdump failed: %s' % (obj, p.stderr.strip()[-200:]))
                out.append(p.stdout)
            parts.append((obj, parse_su(su, obj), parse_objdump(out[0]),
                          weak_functions(out[1])))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return chains(merge_objects(parts), source_dir(obj_dir))


def chains(g, src=''):
    """The chains of the lookup path in graph @g: a dict with 'vmlinux'
    and 'module' (the line lookup of a vmlinux and of a module address)
    and 'symbol' (the symbol part of the same %pB, for comparison), each
    {'frames': [(function, bytes counted)], 'bytes': the sum,
    'lookup': the bytes below symbol_string()}; 'bytes', the larger of
    the two lookups; 'dynamic_on_path', 'unmeasured', 'indirect',
    'external', 'notes'."""
    res = {'dynamic': sorted('%s (%s)' % (n, o) for n, (b, q, o) in g.frames.items()
                             if q == 'dynamic'),
           'indirect': [], 'notes': []}
    for need in (ENTRY, VIA, LOOKUP):
        if not g.names(need):
            raise Error('%s is not among the functions of %s' % (need, ', '.join(OBJECTS)))
    bad = no_pointer_formats(src) if src else []
    if bad:
        res['notes'].append('%%p in the lookup sources (%s): pointer() counted below it'
                            % ', '.join(bad))
    # printk's vsnprintf() to symbol_string(): the deepest way there
    pre = None
    for e in g.names(ENTRY):
        for v in g.names(VIA):
            c = g.deepest(e, [], lambda f, t, p: base(t) != VIA or t == v, stop=v)
            if c and (pre is None or c[1] > pre[1]):
                pre = c
    if pre is None:
        raise Error('no call chain from %s to %s in the objects' % (ENTRY, VIA))
    head = pre[0]                       # ends with symbol_string, counted
    on_head = [n for n, _ in head]

    def in_lookup(f, t, path):
        if not bad and base(t) == 'pointer':
            return False
        return allow_nested(f, t, path)

    def below(roots, allow, path=on_head, stop=None):
        best = None
        for root in roots:
            for r in g.names(root):
                c = g.deepest(r, path, allow, stop)
                if c and (best is None or c[1] > best[1]):
                    best = c
        return best

    found = {'vmlinux': below([LOOKUP], lambda f, t, p: base(t) != MODULE and
                              in_lookup(f, t, p)),
             'symbol': below(SYMBOL, allow_nested)}
    for m in g.names(MODULE):
        # the deepest way from the lookup to module_line_loc(), then below it
        to = below([LOOKUP], in_lookup, stop=m)
        if to is None:
            continue
        rest = g.deepest(m, on_head + [n for n, _ in to[0][:-1]], in_lookup)
        c = (to[0][:-1] + rest[0], to[1] - g.frame(m) + rest[1])
        if found.get('module') is None or c[1] > found['module'][1]:
            found['module'] = c
    if not found.get('module'):
        res['notes'].append('%s is not called below %s' % (MODULE, LOOKUP))
    for key, c in found.items():
        if c:
            frames = [(n, g.frame(n) if counted else 0) for n, counted in head + c[0]]
            res[key] = {'frames': frames, 'bytes': sum(b for _, b in frames),
                        'lookup': c[1]}
    res['bytes'] = max(res[k]['bytes'] for k in ('vmlinux', 'module') if k in res)
    on = set(n for k in ('vmlinux', 'module') if k in res for n, _ in res[k]['frames'])
    res['indirect'] = sorted(n for n in on if g.funcs[n]['indirect'] and
                             base(n) not in INDIRECT_CALLERS)
    res['dynamic_on_path'] = sorted(n for n in on if (g.su(n) or (0, ''))[1] == 'dynamic')
    res['bounded_on_path'] = sorted(n for n in on if (g.su(n) or (0, ''))[1] ==
                                    'dynamic,bounded')
    res['external'] = sorted(g.external)
    res['unmeasured'] = sorted(n for n in on if not g.su(n))
    return res


def render(c):
    """A chain as 'f 72 > g 0 (tail call) > ...'."""
    return ' > '.join('%s %d' % (n, b) for n, b in c['frames'])


def verdict(r, bound=BOUND, lookup_bound=LOOKUP_BOUND):
    """(ok, detail) of measurement @r against the bounds: the deepest
    chain from printk's vsnprintf() at most @bound bytes, its part below
    symbol_string() (the series' own) at most @lookup_bound, and no
    function of it with a dynamic (unbounded) frame or without a figure."""
    worst = max((k for k in ('vmlinux', 'module') if k in r), key=lambda k: r[k]['bytes'])
    c = r[worst]
    lookup = max(r[k]['lookup'] for k in ('vmlinux', 'module') if k in r)
    ok = (r['bytes'] <= bound and lookup <= lookup_bound and not r['dynamic_on_path']
          and not r['unmeasured'])
    detail = '%d bytes from %s() (bound %d), %d below %s() (bound %d), %s address: %s' % (
        r['bytes'], ENTRY, bound, lookup, VIA, lookup_bound, worst, render(c))
    if 'symbol' in r:
        detail += '; the symbol part of the same %%pB: %d' % r['symbol']['bytes']
    if r['dynamic_on_path']:
        detail += '; DYNAMIC frames: ' + ', '.join(r['dynamic_on_path'])
    if r['unmeasured']:
        detail += '; no .su figure: ' + ', '.join(r['unmeasured'])
    return ok, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('obj_dirs', nargs='+', metavar='OBJ_DIR')
    ap.add_argument('--bound', type=int, default=BOUND,
                    help='bytes from vsnprintf() (default %(default)s)')
    ap.add_argument('--lookup-bound', type=int, default=LOOKUP_BOUND,
                    help='bytes below symbol_string() (default %(default)s)')
    ap.add_argument('--json', action='store_true', help='print the measurement as JSON')
    a = ap.parse_args()
    rc = 0
    for d in a.obj_dirs:
        name = os.path.basename(os.path.normpath(d))
        try:
            r = measure(d)
        except Error as e:
            print('%s: cannot measure: %s' % (name, e))
            rc = 1
            continue
        ok, _ = verdict(r, a.bound, a.lookup_bound)
        if a.json:
            print(json.dumps(dict(r, folder=d, ok=ok), indent=1))
            rc |= not ok
            continue
        print('%s: line lookup stack %d bytes from %s(), %d below %s() '
              '(vmlinux address %d, module address %s): %s' % (
                  name, r['bytes'], ENTRY, max(r[k]['lookup'] for k in ('vmlinux', 'module')
                                               if k in r), VIA,
                  r['vmlinux']['bytes'], r['module']['bytes'] if 'module' in r else '-',
                  'within %d / %d' % (a.bound, a.lookup_bound) if ok else
                  'OVER the bounds %d / %d or unbounded' % (a.bound, a.lookup_bound)))
        for k in ('vmlinux', 'module', 'symbol'):
            if k in r:
                print('  %-8s %5d  %s' % (k, r[k]['bytes'], render(r[k])))
        if r['bounded_on_path']:
            print('  dynamic,bounded (counted as measured): %s' % ', '.join(r['bounded_on_path']))
        if r['dynamic']:
            print('  dynamic frames elsewhere in the objects: %s' % ', '.join(r['dynamic']))
        if r['dynamic_on_path']:
            print('  FAIL: dynamic frames on the path: %s' % ', '.join(r['dynamic_on_path']))
        if r['unmeasured']:
            print('  FAIL: no .su figure for %s' % ', '.join(r['unmeasured']))
        if r['indirect']:
            print('  note: unresolved indirect calls in %s' % ', '.join(r['indirect']))
        for n in r['notes']:
            print('  note: %s' % n)
        rc |= not ok
    return rc


if __name__ == '__main__':
    sys.exit(main())
