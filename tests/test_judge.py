"""The one judge (lumina.judge): family keys, near duplicates, binding, the filters,
tutorials and curves. Every board is drawn as ASCII; its symmetric images are drawn
by transforming the rows here, independently of the judge's own geometry."""
from __future__ import annotations

import dataclasses

from lumina.desc import from_grid
from lumina.engine import measure, solve
from lumina.judge import (LEVEL_REASONS, level_problems, MARGIN_FLOOR, MAX_DEAD_SHARE, MAX_PLANS,
                          MIN_CHAIN_SHARE, MIN_CHAIN_SHARE_FROM, NearIndex, band_reason, binds,
                          campaign_problems, curve_problems, dead_share, family_key,
                          has_twist, judge_level, margin_floor, tutorial_problems)
from lumina.model import Beam, Exit

def msgs(problems):
    """The sentences of a list of judge Problems, each with its level when it names one."""
    return [str(p) for p in problems]


# 6x5, exit right of row 1.
BASE = ["......",
        "AAB...",
        "..B.C.",
        "....C.",
        "DD...."]
_SWAP_TILT = str.maketrans("/\\", "\\/")


def lv(rows, side="right", index=1, **kw):
    return from_grid(rows, exit=Exit(side=side, index=index), **kw)


def flip_x(rows):        # mirror left-right: / and \ swap
    return [r[::-1].translate(_SWAP_TILT) for r in rows]


def transpose(rows):     # (x, y) -> (y, x): / and \ keep their tilt
    return ["".join(r[x] for r in rows) for x in range(len(rows[0]))]


def rotate(rows):        # a quarter turn clockwise: / and \ swap
    return ["".join(r[x] for r in reversed(rows)).translate(_SWAP_TILT)
            for x in range(len(rows[0]))]


def test_family_key_same_under_mirror_rotation_transpose_and_translation():
    base = lv(BASE)
    images = {
        "mirror": lv(flip_x(BASE), "left", 1),
        "transpose": lv(transpose(BASE), "bottom", 1),
        "rotate": lv(rotate(BASE), "bottom", 3),        # row 1 of 5 -> column 5-1-1
        "half turn": lv(rotate(rotate(BASE)), "left", 3),
        "shift up": lv(BASE[1:] + ["......"], "right", 0),
    }
    for name, img in images.items():
        assert solve(img).optimal == solve(base).optimal, name     # the fixture is right
        assert family_key(img) == family_key(base), name


def test_family_key_differs_for_one_block_moved():
    moved = ["......",
             "AAB...",
             "..B..C",
             ".....C",
             "DD...."]
    assert family_key(lv(moved)) != family_key(lv(BASE))


def test_family_key_translation_keeps_the_lantern_with_the_board():
    # moving the contents towards the lantern is a different puzzle
    away = ["." + r[:-1] for r in BASE]
    assert family_key(lv(away)) != family_key(lv(BASE))


def test_family_key_ignores_par_id_and_metadata():
    a = lv(BASE)
    b = a.replace(id="other", optimal=solve(a).optimal, name="Named")
    assert family_key(a) == family_key(b)


BEAM = ["AA.\\.",
        ".C...",
        ".C.B.",
        "...B.",
        "....."]


def beam_level(rows, side="bottom", index=3, dir="E"):
    return lv(rows, side, index, beam=Beam(dir=dir, offset=0))


def test_family_key_turns_mirror_tilts_and_beam_with_the_board():
    base = beam_level(BEAM)
    mirrored = beam_level(flip_x(BEAM), "bottom", 1, "W")
    assert solve(mirrored).optimal == solve(base).optimal
    assert family_key(mirrored) == family_key(base)
    transposed = beam_level(transpose(BEAM), "right", 3, "S")
    assert solve(transposed).optimal == solve(base).optimal
    assert family_key(transposed) == family_key(base)
    # the same picture with the tilt left unturned is another puzzle
    untilted = beam_level([r[::-1] for r in BEAM], "bottom", 1, "W")
    assert family_key(untilted) != family_key(base)
    # and so is the same board with the light leaving the key the other way
    assert family_key(beam_level(BEAM, dir="W")) != family_key(base)


def test_near_index_catches_mirrored_and_shifted():
    idx = NearIndex()
    idx.add(lv(BASE), "w1-02")
    shifted_mirror = flip_x(BASE[1:] + ["......"])
    assert idx.find(lv(shifted_mirror, "left", 0)) == "w1-02"


def test_near_index_catches_one_block_moved():
    idx = NearIndex()
    idx.add(lv(BASE), "w1-02")
    moved = ["......",
             "AAB...",
             "..B..C",
             ".....C",
             "DD...."]
    assert idx.find(lv(moved)) == "w1-02"
    # one block moved, and the whole board mirrored and shifted
    assert idx.find(lv(flip_x(moved[1:] + ["......"]), "left", 0)) == "w1-02"


def test_near_index_catches_kind_changed():
    idx = NearIndex()
    idx.add(lv(BASE), "w1-02")
    assert idx.find(lv(BASE, kinds={"C": "sand"})) == "w1-02"


def test_near_index_does_not_flag_a_different_level():
    idx = NearIndex()
    idx.add(lv(BASE), "w1-02")
    two_apart = ["......",
                 "AAB...",
                 "..B..C",
                 ".....C",
                 "...DD."]
    other = ["..B...",
             "AAB.C.",
             "....C.",
             "DD....",
             "...EE."]
    assert idx.find(lv(two_apart)) is None
    assert idx.find(lv(other)) is None
    assert len(idx) == 1


def test_near_index_returns_the_earliest_owner():
    idx = NearIndex()
    idx.add(lv(BASE), "first")
    idx.add(lv(flip_x(BASE), "left", 1), "second")
    assert idx.find(lv(BASE)) == "first"


# Rime binds: crystal slides R down at once (2 moves), real rime waits for the key's
# touch (3 moves).
RIME = ["....",
        "AA.R",
        "...R",
        "CC.."]
# Sand that never binds: its one slide is all the best line needs.
SAND_LOOSE = ["..S.",
              "AAS.",
              "....",
              "...."]


def test_binds():
    rime = lv(RIME, kinds={"R": "rime"})
    m = measure(rime)
    assert (m.optimal, m.crystal_optimal) == (3, 2)
    assert has_twist(rime) and binds(rime, m.crystal_optimal, m.optimal)
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    m = measure(sand)
    assert has_twist(sand) and not binds(sand, m.crystal_optimal, m.optimal)
    crystal = lv(SAND_LOOSE)
    assert not has_twist(crystal) and binds(crystal, None, 2)
    assert not binds(rime, None, 3)          # unknown crystal par proves nothing


# A rime level that passes every rule: par 6, crystal par 4 (margin 2, rime's floor),
# both rime blocks move, every optimal solution moves one, its start is its board's
# deepest, chain 5 of 6; D (block 4) is its one decoy (1 of 4 blockers).
RIME_GOOD = [".....",
             "...EE",
             ".....",
             "AA.BC",
             ".DDBC"]


def rime_good(rows=RIME_GOOD):
    return lv(rows, index=3, kinds={"B": "rime", "C": "rime"})


def fake(**kw):
    """Measures of a par-3 level that passes every rule, with `kw` changed."""
    from lumina.engine import Measures, Outcome
    base = dict(outcome=Outcome.SOLVED, optimal=3, plans=1, plans_capped=False,
                solutions=1, solutions_capped=False, dead_blocks=(), crystal_optimal=1,
                first_moves=(), first_moves_optimal=1, first_moves_legal=1,
                component_states=1, traps=0, chain=3, chain_capped=False, forced=1,
                optional_twist=False, dead_twists=(), deepest=3)
    return Measures(**{**base, **kw})


def test_judge_level_reasons():
    good = rime_good()
    m = measure(good)
    assert (m.optimal, m.crystal_optimal, m.deepest, m.chain, m.dead_blocks) == (6, 4, 6, 5, (4,))
    assert not m.optional_twist and judge_level(good, m) is None
    rime = lv(RIME, kinds={"R": "rime"})
    m = measure(rime)
    assert (m.optimal, m.crystal_optimal, m.dead_blocks) == (3, 2, (2,))
    assert judge_level(rime, m) == "margin"          # rime's floor is 2
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    assert judge_level(sand, measure(sand)) == "unbound"

    assert judge_level(rime, fake()) is None
    assert judge_level(rime, fake(plans=MAX_PLANS)) is None
    assert judge_level(rime, fake(plans=MAX_PLANS + 1)) == "plans"
    assert judge_level(rime, fake(plans=1, plans_capped=True)) == "plans"
    assert judge_level(rime, fake(dead_blocks=(2,))) == "dead_blocks"   # 1 of 2
    assert dead_share(rime, (0, 2)) == 0.5 > MAX_DEAD_SHARE                        # key ignored
    assert judge_level(rime, fake(crystal_optimal=2)) == "margin"
    assert judge_level(rime, fake(crystal_optimal=1), margin=3) == "margin"
    assert judge_level(rime, fake(crystal_optimal=0), margin=3) is None
    assert judge_level(rime, fake(dead_blocks=(1,))) == "dead_twist"    # R
    assert judge_level(rime, fake(optional_twist=True)) == "optional_twist"
    assert judge_level(rime, fake(deepest=4)) == "not_deepest"
    assert judge_level(rime, fake(deepest=None)) == "not_deepest"
    assert judge_level(rime, fake(chain=None)) == "chain"
    # every reason in LEVEL_REASONS order: the first failing one is given
    assert judge_level(rime, fake(crystal_optimal=3, plans=10**6)) == "unbound"
    worst = dict(crystal_optimal=2, dead_blocks=(1, 2), optional_twist=True, deepest=9,
                 chain=None, plans=10**6)
    got = []
    for reason in LEVEL_REASONS[1:]:
        got.append(judge_level(rime, fake(**worst)))
        worst.pop({"margin": "crystal_optimal", "dead_twist": "dead_blocks",
                   "optional_twist": "optional_twist", "not_deepest": "deepest",
                   "chain": "chain", "plans": "plans", "dead_blocks": "dead_blocks"}[reason],
                  None)
        if reason == "dead_twist":
            worst["dead_blocks"] = (2,)
    assert got == list(LEVEL_REASONS[1:])


def test_twists_are_judged_only_on_twist_levels():
    crystal = lv(SAND_LOOSE)                  # the same board, S crystal: no twist
    m = fake(crystal_optimal=None, optional_twist=False)
    assert margin_floor(crystal) == 0 and judge_level(crystal, m) is None
    assert judge_level(crystal, m, margin=5) is None      # no twist, no margin


def test_margin_floor_is_the_strictest_kind_on_the_board():
    assert MARGIN_FLOOR == {"sand": 2, "rime": 2, "ice": 2}
    assert margin_floor(lv(SAND_LOOSE)) == 0
    assert margin_floor(lv(SAND_LOOSE, kinds={"S": "ice"})) == 2
    assert margin_floor(lv(SAND_LOOSE, kinds={"S": "sand"})) == 2
    assert margin_floor(lv(RIME, kinds={"R": "rime", "C": "ice"})) == 2
    ice = lv(RIME, kinds={"R": "ice"})
    assert judge_level(ice, fake(crystal_optimal=1)) is None       # ice: 2 will do
    assert judge_level(ice, fake(crystal_optimal=1), margin=3) == "margin"


def test_ice_only_level_at_margin_1_is_caught():
    """RULES.md "Ice must slide": an ice block that only ever moves one cell is a crystal
    block, so every level whose twists are ice only has margin at least 2."""
    ice = lv(RIME, kinds={"R": "ice"})
    got = level_problems(ice, fake(crystal_optimal=2))          # par 3, crystal par 2
    assert [p.reason for p in got] == ["margin"]
    assert "ice must slide" in got[0].message and "under 2" in got[0].message


# Par 24, chain 13 (0.54) and 14 (0.58) around the floor of 0.55 from par 20; under
# par 20 a short chain is allowed.
def test_chain_floor():
    assert (MIN_CHAIN_SHARE, MIN_CHAIN_SHARE_FROM) == (0.55, 20)
    crystal = lv(SAND_LOOSE)

    def verdict(par, chain):
        return judge_level(crystal, fake(optimal=par, deepest=par, chain=chain,
                                         crystal_optimal=None))
    assert verdict(24, 13) == "chain" and verdict(24, 14) is None
    assert verdict(20, 10) == "chain" and verdict(20, 11) is None          # 11/20 = 0.55
    assert verdict(19, 2) is None                                          # under par 20


def test_judge_level_reads_a_pack_analysis():
    from lumina.judge import analysis
    good = rime_good()
    a = analysis(good, measure(good))
    assert a.family == family_key(good) and a.dead_share == 0.25
    assert judge_level(good.replace(optimal=6), a) is None
    assert judge_level(good.replace(optimal=5), a) == "margin"
    assert judge_level(good.replace(optimal=4), a) == "unbound"
    assert judge_level(good.replace(optimal=6), a, margin=3) == "margin"
    rime = lv(RIME, kinds={"R": "rime"})
    a = analysis(rime, measure(rime))
    assert judge_level(rime.replace(optimal=3), a) == "margin"
    # an analysis without the chain, the deepest or the optional twist fails the rules
    # that need them (no pack is judged by older rules any more)
    old = dataclasses.replace(analysis(good, measure(good)), chain=None, deepest=None,
                              optional_twist=None, forced=None, mechanics=None)
    got = [p.reason for p in level_problems(good.replace(optimal=6), old)]
    assert got == ["optional_twist", "not_deepest", "chain"]


def test_band_reason():
    assert band_reason(0, (3, 5)) == "already_solved"
    assert band_reason(2, (3, 5)) == "under_band"
    assert [band_reason(p, (3, 5)) for p in (3, 4, 5)] == [None] * 3
    assert band_reason(6, (3, 5)) == "over_band"


def test_tutorial_that_teaches_nothing_is_caught():
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    probs = msgs(tutorial_problems(sand, measure(sand), "sand"))
    assert any("teaches nothing" in p for p in probs), probs
    rime = lv(RIME_TUTORIAL, "top", 2, kinds={"B": "rime"})
    assert tutorial_problems(rime, measure(rime), "rime") == []
    assert any("no sand block" in p for p in msgs(tutorial_problems(rime, measure(rime), "sand")))


# A tiny rime tutorial (4 blocks): one plan, par 6 against crystal par 4, its board's
# deepest start (found by tests/fixtures/find_tutorials.py).
RIME_TUTORIAL = [".DCC",
                 ".DA.",
                 ".DA.",
                 "BB.."]
# Ten blocks: too big to teach, whatever else it does right (w4-12 of lumina-gen/3).
RIME_BIG = ["H.DD..",
            "H#.EI.",
            "CCCEI.",
            "JJABBG",
            "..AFFG"]


def test_tutorial_must_be_tiny():
    big = lv(RIME_BIG, "top", 2, kinds={"D": "rime"})
    m = measure(big)
    assert (m.plans, m.optimal, m.crystal_optimal, m.deepest) == (1, 10, 7, 10)
    assert [(p.reason, p.message) for p in tutorial_problems(big, m, "rime")] == [
        ("tutorial_size", "tutorial has 10 blocks (at most 6 with the key)")]


def test_tutorial_must_start_deepest_and_meet_its_margin_floor():
    thin = lv(RIME, kinds={"R": "rime"})                  # one plan, but binds by one move
    m = measure(thin)
    assert (m.plans, m.optimal, m.crystal_optimal) == (1, 3, 2)
    assert msgs(tutorial_problems(thin, m, "rime")) == [
        "tutorial does not start at its board's deepest: par 3, the board's deepest 4",
        "rime tutorial's twist margin 1 is under 2"]
    good = lv(RIME_TUTORIAL, "top", 2, kinds={"B": "rime"})
    m = measure(good)
    assert msgs(tutorial_problems(good, dataclasses.replace(m, deepest=7), "rime")) == [
        "tutorial does not start at its board's deepest: par 6, the board's deepest 7"]


def test_tutorial_that_can_skip_its_mechanic_is_caught():
    """Every optimal solution must show the mechanic: here the ice block can only ever
    be nudged one cell (an ice tutorial that teaches nothing, the article's lesson)."""
    from lumina.judge import skips_mechanic
    nudge = lv(RIME, kinds={"R": "ice"})
    assert skips_mechanic(nudge, "ice") is True
    assert "tutorial_skips" in [p.reason for p in tutorial_problems(nudge, measure(nudge), "ice")]
    # two ice blocks, par 7 against crystal par 5: every optimal line slides one of
    # them at least two cells
    slides = lv(["..C...",
                 "AAC...",
                 "..C...",
                 "...B.D",
                 "EEEB.D"], kinds={"B": "ice", "D": "ice"})
    assert skips_mechanic(slides, "ice") is False
    assert tutorial_problems(slides, measure(slides), "ice") == []
    # the same board read as a sand tutorial: no sand block, and nothing is spent
    probs = tutorial_problems(slides, measure(slides), "sand")
    assert {"tutorial_mechanic", "tutorial_skips"} <= {p.reason for p in probs}


def test_tutorial_harder_than_its_next_level_is_caught():
    from lumina.judge import analysis
    good = lv(RIME_TUTORIAL, "top", 2, kinds={"B": "rime"}).replace(id="w4-01", tutorial=True)
    m = measure(good)
    after = []
    for n, rows in enumerate((RIME_GOOD, RIME), 2):      # pars 6 and 3
        nxt = rime_good(rows) if rows is RIME_GOOD else lv(rows, kinds={"R": "rime"})
        mm = measure(nxt)
        after.append(nxt.replace(id=f"w4-{n:02d}", optimal=mm.optimal,
                                 analysis=analysis(nxt, mm)))
    assert after[0].optimal == 6 and after[1].optimal == 3
    probs = [p for p in tutorial_problems(good, m, "rime", after)
             if p.reason == "tutorial_harder"]
    assert probs and probs[0].message.startswith("tutorial's par 6 is above the par of w4-03")
    assert not [p for p in tutorial_problems(good, m, "rime", after[:1])
                if p.message.startswith("tutorial's par")]
    # felt effort counts too: a next level that feels easier than the tutorial
    easy = dataclasses.replace(after[0].analysis, effort=0.5)
    felt_probs = [p.message for p in tutorial_problems(
        good, m, "rime", [after[0].replace(analysis=easy)]) if p.reason == "tutorial_harder"]
    assert felt_probs and "felt effort" in felt_probs[0] and "w4-02's 0.5" in felt_probs[0]


def test_tutorial_with_two_plans_is_caught():
    # B may clear the lane upward or downward: several plans, none taught
    loose = lv(["....",
                "....",
                "AAB.",
                "..B.",
                "....",
                "...."], "right", 2)
    m = measure(loose)
    assert m.plans == 3
    assert msgs(tutorial_problems(loose, m, "crystal")) == ["tutorial has 3 plans (exactly one teaches)"]
    one = lv(["..B.",
              "AAB.",
              "....",
              "...."])
    assert msgs(tutorial_problems(one, measure(one), "crystal")) == []


def test_beam_tutorial_must_move_the_key_and_turn_the_light():
    # the light already reaches the lantern through the mirror; the key never moves
    lazy = beam_level(["AA.\\",
                       "..C.",
                       "..C.",
                       "...."], "bottom", 3)
    probs = msgs(tutorial_problems(lazy, measure(lazy), "beam"))
    assert any("key never moves" in p for p in probs), probs
    # the key must slide past a mirrorless column: the light never turns
    straight = beam_level(["....",
                           "....",
                           "AA..",
                           "BB.."], "right", 2)
    m = measure(straight)
    assert any("the winning light must turn at a mirror" in p
               for p in msgs(tutorial_problems(straight, m, "beam")))
    # the key slides up to the mirror's row; the light turns down to the lantern
    good = beam_level(["...\\",
                       "....",
                       "A...",
                       "A..."], "bottom", 3)
    m = measure(good)
    assert m.optimal and m.plans == 1
    assert msgs(tutorial_problems(good, m, "beam")) == []


def test_curve_problems():
    assert msgs(curve_problems([2, 3, 5, 6, 8, 9, 11, 12], "w1")) == []
    dip = msgs(curve_problems([4, 8, 5, 9], "w1"))
    assert len(dip) == 1 and "dips to 5 after 8" in dip[0]
    assert msgs(curve_problems([4, 8, 6, 9], "w1")) == []            # a dip of 2 is allowed
    hole = msgs(curve_problems([2, 3, 7, 8], "w1"))
    assert len(hole) == 1 and "between 3 and 7" in hole[0]
    assert msgs(curve_problems([2, 3, 6, 8], "w1")) == []            # a hole of 3 is allowed
    early = msgs(curve_problems([2, 4, 6, 20, 19, 18, 18, 18, 18, 18], "w1"))
    assert any("last 5" in p for p in early), early


def test_campaign_problems():
    def problems(pars):
        return msgs(campaign_problems(pars, first_peak=20, final_world=5, final_peak=40))
    good = {1: [5, 20], 2: [6, 25], 3: [8, 30], 4: [9, 35], 5: [10, 44]}
    assert problems(good) == []
    assert any("world 1's hardest" in p for p in problems({**good, 1: [5, 19]}))
    flat = problems({**good, 3: [8, 25]})
    assert any("world 3's hardest" in p and "world 2's" in p for p in flat)
    assert any("at least 40" in p for p in problems({**good, 5: [10, 39]}))
    # a subset of worlds is judged on what it holds
    assert problems({2: [6, 25], 3: [8, 30]}) == []
    # the campaign's last world holds the hardest, whichever number it has
    two = {1: [3, 5], 2: [4, 7]}
    assert msgs(campaign_problems(two, first_peak=5, final_world=2, final_peak=7)) == []
    assert any("world 2 does not hold" in p for p in msgs(campaign_problems(
        {1: [3, 9], 2: [4, 7]}, first_peak=5, final_world=2, final_peak=7)))


# RIME_GOOD with its decoy D moved and a second decoy F added: two blocks apart on the
# whole board, the same live blocks (E, the key, both rime blocks).
RIME_GOOD_DECOYS = ["FF...",
                    "...EE",
                    ".....",
                    "AA.BC",
                    "DD.BC"]


def test_screen_returns_the_first_failing_reason_in_the_judges_order():
    """One chain of verdicts: solver, band, duplicates, binding and margin, the
    measures, near duplicates on the live blocks, then the measured verdicts."""
    from lumina.judge import REASONS, Seen, screen
    good = rime_good()                                    # par 6, crystal 4
    v = screen(good, band=(6, 6))
    assert (v.reason, v.optimal, len(v.moves)) == (None, 6, 6)
    assert v.measures is not None and v.measures.crystal_optimal == 4
    assert screen(good, margin=3).reason == "margin"      # a bucket's own least margin
    rime = lv(RIME, kinds={"R": "rime"})                  # par 3, crystal 2: margin 1
    assert screen(rime).reason == "margin"
    assert screen(rime, band=(4, 9)).reason == "under_band"
    assert screen(rime, band=(1, 9), wanted=lambda par: par != 3).reason == "band_full"
    seen = Seen([rime])
    # a duplicate is turned away before anything is measured, whatever else is wrong
    assert screen(rime, band=(1, 9), seen=seen).reason == "duplicate"
    assert screen(lv(flip_x(RIME), side="left", kinds={"R": "rime"}), seen=seen
                  ).reason == "near_duplicate"
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    assert screen(sand, crystal_par=solve(sand).optimal).reason == "unbound"
    # the sweep's crystal par rules on the margin before anything is measured
    v = screen(good, crystal_par=5)
    assert (v.reason, v.measures) == ("margin", None)
    assert screen(good, crystal_par=4, margin=3).reason == "margin"
    walled = lv(["....", "AA#.", "....", "...."], index=1)
    assert screen(walled).reason == "unsolvable"
    assert REASONS.index("duplicate") < REASONS.index("unbound") < REASONS.index("plans")


def test_screen_turns_away_a_near_duplicate_that_differs_only_in_decoys():
    from lumina.judge import Seen, analysis, screen
    good = rime_good()
    decoyed = rime_good(RIME_GOOD_DECOYS)
    m = measure(decoyed)
    assert m.dead_blocks == (0, 5) and judge_level(decoyed, m) is None
    assert screen(decoyed).reason is None                 # a good level on its own
    seen = Seen([good.replace(analysis=analysis(good, measure(good)))])   # D a decoy
    assert seen.find_board(decoyed) is None               # two blocks apart in full
    v = screen(decoyed, seen=seen)
    assert v.reason == "near_duplicate" and v.measures is not None     # found after measuring
    assert Seen([decoyed]).find(good) is None             # neither level's decoys known
    assert Seen([decoyed]).find(good, dead=(4,)) is None  # decoyed's own decoys unknown
    seen = Seen()
    seen.add(decoyed, "first", dead=m.dead_blocks)
    hit = seen.find(good, dead=(4,))
    assert (hit.reason, hit.owner, hit.same, hit.live) == ("near_duplicate", "first", False, True)


def test_a_block_dead_in_one_level_and_live_in_the_other_is_a_difference():
    """docs/RULES-DECISIONS.md 36: decoys are each level's own."""
    from lumina.judge import Seen
    good = rime_good()                                    # D (block 4) dead
    # E moved a cell right and D moved a cell left: two blocks apart in full
    other = rime_good([".....",
                       "....E",
                       "....E",
                       "AA.BC",
                       "DD.BC"])
    seen = Seen()
    seen.add(good, "good", dead=(4,))
    assert seen.find(other, dead=()) is None              # D live here: E and D differ
    assert seen.find(other, dead=(4,)).owner == "good"    # D a decoy in both: only E
    # the key is never a decoy
    assert seen.find(other, dead=(1, 4)).owner == "good"


def test_seen_tells_an_exact_copy_from_a_symmetric_one_and_a_near_one():
    from lumina.judge import Seen
    base = lv(BASE)
    seen = Seen([base])
    assert len(seen) == 1
    hit = seen.find(base.replace(id="copy"))
    assert (hit.reason, hit.owner, hit.same) == ("duplicate", base.id, True)
    hit = seen.find(lv(flip_x(BASE), side="left"))
    assert (hit.reason, hit.same) == ("near_duplicate", True)
    moved = ["......", "AAB...", "..B...", "....C.", "DD..C."]
    hit = seen.find(lv(moved))
    assert (hit.reason, hit.same) == ("near_duplicate", False)
    assert seen.find(lv(["......", "AA.B..", "...B..", "..C...", "..C.DD"])) is None


def test_world_margin_problems():
    from lumina.judge import world_margin_problems
    assert msgs(world_margin_problems([2, 3, 4, 5, 6, 6, 6, 6, 6], median=4, last=6, label="w4")) == []
    assert msgs(world_margin_problems([2, 2, 3, 6, 6, 6, 6, 6], median=4, last=6, label="w4")) == []
    low = msgs(world_margin_problems([2, 2, 2, 3, 3, 6, 6], median=4, last=6, label="w4"))
    assert low == ["w4: twist margin median 3 is under 4",
                   "w4: twist margins of the last 5 levels 2 3 3 6 6: 3 under 6"]
    assert msgs(world_margin_problems([1, 2, 2, 3], median=2, last=0, label="w3")) == []  # median 2
    assert msgs(world_margin_problems([1, 2, 2, 2], median=3, last=0, label="w3")) == [
        "w3: twist margin median 2 is under 3"]
    assert msgs(world_margin_problems([1, 2], median=2, last=0, label="w3")) == [
        "w3: twist margin median 1.5 is under 2"]
    assert msgs(world_margin_problems([1, 1], median=0, last=0, label="w3")) == []    # no targets
    assert msgs(world_margin_problems([], median=4, last=6, label="w3")) == []


def test_labels_tell_the_truth():
    from lumina.judge import analysis, label_problems, world_label_problems
    both = rime_good().replace(id="w4-16")
    both = both.replace(blocks=tuple(b if i != 0 else dataclasses.replace(b, kind="ice")
                                     for i, b in enumerate(both.blocks)))
    assert both.mechanics == ("ice", "rime")
    a = analysis(both, measure(both))
    assert msgs(label_problems(both.replace(analysis=a))) == []
    wrong = dataclasses.replace(a, mechanics=("rime",))
    assert msgs(label_problems(both.replace(analysis=wrong))) == [
        "w4-16: label rime is not the board's: ice, rime"]
    assert msgs(label_problems(both)) == []                                   # nothing recorded
    assert msgs(label_problems(both.replace(analysis=dataclasses.replace(a, mechanics=None)))) == []
    beam = beam_level(BEAM).replace(id="w5-02")
    crystal = lv(BASE).replace(id="w5-30")
    assert msgs(world_label_problems("beam", [beam, crystal])) == [
        "w5-30: a beam world's level, but its board is crystal"]
    assert msgs(world_label_problems("rime", [both])) == []
    assert msgs(world_label_problems("ice", [both])) == []
    assert msgs(world_label_problems("crystal", [crystal, both.replace(id="w1-02")])) == [
        "w1-02: a crystal world's level, but its board is ice, rime"]


def test_17_plans_at_par_20_is_caught():
    """RULES.md "Felt difficulty": at par 20 and above, at most 16 plans."""
    from lumina.judge import DEEP_MAX_PLANS, DEEP_PLANS_FROM, max_plans
    assert (DEEP_MAX_PLANS, DEEP_PLANS_FROM) == (16, 20)
    crystal = lv(SAND_LOOSE)

    def problems(par, plans):
        return level_problems(crystal, fake(optimal=par, deepest=par, chain=par, plans=plans,
                                            crystal_optimal=None))
    got = problems(20, 17)
    assert [p.reason for p in got] == ["plans"]
    assert got[0].message == "17 plans (at most 16 from par 20: past that, any route works)"
    assert problems(20, 16) == []
    assert problems(19, 17) == [] and problems(19, MAX_PLANS) == []   # under par 20: 40
    assert max_plans(False, 30) == max_plans(True, 20) == 16 and max_plans(False, 19) == 40


# BASE re-skinned: two blocks moved (C one column right, D to the bottom right), one
# block's kind changed, the whole board mirrored; kinds do not count.
RESKIN = ["......",
          "AAB...",
          "..B..C",
          ".....C",
          "....DD"]


def test_two_block_reskin_is_caught():
    from lumina.judge import Seen, reskin_keys
    base = lv(BASE).replace(id="w2-01", optimal=5)
    two = lv(flip_x(RESKIN), "left", 1, kinds={"B": "sand"}).replace(id="w2-04", optimal=5)
    seen = Seen([base])
    assert seen.find_board(two) is None                 # not a near duplicate: two apart
    hit = seen.find_reskin(two)
    assert hit is not None and (hit.reason, hit.owner) == ("reskin", "w2-01")
    got = level_problems(two, fake(optimal=5, deepest=5, chain=5, crystal_optimal=3),
                         seen=seen)
    assert [p.reason for p in got] == ["reskin"]
    assert got[0].message.startswith("a re-skin of w2-01: the same par 5")
    # another par is another puzzle; three blocks apart is another board
    assert seen.find_reskin(two.replace(optimal=6)) is None
    three = ["..EE..",
             "AAB...",
             "..B..C",
             ".....C",
             "....DD"]
    assert seen.find_reskin(lv(three).replace(optimal=5)) is None
    assert reskin_keys(lv(BASE)) & reskin_keys(lv(RESKIN))


def test_reskin_across_packs_is_a_failure_of_the_later_level():
    from lumina.judge import repeat_problems
    tut = lv(BASE).replace(id="w2-01", optimal=5, tutorial=True)
    first = lv(RESKIN).replace(id="w3-07", optimal=5)
    again = lv(flip_x(RESKIN), "left", 1, kinds={"C": "ice"}).replace(id="d-001", optimal=5)
    got = repeat_problems([tut, first, again])
    assert [(p.level, p.reason) for p in got] == [("w3-07", "reskin"), ("d-001", "near_duplicate")]
    # the practice pack is judged against the others, never against its own levels
    p1 = lv(other := [".C..", ".C..", "AA..", "DD.."], index=2).replace(id="p-1", optimal=9)
    p2 = lv(other, index=2).replace(id="p-2", optimal=9)
    assert repeat_problems([tut], against=[p1, p2]) == []
    assert [p.level for p in repeat_problems([tut], against=[first])] == ["w3-07"]


def test_spearman():
    from lumina.judge import spearman
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    assert abs(spearman([1, 2, 3, 4, 5], [1, 3, 2, 5, 4]) - 0.8) < 1e-9
    assert spearman([1, 2, 3], [5, 5, 5]) == 1.0                    # nothing to rank


def test_world_whose_felt_effort_spikes_is_caught():
    from lumina.judge import effort_problems
    ids = [f"w3-{n:02d}" for n in range(2, 14)]
    rising = [10, 12, 15, 16, 20, 24, 25, 30, 33, 40, 41, 50]
    assert effort_problems(ids, rising, "world 3") == []
    spike = rising[:]
    spike[2] = 60                       # w3-04: 60 against a median of 24 after it
    got = [p for p in effort_problems(ids, spike, "world 3") if p.level is not None]
    assert [(p.reason, p.level) for p in got] == [("effort_spike", "w3-04")]
    assert got[0].message == "felt effort 60 is more than 2x the median 24 of the 5 level(s) after it"
    drop = rising[:]
    drop[8] = 9                         # w3-10: 9 against a median of 20 before it
    got = effort_problems(ids, drop, "world 3")
    assert ("effort_drop", "w3-10") in [(p.reason, p.level) for p in got]
    shuffled = [50, 41, 40, 33, 30, 25, 24, 20, 16, 15, 12, 10]
    assert "effort_rank" in [p.reason for p in effort_problems(ids, shuffled, "world 3")]


def test_world_problems_reads_recorded_effort():
    from types import SimpleNamespace
    from lumina.judge import analysis, world_problems
    tut = lv(["..B.", "AAB.", "....", "...."]).replace(id="w1-01", tutorial=True)
    levels = [tut]
    for n, rows in enumerate((BASE, RESKIN), 2):
        x = lv(rows)
        m = measure(x)
        levels.append(x.replace(id=f"w1-{n:02d}", optimal=m.optimal, analysis=analysis(x, m)))
    world = SimpleNamespace(number=1, name="W", mechanic="crystal", levels=3,
                            margin_median=0, margin_last=0)
    base = [p.reason for p in world_problems(world, levels)]
    assert "effort_missing" not in base
    bare = levels[:2] + [levels[2].replace(analysis=None)]
    assert "effort_missing" in [p.reason for p in world_problems(world, bare)]
    got = world_problems(world, levels, felt=[100.0, 10.0])
    assert ("effort_spike", "w1-02") in [(p.reason, p.level) for p in got]


def test_least_text_is_the_least_of_the_eight_images_texts():
    """The keys (family, near, re-skin) take the least of a board's eight images' texts,
    making whole texts only for the images whose start (grid, lantern, beam) could lead
    to it: the same key as making all eight, on committed levels of every kind, whole and
    without each block, kinds kept and ignored."""
    from pathlib import Path
    from lumina import judge
    from lumina.packfile import read_pack
    packs = Path(__file__).resolve().parents[1] / "packs"
    levels = [lv for name in ("world-1", "world-2", "world-3", "world-4", "world-5", "dailies")
              for lv in read_pack(packs / f"{name}.json").levels][::3]
    checked = 0
    for lv in levels:
        for blind in (False, True):
            imgs = judge._texters(lv, blind)
            for d in [frozenset()] + [frozenset({i}) for i in range(len(lv.blocks))]:
                assert judge._least_text(imgs, d) == min(t.text(d) for t in imgs), (lv.id, blind, d)
                checked += 1
    assert checked > 1000
