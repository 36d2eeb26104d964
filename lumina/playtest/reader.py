"""Reading play logs: bounded, strict, and one bad line costs one record.

`LogReader.attempts(paths)` yields every attempt of every log as a `RawAttempt`
(its start and events, not yet checked against the level) and collects a
`Problem` for each line it could not use, naming the file and line. The rest of
the file is still read. Bounds come before trust: each file is a regular file of
at most `schema.MAX_LOG_BYTES` (`packfile.read_bytes`: FIFOs and devices are never
opened for reading), each line at most `schema.MAX_LINE_CHARS`, strict UTF-8 per
line, JSON through `packfile.parse_json` (nesting, integer size and NaN bounded),
an attempt at most `schema.MAX_EVENTS` records. A truncated file loses only its
cut line; the attempt it belonged to is read as unfinished.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Iterable, Iterator

from lumina.packfile import PackError, parse_json, read_bytes

from . import schema
from .schema import Event, Header, RecordError, Start

MAX_PROBLEMS_KEPT = 1_000          # per file; the rest are counted, not kept


@dataclass(frozen=True, kw_only=True, slots=True)
class Problem:
    """A line (or a whole file, line 0) that was not used, and why."""
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file} line {self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


@dataclass(frozen=True, kw_only=True, slots=True)
class RawAttempt:
    """One attempt as its lines say, before the replay checks it."""
    file: str
    line: int                      # the line of its start record
    player: str
    source: str
    start: Start
    events: tuple[Event, ...]
    lines: tuple[int, ...]         # the line of each event
    digest: bytes                  # of its lines, to spot the same attempt in two exports


class _Open:
    """The attempt being read."""
    __slots__ = ("start", "line", "events", "lines", "hash", "ended", "full")

    def __init__(self, start: Start, line: int, raw: bytes):
        self.start, self.line = start, line
        self.events: list[Event] = []
        self.lines: list[int] = []
        self.hash = hashlib.blake2b(raw, digest_size=16)
        self.ended = self.full = False


class LogReader:
    """Reads logs; `problems` (at most MAX_PROBLEMS_KEPT a file) and `skipped` (every
    unused line, by file) fill as `attempts` runs."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.skipped: dict[str, int] = {}
        self.files_read: list[str] = []

    def problem(self, file: str, line: int, message: str) -> None:
        n = self.skipped.get(file, 0)
        self.skipped[file] = n + 1
        if n < MAX_PROBLEMS_KEPT:
            self.problems.append(Problem(file=file, line=line, message=message))

    def attempts(self, paths: Iterable[str | os.PathLike]) -> Iterator[RawAttempt]:
        for path in paths:
            yield from self._file(str(path))

    def _file(self, name: str) -> Iterator[RawAttempt]:
        try:
            raw = read_bytes(name, schema.MAX_LOG_BYTES)
        except PackError as e:
            self.problem(name, 0, str(e).removeprefix(f"{name}: "))
            return
        self.files_read.append(name)
        header: Header | None = None
        cur: _Open | None = None
        seen: set[int] = set()             # attempt numbers of this section
        for lineno, chunk in enumerate(raw.split(b"\n"), 1):
            if chunk.endswith(b"\r"):
                chunk = chunk[:-1]
            if not chunk.strip():
                continue
            rec = self._record(name, lineno, chunk)
            if rec is None:
                continue
            if isinstance(rec, Header):
                if cur is not None:
                    yield _done(name, header, cur)
                header, cur, seen = rec, None, set()
                continue
            if header is None:
                self.problem(name, lineno, "a record before any header line (a log starts with "
                             '{"log": "lumina-play", ...})')
                continue
            if isinstance(rec, Start):
                if cur is not None:
                    yield _done(name, header, cur)
                    cur = None
                if rec.attempt in seen:
                    self.problem(name, lineno, f"attempt {rec.attempt}: started twice in one log")
                    continue
                seen.add(rec.attempt)
                cur = _Open(rec, lineno, chunk)
                continue
            if cur is None or rec.attempt != cur.start.attempt:
                self.problem(name, lineno, f"attempt {rec.attempt}: a {rec.type} record with no "
                             "start line before it in this attempt")
                continue
            if cur.ended:
                self.problem(name, lineno, f"attempt {rec.attempt}: a {rec.type} record after the "
                             f"attempt's {cur.events[-1].type}")
                continue
            if len(cur.events) >= schema.MAX_EVENTS:
                if not cur.full:
                    self.problem(name, lineno, f"attempt {rec.attempt}: more than {schema.MAX_EVENTS} "
                                 "records; the rest of this attempt is not read")
                cur.full = True
                continue
            cur.events.append(rec)
            cur.lines.append(lineno)
            cur.hash.update(b"\n" + chunk)
            cur.ended = rec.type in schema.ENDS
        if cur is not None:
            yield _done(name, header, cur)

    def _record(self, name: str, lineno: int, chunk: bytes) -> Header | Start | Event | None:
        if len(chunk) > schema.MAX_LINE_CHARS:
            self.problem(name, lineno, f"{len(chunk)} bytes on one line; at most "
                         f"{schema.MAX_LINE_CHARS}")
            return None
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as e:
            self.problem(name, lineno, f"not UTF-8 (byte 0x{chunk[e.start]:02x} at column {e.start + 1})")
            return None
        try:
            return schema.parse(parse_json(text, "-"))
        except PackError as e:
            self.problem(name, lineno, str(e).removeprefix("-: "))
        except RecordError as e:
            self.problem(name, lineno, str(e))
        return None


def _done(name: str, header: Header | None, cur: _Open) -> RawAttempt:
    assert header is not None
    return RawAttempt(file=name, line=cur.line, player=header.player, source=header.source,
                      start=cur.start, events=tuple(cur.events), lines=tuple(cur.lines),
                      digest=cur.hash.digest())
