"""The engine's measures of difficulty and exact sweep held to brute force (tests/reference.py).

RULES.md "Quality" defines what a level records (par, plans, raw solutions, dead
blocks, crystal par, optimal and legal first moves, component states, traps, the
chain, forced moves, the optional twist, the board's deepest par) and
"Generation" defines the exact sweep (every start of a layout's crystal component
filed by its real par).  The reference answers each question the slowest obvious
way: every optimal move sequence enumerated, plans as union-find groups of those
sequences one adjacent commuting swap apart, every state's par by its own BFS.
``lumina.engine.measure`` / ``exact_sweep`` / ``level_at`` must agree field by
field on hypothesis-random small levels of every kind: sand, ice, rime, walls,
beam with mirrors, non-square grids.

Levels are kept small (components of a few hundred states) so the reference stays
fast; examples that grow past that are rejected with ``assume``, not passed.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

import reference as R
import strategies_hypothesis as S

import lumina.engine as E  # noqa: E402  (an unbuilt engine fails here, never skips)
from lumina.engine import Outcome, exact_sweep, level_at, measure, solve  # noqa: E402
from lumina.desc import from_rush_hour  # noqa: E402
from lumina.model import Level  # noqa: E402

MAX_COMPONENT = 400      # reference-checked components stay this small
MAX_SEQUENCES = 3000     # and their optimal sequences this few
MAX_POSITIONS = 200      # crystal components of swept layouts
MAX_SWEEP_STATES = 1500  # real states of swept layouts

# Every kind of level: (label, strategy).  Twist kinds come mixed with crystal so
# that blocks interact; walls and non-square grids are on in all of them.
FAMILIES = {
    "crystal": S.levels(win="exit", kinds=("crystal",)),
    "sand": S.levels(win="exit", kinds=("crystal", "sand", "sand")),
    "ice": S.levels(win="exit", kinds=("crystal", "ice", "ice")),
    "rime": S.levels(win="exit", kinds=("crystal", "rime", "rime")),
    "mixed": S.levels(win="exit"),
    "beam": S.levels(win="beam"),
}


def _family(name: str):
    return pytest.param(FAMILIES[name], id=name)


ALL_FAMILIES = [_family(n) for n in FAMILIES]


# ----------------------------------------------------------- the reference itself

def test_reference_plans_independent_clears_are_one_plan():
    # B and C each step down out of the key's row, in either order: 2 sequences, 1 plan.
    lv = R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1))
    seqs = R.optimal_sequences(lv)
    assert seqs == [((0, 2), (1, 2), (2, 4)), ((1, 2), (0, 2), (2, 4))]   # B=0, C=1, A=2
    assert R.plans(lv) == 1


def test_reference_plans_two_ways_out_of_the_lane_are_two_plans():
    # B clears the key's row by going up 2 or down 1: the same block, so no swap joins them.
    lv = R.ascii_level("""
        ......
        ......
        AA.B..
        ...B..
        ......
    """, exit=("right", 2))
    assert R.optimal_sequences(lv) == [((1, -2), (0, 4)), ((1, 1), (0, 4))]
    assert R.plans(lv) == 2


def test_reference_ice_picks_a_direction_not_a_destination():
    # Ice I (rows 1-2) only slides all the way: up 1 or down 2, both clear the key's row:
    # two plans (one block, two different moves), and only 2 of its slides are legal.
    lv = R.ascii_level("""
        ......
        ...I..
        AA.I..
        ......
        ......
    """, exit=("right", 2), kinds={"I": "ice"})
    assert R.optimal_sequences(lv) == [((0, -1), (1, 4)), ((0, 2), (1, 4))]   # I=0, A=1
    m = R.measures(lv)
    assert (m["plans"], m["solutions"], m["first_moves_legal"]) == (2, 2, 2 + 1)  # ice 2, key 1
    assert m["crystal_optimal"] == 2 and m["traps"] == 0


def test_reference_traps_and_first_moves_on_a_sand_board():
    # Sand S (rows 1-2) clears the key's row up 1 or down 2; down 1 spends it in the
    # row: the key is stuck for good, one trap state.
    lv = R.ascii_level("""
        ......
        ..S...
        AAS...
        ......
        ......
    """, exit=("right", 2), kinds={"S": "sand"})
    m = R.measures(lv)
    assert m["optimal"] == 2 and m["first_moves"] == ((0, -1), (0, 2))       # S=0, A=1
    assert (m["plans"], m["solutions"], m["dead_blocks"]) == (2, 2, ())
    assert m["first_moves_legal"] == 3            # key blocked; sand up 1, down 1, down 2
    assert m["component_states"] == 1 + 3 + 2 * 4
    assert m["traps"] == 1
    assert m["crystal_optimal"] == 2


# -------------------------------------------------------------- measure()

def _small(d: dict) -> Level:
    """The level, if the reference can afford it (else the example is rejected)."""
    level = Level.from_json(d)
    try:
        n = R.component(d, cap=MAX_COMPONENT)
    except R.CapExceeded:
        assume(False)
    note(f"{n} states\n{R.draw(d)}\n{level.desc()}")
    return level


def _compare_measures(d: dict) -> None:
    level = _small(d)
    got = measure(level)
    try:
        want = R.measures(d, limit=MAX_SEQUENCES)
    except R.CapExceeded:
        assume(False)
    note(f"engine {got}\nreference {want}")
    assert got.outcome.value == want["outcome"]
    assert got.optimal == want["optimal"]
    assert (got.plans, got.plans_capped) == (want["plans"], False)
    assert (got.solutions, got.solutions_capped) == (want["solutions"], False)
    assert tuple(got.dead_blocks) == want["dead_blocks"]
    assert got.crystal_optimal == want["crystal_optimal"]
    assert tuple(map(tuple, got.first_moves)) == want["first_moves"]
    assert got.first_moves_optimal == want["first_moves_optimal"]
    assert got.first_moves_legal == want["first_moves_legal"]
    assert got.component_states == want["component_states"]
    assert got.traps == want["traps"]
    assert (got.chain, got.chain_capped) == (want["chain"], False)
    assert got.optional_twist == want["optional_twist"]
    assert got.dead_twists == want["dead_twists"]


@pytest.mark.parametrize("levels", ALL_FAMILIES)
@settings(max_examples=S.examples(25))
@given(data=st.data())
def test_measure_matches_brute_force(levels, data):
    _compare_measures(data.draw(levels, label="level"))


@settings(max_examples=S.examples(10))
@given(d=S.dense_levels(max_blocks=7))
def test_measure_matches_brute_force_on_crowded_boards(d):
    _compare_measures(d)


@settings(max_examples=S.examples(25))
@given(d=S.levels(), plan_cap=st.integers(1, 4), solution_cap=st.integers(1, 6))
def test_measure_caps_say_when_they_bind(d, plan_cap, solution_cap):
    # Exact up to the cap; past it the flag is set and the count is not below the cap.
    level = _small(d)
    full = measure(level)
    got = measure(level, plan_cap=plan_cap, solution_cap=solution_cap)
    assert got.optimal == full.optimal and got.first_moves == full.first_moves
    assert got.plans_capped == (full.plans > plan_cap)
    assert got.solutions_capped == (full.solutions > solution_cap)
    if not got.plans_capped:
        assert got.plans == full.plans
    if not got.solutions_capped:
        assert got.solutions == full.solutions


@settings(max_examples=S.examples(25))
@given(d=S.levels())
def test_measure_state_cap_is_exhausted_never_unsolvable(d):
    level = _small(d)
    full = measure(level)
    n = full.component_states
    at = measure(level, state_cap=n)
    assert (at.outcome, at.optimal, at.traps) == (full.outcome, full.optimal, full.traps)
    if n > 1:
        below = measure(level, state_cap=n - 1)
        assert below.outcome is Outcome.EXHAUSTED
        assert below.optimal is None and below.plans == 0 and below.first_moves == ()


def test_plan_cap_equal_to_the_count_is_not_capped():
    # Regression (first pure-Python engine): a count equal to its cap was flagged capped,
    # though it is exact ("exact up to plan_cap"). 2 raw solutions, 1 plan.
    level = Level.from_json(R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1)))
    m = measure(level, plan_cap=1, solution_cap=2)
    assert (m.plans, m.plans_capped) == (1, False)
    assert (m.solutions, m.solutions_capped) == (2, False)
    m = measure(level, solution_cap=1)
    assert m.solutions_capped and m.solutions >= 1


def test_exact_sweep_states_are_the_real_states_enumerated():
    # Regression (first pure-Python engine): `states` added the crystal positions to the
    # real states. ENGINE-API.md: real states enumerated (positions x spent/thawed bits).
    # A lone key in a 4x4 row: 3 positions, 3 real states (nothing to spend or thaw).
    d = R.ascii_level("""
        AA..
        ....
        ....
        ....
    """, exit=("left", 0))
    sw = exact_sweep(Level.from_json(d))
    assert (sw.positions, sw.starts, sw.goals, sw.solvable) == (3, 3, 1, 3)
    assert sw.histogram == {1: 2}
    assert sw.states == R.sweep(d)["states"] == 3


def test_measure_accepts_a_board():
    d = R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1))
    level = Level.from_json(d)
    assert measure(E.Board(level)) == measure(level)


# -------------------------------------------------------------- exact_sweep()

def _small_layout(d: dict) -> Level:
    layout = Level.from_json(d)
    try:
        n = R.component(R.crystal(d), cap=MAX_POSITIONS)
    except R.CapExceeded:
        assume(False)
    note(f"{n} positions\n{R.draw(d)}\n{layout.desc()}")
    return layout


def _reference_sweep(d: dict) -> dict:
    try:
        return R.sweep(d, cap=MAX_SWEEP_STATES)
    except R.CapExceeded:
        assume(False)
        raise


def _candidates(sw) -> dict[int, object]:
    """Every harvested candidate by state key (no state is filed twice)."""
    out = {}
    for depth, cands in sw.harvest.items():
        assert list(cands) == sorted(cands, key=lambda c: c.state)
        for c in cands:
            assert c.par == depth
            assert c.state not in out
            out[c.state] = c
    return out


def _compare_sweep(d: dict) -> None:
    layout = _small_layout(d)
    want = _reference_sweep(d)
    got = exact_sweep(layout, min_depth=1, per_depth=10**6)
    note(f"engine {got}")
    assert got.complete
    for field in ("positions", "goals", "solvable", "deepest", "deepest_binding",
                  "deepest_margin", "binding", "traps"):
        assert getattr(got, field) == want[field], field
    assert got.starts == want["positions"]
    assert dict(got.histogram) == want["histogram"]
    assert list(got.histogram) == sorted(got.histogram)
    # Every solvable start not already solved is harvested once, at its exact real par
    # and crystal par; the solved ones are the solvable ones outside the histogram.
    board = E.Board(layout)
    cands = _candidates(got)
    by_state = {}
    for pos, (state, par, cpar) in want["starts"].items():
        if par is not None and par >= 1:
            by_state[state] = (par, cpar)
    got_states = {}
    for key, c in cands.items():
        positions, flags = board.decode(key)
        s = (tuple(map(tuple, positions)), tuple(map(bool, flags)))
        got_states[s] = (c.par, c.crystal_par)
    assert got_states == by_state
    # ENGINE-API.md: `states` = real states enumerated (positions x spent/thawed bits).
    assert got.states == want["states"]


@pytest.mark.parametrize("levels", ALL_FAMILIES)
@settings(max_examples=S.examples(20))
@given(data=st.data())
def test_exact_sweep_matches_brute_force(levels, data):
    _compare_sweep(data.draw(levels, label="layout"))


@settings(max_examples=S.examples(20))
@given(d=S.levels(kinds=("crystal", "sand", "ice", "rime")), min_depth=st.integers(1, 4),
       per_depth=st.integers(1, 4), seed=st.integers(0, 3), binding_only=st.booleans())
def test_exact_sweep_harvest_is_a_seeded_sample_of_the_right_starts(d, min_depth, per_depth,
                                                                   seed, binding_only):
    layout = _small_layout(d)
    full = exact_sweep(layout, min_depth=1, per_depth=10**6)
    every = _candidates(full)
    got = exact_sweep(layout, min_depth=min_depth, per_depth=per_depth, seed=seed,
                      binding_only=binding_only)
    again = exact_sweep(layout, min_depth=min_depth, per_depth=per_depth, seed=seed,
                        binding_only=binding_only)
    assert got == again                                # seeded: same inputs, same sample
    # The summary does not depend on the harvest settings.
    for field in ("positions", "states", "goals", "solvable", "deepest", "deepest_binding",
                  "deepest_margin", "binding", "traps", "histogram"):
        assert getattr(got, field) == getattr(full, field), field
    wanted: dict[int, int] = {}
    for c in every.values():
        if c.par >= min_depth and (c.par > c.crystal_par or not binding_only):
            wanted[c.par] = wanted.get(c.par, 0) + 1
    assert {k: len(v) for k, v in got.harvest.items() if v} == {
        k: min(n, per_depth) for k, n in wanted.items()}
    for c in _candidates(got).values():
        assert every[c.state] == c


@settings(max_examples=S.examples(20))
@given(d=S.levels(), data=st.data())
def test_level_at_round_trip(d, data):
    # solve(level_at(layout, c.state)) is exactly the candidate's par, and the level's
    # blocks stand where the state says, everything else carried over.
    layout = _small_layout(d)
    sw = exact_sweep(layout, min_depth=1, per_depth=10**6)
    cands = sorted(_candidates(sw).values(), key=lambda c: c.state)
    assume(cands)
    board = E.Board(layout)
    for c in data.draw(st.lists(st.sampled_from(cands), min_size=1, max_size=4, unique=True)):
        lv = level_at(layout, c.state, "w9-01")
        assert lv.id == "w9-01"
        sol = solve(lv)
        assert sol.outcome is Outcome.SOLVED and sol.optimal == c.par
        positions, _ = board.decode(c.state)
        assert lv == Level.from_json(R.placed(d, tuple(map(tuple, positions)), "w9-01"))
        assert E.Board(lv).start == c.state


@settings(max_examples=S.examples(15))
@given(d=S.levels())
def test_exact_sweep_state_cap_gives_nothing_exact(d):
    layout = _small_layout(d)
    full = exact_sweep(layout)
    assume(full.states > 1)
    capped = exact_sweep(layout, state_cap=full.states - 1)
    assert not capped.complete and capped.harvest == {}
    assert exact_sweep(layout, state_cap=full.states).complete


# -------------------------------------------------------------- rush sample

@pytest.mark.slow
def test_rush_sample_measures():
    """Every published board: optimal == MM, component == CLUSTER, plans exact under 10**6."""
    wrong = []
    for n, (mm, board, cluster) in enumerate(R.rush_sample_lines()):
        m = measure(from_rush_hour(board, id=f"rush-{n:03d}"), plan_cap=10**6)
        if (m.outcome is not Outcome.SOLVED or m.optimal != mm or m.component_states != cluster
                or m.plans_capped or m.plans < 1 or m.plans > m.solutions):
            wrong.append((board, mm, cluster, m))
    assert wrong == []


# -------------------------------------------------------------- chain, forced, deepest

def test_reference_chain_of_independent_clears():
    # B and C clear the key's row in either order (one plan), then the key: B -> A and
    # C -> A are the longest runs, so the chain is 2 of 3 moves.
    lv = R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1))
    assert R.chain(lv) == 2
    assert measure(Level.from_json(lv)).chain == 2


def test_reference_chain_of_a_relay():
    # C must drop before B can, and B before the key: one long idea, chain 3 of 3.
    lv = R.ascii_level("""
        ..B...
        AAB...
        ..C...
        ..C...
        ......
        ......
    """, exit=("right", 1))
    assert R.optimal_sequences(lv) == [((2, 2), (0, 2), (1, 4))]      # B=0, A=1, C=2
    assert R.chain(lv) == 3
    assert measure(Level.from_json(lv)).chain == 3


def test_chain_is_the_least_over_plans():
    # A published 6-move Rush Hour board with four plans whose chains differ: two of 4
    # moves, two of 5. The level's chain is the least.
    lv = R.rush_level("ooEoooooEoFoAAEoFooDBBGooDooGooCCooo")
    assert sorted(R.plan_chain(g) for g in R.plan_classes(lv)) == [4, 4, 5, 5]
    assert R.chain(lv) == 4
    m = measure(Level.from_json(lv))
    assert (m.plans, m.chain, m.chain_capped) == (4, 4, False)


# Published boards whose plans have different chains (random small levels almost never do).
CHAINS_DIFFER = ("ooBBooooCCoFAAoEoFoooEoooooxoooooooo", "oBBGCCoooGHoAAoGHooDDEEoooFFoooooooo",
                 "oxCCxoooHIooAAHIoooGEEEooGFFoooooooo", "oooooKoHBBBKoHAAJoCCIoJoooIDDDoxFFGG",
                 "HBBxDDHoJoooAAJoKLIEEEKLIoooooIFFoGG")


@pytest.mark.parametrize("board", CHAINS_DIFFER)
def test_chain_is_the_least_over_plans_on_published_boards(board):
    lv = R.rush_level(board)
    chains = [R.plan_chain(g) for g in R.plan_classes(lv)]
    assert len(set(chains)) > 1
    m = measure(Level.from_json(lv))
    assert (m.chain, m.chain_capped) == (min(chains), False)


@pytest.mark.slow
def test_chain_matches_brute_force_on_small_published_boards():
    """Every rush-sample board of at most 1,500 states and 300 optimal sequences with
    more than one plan (96 boards, 6 whose plans have different chains)."""
    checked = 0
    for _mm, board, cluster in R.rush_sample_lines():
        if cluster > 1500:
            continue
        level = from_rush_hour(board)
        m = measure(level)
        if m.solutions > 300 or m.plans < 2:
            continue
        assert m.chain == R.chain(R.rush_level(board)), board
        checked += 1
    assert checked > 50


def _optimal_sequence(d: dict, data) -> tuple:
    try:
        seqs = R.optimal_sequences(d, limit=MAX_SEQUENCES)
    except R.CapExceeded:
        assume(False)
    assume(seqs)
    return data.draw(st.sampled_from(seqs), label="solution")


@pytest.mark.parametrize("levels", ALL_FAMILIES)
@settings(max_examples=S.examples(20))
@given(data=st.data())
def test_forced_moves_match_brute_force_along_any_optimal_solution(levels, data):
    d = data.draw(levels, label="level")
    level = _small(d)
    seq = _optimal_sequence(d, data)
    assert measure(level, solution=seq).forced == R.forced(d, seq)
    # The stored solution is the default, and with none stored the solver's.
    stored = level.replace(optimal=len(seq), solution=seq)
    assert measure(stored).forced == R.forced(d, seq)
    assert measure(level).forced == R.forced(d, solve(level).moves)


@settings(max_examples=S.examples(20))
@given(d=S.levels(), data=st.data())
def test_forced_is_none_for_a_solution_that_is_not_optimal(d, data):
    level = _small(d)
    seq = _optimal_sequence(d, data)
    assume(seq)
    assert R.forced(d, seq[:-1]) is None
    assert measure(level, solution=seq[:-1]).forced is None
    board = E.Board(level)
    wrong = [mv for mv in board.moves(board.start) if (mv,) + seq[1:] not in
             R.optimal_sequences(d, limit=MAX_SEQUENCES)]
    assume(wrong)
    assert measure(level, solution=(wrong[0],) + seq[1:]).forced is None


@pytest.mark.parametrize("levels", ALL_FAMILIES)
@settings(max_examples=S.examples(20))
@given(data=st.data())
def test_deepest_matches_brute_force(levels, data):
    d = data.draw(levels, label="level")
    level = _small_layout(d)
    want = _reference_sweep(d)
    assert measure(level).deepest == (want["deepest_binding"] if R.has_twists(d)
                                      else want["deepest"])


@pytest.mark.parametrize("levels", ALL_FAMILIES)
@settings(max_examples=S.examples(15))
@given(data=st.data())
def test_chain_walked_in_full_agrees_with_the_static_dependence(levels, data):
    # The kernel's chain reads a fixed dependence between two moves; on boards where a
    # third block can decide (thick ice) lumina.engine walks every plan in full instead.
    # Both ways agree with brute force wherever the first applies.
    d = data.draw(levels, label="level")
    level = _small(d)
    m = measure(level)
    assume(m.optimal is not None)
    r = E._graph.level_measures(E.Board(level), 10**6, 10**6, 10**6, solve(level).moves,
                                10**6, False, 10**4)
    assert r["members"] is not None and len(r["members"]) == m.plans
    assert E._chain_by_members(E.Board(level), r["members"], False) == (m.chain, False)


def test_thick_ice_walks_each_plan_in_full(monkeypatch):
    # A two-cell-thick ice block can rest on two stoppers at once, so the kernel's fixed
    # dependence does not apply: every plan is walked sequence by sequence instead.
    lv = R.ascii_level("""
        ..B...
        ..B...
        AAII.C
        ..II.C
        ..II..
        ......
    """, exit=("right", 2), kinds={"I": "ice"})
    walked = []
    real = E._plan_chain
    monkeypatch.setattr(E, "_plan_chain", lambda board, seq: walked.append(seq) or real(board, seq))
    m = measure(Level.from_json(lv))
    assert len(walked) == m.plans == len(R.plan_classes(lv)) == 3
    assert (m.chain, m.chain_capped) == (R.chain(lv), False) == (2, False)
    # Past MEMBER_CAP sequences in a plan the chain is an upper bound, and says so.
    monkeypatch.setattr(E, "MEMBER_CAP", 1)
    capped = measure(Level.from_json(lv))
    assert capped.chain_capped and m.chain <= capped.chain <= m.optimal


@settings(max_examples=S.examples(15))
@given(d=S.levels(), work=st.integers(1, 30))
def test_chain_work_cap_gives_an_upper_bound_and_says_so(d, work):
    level = _small(d)
    full = measure(level)
    assume(full.optimal)
    got = measure(level, chain_work=work)
    assert full.chain_capped is False
    assert full.chain <= got.chain <= full.optimal
    if not got.chain_capped:
        assert got.chain == full.chain


@settings(max_examples=S.examples(10))
@given(d=S.levels(kinds=("crystal", "sand", "ice", "rime")))
def test_measure_without_the_deepest_changes_nothing_else(d):
    level = _small(d)
    full, lean = measure(level), measure(level, with_deepest=False)
    assert lean.deepest is None
    assert dataclasses.replace(lean, deepest=full.deepest) == full


# ------------------------------------ chain and optional twist, one sequence at a time
#
# A second brute force, read off RULES.md "Dependent moves" and "Twists carry the
# puzzle" sequence by sequence: the optimal sequences come from a plain breadth-first
# search over the reference rules (tests/reference.py's moves, nothing of lumina);
# each sequence's dependency order is built from that sequence alone (every ordering
# one adjacent commuting swap after another away, the order its moves keep in all of
# them); its height is the sequence's chain, and the level's chain the least.

def _bfs_optimal_sequences(d: dict, limit: int = MAX_SEQUENCES) -> list[tuple]:
    """Every shortest winning move sequence, by layers of a plain BFS from the start:
    a sequence is optimal when each move goes one layer deeper and it ends in a win at
    the first layer holding one."""
    s0 = R.start(d)
    layer, depth, wins = {s0: None}, {s0: 0}, []
    frontier = [s0]
    while frontier and not wins:
        wins = [s for s in frontier if R.is_solved(d, s)]
        if wins:
            break
        nxt = []
        for s in frontier:
            for mv in R.moves(d, s):
                t = R._slide(d, s, mv)
                if t not in depth:
                    depth[t] = depth[s] + 1
                    nxt.append(t)
        frontier = nxt
    if not wins:
        return []
    par = depth[wins[0]]
    good: dict = {}

    def tails(s):                       # sequences from s to a win at depth par
        if s in good:
            return good[s]
        if depth[s] == par:
            out = [()] if R.is_solved(d, s) else []
        else:
            out = []
            for mv in R.moves(d, s):
                t = R._slide(d, s, mv)
                if depth.get(t) == depth[s] + 1:
                    out += [(mv,) + rest for rest in tails(t)]
                    if len(out) > limit:
                        raise R.CapExceeded(limit)
        good[s] = out
        return out
    return sorted(tails(s0))


def _swaps(d: dict, seq: tuple) -> list[tuple]:
    """The orderings one swap of two adjacent moves away (RULES.md Plans: different
    blocks, both orders legal from the same position, reaching the same position)."""
    out, s = [], R.start(d)
    states = [s]
    for mv in seq:
        s = R._slide(d, s, mv)
        states.append(s)
    for i in range(len(seq) - 1):
        a, b = seq[i], seq[i + 1]
        if a[0] == b[0] or b not in R.moves(d, states[i]):
            continue
        mid = R._slide(d, states[i], b)
        if a in R.moves(d, mid) and R._slide(d, mid, a) == states[i + 2]:
            out.append(seq[:i] + (b, a) + seq[i + 2:])
    return out


def _named(seq: tuple) -> list[tuple[int, int]]:
    """Each move as (block, k): block's k-th move, the same name in every reordering."""
    count: dict = {}
    out = []
    for b, _ in seq:
        count[b] = count.get(b, 0) + 1
        out.append((b, count[b]))
    return out


def _reorderings(d: dict, seq: tuple) -> frozenset:
    """Every ordering of `seq` reached by swapping commuting neighbours, again and again."""
    family, todo = {seq}, [seq]
    while todo:
        for other in _swaps(d, todo.pop()):
            if other not in family:
                family.add(other)
                todo.append(other)
    return frozenset(family)


def _dependency_height(d: dict, seq: tuple, memo: dict | None = None) -> int:
    """The height of `seq`'s dependency order: a move depends on an earlier one when no
    reordering of `seq` (swapping commuting neighbours, again and again) puts it first;
    the height is the number of moves in the longest run each depending on the one
    before. `memo` shares the reorderings among the sequences of one plan (each
    sequence's own order is still walked)."""
    memo = {} if memo is None else memo
    if seq not in memo:
        family = _reorderings(d, seq)
        where = [{o: i for i, o in enumerate(_named(s))} for s in family]
        names = _named(seq)
        after = frozenset((p, o) for p in names for o in names
                          if all(w[p] < w[o] for w in where))
        for s in family:
            memo[s] = after
    after = memo[seq]
    order = _named(seq)
    height: dict = {}
    for j, o in enumerate(order):
        height[o] = 1 + max((height[p] for p in order[:j] if (p, o) in after), default=0)
    return max(height.values(), default=0)


def test_dependency_height_of_a_relay_and_of_independent_clears():
    relay = R.ascii_level("""
        ..B...
        AAB...
        ..C...
        ..C...
        ......
        ......
    """, exit=("right", 1))
    assert [_dependency_height(relay, s) for s in _bfs_optimal_sequences(relay)] == [3]
    clears = R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1))
    assert [_dependency_height(clears, s) for s in _bfs_optimal_sequences(clears)] == [2, 2]


# Crowded boards of every kind (more blocks than FAMILIES draws: deeper starts).
DENSE = {
    "crystal": S.dense_levels(win="exit", kinds=("crystal",), max_blocks=7),
    "sand": S.dense_levels(win="exit", kinds=("crystal", "sand", "sand"), max_blocks=7),
    "ice": S.dense_levels(win="exit", kinds=("crystal", "ice", "ice"), max_blocks=7),
    "rime": S.dense_levels(win="exit", kinds=("crystal", "rime", "rime"), max_blocks=7),
    "beam": S.dense_levels(win="beam", max_blocks=7),
}


@pytest.mark.parametrize("levels", [pytest.param(v, id=k) for k, v in DENSE.items()])
@settings(max_examples=S.examples(20))
@given(data=st.data())
def test_chain_and_optional_twist_match_each_sequences_dependency_order(levels, data):
    # The level starts at its layout's deepest start (found by the reference's own
    # sweep), as generated levels do: random starts are mostly a move or two from a win.
    layout = data.draw(levels, label="layout")
    _small_layout(layout)
    starts = _reference_sweep(layout)["starts"]
    pars = sorted((p, pos) for pos, (_, p, _) in starts.items() if p is not None)
    d = R.placed(layout, pars[-1][1]) if pars else layout
    level = _small(d)
    try:
        seqs = _bfs_optimal_sequences(d)
    except R.CapExceeded:
        assume(False)
    m = _compare_sequence_by_sequence(d, level, seqs)
    event("unsolvable" if not seqs else
          f"par {'0-2' if len(seqs[0]) <= 2 else '3+'}, "
          f"{'one sequence' if len(seqs) == 1 else 'several sequences'}, "
          f"optional twist {m.optional_twist}")


def _compare_sequence_by_sequence(d: dict, level: Level, seqs: list[tuple]):
    """measure(level)'s chain, optional twist and dead twists against the optimal
    sequences `seqs`, each one's dependency order built on its own; the measures."""
    m = measure(level)
    if not seqs:
        assert m.chain is None and m.optional_twist is False
        return m
    memo: dict = {}
    heights = {s: _dependency_height(d, s, memo) for s in seqs}
    assert m.optimal == len(seqs[0])
    assert (m.chain, m.chain_capped) == (min(heights.values()), False)
    kinds = [b["kind"] for b in d["blocks"]]
    twist = [i for i, k in enumerate(kinds) if k in ("sand", "ice", "rime")]
    assert m.optional_twist == (bool(twist) and any(all(b not in twist for b, _ in s)
                                                    for s in seqs))
    moved = {b for s in seqs for b, _ in s}
    assert m.dead_twists == tuple(i for i in twist if i not in moved)
    return m


# Shipped-size levels of every kind (boards of the lumina-gen/3 packs that meet the
# issue-17 rules, and two that break them: an ice level whose ice is optional, an ice
# level with a dead ice block): deeper than random boards, with several plans.
SHIPPED = {
    "crystal": (".FF..\n.DD..\nGGBC.\nE.BC.\nE..AA", ("left", 4), {}, None),
    "sand": (".GGII.\n.FFFBD\nEEC.BD\nH.C...\nH..AA.", ("left", 4), {"D": "sand", "E": "sand"}, None),
    "ice": ("..E...\n..EGGF\n.DDC.F\n...C..\nAA.B..\n...B..", ("right", 4),
            {"C": "ice", "F": "ice"}, None),
    "ice optional": (".DDD.G\n.....G\n.BCFF.\nEBCHI.\nEAAHI.", ("right", 4),
                     {"B": "ice", "G": "ice"}, None),
    "rime": ("...C.\n...C.\n.EEC.\nD.BAA\nD.B..", ("left", 3), {"D": "rime"}, None),
    "rime deep": ("..BB.\n..GCC\nDDG.A\n.F..A\n.FEEE", ("bottom", 4), {"B": "rime"}, None),
    "beam": ("AAFF.\n.BB..\n.\\\\..\n.DD.C\nGGEEC", ("bottom", 2), {}, ("S", 0)),
    "beam turn": ("..FFF\n/..E.\n..AE.\nDDABG\nCCCBG", ("bottom", 0), {}, ("W", 0)),
}


@pytest.mark.parametrize("name", list(SHIPPED))
def test_chain_and_optional_twist_match_each_sequences_dependency_order_on_shipped_boards(name):
    board, exit_, kinds, beam = SHIPPED[name]
    d = R.ascii_level(board, exit=exit_, kinds=kinds, win="beam" if beam else "exit", beam=beam)
    level = Level.from_json(d)
    seqs = _bfs_optimal_sequences(d, limit=20_000)
    assert len(seqs[0]) >= 6
    _compare_sequence_by_sequence(d, level, seqs)
    assert measure(level).optional_twist is (name == "ice optional")
