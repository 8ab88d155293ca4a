# SPDX-License-Identifier: GPL-2.0
"""The records a matrix cell's stages hand on, one schema each.

Data flows one way, each file written once by the stage that owns it:

  arch facts (cell.py) -> build (build.json) -> boot (boot.json)
      -> judge (result.json of a configuration) -> merge (the cell's result.json)

- Build: what matrix/build.sh made for one configuration (the kernel and
  its image, the test module, its variants and DWARF flavours, the init
  and initramfs), what was built as read from the .config, the logs, and
  the build checks and figures (the linked line table, the lookup's stack,
  the image sizes).  A stage of the build that failed says so in ok and
  reason; the checks it judged before stay.
- Boot: what qemu/boot.py booted (it names its build.json) and how QEMU
  ended; a boot that could not be set up says why in setup_error.
- Result: the judge's verdict on one configuration (or merge.py's on a
  cell): its checks, in order, and figures.

Each is a dataclass; read_*() refuses a file with a key the schema does
not have or a value of the wrong type, write_*() the same before writing.
"""
import dataclasses
import json
import os
import typing
from dataclasses import dataclass, field


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ''


@dataclass
class Build:
    arch: str
    config: str
    ok: bool = True
    reason: str = ''
    stage: str = ''             # the stage that failed: kernel, module, variants, init
    seconds: int = 0
    src: str = ''
    obj: str = ''               # the kernel's O= folder
    kernel_dir: str = ''        # this configuration's image, vmlinux, .config
    image: str = ''
    vmlinux: str = ''
    kconfig: dict = field(default_factory=dict)    # what was built: CONFIG_X -> value
    lines: str = ''             # CONFIG_KALLSYMS_LINE_LOCATIONS as built: on, off
    module: str = ''            # the test module
    companions: list = field(default_factory=list)  # modules the initramfs holds beside it
    variants: str = ''          # the variants' manifest (matrix/variants.py)
    dwarf: list = field(default_factory=list)       # the module's DWARF flavours
    plan: str = ''              # the plan the initramfs holds
    init: str = ''
    initramfs: str = ''
    strip: list = field(default_factory=list)       # the roots the kernel strips
    logs: list = field(default_factory=list)
    checks: list = field(default_factory=list)      # [Check]
    figures: dict = field(default_factory=dict)


@dataclass
class Boot:
    arch: str
    config: str
    facts: dict
    console: str
    build: str = ''             # its build.json ('' for a log judged alone)
    plan: str = ''
    qemu_cmd: str = ''
    timeout: int = 0
    qemu_rc: int = 0
    timed_out: bool = False
    missing: str = ''           # a tool that is not installed
    setup_error: str = ''       # why the boot could not be set up
    seconds: int = 0


@dataclass
class Result:
    arch: str
    config: str
    build: str = 'ok'           # ok, FAIL
    boot: str = 'ok'            # ok, FAIL, timeout, -
    green: bool = False
    seconds: int = 0
    reason: str = ''
    checks: list = field(default_factory=list)      # [Check]
    figures: dict = field(default_factory=dict)
    tests_total: int = 0
    tests_passed: int = 0


class RecordError(ValueError):
    pass


def _types(cls):
    return {f.name: f.type for f in dataclasses.fields(cls)}


def _check_value(cls, key, v, where):
    t = typing.get_type_hints(cls)[key]
    if t is int and isinstance(v, bool) or not isinstance(v, t):
        raise RecordError('%s: %s is %r, not %s' % (where, key, v, t.__name__))


def from_dict(cls, d, where):
    """@d as a @cls, every key known and of its type; checks as Check."""
    if not isinstance(d, dict):
        raise RecordError('%s: not a JSON object' % where)
    known = _types(cls)
    extra = sorted(set(d) - set(known))
    if extra:
        raise RecordError('%s: unknown key %s' % (where, ', '.join(extra)))
    for k, v in d.items():
        _check_value(cls, k, v, where)
    d = dict(d)
    if 'checks' in d:
        checks = []
        for c in d['checks']:
            if not isinstance(c, dict) or set(c) != {'name', 'ok', 'detail'}:
                raise RecordError('%s: a check has keys %s' % (
                    where, sorted(c) if isinstance(c, dict) else c))
            checks.append(Check(**c))
        d['checks'] = checks
    try:
        return cls(**d)
    except TypeError as e:
        raise RecordError('%s: %s' % (where, e))


def to_dict(rec):
    return dataclasses.asdict(rec)


def read(cls, path):
    with open(path) as f:
        try:
            d = json.load(f)
        except ValueError as e:
            raise RecordError('%s: %s' % (path, e))
    return from_dict(cls, d, path)


def write(path, rec):
    """Write @rec (a Build, Boot or Result) after checking it against its
    schema, atomically."""
    d = to_dict(rec)
    from_dict(type(rec), d, path)
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(d, f, indent=1)
        f.write('\n')
    os.replace(tmp, path)


def result(arch, config, checks, figures=None, build='ok', boot='ok', seconds=0, reason=''):
    """A result with its derived fields: green only with checks, all ok."""
    checks = [c if isinstance(c, Check) else Check(**c) for c in checks]
    failed = [c for c in checks if not c.ok]
    if not reason and failed:
        reason = '%s: %s' % (failed[0].name, failed[0].detail)
    return Result(arch=arch, config=config, build=build, boot=boot,
                  green=bool(checks) and not failed, seconds=seconds, reason=reason,
                  checks=checks, figures=figures or {},
                  tests_total=len(checks), tests_passed=len(checks) - len(failed))


def failure(arch, config, stage, reason, seconds=0, checks=()):
    """The result of a configuration that stopped at @stage (build or
    boot) before its boot was judged; the @checks judged before stay."""
    return result(arch, config, list(checks) + [Check(stage, False, reason)],
                  build='FAIL' if stage == 'build' else 'ok',
                  boot='-' if stage == 'build' else 'FAIL', seconds=seconds, reason=reason)


def read_result(path, arch=None):
    """A result, or for a missing or unreadable file a red one saying so."""
    try:
        res = read(Result, path)
    except (OSError, RecordError) as e:
        return failure(arch or '?', '-', 'run', 'no result (%s)' % e.__class__.__name__)
    res.green = bool(res.checks) and all(c.ok for c in res.checks)
    return res


def cell_result(results, arch):
    """The cell @arch's merged result under the results folder @results."""
    return read_result(os.path.join(results, arch, 'result.json'), arch)


def project_path(path, top):
    """@path as a record keeps it: relative to the project @top when it is
    one of the project's files (a plan), so that another clone sharing the
    build folder reads its own copy; else absolute."""
    real, top = os.path.realpath(path), os.path.realpath(top)
    return os.path.relpath(real, top) if real.startswith(top + os.sep) else real


def resolve_path(path, top):
    """A path of a record as this clone reads it (see project_path())."""
    return os.path.join(top, path) if path and not os.path.isabs(path) else path
