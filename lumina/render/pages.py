"""One builder per page kind. Each takes the `Site` (inputs, Jinja environment,
writer) and adds its pages, thumbnails and charts to the writer.

    home         index.html
    worlds       w1/index.html ..
    levels       w1/01.html .., w1/01.png ..     (campaign level pages and thumbnails)
    dailies      daily/001.html .., daily/001.png .., daily/index.html (archive),
                 daily.html (today's: a redirect computed in the browser)
    progress     progress.html                    (the player's own, from localStorage)
    making       how-levels-are-made.html, stats.html (the old address, a redirect)
    howto        how-to-play.html
    share        play.html
    editor       editor.html                      (lumina/render/editor.py)
    practice     practice.html, practice/<mechanic>-<tier>-<k>.json (only with packs/practice.json)
    teach        teach.json                       (the explainers of daily and practice pages)
    missing      404.html                         (a page that is not there)

Every page gets `site` (`lumina.sitedata.site_data()`: gates, pool, date rule, star
rule, kinds), embedded once as `#site-data` for the scripts; templates read gates and
star words from the same object, never from copies.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from lumina import sitedata
from lumina.judge import CLASSES, FILTERS
from lumina.model import Level
from lumina.worlds import MECHANIC_NAMES, World

from . import charts, thumbs
from .editor import editor
from .inputs import SiteInput, level_num
from .words import MECHANIC_WORDS, why_hard
from .writer import Writer

#: Level fields a board needs; the analysis is shown as words, not shipped as data.
PLAY_DROP = ("analysis",)


def json_script(data: Any) -> Markup:
    """JSON safe inside a <script type="application/json"> element."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def play_json(level: Level) -> dict[str, Any]:
    """The level as its board needs it: the canonical JSON without the analysis, a crystal
    block's kind left out (`mountBoard` puts it back: the page weight budget)."""
    out = {k: v for k, v in level.to_json().items() if k not in PLAY_DROP}
    out["blocks"] = [{k: v for k, v in b.items() if (k, v) != ("kind", "crystal")}
                     for b in out["blocks"]]
    return out


def star_words(rule: dict[str, Any]) -> dict[str, str]:
    """The star rule in words, from `sitedata.STAR_RULE` (one definition)."""
    def within(n: int) -> str:
        return "at par" if n == 0 else f"within {n} of par"
    return {"three": within(rule["three_within"]), "two": within(rule["two_within"]),
            "help_cap": "★" * rule["help_cap"]}


@dataclass
class Site:
    data: SiteInput
    env: jinja2.Environment
    out: Writer

    def __post_init__(self) -> None:
        self.site = sitedata.site_data(self.data.campaign)
        self.meta = {"worlds": [{"n": w.number, "name": w.name, "levels": len(w.published)}
                                for w in self.data.worlds]}

    def page(self, rel: str, template: str, **ctx: Any) -> None:
        root = "../" * rel.count("/")
        html = self.env.get_template(template).render(
            root=root, path=rel, site=self.site, site_meta=self.meta,
            star_words=star_words(self.site["stars"]), has_daily=bool(self.data.dailies),
            has_practice=bool(self.data.practice), **ctx)
        self.out.add(rel, html)

    @property
    def og_default(self) -> str:
        return "w1/01.png"


def label_ctx(level: Level) -> list[dict[str, str]]:
    """The kinds on the level's board (its truthful label, `Level.mechanics`), each with
    its display name, for `_label.html`: a rime level with ice shows both."""
    return [{"kind": k, "name": MECHANIC_NAMES.get(k, k.title())} for k in level.mechanics]


def world_ctx(w: World) -> dict[str, Any]:
    first = w.published[0]
    pars = [lv.optimal for lv in w.published]
    return {"n": w.number, "name": w.name, "mechanic": w.mechanic, "mechanic_name": w.mechanic_name,
            "gate": w.gate, "levels": len(w.published), "max_stars": 3 * len(w.published),
            "thumb": f"w{w.number}/{level_num(first):02d}.png", "thumb_size": thumbs.thumbnail_size(first),
            "par_range": f"{min(pars)}–{max(pars)}"}


def home(s: Site) -> None:
    worlds = [world_ctx(w) for w in s.data.worlds]
    s.page("index.html", "home.html", title="Lumina", worlds=worlds,
           max_stars=sum(w["max_stars"] for w in worlds), og_image=s.og_default,
           description="Slide the crystal blocks, carry the Light Key to the lantern.")


def worlds(s: Site) -> None:
    for w in s.data.worlds:
        wc = world_ctx(w)
        tiles = [{"id": lv.id, "num": level_num(lv), "href": f"{level_num(lv):02d}.html",
                  "thumb": f"{level_num(lv):02d}.png", "name": lv.name, "optimal": lv.optimal,
                  "tutorial": lv.tutorial, "size": thumbs.thumbnail_size(lv)} for lv in w.published]
        curve = charts.curve_svg([(t["num"], t["optimal"], t["tutorial"]) for t in tiles],
                                 title=f"{w.name}: optimal moves by level",
                                 shape=charts.MARKERS[(w.number - 1) % len(charts.MARKERS)],
                                 ids=[t["id"] for t in tiles])
        s.page(f"w{w.number}/index.html", "world.html", title=f"{w.name} · Lumina", world=wc,
               first=world_ctx(s.data.worlds[0]),
               levels=tiles, curve=Markup(curve), og_image=tiles[0]["thumb"],
               description=f"World {w.number} of Lumina: {wc['mechanic_name']}, {len(w.published)} levels.")


def _link(href: str, label: str, world: int) -> dict[str, Any]:
    return {"href": href, "label": label, "world": world}


def levels(s: Site) -> None:
    ws = s.data.worlds
    for wi, w in enumerate(ws):
        wc = world_ctx(w)
        for i, lv in enumerate(w.published):
            n = level_num(lv)
            if i:
                prev = _link(f"{level_num(w.published[i - 1]):02d}.html", f"Level {n - 1}", w.number)
            elif wi:
                pw = ws[wi - 1]
                prev = _link(f"../w{pw.number}/{level_num(pw.published[-1]):02d}.html", pw.name, pw.number)
            else:
                prev = None
            if i + 1 < len(w.published):
                nxt = _link(f"{level_num(w.published[i + 1]):02d}.html", f"Level {n + 1}", w.number)
            elif wi + 1 < len(ws):
                nw = ws[wi + 1]
                nxt = _link(f"../w{nw.number}/{level_num(nw.published[0]):02d}.html", nw.name, nw.number)
            else:
                nxt = None
            s.out.add(f"w{w.number}/{n:02d}.png", thumbs.thumbnail_png(lv))
            s.page(f"w{w.number}/{n:02d}.html", "level.html",
                   title=f"{w.name} {n} · Lumina", world=wc, level=lv, num=n, play=play_json(lv),
                   desc=lv.desc(), why=why_hard(lv), prev=prev, next=nxt, og_image=f"{n:02d}.png",
                   label=label_ctx(lv),
                   ending=wi + 1 == len(ws) and i + 1 == len(w.published), generator=w.generator,
                   description=f"{w.name}, level {n}: {lv.width}×{lv.height}, par {lv.optimal}.")


def dailies(s: Site) -> None:
    days = s.data.dailies
    if not days:
        return
    for i, lv in enumerate(days):
        n = level_num(lv)
        s.out.add(f"daily/{n:03d}.png", thumbs.thumbnail_png(lv))
        s.page(f"daily/{n:03d}.html", "day.html", title=f"Daily #{n} · Lumina", level=lv, num=n,
               play=play_json(lv), desc=lv.desc(), why=why_hard(lv), generator=s.data.daily_generator,
               label=label_ctx(lv),
               prev=f"{level_num(days[i - 1]):03d}.html" if i else None,
               next=f"{level_num(days[i + 1]):03d}.html" if i + 1 < len(days) else None,
               og_image=f"{n:03d}.png",
               description=f"Lumina daily #{n}: {lv.width}×{lv.height}, par {lv.optimal}.")
    tiles = [{"id": lv.id, "num": level_num(lv), "href": f"{level_num(lv):03d}.html",
              "thumb": f"{level_num(lv):03d}.png", "optimal": lv.optimal,
              "w": lv.width, "h": lv.height, "size": thumbs.thumbnail_size(lv)} for lv in reversed(days)]
    s.page("daily/index.html", "archive.html", title="Past days · Lumina", days=tiles,
           og_image=f"{level_num(days[0]):03d}.png",
           description="Every Lumina daily so far, newest first.")
    s.page("daily.html", "daily.html", title="Daily · Lumina", og_image=s.og_default,
           description="A new Lumina puzzle every day.")


def progress(s: Site) -> None:
    pars = {lv.id: lv.optimal for w in s.data.worlds for lv in w.published}
    pars.update({lv.id: lv.optimal for lv in s.data.dailies})
    s.page("progress.html", "progress.html", title="Progress · Lumina",
           worlds=[world_ctx(w) for w in s.data.worlds], pars=pars, dailies=len(s.data.dailies),
           progress_worlds=[{"n": w.number, "levels": len(w.published)} for w in s.data.worlds],
           og_image=s.og_default, description="Your stars, levels and streak (kept in this browser).")


def _histogram(levels: tuple[Level, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for lv in levels:
        out[lv.optimal] = out.get(lv.optimal, 0) + 1
    return dict(sorted(out.items()))


def rejection_table(reports: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """Buckets as rows, rejection reasons (the union over every report) as columns."""
    reasons = sorted({r for rep in reports for b in rep["buckets"] for r in b["rejections"]})
    rows = [{"pack": str(rep.get("pack", "")), "bucket": b["bucket"], "size": b["size"],
             "band": "–".join(str(x) for x in b["band"]), "candidates": b["candidates"],
             "accepted": b["accepted"], "counts": [b["rejections"].get(r, 0) for r in reasons]}
            for rep in reports for b in rep["buckets"]]
    return {"reasons": reasons, "rows": rows}


def strategy_table(doc: dict[str, Any] | None) -> dict[str, Any] | None:
    """The strategy table's rows: the candidate classes, the filters, the survivors."""
    if doc is None:
        return None
    cols = ("strategy", "bucket", "candidates", *CLASSES, *(f"filtered: {f}" for f in FILTERS),
            "survivors", "label exact", "label too high", "label too low")
    rows = [[r["strategy"], r["bucket"], r["candidates"], *(r[c] for c in CLASSES),
             *(r["filtered"][f] for f in FILTERS), r["survivors"], r["label_vs_real"]["exact"],
             r["label_vs_real"]["claimed_more"], r["label_vs_real"]["claimed_less"]]
            for r in doc["rows"]]
    return {"command": doc.get("command"), "columns": cols, "rows": rows}


def measures_table(groups: list[tuple[str, tuple[Level, ...]]]) -> list[dict[str, Any]]:
    """Per world (and the dailies): what makes its levels hard, from each level's Analysis.
    Medians of plans, positions and the share of optimal first moves; levels with traps;
    twist levels whose twist raises par above the plain-crystal par."""
    def median(xs: list[float]) -> float:
        xs = sorted(xs)
        n = len(xs)
        return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    rows = []
    for name, levels in groups:
        a = [lv.analysis for lv in levels]
        twist = [(lv, x) for lv, x in zip(levels, a) if x.crystal_optimal is not None]
        rows.append({
            "name": name, "levels": len(levels),
            "par": f"{min(lv.optimal for lv in levels)}–{max(lv.optimal for lv in levels)}",
            "plans": f"{median([x.plans for x in a]):g}",
            "single_plan": sum(1 for x in a if x.plans == 1 and not x.plans_capped),
            "first": f"{round(100 * median([x.first_moves_optimal / x.first_moves_legal for x in a]))}%",
            "positions": f"{median([x.component_states for x in a]):,.0f}",
            "trapped": sum(1 for x in a if x.traps),
            "twist": f"{sum(1 for lv, x in twist if x.crystal_optimal < lv.optimal)} of {len(twist)}"
                     if twist else "–",
        })
    return rows


def making(s: Site) -> None:
    d = s.data
    hists = [{"name": w.name, "svg": Markup(charts.histogram_svg(
        _histogram(w.published), title=f"{w.name}: levels by optimal moves", uid=f"w{w.number}",
        width=340, height=190))} for w in d.worlds]
    if d.dailies:
        hists.append({"name": "Dailies", "svg": Markup(charts.histogram_svg(
            _histogram(d.dailies), title="Dailies: levels by optimal moves", uid="d", width=340, height=190))})
    campaign = Markup(charts.campaign_svg([(w.name, [lv.optimal for lv in w.published]) for w in d.worlds],
                                          title="The campaign: optimal moves in play order"))
    names = {str(w.number): w.name for w in d.worlds}
    gates = [{"world": names.get(n, f"World {n}"), **g} for n, g in sorted(d.verify.gates.items())]
    groups = [(w.name, w.published) for w in d.worlds] + ([("Dailies", d.dailies)] if d.dailies else [])
    s.page("how-levels-are-made.html", "making.html", title="How levels are made · Lumina",
           verify=d.verify, gates=gates, measures=measures_table(groups), rejections=rejection_table(d.reports),
           strategies=strategy_table(d.strategies), histograms=hists, campaign=campaign,
           og_image=s.og_default, description="How Lumina's levels were generated and proved.")
    s.page("stats.html", "moved.html", title="How levels are made · Lumina", target="how-levels-are-made.html",
           og_image=s.og_default, description="This page moved to How levels are made.")


def howto(s: Site) -> None:
    demos = {w.mechanic: play_json(w.published[0]) for w in s.data.worlds}
    s.page("how-to-play.html", "howto.html", title="How to play · Lumina", demos=demos,
           mechanic_words=MECHANIC_WORDS,
           worlds=[world_ctx(w) for w in s.data.worlds], og_image=s.og_default,
           description="The rules of Lumina: crystal, sand, ice, rime, beam and mirrors.")


def share(s: Site) -> None:
    example = s.data.worlds[0].published[min(1, len(s.data.worlds[0].published) - 1)].desc()
    s.page("play.html", "play.html", title="Shared level · Lumina", og_image=s.og_default, example=example,
           description="Play a Lumina level from its share link.")


#: Levels per practice shard (practice/<mechanic>-<tier>-<k>.json): a shard stays a few KB.
PRACTICE_SHARD = 50


def practice_sets(levels: tuple[Level, ...]) -> dict[tuple[str, str], list[Level]]:
    """Practice levels by (mechanic, tier), in pack order (sitedata.practice_mechanic/_tier)."""
    sets: dict[tuple[str, str], list[Level]] = {}
    for lv in levels:
        assert lv.optimal is not None   # gather checked every level is playable
        key = (sitedata.practice_mechanic(lv.mechanics), sitedata.practice_tier(lv.optimal))
        sets.setdefault(key, []).append(lv)
    return sets


def practice(s: Site) -> None:
    """practice.html and its lazily loaded shards, when packs/practice.json exists: each
    shard is [{id, desc, par}] for up to PRACTICE_SHARD levels of one (mechanic, tier) set."""
    if not s.data.practice:
        return
    sets = practice_sets(s.data.practice)
    counts: dict[str, int] = {}
    for (mech, tier), lvs in sorted(sets.items()):
        counts[f"{mech}-{tier}"] = len(lvs)
        for k in range(0, len(lvs), PRACTICE_SHARD):
            rows = [{"id": lv.id, "desc": lv.desc(), "par": lv.optimal} for lv in lvs[k:k + PRACTICE_SHARD]]
            s.out.add(f"practice/{mech}-{tier}-{k // PRACTICE_SHARD + 1}.json",
                      json.dumps(rows, sort_keys=True, separators=(",", ":")) + "\n")
    tiers = [{"name": n, "lo": lo, "hi": hi,
              "band": f"par {lo}–{hi}" if hi is not None else f"par {lo} and up"}
             for n, lo, hi in sitedata.PRACTICE_TIERS]
    mechs = [{"kind": m, "name": MECHANIC_NAMES.get(m, m.title()),
              "count": sum(counts.get(f"{m}-{t['name']}", 0) for t in tiers)}
             for m in sitedata.PRACTICE_MECHANICS]
    s.page("practice.html", "practice.html", title="Practice · Lumina", og_image=s.og_default,
           mechanics=mechs, tiers=tiers,
           practice={"counts": counts, "shard": PRACTICE_SHARD, "generator": s.data.practice_generator,
                     "mechanics": [m["kind"] for m in mechs], "tiers": [t["name"] for t in tiers]},
           description="Practise one mechanic at the difficulty you choose: proven Lumina levels.")


def teach(s: Site) -> None:
    """teach.json: each twist mechanic in a player's words (words.MECHANIC_WORDS), the world
    that teaches it and that world's first level (its tutorial) for the animated explainer
    on daily and practice pages (teach.js, fetched only when a board holds a twist)."""
    out = {}
    for w in s.data.worlds:
        if w.mechanic in MECHANIC_WORDS and w.mechanic != "crystal" and w.mechanic not in out:
            name, words, remind = MECHANIC_WORDS[w.mechanic]
            out[w.mechanic] = {"name": name, "words": words, "remind": remind, "world": w.number,
                               "world_name": w.name, "level": play_json(w.published[0])}
    s.out.add("teach.json", json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")


def missing(s: Site) -> None:
    """404.html: what a static host (and the service worker, offline) serves for a page
    that is not there. Its links are root-relative from any depth: it may be served at any
    path, so it finds the site's root from its own script (pages-more.js)."""
    s.page("404.html", "404.html", title="Page not found · Lumina", og_image=s.og_default,
           description="This page is not part of Lumina.")


BUILDERS = (home, worlds, levels, dailies, progress, making, howto, share, editor, practice, teach, missing)
