"""The one judge (lumina.judge): family keys, near duplicates, binding, the filters,
tutorials and curves. Every board is drawn as ASCII; its symmetric images are drawn
by transforming the rows here, independently of the judge's own geometry."""
from __future__ import annotations


from lumina.desc import from_grid
from lumina.engine import measure, solve
from lumina.judge import (MAX_DEAD_SHARE, MAX_PLANS, NearIndex, band_reason, binds,
                          campaign_problems, curve_problems, dead_share, family_key,
                          has_twist, judge_level, tutorial_problems)
from lumina.model import Beam, Exit

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


def test_judge_level_reasons():
    from lumina.engine import Measures, Outcome
    rime = lv(RIME, kinds={"R": "rime"})
    m = measure(rime)
    assert m.dead_blocks == (2,)                     # CC never moves: 1 of 2 blockers
    assert judge_level(rime, m, beam=False) == "dead_blocks"
    assert judge_level(rime, m, beam=True) is None   # beam levels allow 67%
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    assert judge_level(sand, measure(sand), beam=False) == "unbound"

    def fake(**kw):
        base = dict(outcome=Outcome.SOLVED, optimal=3, plans=1, plans_capped=False,
                    solutions=1, solutions_capped=False, dead_blocks=(), crystal_optimal=2,
                    first_moves=(), first_moves_optimal=1, first_moves_legal=1,
                    component_states=1, traps=0, chain=3, chain_capped=False, forced=1,
                    optional_twist=False, dead_twists=(), deepest=3)
        return Measures(**{**base, **kw})
    assert judge_level(rime, fake(), beam=False) is None
    assert judge_level(rime, fake(plans=MAX_PLANS), beam=False) is None
    assert judge_level(rime, fake(plans=MAX_PLANS + 1), beam=False) == "plans"
    assert judge_level(rime, fake(plans=1, plans_capped=True), beam=False) == "plans"
    assert judge_level(rime, fake(dead_blocks=(2,)), beam=False) == "dead_blocks"   # 1 of 2
    assert dead_share(rime, (0, 2)) == 0.5 > MAX_DEAD_SHARE                        # key ignored
    assert judge_level(rime, fake(dead_blocks=(2,)), beam=True) is None             # beam: 67%
    # cheapest first: an unbound level is "unbound" whatever its plans
    assert judge_level(rime, fake(crystal_optimal=3, plans=10**6), beam=False) == "unbound"


def test_judge_level_reads_a_pack_analysis():
    from lumina.judge import analysis
    rime = lv(RIME, kinds={"R": "rime"})
    a = analysis(rime, measure(rime))
    assert a.family == family_key(rime) and a.dead_share == 0.5
    assert judge_level(rime.replace(optimal=3), a, beam=True) is None
    assert judge_level(rime.replace(optimal=3), a, beam=False) == "dead_blocks"
    assert judge_level(rime.replace(optimal=2), a, beam=True) == "unbound"


def test_band_reason():
    assert band_reason(0, (3, 5)) == "already_solved"
    assert band_reason(2, (3, 5)) == "under_band"
    assert [band_reason(p, (3, 5)) for p in (3, 4, 5)] == [None] * 3
    assert band_reason(6, (3, 5)) == "over_band"


def test_tutorial_that_teaches_nothing_is_caught():
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    probs = tutorial_problems(sand, measure(sand), "sand")
    assert any("teaches nothing" in p for p in probs), probs
    rime = lv(RIME, kinds={"R": "rime"})
    assert tutorial_problems(rime, measure(rime), "rime") == []
    assert any("no sand block" in p for p in tutorial_problems(rime, measure(rime), "sand"))


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
    assert tutorial_problems(loose, m, "crystal") == ["tutorial has 3 plans (exactly one teaches)"]
    one = lv(["..B.",
              "AAB.",
              "....",
              "...."])
    assert tutorial_problems(one, measure(one), "crystal") == []


def test_beam_tutorial_must_move_the_key_and_turn_the_light():
    # the light already reaches the lantern through the mirror; the key never moves
    lazy = beam_level(["AA.\\",
                       "..C.",
                       "..C.",
                       "...."], "bottom", 3)
    probs = tutorial_problems(lazy, measure(lazy), "beam")
    assert any("key never moves" in p for p in probs), probs
    # the key must slide past a mirrorless column: the light never turns
    straight = beam_level(["....",
                           "....",
                           "AA..",
                           "BB.."], "right", 2)
    m = measure(straight)
    assert any("does not turn" in p for p in tutorial_problems(straight, m, "beam"))
    # the key slides up to the mirror's row; the light turns down to the lantern
    good = beam_level(["...\\",
                       "....",
                       "A...",
                       "A..."], "bottom", 3)
    m = measure(good)
    assert m.optimal and m.plans == 1
    assert tutorial_problems(good, m, "beam") == []


def test_curve_problems():
    assert curve_problems([2, 3, 5, 6, 8, 9, 11, 12], "w1") == []
    dip = curve_problems([4, 8, 5, 9], "w1")
    assert len(dip) == 1 and "dips to 5 after 8" in dip[0]
    assert curve_problems([4, 8, 6, 9], "w1") == []            # a dip of 2 is allowed
    hole = curve_problems([2, 3, 7, 8], "w1")
    assert len(hole) == 1 and "between 3 and 7" in hole[0]
    assert curve_problems([2, 3, 6, 8], "w1") == []            # a hole of 3 is allowed
    early = curve_problems([2, 4, 6, 20, 19, 18, 18, 18, 18, 18], "w1")
    assert any("last 5" in p for p in early), early


def test_campaign_problems():
    def problems(pars):
        return campaign_problems(pars, first_peak=20, final_world=5, final_peak=40)
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
    assert campaign_problems(two, first_peak=5, final_world=2, final_peak=7) == []
    assert any("world 2 does not hold" in p for p in campaign_problems(
        {1: [3, 9], 2: [4, 7]}, first_peak=5, final_world=2, final_peak=7))


def test_screen_returns_the_first_failing_reason_in_the_judges_order():
    """One chain of verdicts: solver, band, duplicates, binding, then the measures."""
    from lumina.judge import REASONS, Seen, screen
    rime = lv(RIME, kinds={"R": "rime"})                  # par 3, crystal 2, CC dead
    assert screen(rime).reason == "dead_blocks"
    v = screen(rime, band=(3, 3))
    assert (v.reason, v.optimal, len(v.moves)) == ("dead_blocks", 3, 3)
    assert v.measures is not None and v.measures.crystal_optimal == 2
    assert screen(rime, band=(4, 9)).reason == "under_band"
    assert screen(rime, band=(1, 9), wanted=lambda par: par != 3).reason == "band_full"
    seen = Seen([rime])
    # a duplicate is turned away before anything is measured, whatever else is wrong
    assert screen(rime, band=(1, 9), seen=seen).reason == "duplicate"
    assert screen(lv(flip_x(RIME), side="left", kinds={"R": "rime"}), seen=seen
                  ).reason == "near_duplicate"
    sand = lv(SAND_LOOSE, kinds={"S": "sand"})
    assert screen(sand, crystal_par=solve(sand).optimal).reason == "unbound"
    walled = lv(["....", "AA#.", "....", "...."], index=1)
    assert screen(walled).reason == "unsolvable"
    assert REASONS.index("duplicate") < REASONS.index("unbound") < REASONS.index("plans")


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
