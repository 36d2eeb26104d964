"""`python -m lumina.verify [PACKS...]`: re-read, re-solve and re-judge every level from disk.

Nothing the generator knew is trusted, and the generator is not imported: each pack
is re-read and validated, every level is re-solved from scratch (the stored `optimal`
is only compared against), its stored solution is replayed move by move, its measures
(`lumina.engine.measure`, and the felt figures of `lumina.playtest.felt`) are taken
again and compared with the stored analysis (a measure not recorded is a failure,
whatever the pack's generator), and the one judge (`lumina.judge`) rules on it from
the fresh measures: `level_problems` per level (binding and margin, ice at least 2,
dead and optional twists, the hardest start, the chain floor, plans with at most 16
from par 20, dead blocks), the label, `world_problems` per world (tutorial rules, the
curve, labels, twist margin targets, felt effort ordering), `repeat_problems` across
every pack given (near duplicates, decoys aside, and re-skins; the practice pack
against the others) and the campaign's shape. The unlock gates are checked against
a player who earns two stars everywhere. Every failure's sentence is the judge's.

Prints per pack a count line (solvable, confirmed, twist levels that bind, par range,
twist margin min and median, starts at their board's deepest, chain/par range)
and a `moves→levels` histogram, names every failing level and why; exits 1 on any
failure and 2 on unreadable input. With no arguments it checks the packs folder
(`packs/world-*.json`, `packs/dailies.json`, and `packs/practice.json` when present).
A folder given (or the default) is what publish reads, so it must also be publishable
(`pack_set_problems`, the one rule publish refuses by: the daily pool's size against
the campaign's, a world per pack, ids in place, no world twice; its reports and
strategy table readable): whatever publish refuses, verify of that folder fails first.
The worlds' names, sizes, tutorials' mechanics, gates and peaks are the campaign's
(`lumina/campaign.toml`, or `--campaign FILE`).
"""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from lumina import judge, playable, schema
from lumina.cli import ArgumentParser, int_in, run
from lumina.engine import Board, Measures, Outcome, measure, solve
from lumina.executor import MAX_WORKERS, default_workers, run_ordered
from lumina.model import FELT_MEASURES, Level, LevelError
from lumina.packfile import (DAILIES_PACK, PRACTICE_PACK, Pack, pack_files, read_pack,
                             read_report, read_strategies, report_files)
from lumina.worlds import CAMPAIGN, Campaign, load

DEFAULT_PACKS = Path("packs")


@dataclass
class PackResult:
    pack: Pack
    solvable: int = 0
    confirmed: int = 0
    twist: int = 0              # levels with sand, ice or rime
    binding: int = 0            # of those, levels whose par exceeds their crystal par
    measured: int = 0           # levels measured afresh
    deepest: int = 0            # of those, levels that start at their board's deepest
    margins: list[int] = field(default_factory=list)     # twist margins, tutorials excluded
    chain_shares: list[float] = field(default_factory=list)   # chain / par (par >= 1)
    histogram: Counter = field(default_factory=Counter)
    failures: list[tuple[str, str]] = field(default_factory=list)

    def fail(self, level_id: str, reason: str) -> None:
        self.failures.append((level_id, reason))

    def absorb(self, part: "PackResult") -> None:
        """Add one level's result (`_check_levels`) to this pack's."""
        for name in ("solvable", "confirmed", "twist", "binding", "measured", "deepest"):
            setattr(self, name, getattr(self, name) + getattr(part, name))
        self.margins += part.margins
        self.chain_shares += part.chain_shares
        self.histogram.update(part.histogram)
        self.failures += part.failures

    @property
    def par_range(self) -> tuple[int, int] | None:
        return (min(self.histogram), max(self.histogram)) if self.histogram else None

    def to_json(self) -> dict:
        lo_hi = self.par_range
        return {"pack": self.pack.meta.get("pack", self.pack.path.stem), "name": self.pack.name,
                "world": self.pack.meta.get("world"), "levels": len(self.pack.levels),
                "solvable": self.solvable, "confirmed": self.confirmed,
                "twist_levels": self.twist, "binding": self.binding,
                "deepest_starts": self.deepest,
                "twist_margin": _margin_json(self.margins),
                "chain_share": ([min(self.chain_shares), max(self.chain_shares)]
                                if self.chain_shares else None),
                "par": list(lo_hi) if lo_hi else None,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
                "failures": [{"level": l, "reason": r} for l, r in self.failures]}


def _margin_json(margins: Sequence[int]) -> dict | None:
    if not margins:
        return None
    return {"min": min(margins), "median": statistics.median(margins)}


@dataclass
class VerifyReport:
    ok: bool
    lines: list[str]
    packs: list[dict]
    gates: dict


def replay(level: Level, moves) -> str | None:
    """None when `moves` is legal and wins exactly at its last move, else why not."""
    board = Board(level)
    s = board.start
    if board.is_solved(s) and moves:
        return "already solved at the start"
    for n, mv in enumerate(moves, 1):
        try:
            s = board.apply(s, tuple(mv))
        except ValueError:
            return f"stored move {n} {list(mv)} is illegal"
        if board.is_solved(s) and n < len(moves):
            return f"stored solution wins early, at move {n} of {len(moves)}"
    if not board.is_solved(s):
        return "stored solution does not reach the win"
    return None


def _analysis_diff(stored, fresh, felt: bool = True) -> list[str]:
    """'analysis.FIELD stored X, measured Y' for every field that differs, and
    'analysis.FIELD missing' for every measure the pack does not record; with `felt`
    False, the felt player's figures may be left out whole (`ships`)."""
    out = []
    diffs = schema.diff(stored, fresh)              # every field the schema declares
    if not felt and all(getattr(stored, k, None) is None for k in FELT_MEASURES):
        diffs = [d for d in diffs if d[0] not in FELT_MEASURES]
    for key, a, b in diffs:
        if a is None:
            out.append(f"analysis.{key} missing (measured {b!r})")
        else:
            out.append(f"analysis.{key} stored {a!r}, measured {b!r}")
    return out


def ships(pack: Pack) -> bool:
    """A pack the product ships and orders by felt effort (a world, a daily pool, the
    practice pack), whose levels must record the felt player's figures. Any other pack
    (the editor's export: the felt player is Python only) may leave them out whole."""
    daily = str(pack.meta.get("pack", "")).startswith(DAILIES_PACK.removesuffix(".json"))
    return pack.meta.get("world") is not None or daily or is_practice(pack)


def check_level(lv: Level, res: PackResult, felt: bool = True) -> Measures | None:
    """The rules of a playable level (`lumina.playable`), then re-solve, replay,
    re-measure and judge one level; its fresh measures (None when it is not
    solvable). `felt`: the level must record the felt figures (`ships`)."""
    for field_, why in playable.problems(lv):
        res.fail(lv.id, f"{field_}: {why}")
    sol = solve(lv)
    if sol.outcome is not Outcome.SOLVED:
        res.fail(lv.id, f"the solver finds it {sol.outcome.value}")
        return None
    res.solvable += 1
    res.histogram[sol.optimal] += 1
    if lv.optimal is not None and lv.optimal != sol.optimal:
        res.fail(lv.id, f"stored optimal {lv.optimal} but the solver proves {sol.optimal}")
    elif lv.optimal is not None:
        res.confirmed += 1
    if lv.solution is not None:
        why = replay(lv, lv.solution)
        if why:
            res.fail(lv.id, why)
        elif len(lv.solution) != sol.optimal:
            res.fail(lv.id, f"stored solution has {len(lv.solution)} moves, optimal is {sol.optimal}")
    m = measure(lv)
    if m.outcome is not Outcome.SOLVED or m.optimal != sol.optimal:
        res.fail(lv.id, f"measure finds {m.outcome.value} {m.optimal}, the solver {sol.optimal}")
        return None
    res.measured += 1
    res.deepest += m.deepest == m.optimal
    if m.optimal and m.chain is not None:
        res.chain_shares.append(m.chain / m.optimal)
    if judge.has_twist(lv):
        res.twist += 1
        res.binding += judge.binds(lv, m.crystal_optimal, m.optimal)
        margin = judge.twist_margin(lv, m.crystal_optimal, m.optimal)
        if margin is not None and not lv.tutorial:
            res.margins.append(margin)
    if lv.analysis is None:
        res.fail(lv.id, "no stored analysis")
    else:
        diffs = _analysis_diff(lv.analysis, judge.analysis(lv, m), felt)
        for diff in diffs:
            res.fail(lv.id, diff)
        if not any(d.startswith("analysis.mechanics ") for d in diffs):
            for p in judge.label_problems(lv):          # (said once: as a field or here)
                res.fail(lv.id, p.message)
    if not lv.tutorial:
        for p in judge.level_problems(lv, m):
            res.fail(lv.id, p.message)
    return m


def check_world(res: PackResult, number: int, measured: dict[str, Measures],
                campaign: Campaign = CAMPAIGN) -> None:
    """A world pack's rules, as the campaign has it (`judge.world_problems`): its name
    and number of levels, the tutorial first, teaching its mechanic and no harder than
    the levels after it, the curve, every level carrying the world's mechanic, its
    twist margin targets and its felt effort ordering."""
    where = res.pack.path.name
    try:
        w = campaign.world(number)
    except KeyError:
        res.fail(where, f"world {number} is not one of the campaign's {len(campaign.worlds)} "
                 "worlds")
        return
    for p in judge.world_problems(w, res.pack.levels, measures=measured,
                                  name=res.pack.meta.get("name")):
        res.fail(p.level or where, p.message)


def _pars(pack: Pack) -> list[int]:
    """The stored pars of a pack's levels in order, tutorials left out (a wrong stored
    par is its own failure; the curve is judged on what players are shown)."""
    return [lv.optimal for lv in pack.levels if not lv.tutorial and lv.optimal is not None]


def near_duplicates(results: Sequence[PackResult],
                    measured: dict[int, dict[str, Measures]] | None = None) -> None:
    """Near duplicates and re-skins over every level of every pack given, in the order
    given (`judge.repeat_problems`): decoys are the non-key blocks that move in no
    optimal solution as measured afresh (`measured` maps each result's index to its
    fresh measures by level id; a level not measured counts every block as live)."""
    measured = measured or {}
    owner: dict[str, PackResult] = {}
    dead: dict[int, tuple[int, ...]] = {}
    levels, practice = [], []
    for n, res in enumerate(results):
        for lv in res.pack.levels:
            m = measured.get(n, {}).get(lv.id)
            owner[lv.id] = res              # a repeat is the later level's failure
            dead[id(lv)] = () if m is None else tuple(m.dead_blocks)
            (practice if is_practice(res.pack) else levels).append(lv)
    for p in judge.repeat_problems(levels, dead=lambda lv: dead[id(lv)], against=practice):
        owner[p.level].fail(p.level, p.message)


def is_practice(pack: Pack) -> bool:
    """The practice pack (`packs/practice.json`): judged level by level, and against
    the campaign and the dailies, never against its own levels."""
    return pack.meta.get("pack") == PRACTICE_PACK.removesuffix(".json")


def gate_check(results: Sequence[PackResult], gates_of: dict[int, int] = CAMPAIGN.gates
               ) -> tuple[dict, list[str]]:
    """Is every gate (world number -> stars) reachable earning two stars on every level
    of earlier worlds?"""
    per_world = {r.pack.meta.get("world"): len(r.pack.levels) for r in results
                 if isinstance(r.pack.meta.get("world"), int)}
    gates, problems, total = {}, [], 0
    for n in sorted(gates_of):
        if n not in per_world or any(m not in per_world for m in gates_of if m < n):
            continue            # judged only when every earlier world is being verified
        need = gates_of[n]
        ok = total >= need
        gates[str(n)] = {"needs": need, "two_star_total_before": total, "reachable": ok}
        if not ok:
            problems.append(f"world {n} gate needs {need} stars but two stars on every earlier "
                            f"level give only {total}")
        total += 2 * per_world[n]
    return gates, problems


def _summary(res: PackResult) -> str:
    pack, n = res.pack, len(res.pack.levels)
    number = pack.meta.get("world")
    title = f"World {number} ({pack.name})" if isinstance(number, int) else pack.name
    lo_hi = res.par_range
    par = f"par {lo_hi[0]}-{lo_hi[1]}" if lo_hi else "par -"
    parts = [f"{res.solvable}/{n} solvable", f"{res.confirmed}/{n} optimal counts confirmed",
             f"{res.binding}/{res.twist} twist levels bind", par]
    if res.margins:
        parts.append(f"twist margin min {min(res.margins)} median "
                     f"{judge.num_text(statistics.median(res.margins))}")
    parts.append(f"{res.deepest}/{n} start at their board's deepest")
    if res.chain_shares:
        parts.append(f"chain/par {min(res.chain_shares):.2f}-{max(res.chain_shares):.2f}")
    return f"{title}: " + " · ".join(parts)


def pack_set_problems(packs: Sequence[Pack], campaign: Campaign = CAMPAIGN,
                      folders: Sequence[Path] = (), *, levels: bool = True) -> list[str]:
    """THE rule "this pack set is publishable", one line per problem ("FILE: FIELD:
    why"); `publish` refuses exactly when it is not empty, and `verify` of a folder
    fails on it first. The daily pool (dailies.json) holds the campaign's pool size,
    and a campaign without a daily pool takes none; every other pack is a world of
    the campaign, with a name, a mechanic and at least one level, but the practice pack
    (practice.json, pack "practice"); ids run w{N}-01, w{N}-02, ... (d-001, ... for the
    dailies, p-00001, ... for practice) in order; every level is playable; there
    is at least one world and no world twice. The reports and the strategy table of
    `folders` are read with their strict schemas (a bad one is a PackError, exit 2,
    for verify and publish alike). `levels=False` leaves out each level's playability:
    publish checks the rest before re-solving anything, and a level that is not
    playable is then the verifier's level failure (exit 1), as it always was."""
    problems: list[str] = []
    check_levels = levels

    def ids(path: Path, levels: Sequence[Level], ident) -> None:
        for i, lv in enumerate(levels):
            try:
                if check_levels:
                    playable.check(lv)
            except LevelError as e:
                problems.append(f"{path}: {e}")
                return
            if lv.id != ident(i):
                problems.append(f"{path}: level {lv.id}: id: expected {ident(i)} at this position")
                return

    numbers: list[int] = []
    for pack in packs:
        path, meta = pack.path, pack.meta
        if path.name == DAILIES_PACK:
            ids(path, pack.levels, lambda i: f"d-{i + 1:03d}")
            if not campaign.daily_pool:
                problems.append(f"{path}: levels: the campaign {campaign.source} has no daily pool, "
                                "so it takes no dailies.json")
            elif len(pack.levels) != campaign.daily_pool:
                problems.append(f"{path}: levels: the daily pool is {campaign.daily_pool} levels, "
                                f"found {len(pack.levels)}")
            continue
        if path.name == PRACTICE_PACK:      # what publish's site shows (render.inputs)
            if meta.get("pack") != "practice":
                problems.append(f"{path}: pack: must be \"practice\", got {meta.get('pack')!r}")
            ids(path, pack.levels, lambda i: f"p-{i + 1:05d}")
            continue
        num = meta.get("world")
        if isinstance(num, bool) or not isinstance(num, int) or num not in campaign.gates:
            problems.append(f"{path}: world: must be 1..{len(campaign.worlds)}, got {num!r}")
            continue
        bad = [f for f in ("name", "mechanic") if not isinstance(meta.get(f), str)]
        for f in bad:
            problems.append(f"{path}: {f}: missing or not a string")
        if not pack.levels:
            problems.append(f"{path}: levels: a world needs at least one level")
        ids(path, pack.levels, lambda i, n=num: f"w{n}-{i + 1:02d}")
        numbers.append(num)
    where = ", ".join(str(f) for f in folders) or "the packs given"
    if not numbers and not any(p.startswith(f"{pk.path}: world:") for p in problems for pk in packs):
        problems.append(f"{where}: no world-*.json packs")
    if len(set(numbers)) != len(numbers):
        problems.append(f"{where}: world: two packs claim the same world number")
    for folder in folders:
        for p in report_files(folder):
            read_report(p)
        strat = Path(folder) / "strategies.json"
        if strat.exists() or strat.is_symlink():
            read_strategies(strat, judge.CLASSES, judge.FILTERS)
    return problems


PARALLEL_FROM = 200     # levels: fewer are checked in this process (a pool costs its start)
CHUNK = 50              # levels per pool task


def _check_levels(levels: Sequence[tuple[Level, bool]]) -> list[tuple[PackResult, Measures | None]]:
    """`check_level` on each (level, felt), each with a result of its own (a pool task)."""
    out = []
    for lv, felt in levels:
        part = PackResult(pack=None)
        out.append((part, check_level(lv, part, felt)))
    return out


def _check_all(packs: Sequence[Pack], workers: int) -> list[tuple[PackResult, Measures | None]]:
    """Every level of `packs` checked, in pack and level order: in this process, or in
    chunks on `workers` local processes (each level's check is a pure function of it, so
    the report is the same whatever the workers)."""
    levels = [(lv, ships(pack)) for pack in packs for lv in pack.levels]
    if workers <= 1 or len(levels) < PARALLEL_FROM:
        return _check_levels(levels)
    chunks = [levels[i:i + CHUNK] for i in range(0, len(levels), CHUNK)]
    done = run_ordered(_check_levels, chunks, workers=workers, label="verify")
    return [x for chunk in done for x in chunk]


def verify_packs(packs: Sequence[Pack], campaign: Campaign = CAMPAIGN,
                 folders: Sequence[Path] | None = None, workers: int = 1) -> VerifyReport:
    """Verify every level of `packs` and the campaign's shape; with `folders` (the
    packs are a folder's, as publish reads them), the set must also be publishable
    (`pack_set_problems`). `workers` local processes re-solve the levels (one: this
    process); the report is the same whatever their number."""
    results = []
    worlds_pars: dict[int, list[int]] = {}
    fresh: dict[int, dict[str, Measures]] = {}
    checked = iter(_check_all(packs, workers))
    for pack in packs:
        res = PackResult(pack=pack)
        measured = {}
        for lv in pack.levels:
            part, m = next(checked)
            res.absorb(part)
            if m is not None:
                measured[lv.id] = m
        number = pack.meta.get("world")
        if isinstance(number, int) and not isinstance(number, bool):
            check_world(res, number, measured, campaign)
            worlds_pars[number] = _pars(pack)
        else:                   # a tutorial skips the filters: only a world may open with one
            for lv in pack.levels:
                if lv.tutorial:
                    res.fail(lv.id, "only level 1 of a world is a tutorial")
        fresh[len(results)] = measured
        results.append(res)
    near_duplicates(results, fresh)
    lines = []
    for res in results:
        lines.append(_summary(res))
        lines.append("  moves→levels  " + " ".join(f"{k}:{v}" for k, v in sorted(res.histogram.items())))
        lines.extend(f"  FAIL {lid}: {why}" for lid, why in res.failures)
    shape = judge.campaign_problems(worlds_pars, first_peak=campaign.first_peak,
                                    final_world=campaign.worlds[-1].number,
                                    final_peak=campaign.final_peak)
    lines.extend(f"  FAIL campaign: {p.message}" for p in shape)
    gates, problems = gate_check(results, campaign.gates)
    if gates:
        lines.append("Gates (two stars everywhere): " + " ".join(
            f"W{n}:{g['two_star_total_before']}/{g['needs']}" for n, g in gates.items()))
    lines.extend(f"  FAIL gate: {p}" for p in problems)
    unpublishable = [] if folders is None else pack_set_problems(packs, campaign, folders)
    lines.extend(f"  FAIL publishable: {p}" for p in unpublishable)
    total = sum(len(r.pack.levels) for r in results)
    bad = sum(len(r.failures) for r in results) + len(shape) + len(problems) + len(unpublishable)
    lines.append(f"{'OK' if not bad else 'FAILED'}: {total} levels re-solved from disk, "
                 f"{bad} failure(s)")
    return VerifyReport(ok=not bad, lines=lines, packs=[r.to_json() for r in results], gates=gates)


def default_paths(root: Path = DEFAULT_PACKS) -> list[Path]:
    """The packs of a packs folder (`with_practice`); PackError when none."""
    return with_practice([root])


def with_practice(paths: Sequence[str | Path]) -> list[Path]:
    """`pack_files(paths)`, and each folder's practice pack (PRACTICE_PACK) when it has one."""
    out = pack_files(paths)
    for p in map(Path, paths):
        if p.is_dir() and (p / PRACTICE_PACK).is_file():
            out.append(p / PRACTICE_PACK)
    return out


def verify_paths(paths: Sequence[str | Path], campaign: Campaign = CAMPAIGN,
                 folders: Sequence[Path] | None = None, workers: int = 1) -> VerifyReport:
    """Read (PackError on unreadable input) and verify packs against `campaign`
    (`folders`: they are those folders' packs, which must be publishable)."""
    return verify_packs([read_pack(p) for p in paths], campaign, folders, workers)


def main(argv: Sequence[str] | None = None, *, check=verify_paths) -> int:
    """The command; `check` (default `verify_paths`) is the seam a test passes to share
    one verification of the committed packs between this command and publish."""
    ap = ArgumentParser(prog="python -m lumina.verify", description=__doc__.split("\n")[0])
    ap.add_argument("packs", nargs="*", type=Path,
                    help=f"pack files or folders of packs (default: {DEFAULT_PACKS}/)")
    ap.add_argument("--campaign", type=Path, metavar="FILE",
                    help="the campaign file (default: lumina/campaign.toml)")
    ap.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=default_workers(),
                    help="local processes that re-solve the levels (default: this machine's "
                         "cores, at most 8); the report is the same whatever the number")
    args = ap.parse_args(argv)
    campaign = CAMPAIGN if args.campaign is None else load(args.campaign)
    given = args.packs or [DEFAULT_PACKS]
    folders = [p for p in given if p.is_dir()]     # a folder is what publish reads: publishable?
    report = check(with_practice(given), campaign, folders or None, args.workers)
    print("\n".join(report.lines))
    return 0 if report.ok else 1


if __name__ == "__main__":
    run(main)
