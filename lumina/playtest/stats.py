"""The two statistics the report needs: medians and Spearman's rank correlation.

`spearman(xs, ys)` ranks each column (tied values share the average of the ranks
they span) and takes Pearson's correlation of the ranks (`statistics.correlation`).
It answers with a `Correlation`: `rho` is None, and `note` says why, when fewer
than MIN_LEVELS pairs exist or a column is constant (a measure every level shares
predicts nothing, and the formula would divide by zero).

    values  10  20  20  40        ranks  1  2.5  2.5  4
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Sequence

from lumina.judge import ranks     # the one rank rule (ties share their mean rank)

MIN_LEVELS = 3


@dataclass(frozen=True, kw_only=True)
class Correlation:
    rho: float | None              # rounded to 3 places; None when undefined
    n: int                         # pairs used
    note: str                      # "" or why rho is None


def spearman(xs: Sequence[float], ys: Sequence[float]) -> Correlation:
    """Spearman's rho of paired columns (see the module docstring)."""
    if len(xs) != len(ys):
        raise ValueError("columns of different lengths")
    n = len(xs)
    if n < MIN_LEVELS:
        return Correlation(rho=None, n=n, note=f"too few levels ({n}; at least {MIN_LEVELS})")
    for name, col in (("measure", xs), ("observed value", ys)):
        if len(set(col)) == 1:
            return Correlation(rho=None, n=n, note=f"the {name} is the same on every level")
    rho = statistics.correlation(ranks(xs), ranks(ys))
    return Correlation(rho=round(rho, 3) + 0.0, n=n, note="")


def median(xs: Sequence[float]) -> float | None:
    """The median, or None for no values."""
    return statistics.median(xs) if xs else None
