#!/usr/bin/env python3
"""alloc-sections.py ELF...: one line per allocated section that has bytes
in the file (SHF_ALLOC, not SHT_NOBITS): "FILE SECTION SIZE SHA256".  Two
builds whose lines are equal put the same bytes in memory."""
import hashlib
import sys

try:
    from elftools.elf.elffile import ELFFile
except ImportError:
    # Debian's python3-pyelftools, for a python3 that is not Debian's
    sys.path.append('/usr/lib/python3/dist-packages')
    from elftools.elf.elffile import ELFFile

SHF_ALLOC = 0x2


def main():
    for path in sys.argv[1:]:
        with open(path, 'rb') as f:
            elf = ELFFile(f)
            for s in elf.iter_sections():
                if not s['sh_flags'] & SHF_ALLOC or s['sh_type'] == 'SHT_NOBITS':
                    continue
                data = s.data()
                print('%s %s %d %s' % (path, s.name, len(data),
                                       hashlib.sha256(data).hexdigest()))
    return 0


if __name__ == '__main__':
    sys.exit(main())
