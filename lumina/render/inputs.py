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

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from lumina import playable
from lumina.judge import CLASSES, FILTERS
from lumina.model import Level, LevelError
from lumina.packfile import (DAILIES_PACK, PRACTICE_PACK, Pack, pack_files, read_pack,
                             read_report, read_strategies, report_files)
from lumina.verify import VerifyReport, pack_set_problems
from lumina.worlds import CAMPAIGN, Campaign, World, level_number

from .writer import SiteError

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


def level_num(level: Level) -> int:
    """The level's number within its pack: w1-07 -> 7, d-012 -> 12."""
    return level_number(level.id)


def _check_practice(pack: Pack) -> None:
    """Every practice level playable, ids p-00001, p-00002, ... in order."""
    for i, lv in enumerate(pack.levels):
        try:
            playable.check(lv)
        except LevelError as e:
            raise SiteError(f"{pack.path}: {e}") from None
        if lv.id != f"p-{i + 1:05d}":
            raise SiteError(f"{pack.path}: level {lv.id}: id: expected p-{i + 1:05d} at this position")


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
    problems = pack_set_problems(packs, campaign, [packs_dir])    # the verifier's one rule
    if problems:
        raise SiteError(problems[0])
    worlds: list[World] = []
    dailies: tuple[Level, ...] = ()
    daily_generator = ""
    practice: Pack | None = None
    for pack in packs:                # checked by pack_set_problems: only built here
        if pack.path.name == PRACTICE_PACK:
            practice = pack
            continue
        if pack.path.name == DAILIES_PACK:
            dailies = pack.levels
            daily_generator = str(pack.meta.get("generator", ""))
            continue
        meta, num = pack.meta, pack.meta["world"]
        worlds.append(dataclasses.replace(campaign.world(num), name=meta["name"], mechanic=meta["mechanic"],
                                          published=pack.levels, generator=str(meta.get("generator", ""))))
    worlds.sort(key=lambda w: w.number)
    prac_path = packs_dir / PRACTICE_PACK
    if practice is None and (prac_path.exists() or prac_path.is_symlink()):
        practice = read_pack(prac_path)
    if practice is not None:
        if practice.meta.get("pack") != "practice":
            raise SiteError(f"{practice.path}: pack: must be \"practice\", got {practice.meta.get('pack')!r}")
        _check_practice(practice)
    reports = tuple(read_report(p) for p in report_files(packs_dir))
    strat_path = packs_dir / "strategies.json"
    strategies = (read_strategies(strat_path, CLASSES, FILTERS)
                  if strat_path.exists() or strat_path.is_symlink() else None)
    return SiteInput(worlds=tuple(worlds), dailies=dailies, reports=reports, strategies=strategies,
                     verify=verify or VerifyReport(ok=True, lines=[], packs=[], gates={}),
                     campaign=campaign, daily_generator=daily_generator,
                     practice=practice.levels if practice else (),
                     practice_generator=str(practice.meta.get("generator", "")) if practice else "")
