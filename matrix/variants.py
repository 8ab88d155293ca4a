#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make the load-time variants of the test module: the module stripped as
an install strips it, the module stripped to what decoding at load time
needs, corruptions of its sections of line tables, of its .debug_line and
of the relocations of .debug_line, each of which must load (the kernel
keeps the module and drops its line table with one warning, or keeps the
table).

  qemu/variants.py --ko lltest.ko --objcopy PREFIXobjcopy --out DIR [--seed N] [--count N]

writes DIR/lltest-strip.ko (PREFIXstrip --strip-debug, what
INSTALL_MOD_STRIP=1 runs: its sections of line tables stay), DIR/sNN.ko,
one per kind of corruption of those sections, DIR/lltest-min.ko (objcopy
--strip-debug, keeping .debug_line and .debug_line_str: the recipe of the
Kconfig help, and without the sections of line tables: the tables are
built at load time), DIR/mNN.ko, one per corruption of lltest-min.ko, and
DIR/variants.json: for each file its kind, what was changed where, and
"expect": "warn" where the change makes the section invalid for certain
(the kernel must warn), "any" where either outcome is right.  A "warn" corruption also names the "section" and
"offset" its warning must name: the field it broke (a relocation: its
entry; a relocation section cut short: its new end); a kind whose first
fault the decoder meets cannot be told from the change (truncate, flip)
has null there.  The same seed gives the same files: the seed is printed.

With --dwarf SPEC=KO... (the module built again with other line-table
versions: gccN written by gcc, gasN by gas), each is copied to
DIR/dwarf/SPEC.ko without its sections of line tables (so that the loader
decodes that version) and listed under "dwarf" with the version read back from
it (lineloc --stats), which must be N.
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys


# riscv's R_RISCV_ADD8..SUB64: halves of a difference, two entries at one
# offset (<linux/lineloc/reloc.h>)
EM_RISCV = 243
RISCV_DIFFERENCES = range(33, 41)


class Elf:
    """The section headers of a little-endian ELF32/ELF64 file, in place."""

    def __init__(self, data):
        if data[:4] != b'\x7fELF' or data[5] != 1:
            raise ValueError('not a little-endian ELF file')
        self.data = data
        self.is64 = data[4] == 2
        self.machine = struct.unpack_from('<H', data, 18)[0]
        if self.is64:
            self.shoff, = struct.unpack_from('<Q', data, 0x28)
            self.shentsize, self.shnum, self.shstrndx = struct.unpack_from('<HHH', data, 0x3a)
        else:
            self.shoff, = struct.unpack_from('<I', data, 0x20)
            self.shentsize, self.shnum, self.shstrndx = struct.unpack_from('<HHH', data, 0x2e)
        self.secs = [self.header(i) for i in range(self.shnum)]
        strtab = self.secs[self.shstrndx]
        for s in self.secs:
            end = data.index(b'\0', strtab['offset'] + s['name'])
            s['sname'] = data[strtab['offset'] + s['name']:end].decode()

    def header(self, i):
        at = self.shoff + i * self.shentsize
        if self.is64:
            f = struct.unpack_from('<IIQQQQIIQQ', self.data, at)
        else:
            f = struct.unpack_from('<IIIIIIIIII', self.data, at)
        keys = ('name', 'type', 'flags', 'addr', 'offset', 'size', 'link', 'info',
                'align', 'entsize')
        d = dict(zip(keys, f))
        d['at'] = at
        d['index'] = i
        return d

    def set_size(self, s, size):
        fmt, off = ('<Q', 0x20) if self.is64 else ('<I', 0x14)
        struct.pack_into(fmt, self.data, s['at'] + off, size)

    def find(self, name):
        return next((s for s in self.secs if s['sname'] == name), None)

    def rel_of(self, target):
        return next((s for s in self.secs if s['type'] in (9, 4) and
                     s['info'] == target['index']), None)


def units(data, sec):
    """(offset, version, header fields offset) of each line program."""
    out, off, end = [], sec['offset'], sec['offset'] + sec['size']
    while off + 6 <= end:
        length, = struct.unpack_from('<I', data, off)
        if length >= 0xfffffff0:
            break
        version, = struct.unpack_from('<H', data, off + 4)
        out.append((off - sec['offset'], version))
        off += 4 + length
    return out


def hdr_field(version, name):
    """Offset of a header field from the unit's start (32-bit DWARF)."""
    base = 6 + (2 if version >= 5 else 0)      # address_size, seg_sel_size
    order = ['header_length', 'min_inst_length', 'max_ops', 'default_is_stmt',
             'line_base', 'line_range', 'opcode_base']
    sizes = {'header_length': 4}
    pos = base
    for f in order:
        if f == 'max_ops' and version < 4:
            continue
        if f == name:
            return pos
        pos += sizes.get(f, 1)
    raise KeyError(name)


def mutate(elf, kind, rnd):
    """Apply one corruption; return (what, expect, section, offset): where
    the kernel's warning must point, or None, None."""
    d = elf.data
    line = elf.find('.debug_line')
    rel = elf.rel_of(line)
    us = units(d, line)
    u, ver = rnd.choice(us)
    at = line['offset'] + u
    if kind == 'unit_length':
        v = rnd.choice([0xfffffff3, line['size'] * 4, 0x7fffffff])
        struct.pack_into('<I', d, at, v)
        return 'unit at %#x: unit_length %#x' % (u, v), 'warn', '.debug_line', u
    if kind == 'version':
        v = rnd.choice([0, 1, 6, 0xffff])
        struct.pack_into('<H', d, at + 4, v)
        return 'unit at %#x: version %d' % (u, v), 'warn', '.debug_line', u + 4
    if kind == 'header_length':
        v = rnd.choice([0xffffff, line['size'] + 1])
        struct.pack_into('<I', d, at + hdr_field(ver, 'header_length'), v)
        return ('unit at %#x: header_length %#x' % (u, v), 'warn', '.debug_line',
                u + hdr_field(ver, 'header_length'))
    if kind in ('line_range', 'opcode_base'):
        d[at + hdr_field(ver, kind)] = 0
        return 'unit at %#x: %s 0' % (u, kind), 'warn', '.debug_line', u + hdr_field(ver, kind)
    if kind == 'truncate':
        size = rnd.randrange(1, line['size'])
        elf.set_size(line, size)
        return '.debug_line cut to %#x of %#x bytes' % (size, line['size']), 'any', None, None
    if kind == 'flip':
        n = rnd.randrange(1, 9)
        spots = sorted(rnd.randrange(line['size']) for _ in range(n))
        for p in spots:
            d[line['offset'] + p] ^= 1 << rnd.randrange(8)
        return ('%d bits flipped at %s' % (n, ','.join('%#x' % p for p in spots)), 'any',
                None, None)
    esz = (24 if rel['type'] == 4 else 16) if elf.is64 else (12 if rel['type'] == 4 else 8)
    n = rel['size'] // esz
    i = rnd.randrange(n)
    at = rel['offset'] + i * esz
    info_at, w = (at + 8, 8) if elf.is64 else (at + 4, 4)
    info = int.from_bytes(d[info_at:info_at + w], 'little')
    if kind == 'rel_type':
        t = 0x7e
        info = (info & ~0xffffffff) | t if elf.is64 else (info & ~0xff) | t
        d[info_at:info_at + w] = info.to_bytes(w, 'little')
        return '%s entry %d: type %#x' % (rel['sname'], i, t), 'warn', rel['sname'], i * esz
    if kind == 'rel_offset':
        v = line['size'] + rnd.randrange(0, 64)
        d[at:at + w] = v.to_bytes(w, 'little')
        return ('%s entry %d: offset %#x past the section' % (rel['sname'], i, v), 'warn',
                rel['sname'], i * esz)
    if kind == 'rel_symbol':
        sym = 0xfffff0
        info = (info & 0xffffffff) | (sym << 32) if elf.is64 else (info & 0xff) | (sym << 8)
        d[info_at:info_at + w] = info.to_bytes(w, 'little')
        return '%s entry %d: symbol %#x' % (rel['sname'], i, sym), 'warn', rel['sname'], i * esz
    if kind == 'rel_size':
        size = rel['size'] - rnd.randrange(1, esz)
        elf.set_size(rel, size)
        return ('%s: size %#x not a multiple of its entries' % (rel['sname'], size), 'warn',
                rel['sname'], size)
    if kind == 'rel_order':
        # two entries at two offsets, neither half of a riscv difference
        # (an ADD and a SUB share one offset: swapped, the SUB comes first
        # and is refused itself, not the entry after it)
        def entry(k):
            e = rel['offset'] + k * esz
            t = int.from_bytes(d[e + w:e + 2 * w], 'little') & (0xffffffff if elf.is64 else 0xff)
            return int.from_bytes(d[e:e + w], 'little'), t
        pair = RISCV_DIFFERENCES if elf.machine == EM_RISCV else ()
        j = rnd.choice([k for k in range(n - 1)
                        if entry(k)[0] < entry(k + 1)[0] and
                        entry(k)[1] not in pair and entry(k + 1)[1] not in pair])
        a, b = rel['offset'] + j * esz, rel['offset'] + (j + 1) * esz
        ea, eb = bytes(d[a:a + esz]), bytes(d[b:b + esz])
        d[a:a + esz], d[b:b + esz] = eb, ea
        # the first entry out of order is the second of the two
        return ('%s entries %d and %d swapped' % (rel['sname'], j, j + 1), 'warn',
                rel['sname'], (j + 1) * esz)
    raise ValueError(kind)


KINDS = ['unit_length', 'version', 'header_length', 'line_range', 'opcode_base',
         'truncate', 'flip', 'rel_type', 'rel_offset', 'rel_symbol', 'rel_size',
         'rel_order']


# The sections of line tables (<linux/lineloc/module.h>): u16 "LM",
# then ULEB128 numbers: n, and n entries {name, size} (name: an index
# from 1 into the kernel's known names, or 0 and the name, NUL-terminated;
# each section where the one before ends, the first at 0); the table
# follows, to the section's end.  Its short header
# (<linux/lineloc/table.h>): u16 "LS", u32 the shared codes' id, then
# ULEB128 numbers in the order of SHORT.
SEC_CORE, SEC_INIT = '.lineloc', '.init.lineloc'
SEC_HDR, SEC_MAX = 2, 64
SEC_NAMES = ['.text', '.init.text', '.exit.text', '.text.unlikely',
             '.altinstr_replacement', '.static_call.text', '.altinstr_aux',
             '.noinstr.text', '.sched.text', '.text.hot', '.ref.text',
             '.spinlock.text', '.cpuidle.text', '.kprobes.text', '.entry.text',
             '.irqentry.text', '.softirqentry.text']
SHORT = ['entries', 'block_rows', 'nsuper', 'data_size', 'ndict', 'nfiles', 'ndirs',
         'str_size']


def uleb(d, at):
    """(value, offset after it) of the ULEB128 number at @at."""
    v = sh = 0
    while True:
        b = d[at]
        v |= (b & 0x7f) << sh
        sh += 7
        at += 1
        if not b & 0x80:
            return v, at


def put_uleb(d, at, end, v):
    """@v as a ULEB128 number in exactly the bytes @at..@end (not minimal
    where it has to be longer)."""
    n = end - at
    if v >= 1 << (7 * n):
        raise ValueError('%#x does not fit %d bytes' % (v, n))
    for i in range(n):
        d[at + i] = (v >> (7 * i)) & 0x7f | (0x80 if i < n - 1 else 0)


def sec_parse(d, sec):
    """The entries (offset, name index or None, name, base, (size at, end),
    size) and the table's offset, from the section's
    start, and the short header's numbers {name: (value, at, end)}."""
    at = sec['offset']
    n, pos = uleb(d, at + SEC_HDR)
    ents, end = [], 0
    for _ in range(n):
        off = pos - at
        k, pos = uleb(d, pos)
        if k:
            name = SEC_NAMES[k - 1]
        else:
            end = d.index(b'\0', pos)
            name, pos = d[pos:end].decode(), end + 1
        s0 = pos
        size, pos = uleb(d, pos)
        ents.append({'off': off, 'index': k or None, 'name': name, 'base': end,
                     'size': size, 'size_at': (s0 - at, pos - at)})
        end += size
    tab = pos - at
    num, pos = {}, pos + 6
    for w in SHORT:
        p0 = pos
        v, pos = uleb(d, pos)
        num[w] = (v, p0 - at, pos - at)
    return ents, tab, num, pos - at


def sec_mutate(elf, kind, rnd):
    """Apply one corruption of the sections of line tables; return (what,
    section, offset): the kernel must warn once, naming that place."""
    d = elf.data
    sec = elf.find(SEC_INIT) if kind == 'init_core' else elf.find(SEC_CORE)
    at, size = sec['offset'], sec['size']
    ents, tab, num, hend = sec_parse(d, sec)
    # the kinds that rewrite a name's index take an entry that has one (a
    # name the kernel does not know, .text.startup of a KASAN build, is
    # given whole)
    byidx = [e for e in ents if e['index']]
    ent = rnd.choice(byidx or ents)
    sname = sec['sname']
    if kind == 'magic':
        i = rnd.randrange(8 * SEC_HDR)
        d[at + i // 8] ^= 1 << (i % 8)
        return 'magic flipped', sname, 0
    if kind == 'count':
        v = SEC_MAX + 1 + rnd.randrange(0x7f - SEC_MAX)
        d[at + SEC_HDR] = v         # n < 128: one byte
        return 'count %d' % v, sname, SEC_HDR
    if kind == 'cut':
        v = rnd.randrange(0, SEC_HDR)
        elf.set_size(sec, v)
        return 'section cut to %d bytes' % v, sname, 0
    if kind == 'noalloc':
        fmt = '<Q' if elf.is64 else '<I'
        struct.pack_into(fmt, d, sec['at'] + 8, sec['flags'] & ~2)
        return 'SHF_ALLOC cleared', sname, 0
    if kind == 'ent_extra':
        d[at + SEC_HDR] += 1        # the table's "LS" read as an entry
        return 'count %d, one more than the entries' % d[at + SEC_HDR], sname, tab
    if kind == 'name_index':
        if ent['index'] is None:
            raise ValueError('%s: entry %s has its name inline' % (sname, ent['name']))
        v = len(SEC_NAMES) + 1 + rnd.randrange(0x7f - len(SEC_NAMES))
        d[at + ent['off']] = v
        return 'entry %s: name index %d' % (ent['name'], v), sname, ent['off']
    if kind == 'name_empty':
        ent = ents[0]               # index 0, then a NUL
        d[at + ent['off']] = 0
        d[at + ent['off'] + 1] = 0
        return 'entry %s: name empty' % ent['name'], sname, ent['off']
    if kind == 'name_missing':
        have = {e['name'] for e in ents}
        k = next(i for i, n in enumerate(SEC_NAMES) if n not in have and n != '.text'
                 and not n.startswith('.init') and not n.startswith('.exit'))
        d[at + ent['off']] = k + 1
        return ('entry %s: renamed %s, a section the module lacks' % (ent['name'],
                                                                      SEC_NAMES[k]),
                sname, ent['off'])
    if kind == 'name_twice':
        if len(byidx) < 2:
            raise ValueError('%s needs two entries in %s' % (kind, sname))
        e0, ei = byidx[0], byidx[rnd.randrange(1, len(byidx))]
        d[at + ei['off']] = e0['index']
        return 'entry %s: named %s' % (ei['name'], e0['name']), sname, ei['off']
    if kind == 'size_wrap':
        # two entries whose sizes sum past 4 GiB (the second's in 5 bytes),
        # written over the entries and the table's start: the fault is the
        # second entry, and nothing after it is read
        v = 0xffffffc0 + rnd.randrange(1, 64)
        body = bytearray([2, 1, 0x7f, 4, 0, 0, 0, 0, 0])
        put_uleb(body, 4, 9, v)
        if SEC_HDR + len(body) > size:
            raise ValueError('%s: no room for sizes past 4 GiB' % sname)
        d[at + SEC_HDR:at + SEC_HDR + len(body)] = body
        return ('.text of 0x7f bytes, then .text.unlikely of %#x: past 4 GiB' % v,
                sname, SEC_HDR + 3)
    if kind == 'size_mismatch':
        e = max(ents, key=lambda x: x['size'])
        put_uleb(d, at + e['size_at'][0], at + e['size_at'][1], e['size'] - 1)
        return 'entry %s: size %#x, not the section\'s' % (e['name'], e['size'] - 1), \
            sname, e['off']
    if kind == 'init_core':
        d[at + ent['off']] = 1      # .text
        return 'entry %s: renamed .text' % ent['name'], sname, ent['off']
    # the table: its checks name the table's start, its codes' id where it is
    if kind == 'tab_cut':
        v = rnd.randrange(hend, size)
        elf.set_size(sec, v)
        return 'table cut to %d of %d bytes' % (v - tab, size - tab), sname, tab
    if kind == 't_cut':
        v = rnd.randrange(tab, hend)
        elf.set_size(sec, v)
        return 'table cut to %d bytes, in its header' % (v - tab), sname, tab
    if kind == 't_magic':
        i = rnd.randrange(16)
        d[at + tab + i // 8] ^= 1 << (i % 8)
    elif kind == 't_set_id':
        i = rnd.randrange(32)
        d[at + tab + 2 + i // 8] ^= 1 << (i % 8)
        return 'table: another set of shared codes', sname, tab + 2
    elif kind[2:] in num:
        # each a sure failure: counts that disagree, a last file, directory,
        # string byte or data byte that some lookup of the check needs
        v, b0, b1 = num[kind[2:]]
        # (the blocks: the entries over the rows a block, rounded up; no
        # entries, no blocks, fewer than the superblocks)
        nblocks = -(-num['entries'][0] // num['block_rows'][0])
        new = {'t_block_rows': 0, 't_nsuper': nblocks + 1,
               't_entries': 0}.get(kind, v - 1)
        put_uleb(d, at + b0, at + b1, new)
    elif kind == 't_super_first':
        struct.pack_into('<I', d, at + hend + 8, 1 + rnd.randrange(8))
    elif kind == 't_index':
        struct.pack_into('<H', d, at + hend + 12 * num['nsuper'][0] + 2, 0xffff)
    else:
        raise ValueError(kind)
    return 'table: %s' % kind, sname, tab


SEC_KINDS = ['magic', 'count', 'cut', 'noalloc', 'ent_extra', 'name_index', 'name_empty',
             'name_missing', 'name_twice', 'size_wrap', 'size_mismatch', 'init_core',
             'tab_cut', 't_cut', 't_magic', 't_set_id', 't_block_rows', 't_nsuper',
             't_super_first', 't_index', 't_data_size', 't_str_size', 't_nfiles',
             't_ndirs', 't_entries']


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--ko', required=True)
    ap.add_argument('--objcopy', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=24)
    ap.add_argument('--dwarf', nargs='*', default=[], metavar='SPEC=KO')
    a = ap.parse_args()
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    # as INSTALL_MOD_STRIP=1 strips it (scripts/Makefile.modinst)
    strip = a.objcopy[:-len('objcopy')] + 'strip'
    stripped = os.path.join(a.out, 'lltest-strip.ko')
    p = subprocess.run([strip, '--strip-debug', '-o', stripped, a.ko],
                       capture_output=True, text=True)
    if p.returncode:
        print('variants.py: %s failed: %s' % (strip, p.stderr.strip()), file=sys.stderr)
        return 1
    sbase = open(stripped, 'rb').read()
    # a kernel before the sections of line tables (a commit of the series
    # before them, make bisect-check) builds modules without them
    has = Elf(bytearray(sbase)).find(SEC_CORE) is not None
    manifest = [{'file': 'lltest-strip.ko', 'kind': 'installed', 'what':
                 'strip --strip-debug (INSTALL_MOD_STRIP=1)',
                 'expect': 'lines' if has else 'any', 'source': 'section' if has else None,
                 'section': None, 'offset': None}]
    print('variants.py: seed %d, %d corruptions of the line-table sections of %s%s' % (
        a.seed, len(SEC_KINDS) if has else 0, os.path.basename(stripped),
        '' if has else ' (it has none)'))
    for i, kind in enumerate(SEC_KINDS if has else []):
        rnd = random.Random('%d-s%d' % (a.seed, i))
        elf = Elf(bytearray(sbase))
        what, section, offset = sec_mutate(elf, kind, rnd)
        name = 's%02d.ko' % i
        with open(os.path.join(a.out, name), 'wb') as f:
            f.write(elf.data)
        manifest.append({'file': name, 'kind': 'section_' + kind, 'what': what,
                         'expect': 'warn', 'section': section, 'offset': offset})
    mini = os.path.join(a.out, 'lltest-min.ko')
    p = subprocess.run([a.objcopy, '--strip-debug', '--keep-section=.debug_line',
                        '--keep-section=.debug_line_str', '--remove-section=' + SEC_CORE,
                        '--remove-section=' + SEC_INIT, a.ko, mini],
                       capture_output=True, text=True)
    if p.returncode:
        print('variants.py: %s failed: %s' % (a.objcopy, p.stderr.strip()), file=sys.stderr)
        return 1
    base = open(mini, 'rb').read()
    manifest.append({'file': 'lltest-min.ko', 'kind': 'stripped', 'what':
                     'objcopy --strip-debug --keep-section=.debug_line '
                     '--keep-section=.debug_line_str, no sections of line tables',
                     'expect': 'lines', 'source': 'debug_line', 'section': None,
                     'offset': None})
    # CONFIG_DEBUG_INFO_COMPRESSED's form: the loader does not inflate it
    p = subprocess.run([a.objcopy, '--compress-debug-sections=zlib', mini,
                        os.path.join(a.out, 'lltest-zlib.ko')], capture_output=True, text=True)
    if p.returncode:
        print('variants.py: %s failed: %s' % (a.objcopy, p.stderr.strip()), file=sys.stderr)
        return 1
    manifest.append({'file': 'lltest-zlib.ko', 'kind': 'compressed', 'what':
                     'objcopy --compress-debug-sections=zlib (SHF_COMPRESSED)',
                     'expect': 'warn', 'section': '.debug_line', 'offset': 0})
    print('variants.py: seed %d, %d corruptions of %s (%d bytes)' % (
        a.seed, a.count, os.path.basename(mini), len(base)))
    for i in range(a.count):
        kind = KINDS[i % len(KINDS)]
        rnd = random.Random('%d-%d' % (a.seed, i))
        elf = Elf(bytearray(base))
        what, expect, section, offset = mutate(elf, kind, rnd)
        name = 'm%02d.ko' % i
        with open(os.path.join(a.out, name), 'wb') as f:
            f.write(elf.data)
        manifest.append({'file': name, 'kind': kind, 'what': what, 'expect': expect,
                         'section': section, 'offset': offset})
    dwarf = []
    if a.dwarf:
        os.makedirs(os.path.join(a.out, 'dwarf'))
    lineloc = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           'hosttool', 'lineloc')
    for spec_ko in a.dwarf:
        spec, _, ko = spec_ko.partition('=')
        dst = os.path.join(a.out, 'dwarf', spec + '.ko')
        p = subprocess.run([a.objcopy, '--remove-section=' + SEC_CORE,
                            '--remove-section=' + SEC_INIT, ko, dst],
                           capture_output=True, text=True)
        if p.returncode:
            print('variants.py: %s failed: %s' % (a.objcopy, p.stderr.strip()),
                  file=sys.stderr)
            return 1
        p = subprocess.run([lineloc, '--stats', dst], capture_output=True, text=True)
        ver = next((l.split(':', 1)[1].strip() for l in p.stdout.splitlines()
                    if l.startswith('versions:')), '?')
        want = spec.lstrip('gcas')
        print('variants.py: %s: line table version %s (want %s)' % (spec, ver, want))
        if ver != want:
            print('variants.py: %s has line table version %s, not %s' % (ko, ver, want),
                  file=sys.stderr)
            return 1
        dwarf.append({'file': spec + '.ko', 'spec': spec, 'version': int(ver),
                      'writer': 'gcc' if spec.startswith('gcc') else 'gas'})
    with open(os.path.join(a.out, 'variants.json'), 'w') as f:
        json.dump({'seed': a.seed, 'variants': manifest, 'dwarf': dwarf}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
