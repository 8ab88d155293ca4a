# SPDX-License-Identifier: GPL-2.0
"""Hand-assembled line programs in tiny ELF files of either class and byte
order, for what compilers here do not produce: big-endian objects,
DW_LNE_define_file, opcode_base other than 13, an unknown standard and an
unknown extended opcode, VLIW max_ops_per_inst, every DWARF 5 entry form."""
import struct

FLAVOURS = [  # name, ELF class (64?), byte order, e_machine
    ('le64', True, '<', 62),     # x86_64
    ('be64', True, '>', 183),    # aarch64_be
    ('le32', False, '<', 3),     # i386
    ('be32', False, '>', 40),    # armeb
]


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        done = (v == 0 and not b & 0x40) or (v == -1 and b & 0x40)
        out.append(b | (0 if done else 0x80))
        if done:
            return bytes(out)


class Unit:
    def __init__(self, E, asz, ver, dwarf64=False, opcode_base=13,
                 min_inst=1, max_ops=1, line_base=-5, line_range=14):
        self.E, self.asz, self.ver, self.d64 = E, asz, ver, dwarf64
        self.ob, self.min_inst, self.max_ops = opcode_base, min_inst, max_ops
        self.lb, self.lr = line_base, line_range
        self.tables = b''
        self.prog = bytearray()

    def off(self, v):
        return struct.pack(self.E + ('Q' if self.d64 else 'I'), v)

    def special(self, op_adv, line_delta):
        op = (line_delta - self.lb) + self.lr * op_adv + self.ob
        assert self.ob <= op <= 255
        self.prog.append(op)

    def ext(self, sub, payload):
        self.prog += b'\0' + uleb(1 + len(payload)) + bytes([sub]) + payload

    def set_address(self, a):
        self.ext(2, struct.pack(self.E + ('Q' if self.asz == 8 else 'I'), a))

    def build(self, std_lengths):
        E = self.E
        hdr = bytes([self.min_inst])
        if self.ver >= 4:
            hdr += bytes([self.max_ops])
        hdr += bytes([1, self.lb & 0xff, self.lr, self.ob])
        hdr += bytes(std_lengths) + self.tables
        body = struct.pack(E + 'H', self.ver)
        if self.ver >= 5:
            body += bytes([self.asz, 0])
        body += self.off(len(hdr)) + hdr + bytes(self.prog)
        if self.d64:
            return b'\xff\xff\xff\xff' + struct.pack(E + 'Q', len(body)) + body
        return struct.pack(E + 'I', len(body)) + body


STD = [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]


def prog_v2(E, asz):
    """v2, opcode_base 10 (10-12 are special), define_file, unknown
    extended opcode, fixed_advance_pc, const_add_pc, discriminator."""
    u = Unit(E, asz, 2, opcode_base=10)
    u.tables = b'inc\0\0' + b'a.c\0' + uleb(0) * 3 + b'b.h\0' + uleb(1) + \
        uleb(0) * 2 + b'\0'
    p = u.prog
    u.set_address(0x1000)
    p += b'\x03' + sleb(9) + b'\x01'             # line 10, copy
    u.special(4, 1)                              # 0x1004 line 11
    p.append(10)                                 # special: line -5 -> 6
    p += b'\x04\x02'                             # file 2
    u.special(2, 3)                              # 0x1006 line 9
    u.ext(3, b'gen.c\0' + uleb(1) + uleb(0) + uleb(0))   # file 3
    p += b'\x04\x03\x03' + sleb(100)             # file 3, line 109
    p += b'\x09' + struct.pack(E + 'H', 0x10) + b'\x01'  # 0x1016, copy
    u.ext(0x80, b'\xaa\xbb\xcc')                 # unknown extended opcode
    p += b'\x08\x03' + sleb(-100)                # +17: 0x1027, line 9
    u.special(0, 0)
    u.ext(4, uleb(5))                            # discriminator
    p += b'\x06\x01'                             # negate_stmt, copy
    p += b'\x02' + uleb(9)                       # 0x1030
    u.ext(1, b'')
    return u.build(STD[:9])


EXPECT_V2 = ['a.c:10 0x1000', 'a.c:11 0x1004', 'a.c:6 0x1004',
             'inc/b.h:9 0x1006', 'inc/gen.c:109 0x1016',
             'inc/gen.c:9 0x1027', 'inc/gen.c:9 0x1027',
             'inc/gen.c:9 0x1030 end']
# address -> answer of lineloc -e
LOOKUP_V2 = {0x1000: 'a.c:10', 0x1005: 'a.c:6', 0x1015: 'inc/b.h:9',
             0x1027: 'inc/gen.c:9', 0x102f: 'inc/gen.c:9', 0x1030: '??:0',
             0xfff: '??:0', 0x3002: 'v.c:2', 0x300c: '??:0'}


def prog_vliw(E, asz):
    """v4, min_inst_length 4, max_ops_per_inst 3."""
    u = Unit(E, asz, 4, min_inst=4, max_ops=3)
    u.tables = b'\0' + b'v.c\0' + uleb(0) * 3 + b'\0'
    u.set_address(0x3000)
    u.prog += b'\x01'
    u.special(2, 1)          # op_index 2, same address
    u.special(2, 1)          # op_index 4 -> address +4, op_index 1
    u.prog += b'\x02' + uleb(5) + b'\x01'    # op_index 6 -> +8, copy
    u.ext(1, b'')
    return u.build(STD)


EXPECT_VLIW = ['v.c:1 0x3000', 'v.c:2 0x3000', 'v.c:3 0x3004',
               'v.c:3 0x300c', 'v.c:3 0x300c end']


# A kernel text address, above 4 GiB: a 32-bit host must keep every
# address in 64 bits (never an unsigned long or a size_t).
HIGH = 0xffffffff81000000


def prog_high(E):
    """v4, 8-byte addresses: rows at HIGH and past it, reached by a special
    opcode, advance_pc, fixed_advance_pc and const_add_pc."""
    u = Unit(E, 8, 4)
    u.tables = b'\0' + b'k.c\0' + uleb(0) * 3 + b'\0'
    u.set_address(HIGH)
    u.prog += b'\x01'                            # k.c:1
    u.special(4, 1)                              # +4, line 2
    u.prog += b'\x02' + uleb(0x100) + b'\x01'    # +0x100, copy
    u.prog += b'\x09' + struct.pack(E + 'H', 0x10)   # +0x10
    u.special(0, 1)                              # line 3
    u.prog += b'\x08'                            # const_add_pc: +17
    u.special(0, 1)                              # line 4
    u.ext(1, b'')
    return u.build(STD)


EXPECT_HIGH = ['k.c:1 0x%x' % HIGH, 'k.c:2 0x%x' % (HIGH + 4),
               'k.c:2 0x%x' % (HIGH + 0x104), 'k.c:3 0x%x' % (HIGH + 0x114),
               'k.c:4 0x%x' % (HIGH + 0x125),
               'k.c:4 0x%x end' % (HIGH + 0x125)]
# address -> answer of lineloc -e
LOOKUP_HIGH = {HIGH - 1: '??:0', HIGH: 'k.c:1', HIGH + 5: 'k.c:2',
               HIGH + 0x113: 'k.c:2', HIGH + 0x114: 'k.c:3',
               HIGH + 0x124: 'k.c:3', HIGH + 0x125: '??:0',
               HIGH & 0xffffffff: '??:0', (HIGH + 5) & 0xffffffff: '??:0'}


def prog_v3_ob14(E, asz):
    """v3, opcode_base 14: opcode 13 is an unknown standard opcode with two
    ULEB operands, to be skipped."""
    u = Unit(E, asz, 3, opcode_base=14)
    u.tables = b'/abs/dir\0\0' + b'x.c\0' + uleb(1) + uleb(0) * 2 + b'\0'
    u.set_address(0x2000)
    u.prog += b'\x0d' + uleb(300) + uleb(5) + b'\x01'
    u.special(3, 2)
    u.prog += b'\x02' + uleb(2)
    u.ext(1, b'')
    return u.build(STD + [2])


def prog_v5(E, asz, d64, line_str, strs):
    """v5 with line_strp/strp/string, data1/2/4/8/16, udata, block and a
    vendor content type; file 0 is the primary file."""
    u = Unit(E, asz, 5, dwarf64=d64)

    def ls(s):
        o = len(line_str)
        line_str.extend(s.encode() + b'\0')
        return u.off(o)

    def st(s):
        o = len(strs)
        strs.extend(s.encode() + b'\0')
        return u.off(o)
    t = bytes([2]) + uleb(1) + uleb(0x1f) + uleb(0x2001) + uleb(0x05)
    t += uleb(3) + ls('/synth' + ('64' if d64 else '')) + b'\x01\x00'
    t += ls('sub') + b'\x02\x00' + ls('../up') + b'\x03\x00'
    t += bytes([6]) + uleb(1) + uleb(0x0e) + uleb(2) + uleb(0x0b) + \
        uleb(5) + uleb(0x1e) + uleb(4) + uleb(0x0f) + uleb(3) + \
        uleb(0x06) + uleb(0x2002) + uleb(0x09)
    files = [('main.c', 0), ('x.h', 1), ('y.h', 2), ('/abs/z.h', 1)]
    t += uleb(len(files))
    for i, (n, d) in enumerate(files):
        t += st(n) + bytes([d]) + bytes(range(16)) + uleb(1000 + i) + \
            struct.pack(E + 'I', 7) + uleb(2) + b'\xde\xad'
    u.tables = t
    u.set_address(0x4000 + (0x100 if d64 else 0))
    u.prog += b'\x01'
    u.prog += b'\x04\x01'
    u.special(1, 4)
    u.prog += b'\x04\x02'
    u.special(2, -1)
    u.prog += b'\x04\x03\x05' + uleb(7)     # file 3, column 7
    u.special(5, 0)
    u.prog += b'\x0a\x0b\x0c' + uleb(1) + b'\x07'   # prologue, epilogue, isa
    u.special(1, 1)
    u.prog += b'\x02' + uleb(3)
    u.ext(1, b'')
    return u.build(STD)


def elf(flavour, sections, far=0):
    """An ELF file of @sections; with @far, its sections and section
    headers start at that file offset (the caller writes the file sparse:
    header at 0, the rest at @far)."""
    name, is64, E, machine = flavour
    shstr = bytearray(b'\0')
    names = []
    for n, _ in sections:
        names.append(len(shstr))
        shstr += n.encode() + b'\0'
    names.append(len(shstr))
    shstr += b'.shstrtab\0'
    secs = list(sections) + [('.shstrtab', bytes(shstr))]
    ehsize = 64 if is64 else 52
    data = bytearray(ehsize)
    offs = []
    for _, d in secs:
        offs.append(len(data) + far)
        data += d
    while len(data) % 8:
        data.append(0)
    shoff = len(data) + far
    shentsize = 64 if is64 else 40
    data += bytes(shentsize)
    for i, (n, d) in enumerate(secs):
        if is64:
            data += struct.pack(E + 'IIQQQQIIQQ', names[i],
                                3 if n == '.shstrtab' else 1, 0, 0, offs[i],
                                len(d), 0, 0, 1, 0)
        else:
            data += struct.pack(E + 'IIIIIIIIII', names[i],
                                3 if n == '.shstrtab' else 1, 0, 0, offs[i],
                                len(d), 0, 0, 1, 0)
    ident = b'\x7fELF' + bytes([2 if is64 else 1, 1 if E == '<' else 2, 1]) \
        + bytes(9)
    if is64:
        hdr = ident + struct.pack(E + 'HHIQQQIHHHHHH', 2, machine, 1, 0, 0,
                                  shoff, 0, ehsize, 0, 0, shentsize,
                                  len(secs) + 1, len(secs))
    else:
        hdr = ident + struct.pack(E + 'HHIIIIIHHHHHH', 2, machine, 1, 0, 0,
                                  shoff, 0, ehsize, 0, 0, shentsize,
                                  len(secs) + 1, len(secs))
    data[:ehsize] = hdr
    return bytes(data)


def write_far(path, flavour, sections, far):
    """A sparse file whose sections lie beyond @far (past 4 GiB): 32-bit
    hosts need 64-bit file offsets to read it."""
    data = elf(flavour, sections, far)
    _, is64, _, _ = flavour
    ehsize = 64 if is64 else 52
    with open(path, 'wb') as f:
        f.write(data[:ehsize])
        f.seek(far + ehsize)
        f.write(data[ehsize:])


def build(flavour):
    """(hand, oracle): the first checked against EXPECT_*, the second
    against llvm-dwarfdump."""
    _, is64, E, _ = flavour
    asz = 8 if is64 else 4
    hand = elf(flavour, [('.debug_line', prog_v2(E, asz) +
                          prog_vliw(E, asz))])
    line_str, strs = bytearray(), bytearray()
    dl = prog_v3_ob14(E, asz) + prog_v5(E, asz, False, line_str, strs) + \
        prog_v5(E, asz, True, line_str, strs)
    oracle = elf(flavour, [('.debug_line', dl),
                           ('.debug_line_str', bytes(line_str)),
                           ('.debug_str', bytes(strs))])
    return hand, oracle


# ---------------------------------------------------------------------------
# Clipping rows to the address ranges of their compilation unit: line
# tables, and the .debug_info units that own them, with every way a unit
# states its ranges.

def line_table(E, asz, ver, name, seqs):
    """A v3/v4 table of file @name; @seqs: [(rows, end)], rows a list of
    (address, line) in program order (set_address before each)."""
    u = Unit(E, asz, ver)
    u.tables = b'\0' + name.encode() + b'\0' + uleb(0) * 3 + b'\0'
    line = 1
    for rws, end in seqs:
        for a, ln in rws:
            u.set_address(a)
            u.prog += b'\x03' + sleb(ln - line) + b'\x01'
            line = ln
        u.set_address(end)
        u.ext(1, b'')
        line = 1
    return u.build(STD)


# attribute and form codes used below
AT = {'stmt_list': 0x10, 'low_pc': 0x11, 'high_pc': 0x12, 'comp_dir': 0x1b,
      'ranges': 0x55, 'addr_base': 0x73, 'rnglists_base': 0x74}
FORM = {'addr': 0x01, 'data4': 0x06, 'string': 0x08, 'sec_offset': 0x17,
        'addrx': 0x1b, 'addrx1': 0x29, 'rnglistx': 0x23}


def info_unit(E, asz, ver, abbrev_off, attrs):
    """A unit whose only DIE is a DW_TAG_compile_unit with @attrs, a list
    of (name, form, value); returns (unit bytes, its abbrev table)."""
    ab = uleb(1) + uleb(0x11) + b'\0'
    die = uleb(1)
    for n, f, v in attrs:
        ab += uleb(AT[n]) + uleb(FORM[f])
        if f == 'addr':
            die += struct.pack(E + ('Q' if asz == 8 else 'I'), v)
        elif f in ('data4', 'sec_offset'):
            die += struct.pack(E + 'I', v)
        elif f == 'string':
            die += v.encode() + b'\0'
        elif f == 'addrx1':
            die += bytes([v])
        elif f == 'addrx':
            die += uleb(v)
        else:
            die += uleb(v)
    ab += b'\0\0\0'
    if ver >= 5:
        body = struct.pack(E + 'HBBI', ver, 1, asz, abbrev_off) + die
    else:
        body = struct.pack(E + 'HIB', ver, abbrev_off, asz) + die
    return struct.pack(E + 'I', len(body)) + body, ab


def build_clip(flavour, low_form='addrx'):
    """An executable whose five line tables reach past their units' ranges:
    A (DWARF 5 unit, DW_AT_ranges by DW_FORM_rnglistx: every DW_RLE_*
    kind), B (DWARF 4, low/high_pc, but listed in .debug_aranges with less:
    aranges win), C (DWARF 3, .debug_ranges with a base address selection),
    D (no unit: dropped), E (DWARF 5, low_pc by index, @low_form: addrx or
    addrx1, which llvm-symbolizer 14 does not take as an address)."""
    _, is64, E, _ = flavour
    asz = 8 if is64 else 4
    A = [0x1000, 0x1040, 0x1080, 0x10c0]
    tabs = [
        line_table(E, asz, 3, 'a.c', [
            (list(zip(A, (1, 2, 3, 4))), 0x1100),
            ([(0x1400, 20), (0x1410, 21)], 0x1420),
            ([(0x1600, 30), (0x1640, 31), (0x1620, 32)], 0x1680)]),
        line_table(E, asz, 4, 'b.c', [([(0x2000, 1)], 0x2100)]),
        line_table(E, asz, 3, 'c.c', [([(0x3000, 1), (0x3050, 2)], 0x3100)]),
        line_table(E, asz, 3, 'd.c', [([(0x5000, 1)], 0x5010)]),
        line_table(E, asz, 3, 'e.c', [([(0x6000, 1), (0x6008, 2)], 0x6020)]),
    ]
    offs = [sum(len(t) for t in tabs[:i]) for i in range(len(tabs))]
    ap = 'Q' if asz == 8 else 'I'
    # .debug_addr: one DWARF 5 contribution, entries from offset 8
    addrs = [0x6000, 0x1000, 0x1050, 0x10c0, 0x10d0]
    body = struct.pack(E + 'HBB', 5, asz, 0) + \
        b''.join(struct.pack(E + ap, a) for a in addrs)
    debug_addr = struct.pack(E + 'I', len(body)) + body
    # .debug_rnglists: one list, through an offsets table at base 12
    rl = b'\x01' + uleb(1) + b'\x04' + uleb(0) + uleb(0x30)     # base idx 1
    rl += b'\x03' + uleb(2) + uleb(0x40)                    # startx_length
    rl += b'\x02' + uleb(3) + uleb(4)                       # startx_endx
    rl += b'\x06' + struct.pack(E + ap + ap, 0x10f0, 0x1200)   # start_end
    rl += b'\x07' + struct.pack(E + ap, 0x1400) + uleb(0x100)  # start_length
    rl += b'\x05' + struct.pack(E + ap, 0x1600)             # base_address
    rl += b'\x04' + uleb(0) + uleb(0x100) + b'\x00'         # offset_pair
    body = struct.pack(E + 'HBBI', 5, asz, 0, 1) + struct.pack(E + 'I', 4) + rl
    rnglists = struct.pack(E + 'I', len(body)) + body
    # .debug_ranges: [0x3000, 0x3020), base 0x3080, [0x3090, 0x30c0)
    top = (1 << (8 * asz)) - 1
    ranges = struct.pack(E + ap * 8, 0, 0x20, top, 0x3080, 0x10, 0x40, 0, 0)
    units = [
        (5, [('stmt_list', 'sec_offset', offs[0]), ('comp_dir', 'string', '/c'),
             ('low_pc', 'addr', 0), ('ranges', 'rnglistx', 0),
             ('addr_base', 'sec_offset', 8),
             ('rnglists_base', 'sec_offset', 12)]),
        (4, [('stmt_list', 'sec_offset', offs[1]), ('comp_dir', 'string', '/c'),
             ('low_pc', 'addr', 0x2000), ('high_pc', 'data4', 0x100)]),
        (3, [('stmt_list', 'data4', offs[2]), ('comp_dir', 'string', '/c'),
             ('low_pc', 'addr', 0x3000), ('ranges', 'data4', 0)]),
        (5, [('stmt_list', 'sec_offset', offs[4]), ('comp_dir', 'string', '/c'),
             ('low_pc', low_form, 0), ('high_pc', 'data4', 0x10),
             ('addr_base', 'sec_offset', 8)]),
    ]
    info, abbrev, cu_offs = b'', b'', []
    for ver, attrs in units:
        u, ab = info_unit(E, asz, ver, len(abbrev), attrs)
        cu_offs.append(len(info))
        info += u
        abbrev += ab
    # .debug_aranges: unit B only, [0x2000, 0x2080)
    hdr = struct.pack(E + 'HIBB', 2, cu_offs[1], asz, 0)
    hdr += bytes((-(4 + len(hdr))) % (2 * asz))
    body = hdr + struct.pack(E + ap * 4, 0x2000, 0x80, 0, 0)
    aranges = struct.pack(E + 'I', len(body)) + body
    return elf(flavour, [('.debug_line', b''.join(tabs)),
                         ('.debug_info', info), ('.debug_abbrev', abbrev),
                         ('.debug_aranges', aranges),
                         ('.debug_ranges', ranges),
                         ('.debug_rnglists', rnglists),
                         ('.debug_addr', debug_addr)])


EXPECT_CLIP = [
    '/c/a.c:1 0x1000', '/c/a.c:1 0x1030 end',
    '/c/a.c:2 0x1050', '/c/a.c:3 0x1080', '/c/a.c:3 0x1090 end',
    '/c/a.c:4 0x10c0', '/c/a.c:4 0x10d0 end',
    '/c/a.c:4 0x10f0', '/c/a.c:4 0x1100 end',
    '/c/a.c:20 0x1400', '/c/a.c:21 0x1410', '/c/a.c:21 0x1420 end',
    '/c/a.c:30 0x1600', '/c/a.c:32 0x1620', '/c/a.c:31 0x1640',
    '/c/a.c:32 0x1680 end',
    '/c/b.c:1 0x2000', '/c/b.c:1 0x2080 end',
    '/c/c.c:1 0x3000', '/c/c.c:1 0x3020 end',
    '/c/c.c:2 0x3090', '/c/c.c:2 0x30c0 end',
    '/c/e.c:1 0x6000', '/c/e.c:2 0x6008', '/c/e.c:2 0x6010 end',
]
# --stats of the clipped tables
EXPECT_CLIP_STATS = {
    'info_units': '4', 'info_units_ranges_aranges': '1',
    'info_units_ranges_die': '3', 'info_units_unreadable': '0',
    'tables_clipped': '5', 'tables_without_unit': '1',
    'clip_rows_dropped': '3', 'clip_rows_added': '3',
    'clip_sequences_dropped': '1', 'clip_sequences_split': '5',
}
# addresses of out-of-order rows, where llvm-symbolizer is no oracle
CLIP_UNSORTED = (0x1600, 0x1680)
