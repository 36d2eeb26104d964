"""Stand-ins for the compiled kernels on a checkout whose engine is not built.

Reading needs no compiler: the model, the desc and pack readers, the campaign and the
verifier's reading all work before `python setup.py build_ext --inplace` has run. The
first thing that solves (builds a `Board`, or calls a kernel) raises `EngineMissing`,
one line naming the fix; there is still no pure-Python fallback.
"""
from __future__ import annotations

from typing import Any, NoReturn

from lumina.errors import LuminaError

FIX = ("the compiled engine is not built: run `python setup.py build_ext --inplace` in the "
       "project folder (or `pip install -e .`)")


class EngineMissing(LuminaError):
    """Solving was asked of a checkout whose engine is not compiled."""


def missing(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise EngineMissing(FIX)


class Board:
    """No level is a compiled board here (`isinstance` is False); making one says what to do."""

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        missing()


class Kernels:
    """A compiled module's stand-in: every kernel it would hold raises EngineMissing."""

    def __getattr__(self, _name: str) -> NoReturn:
        missing()


backward_sweep = goal_sweep = missing
