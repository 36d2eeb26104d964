"""Packs on disk: strict reading, canonical atomic writing.

A pack is one JSON object: metadata fields, then `levels`, a list of level objects
(RULES.md). Reading validates every level and names the file, the level and the
field on failure. Writing is canonical (fixed key order, one level per line) and
atomic (a temporary file renamed into place), so the same pack is the same bytes
and a failed write never leaves half a file.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from lumina.model import Level, LevelError

META_ORDER = ("pack", "name", "world", "mechanic", "seed", "generator")


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


def read_pack(path: str | os.PathLike) -> Pack:
    """Read and validate a pack; `PackError` names the file (and level and field)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PackError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PackError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: "
                        f"{e.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise PackError(f"{path}: field levels: a pack is an object with a list of levels")
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
    meta = {k: v for k, v in data.items() if k != "levels"}
    return Pack(path=path, meta=meta, levels=tuple(levels))


def read_level_file(path: str | os.PathLike, level_id: str | None = None) -> list[Level]:
    """A file holding one level object or a pack; `level_id` picks one level."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise PackError(f"{path}: cannot read: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise PackError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from None
    if isinstance(data, dict) and "levels" in data:
        levels = list(read_pack(path).levels)
    else:
        try:
            levels = [Level.from_json(data)]
        except LevelError as e:
            raise PackError(f"{path}: {e}") from None
    if level_id is not None:
        levels = [lv for lv in levels if lv.id == level_id]
        if not levels:
            raise PackError(f"{path}: level {level_id}: id: no such level")
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


def atomic_write(path: str | os.PathLike, data: str | bytes) -> None:
    """Write to a temporary file beside `path`, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_pack(path: str | os.PathLike, meta: dict[str, Any], levels: Iterable[Level]) -> None:
    atomic_write(path, dumps_pack(meta, levels))


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Canonical JSON (sorted keys, 2-space indent) written atomically."""
    atomic_write(path, json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
