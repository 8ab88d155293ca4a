# SPDX-License-Identifier: GPL-2.0
"""DWARF 5 line-table headers whose directory and file entry formats use
every form dwarf_line.c accepts there (the host-tool suite's oracles
part, test_forms), and headers with one form it refuses.

accepted(flavour) -> (ELF bytes, expect): the units of ACCEPTED, each a
file table in a different arrangement of forms; expect lists, per unit,
the directories and (name, dir_index) file entries written, so that the
oracle's own decoding (llvm-dwarfdump) is checked against what was meant
before lineloc is checked against the oracle.  Every file entry is the
file of one row.

refused(flavour, form, where) -> (ELF bytes, offset of the form's code in
.debug_line): one unit whose directory ('dir') or file ('file') entry
format names @form, and a first unit before it that decodes."""
import struct

from synth import STD, Unit, elf, sleb, uleb

LNCT = {'path': 1, 'directory_index': 2, 'timestamp': 3, 'size': 4,
        'MD5': 5, 'vendor': 0x2f00, 'vendor2': 0x2abc}

# the forms dwarf_line.c's form_ok() takes in an entry format
ACCEPT = {'block2': 0x03, 'block4': 0x04, 'data2': 0x05, 'data4': 0x06,
          'data8': 0x07, 'string': 0x08, 'block': 0x09, 'block1': 0x0a,
          'data1': 0x0b, 'sdata': 0x0d, 'strp': 0x0e, 'udata': 0x0f,
          'data16': 0x1e, 'line_strp': 0x1f}

# DWARF 5's other forms (and GNU's, and unassigned codes): refused there
REFUSE = {'addr': 0x01, 'flag': 0x0c, 'ref_addr': 0x10, 'ref1': 0x11,
          'ref2': 0x12, 'ref4': 0x13, 'ref8': 0x14, 'ref_udata': 0x15,
          'indirect': 0x16, 'sec_offset': 0x17, 'exprloc': 0x18,
          'flag_present': 0x19, 'strx': 0x1a, 'addrx': 0x1b,
          'ref_sup4': 0x1c, 'strp_sup': 0x1d, 'ref_sig8': 0x20,
          'implicit_const': 0x21, 'loclistx': 0x22, 'rnglistx': 0x23,
          'ref_sup8': 0x24, 'strx1': 0x25, 'strx2': 0x26, 'strx3': 0x27,
          'strx4': 0x28, 'addrx1': 0x29, 'addrx2': 0x2a, 'addrx3': 0x2b,
          'addrx4': 0x2c, 'GNU_addr_index': 0x1f01, 'GNU_str_index': 0x1f02,
          'GNU_ref_alt': 0x1f20, 'GNU_strp_alt': 0x1f21,
          'unassigned 0x02': 0x02, 'unassigned 0x2d': 0x2d,
          'past 16 bits 0x12345': 0x12345}

# Units: (name, DWARF 64?, directory format, file format); a format is a
# list of (content type, form).  Paths take string/line_strp/strp, the
# directory index every constant form, timestamp/size/vendor types the
# blocks, data16 and the rest: each accepted form in dirs and files,
# multi-byte ones with values that a wrong size or byte order misreads.
ACCEPTED = [
    ('string+udata', False,
     [('path', 'string')],
     [('path', 'string'), ('directory_index', 'udata'),
      ('timestamp', 'block'), ('size', 'data8'), ('MD5', 'data16')]),
    ('line_strp+data1', False,
     [('path', 'line_strp'), ('vendor', 'block1')],
     [('path', 'line_strp'), ('directory_index', 'data1'),
      ('timestamp', 'data4'), ('size', 'udata'), ('vendor', 'block2')]),
    ('strp+data2', False,
     [('vendor', 'data2'), ('path', 'strp')],
     [('vendor', 'block4'), ('path', 'strp'), ('size', 'data2'),
      ('directory_index', 'data2'), ('timestamp', 'sdata')]),
    ('mixed+data4', False,
     [('vendor', 'data16'), ('path', 'string'), ('vendor2', 'data8')],
     [('vendor', 'sdata'), ('directory_index', 'data4'),
      ('path', 'line_strp'), ('vendor2', 'block'), ('MD5', 'data16')]),
    ('data8 index', False,
     [('path', 'strp'), ('vendor', 'udata'), ('vendor2', 'data4')],
     [('path', 'string'), ('vendor', 'data1'), ('directory_index', 'data8'),
      ('vendor2', 'block1')]),
    # (an sdata directory index: lineloc takes its value, llvm-dwarfdump
    # 14 reads 0; DWARF 5 allows data1, data2 and udata there)
    ('sdata first', False,
     [('path', 'line_strp'), ('vendor', 'block')],
     [('timestamp', 'sdata'), ('path', 'strp'), ('vendor', 'data16'),
      ('directory_index', 'data1'), ('size', 'block2')]),
    ('dwarf64 line_strp+strp', True,
     [('path', 'line_strp'), ('vendor', 'block4')],
     [('path', 'strp'), ('directory_index', 'udata'), ('vendor', 'data8'),
      ('size', 'block1')]),
    ('dwarf64 strp+data2', True,
     [('vendor', 'sdata'), ('path', 'strp')],
     [('vendor2', 'data2'), ('path', 'line_strp'),
      ('directory_index', 'data2'), ('vendor', 'string')]),
]

# directory entries (0 is the compilation directory) and file entries
DIRS = ['/forms/%d', 'sub', '/abs/inc', '../up', 'deep/er/dir']
FILES = [('main.c', 0), ('a.h', 1), ('/abs/b.h', 2), ('c.h', 2),
         ('d.h', 3), ('e.h', 4), ('main.c', 1)]


class Strings:
    """.debug_line_str or .debug_str: offsets of strings put there."""
    def __init__(self):
        self.data = bytearray(b'\0')

    def add(self, s):
        o = len(self.data)
        self.data += s.encode() + b'\0'
        return o


def value(E, d64, form, v, strs):
    """The bytes of @v in @form.  Paths: @v a string; numbers: an int;
    blocks, data16 of vendor types: filler bytes from @v."""
    off = 'Q' if d64 else 'I'
    if form == 'string':
        return v.encode() + b'\0'
    if form == 'line_strp':
        return struct.pack(E + off, strs['line_str'].add(v))
    if form == 'strp':
        return struct.pack(E + off, strs['str'].add(v))
    if form == 'udata':
        return uleb(v)
    if form == 'sdata':
        return sleb(v)
    if form in ('data1', 'data2', 'data4', 'data8'):
        return struct.pack(E + {'data1': 'B', 'data2': 'H', 'data4': 'I',
                                'data8': 'Q'}[form], v)
    if form == 'data16':
        return bytes((v * 7 + i) & 0xff for i in range(16))
    # blocks: a length whose wrong reading (size, byte order) misaligns
    body = bytes((v + i) & 0xff for i in range(3 + v % 5))
    if form == 'block':
        return uleb(len(body)) + body
    if form == 'block1':
        return bytes([len(body)]) + body
    if form == 'block2':
        return struct.pack(E + 'H', len(body)) + body
    return struct.pack(E + 'I', len(body)) + body


def entry_format(fmt):
    out = bytes([len(fmt)])
    for t, f in fmt:
        out += uleb(LNCT[t]) + uleb(ACCEPT.get(f, REFUSE.get(f, 0)))
    return out


def entry(E, d64, fmt, path, dir_index, i, strs):
    """One entry: @path and @dir_index where the format says; the other
    content types get values that differ per entry."""
    out = b''
    for t, f in fmt:
        if t == 'path':
            out += value(E, d64, f, path, strs)
        elif t == 'directory_index':
            out += value(E, d64, f, dir_index, strs)
        elif f == 'string':
            out += value(E, d64, f, 'vendor-%d' % i, strs)
        elif f in ('line_strp', 'strp'):
            out += value(E, d64, f, 'v%d' % i, strs)
        elif f in ('data1', 'data2', 'data4', 'data8', 'udata', 'sdata'):
            # data8/udata big, a negative sdata: a wrong size or sign shows
            big = {'data1': 0xa5, 'data2': 0xbeef, 'data4': 0xdeadbeef,
                   'data8': 0x0123456789abcdef, 'udata': 300 + 1000 * i,
                   'sdata': -77 - i}[f]
            out += value(E, d64, f, big, strs)
        else:
            out += value(E, d64, f, 0x40 + i, strs)
    return out


def unit_tables(E, d64, n, dir_fmt, file_fmt, strs):
    dirs = [d % n if '%' in d else d for d in DIRS]
    t = entry_format(dir_fmt) + uleb(len(dirs))
    for i, d in enumerate(dirs):
        t += entry(E, d64, dir_fmt, d, 0, i, strs)
    t += entry_format(file_fmt) + uleb(len(FILES))
    for i, (name, di) in enumerate(FILES):
        t += entry(E, d64, file_fmt, name, di, i, strs)
    return t, dirs


def unit_program(u, base, nfiles):
    """Each file in turn (file 0 first): set_file, a line of its own, a
    row; a few bytes apart; one sequence."""
    u.set_address(base)
    line = 1
    for i in range(nfiles):
        u.prog += b'\x04' + uleb(i)
        want = 10 * (i + 1) + i
        u.prog += b'\x03' + sleb(want - line) + b'\x01'
        line = want
        u.prog += b'\x02' + uleb(2 + i)
    u.special(0, 1)
    u.prog += b'\x02' + uleb(4)
    u.ext(1, b'')


def accepted(flavour):
    """(ELF bytes, expect): expect per unit: (name, DWARF 64?, dirs,
    [(file name, dir_index)])."""
    _, is64, E, _ = flavour
    asz = 8 if is64 else 4
    strs = {'line_str': Strings(), 'str': Strings()}
    line = b''
    expect = []
    for n, (name, d64, dir_fmt, file_fmt) in enumerate(ACCEPTED):
        u = Unit(E, asz, 5, dwarf64=d64)
        u.tables, dirs = unit_tables(E, d64, n, dir_fmt, file_fmt, strs)
        unit_program(u, 0x10000 * (n + 1), len(FILES))
        line += u.build(STD)
        expect.append((name, d64, dirs, list(FILES)))
    data = elf(flavour, [('.debug_line', line),
                         ('.debug_line_str', bytes(strs['line_str'].data)),
                         ('.debug_str', bytes(strs['str'].data))])
    return data, expect


def refused(flavour, form, where):
    """A good unit, then one whose @where ('dir' or 'file') entry format
    has @form as its second content type (a vendor type: any form would
    be right for it by type); returns (ELF bytes, .debug_line offset of
    that form's code)."""
    _, is64, E, _ = flavour
    asz = 8 if is64 else 4
    strs = {'line_str': Strings(), 'str': Strings()}
    good = Unit(E, asz, 5)
    good.tables, _ = unit_tables(E, False, 0, [('path', 'string')],
                                 [('path', 'string'),
                                  ('directory_index', 'udata')], strs)
    unit_program(good, 0x1000, len(FILES))
    first = good.build(STD)
    bad = Unit(E, asz, 5)
    dir_fmt = [('path', 'string')]
    file_fmt = [('path', 'string'), ('directory_index', 'udata')]
    fmt = dir_fmt if where == 'dir' else file_fmt
    fmt.insert(1, ('vendor', form))
    # the tables up to and including the bad format; what follows is
    # never read
    pre = b''
    if where == 'file':
        pre = entry_format(dir_fmt) + uleb(1) + b'/d\0'
    head = entry_format(fmt)
    # the form code: after the count byte, the first pair, the vendor type
    at = len(pre) + 1 + len(uleb(LNCT[fmt[0][0]])) + \
        len(uleb(ACCEPT[fmt[0][1]])) + len(uleb(LNCT['vendor']))
    bad.tables = pre + head + uleb(1) + b'x\0\x05' + bytes(4)
    if where == 'dir':
        bad.tables += entry_format(file_fmt) + uleb(1) + b'f.c\0\x00'
    bad.set_address(0x2000)
    bad.prog += b'\x01'
    bad.ext(1, b'')
    second = bad.build(STD)
    tables_at = len(second) - len(bad.prog) - len(bad.tables)
    data = elf(flavour, [('.debug_line', first + second)])
    return data, len(first) + tables_at + at
