#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-libdw: why lineloc reads DWARF itself rather than through
elfutils' libdw.  On Debian's cloud-amd64 vmlinux (scripts/debian-dbg.sh),
in one run: wall time (median of BENCH_REPEAT runs, default 5) and peak
RSS (the child's getrusage, the largest of the runs) of

  lineloc --kernel-table   the writer, what the kernel's link runs
  lineloc --rows           the kept rows printed
  dwrows                   the same rows read through libdw and printed
                           (tests/libdw/dwrows.c)

then dwrows against each.  Output to /dev/null (--kernel-table's table
to a temporary file).  Not a pass/fail test; it fails only when a command
does."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LL = os.path.join(TOP, 'hosttool', 'lineloc')
DW = os.path.join(TOP, 'tests', 'libdw', 'dwrows')
REPEAT = int(os.environ.get('BENCH_REPEAT', '5'))


def measure(cmd):
    """(median wall seconds, max peak RSS in MiB) over REPEAT runs, or
    (None, why) if a run fails."""
    times, rss = [], 0.0
    for _ in range(REPEAT):
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = p.stderr.read()
        p.stderr.close()
        _, status, ru = os.wait4(p.pid, 0)
        times.append(time.monotonic() - t0)
        rss = max(rss, ru.ru_maxrss / 1024.0)
        if status:
            return None, '%s: exit status %d: %s' % (
                ' '.join(cmd), status, err.decode(errors='replace').strip())
    return statistics.median(times), rss


def rows(vm):
    """The rows lineloc keeps (its --stats)."""
    out = subprocess.run([LL, '--stats', vm], capture_output=True, text=True,
                         check=True).stdout
    st = dict(l.split(': ', 1) for l in out.splitlines() if ': ' in l)
    return int(st['rows']), st.get('bytes', '?')


def main():
    for p in (LL, DW):
        if not os.access(p, os.X_OK):
            print('bench-libdw: no %s (make %s)' % (p, os.path.relpath(p, TOP)))
            return 1
    if os.environ.get('LINELOC_NO_DEBIAN'):
        print('bench-libdw: LINELOC_NO_DEBIAN: ' + os.environ['LINELOC_NO_DEBIAN'])
        return 1
    p = subprocess.run([os.path.join(TOP, 'scripts', 'debian-dbg.sh'),
                        '--vmlinux'], capture_output=True, text=True)
    if p.returncode or not p.stdout.strip():
        print('bench-libdw: no Debian vmlinux: %s' %
              (p.stderr.strip().splitlines() or ['?'])[-1])
        return 1
    vm = p.stdout.strip()
    n, size = rows(vm)
    print('bench-libdw: %s: .debug_line %s bytes, %d rows kept '
          '(median of %d runs, peak RSS the largest)' %
          (vm, size, n, REPEAT))
    res = {}
    with tempfile.TemporaryDirectory(prefix='bench-libdw.') as tmp:
        for name, cmd in (
                ('lineloc --kernel-table', [LL, '-o', os.path.join(tmp, 'table'),
                                            '--kernel-table', vm]),
                ('lineloc --rows', [LL, '--rows', vm]),
                ('dwrows (libdw)', [DW, vm])):
            t, rss = measure(cmd)
            if t is None:
                print('bench-libdw: %s' % rss)
                return 1
            res[name] = (t, rss)
            print('bench-libdw: %-24s %7.3f s  peak RSS %7.1f MiB' %
                  (name, t, rss))
    dt, drss = res['dwrows (libdw)']
    for name in ('lineloc --kernel-table', 'lineloc --rows'):
        t, rss = res[name]
        print('bench-libdw: libdw / %-24s time x%.2f, peak RSS x%.2f' %
              (name, dt / t, drss / rss))
    return 0


if __name__ == '__main__':
    sys.exit(main())
