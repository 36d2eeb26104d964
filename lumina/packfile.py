"""Every file a command reads, bounded and checked by the one schema; packs written canonically.

A pack is one JSON object: metadata fields (`PACK_META`), then `levels`, a list of
level objects (RULES.md, declared in `lumina.model`). A generation report
(`report-*.json`, `REPORT`) and the strategy table (`strategies.json`,
`strategies_schema`) are read here too; every schema is declared in `lumina.schema`
or beside its dataclass. Types are exact: a bool is not a
number (`"world": true` is refused, not read as 1), a count is a non-negative
integer, a string is one short printable line. Every failure is one `PackError`
naming the file, the level and the field.

Reading is bounded before anything is trusted (`lumina.safeio.read_bounded`):
regular files only (FIFOs, devices and symlinks to them are refused), at most
MAX_FILE_BYTES, strict UTF-8, JSON nested at most MAX_DEPTH deep with integers of at
most MAX_INT_DIGITS digits. Writing is canonical (fixed key order, one level per
line) and goes through `lumina.safeio` (atomic, mode 0644; a pack and its report as
one unit), so the same pack is the same bytes and a failed or killed write never
leaves half a file.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from lumina.model import Level, LevelError, short
from lumina.safeio import MAX_FILE_BYTES, ReadError, atomic_write, read_bounded, settle, write_unit
from lumina.schema import (MAX_COUNT, META_ORDER, PACK_META, REPORT, REPORT_BUCKET,  # noqa: F401
                           Bad, Schema, anything, integer, list_of, map_of, name, nullable,
                           number, obj, strategies_schema, text)

MAX_DEPTH = 32                 # a pack nests 5 deep
MAX_INT_DIGITS = 20            # every field fits an int64


class PackError(ValueError):
    """A pack file cannot be used. The message starts with the file path."""


@dataclass(frozen=True)
class Pack:
    path: Path
    meta: dict[str, Any]
    levels: tuple[Level, ...]

    @property
    def name(self) -> str:
        return str(self.meta.get("name") or self.meta.get("pack") or self.path.stem)


def _fail(path: Path, what: str) -> PackError:
    return PackError(f"{path}: {what}")


def read_bytes(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (`safeio.read_bounded`:
    FIFOs, devices, sockets and folders, symlinks to them included, are refused before
    reading, and at most `limit` + 1 bytes are ever read). `PackError` names the file."""
    try:
        return read_bounded(path, limit)
    except ReadError as e:
        raise PackError(str(e)) from None


def read_text(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most `limit` bytes (`read_bytes`), strictly UTF-8.
    UTF-16 and other encodings get a message saying what to do."""
    path = Path(path)
    raw = read_bytes(path, limit)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) >= 2 and (raw[0] == 0 or raw[1] == 0)):
        raise _fail(path, "is UTF-16 text; save it as UTF-8")
    if raw.startswith(b"\xef\xbb\xbf"):
        raise _fail(path, "starts with a byte-order mark; save it as UTF-8 without BOM")
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise _fail(path, f"not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start}); "
                    "save it as UTF-8") from None


def _big_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_int=_big_int, parse_constant=_no_constant)   # one, not one a call
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """The deepest [ / { nesting of JSON text (strings skipped), without recursion."""
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", _STRINGS.sub("", text)):
        depth += 1 if ch in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def parse_json(text: str, path: str | os.PathLike) -> Any:
    """JSON with bounds: nesting at most MAX_DEPTH, integers at most MAX_INT_DIGITS
    digits, no NaN/Infinity. `PackError` names the file and the place."""
    # (text with no more brackets than the bound cannot nest past it: no scan needed)
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise _fail(Path(path), f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise _fail(Path(path), f"not valid JSON (line {e.lineno}, column {e.colno}: "
                    f"{e.msg})") from None
    except (ValueError, RecursionError) as e:
        raise _fail(Path(path), f"not usable JSON: {e}") from None


def read_json(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> Any:
    """`read_text` then `parse_json`: a bounded, strict JSON file."""
    return parse_json(read_text(path, limit), path)


WORLD_PACKS = "world-*.json"        # the names of a packs folder's files, here only
DAILIES_PACK = "dailies.json"
#: The optional practice pack: the format of dailies.json, pack meta "pack": "practice",
#: level ids p-00001 ... (docs/SITE.md "Practice"); verify and publish read it from a
#: packs folder when present.
PRACTICE_PACK = "practice.json"
REPORTS = "report-*.json"


def world_files(folder: str | os.PathLike) -> list[Path]:
    """A packs folder's world packs, sorted (`world-*.json`)."""
    return sorted(Path(folder).glob(WORLD_PACKS))


def report_files(folder: str | os.PathLike) -> list[Path]:
    """A packs folder's generation reports, sorted (`report-*.json`)."""
    return sorted(Path(folder).glob(REPORTS))


def pack_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files as given; a folder stands for its packs (world-*.json, then dailies.json).
    Each folder read is settled first (`safeio.settle`): a pack and its report that a
    killed write left half renamed are completed or rolled back before either is read."""
    out: list[Path] = []
    paths = [Path(p) for p in paths]
    for folder in dict.fromkeys(p if p.is_dir() else p.parent for p in paths):
        settle(folder)
    for p in paths:
        if p.is_dir():
            found = world_files(p) + sorted(p.glob(DAILIES_PACK))
            if not found:
                raise _fail(p, f"no {WORLD_PACKS} or {DAILIES_PACK} packs in this folder")
            out.extend(found)
        else:
            out.append(p)
    return out


# ------------------------------------------------------------------ schemas
# Every record's schema is declared in `lumina.schema` (the pack's metadata, a report,
# the strategy table) or beside its dataclass (`lumina.model.Level`); `check` turns a
# failure into one line naming the file and the field.

def check(path: str | os.PathLike, value: Any, schema: Schema) -> Any:
    """`value` (read from `path`) checked against `schema`; PackError names the file
    and the field."""
    try:
        return schema(value, "")
    except Bad as e:
        raise PackError(f"{path}: {e.where}: {e.why}") from None


def read_report(path: str | os.PathLike) -> dict[str, Any]:
    """A generation report, bounded and checked (`REPORT`)."""
    return check(path, read_json(path), REPORT)


def read_strategies(path: str | os.PathLike, classes: Sequence[str], filters: Sequence[str]
                    ) -> dict[str, Any]:
    """The strategy table, bounded and checked (`strategies_schema`)."""
    return check(path, read_json(path), strategies_schema(classes, filters))


def _pack_from(path: Path, data: Any) -> Pack:
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise PackError(f"{path}: field levels: a pack is an object with a list of levels")
    meta = check(path, {k: v for k, v in data.items() if k != "levels"}, PACK_META)
    levels = []
    seen: set[str] = set()
    for i, raw in enumerate(data["levels"]):
        try:
            lv = Level.from_json(raw)
        except LevelError as e:
            if e.level_id == "?":
                raise PackError(f"{path}: levels[{i}]: {e.field}: {e.message}") from None
            raise PackError(f"{path}: {e}") from None
        if lv.id in seen:
            raise PackError(f"{path}: level {lv.id}: id: used twice in one pack")
        seen.add(lv.id)
        levels.append(lv)
    return Pack(path=path, meta=meta, levels=tuple(levels))


def read_pack(path: str | os.PathLike) -> Pack:
    """Read and validate a pack; `PackError` names the file (and level and field)."""
    path = Path(path)
    return _pack_from(path, read_json(path))


def read_level_file(path: str | os.PathLike, level_id: str | None = None) -> list[Level]:
    """A file holding one level object or a pack; `level_id` picks one level."""
    path = Path(path)
    data = read_json(path)
    if isinstance(data, dict) and "levels" in data:
        levels = list(_pack_from(path, data).levels)
    else:
        try:
            levels = [Level.from_json(data)]
        except LevelError as e:
            raise PackError(f"{path}: {e}") from None
    if level_id is not None:
        levels = [lv for lv in levels if lv.id == level_id]
        if not levels:
            raise PackError(f"{path}: level {short(level_id)}: id: no such level")
    return levels


def dumps_pack(meta: dict[str, Any], levels: Iterable[Level]) -> str:
    """Canonical text: known metadata first in fixed order, the rest sorted, then
    one level per line."""
    keys = [k for k in META_ORDER if k in meta] + sorted(k for k in meta if k not in META_ORDER)
    lines = ["{"]
    for k in keys:
        if k == "levels":
            continue
        lines.append(f"  {json.dumps(k)}: {json.dumps(meta[k], sort_keys=True, ensure_ascii=False)},")
    body = [json.dumps(lv.to_json(), ensure_ascii=False) for lv in levels]
    lines.append('  "levels": [')
    lines.extend(f"    {b}," for b in body[:-1])
    if body:
        lines.append(f"    {body[-1]}")
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_pack(path: str | os.PathLike, meta: dict[str, Any], levels: Iterable[Level]) -> None:
    atomic_write(path, dumps_pack(meta, levels))


def dumps_json(obj: Any) -> str:
    """Canonical JSON text: sorted keys, 2-space indent, one final newline."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Canonical JSON written atomically (mode 0644)."""
    atomic_write(path, dumps_json(obj))


def write_pack_and_report(folder: str | os.PathLike, name: str, meta: dict[str, Any],
                          levels: Iterable[Level], report: Any) -> None:
    """`{name}.json` and `report-{name}.json` as one unit (`safeio.write_unit`): a kill
    never leaves a new pack beside an old report."""
    write_unit(folder, {f"{name}.json": dumps_pack(meta, levels),
                        f"report-{name}.json": dumps_json(report)})
