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
