"""Everything the site shows, read from a packs folder once: `gather(packs_dir, verify, packs)`.

Levels are the `Level` objects `lumina.packfile.read_pack` returns (validated and
canonical), or exactly the `Pack` objects the caller verified (`publish` passes the
packs it read once and verified, so what is rendered is what was verified); the
renderer reads their fields directly and never round-trips them through dicts. Each
level must be playable (`lumina.playable`). Reports and the strategy table are read
by `lumina.packfile` with their strict schemas (`REPORT`, `strategies_schema` over
`judge.CLASSES` and `judge.FILTERS`); a missing or mistyped field is one error
naming the file and field, never a silently empty cell.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from lumina import playable
from lumina.judge import CLASSES, FILTERS
from lumina.model import Level, LevelError
from lumina.packfile import (Pack, pack_files, read_pack, read_report, read_strategies,
                             report_files)
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
    practice: tuple[Level, ...] = ()   # packs/practice.json's proven levels, when it exists
    practice_generator: str = ""

#: The optional practice pack: the format of dailies.json, pack meta "pack": "practice",
#: level ids p-00001 ... (docs/SITE.md "Practice").
PRACTICE_PACK = "practice.json"


def level_num(level: Level) -> int:
    """The level's number within its pack: w1-07 -> 7, d-012 -> 12."""
    return int(level.id.rsplit("-", 1)[1])


def _check_levels(path: Path, levels: tuple[Level, ...], ident) -> None:
    for i, lv in enumerate(levels):
        try:
            playable.check(lv)
        except LevelError as e:
            raise SiteError(f"{path}: {e}") from None
        if lv.id != ident(i):
            raise SiteError(f"{path}: level {lv.id}: id: expected {ident(i)} at this position")


def gather(packs_dir: Path, verify: VerifyReport | None = None,
           campaign: Campaign = CAMPAIGN, packs: Sequence[Pack] | None = None) -> SiteInput:
    """Everything the site shows, for `campaign` (its gates and daily pool): `packs`
    (read from `packs_dir` when not given: publish passes the packs it verified) and
    the reports and strategy table in `packs_dir`. Raises SiteError (or the
    packfile's PackError) naming the file and field on bad input."""
    packs_dir = Path(packs_dir)
    if not packs_dir.is_dir():
        raise SiteError(f"{packs_dir}: not a folder of packs")
    if packs is None:
        packs = [read_pack(p) for p in pack_files([packs_dir])]
    worlds: list[World] = []
    dailies: tuple[Level, ...] = ()
    daily_generator = ""
    practice: Pack | None = None
    for pack in packs:
        path = pack.path
        if path.name == PRACTICE_PACK:
            practice = pack
            continue
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
    prac_path = packs_dir / PRACTICE_PACK
    if practice is None and (prac_path.exists() or prac_path.is_symlink()):
        practice = read_pack(prac_path)
    if practice is not None:
        if practice.meta.get("pack") != "practice":
            raise SiteError(f"{practice.path}: pack: must be \"practice\", got {practice.meta.get('pack')!r}")
        _check_levels(practice.path, practice.levels, lambda i: f"p-{i + 1:05d}")
    reports = tuple(read_report(p) for p in report_files(packs_dir))
    strat_path = packs_dir / "strategies.json"
    strategies = (read_strategies(strat_path, CLASSES, FILTERS)
                  if strat_path.exists() or strat_path.is_symlink() else None)
    return SiteInput(worlds=tuple(worlds), dailies=dailies, reports=reports, strategies=strategies,
                     verify=verify or VerifyReport(ok=True, lines=[], packs=[], gates={}),
                     campaign=campaign, daily_generator=daily_generator,
                     practice=practice.levels if practice else (),
                     practice_generator=str(practice.meta.get("generator", "")) if practice else "")
