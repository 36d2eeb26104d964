"""The facts the site's JavaScript needs, defined once here and handed to every page as
data (`<script type="application/json" id="site-data">`), never re-typed in JS:
world gates, the daily pool and its date rule (from the campaign, `lumina.worlds`),
the star rule, the block kinds.
Parity vectors (lumina/vectors.py) hold the JS date rule and star rule to these."""
from __future__ import annotations

import datetime as _dt

from . import model
from .worlds import CAMPAIGN, DAILY_EPOCH, Campaign

# The star rule (docs/RULES-DECISIONS.md). Moves are whole drags; "help" is any use of
# Hint or Solution during the attempt (Undo and Reset are not help). Help caps a win at
# TWO stars: three stars always mean the player found an optimal line unaided.
STAR_RULE = {
    "three_within": 0,   # moves <= par + 0, and no help: three stars
    "two_within": 2,     # moves <= par + 2 (or any par-or-better win with help): two stars
    "help_cap": 2,       # the most stars a helped win can earn
    "one": "any win",    # any other win: one star
}


#: Practice (practice.html): a proven level's set is its mechanic and its tier. A tier is a
#: band of par (the proven fewest moves), lowest first; `None` is no upper bound. The one
#: definition: publish files every practice level by it and the page shows the bands (its
#: #practice-data).
PRACTICE_TIERS = (
    ("easy", 1, 8),
    ("medium", 9, 14),
    ("hard", 15, 21),
    ("expert", 22, None),
)
#: The mechanics practice offers, in the order of a level's label (`Level.mechanics`).
PRACTICE_MECHANICS = ("crystal", "sand", "ice", "rime", "beam")


def practice_tier(par: int) -> str:
    """The tier whose band holds `par`."""
    for name, lo, hi in PRACTICE_TIERS:
        if par >= lo and (hi is None or par <= hi):
            return name
    raise ValueError(f"par {par} is in no practice tier")


def practice_mechanic(label: tuple[str, ...]) -> str:
    """A level's practice set by its label (`Level.mechanics`, e.g. ("ice", "rime")): the
    label's last mechanic, the one it was made to teach (beam over any twist, rime over ice)."""
    return label[-1]


def stars(moves: int, par: int, helped: bool = False) -> int:
    """Stars for a win in `moves` on a level of optimal `par` (the one definition)."""
    if moves <= par + STAR_RULE["three_within"]:
        earned = 3
    elif moves <= par + STAR_RULE["two_within"]:
        earned = 2
    else:
        earned = 1
    return min(earned, STAR_RULE["help_cap"]) if helped else earned


def day_index(day: _dt.date, campaign: Campaign = CAMPAIGN) -> int:
    """The daily-pool index for a calendar date: days since the epoch, modulo the pool."""
    return campaign.daily_index(day)


def site_data(campaign: Campaign = CAMPAIGN) -> dict:
    """The JSON object every page embeds as #site-data."""
    return {
        "gates": {str(n): g for n, g in sorted(campaign.gates.items())},
        "pool": campaign.daily_pool,
        "epoch": DAILY_EPOCH.isoformat(),
        "stars": dict(STAR_RULE),
        "kinds": list(model.KINDS),
    }
