"""SVG charts for the site: difficulty curves and move histograms.

Each function returns one `<svg>` element as a string, meant to be inlined in a
page (so the site's CSS styles it through the `chart-*` classes and the
colour scheme follows the page). Every chart has a `<title>` and `<desc>`,
axis labels in text, and value labels on the marks, and distinguishes series by
marker shape as well as colour, so it reads without colour.

Legible: tick labels are spaced by the room they need (`tick_every`), and a value
label that would overlap one already placed moves below its mark, or is left to the
mark's tooltip (`place_labels`); tests hold every chart to no overlapping labels.

Determinism: coordinates are rounded to one decimal and written with a fixed
format; inputs are iterated in sorted order.

    optimal
      7 |                 o          curve_svg: one world, x = level number,
      4 |         o   o              y = optimal moves, the tutorial drawn as
      2 | <>  o                      a diamond, every point labelled
        +---------------------
          1   2   3   4   5  level
"""
from __future__ import annotations

import math
from html import escape
from typing import Iterable, Sequence

MARKERS = ("circle", "square", "triangle", "diamond", "star")


def _f(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def marker(shape: str, x: float, y: float, r: float = 4.5, cls: str = "") -> str:
    """One marker of a given shape centred at (x, y)."""
    c = f' class="{cls}"' if cls else ""
    if shape == "circle":
        return f'<circle{c} cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}"/>'
    if shape == "square":
        return f'<rect{c} x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}"/>'
    if shape == "triangle":
        pts = [(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    elif shape == "diamond":
        pts = [(x, y - r * 1.3), (x + r * 1.1, y), (x, y + r * 1.3), (x - r * 1.1, y)]
    else:  # star (a plus-like four point star)
        k = r * 0.45
        pts = [(x, y - r * 1.4), (x + k, y - k), (x + r * 1.4, y), (x + k, y + k),
               (x, y + r * 1.4), (x - k, y + k), (x - r * 1.4, y), (x - k, y - k)]
    return f'<polygon{c} points="{" ".join(f"{_f(a)},{_f(b)}" for a, b in pts)}"/>'


def _nice_max(v: int) -> int:
    for step in (2, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100):
        if v <= step:
            return step
    return ((v + 49) // 50) * 50


#: Room one label needs along the x axis, in chart units (two digits at 12 px and a gap).
LABEL_ROOM = 24


def tick_every(n: int, span: float, room: float = LABEL_ROOM) -> int:
    """Label every k-th of `n` evenly spaced marks over `span` units so labels never touch."""
    for k in (1, 2, 5, 10, 20, 50, 100):
        if span * k / max(n, 1) >= room:
            return k
    return 100


def text_box(x: float, y: float, text: str, size: float = 12) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a middle-anchored label: about 0.6 em a character, baseline at y."""
    w = 0.6 * size * len(text) + 2
    return x - w / 2, y - size, x + w / 2, y + 2


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(marks: Sequence[tuple[float, float, str]], gap: float = 9,
                 below: bool = True) -> list[tuple[float, float] | None]:
    """For each (x, y, text) mark, where its label goes: above the mark, else (with `below`)
    below it, else None (left to the mark's tooltip), so that no two labels overlap."""
    placed: list[tuple[float, ...]] = []
    out: list[tuple[float, float] | None] = []
    for x, y, text in marks:
        for ly in (y - gap, y + gap + 12) if below else (y - gap,):
            box = text_box(x, ly, text)
            if not any(_overlap(box, p) for p in placed):
                placed.append(box)
                out.append((x, ly))
                break
        else:
            out.append(None)
    return out


def _ticks(top: int) -> list[int]:
    step = 1 if top <= 6 else 2 if top <= 12 else 5 if top <= 30 else 10 if top <= 60 else 20
    return list(range(0, top + 1, step))


def _frame(title: str, desc: str, width: int, height: int, body: list[str], cls: str) -> str:
    return (f'<svg class="chart {cls}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" xmlns="http://www.w3.org/2000/svg">'
            f'<title>{escape(title)}</title><desc>{escape(desc)}</desc>' + "".join(body) + "</svg>")


def _axes(left: int, top: int, pw: float, ph: float, ymax: int, ylabel: str, xlabel: str) -> list[str]:
    out = []
    for t in _ticks(ymax):
        y = top + ph - ph * t / ymax
        out.append(f'<line class="chart-grid" x1="{left}" y1="{_f(y)}" x2="{_f(left + pw)}" y2="{_f(y)}"/>')
        out.append(f'<text class="chart-tick" x="{left - 6}" y="{_f(y + 4)}" text-anchor="end">{t}</text>')
    out.append(f'<line class="chart-axis" x1="{left}" y1="{top}" x2="{left}" y2="{_f(top + ph)}"/>')
    out.append(f'<line class="chart-axis" x1="{left}" y1="{_f(top + ph)}" x2="{_f(left + pw)}" y2="{_f(top + ph)}"/>')
    out.append(f'<text class="chart-label" x="12" y="{_f(top + ph / 2)}" text-anchor="middle" '
               f'transform="rotate(-90 12 {_f(top + ph / 2)})">{escape(ylabel)}</text>')
    out.append(f'<text class="chart-label" x="{_f(left + pw / 2)}" y="{_f(top + ph + 34)}" '
               f'text-anchor="middle">{escape(xlabel)}</text>')
    return out


def curve_svg(points: Sequence[tuple[int, int, bool]], *, title: str, width: int = 960,
              height: int = 260, shape: str = "circle", ids: Sequence[str] = ()) -> str:
    """A world's difficulty curve: `points` are (level number, optimal, tutorial). With `ids`
    (the levels' ids), a row under the level numbers holds each level's stars
    (`<text class="chart-stars" data-stars-for=ID>`, filled by the page from the player's
    progress)."""
    left, top, right, bottom = 44, 22, 14, 44 + (16 if ids else 0)
    pw, ph = width - left - right, height - top - bottom
    ymax = _nice_max(max([p[1] for p in points] + [1]))
    n = max(len(points), 1)
    xs = lambda i: left + pw * (i + 0.5) / n  # noqa: E731
    ys = lambda v: top + ph - ph * v / ymax  # noqa: E731
    body = _axes(left, top, pw, ph, ymax, "optimal moves", "level")
    if ids:   # the x axis label goes below the stars row
        body[-1] = body[-1].replace(f'y="{_f(top + ph + 34)}"', f'y="{_f(top + ph + 50)}"')
    path = " ".join(f"{'M' if i == 0 else 'L'}{_f(xs(i))},{_f(ys(p[1]))}" for i, p in enumerate(points))
    if path:
        body.append(f'<path class="chart-line" d="{path}"/>')
    every = tick_every(n, pw)
    labels = place_labels([(xs(i), ys(opt), str(opt)) for i, (_, opt, _) in enumerate(points)])
    for i, ((num, opt, tut), at) in enumerate(zip(points, labels)):
        x, y = xs(i), ys(opt)
        body.append(f'<g class="chart-point"><title>level {num}: {opt} moves'
                    f'{" (tutorial)" if tut else ""}</title>'
                    + marker("diamond" if tut else shape, x, y, cls="chart-mark-alt" if tut else "chart-mark")
                    + "</g>")
        if at:
            body.append(f'<text class="chart-value" x="{_f(at[0])}" y="{_f(at[1])}" text-anchor="middle">{opt}</text>')
        if i % every == 0:
            body.append(f'<text class="chart-tick" x="{_f(x)}" y="{_f(top + ph + 16)}" '
                        f'text-anchor="middle">{num}</text>')
        if ids:
            body.append(f'<text class="chart-stars" x="{_f(x)}" y="{_f(top + ph + 31)}" text-anchor="middle" '
                        f'data-stars-for="{escape(ids[i])}"></text>')
    desc = "Optimal moves per level: " + ", ".join(f"{num}: {opt}" for num, opt, _ in points)
    return _frame(title, desc, width, height, body, "chart-curve")


def histogram_svg(counts: dict[int, int], *, title: str, uid: str = "h", width: int = 560,
                  height: int = 220) -> str:
    """How many levels need each number of moves; bars hatched and labelled with their count.
    `uid` makes the hatch pattern's id unique when several histograms share a page."""
    left, top, right, bottom = 44, 18, 14, 44
    pw, ph = width - left - right, height - top - bottom
    if counts:
        lo, hi = min(counts), max(counts)
    else:
        lo, hi = 0, 0
    keys = list(range(lo, hi + 1))
    ymax = _nice_max(max(list(counts.values()) + [1]))
    n = max(len(keys), 1)
    bw = pw / n
    body = [f'<defs><pattern id="hatch-{uid}" width="6" height="6" '
            f'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            f'<line class="chart-hatch" x1="0" y1="0" x2="0" y2="6"/></pattern></defs>']
    body += _axes(left, top, pw, ph, ymax, "levels", "optimal moves")
    every = tick_every(n, pw)
    bars = [(i, k) for i, k in enumerate(keys) if counts.get(k, 0)]
    labels = dict(zip((i for i, _ in bars), place_labels(
        [(left + (i + 0.5) * bw, top + ph - ph * counts[k] / ymax, str(counts[k])) for i, k in bars], gap=5, below=False)))
    for i, k in enumerate(keys):
        v = counts.get(k, 0)
        x = left + i * bw + bw * 0.12
        h = ph * v / ymax
        y = top + ph - h
        if v:
            body.append(f'<g class="chart-bar"><title>{k} moves: {v} levels</title>'
                        f'<rect class="chart-bar-fill" x="{_f(x)}" y="{_f(y)}" width="{_f(bw * 0.76)}" '
                        f'height="{_f(h)}"/><rect class="chart-bar-hatch" x="{_f(x)}" y="{_f(y)}" '
                        f'width="{_f(bw * 0.76)}" height="{_f(h)}" fill="url(#hatch-{uid})"/></g>')
            if labels[i]:
                body.append(f'<text class="chart-value" x="{_f(x + bw * 0.38)}" y="{_f(y - 5)}" '
                            f'text-anchor="middle">{v}</text>')
        if i % every == 0:
            body.append(f'<text class="chart-tick" x="{_f(x + bw * 0.38)}" y="{_f(top + ph + 16)}" '
                        f'text-anchor="middle">{k}</text>')
    desc = "Levels by optimal moves: " + ", ".join(f"{k}: {counts[k]}" for k in sorted(counts))
    return _frame(title, desc, width, height, body, "chart-hist")


def campaign_svg(worlds: Iterable[tuple[str, Sequence[int]]], *, title: str,
                 width: int = 720, height: int = 260) -> str:
    """The whole campaign: every level's optimal in play order, a marker shape per world,
    world names written above their stretch and separated by dashed lines."""
    worlds = list(worlds)
    left, top, right, bottom = 44, 30, 14, 44
    pw, ph = width - left - right, height - top - bottom
    total = max(sum(len(v) for _, v in worlds), 1)
    ymax = _nice_max(max([o for _, v in worlds for o in v] + [1]))
    body = _axes(left, top, pw, ph, ymax, "optimal moves", "level in play order")
    xs = lambda i: left + pw * (i + 0.5) / total  # noqa: E731
    ys = lambda v: top + ph - ph * v / ymax  # noqa: E731
    i = 0
    for w, (name, opts) in enumerate(worlds):
        shape = MARKERS[w % len(MARKERS)]
        x0 = left + pw * i / total
        x1 = left + pw * (i + len(opts)) / total
        if w:
            body.append(f'<line class="chart-sep" x1="{_f(x0)}" y1="{top - 4}" x2="{_f(x0)}" y2="{_f(top + ph)}"/>')
        body.append(f'<text class="chart-world" x="{_f((x0 + x1) / 2)}" y="{top - 12}" '
                    f'text-anchor="middle">{escape(name)}</text>')
        path = " ".join(f"{'M' if j == 0 else 'L'}{_f(xs(i + j))},{_f(ys(o))}" for j, o in enumerate(opts))
        if path:
            body.append(f'<path class="chart-line chart-line-{w + 1}" d="{path}"/>')
        for j, o in enumerate(opts):
            body.append(f'<g class="chart-point"><title>{escape(name)} level {j + 1}: {o} moves</title>'
                        + marker(shape, xs(i + j), ys(o), r=3.2, cls=f"chart-mark chart-mark-{w + 1}") + "</g>")
        i += len(opts)
    desc = "; ".join(f"{name}: " + ", ".join(map(str, opts)) for name, opts in worlds)
    return _frame(title, desc, width, height, body, "chart-campaign")


def lines_svg(series: Sequence[tuple[str, Sequence[float | None]]], labels: Sequence[int], *,
              title: str, ylabel: str, xlabel: str = "level", width: int = 420,
              height: int = 240) -> str:
    """Several series over the same x positions (`labels`, e.g. level numbers): a line and
    a marker shape per series (MARKERS in order), a gap where a value is None, a legend
    above the plot naming each series beside its marker."""
    left, top, right, bottom = 44, 34, 14, 44
    pw, ph = width - left - right, height - top - bottom
    n = max(len(labels), 1)
    ymax = _nice_max(math.ceil(max([v for _, vs in series for v in vs if v is not None] + [1])))
    xs = lambda i: left + pw * (i + 0.5) / n  # noqa: E731
    ys = lambda v: top + ph - ph * v / ymax  # noqa: E731
    body = _axes(left, top, pw, ph, ymax, ylabel, xlabel)
    every = 1 if n <= 15 else 2 if n <= 30 else 5
    for i, num in enumerate(labels):
        if num % every == 0 or i == 0:
            body.append(f'<text class="chart-tick" x="{_f(xs(i))}" y="{_f(top + ph + 16)}" '
                        f'text-anchor="middle">{num}</text>')
    lx = left + 8
    for k, (name, values) in enumerate(series):
        shape, cls = MARKERS[k % len(MARKERS)], f"chart-line-{k + 1}"
        body.append(marker(shape, lx, 14, r=4, cls=f"chart-mark chart-mark-{k + 1}"))
        body.append(f'<text class="chart-legend" x="{_f(lx + 9)}" y="18">{escape(name)}</text>')
        lx += 30 + 6.5 * len(name)          # the next legend entry after this one's text
        path, pen = [], "M"
        for i, v in enumerate(values):
            if v is None:
                pen = "M"
                continue
            path.append(f"{pen}{_f(xs(i))},{_f(ys(v))}")
            pen = "L"
        if path:
            body.append(f'<path class="chart-line {cls}" d="{" ".join(path)}"/>')
        for i, v in enumerate(values):
            if v is not None:
                body.append(f'<g class="chart-point"><title>{escape(name)}, {xlabel} {labels[i]}: '
                            f'{_f(v)}</title>' + marker(shape, xs(i), ys(v), r=3.5,
                                                       cls=f"chart-mark chart-mark-{k + 1}") + "</g>")
    desc = "; ".join(f"{name}: " + ", ".join(f"{labels[i]}: {'-' if v is None else _f(v)}"
                                             for i, v in enumerate(values)) for name, values in series)
    return _frame(title, desc, width, height, body, "chart-lines")
