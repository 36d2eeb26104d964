"""`python -m lumina.compose`: the worlds, the daily pool and the practice pack, picked
from the board pool in one deterministic global selection.

    python -m lumina.compose                    # pool/ -> packs/ (campaign: lumina/campaign.toml)
    options: --campaign FILE, --pool DIR, --out DIR, --force (write even with problems)

Every slot of every pack (a world bucket's target par, a daily bucket's, then the
practice pack) takes a board of the pool (lumina.gen.pool): the same grid, twists and
beam as its bucket, the par nearest its target within the band, the twist margin its
bucket and world ask for. Slots are filled scarcest first (fewest boards to choose
from), and each board taken is indexed at once, so near duplicates and re-skins are
judged across every pack at once (`judge.Seen`). A world is then ordered by par, ties
by felt effort, so par never drops and effort rises with it; the judge's world and
campaign rules are checked before anything is written. Composing reads no search
result that is not in the pool and runs no search: the same pool and campaign give the
same bytes on any machine. docs/GENERATION.md.
"""
from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from lumina import judge
from lumina.cli import ArgumentParser, run
from lumina.gen import pool as store
from lumina.gen.buckets import proven
from lumina.gen.mining import GENERATOR
from lumina.model import Level
from lumina.packfile import write_pack_and_report
from lumina.sitedata import PRACTICE_MECHANICS, PRACTICE_TIERS, practice_tier
from lumina.safeio import check_output, check_writable_folder
from lumina.worlds import CAMPAIGN, Bucket, Campaign, load

DEFAULT_POOL = Path("pool")
MAX_TOLERANCE = 3           # a slot takes a par at most this far from its target
REPICKS = 3                 # a world slot is re-picked for felt effort at most this often


def twist_text(twists: dict[str, int]) -> str:
    return ",".join(f"{k}{v}" for k, v in sorted(twists.items())) or "-"


@dataclass
class Slot:
    pack: str                   # world-N or dailies
    bucket: Bucket
    index: int                  # the slot's place in its bucket
    target: int
    margin: int                 # the least twist margin the slot takes
    upward: bool                # only a harder par may stand in for the target
    min_effort: float = 0.0     # a world's level is no easier than its tutorial: felt effort
    min_par: int = 0            # ... and par
    got: dict | None = None
    why: str = ""

    @property
    def owner(self) -> str:
        """The slot's name in the index of taken boards: pack.bucket.index."""
        return f"{self.pack}.{self.bucket.name}.{self.index + 1}"

    def got_text(self) -> str:
        """What the slot took: its par, twist margin and felt effort."""
        g = self.got
        return (f"par {g['par']}" + (f" margin {g['margin']}" if self.bucket.twists else "")
                + (f" effort {g['felt_effort']:g}" if g["felt_effort"] is not None else ""))


@dataclass
class Composition:
    packs: dict[str, tuple[dict, list[Level], dict]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def _level(row: dict, lid: str) -> Level:
    return Level.from_json({"id": lid, **row["level"]})


class Selector:
    """The pool's boards, indexed by (size, twists, beam) and par, and the one index of
    what every pack has taken (`judge.Seen`)."""

    def __init__(self, rows: Sequence[dict], tutorials: Sequence[Level]):
        self.by_kind: dict[tuple, dict[int, list[dict]]] = {}
        for r in rows:
            key = (r["size"], r["twists"], bool(r["beam"]))
            self.by_kind.setdefault(key, {}).setdefault(r["par"], []).append(r)
        for pars in self.by_kind.values():
            for lst in pars.values():
                lst.sort(key=lambda r: r["desc"])
        self.seen = judge.Seen(tutorials)
        self.used: set[str] = set()
        self.rejected: dict[str, int] = {}

    def boards(self, bucket: Bucket) -> dict[int, list[dict]]:
        return self.by_kind.get((f"{bucket.width}x{bucket.height}", twist_text(bucket.twists),
                                 bucket.beam), {})

    def count(self, slot: Slot) -> int:
        pars = self.boards(slot.bucket)
        return sum(1 for p in self._pars(slot) for r in pars.get(p, ())
                   if r["margin"] >= slot.margin)

    def _pars(self, slot: Slot) -> list[int]:
        lo, hi = slot.bucket.band
        out = [slot.target]
        for t in range(1, MAX_TOLERANCE + 1):
            out += [slot.target + t] if slot.upward else [slot.target + t, slot.target - t]
        return [p for p in out if lo <= p <= hi and p >= slot.min_par]

    def take(self, slot: Slot, owner: str, prefer,
             effort: tuple[float, float] = (0.0, float("inf"))) -> dict | None:
        """The best board for `slot` by `prefer` that no pack has taken and that repeats
        none taken; with `effort`, only a felt effort in [low, high]."""
        pars = self.boards(slot.bucket)
        low = max(slot.min_effort, effort[0])
        for p in self._pars(slot):
            cands = [r for r in pars.get(p, ()) if r["desc"] not in self.used
                     and r["margin"] >= slot.margin
                     and low <= (r["felt_effort"] or 0.0) <= effort[1]]
            cands.sort(key=prefer)
            for r in cands:
                if self.offer(r, owner):
                    return r
        return None

    def offer(self, row: dict, owner: str) -> bool:
        """Take `row` unless it repeats a board already taken (duplicate, near
        duplicate, re-skin)."""
        lv = _level(row, owner)
        hit = self.seen.find(lv)
        if hit is not None:
            self.rejected[hit.reason] = self.rejected.get(hit.reason, 0) + 1
            return False
        self.seen.add(lv, owner)
        self.used.add(row["desc"])
        return True


def _effort_targets(rows: Sequence[dict]) -> dict[tuple, dict[int, float]]:
    """Per (size, twists, beam): the median felt effort of the pool's boards at each
    par, made non-decreasing in par (what a slot at that par aims its effort at)."""
    out: dict[tuple, dict[int, float]] = {}
    groups: dict[tuple, dict[int, list[float]]] = {}
    for r in rows:
        if r["felt_effort"] is None:
            continue
        key = (r["size"], r["twists"], bool(r["beam"]))
        groups.setdefault(key, {}).setdefault(r["par"], []).append(r["felt_effort"])
    for key, pars in groups.items():
        best = 0.0
        med = {}
        for p in sorted(pars):
            best = max(best, statistics.median(pars[p]))
            med[p] = best
        out[key] = med
    return out


def _tutorial_bar(tutorial: Level) -> tuple[int, float]:
    """The tutorial's par and felt effort: no level of its world may be easier
    (the judge's tutorial rule compares it with the levels after it)."""
    from lumina.engine import solve
    from lumina.gen.mining import play_felt
    effort = play_felt(tutorial).effort
    return solve(tutorial).optimal, float(effort or 0.0)


def _in_order(slots: Sequence[Slot]) -> list[Slot]:
    """A world's filled slots in level order: par, then felt effort (as its pack)."""
    return sorted((s for s in slots if s.got is not None),
                  key=lambda s: (s.got["par"], s.got["felt_effort"] or 0.0, s.got["desc"]))


def _smooth_effort(slots: Sequence[Slot], sel: Selector, prefer_for) -> None:
    """Felt difficulty (RULES.md): where a world's level breaks the judge's effort rule
    (`judge.effort_problems`: more than EFFORT_SPIKE times the median of the levels
    after it, or under EFFORT_DROP times the median of those before), its slot takes
    instead the best free board whose effort lies inside both bounds. The board given up
    stays taken (nothing else may repeat it). Deterministic: the first problem in level
    order is mended first; each slot is re-picked at most REPICKS times."""
    tries: dict[int, int] = {}
    W = judge.EFFORT_WINDOW
    while True:
        order = _in_order(slots)
        efforts = [s.got["felt_effort"] or 0.0 for s in order]
        bad = [p for p in judge.effort_problems([str(i) for i in range(len(order))], efforts, "")
               if p.level is not None and tries.get(id(order[int(p.level)]), 0) < REPICKS]
        if not bad:
            return
        i = int(bad[0].level)
        s = order[i]
        tries[id(s)] = tries.get(id(s), 0) + 1
        before, after = efforts[max(0, i - W):i], efforts[i + 1:i + 1 + W]
        low = judge.EFFORT_DROP * statistics.median(before) if before else 0.0
        high = judge.EFFORT_SPIKE * statistics.median(after) if after else float("inf")
        got = sel.take(s, s.owner, prefer_for(s), (low, high))
        if got is not None:
            s.got = got
            s.why = f"{s.got_text()} (re-picked: felt effort between {low:g} and {high:g})"


def world_slots(campaign: Campaign) -> list[Slot]:
    slots = []
    for w in campaign.worlds:
        tut_par, tut_effort = _tutorial_bar(w.tutorial)
        tops = sorted(((t, b.name, j) for b in w.buckets for j, t in enumerate(b.targets())),
                      reverse=True)[:judge.LAST_MARGINS]
        last = {(name, j) for _t, name, j in tops}
        floor = max((judge.MARGIN_FLOOR.get(k, 0) for b in w.buckets for k in b.twists), default=0)
        for b in w.buckets:
            for j, t in enumerate(b.targets()):
                need = max(b.margin, floor if b.twists else 0)
                if (b.name, j) in last and b.twists:
                    need = max(need, w.margin_last)
                slots.append(Slot(pack=w.pack, bucket=b, index=j, target=t, margin=need,
                                  upward=b.upward or b.is_peak(t), min_par=tut_par,
                                  min_effort=tut_effort))
    return slots


def daily_slots(campaign: Campaign) -> list[Slot]:
    return [Slot(pack="dailies", bucket=b, index=j, target=t,
                 margin=max((judge.MARGIN_FLOOR.get(k, 0) for k in b.twists), default=0),
                 upward=b.upward)
            for b in campaign.daily_buckets for j, t in enumerate(b.targets())]


def compose(campaign: Campaign, rows: Sequence[dict]) -> Composition:
    """The one global selection (pure: the same rows and campaign, the same packs)."""
    out = Composition()
    tutorials = [w.tutorial for w in campaign.worlds]
    sel = Selector(rows, tutorials)
    targets = _effort_targets(rows)

    def prefer_for(slot: Slot):
        key = (f"{slot.bucket.width}x{slot.bucket.height}", twist_text(slot.bucket.twists),
               slot.bucket.beam)
        eff = targets.get(key, {})

        def prefer(r: dict):
            e = r["felt_effort"]
            off = abs(e - eff[r["par"]]) if e is not None and r["par"] in eff else 0.0
            return (abs(r["par"] - slot.target), round(off, 4), -min(r["margin"], 6),
                    r["plans"], r["desc"])
        return prefer

    slots = world_slots(campaign) + daily_slots(campaign)
    order = sorted(range(len(slots)), key=lambda i: (sel.count(slots[i]), i))
    for i in order:
        s = slots[i]
        s.got = sel.take(s, s.owner, prefer_for(s))
        if s.got is None:
            s.why = (f"short: no board of {s.bucket.width}x{s.bucket.height} "
                     f"{twist_text(s.bucket.twists)}{' beam' if s.bucket.beam else ''} at par "
                     f"{s.target} (+-{MAX_TOLERANCE}{', upward' if s.upward else ''}) with margin "
                     f">= {s.margin} left in the pool")
        else:
            s.why = f"{s.got_text()} from {sel.count(s)} boards"
    by_pack: dict[str, list[Slot]] = {}
    for s in slots:
        by_pack.setdefault(s.pack, []).append(s)
    for w in campaign.worlds:
        _smooth_effort(by_pack.get(w.pack, []), sel, prefer_for)
    # worlds
    worlds_pars = {}
    for w in campaign.worlds:
        got = [s for s in by_pack.get(w.pack, ()) if s.got is not None]
        levels = sorted((_level(s.got, "x") for s in got),
                        key=lambda lv: (lv.optimal, lv.analysis.effort or 0.0, lv.desc()))
        levels = [proven(w.tutorial).replace(id=f"w{w.number}-01")] + [
            lv.replace(id=f"w{w.number}-{i:02d}") for i, lv in enumerate(levels, 2)]
        meta = {"pack": w.pack, "name": w.name, "world": w.number, "mechanic": w.mechanic,
                "seed": w.seed, "generator": GENERATOR}
        out.packs[w.pack] = (meta, levels, _report(w.pack, w.seed, by_pack.get(w.pack, ()), sel))
        worlds_pars[w.number] = [lv.optimal for lv in levels[1:]]
        out.lines.append(f"World {w.number} ({w.name}): {len(levels) - 1} of "
                         f"{sum(b.levels for b in w.buckets)} levels")
        out.lines += [f"  {s.bucket.name} #{s.index + 1} target {s.target}: {s.why}"
                      for s in by_pack.get(w.pack, ())]
        out.problems += [f"world {w.number}: {p}" for p in judge.world_problems(w, levels)]
    out.problems += [s.why for s in slots if s.got is None]
    if worlds_pars:
        out.problems += [str(p) for p in judge.campaign_problems(
            worlds_pars, first_peak=campaign.first_peak,
            final_world=campaign.worlds[-1].number, final_peak=campaign.final_peak)]
    # dailies: round-robin across buckets, so the mechanic changes from day to day
    if campaign.daily_pool:
        queues = []
        for b in campaign.daily_buckets:
            got = [s.got for s in by_pack.get("dailies", ()) if s.bucket.name == b.name and s.got]
            queues.append(sorted(got, key=lambda r: (r["par"], r["desc"])))
        rows_d = []
        while any(queues):
            for q in queues:
                if q:
                    rows_d.append(q.pop(0))
        levels = [_level(r, f"d-{i:03d}") for i, r in enumerate(rows_d, 1)]
        meta = {"pack": "dailies", "name": "Daily pool", "world": None, "mechanic": "mixed",
                "seed": campaign.daily_seed, "generator": GENERATOR}
        out.packs["dailies"] = (meta, levels, _report("dailies", campaign.daily_seed,
                                                      by_pack.get("dailies", ()), sel))
        out.lines.append(f"Daily pool: {len(levels)} of {campaign.daily_pool} levels")
        short = [s for s in by_pack.get("dailies", ()) if s.got is None]
        out.lines += [f"  {s.bucket.name} #{s.index + 1} target {s.target}: {s.why}" for s in short]
    if campaign.practice:
        out.packs["practice"] = _practice(campaign, rows, sel, out)
    return out


def _practice(campaign: Campaign, rows: Sequence[dict], sel: Selector, out: Composition
              ) -> tuple[dict, list[Level], dict]:
    """The practice pack: boards of one mechanic each that no pack took, none repeating
    a taken board, spread round-robin over mechanics and tiers (par bands), easiest
    first within each, until `campaign.practice` levels."""
    queues: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        if r["mechanic"] in PRACTICE_MECHANICS and r["desc"] not in sel.used:
            queues.setdefault((r["mechanic"], practice_tier(r["par"])), []).append(r)
    for q in queues.values():
        q.sort(key=lambda r: (r["par"], r["plans"], r["desc"]))
    keys = [(m, t) for m in PRACTICE_MECHANICS for t, _lo, _hi in PRACTICE_TIERS if (m, t) in queues]
    pos = {k: 0 for k in keys}
    families: set[str] = set()
    nears = judge.NearIndex()

    def offer(r: dict, owner: str) -> bool:
        """A practice level repeats no world or daily level (duplicate, near duplicate,
        re-skin: `Seen.find`) and is not the same puzzle as, or one block from, an
        earlier practice level (whole boards, up to symmetry and translation)."""
        if r["family"] in families:
            return False
        lv = _level(r, owner)
        if sel.seen.find(lv) is not None or nears.find(lv) is not None:
            return False
        families.add(r["family"])
        nears.add(lv, owner)
        sel.used.add(r["desc"])
        return True

    taken: list[dict] = []
    counts: dict[tuple[str, str], int] = {k: 0 for k in keys}
    live = list(keys)
    while live and len(taken) < campaign.practice:
        nxt = []
        for k in live:
            if len(taken) >= campaign.practice:
                break
            q = queues[k]
            while pos[k] < len(q):
                r = q[pos[k]]
                pos[k] += 1
                if offer(r, f"practice.{len(taken) + 1}"):
                    taken.append(r)
                    counts[k] += 1
                    break
            if pos[k] < len(q):
                nxt.append(k)
        live = nxt
    taken.sort(key=lambda r: (PRACTICE_MECHANICS.index(r["mechanic"]), r["par"], r["desc"]))
    levels = [_level(r, f"p-{i:05d}") for i, r in enumerate(taken, 1)]
    meta = {"pack": "practice", "name": "Practice", "world": None, "mechanic": "mixed",
            "seed": campaign.daily_seed, "generator": GENERATOR}
    buckets = [{"bucket": f"{m}-{t}", "size": "any", "band": [lo, 999 if hi is None else hi],
                "candidates": len(queues[(m, t)]), "accepted": counts[(m, t)], "rejections": {}}
               for m in PRACTICE_MECHANICS for t, lo, hi in PRACTICE_TIERS if (m, t) in queues]
    report = {"pack": "practice", "seed": campaign.daily_seed, "generator": GENERATOR,
              "buckets": buckets}
    out.lines.append(f"Practice: {len(levels)} of {campaign.practice} levels ("
                     + ", ".join(f"{m} {sum(counts[k] for k in keys if k[0] == m)}"
                                 for m in PRACTICE_MECHANICS) + ")")
    if len(levels) < campaign.practice:
        out.problems.append(f"practice: {len(levels)} levels, short of {campaign.practice}")
    for m in PRACTICE_MECHANICS:
        if not any(counts.get((m, t), 0) for t, _lo, _hi in PRACTICE_TIERS):
            out.problems.append(f"practice: no {m} level")
    return meta, levels, report


def _report(pack: str, seed: int, slots: Sequence[Slot], sel: Selector) -> dict:
    buckets: dict[str, dict] = {}
    for s in slots:
        b = s.bucket
        rep = buckets.setdefault(b.name, {
            "bucket": b.name, "size": f"{b.width}x{b.height}", "band": list(b.band),
            "targets": b.targets(), "candidates": 0, "accepted": 0, "rejections": {},
            "pars": [], "slots": [],
            "mix": {"blockers": list(b.blockers), "twists": dict(sorted(b.twists.items())),
                    "beam": b.beam, "walls": list(b.walls)}})
        rep["candidates"] += sel.count(s)
        rep["slots"].append({"target": s.target, "margin": s.margin, "why": s.why,
                             "desc": s.got["desc"] if s.got else None})
        if s.got is not None:
            rep["accepted"] += 1
            rep["pars"].append(s.got["par"])
        else:
            rep["rejections"]["short"] = rep["rejections"].get("short", 0) + 1
    for rep in buckets.values():
        rep["pars"].sort()
    return {"pack": pack, "seed": seed, "generator": GENERATOR, "buckets": list(buckets.values())}


def out_files(campaign: Campaign) -> list[str]:
    """Every file `write` puts in the packs folder for `campaign` (each pack and its
    report), for `safeio.check_output` before any work."""
    names = [w.pack for w in campaign.worlds] + (["dailies"] if campaign.daily_pool else []) \
        + (["practice"] if campaign.practice else [])
    return [f for n in names for f in (f"{n}.json", f"report-{n}.json")]


def write(comp: Composition, out: Path) -> None:
    for name, (meta, levels, report) in comp.packs.items():
        write_pack_and_report(out, name, meta, levels, report)


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.compose",
                        description="Compose the packs from the board pool (docs/GENERATION.md).")
    ap.add_argument("--campaign", type=Path, metavar="FILE",
                    help="the campaign file (default: lumina/campaign.toml)")
    ap.add_argument("--pool", type=Path, default=DEFAULT_POOL, metavar="DIR",
                    help="the pool folder (default: pool/)")
    ap.add_argument("--out", type=Path, default=Path("packs"), metavar="DIR",
                    help="folder the packs are written to (default: packs)")
    ap.add_argument("--force", action="store_true",
                    help="write the packs even when a slot is short or a rule fails")
    args = ap.parse_args(argv)
    campaign = CAMPAIGN if args.campaign is None else load(args.campaign)
    # before any work: every pack and report it will write
    check_output(args.out, inputs=[args.campaign], flag="--out", files=out_files(campaign))
    check_writable_folder(args.out)
    db = store.open_pool(args.pool, create=False)
    try:
        rows = store.rows(db)
    finally:
        db.close()
    comp = compose(campaign, rows)
    for line in comp.lines:
        print(line)
    for p in comp.problems:
        print(f"PROBLEM: {p}", file=sys.stderr)
    if comp.problems and not args.force:
        print(f"nothing written: {len(comp.problems)} problem(s) (--force writes anyway)",
              file=sys.stderr)
        return 1
    write(comp, args.out)
    return 1 if comp.problems else 0


if __name__ == "__main__":
    run(main)
