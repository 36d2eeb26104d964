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

`parse(line)` turns one line's JSON object into a `Header`, `Start` or `Event`, or
raises `RecordError` naming the field. It checks shape and ranges only; whether
the moves are legal is the replay's question (`lumina.playtest.replay`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lumina.model import SAFE_ID, LevelError, check_text, short

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

HEADER_FIELDS = {"log", "version", "player", "source", "note"}
COMMON = {"attempt", "type"}
FIELDS = {
    "start": COMMON | {"level", "generator", "board", "from", "helped"},
    "move": COMMON | {"block", "distance", "ms"},
    "win": COMMON | {"moves", "stars", "helped", "ms"},
    **{t: COMMON | {"ms"} for t in ("undo", "redo", "reset", "hint", "solution", "leave")},
}
REQUIRED = {
    "start": ("attempt", "type", "level", "generator", "board"),
    "move": ("attempt", "type", "block", "distance", "ms"),
    "win": ("attempt", "type", "moves", "stars", "helped", "ms"),
}


class RecordError(ValueError):
    """One line does not follow the schema; the message names the field."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Header:
    player: str
    source: str
    note: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Start:
    attempt: int
    level: str
    generator: str
    board: str
    start_from: tuple[tuple[int, int], ...] = ()   # the position, as moves from the level's start
    helped: bool = False                           # help already used on the board


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    attempt: int
    type: str
    ms: int
    block: int = -1
    distance: int = 0
    moves: int = 0
    stars: int = 0
    helped: bool = False


def _int(field: str, v: Any, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"{field}: must be an integer, got {short(repr(v))}")
    if not lo <= v <= hi:
        raise RecordError(f"{field}: {v} is out of range {lo}..{hi}")
    return v


def _bool(field: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise RecordError(f"{field}: must be true or false, got {short(repr(v))}")
    return v


def _text(field: str, v: Any) -> str:
    try:
        return check_text("?", field, v)
    except LevelError as e:
        raise RecordError(f"{field}: {e.message}") from None


def _ident(field: str, v: Any) -> str:
    if not isinstance(v, str) or not SAFE_ID.fullmatch(v):
        raise RecordError(f"{field}: must be 1-64 letters, digits, '.', '_' or '-', got "
                          f"{short(repr(v))}")
    return v


def _fields(obj: dict, allowed: set[str], required: tuple[str, ...]) -> None:
    for k in obj:
        if k not in allowed:
            raise RecordError(f"{short(k)}: unknown field")
    for k in required:
        if k not in obj:
            raise RecordError(f"{k}: missing")


def _slide(field: str, v: Any) -> int:
    d = _int(field, v, -MAX_SLIDE, MAX_SLIDE)
    if d == 0:
        raise RecordError(f"{field}: a slide of 0 cells is no move")
    return d


def parse(obj: Any) -> Header | Start | Event:
    """One line's JSON value as a record; `RecordError` names the field at fault."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, got {type(obj).__name__}")
    if "log" in obj:
        _fields(obj, HEADER_FIELDS, ("log", "version", "player", "source"))
        if obj["log"] != LOG:
            raise RecordError(f"log: must be {LOG!r}, got {short(repr(obj['log']))}")
        version = _int("version", obj["version"], 1, MAX_ATTEMPT)
        if version != VERSION:
            raise RecordError(f"version: {version} is newer than this reader (it reads version "
                              f"{VERSION}); update Lumina")
        if obj["source"] not in SOURCES:
            raise RecordError(f"source: must be one of {', '.join(SOURCES)}")
        return Header(player=_ident("player", obj["player"]), source=obj["source"],
                      note=_text("note", obj["note"]) if "note" in obj else "")
    kind = obj.get("type")
    if kind not in FIELDS:
        raise RecordError(f"type: must be one of {', '.join(TYPES)}, got {short(repr(kind))}"
                          if "type" in obj else "type: missing (a header needs log, version, "
                          "player and source)")
    _fields(obj, FIELDS[kind], REQUIRED.get(kind, ("attempt", "type", "ms")))
    attempt = _int("attempt", obj["attempt"], 1, MAX_ATTEMPT)
    if kind == "start":
        raw = obj.get("from", [])
        if not isinstance(raw, list) or len(raw) > MAX_FROM:
            raise RecordError(f"from: must be a list of at most {MAX_FROM} moves")
        moves = []
        for i, m in enumerate(raw):
            if not isinstance(m, list) or len(m) != 2:
                raise RecordError(f"from[{i}]: must be a pair [block, distance]")
            moves.append((_int(f"from[{i}][0]", m[0], 0, MAX_BLOCK), _slide(f"from[{i}][1]", m[1])))
        return Start(attempt=attempt, level=_ident("level", obj["level"]),
                     generator=_text("generator", obj["generator"]), board=_text("board", obj["board"]),
                     start_from=tuple(moves), helped=_bool("helped", obj.get("helped", False)))
    ms = _int("ms", obj["ms"], 0, MAX_MS)
    if kind == "move":
        return Event(attempt=attempt, type=kind, ms=ms, block=_int("block", obj["block"], 0, MAX_BLOCK),
                     distance=_slide("distance", obj["distance"]))
    if kind == "win":
        return Event(attempt=attempt, type=kind, ms=ms, moves=_int("moves", obj["moves"], 0, MAX_ATTEMPT),
                     stars=_int("stars", obj["stars"], 1, 3), helped=_bool("helped", obj["helped"]))
    return Event(attempt=attempt, type=kind, ms=ms)


def header_json(player: str, source: str, note: str = "") -> dict[str, Any]:
    """A header line's object (the writer's side of `parse`)."""
    out: dict[str, Any] = {"log": LOG, "version": VERSION, "player": player, "source": source}
    if note:
        out["note"] = note
    return out
