"""The play log's schema, version 1 (docs/PLAYLOG.md): one JSON object per line.

A log is one or more sections; each starts with a header line, then the events of
that player's attempts, each attempt's lines together and starting with its
`start`:

    {"log": "lumina-play", "version": 1, "player": "p-8f3a...", "source": "browser"}
    {"attempt": 1, "type": "start", "level": "w1-07", "generator": "lumina-gen/3",
     "board": "6x5-R2-K0221..."}
    {"attempt": 1, "type": "move", "block": 3, "distance": -2, "ms": 1830}
    {"attempt": 1, "type": "undo", "ms": 950}
    {"attempt": 1, "type": "win", "moves": 7, "stars": 3, "helped": false, "ms": 12}

`parse(line)` turns one line's JSON object into a `Header`, `Start` or `Event` (each
declared once with `lumina.schema`), or raises `RecordError` naming the field. It checks shape and ranges only; whether
the moves are legal is the replay's question (`lumina.playtest.replay`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lumina import schema as S
from lumina.schema import field, short

LOG = "lumina-play"
VERSION = 1
SOURCES = ("browser", "simulator")
TYPES = ("start", "move", "undo", "redo", "reset", "hint", "solution", "win", "leave")
ENDS = ("win", "leave")              # an attempt's last record, when it has one

MAX_LOG_BYTES = 16 << 20             # a browser's whole log exports to about 1.5 MB
MAX_LINE_CHARS = 20_000              # a start with a 1,000-move `from` fits
MAX_FROM = 1_000                     # moves in a start's `from`
MAX_ATTEMPT = 2 ** 31 - 1
MAX_EVENTS = 2_000                   # records of one attempt (the browser stops there)
MAX_MS = 86_400_000                  # one day: the browser clamps longer pauses to it
MAX_TEXT = 200                       # generator, board, note
MAX_SLIDE = 7                        # a block slides at most 7 cells (an 8-wide grid)
MAX_BLOCK = 15                       # at most 16 movable blocks

COMMON = ("attempt", "type")
#: The fields of each event type's line (every one required); `Event` declares their checks.
FIELDS = {
    "move": (*COMMON, "block", "distance", "ms"),
    "win": (*COMMON, "moves", "stars", "helped", "ms"),
    **{t: (*COMMON, "ms") for t in ("undo", "redo", "reset", "hint", "solution", "leave")},
}


class RecordError(ValueError):
    """One line does not follow the schema; the message names the field."""


def _slide(v: Any, where: str) -> int:
    if S.integer(-MAX_SLIDE, MAX_SLIDE)(v, where) == 0:
        raise S.Bad(where, "a slide of 0 cells is no move")
    return v


_ATTEMPT = S.integer(1, MAX_ATTEMPT)


# The records of a log line, declared once (lumina.schema): `parse` reads them, the
# writers (`header_json`, the simulator) write them.

@dataclass(frozen=True, kw_only=True, slots=True)
class Header:
    log: str = field(S.choice(LOG))
    version: int = field(S.integer(1, MAX_ATTEMPT))
    player: str = field(S.name)
    source: str = field(S.choice(*SOURCES))
    note: str = field(S.text, default="")


@dataclass(frozen=True, kw_only=True, slots=True)
class Start:
    attempt: int = field(_ATTEMPT)
    type: str = field(S.choice("start"), default="start")
    level: str = field(S.name)
    generator: str = field(S.text)
    board: str = field(S.text)
    start_from: tuple[tuple[int, int], ...] = field(        # the position, as moves from the
        S.tuple_of(S.pair(S.integer(0, MAX_BLOCK), _slide, "[block, distance]"), 0, MAX_FROM),
        default=(), key="from")                             # level's start
    helped: bool = field(S.flag, default=False)             # help already used on the board


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """Every other line; `FIELDS` says which fields each type has."""
    attempt: int = field(_ATTEMPT)
    type: str = field(S.choice(*TYPES))
    block: int = field(S.integer(0, MAX_BLOCK), default=-1)
    distance: int = field(_slide, default=0)
    moves: int = field(S.integer(0, MAX_ATTEMPT), default=0)
    stars: int = field(S.integer(1, 3), default=0)
    helped: bool = field(S.flag, default=False)
    ms: int = field(S.integer(0, MAX_MS))


def parse(obj: Any) -> Header | Start | Event:
    """One line's JSON value as a record; `RecordError` names the field at fault."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, got {type(obj).__name__}")
    try:
        if "log" in obj:
            header = S.read(Header, obj)
            if header.version != VERSION:
                raise S.Bad("version", f"{header.version} is newer than this reader (it reads "
                            f"version {VERSION}); update Lumina")
            return header
        kind = obj.get("type")
        if kind == "start":
            return S.read(Start, obj)
        if kind not in FIELDS:
            raise S.Bad("type", f"must be one of {', '.join(TYPES)}, got {short(repr(kind))}"
                        if "type" in obj else "missing (a header needs log, version, player "
                        "and source)")
        return S.read(Event, obj, only=FIELDS[kind])
    except S.Bad as e:
        raise RecordError(f"{e.where}: {e.why}") from None


def header_json(player: str, source: str, note: str = "") -> dict[str, Any]:
    """A header line's object (the writer's side of `parse`)."""
    return S.write(Header(log=LOG, version=VERSION, player=player, source=source, note=note))
