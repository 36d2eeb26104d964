"""Safe outputs: atomic files, file units, an atomic site swap, locks and output-path checks.

Every file Lumina writes goes through here, so a kill at any instant leaves either
the old output or the new one, complete, and never a stranger's folder deleted.

- `atomic_write(path, data)`: one file, written beside its target and renamed in
  place; mode 0644 whatever the umask or mkstemp say.
- `write_unit(folder, {name: data})`: several files that belong together (a pack and
  its report). A journal written before the first rename makes the unit whole: if a
  run dies between renames, the next run in that folder finishes them (`recover`).
- `replace_tree(files, out)`: a whole site. It is built in `.{out}.build-*` beside
  `out`, carries the marker file `MARKER`, and is swapped in by one
  `renameat2(RENAME_EXCHANGE)` on Linux, so `out` is at every instant the old
  site or the new one. The old tree is deleted after the swap; leftovers of a
  killed run are deleted by the next run.
- `check_out(out, protect=...)`: refuses an output that is, contains or sits above
  a protected folder (the working folder, the packs, the project), that is a file,
  or that is a non-empty folder without our marker.
- `lock(path)`: one `filelock` lock per output; a second run waits up to
  `LOCK_WAIT` seconds and then fails with a clear message.

Insight: the swap, step by step (each arrow one atomic syscall):

    .site.build-X (new, complete, marker last)   site (old)
        exchange(.site.build-X, site)  ->  site (new)   .site.build-X (old)
        rmtree(.site.build-X)          ->  site (new)
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping

if TYPE_CHECKING:
    import filelock

MARKER = ".lumina-site"
MARKER_TEXT = "Built by python -m lumina.publish; publish replaces this folder as a whole.\n"
FILE_MODE = 0o644
DIR_MODE = 0o755
LOCK_WAIT = float(os.environ.get("LUMINA_LOCK_WAIT", "60"))   # seconds a second run waits
_UNIT_JOURNAL = re.compile(r"^\.lumina-unit\.[0-9a-f]{16}\.json$")
_TEMP_FILE = re.compile(r"^\..+\.[0-9a-f]{16}\.tmp$|^\..+\.[A-Za-z0-9_]{8}\.tmp$")


class OutputError(ValueError):
    """An output path that must not be written, or a lock not obtained. Names the path."""


# A test hook: called with a step name just before each rename or delete of a
# write, so a fault test can kill the process at every step (tests/test_hardening.py).
fault_point: Callable[[str], None] = lambda step: None


# ------------------------------------------------------------------ locks

_locks: dict[tuple[int, str], filelock.FileLock] = {}   # per process: a fork builds its own


def _lock_path(target: Path) -> Path:
    """Lock files live in the temp folder, keyed by the target's real path, so nothing
    is left beside the outputs."""
    key = hashlib.sha256(str(Path(target).resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    folder = Path(tempfile.gettempdir()) / f"lumina-locks-{os.getuid() if hasattr(os, 'getuid') else 0}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{key}.lock"


@contextlib.contextmanager
def lock(target: str | os.PathLike, wait: float | None = None) -> Iterator[None]:
    """Hold the lock for writing `target` (re-entrant within one process)."""
    import filelock                 # here, not at the top: a solve never writes (start-up)
    path = str(_lock_path(Path(target)))
    key = (os.getpid(), path)
    if key not in _locks:
        _locks[key] = filelock.FileLock(path)
    lk = _locks[key]
    try:
        lk.acquire(timeout=LOCK_WAIT if wait is None else wait)
    except filelock.Timeout:
        raise OutputError(f"{target}: another Lumina run is writing here (waited "
                          f"{LOCK_WAIT if wait is None else wait:g} s for its lock); try again "
                          "when it ends") from None
    try:
        yield
    finally:
        lk.release()


# ------------------------------------------------------------------ files

def _write_new(path: Path, raw: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _raw(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _temp_name(name: str) -> str:
    return f".{name}.{secrets.token_hex(8)}.tmp"


def atomic_write(path: str | os.PathLike, data: str | bytes) -> None:
    """Write one file atomically (temp file beside it, then rename), mode 0644."""
    write_unit(Path(path).parent, {Path(path).name: data})


def write_unit(folder: str | os.PathLike, files: Mapping[str, str | bytes]) -> None:
    """Write `files` (names inside `folder`) as one unit: all of them or, after a
    kill, the next run's `recover` completes them. Holds the folder's lock."""
    folder = Path(folder)
    for name in files:
        if not name or "/" in name or name in (".", ".."):
            raise OutputError(f"{name!r}: a unit holds plain file names")
    folder.mkdir(parents=True, exist_ok=True)
    with lock(folder):
        recover(folder)
        temps: dict[str, str] = {}
        try:
            for name in sorted(files):
                temps[name] = _temp_name(name)
                _write_new(folder / temps[name], _raw(files[name]))
            journal = None
            if len(files) > 1:
                journal = folder / f".lumina-unit.{secrets.token_hex(8)}.json"
                tmpj = folder / _temp_name(journal.name)
                _write_new(tmpj, json.dumps({"files": temps}, sort_keys=True).encode())
                fault_point("unit-journal")
                os.replace(tmpj, journal)          # from here on, the unit is committed
            for name in sorted(temps):
                fault_point(f"unit-rename:{name}")
                os.replace(folder / temps[name], folder / name)
            if journal is not None:
                fault_point("unit-journal-remove")
                journal.unlink()
        except BaseException:
            for tmp in temps.values():
                with contextlib.suppress(FileNotFoundError):
                    (folder / tmp).unlink()
            raise


def recover(folder: str | os.PathLike) -> None:
    """Finish the units a killed run committed in `folder`, then delete its stale temp
    files. Call with the folder's lock held (`write_unit` does)."""
    folder = Path(folder)
    if not folder.is_dir():
        return
    for entry in sorted(os.listdir(folder)):
        if not _UNIT_JOURNAL.match(entry):
            continue
        try:
            temps = json.loads((folder / entry).read_text(encoding="utf-8"))["files"]
        except (OSError, ValueError, KeyError, TypeError):
            temps = {}
        for name, tmp in sorted(temps.items()) if isinstance(temps, dict) else ():
            if (isinstance(name, str) and isinstance(tmp, str) and "/" not in name + tmp
                    and (folder / tmp).is_file()):
                os.replace(folder / tmp, folder / name)
        (folder / entry).unlink()
    for entry in sorted(os.listdir(folder)):
        if _TEMP_FILE.match(entry) and (folder / entry).is_file():
            with contextlib.suppress(FileNotFoundError):
                (folder / entry).unlink()


# ------------------------------------------------------------------ output paths

def _resolve(p: str | os.PathLike) -> Path:
    return Path(os.path.abspath(Path(p).expanduser())).resolve()


def check_out(out: str | os.PathLike, *, protect: Iterable[str | os.PathLike] = (),
              flag: str = "--out", marker: str | None = MARKER) -> Path:
    """The resolved `out`, or `OutputError` when writing there could destroy something:
    it is, contains or sits above a protected folder; it is not a folder; or (when
    `marker` is given) it is a non-empty folder that does not carry the marker."""
    real = _resolve(out)
    for p in protect:
        rp = _resolve(p)
        if real == rp or real in rp.parents:
            what = "is" if real == rp else "contains"
            raise OutputError(f"{out}: refusing {flag}: it {what} {p} (choose a folder of its own, "
                              "e.g. site)")
    if real.exists() and not real.is_dir():
        raise OutputError(f"{out}: refusing {flag}: it is a file, not a folder")
    if marker and real.is_dir() and not (real / marker).is_file() and any(real.iterdir()):
        raise OutputError(f"{out}: refusing {flag}: a non-empty folder that Lumina did not build "
                          f"(no {marker} marker); empty it, delete it or choose another folder")
    return real


def check_writable_folder(out: str | os.PathLike, flag: str = "--out") -> Path:
    """Create `out` if needed and prove a file can be written there, before any work."""
    real = _resolve(out)
    if real.exists() and not real.is_dir():
        raise OutputError(f"{out}: refusing {flag}: it is a file, not a folder")
    try:
        real.mkdir(parents=True, exist_ok=True)
        probe = real / _temp_name("write-probe")
        _write_new(probe, b"")
        probe.unlink()
    except OSError as e:
        raise OutputError(f"{out}: {flag} is not writable: {e.strerror or e}") from None
    return real


# ------------------------------------------------------------------ the site swap

_SYS_renameat2 = {"x86_64": 316, "aarch64": 276, "arm64": 276}
AT_FDCWD = -100
RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2). False when not supported here."""
    import ctypes.util              # here, not at the top: only publish swaps folders
    libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    fn = getattr(libc, "renameat2", None)
    args = (AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE)
    if fn is not None:
        fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        rc = fn(*args)
    else:
        nr = _SYS_renameat2.get(os.uname().machine if hasattr(os, "uname") else "")
        if nr is None:
            return False
        libc.syscall.restype = ctypes.c_long
        rc = libc.syscall(ctypes.c_long(nr), ctypes.c_int(args[0]), ctypes.c_char_p(args[1]),
                          ctypes.c_int(args[2]), ctypes.c_char_p(args[3]), ctypes.c_uint(args[4]))
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(a))


def _stale(out: Path) -> list[Path]:
    pat = re.compile(r"^\." + re.escape(out.name) + r"\.(build|old)-[A-Za-z0-9_]+$")
    return sorted(p for p in out.parent.iterdir() if pat.match(p.name)) if out.parent.is_dir() else []


def _clean(out: Path) -> None:
    """Delete what a killed run left beside `out`; restore `out` from an old tree
    if a (non-Linux) two-rename swap died between its renames."""
    for p in _stale(out):
        if (not out.exists() and p.name.startswith(f".{out.name}.old-")
                and (p / MARKER).is_file()):
            os.replace(p, out)
            continue
        shutil.rmtree(p, ignore_errors=True)


def replace_tree(files: Mapping[str, bytes], out: str | os.PathLike, *,
                 protect: Iterable[str | os.PathLike] = ()) -> Path:
    """Replace the folder `out` by exactly `files` (site-relative paths -> bytes) plus
    the marker, atomically. Checks `out` first (`check_out`), holds its lock."""
    real = check_out(out, protect=protect)
    real.parent.mkdir(parents=True, exist_ok=True)
    with lock(real):
        _clean(real)
        check_out(out, protect=protect)      # again, under the lock
        tmp = Path(tempfile.mkdtemp(prefix=f".{real.name}.build-", dir=real.parent))
        try:
            os.chmod(tmp, DIR_MODE)
            for rel in sorted(files):
                p = tmp / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                _write_new(p, files[rel])
            for d in sorted(p for p in tmp.rglob("*") if p.is_dir()):
                os.chmod(d, DIR_MODE)           # whatever the umask
            fault_point("build")
            _write_new(tmp / MARKER, MARKER_TEXT.encode())     # last: a complete tree
            if real.is_dir():
                fault_point("swap")
                if not _exchange(tmp, real):
                    old = real.parent / f".{real.name}.old-{secrets.token_hex(8)}"
                    os.replace(real, old)
                    fault_point("swap-second-rename")
                    os.replace(tmp, real)
                    tmp = old
            else:
                fault_point("rename")
                os.replace(tmp, real)
                return real
            fault_point("remove-old")
            shutil.rmtree(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return real
