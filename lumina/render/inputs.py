"""Everything the site shows, read from a packs folder once: `gather(packs_dir, verify)`.

Levels are the `Level` objects `lumina.packfile.read_pack` returns (validated and
canonical); the renderer reads their fields directly and never round-trips them
through dicts. Reports and the strategy table are read with their fixed schemas
(the generator's reports, the strategy table's rows, columns `judge.CLASSES` and
`judge.FILTERS`); a missing field is a
`SiteError` naming the file and field, never a silently empty cell.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lumina.judge import CLASSES, FILTERS
from lumina.model import Level
from lumina.packfile import read_pack
from lumina.verify import VerifyReport
from lumina.worlds import CAMPAIGN, Campaign

from .writer import SiteError

MECHANICS = {
    "crystal": "Crystal", "sand": "Sand", "ice": "Ice", "rime": "Rime", "beam": "Beam & mirrors",
    "mixed": "Mixed",
}


@dataclass(frozen=True)
class World:
    number: int
    pack: str
    name: str
    mechanic: str
    gate: int                   # the campaign's: stars that open it
    levels: tuple[Level, ...]
    generator: str = ""            # the pack's generator version (the play log records it)

    @property
    def mechanic_name(self) -> str:
        return MECHANICS.get(self.mechanic, self.mechanic.title())


@dataclass(frozen=True)
class SiteInput:
    worlds: tuple[World, ...]
    dailies: tuple[Level, ...]
    reports: tuple[dict[str, Any], ...]
    strategies: dict[str, Any] | None
    verify: VerifyReport
    campaign: Campaign
    daily_generator: str = ""      # the daily pool's generator version


def level_num(level: Level) -> int:
    """The level's number within its pack: w1-07 -> 7, d-012 -> 12."""
    return int(level.id.rsplit("-", 1)[1])


def load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SiteError(f"{path}: cannot read: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SiteError(f"{path}: not valid JSON: {e}") from None


def pack_paths(packs_dir: Path) -> list[Path]:
    """The pack files of a packs folder: world-*.json and dailies.json, sorted."""
    return sorted(packs_dir.glob("world-*.json")) + sorted(packs_dir.glob("dailies.json"))


def _check_levels(path: Path, levels: tuple[Level, ...], ident) -> None:
    for i, lv in enumerate(levels):
        for f in ("optimal", "solution", "analysis"):
            if getattr(lv, f) is None:
                raise SiteError(f"{path}: level {lv.id}: {f}: missing (publish needs solved, measured levels)")
        if lv.id != ident(i):
            raise SiteError(f"{path}: level {lv.id}: id: expected {ident(i)} at this position")


def _check_report(path: Path, rep: Any) -> dict[str, Any]:
    if not isinstance(rep, dict) or not isinstance(rep.get("buckets"), list):
        raise SiteError(f"{path}: buckets: a report is an object with a list of buckets")
    for i, b in enumerate(rep["buckets"]):
        if not isinstance(b, dict):
            raise SiteError(f"{path}: buckets[{i}]: must be an object")
        for f, kind in (("bucket", str), ("size", str), ("band", list), ("candidates", int),
                        ("accepted", int), ("rejections", dict)):
            if not isinstance(b.get(f), kind):
                raise SiteError(f"{path}: buckets[{i}].{f}: missing or not a {kind.__name__}")
    return rep


def _check_strategies(path: Path, doc: Any) -> dict[str, Any]:
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise SiteError(f"{path}: rows: the strategy table is an object with a list of rows")
    for i, r in enumerate(doc["rows"]):
        for f in ("strategy", "bucket", "candidates", "survivors", *CLASSES, "filtered", "label_vs_real"):
            if not isinstance(r, dict) or f not in r:
                raise SiteError(f"{path}: rows[{i}].{f}: missing")
        for f in FILTERS:
            if f not in r["filtered"]:
                raise SiteError(f"{path}: rows[{i}].filtered.{f}: missing")
    return doc


def gather(packs_dir: Path, verify: VerifyReport | None = None,
           campaign: Campaign = CAMPAIGN) -> SiteInput:
    """Read everything the site shows from `packs_dir`, for `campaign` (its gates and
    daily pool). Raises SiteError (or the packfile's PackError) naming the file and
    field on bad input."""
    packs_dir = Path(packs_dir)
    if not packs_dir.is_dir():
        raise SiteError(f"{packs_dir}: not a folder of packs")
    worlds: list[World] = []
    dailies: tuple[Level, ...] = ()
    daily_generator = ""
    for path in pack_paths(packs_dir):
        pack = read_pack(path)
        if path.name == "dailies.json":
            _check_levels(path, pack.levels, lambda i: f"d-{i + 1:03d}")
            if len(pack.levels) != campaign.daily_pool:
                raise SiteError(f"{path}: levels: the daily pool is {campaign.daily_pool} levels, "
                                f"found {len(pack.levels)}")
            dailies = pack.levels
            daily_generator = str(pack.meta.get("generator", ""))
            continue
        meta = pack.meta
        num = meta.get("world")
        if not isinstance(num, int) or num not in campaign.gates:
            raise SiteError(f"{path}: world: must be 1..{len(campaign.worlds)}, got {num!r}")
        for f in ("name", "mechanic"):
            if not isinstance(meta.get(f), str):
                raise SiteError(f"{path}: {f}: missing or not a string")
        if not pack.levels:
            raise SiteError(f"{path}: levels: a world needs at least one level")
        _check_levels(path, pack.levels, lambda i, n=num: f"w{n}-{i + 1:02d}")
        worlds.append(World(number=num, pack=str(meta.get("pack", path.stem)), name=meta["name"],
                            mechanic=meta["mechanic"], gate=campaign.gates[num],
                            levels=pack.levels, generator=str(meta.get("generator", ""))))
    worlds.sort(key=lambda w: w.number)
    if not worlds:
        raise SiteError(f"{packs_dir}: no world-*.json packs")
    nums = [w.number for w in worlds]
    if len(set(nums)) != len(nums):
        raise SiteError(f"{packs_dir}: world: two packs claim the same world number")
    reports = tuple(_check_report(p, load_json(p)) for p in sorted(packs_dir.glob("report-*.json")))
    strat_path = packs_dir / "strategies.json"
    strategies = _check_strategies(strat_path, load_json(strat_path)) if strat_path.exists() else None
    return SiteInput(worlds=tuple(worlds), dailies=dailies, reports=reports, strategies=strategies,
                     verify=verify or VerifyReport(ok=True, lines=[], packs=[], gates={}),
                     campaign=campaign, daily_generator=daily_generator)
