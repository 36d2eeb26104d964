"""From replayed attempts to evidence about the curve: the report's numbers, JSON and HTML.

`Evidence` gathers `Played` attempts (`replay`) per level as they stream in, keeping
only small summaries and per-position tallies, so 100,000 attempts fit in memory.
`build(evidence)` computes the report as one JSON-ready dict (sorted, rounded: the
same logs give the same bytes); `render_html` draws it with SVG charts.

Per level (attempts sorted per player by attempt number, so file order never matters):
- players: distinct players with an attempt; attempts: every attempt that replayed.
- solve rate: players who won it at least once / players.
- median moves over par: over each solver's first win.
- median seconds to solve: per solver, the time of every attempt up to and including
  the first win (leaving and coming back counts), then the median.
- hint use / solution use: players who asked for a hint / played a solution step.
- abandon rate: attempts that ended by leaving the page / attempts.
- positions: where the most time was spent (every record's `ms` charged to the
  position it was made in) and where players undid most, with their moves left
  (`lumina.engine.distances`; -1: no win from there).
Per world: the observed median moves of first wins against par, level by level.
Per measure recorded in the packs' analysis (par, plans, chain, forced, first moves,
states, traps, twist margin, and the felt difficulty of `lumina.playtest.felt`: its
effort and success, shown per level beside what the simulated or real players did):
Spearman's rho across levels with the median seconds to solve and with the solve
rate. A measure the packs do not carry (chain and forced before lumina-gen/4) is
"not recorded".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import jinja2
from markupsafe import Markup

from lumina.engine import distances
from lumina.render.charts import lines_svg

from .reader import Problem
from .replay import COUNTED, Book, Entry, Played
from .stats import median, spearman

REPORT = "lumina-playtest-report/1"
TOP_POSITIONS = 3
MAX_POSITIONS = 200_000       # tallied positions per level; later new ones are counted apart
MAX_PROBLEMS_SHOWN = 200
MAX_PROBLEMS_KEPT = 10_000    # in memory; every one is counted


def _first_share(e: Entry) -> float | None:
    a = e.level.analysis
    return round(a.first_moves_optimal / a.first_moves_legal, 4) if a and a.first_moves_legal else None


def _margin(e: Entry) -> int | None:
    a = e.level.analysis
    if a is None or a.crystal_optimal is None or e.level.optimal is None:
        return None
    return e.level.optimal - a.crystal_optimal


def _field(name: str) -> Callable[[Entry], Any]:
    return lambda e: getattr(e.level.analysis, name, None) if e.level.analysis else None


#: The recorded measures: (name, what it is, value of a level or None when not recorded).
MEASURES: tuple[tuple[str, str, Callable[[Entry], Any]], ...] = (
    ("par", "optimal moves", lambda e: e.level.optimal),
    ("plans", "distinct plans reaching par", _field("plans")),
    ("chain", "longest run of dependent moves in the least-chained plan", _field("chain")),
    ("forced", "solution moves made where only one move is optimal", _field("forced")),
    ("first moves", "share of legal first moves that are optimal", _first_share),
    ("states", "positions reachable from the start", _field("component_states")),
    ("traps", "reachable positions with no way to win", _field("traps")),
    ("twist margin", "par minus crystal par (twist levels)", _margin),
    ("felt effort", "the board-only player's actions per win (lumina.playtest.felt)",
     _field("effort")),
    ("felt success", "share of the board-only player's runs that win", _field("success")),
)


@dataclass
class LevelTally:
    attempts: list[tuple[str, int, str, int, int, int, bool, tuple[int, ...]]] = field(default_factory=list)
    positions: dict[int, list[int]] = field(default_factory=dict)   # state -> [ms, undos, attempts]
    untallied: int = 0


class Evidence:
    """Replayed attempts by level, plus what was left out."""

    def __init__(self, book: Book):
        self.book = book
        self.levels: dict[str, LevelTally] = {}
        self.problems: list[Problem] = []
        self.rejected = 0            # attempts that did not replay (or named no level of the packs)
        self.duplicates = 0          # the same attempt met again (two exports of one device)
        self.skipped_lines = 0       # lines the reader could not use
        self.logs: list[str] = []
        self.sources: dict[str, set[str]] = {}
        self._seen: dict[tuple[str, int], bytes] = {}

    def note(self, p: Problem) -> None:
        """Keep a problem (the first MAX_PROBLEMS_KEPT; the counts hold them all)."""
        if len(self.problems) < MAX_PROBLEMS_KEPT:
            self.problems.append(p)

    def seen(self, player: str, attempt: int, digest: bytes) -> bool | None:
        """True: this exact attempt was counted already; None: the same player and number
        with other records (a conflict); False: new."""
        old = self._seen.get((player, attempt))
        if old is None:
            self._seen[(player, attempt)] = digest
            return False
        return True if old == digest else None

    def add(self, p: Played) -> None:
        t = self.levels.setdefault(p.level, LevelTally())
        t.attempts.append((p.player, p.attempt, p.outcome, p.moves, p.ms, p.stars, p.helped, p.counts))
        self.sources.setdefault(p.source, set()).add(p.player)
        for state, ms, undos in p.positions:
            slot = t.positions.get(state)
            if slot is None:
                if len(t.positions) >= MAX_POSITIONS:
                    t.untallied += 1
                    continue
                t.positions[state] = [ms, undos, 1]
            else:
                slot[0] += ms
                slot[1] += undos
                slot[2] += 1


def _rate(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _num(v: float | None, places: int = 1) -> float | None:
    return None if v is None else round(v, places) + 0.0


def picture(entry: Entry, state: int) -> list[str]:
    """The position as text rows: A the key, B, C, ... the other blocks in order, # walls,
    / and \\ mirrors; a spent sand or thawed rime block in lower case."""
    lv = entry.level
    grid = [["."] * lv.width for _ in range(lv.height)]
    for x, y in lv.walls:
        grid[y][x] = "#"
    for m in lv.mirrors:
        grid[m.y][m.x] = m.tilt
    positions, flags = entry.board.decode(state)
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for b, (x, y), flag in zip(lv.blocks, positions, flags):
        ch = "A" if b.kind == "key" else next(letters)
        ch = ch.lower() if flag else ch
        for j in range(b.h):
            for i in range(b.w):
                grid[y + j][x + i] = ch
    return ["".join(r) for r in grid]


def legend(entry: Entry) -> str:
    """Which letters of `picture` are twist blocks (empty on an all-crystal level)."""
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    out = []
    for b in entry.level.blocks:
        ch = "A" if b.kind == "key" else next(letters)
        if b.kind in ("sand", "ice", "rime"):
            out.append(f"{ch} {b.kind}")
    return ", ".join(out)


def _positions(entry: Entry, t: LevelTally) -> dict[str, Any]:
    if not t.positions:
        return {"longest": [], "undone": [], "untallied": t.untallied}
    by_ms = sorted(t.positions.items(), key=lambda kv: (-kv[1][0], kv[0]))[:TOP_POSITIONS]
    by_undo = sorted(((s, v) for s, v in t.positions.items() if v[1]),
                     key=lambda kv: (-kv[1][1], kv[0]))[:TOP_POSITIONS]
    try:
        left = distances(entry.board)
    except ValueError:
        left = {}

    def row(state: int, v: list[int]) -> dict[str, Any]:
        return {"picture": picture(entry, state), "seconds": _num(v[0] / 1000), "undos": v[1],
                "attempts": v[2], "moves_left": left.get(state),
                "start": state == entry.board.start}
    return {"longest": [row(s, v) for s, v in by_ms], "undone": [row(s, v) for s, v in by_undo],
            "untallied": t.untallied}


def level_row(entry: Entry, t: LevelTally) -> dict[str, Any]:
    """One level's numbers (see the module docstring)."""
    par = entry.level.optimal or 0
    per: dict[str, list] = {}
    for a in sorted(t.attempts, key=lambda a: (a[0], a[1])):
        per.setdefault(a[0], []).append(a)
    over, secs, hinted, solved_with = [], [], 0, 0
    for attempts in per.values():
        time = 0
        for _, _, outcome, moves, ms, _, _, _ in attempts:
            time += ms
            if outcome == "win":
                over.append(moves - par)
                secs.append(time / 1000)
                break
        hinted += any(a[7][4] for a in attempts)
        solved_with += any(a[7][5] for a in attempts)
    outcomes = [a[2] for a in t.attempts]
    totals = [sum(a[7][k] for a in t.attempts) for k in range(len(COUNTED))]
    return {
        "id": entry.level.id, "pack": entry.pack, "world": entry.world, "number": entry.number,
        "par": entry.level.optimal, "players": len(per), "attempts": len(t.attempts),
        "wins": outcomes.count("win"), "leaves": outcomes.count("leave"), "open": outcomes.count("open"),
        "solvers": len(secs), "solve_rate": _rate(len(secs), len(per)),
        "median_over_par": _num(median(over)), "median_seconds": _num(median(secs)),
        "hint_use": _rate(hinted, len(per)), "solution_use": _rate(solved_with, len(per)),
        "abandon_rate": _rate(outcomes.count("leave"), len(t.attempts)),
        "events": dict(zip(("moves", "undos", "redos", "resets", "hints", "solutions"), totals)),
        "stars": {str(k): sum(1 for a in t.attempts if a[2] == "win" and a[5] == k) for k in (1, 2, 3)},
        "measures": {name: f(entry) for name, _, f in MEASURES},
        "positions": _positions(entry, t),
    }


def correlations(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per measure: Spearman's rho with the median seconds to solve and the solve rate."""
    out = []
    for name, what, _ in MEASURES:
        have = [r for r in rows if r["measures"][name] is not None]
        entry: dict[str, Any] = {"measure": name, "what": what, "recorded": bool(have),
                                 "levels": len(have)}
        for key, label in (("median_seconds", "time"), ("solve_rate", "solve_rate")):
            pairs = [(r["measures"][name], r[key]) for r in have if r[key] is not None]
            if not have:
                twists = name == "twist margin" and any(r["measures"]["plans"] is not None for r in rows)
                entry[label] = {"rho": None, "n": 0, "note": "no twist level among the levels played"
                                if twists else "not recorded"}
                continue
            c = spearman([p[0] for p in pairs], [p[1] for p in pairs])
            entry[label] = {"rho": c.rho, "n": c.n, "note": c.note}
        out.append(entry)
    return out


def curves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per pack with attempts: par and the observed median moves of a first win, by level."""
    packs: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        packs.setdefault(r["pack"], []).append(r)
    out = []
    for name, rs in packs.items():
        out.append({"pack": name, "world": rs[0]["world"], "levels": [
            {"number": r["number"], "id": r["id"], "par": r["par"],
             "median_moves": None if r["median_over_par"] is None or r["par"] is None
             else _num(r["par"] + r["median_over_par"]),
             "solve_rate": r["solve_rate"], "median_seconds": r["median_seconds"]} for r in rs]})
    return out


def build(ev: Evidence) -> dict[str, Any]:
    """The whole report as one JSON-ready dict."""
    rows = [level_row(e, ev.levels[lid]) for lid, e in ev.book.entries.items() if lid in ev.levels]
    attempts = sum(r["attempts"] for r in rows)
    players = set().union(*ev.sources.values()) if ev.sources else set()
    return {
        "report": REPORT,
        "logs": list(ev.logs), "packs": list(ev.book.packs),
        "players": len(players), "attempts": attempts, "levels_played": len(rows),
        "sources": {k: len(v) for k, v in sorted(ev.sources.items())},
        "left_out": {"lines": ev.skipped_lines, "attempts": ev.rejected, "duplicates": ev.duplicates,
                     "problems": [str(p) for p in ev.problems[:MAX_PROBLEMS_SHOWN]],
                     "problems_total": ev.skipped_lines + ev.rejected},
        "correlations": correlations(rows),
        "curves": curves(rows),
        "levels": rows,
    }


def collect(paths, book: Book, on_problem: Callable[[Problem], None] | None = None) -> Evidence:
    """Read the logs at `paths`, replay every attempt against `book`, gather the evidence.
    `on_problem` hears every problem as it is found (the CLI prints them)."""
    from .reader import LogReader
    from .replay import replay
    ev = Evidence(book)
    reader = LogReader()
    told = 0

    def tell() -> None:
        nonlocal told
        for p in reader.problems[told:]:
            ev.note(p)
            if on_problem:
                on_problem(p)
        told = len(reader.problems)

    for att in reader.attempts(paths):
        tell()
        fresh = ev.seen(att.player, att.start.attempt, att.digest)
        if fresh is True:
            ev.duplicates += 1
            continue
        if fresh is None:
            result: Played | Problem = Problem(
                file=att.file, line=att.line, message=f"attempt {att.start.attempt} of player "
                f"{att.player}: met before with other records; the first is kept")
        else:
            result = replay(att, book)
        if isinstance(result, Problem):
            ev.rejected += 1
            ev.note(result)
            if on_problem:
                on_problem(result)
            continue
        ev.add(result)
    tell()
    ev.logs = list(reader.files_read)
    ev.skipped_lines = sum(reader.skipped.values())
    return ev


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{round(100 * v)}%"


def _signed(v: float | None) -> str:
    return "–" if v is None else f"+{v:g}" if v > 0 else f"{v:g}"


def _secs(v: float | None) -> str:
    if v is None:
        return "–"
    return f"{v:.1f} s" if v < 60 else f"{int(v // 60)} min {round(v % 60):02d} s"


def render_html(report: dict[str, Any], book: Book) -> str:
    """The report as one self-contained HTML page (inline CSS and SVG charts)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.globals.update(pct=_pct, signed=_signed, secs=_secs)
    charts = []
    for c in report["curves"]:
        labels = [lv["number"] for lv in c["levels"]]
        charts.append((c["pack"], Markup(lines_svg(
            [("par", [lv["par"] for lv in c["levels"]]),
             ("observed", [lv["median_moves"] for lv in c["levels"]])],
            labels, title=f"{c['pack']}: par against the median moves of a first win",
            ylabel="moves"))))
    legends = {r["id"]: legend(book.entries[r["id"]]) for r in report["levels"]}
    return env.get_template("report.html").render(r=report, charts=charts, legends=legends)
