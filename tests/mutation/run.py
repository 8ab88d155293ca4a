#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make mutation-check: plant known faults in lineloc, one at a time, and
check that the tests catch each one.

  run.py              every fault of tests/mutation/faults.py
  run.py NAME...      those faults only
  run.py --list       the faults and their checks

1. The repository's tracked files (git ls-files of the work tree this
   script is in, copied as they are on disk) go to a scratch folder,
   $MUTATION_DIR (default /var/cache/lineloc-ci/mutation/src, a fixed
   path outside the clone, whatever BUILD is), and lineloc, linetab and
   lineloc-i686 are built there (lineloc for the kernel faults too:
   matrix/variants.py runs it).
2. Each check the chosen faults name runs once on the unmodified copy: it
   must be green ("baseline red" otherwise, and its faults count as not
   caught).
3. Each fault: its old text must occur exactly once in its file (else the
   list is stale: an error naming fault and file); it is replaced, the
   programs rebuilt, the checks run: the fault is caught iff a check goes
   red.  The file is then restored byte for byte (checked by hash) and the
   programs rebuilt: the build is deterministic, so that is the unmodified
   copy's programs, kept from step 1, put back (make -q confirms they are
   up to date; else make really rebuilds).
4. One line per fault, "caught NAME: CHECK red (reason)" or "MISSED NAME:
   ...", then the time taken, and last "mutation-check: caught C/N"; the
   exit status is 0 iff C == N.
   MUTATION_WHOLE=1 runs, for every host fault, the host-tool suite whole
   as make test runs it (check 'hosttool') instead of its narrowest
   checks, and each line gives the suite's closing count: what CI would
   have caught (about 4 minutes a fault).

Kernel faults (tree 'kernel' in faults.py) are planted in a worktree of the
kernel tree, $MUTATION_KERNEL_TREE (default /var/cache/lineloc-ci/mutation/
linux, made detached at branch lineloc of $BUILD/src/linux when missing,
moved to lineloc's commit when clean and behind; that tree, its branches
and the matrix's build folders are never touched).  The scratch copy's
matrix/run-arch.sh builds and boots them in $MUTATION_KBUILD (default
/var/cache/lineloc-ci/mutation/kbuild: src/linux links to the worktree;
one O= folder per arch, reused, so a fault costs an incremental build),
under nice -n 10, one configuration only (the fault's 'config'), and
judges them; the results are kept in $MUTATION_KBUILD/results/LABEL/.
First the unmodified worktree, once per arch: every check a fault names
must be in its result.json and green.  Then each fault: applied, built,
booted, judged (caught iff a named check is red), restored (checked by
hash).  MUTATION_KERNEL=0 leaves the kernel faults out (and out of N).

"""
import fnmatch
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from faults import CHECKS, FAULTS  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'matrix'))
import records  # noqa: E402
DEST = os.environ.get('MUTATION_DIR') or '/var/cache/lineloc-ci/mutation/src'
MARK = '.mutation-scratch'     # what says a folder is ours to empty
# what the checks run: lineloc, linetab and lineloc-i686 (the ASan and
# libFuzzer builds are made by the checks that use them)
BINS = ['hosttool/lineloc', 'hosttool/linetab', 'hosttool/lineloc-i686']
MAKE = ['make', '-s', '-f', 'hosttool/hosttool.mk']
BUILD = MAKE + ['-j2'] + BINS
PRISTINE = '.mutation-pristine'     # the unmodified copy's BINS
# kernel faults: the kernel tree (build/src/linux), the worktree they are
# planted in, and the BUILD folder of their kernels
KREPO = os.path.join(TOP, os.environ.get('BUILD') or 'build', 'src', 'linux')
KBRANCH = 'lineloc'
KTREE = os.environ.get('MUTATION_KERNEL_TREE') or \
    '/var/cache/lineloc-ci/mutation/linux'
KBUILD = os.environ.get('MUTATION_KBUILD') or \
    '/var/cache/lineloc-ci/mutation/kbuild'
KERNEL = os.environ.get('MUTATION_KERNEL', '1') != '0'
WHOLE = os.environ.get('MUTATION_WHOLE', '0') == '1'



def restore(path, orig, st, want, name):
    """Put a mutated file back byte for byte, with its mode; stop the run
    if its hash is not @want's (named @name)."""
    with open(path, 'wb') as f:
        f.write(orig)
    os.chmod(path, st.st_mode)
    if sha(path) != want:
        sys.exit('mutation-check: %s: restore failed (hash differs)' % name)

def is_kernel(fault):
    return fault.get('tree') == 'kernel'


def log(msg):
    print(msg, flush=True)


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def copy_tree():
    """The tracked files of TOP, as they are on disk, into DEST (made
    anew: nothing of an earlier run is left)."""
    if not os.path.isabs(DEST):
        sys.exit('mutation-check: MUTATION_DIR must be an absolute path')
    real = os.path.realpath(DEST)
    if real == TOP or real.startswith(TOP + os.sep) or \
            TOP.startswith(real + os.sep):
        sys.exit('mutation-check: %s is inside (or holds) the clone %s' %
                 (DEST, TOP))
    out = subprocess.run(['git', 'ls-files', '-z'], cwd=TOP, check=True,
                         stdout=subprocess.PIPE).stdout
    mark = os.path.join(DEST, MARK)
    try:
        if os.path.isdir(DEST) and os.listdir(DEST):
            if not os.path.exists(mark):
                sys.exit('mutation-check: %s is not empty and not an earlier '
                         'scratch copy (no %s): not removing it' % (DEST, MARK))
            shutil.rmtree(DEST)
        os.makedirs(DEST, exist_ok=True)
        open(mark, 'w').close()
    except OSError as e:
        sys.exit('mutation-check: cannot make the scratch copy %s: %s (set '
                 'MUTATION_DIR= to a folder you may write)' % (DEST, e.strerror))
    n = 0
    for rel in out.decode().split('\0'):
        src = os.path.join(TOP, rel)
        if not rel or not os.path.lexists(src):
            continue            # deleted in the work tree, not yet in git
        dst = os.path.join(DEST, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
        n += 1
    return n


def build():
    """Build lineloc and linetab (and lineloc-i686): None, or the error."""
    p = subprocess.run(BUILD, cwd=DEST, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if p.returncode:
        return p.stdout.decode('utf-8', 'replace').strip()[-600:] or \
            'exit %d' % p.returncode
    return None


def save_pristine():
    """Keep the unmodified copy's programs, to put back after a fault."""
    for b in BINS:
        dst = os.path.join(DEST, PRISTINE, b)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(DEST, b), dst)


def rebuild_pristine():
    """After a restore: the sources are the unmodified copy's again, byte
    for byte, and the build is deterministic, so its programs are what a
    rebuild gives: put them back, newer than the sources, and let make
    confirm that nothing is out of date (else really rebuild).  Programs
    built from the fault (the ASan ones) are older than the restored file:
    make rebuilds them when a check next needs them."""
    now = time.time()
    for b in BINS:
        dst = os.path.join(DEST, b)
        shutil.copy2(os.path.join(DEST, PRISTINE, b), dst)
        os.utime(dst, (now, now))
    if subprocess.run(MAKE + ['-q'] + BINS, cwd=DEST).returncode:
        return build()
    return None


def reason(out, rc):
    """A short reason a check went red: its first FAIL line, else its
    last line; and the suite's closing count when it printed one."""
    lines = [x.strip() for x in out.splitlines() if x.strip()]
    count = [x for x in lines if re.match(r'^[a-z0-9_-]+: \d+ passed, \d+ failed', x)]
    first = reason_line(lines, rc)
    return first + (' [%s]' % count[-1] if count else '')


def reason_line(lines, rc):
    for x in lines:
        if x.startswith('FAIL') or ': FAIL' in x:
            return x[:200]
    for x in lines:
        if x.startswith('SUMMARY: ') or ': runtime error: ' in x:
            return x[:200]
    return (lines[-1][:200] if lines else 'no output') + ' (exit %d)' % rc


def run_check(name):
    """Run check @name in DEST: (green, reason, seconds)."""
    t0 = time.time()
    p = subprocess.run(['sh', '-c', CHECKS[name]], cwd=DEST,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    return p.returncode == 0, reason(out, p.returncode), time.time() - t0


def fault_path(fault):
    return os.path.join(KTREE if is_kernel(fault) else DEST, fault['file'])


def source(fault):
    """The bytes of @fault's file in DEST; exits (naming fault and file) if
    its old text is not there exactly once: the list is stale."""
    path = fault_path(fault)
    if not os.path.exists(path):
        sys.exit('mutation-check: fault %s: no file %s '
                 '(tests/mutation/faults.py is stale)' %
                 (fault['name'], fault['file']))
    with open(path, 'rb') as f:
        orig = f.read()
    n = orig.decode('utf-8').count(fault['old'])
    if n != 1:
        sys.exit('mutation-check: fault %s: its old text occurs %d times in '
                 '%s, not once (tests/mutation/faults.py is stale)' %
                 (fault['name'], n, fault['file']))
    return orig


def plant(fault):
    """Apply @fault, build, run its checks, restore and rebuild.
    Returns (caught, line); raises SystemExit if the list is stale or the
    restore fails."""
    path = fault_path(fault)
    orig = source(fault)
    want = hashlib.sha256(orig).hexdigest()
    text = orig.decode('utf-8')
    st = os.stat(path)
    try:
        with open(path, 'w') as f:
            f.write(text.replace(fault['old'], fault['new']))
        err = build()
        if err:
            # a fault the compiler refuses is not one the tests catch
            return False, 'MISSED %s: the mutant does not build: %s' % (
                fault['name'], err.splitlines()[-1])
        for c in fault['checks']:
            green, why, secs = run_check(c)
            log('  %s: %s %s in %.0f s' % (fault['name'], c,
                                           'green' if green else 'red', secs))
            if not green:
                return True, 'caught %s: %s red (%s)' % (fault['name'], c, why)
        return False, 'MISSED %s: %s stayed green' % (
            fault['name'], ', '.join(fault['checks']))
    finally:
        restore(path, orig, st, want, fault['file'])
        err = rebuild_pristine()
        if err:
            sys.exit('mutation-check: rebuild after restoring %s failed: %s'
                     % (fault['file'], err))


def git(*args, cwd=None):
    """git's stdout, stripped; exits with its message if it fails."""
    p = subprocess.run(['git'] + list(args), cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace').strip()
    if p.returncode:
        sys.exit('mutation-check: git %s: %s' % (' '.join(args), out))
    return out


def kernel_setup():
    """The worktree the kernel faults are planted in, clean and at branch
    lineloc's commit of the kernel tree (made when missing), and the BUILD
    folder whose src/linux links to it.  Never the kernel tree itself."""
    if not os.path.isdir(KREPO):
        sys.exit('mutation-check: no kernel tree %s (make prepare)' % KREPO)
    repo = os.path.realpath(KREPO)
    tree = os.path.realpath(KTREE)
    kbuild = os.path.realpath(KBUILD)
    for path, what in ((tree, 'MUTATION_KERNEL_TREE'),
                       (kbuild, 'MUTATION_KBUILD')):
        if not os.path.isabs(path) or path == repo or \
                path.startswith(repo + os.sep) or \
                path == os.path.realpath(os.path.join(repo, '..', '..')):
            sys.exit('mutation-check: %s=%s is the kernel tree or its BUILD'
                     % (what, path))
    want = git('rev-parse', '--verify', KBRANCH + '^{commit}', cwd=repo)
    if not os.path.exists(tree):
        git('worktree', 'prune', cwd=repo)
        git('worktree', 'add', '--detach', tree, want, cwd=repo)
        log('mutation-check: kernel worktree %s made at %s %s' %
            (tree, KBRANCH, want[:12]))
    common = os.path.realpath(os.path.join(
        tree, git('rev-parse', '--git-common-dir', cwd=tree)))
    if common != os.path.realpath(os.path.join(
            repo, git('rev-parse', '--git-common-dir', cwd=repo))) or \
            git('rev-parse', '--show-toplevel', cwd=tree) != tree:
        sys.exit('mutation-check: %s is not a worktree of %s' % (tree, repo))
    dirty = git('status', '--porcelain', '--untracked-files=no', cwd=tree)
    if dirty:
        sys.exit('mutation-check: the kernel worktree %s has changes (an '
                 'interrupted run?); git -C %s checkout -- . drops them:\n%s'
                 % (tree, tree, dirty))
    if git('rev-parse', 'HEAD', cwd=tree) != want:
        git('checkout', '-q', '--detach', want, cwd=tree)
        log('mutation-check: kernel worktree moved to %s %s' %
            (KBRANCH, want[:12]))
    link = os.path.join(kbuild, 'src', 'linux')
    os.makedirs(os.path.dirname(link), exist_ok=True)
    if os.path.islink(link) and os.path.realpath(link) != tree:
        os.remove(link)
    if not os.path.lexists(link):
        os.symlink(tree, link)
    if os.path.realpath(link) != tree:
        sys.exit('mutation-check: %s is not a link to %s' % (link, tree))
    return want


def kernel_run(label, arch, config):
    """Build, boot and judge the kernel worktree for @arch, configuration
    @config, with the scratch copy's matrix (results in
    KBUILD/results/@label): (result, seconds, kernel build seconds, log)."""
    rr = os.path.join(KBUILD, 'results', label)
    shutil.rmtree(rr, ignore_errors=True)
    os.makedirs(rr)
    env = dict(os.environ, BUILD=KBUILD, RESULTS_ROOT=rr, CONFIGS=config)
    for k in ('ARCH_DIR', 'PLAN', 'SKIP_BUILD', 'LINELOC', 'KOBJ'):
        env.pop(k, None)
    logf = os.path.join(rr, 'run.log')
    t0 = time.time()
    with open(logf, 'wb') as f:
        subprocess.run(['nice', '-n', '10',
                        os.path.join(DEST, 'matrix', 'run-arch.sh'), arch],
                       cwd=DEST, env=env, stdout=f, stderr=subprocess.STDOUT)
    secs = time.time() - t0
    path = os.path.join(rr, arch, config, 'result.json')
    if not os.path.exists(path):     # a build that failed: the cell's
        path = os.path.join(rr, arch, 'result.json')
    res = records.to_dict(records.read_result(path, arch))
    with open(logf, errors='replace') as f:
        built = [int(x) for x in re.findall(r'kernel built in (\d+) s', f.read())]
    return res, secs, sum(built), logf


def kernel_checks(res, fault):
    """The checks of @res that @fault names: [(pattern, [check, ...])]."""
    return [(pat, [c for c in res['checks']
                   if fnmatch.fnmatchcase(c['name'], pat)])
            for pat in fault['checks']]


def kernel_baseline(faults):
    """Build, boot and judge the unmodified worktree once per (arch,
    config) of @faults: {fault name: why its baseline is red}, and the
    seconds each took."""
    red, times = {}, []
    for key in dict.fromkeys((f['arch'], f['config']) for f in faults):
        label = 'baseline-%s-%s' % key
        res, secs, built, logf = kernel_run(label, *key)
        times.append('baseline %s %s %.0f s' % (key[0], key[1], secs))
        bad = []
        for f in faults:
            if (f['arch'], f['config']) != key:
                continue
            for pat, got in kernel_checks(res, f):
                if not got:
                    why = 'no check %r in %s %s (%s)' % (
                        pat, key[0], key[1],
                        res.get('reason') or 'see %s' % logf)
                elif not all(c['ok'] for c in got):
                    c = next(c for c in got if not c['ok'])
                    why = '%s (%s)' % (c['name'], c['detail'][:200])
                else:
                    continue
                red.setdefault(f['name'], why)
                bad.append(why)
        log('baseline kernel %s %s: %s in %.0f s (kernel build %d s)%s' % (
            key[0], key[1], 'RED' if bad else 'green', secs, built,
            ': ' + bad[0] if bad else ''))
    return red, times


def plant_kernel(fault):
    """Apply @fault to the kernel worktree, build, boot and judge its arch,
    restore (checked by hash): (caught, line, seconds)."""
    path = fault_path(fault)
    orig = source(fault)
    want = hashlib.sha256(orig).hexdigest()
    st = os.stat(path)
    try:
        with open(path, 'w') as f:
            f.write(orig.decode('utf-8').replace(fault['old'], fault['new']))
        res, secs, built, logf = kernel_run(fault['name'], fault['arch'],
                                            fault['config'])
    finally:
        restore(path, orig, st, want, path)
    log('  %s: %s %s built, booted and judged in %.0f s (kernel build %d s)'
        % (fault['name'], fault['arch'], fault['config'], secs, built))
    for pat, got in kernel_checks(res, fault):
        for c in got:
            if not c['ok']:
                return True, 'caught %s: %s red (%s)' % (
                    fault['name'], c['name'], c['detail'][:200]), secs
    if res.get('build') != 'ok' or res.get('boot') != 'ok':
        return False, 'MISSED %s: the mutant did not %s: %s (%s)' % (
            fault['name'], 'build' if res.get('build') != 'ok' else 'boot',
            res.get('reason'), logf), secs
    return False, 'MISSED %s: %s stayed green' % (
        fault['name'], ', '.join(fault['checks'])), secs


def main(argv):
    if set(argv) & {'-h', '--help'}:
        print(__doc__.strip())
        return 0
    names = [f['name'] for f in FAULTS]
    for f in FAULTS:
        if is_kernel(f):
            if not f.get('arch') or not f.get('config') or not f['checks']:
                sys.exit('mutation-check: kernel fault %s: needs arch, config '
                         'and checks' % f['name'])
            continue
        for c in f['checks']:
            if c not in CHECKS:
                sys.exit('mutation-check: fault %s: unknown check %s' %
                         (f['name'], c))
    if '--list' in argv:
        for f in FAULTS:
            where = ('linux:' + f['file']) if is_kernel(f) else f['file']
            checks = ', '.join(f['checks'])
            if is_kernel(f):
                checks = '%s %s: %s' % (f['arch'], f['config'], checks)
            print('%-32s %-24s %s (%s)' % (f['name'], where, checks,
                                           f['what']))
        return 0
    bad = [a for a in argv if a not in names]
    if bad:
        print('mutation-check: unknown fault %s; --list lists them' %
              ', '.join(bad), file=sys.stderr)
        return 2
    chosen = [f for f in FAULTS if not argv or f['name'] in argv]
    if WHOLE:
        chosen = [f if is_kernel(f) else dict(f, checks=['hosttool']) for f in chosen]
    if not KERNEL:
        left = [f['name'] for f in chosen if is_kernel(f)]
        if left:
            log('mutation-check: MUTATION_KERNEL=0: kernel faults left out: '
                + ', '.join(left))
        chosen = [f for f in chosen if not is_kernel(f)]
    host = [f for f in chosen if not is_kernel(f)]
    kern = [f for f in chosen if is_kernel(f)]
    t0 = time.time()
    n = copy_tree()
    log('mutation-check: %d tracked files of %s copied to %s' % (n, TOP, DEST))
    if kern:
        head = kernel_setup()
        log('mutation-check: kernel faults in %s (%s %s), built in %s' %
            (KTREE, KBRANCH, head[:12], KBUILD))
    for f in chosen:
        source(f)       # a stale list stops here, before any build
    red = {}
    # built for the kernel faults too: matrix/variants.py runs lineloc
    err = build()
    if err:
        log('mutation-check: the unmodified copy does not build:\n' + err)
        for f in chosen:
            red[f['name']] = 'the unmodified copy does not build'
    else:
        save_pristine()
    if host:
        for c in dict.fromkeys(c for f in host for c in f['checks']):
            if err:
                break
            green, why, secs = run_check(c)
            log('baseline %s: %s in %.0f s%s' % (
                c, 'green' if green else 'RED', secs,
                '' if green else ' (%s)' % why))
            if not green:
                for f in host:
                    if c in f['checks']:
                        red.setdefault(f['name'], '%s (%s)' % (c, why))
    times = []
    if kern and not err:
        kred, times = kernel_baseline(kern)
        red.update(kred)
    lines = {}
    caught = 0
    for f in host + kern:
        if f['name'] in red:
            line = 'MISSED %s: baseline red: %s' % (f['name'], red[f['name']])
        elif is_kernel(f):
            ok, line, secs = plant_kernel(f)
            caught += ok
            times.append('%s %.0f s' % (f['name'], secs))
        else:
            ok, line = plant(f)
            caught += ok
        lines[f['name']] = line
        log(line)
    if kern:
        git('diff', '--quiet', cwd=KTREE)       # restored: the tree is clean
    log('')
    for f in chosen:
        log(lines[f['name']])
    secs = time.time() - t0
    log('mutation-check: %d faults in %.0f s%s' % (
        len(chosen), secs, ' (kernel: %s)' % ', '.join(times) if times else ''))
    log('mutation-check: caught %d/%d' % (caught, len(chosen)))
    return 0 if caught == len(chosen) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
