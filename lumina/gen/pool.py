"""The board pool: an SQLite store of every judged board the miner kept, and its
byte-deterministic committed form (docs/GENERATION.md).

    pool/pool.sqlite            the working store (stdlib sqlite3; not committed)
    pool/boards-<mech>.jsonl.gz one row per board, sorted by (par, desc), gzip with mtime 0
    pool/jobs.jsonl.gz          one row per finished job, sorted by id

A job's boards and its job row are written in one transaction, so a killed run
(Ctrl-C, SIGTERM, SIGKILL) leaves whole jobs only, and a job already in the pool is
skipped on the next run. A board found by two jobs is one row owned by the smaller
job id, so the rows are the same whatever order the jobs finished in. Every other
field of a row is a pure function of the board.

Insight: the shards are the pool; the SQLite file is rebuilt from them when it is
missing, so a fresh clone composes the committed packs without mining:

    pool/*.jsonl.gz --load--> pool.sqlite --compose--> packs/
"""
from __future__ import annotations

import gzip
import itertools
import io
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator

from lumina.errors import LuminaError
from lumina.safeio import atomic_write

DB_NAME = "pool.sqlite"
JOBS_SHARD = "jobs.jsonl.gz"
SHARD_PREFIX = "boards-"
MAX_POOL_BYTES = 40 * 1024 * 1024       # the committed shards, in all

COLUMNS = (("desc", "TEXT PRIMARY KEY"), ("mechanic", "TEXT"), ("size", "TEXT"),
           ("twists", "TEXT"), ("beam", "INTEGER"), ("blocks", "INTEGER"), ("par", "INTEGER"),
           ("crystal_par", "INTEGER"), ("margin", "INTEGER"), ("plans", "INTEGER"),
           ("chain", "INTEGER"), ("dead_share", "REAL"), ("solutions", "INTEGER"),
           ("family", "TEXT"), ("reskin", "TEXT"), ("felt_effort", "REAL"),
           ("felt_success", "REAL"), ("job", "TEXT"), ("generator", "TEXT"), ("level", "TEXT"))
NAMES = tuple(c for c, _ in COLUMNS)


class PoolError(LuminaError):
    """The pool folder or one of its files cannot be used (one line naming it)."""


def _schema(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS boards (" + ", ".join(f"{c} {t}" for c, t in COLUMNS) + ")")
    db.execute("CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, generator TEXT, "
               "boards INTEGER, work TEXT)")
    db.execute("CREATE INDEX IF NOT EXISTS boards_by_par ON boards (mechanic, par)")


def open_pool(folder: str | os.PathLike, *, create: bool = True) -> sqlite3.Connection:
    """The pool's SQLite store in `folder`; committed shards whose jobs it lacks (a
    fresh clone: all of them) are merged in first."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise PoolError(f"{folder}: --pool: not a folder")
    if not folder.exists():
        if not create:
            raise PoolError(f"{folder}: --pool: no such folder")
        folder.mkdir(parents=True)
    path = folder / DB_NAME
    try:
        db = sqlite3.connect(path, timeout=60)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        _schema(db)
    except sqlite3.DatabaseError as e:
        raise PoolError(f"{path}: not a pool database ({e})") from None
    if (folder / JOBS_SHARD).exists():
        want = {r["id"] for r in _read_shard(folder / JOBS_SHARD)}
        if not want <= done_jobs(db):       # committed jobs this store lacks: merge them in
            load_shards(db, folder)
    return db


def shard_files(folder: Path) -> list[Path]:
    return sorted(Path(folder).glob(f"{SHARD_PREFIX}*.jsonl.gz")) + (
        [Path(folder) / JOBS_SHARD] if (Path(folder) / JOBS_SHARD).exists() else [])


MAX_ROW_CHARS = 1 << 20                # one board row, its level included, is under 2 KB
MAX_SHARD_TEXT = 16 * MAX_POOL_BYTES   # a shard's text, decompressed (a gzip bomb stops here)


def _read_shard(path: Path) -> Iterator[dict]:
    """The rows of one shard, bounded as it goes: the file's size, each line's length and
    the text's total (a committed shard is a few MB; a hostile one stops at the bound)."""
    try:
        if path.stat().st_size > MAX_POOL_BYTES:
            raise PoolError(f"{path}: over {MAX_POOL_BYTES} bytes (the whole pool's bound)")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            total = 0
            for n in itertools.count(1):
                line = f.readline(MAX_ROW_CHARS + 1)
                if not line:
                    return
                total += len(line)
                if len(line) > MAX_ROW_CHARS:
                    raise PoolError(f"{path}: line {n}: over {MAX_ROW_CHARS} characters")
                if total > MAX_SHARD_TEXT:
                    raise PoolError(f"{path}: line {n}: over {MAX_SHARD_TEXT} characters in all")
                try:
                    row = json.loads(line)
                except ValueError:
                    raise PoolError(f"{path}: line {n}: not JSON") from None
                if not isinstance(row, dict):
                    raise PoolError(f"{path}: line {n}: not a row object")
                yield row
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise PoolError(f"{path}: cannot read the shard ({e})") from None


# A board row's fields by their declared column type (COLUMNS): what a shard may hold.
_TYPES = {"TEXT": (str,), "INTEGER": (int,), "REAL": (int, float)}
_NULLABLE = {"felt_effort", "felt_success", "crystal_par", "chain", "dead_share", "solutions"}


def _row_problem(row: dict) -> str | None:
    """The first field of a board row that is missing or of the wrong type, or None."""
    for c, t in COLUMNS:
        if c not in row:
            return f"{c}: missing"
        v = row[c]
        if c == "level":
            if not isinstance(v, dict):
                return "level: not an object"
        elif v is None:
            if c not in _NULLABLE:
                return f"{c}: null"
        elif isinstance(v, bool) or not isinstance(v, _TYPES[t.split()[0]]):
            return f"{c}: {type(v).__name__}, not {t.split()[0].lower()}"
    return None


def load_shards(db: sqlite3.Connection, folder: str | os.PathLike) -> None:
    """Fill the store from the committed shards (one transaction)."""
    folder = Path(folder)
    with db:
        for path in sorted(folder.glob(f"{SHARD_PREFIX}*.jsonl.gz")):
            for n, row in enumerate(_read_shard(path), 1):
                bad = _row_problem(row)
                if bad:
                    raise PoolError(f"{path}: line {n}: {bad}")
                _put_board(db, row)
        if (folder / JOBS_SHARD).exists():
            for row in _read_shard(folder / JOBS_SHARD):
                if "id" not in row:
                    raise PoolError(f"{folder / JOBS_SHARD}: a job row without its id")
                db.execute("INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?)",
                           (row["id"], row.get("generator", ""), row.get("boards", 0),
                            json.dumps(row.get("work", {}), sort_keys=True)))


def _put_board(db: sqlite3.Connection, row: dict) -> None:
    values = [json.dumps(row["level"], sort_keys=True, separators=(",", ":"))
              if c == "level" else row[c] for c in NAMES]
    db.execute(f"INSERT INTO boards ({', '.join(NAMES)}) VALUES ({', '.join('?' * len(NAMES))}) "
               "ON CONFLICT(desc) DO UPDATE SET job = min(job, excluded.job)", values)


def done_jobs(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT id FROM jobs")}


def store_job(db: sqlite3.Connection, job: str, generator: str, boards: Iterable[dict],
              work: dict) -> None:
    """One finished job and its boards, in one transaction."""
    boards = list(boards)
    with db:
        for row in boards:
            _put_board(db, row)
        db.execute("INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?)",
                   (job, generator, len(boards), json.dumps(work, sort_keys=True)))


def rows(db: sqlite3.Connection, where: str = "", args: tuple = ()) -> list[dict]:
    """Board rows (level parsed), sorted by (mechanic, par, desc)."""
    cur = db.execute(f"SELECT {', '.join(NAMES)} FROM boards {where} "
                     "ORDER BY mechanic, par, desc", args)
    out = []
    for r in cur:
        d = dict(zip(NAMES, r))
        d["level"] = json.loads(d["level"])
        out.append(d)
    return out


def _gz(lines: Iterable[str]) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        for line in lines:
            f.write(line.encode("utf-8"))
            f.write(b"\n")
    return buf.getvalue()


def export_shards(db: sqlite3.Connection, folder: str | os.PathLike) -> dict[str, int]:
    """Write the committed form: one gzip shard per mechanic (rows sorted by par, then
    desc; keys sorted), and the jobs. Returns bytes per file."""
    folder = Path(folder)
    by_mech: dict[str, list[str]] = {}
    for row in rows(db):
        by_mech.setdefault(row["mechanic"], []).append(
            json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    sizes = {}
    old = {p.name for p in folder.glob(f"{SHARD_PREFIX}*.jsonl.gz")}
    for mech in sorted(by_mech):
        name = f"{SHARD_PREFIX}{mech}.jsonl.gz"
        data = _gz(by_mech[mech])
        atomic_write(folder / name, data)
        sizes[name] = len(data)
        old.discard(name)
    for name in old:
        (folder / name).unlink()
    jobs = [json.dumps({"id": i, "generator": g, "boards": n, "work": json.loads(w)},
                       sort_keys=True, separators=(",", ":"))
            for i, g, n, w in db.execute("SELECT id, generator, boards, work FROM jobs ORDER BY id")]
    data = _gz(jobs)
    atomic_write(folder / JOBS_SHARD, data)
    sizes[JOBS_SHARD] = len(data)
    if sum(sizes.values()) > MAX_POOL_BYTES:
        raise PoolError(f"{folder}: the pool's shards take {sum(sizes.values())} bytes, "
                        f"over {MAX_POOL_BYTES}")
    return sizes


def status(db: sqlite3.Connection) -> dict[str, Any]:
    """Boards by mechanic and par, and job counts."""
    table: dict[str, dict[int, int]] = {}
    for mech, par, n in db.execute("SELECT mechanic, par, count(*) FROM boards "
                                   "GROUP BY mechanic, par ORDER BY mechanic, par"):
        table.setdefault(mech, {})[par] = n
    jobs = db.execute("SELECT count(*) FROM jobs").fetchone()[0]
    return {"boards": table, "jobs": jobs}


def fill_felt(db: sqlite3.Connection, everything: bool = False) -> int:
    """Play the felt-difficulty player (`lumina.playtest.felt`) on boards that lack
    its figures (all boards with `everything`, after the player changed): a pure
    function of the board, so a row filled later equals one mined with the player.
    Returns how many rows were filled (0 when the player is not installed)."""
    from lumina.gen.mining import play_felt
    from lumina.model import Level
    q = "SELECT desc, level FROM boards" + ("" if everything else " WHERE felt_effort IS NULL")
    todo = db.execute(q + " ORDER BY desc").fetchall()
    n = 0
    with db:
        for desc, text in todo:
            body = json.loads(text)
            f = play_felt(Level.from_json({"id": "pool", **body}))
            if f.effort is None:
                return n
            body["analysis"]["effort"], body["analysis"]["success"] = f.effort, f.success
            db.execute("UPDATE boards SET felt_effort = ?, felt_success = ?, level = ? "
                       "WHERE desc = ?", (f.effort, f.success,
                                          json.dumps(body, sort_keys=True, separators=(",", ":")),
                                          desc))
            n += 1
    return n
