"""Fuzz test of the CLIs (issue 10): real levels, packs and Rush Hour files, mutated
by hypothesis, run through solve, verify and publish in-process behind the same
error boundary as `python -m` (`lumina.cli.guarded`). Generation reports and the
strategy table (issue 20) are mutated too and published beside the fixture packs
(verification passed, only the page that reads them rendered: the readers and
their one consumer are what is under test). Share-link descs are fuzzed in the
browser against the Python reader (tests/browser/test_hostile_input.py). Issue 28: the
campaign file (`--campaign`, read by `lumina.worlds.load`) is mutated as TOML text and
as bytes, and `playtest simulate` gets hostile flags and outputs (its own input, a
folder, a FIFO). The `mine` and `compose` commands' flags are the lead's to add.

Whatever the input, a run must end with exit 0, 1 (levels failed) or 2 (bad
input); exit 2 is exactly one line on stderr under 300 characters; never a
traceback or an "internal error"; and no file changes outside the run's named
output (the input folder and the project's packs/ are hashed before and after).

Bounded for CI: LUMINA_FUZZ_EXAMPLES examples (default 60, about 30 s here). Run it
longer locally, e.g.

    LUMINA_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz_cli.py
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import io
import json
import os
import tempfile
from pathlib import Path

import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clihelp import passing_verify
from lumina import cli, publish
from lumina.render import assets, pages

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("LUMINA_FUZZ_EXAMPLES", "60"))
RUSH = ROOT / "tests" / "data" / "rush-sample.txt"

_PACK = json.loads((ROOT / "packs" / "world-5.json").read_text(encoding="utf-8"))
BASE_PACK = {**{k: v for k, v in _PACK.items() if k != "levels"}, "levels": _PACK["levels"][:3]}
BASE_LEVEL = json.loads((ROOT / "packs" / "world-2.json").read_text(encoding="utf-8"))["levels"][4]
BASE_RUSH = "\n".join(RUSH.read_text(encoding="utf-8").splitlines()[:3]) + "\n"
FIXTURES = ROOT / "tests" / "fixtures" / "packs"
SIDE_FILES = {"report": "report-world-1.json", "strategies": "strategies.json"}   # read beside the packs
BASE_SIDE = {k: json.loads((FIXTURES / name).read_text(encoding="utf-8")) for k, name in SIDE_FILES.items()}

MAINS = {name: importlib.import_module(f"lumina.{name}").main for name in ("solve", "verify", "publish")}
MAINS["playtest"] = importlib.import_module("lumina.playtest.__main__").main
CAMPAIGN_TOML = (ROOT / "lumina" / "campaign.toml").read_text(encoding="utf-8")
SIM_PACK = FIXTURES / "world-1.json"

nasty_text = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["\ud800", "a\nerror: forged", "\x1b[2J", "x" * 5000, "", "w1-01", "٦", "../x",
                     "\u2028", "NaN"]),
)
nasty_scalar = st.one_of(
    st.integers(-3, 12), st.integers(-(2**70), 2**70), st.sampled_from([2**31, 10**30, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(), nasty_text,
)
nasty_json = st.recursive(nasty_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(nasty_text, inner, max_size=4)), max_leaves=8)


def _paths(node, prefix=()):
    """Every (path) into a JSON tree, the root included."""
    yield prefix
    if isinstance(node, dict):
        for k in sorted(node):
            yield from _paths(node[k], prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _set(tree, path, value, delete=False):
    if not path:
        return value
    target = tree
    for p in path[:-1]:
        target = target[p]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    elif delete and isinstance(target, list):
        target.pop(path[-1])
    else:
        target[path[-1]] = value
    return tree


@st.composite
def mutated_json(draw, base):
    tree = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(tree))
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["replace", "delete", "insert"]))
        if how == "insert":
            target = tree
            for p in path:
                target = target[p]
            if isinstance(target, dict):
                target[draw(nasty_text)] = draw(nasty_json)
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), draw(nasty_json))
            continue
        tree = _set(tree, path, draw(nasty_json), delete=(how == "delete" and bool(path)))
    try:
        return json.dumps(tree, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    except (ValueError, OverflowError):
        return b"{}"


@st.composite
def mutated_bytes(draw, raw: bytes):
    how = draw(st.sampled_from(["truncate", "flip", "insert", "utf16", "latin1", "nest", "digits"]))
    if how == "truncate":
        return raw[:draw(st.integers(0, len(raw)))]
    if how == "flip":
        i = draw(st.integers(0, len(raw) - 1))
        return raw[:i] + bytes([draw(st.integers(0, 255))]) + raw[i + 1:]
    if how == "insert":
        i = draw(st.integers(0, len(raw)))
        return raw[:i] + draw(st.binary(max_size=8)) + raw[i:]
    if how == "utf16":
        return raw.decode("utf-8", "replace").encode("utf-16")
    if how == "latin1":
        return raw.decode("utf-8", "replace").encode("latin-1", "replace") + b"\xe9"
    if how == "digits":                    # a number of thousands of digits
        i = max(raw.find(b"1"), 0)
        return raw[:i] + b"9" * draw(st.integers(20, 6000)) + raw[i:]
    depth = draw(st.integers(30, 3000))
    return b"[" * depth + raw + b"]" * depth


TOML_VALUES = ["9" * 5000, "-1", "0", "2147483648", "1e400", "inf", "nan", "true", '"x"', '"' + "x" * 5000 + '"',
               "[]", "[1, 2, 3]", "[" * 3000 + "]" * 3000, "{}", "{ a = 1 }", "1979-05-27", '"\\ud800"',
               '"4x4"', '"9x9"', '"1x1"', "[0, 99]", "[99, 0]", "[5, 16]", "[-1, 2]", '"crystal"', '"lava"',
               "[\"....\", \"AA..\"]", "0x7fffffffffffffffffff", "1_000"]


@st.composite
def mutated_campaign(draw) -> bytes:
    """The committed campaign with one to three key lines given a hostile value, a line
    deleted or duplicated, or many table headers or keys appended; or its bytes mutated."""
    if draw(st.booleans()):
        return draw(mutated_bytes(CAMPAIGN_TOML.encode("utf-8")))
    lines = CAMPAIGN_TOML.splitlines()
    keyed = [i for i, ln in enumerate(lines) if "=" in ln and not ln.lstrip().startswith("#")]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(keyed))
        how = draw(st.sampled_from(["value", "delete", "duplicate", "tables", "keys"]))
        if how == "value":
            lines[i] = lines[i].split("=", 1)[0] + "= " + draw(st.sampled_from(TOML_VALUES))
        elif how == "delete":
            lines[i] = ""
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif how == "tables":
            lines.append("".join(f"[t{n}]\n" for n in range(draw(st.integers(1, 20000)))))
        else:
            lines.append("".join(f"k{n} = {n}\n" for n in range(draw(st.integers(1, 50000)))))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


@st.composite
def simulate_argv(draw) -> list[str]:
    """`playtest simulate` with hostile flags; the output is the run's named output or a
    path that must be refused (its own input, a folder, a FIFO)."""
    num = st.sampled_from(["1", "2", "0", "-1", "1e20", "100000", "abc", "2147483648", "1e1", " 3", "3.5"])
    argv = ["simulate", "--levels", draw(st.sampled_from(["{file}", "{packs}", "{missing}"]))]
    for flag in ("--players", "--seed", "--first-player"):
        if draw(st.integers(0, 4)):
            argv += [flag, draw(num)]
    if draw(st.booleans()):
        argv += ["--only", draw(st.one_of(nasty_text, st.sampled_from(["w1-*", "*", "[", "w9-*"])))]
    argv += ["--out", draw(st.sampled_from(["{out}", "{out}/deeper/log.jsonl", "{file}", "{packs}", "{fifo}"]))]
    return argv


def base_bytes(kind: str) -> bytes:
    if kind in SIDE_FILES:
        return json.dumps(BASE_SIDE[kind]).encode()
    if kind == "pack":
        return json.dumps(BASE_PACK).encode()
    if kind == "level":
        return json.dumps(BASE_LEVEL).encode()
    return BASE_RUSH.encode()


@st.composite
def case(draw):
    kind = draw(st.sampled_from(["pack", "level", "rush", "argv", "report", "strategies", "campaign",
                                 "simulate"]))
    if kind == "campaign":              # read by verify before anything else (an empty folder)
        return kind, draw(mutated_campaign()), ["verify", "--campaign", "{file}", "{packs}"]
    if kind == "simulate":
        return kind, SIM_PACK.read_bytes(), ["playtest", *draw(simulate_argv())]
    if kind == "argv":
        source = draw(st.one_of(nasty_text, st.sampled_from(
            ["6x5-R2-K0221C3112", "....B.....B.AA..B...................", "6x6-R2-K0221C4112-w55"])))
        flags = draw(st.sampled_from([[], ["--state-cap", draw(st.sampled_from(
            ["1", "1e20", "-1", "0x10", "2147483648", "1e3", "abc"]))], ["--json"], ["--level", "x"]]))
        return kind, None, ["solve", source, *flags]
    raw = base_bytes(kind)
    if kind != "rush" and draw(st.booleans()):
        data = draw(mutated_json(BASE_SIDE[kind] if kind in SIDE_FILES else
                                 BASE_PACK if kind == "pack" else BASE_LEVEL))
    else:
        data = draw(mutated_bytes(raw))
    if kind in SIDE_FILES:
        return kind, data, ["publish"]
    if kind == "rush":
        return kind, data, ["solve", "--rush", "{file}"]
    command = draw(st.sampled_from(["solve", "verify", "publish"] if kind == "pack" else ["solve", "verify"]))
    return kind, data, [command, "{file}"]


def snapshot(*roots: Path, skip: Path | None = None) -> dict[str, str]:
    out = {}
    for root in roots:
        for p in sorted(root.rglob("*")):
            if skip is not None and (p == skip or skip in p.parents):
                continue
            if p.is_file():
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def project_snapshot():
    return snapshot(ROOT / "packs")


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(case())
def test_fuzz_cli_one_line_no_traceback_no_stray_writes(project_snapshot, c):
    kind, data, argv = c
    main = MAINS[argv[0]]
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        tmp = Path(tmp)
        packs = tmp / "packs"
        if kind in SIDE_FILES:             # the fixture packs, one side file mutated
            shutil.copytree(FIXTURES, packs, ignore=shutil.ignore_patterns("*.py"))
            name = SIDE_FILES[kind]
            # publish's seams: a verifier that passes, and only the page that reads them
            main = functools.partial(publish.main, verify=passing_verify, builders=(pages.making,))
            mp.setattr(assets, "static_files", lambda templates: [])
        else:
            packs.mkdir()
            name = {"pack": "world-5.json", "rush": "boards.txt", "campaign": "campaign.toml",
                    "simulate": "world-1.json"}.get(kind, "level.json")
        if data is not None:
            (packs / name).write_bytes(data)
        out = tmp / "site-out"
        if kind == "campaign":            # verify's packs: an empty folder (only the campaign is read)
            (tmp / "empty").mkdir()
        fifo = tmp / "fifo"
        os.mkfifo(fifo)
        command, *args = argv
        args = [a.replace("{file}", str(packs / name)).replace("{packs}", str(tmp / "empty" if kind == "campaign"
                                                                               else packs))
                .replace("{out}", str(out)).replace("{fifo}", str(fifo)).replace("{missing}", str(tmp / "nope"))
                for a in args]
        if command == "publish":
            args = ["--packs", str(packs), "--out", str(out)]
        before = snapshot(tmp, skip=out)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = cli.guarded(main, args, prog=f"lumina.{command}")
        err = stderr.getvalue()
        assert code in (0, 1, 2), (code, argv, err[-1000:])
        assert "Traceback" not in err and "internal error" not in err, (argv, err[-2000:])
        if code == 2:
            lines = [ln for ln in err.splitlines() if not ln.startswith("publish: verif")]
            assert len(lines) == 1, (argv, err[-2000:])
            assert len(lines[0]) <= cli.MAX_LINE and lines[0].isprintable(), lines[0][:400]
        assert snapshot(tmp, skip=out) == before, f"{argv} changed files outside {out}"
    # the project itself: checked once per example against the session snapshot
    assert snapshot(ROOT / "packs") == project_snapshot


def test_fuzz_leaves_no_lock_or_temp_files_in_the_project():
    leftovers = [p.name for p in (ROOT / "packs").iterdir() if p.name.startswith(".")]
    leftovers += [p.name for p in ROOT.iterdir() if p.name.startswith((".site.", ".lumina"))]
    assert not leftovers, leftovers
