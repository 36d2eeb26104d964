"""Safe inputs and outputs: a bounded reader, atomic files, file units, an atomic site
swap, locks and output-path checks.

Every file Lumina reads is read by `read_bounded`, and every file it writes goes
through here, so a kill at any instant leaves either the old output or the new one,
complete, and never a stranger's file or folder deleted.

- `read_bounded(path, limit)`: the bytes of a regular file of at most `limit` bytes.
  FIFOs, devices, sockets and symlinks to them are refused before anything is read
  (`ReadError`, naming the file): nothing blocks, nothing runs away.
- `atomic_write(path, data)`: one file, written beside its target and renamed in
  place; mode 0644 whatever the umask or mkstemp say.
- `write_unit(folder, {name: data})`: several files that belong together (a pack and
  its report), all or none. A journal names the unit's temporary files before any is
  made; renaming it to `.json` commits the unit. After a kill, the next write in that
  folder (`recover`) finishes a committed unit and deletes an uncommitted one's temps.
  An interrupt (SIGINT, SIGTERM) that arrives while a unit commits waits until it is
  whole.
- `replace_tree(files, out)`: a whole site. A swap journal beside `out` names the two
  temporary trees first (`.{out}.build-TOKEN`, `.{out}.old-TOKEN`); the new tree
  carries the marker file `MARKER` and is swapped in by one
  `renameat2(RENAME_EXCHANGE)` on Linux, so `out` is at every instant the old site or
  the new one. The old tree is deleted after the swap; what a killed run left is
  deleted by the next run, through its journal.
- `check_out(out, protect=...)`: refuses an output that is, contains or sits above
  a protected folder (the working folder, the packs, the project), that is a file,
  a symlink loop, or a non-empty folder without our marker.
- `check_output(out, inputs=..., files=...)`: THE output-path check every command
  that writes calls before any work (generate, publish, playtest and simulate, bench,
  vectors, ...): refuses a folder, device, FIFO or socket (or a symlink to one)
  where a file goes, a file where a folder goes, and any output that is one of the
  command's inputs, naming the path as the user typed it; then settles the folder
  (`settle`: what a killed write left there is finished or cleared, so a stale
  journal is never a reason to refuse).
- `settle(folder)`: `recover` under the folder's lock, never raising; every reader of
  a packs folder calls it (`packfile.pack_files`), so a pack and its report are read
  from one run even right after a kill.
- `lock(path)`: one `filelock` lock per output; a second run waits up to
  `LOCK_WAIT` seconds and then fails with a clear message.

Only what this program made is ever cleaned: a temporary file or folder is deleted
when a journal of ours names it, never because its name looks like one of ours (a
user's `.site.old-2024_01_01` or `.notes.20240101.tmp` stays).

Insight: the swap, step by step (each arrow one atomic syscall):

    .lumina-swap.T.json (names build-T, old-T)   site (old)
    .site.build-T (new, complete, marker last)   site (old)
        exchange(.site.build-T, site)  ->  site (new)   .site.build-T (old)
        rmtree(.site.build-T)          ->  site (new)
        unlink(.lumina-swap.T.json)    ->  site (new), nothing else
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
import signal
import stat
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping

if TYPE_CHECKING:
    import filelock

MARKER = ".lumina-site"
MARKER_TEXT = "Built by python -m lumina.publish; publish replaces this folder as a whole.\n"
FILE_MODE = 0o644
DIR_MODE = 0o755
LOCK_WAIT = float(os.environ.get("LUMINA_LOCK_WAIT", "60"))   # seconds a second run waits
MAX_FILE_BYTES = 8 << 20        # the biggest committed pack is 140 KB
JOURNAL_BYTES = 64 << 10        # a journal names a few files
_UNIT_JOURNAL = re.compile(r"^\.lumina-unit\.([0-9a-f]{16})\.(pending|json)$")
_SWAP_JOURNAL = re.compile(r"^\.lumina-swap\.([0-9a-f]{16})\.json$")


class OutputError(ValueError):
    """An output path that must not be written, or a lock not obtained. Names the path."""


class ReadError(ValueError):
    """A file that is not read: not a regular file, too big, or unreadable. Names it."""


def _cannot_write(where: str | os.PathLike, e: OSError) -> OutputError:
    """A write that failed (a full disk, no permission), as one line naming the file
    the user knows: the target, never our hidden temporary."""
    return OutputError(f"{os.fspath(where)}: cannot write: {e.strerror or e}")


# A test hook: called with a step name just before each rename or delete of a
# write, so a fault test can kill the process at every step (tests/test_safeio.py).
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


# ------------------------------------------------------------------ reading

def read_bounded(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes.

    Never blocks or runs away: the file is opened without blocking (a FIFO) and
    without a controlling terminal, `fstat` refuses FIFOs, devices (/dev/zero),
    sockets and folders, symlinks included (the target is what is checked), and at
    most `limit` + 1 bytes are ever read. `ReadError` names the file."""
    where = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise ReadError(f"{where}: cannot read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ReadError(f"{where}: is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise ReadError(f"{where}: not a regular file (a device, FIFO or socket is never read)")
        if st.st_size > limit:
            raise ReadError(f"{where}: {st.st_size} bytes; at most {limit} are read")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise ReadError(f"{where}: cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise ReadError(f"{where}: more than {limit} bytes; at most {limit} are read")
    return b"".join(chunks)


def _journal(path: Path) -> dict | None:
    """A journal's JSON object, or None when the file is not a readable journal."""
    try:
        data = json.loads(read_bounded(path, JOURNAL_BYTES).decode("utf-8"))
    except (ReadError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# ------------------------------------------------------------------ signals

_DEFERRED = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends, then deliver them: a step
    of a few renames is never cut in half by Ctrl-C or a polite kill. Only the main
    thread can swap handlers; elsewhere the block runs as it is (the caller's
    roll-forward still completes the step)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []
    old = {}
    for sig in _DEFERRED:
        if signal.getsignal(sig) is None:          # a handler set outside Python: kept
            continue
        try:
            old[sig] = signal.signal(sig, lambda n, _f: got.append(n))
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(got):
            signal.raise_signal(sig)


# ------------------------------------------------------------------ files

def _write_new(path: Path, data: str | bytes | Iterable[str | bytes]) -> None:
    """Create `path` (never an existing file) holding `data`: bytes, text, or an
    iterable of chunks written as they come (a streamed log never sits in memory)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        for chunk in ([data] if isinstance(data, (str, bytes)) else data):
            view = memoryview(_raw(chunk))
            while view:
                view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _raw(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _file_problem(path: Path) -> str | None:
    """Why a file may not be written at `path` (None when it may): an existing
    folder, device, FIFO or socket there, a symlink to one, or a symlink loop."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None                         # nothing there, or a dangling symlink: replaced
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "it is a symlink loop"
        if e.errno == errno.ENOTDIR:
            return "a folder on its way is a file"
        return None                         # (the write itself will say what is wrong)
    link = "a symlink to " if os.path.islink(path) else ""
    if stat.S_ISDIR(st.st_mode):
        return f"it is {link}a folder, not a file"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return f"it is {link}a device, not a file"
    if stat.S_ISFIFO(st.st_mode):
        return f"it is {link}a FIFO (named pipe), not a file"
    if not stat.S_ISREG(st.st_mode):
        return f"it is {link}a socket or other special file, not a file"
    return None


def atomic_write(path: str | os.PathLike, data: str | bytes) -> None:
    """Write one file atomically (temp file beside it, then rename), mode 0644."""
    write_unit(Path(path).parent, {Path(path).name: data})


def _unit_temps(token: str, names: Iterable[str]) -> dict[str, str]:
    return {name: f".{name}.{token}.tmp" for name in sorted(names)}


def write_unit(folder: str | os.PathLike, files: Mapping[str, str | bytes | Iterable[str]]) -> None:
    """Write `files` (names inside `folder`) as one unit: all of them or, after a
    kill, the next run's `recover` completes them (or, if the unit was not yet
    committed, deletes its temps). A value may be an iterable of text chunks, written
    as it is produced (it may raise to abandon the unit: nothing is left). Every
    target is checked (`_file_problem`) before the unit commits, so a committed unit
    can always be completed. A full disk or a missing permission is an `OutputError`
    naming the target. Holds the folder's lock."""
    folder = Path(folder)
    for name in files:
        if not name or "/" in name or name in (".", ".."):
            raise OutputError(f"{name!r}: a unit holds plain file names")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _cannot_write(folder, e) from None
    with lock(folder):
        recover(folder)
        for name in sorted(files):
            why = _file_problem(folder / name)
            if why:
                raise OutputError(f"{folder / name}: refusing to write: {why}")
        token = secrets.token_hex(8)
        temps = _unit_temps(token, files)
        pending = folder / f".lumina-unit.{token}.pending"
        journal = folder / f".lumina-unit.{token}.json"
        # the journal names the temps before any exists: whatever is left is ours
        try:
            _write_new(pending, json.dumps({"lumina": "unit", "files": temps}, sort_keys=True).encode())
        except OSError as e:
            raise _cannot_write(folder / sorted(files)[0], e) from None
        try:
            for name in sorted(files):
                try:
                    _write_new(folder / temps[name], files[name])
                except OSError as e:
                    raise _cannot_write(folder / name, e) from None
            fault_point("unit-journal")
        except BaseException:
            _finish_unit(folder, pending, temps, commit=False)
            raise
        try:
            with signals_deferred():
                os.replace(pending, journal)          # from here on, the unit is committed
                for name in sorted(temps):
                    fault_point(f"unit-rename:{name}")
                    os.replace(folder / temps[name], folder / name)
                fault_point("unit-journal-remove")
                journal.unlink()
        except BaseException:
            if journal.exists():                       # committed: finish it, whatever came
                _finish_unit(folder, journal, temps, commit=True)
            else:
                _finish_unit(folder, pending, temps, commit=False)
            raise


def _finish_unit(folder: Path, journal: Path, temps: Mapping[str, str], commit: bool) -> None:
    """Complete a unit (rename each temp that is still there into place) or abandon it
    (delete its temps); then delete its journal. A temp that cannot be renamed into
    place (someone made a folder there since) is deleted: a journal is always
    cleared, never left to block the next write."""
    for name, tmp in sorted(temps.items()):
        src = folder / tmp
        if not src.is_file() or src.is_symlink():
            continue
        if commit:
            try:
                os.replace(src, folder / name)
                continue
            except OSError:
                pass
        with contextlib.suppress(OSError):
            src.unlink()
    with contextlib.suppress(FileNotFoundError):
        journal.unlink()


def recover(folder: str | os.PathLike) -> None:
    """Finish the units a killed run committed in `folder` and delete the temps of
    those it had not committed, as their journals say. A file is touched only when a
    journal of ours names it. Call with the folder's lock held (`write_unit` does)."""
    folder = Path(folder)
    if not folder.is_dir():
        return
    for entry in sorted(os.listdir(folder)):
        m = _UNIT_JOURNAL.match(entry)
        if not m:
            continue
        data = _journal(folder / entry)
        files = data.get("files") if data and data.get("lumina") == "unit" else None
        if not isinstance(files, dict) or not all(
                isinstance(n, str) and n and "/" not in n and n not in (".", "..") for n in files):
            continue                                   # not recognisably ours: left alone
        temps = _unit_temps(m[1], files)
        if files != temps:
            continue
        _finish_unit(folder, folder / entry, temps, commit=m[2] == "json")


def settle(folder: str | os.PathLike) -> None:
    """`recover` `folder` under its lock, never raising: a reader or a writer calls it
    first, so what a killed write left there (a pack renamed, its report not yet) is
    completed or rolled back before anything is read or refused. A folder this
    process may not write is left as it is (the write itself will say so)."""
    folder = Path(folder)
    try:
        if not folder.is_dir() or not any(_UNIT_JOURNAL.match(e) for e in os.listdir(folder)):
            return
        with lock(folder):
            recover(folder)
    except (OSError, OutputError):
        pass


# ------------------------------------------------------------------ output paths

def _resolve(p: str | os.PathLike, flag: str = "--out") -> Path:
    try:
        return Path(os.path.abspath(Path(p).expanduser())).resolve()
    except (RuntimeError, OSError) as e:    # RuntimeError: "Symlink loop" (Python < 3.13)
        why = "a symlink loop" if isinstance(e, RuntimeError) or getattr(e, "errno", None) == errno.ELOOP \
            else (getattr(e, "strerror", None) or str(e))
        raise OutputError(f"{p}: refusing {flag}: {why}") from None


def check_out(out: str | os.PathLike, *, protect: Iterable[str | os.PathLike] = (),
              flag: str = "--out", marker: str | None = MARKER) -> Path:
    """The resolved `out`, or `OutputError` when writing there could destroy something:
    it is, contains or sits above a protected folder; it is not a folder; or (when
    `marker` is given) it is a non-empty folder that does not carry the marker."""
    real = _resolve(out, flag)
    for p in protect:
        rp = _resolve(p, "a protected folder")
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


def _same(a: Path, b: Path) -> bool:
    try:
        return a == b or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def check_output(out: str | os.PathLike, *, inputs: Iterable[str | os.PathLike] = (),
                 files: Iterable[str] | None = None, flag: str = "--out") -> Path:
    """The one output-path check: call it with what the user typed, before any work.

        safeio.check_output(args.out, inputs=[*pack_paths, args.campaign])      # a file
        safeio.check_output(args.out, inputs=[...], files=["a.json", "b.json"])  # a folder

    `files=None`: `out` is a file the command writes. `files=[names]`: `out` is a
    folder (made if missing) and `names` the files the command writes into it.
    `inputs`: every file or folder the command reads (None entries are skipped).

    Refused with an `OutputError` naming `out` as typed (and the file in it):
    an existing folder, device, FIFO or socket where a file goes, or a symlink to
    one (or a symlink loop); a file or device where the folder goes; and any output
    file that is one of the inputs (the same path, or the same file by another
    name). Then the output's folder is settled (`settle`): a unit a killed run left
    is completed or rolled back and its journal cleared, so a stale journal never
    makes a write fail. Returns `out`'s absolute path (symlinks resolved)."""
    shown = os.fspath(out)
    real = _resolve(out, flag)
    if files is None:
        folder, targets = real.parent, [(shown, real)]
    else:
        folder = real
        if real.exists() and not real.is_dir():
            what = "a file" if real.is_file() else "a device, FIFO or socket"
            raise OutputError(f"{shown}: refusing {flag}: it is {what}, not a folder")
        targets = [(os.path.join(shown, n), real / n) for n in files]
    for p in folder.parents:
        if p.exists() and not p.is_dir():
            raise OutputError(f"{shown}: refusing {flag}: {p} is a file, not a folder")
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{shown}: refusing {flag}: {folder} is a file, not a folder")
    ins = [_resolve(p, "an input") for p in inputs if p is not None]
    for typed, target in targets:
        why = _file_problem(target)
        if why:
            raise OutputError(f"{typed}: refusing {flag}: {why}")
        for i in ins:
            if _same(target, i):
                raise OutputError(f"{typed}: refusing {flag}: it is one of this command's "
                                  "inputs; write somewhere else")
    settle(folder)
    return real


def check_writable_folder(out: str | os.PathLike, flag: str = "--out") -> Path:
    """Create `out` if needed and prove a file can be written there, before any work."""
    real = _resolve(out, flag)
    if real.exists() and not real.is_dir():
        raise OutputError(f"{out}: refusing {flag}: it is a file, not a folder")
    try:
        real.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=real):    # O_TMPFILE on Linux: no name, nothing left
            pass
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


def _swap_paths(out: Path, token: str) -> tuple[Path, Path]:
    return out.parent / f".{out.name}.build-{token}", out.parent / f".{out.name}.old-{token}"


def _finish_swap(out: Path, journal: Path, token: str) -> None:
    """Clean after a swap its journal describes: restore `out` from the old tree if a
    (non-Linux) two-rename swap died between its renames, delete both temporary trees,
    then the journal."""
    build, old = _swap_paths(out, token)
    if not out.exists() and old.is_dir() and not old.is_symlink() and (old / MARKER).is_file():
        os.replace(old, out)
    for p in (build, old):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):
        journal.unlink()


def _clean(out: Path) -> None:
    """Finish what a killed run left beside `out`, as its swap journal says (call
    with the lock on `out` held). Folders no journal of ours names are never touched."""
    if not out.parent.is_dir():
        return
    for entry in sorted(os.listdir(out.parent)):
        m = _SWAP_JOURNAL.match(entry)
        if not m:
            continue
        data = _journal(out.parent / entry)
        build, old = _swap_paths(out, m[1])
        if data == {"lumina": "swap", "out": out.name, "build": build.name, "old": old.name}:
            _finish_swap(out, out.parent / entry, m[1])


def replace_tree(files: Mapping[str, bytes], out: str | os.PathLike, *,
                 protect: Iterable[str | os.PathLike] = ()) -> Path:
    """Replace the folder `out` by exactly `files` (site-relative paths -> bytes) plus
    the marker, atomically. Checks `out` first (`check_out`), holds its lock."""
    real = check_out(out, protect=protect)
    real.parent.mkdir(parents=True, exist_ok=True)
    with lock(real):
        _clean(real)
        check_out(out, protect=protect)      # again, under the lock
        token = secrets.token_hex(8)
        build, old = _swap_paths(real, token)
        journal = real.parent / f".lumina-swap.{token}.json"
        _write_new(journal, json.dumps({"lumina": "swap", "out": real.name, "build": build.name,
                                        "old": old.name}, sort_keys=True).encode())
        try:
            os.mkdir(build, DIR_MODE)
            os.chmod(build, DIR_MODE)           # whatever the umask
            for rel in sorted(files):
                p = build / rel
                if not p.parent.is_dir():
                    p.parent.mkdir(parents=True, exist_ok=True)
                _write_new(p, files[rel])
            for d in sorted(p for p in build.rglob("*") if p.is_dir()):
                os.chmod(d, DIR_MODE)
            fault_point("build")
            _write_new(build / MARKER, MARKER_TEXT.encode())     # last: a complete tree
            if real.is_dir():
                fault_point("swap")
                if not _exchange(build, real):
                    os.replace(real, old)
                    fault_point("swap-second-rename")
                    os.replace(build, real)
            else:
                fault_point("rename")
                os.replace(build, real)
            fault_point("remove-old")
        finally:
            _finish_swap(real, journal, token)
    return real
