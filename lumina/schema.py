"""One declarative schema for every record Lumina reads or writes.

A record is a frozen dataclass whose fields say their own JSON form with `field(check,
...)`: the check (a `Schema`: exact types, so a bool is never a number; ranges; plain
names; one-line display strings), whether the field may be left out (it has a default,
and is then omitted on writing while it holds that default), its JSON key when that
differs from the attribute, and a group of fields recorded all or none. From that one
declaration follow:

- `read(cls, value)`: parsing and strict checking (unknown fields are errors naming the
  field, missing required ones too), into the dataclass;
- `write(record)`: the canonical JSON object (fields in declaration order, defaults
  omitted), which `lumina.packfile` turns into canonical text;
- `diff(stored, fresh)`: the fields two records disagree on (the verifier's analysis
  diff);
- `names(cls)` / `describe(cls)`: the field list handed on as data (`solve --json`'s
  keys, the editor's analysis record in `measure.js`).

Every failure is `Bad(where, why)`, `where` the field's path inside the file
(`levels[3].analysis.plans`, `rows[1].filtered.family`); the readers turn it into one
line naming the file, the level and the field (`lumina.packfile.PackError`,
`lumina.model.LevelError`, `lumina.worlds.CampaignError`, the play log's `RecordError`).
Bytes are read before any of this by the bounded reader (`lumina.safeio.read_bounded`,
`lumina.packfile.read_json`).

Records declared here or beside their dataclass:

    level, block, exit, beam, mirror, analysis   lumina.model (Level, Analysis, ...)
    pack metadata, generation report, strategy table   here (PACK_META, REPORT, ...)
    campaign file                                lumina.worlds (CAMPAIGN_SCHEMA, ...)
    play log lines                               lumina.playtest.schema

Adding a measure to the pack's analysis is one line in `lumina.model.Analysis` (its
check, and `measure=` when it is not the engine's `Measures` attribute of the same
name) plus its computation: packs, `verify`'s diff, `solve --json` and the editor's
record (`#editor-data`'s `analysis`) all read the declaration.
"""
from __future__ import annotations

import dataclasses
import enum
import json
import math
import re
from dataclasses import MISSING, dataclass
from typing import Any, Callable, Iterable

Schema = Callable[[Any, str], Any]
MAX_COUNT = 2**63 - 1
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", re.ASCII)
MAX_TEXT = 200


class Bad(Exception):
    """A value does not follow its schema: `where` is the field's path, `why` the rule."""

    def __init__(self, where: str, why: str):
        super().__init__(where, why)
        self.where, self.why = where, why


# ------------------------------------------------------------------ messages

def escape_text(text: str) -> str:
    """`text` with every non-printable character (controls, line separators, format
    characters, lone surrogates) written as a Python escape: one safe terminal line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace")
                   .decode("ascii") for c in text)


def short(value: Any, limit: int = 40) -> str:
    """`value` for a message: non-printable characters escaped, long values cut, so an
    echoed value is never a second line or a megabyte."""
    text = str(value)
    if len(text) > limit:
        text = f"{text[:limit - 12]}...({len(text)} chars)"
    return escape_text(text)


def got(v: Any) -> str:
    """A value as a message shows it: JSON spelling for scalars, the type for containers."""
    return short(json.dumps(v) if isinstance(v, (bool, type(None), str)) else
                 type(v).__name__ if isinstance(v, (dict, list, tuple)) else repr(v))


def text_problem(v: Any) -> str | None:
    """Why `v` is not a display string (at most MAX_TEXT printable characters: no
    control or format characters, line separators or lone surrogates), or None."""
    if not isinstance(v, str):
        return "must be a string"
    if len(v) > MAX_TEXT:
        return f"{len(v)} characters; at most {MAX_TEXT}"
    if not v.isprintable():
        i = next(i for i, c in enumerate(v) if not c.isprintable())
        return (f"holds the non-printable character {escape_text(v[i])} at {i} (a control "
                "character or a lone surrogate)")
    return None


# ------------------------------------------------------------------ value schemas

def _ranged(types: type | tuple[type, ...], what: str, lo: float, hi: float,
            convert: Callable[[Any], Any] | None = None) -> Schema:
    def check(v: Any, where: str) -> Any:
        if (isinstance(v, bool) or not isinstance(v, types)
                or (isinstance(v, float) and not math.isfinite(v))):
            raise Bad(where, f"must be {what}, got {got(v)}")
        if not lo <= v <= hi:
            raise Bad(where, f"{v} is out of range (at least {lo})" if hi == MAX_COUNT
                      else f"{v} is out of range {lo}..{hi}")
        return v if convert is None else convert(v)
    return check


def integer(lo: int = 0, hi: int = MAX_COUNT) -> Schema:
    """An integer in [lo, hi]; a bool is not one."""
    return _ranged(int, "an integer", lo, hi)


def number(lo: float, hi: float) -> Schema:
    """A finite number (integer or float) in [lo, hi], as given; a bool is not one."""
    return _ranged((int, float), "a number", lo, hi)


def real(lo: float, hi: float) -> Schema:
    """`number`, read as a float (so it is written back as one)."""
    return _ranged((int, float), "a number", lo, hi, float)


def nonzero(lo: int, hi: int) -> Schema:
    """An integer in [lo, hi] other than 0 (a slide's distance)."""
    base = integer(lo, hi)

    def check(v: Any, where: str) -> int:
        if base(v, where) == 0:
            raise Bad(where, "must be a non-zero integer, got 0")
        return v
    return check


def flag(v: Any, where: str) -> bool:
    """true or false (0 and 1 are not)."""
    if not isinstance(v, bool):
        raise Bad(where, f"must be true or false, got {got(v)}")
    return v


def text(v: Any, where: str) -> str:
    """A display string: one short printable line (`text_problem`)."""
    why = text_problem(v)
    if why:
        raise Bad(where, why)
    return v


def name(v: Any, where: str) -> str:
    """A plain name: 1-64 letters, digits, '.', '_' and '-', starting with a letter or
    digit (`SAFE_ID`): safe in a file name, a URL and a message."""
    if not isinstance(v, str) or not SAFE_ID.fullmatch(v):
        raise Bad(where, "must be 1-64 letters, digits, '.', '_' or '-' (starting with a "
                  f"letter or digit), got {short(repr(v))}")
    return v


def choice(*options: Any) -> Schema:
    """One of `options` (compared by type too: True is not 1)."""
    def check(v: Any, where: str) -> Any:
        if not any(type(v) is type(o) and v == o for o in options):
            raise Bad(where, f"must be one of {', '.join(map(str, options))}; got {short(repr(v))}")
        return v
    return check


def anything(v: Any, where: str) -> Any:
    return v


def nullable(schema: Schema) -> Schema:
    return lambda v, where: None if v is None else schema(v, where)


def list_of(item: Schema, lo: int = 0, hi: int | None = None, *, what: str = "a list",
            into: type = list) -> Schema:
    """A list of `item`s, `lo`..`hi` long (read `into` a list, or a tuple for a record)."""
    def check(v: Any, where: str) -> Any:
        if not isinstance(v, list):
            raise Bad(where, f"must be {what}, got {got(v)}")
        if len(v) < lo or (hi is not None and len(v) > hi):
            size = (f"{lo}" if hi == lo else f"at least {lo}" if hi is None
                    else f"{lo}..{hi}")
            raise Bad(where, f"must hold {size} items, got {len(v)}")
        return into(item(x, f"{where}[{i}]") for i, x in enumerate(v))
    return check


def tuple_of(item: Schema, lo: int = 0, hi: int | None = None, *, what: str = "a list") -> Schema:
    """`list_of`, read as a tuple (a record's field)."""
    return list_of(item, lo, hi, what=what, into=tuple)


def pair(first: Schema, second: Schema, what: str) -> Schema:
    """A two-item list `what` (e.g. "[x, y]"), read as a tuple."""
    def check(v: Any, where: str) -> tuple:
        if not isinstance(v, list) or len(v) != 2:
            raise Bad(where, f"must be a pair {what}")
        return first(v[0], f"{where}[0]"), second(v[1], f"{where}[1]")
    return check


def span(lo: int, hi: int) -> Schema:
    """A range [low, high] of integers with lo <= low <= high <= hi, read as a tuple."""
    item = integer(lo, hi)

    def check(v: Any, where: str) -> tuple[int, int]:
        if not isinstance(v, list) or len(v) != 2:
            raise Bad(where, f"must be a pair [low, high], got {got(v)}")
        a, b = item(v[0], f"{where}[0]"), item(v[1], f"{where}[1]")
        if a > b:
            raise Bad(where, f"low {a} is above high {b}")
        return a, b
    return check


def map_of(value: Schema) -> Schema:
    """An object whose keys are display strings and whose values all match `value`."""
    def check(v: Any, where: str) -> dict:
        if not isinstance(v, dict):
            raise Bad(where, f"must be an object, got {got(v)}")
        return {text(k, f"{where} key"): value(x, f"{where}.{k}") for k, x in v.items()}
    return check


def _at(where: str, key: Any) -> str:
    return f"{where}.{key}" if where else str(key)


def obj(required: dict[str, Schema], optional: dict[str, Schema] | None = None, *,
        extra: bool = False) -> Schema:
    """An object kept as a dict, with `required` and `optional` fields; other fields are
    an error unless `extra` (a file whose other fields no command reads: carried, not
    read)."""
    optional = optional or {}

    def check(v: Any, where: str) -> dict:
        if not isinstance(v, dict):
            raise Bad(where or "file", f"must be an object, got {got(v)}")
        for k in required:
            if k not in v:
                raise Bad(_at(where, k), "missing")
        out = {}
        for k, x in v.items():
            schema = required.get(k) or optional.get(k)
            if schema is None:
                if not extra:
                    raise Bad(_at(where, short(k)), "unknown field")
                out[k] = x
            else:
                out[k] = schema(x, _at(where, k))
        return out
    return check


# ------------------------------------------------------------------ records

def field(check: Schema, *, default: Any = MISSING, key: str | None = None,
          group: str | None = None, measure: Callable[[Any, Any], Any] | None = None,
          doc: str = "") -> Any:
    """A record field and its JSON form. Without `default` the field is required; with
    one it may be left out (read as the default) and is omitted on writing while it
    holds the default. `key`: the JSON name when not the attribute's. `group`: fields
    recorded all or none. `measure(level, measures)`: how the analysis computes it (the
    default: the judge's rule for it, `lumina.judge.JUDGED`, else the engine's attribute
    of the same name)."""
    meta = {"check": check, "key": key, "group": group, "measure": measure, "doc": doc}
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class Spec:
    """One declared field of a record."""
    name: str
    key: str
    check: Schema
    required: bool
    default: Any
    group: str | None
    measure: Callable[[Any, Any], Any] | None
    doc: str


_SPECS: dict[type, tuple[Spec, ...]] = {}


def specs(cls: type) -> tuple[Spec, ...]:
    """The declared fields of record class `cls`, in order (its JSON order)."""
    got_ = _SPECS.get(cls)
    if got_ is None:
        got_ = tuple(Spec(name=f.name, key=f.metadata.get("key") or f.name,
                          check=f.metadata["check"], required=f.default is MISSING,
                          default=None if f.default is MISSING else f.default,
                          group=f.metadata.get("group"), measure=f.metadata.get("measure"),
                          doc=f.metadata.get("doc", ""))
                     for f in dataclasses.fields(cls) if "check" in f.metadata)
        _SPECS[cls] = got_
    return got_


def names(cls: type) -> tuple[str, ...]:
    """The JSON keys of record class `cls`, in order."""
    return tuple(s.key for s in specs(cls))


def describe(cls: type) -> list[dict[str, Any]]:
    """The fields of `cls` as data for another language: key, whether it may be left
    out, its group."""
    return [{"key": s.key, "optional": not s.required, "group": s.group} for s in specs(cls)]


def read(cls: type, v: Any, where: str = "", only: Iterable[str] | None = None) -> Any:
    """`v` (parsed JSON) as a `cls`: every field checked by its schema; an unknown field,
    a missing one or a group recorded in part is `Bad` naming the field. `only`: the
    keys this variant of the record has, each required (a play log's event types)."""
    if not isinstance(v, dict):
        raise Bad(where or "file", f"must be an object, got {got(v)}")
    fields = specs(cls)
    if only is not None:
        keep = tuple(only)
        fields = tuple(dataclasses.replace(s, required=True) for s in fields if s.key in keep)
    keys = {s.key for s in fields}
    for k in v:
        if k not in keys:
            raise Bad(_at(where, short(k)), "unknown field")
    for s in fields:
        if s.required and s.key not in v:
            raise Bad(_at(where, s.key), "missing")
    for s in fields:
        if s.group and s.key not in v:
            present = [o.key for o in fields if o.group == s.group and o.key in v]
            if present:
                raise Bad(_at(where, s.key), f"missing (recorded with {present[0]})")
    return cls(**{s.name: s.check(v[s.key], _at(where, s.key)) for s in fields if s.key in v})


def record(cls: type) -> Schema:
    """A `Schema` reading an object into record class `cls`."""
    return lambda v, where: read(cls, v, where)


def _is_default(v: Any, default: Any) -> bool:
    """Whether a field holds its default (by type too: 0 is not False; any empty list
    or tuple is the empty default)."""
    if isinstance(default, tuple) and not default:
        return isinstance(v, (tuple, list)) and not v
    return type(v) is type(default) and v == default


def to_json(v: Any) -> Any:
    """A Python value as JSON data: records by `write`, tuples as lists, enums by value."""
    t = type(v)
    if t in (int, str, bool, float, type(None)):
        return v
    if t in _SPECS or (dataclasses.is_dataclass(t) and specs(t)):
        return write(v)
    if isinstance(v, (tuple, list)):
        return [to_json(x) for x in v]
    if isinstance(v, enum.Enum):
        return v.value
    return v


def write(rec: Any) -> dict[str, Any]:
    """The canonical JSON object of record `rec`: declared fields in order, each left out
    while it holds its default."""
    out: dict[str, Any] = {}
    for s in specs(type(rec)):
        v = getattr(rec, s.name)
        if not s.required and _is_default(v, s.default):
            continue
        out[s.key] = to_json(v)
    return out


def diff(stored: Any, fresh: Any, fields: Iterable[str] | None = None
         ) -> list[tuple[str, Any, Any]]:
    """(key, stored value, fresh value) for every declared field two records of one
    class disagree on, in declaration order (`fields`: only these keys)."""
    want = None if fields is None else set(fields)
    return [(s.key, getattr(stored, s.name), getattr(fresh, s.name)) for s in specs(type(fresh))
            if (want is None or s.key in want) and getattr(stored, s.name) != getattr(fresh, s.name)]


# ------------------------------------------------------------------ the files' records
# Kept as checked dicts: their other fields are carried, not read.

#: A pack's metadata (every field but `levels`): exactly these, each optional.
PACK_META = obj({}, {"pack": name, "name": text, "world": nullable(integer(1, 99)),
                     "mechanic": text, "seed": integer(), "generator": text})
META_ORDER = ("pack", "name", "world", "mechanic", "seed", "generator")

#: One bucket of a generation report: what the site's rejection table reads.
REPORT_BUCKET = obj({"bucket": text, "size": text, "band": list_of(integer(), 2, 2),
                     "candidates": integer(), "accepted": integer(),
                     "rejections": map_of(integer())}, extra=True)

#: A generation report (`report-*.json`), written by `lumina.generate` beside its pack.
REPORT = obj({"buckets": list_of(REPORT_BUCKET)},
             {"pack": name, "seed": integer(), "generator": text}, extra=True)


def strategies_schema(classes: Iterable[str], filters: Iterable[str]) -> Schema:
    """The strategy table (`strategies.json`, `lumina.strategies` rows) for the given
    candidate classes and filter names."""
    row = obj({"strategy": text, "bucket": text, "candidates": integer(), "survivors": integer(),
               **{c: integer() for c in classes},
               "filtered": obj({f: integer() for f in filters}, extra=True),
               "label_vs_real": obj({"exact": integer(), "claimed_more": integer(),
                                     "claimed_less": integer()})},
              {"layouts": integer(), "seconds": number(0, 10**9)}, extra=True)
    return obj({"rows": list_of(row)}, {"command": text}, extra=True)
