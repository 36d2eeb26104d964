"""Play logs in, evidence about the curve out (docs/PLAYLOG.md).

The site keeps a play log on the player's device (`templates/static/playlog.js`);
a playtester exports it and hands it over. `python -m lumina.playtest LOG...` reads
the logs (`reader`: bounded and strict, one problem line per bad record), replays
every attempt on its level with the real rules (`replay`: a log whose moves are
illegal is reported, not trusted), and writes a report (`report`: JSON and HTML
with SVG charts) of what players met, level by level and measure by measure.
`python -m lumina.playtest simulate` plays levels with a seeded model of a human
solver (`simulate`) and writes logs in the same schema (`schema`).
"""
from __future__ import annotations

from .reader import LogReader, Problem, RawAttempt
from .replay import Book, Played, replay
from .report import Evidence, build, collect, render_html
from .schema import VERSION
from .simulate import Params, simulate

__all__ = ["Book", "Evidence", "LogReader", "Params", "Played", "Problem", "RawAttempt", "VERSION",
           "build", "collect", "render_html", "replay", "simulate"]
