"""The site's scripts as modules: no import circle among templates/static/*.js, and one table of
kind words.

An import circle (pages.js -> pages-more.js -> pages.js, day.js -> pages.js) makes the order
in which modules run depend on which page loaded first, so an export read at the top of a
module may still be uninitialised. Static imports, re-exports, dynamic `import()` and worker
URLs all count as edges.
"""
from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "templates" / "static"

EDGE = re.compile(r'(?:^|[;\s}])(?:import|export)\s*(?:[^"\';(]*?from\s*)?["\'](\./[^"\']+)["\']'
                  r'|\bimport\(\s*["\'](\./[^"\']+)["\']'
                  r'|new\s+URL\(\s*["\'](\./[^"\']+)["\']', re.M)


def graph(folder: Path = STATIC) -> dict[str, set[str]]:
    """module name -> the modules it imports (statically, dynamically or as a worker)."""
    out = {}
    for p in sorted(folder.glob("*.js")):
        text = re.sub(r"^\s*//.*$", "", p.read_text(encoding="utf-8"), flags=re.M)   # comments name files too
        out[p.name] = {next(g for g in m.groups() if g)[2:] for m in EDGE.finditer(text)}
    return out


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle, each as the path that closes it (depth-first search)."""
    found, state = [], {}

    def visit(n: str, path: list[str]) -> None:
        state[n] = "open"
        for m in sorted(g.get(n, ())):
            if state.get(m) == "open":
                found.append(path[path.index(m):] + [m] if m in path else [n, m])
            elif m not in state:
                visit(m, path + [m])
        state[n] = "done"
    for n in sorted(g):
        if n not in state:
            visit(n, [n])
    return found


def test_the_circle_finder_finds_circles():
    assert circles({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}) == [["a.js", "b.js", "c.js", "a.js"]]
    assert circles({"a.js": {"b.js"}, "b.js": set(), "c.js": {"b.js"}}) == []
    g = graph(STATIC)
    assert "common.js" in g["pages.js"] and "panel.js" in g["pages.js"], "static and dynamic imports are edges"
    assert "hint-worker.js" in g["hints.js"], "a worker URL is an edge"


def test_no_import_circle_among_the_site_scripts():
    g = graph()
    assert len(g) > 10
    assert not circles(g), f"import circles: {circles(g)}"
    for name, deps in g.items():
        assert deps <= set(g), f"{name} imports a script that is not there: {deps - set(g)}"


def test_one_table_of_kind_words():
    """Bug class: KIND_WORDS (board.js) repeated NAMES (render.js): two tables drift apart."""
    tables = [p.name for p in sorted(STATIC.glob("*.js"))
              if re.search(r'\bcrystal:\s*"crystal"', p.read_text(encoding="utf-8"))]
    assert tables == ["render.js"], tables


#: The rules' entry points (RULES.md in JavaScript): defined once, in engine.js.
RULE_FUNCTIONS = ("compileCore", "thaw", "genMoves", "doMove", "traceLight", "solved", "legalMoves",
                  "applyLegal", "trace", "beamPath", "isSolved", "occupy", "startOf", "startState")
DEFINES = re.compile(r"(?:\bfunction\s+|\b(?:const|let|var)\s+)(" + "|".join(RULE_FUNCTIONS) + r")\b\s*(?:\(|=)")


def rule_definitions(folder: Path = STATIC) -> dict[str, list[str]]:
    """module name -> the rule functions it defines."""
    out = {}
    for p in sorted(folder.glob("*.js")):
        text = re.sub(r"^\s*//.*$", "", p.read_text(encoding="utf-8"), flags=re.M)
        found = sorted(set(DEFINES.findall(text)))
        if found:
            out[p.name] = found
    return out


def test_two_rule_sets_in_javascript():
    # Bug class: two JS implementations of RULES.md (engine.js for the board, kernel.js for
    # the hint search and the editor), each held to Python separately, free to drift apart.
    defs = rule_definitions()
    assert set(defs) == {"engine.js"}, f"rule functions defined outside engine.js: {defs}"
    assert {"genMoves", "thaw", "traceLight", "solved", "legalMoves", "isSolved"} <= set(defs["engine.js"])


def test_rule_definitions_sees_a_second_move_generator(tmp_path):
    (tmp_path / "engine.js").write_text("export function genMoves(c) {}\n")
    (tmp_path / "kernel.js").write_text("// function thaw(\nexport const thaw = (c, pos, fl) => fl;\n")
    assert rule_definitions(tmp_path) == {"engine.js": ["genMoves"], "kernel.js": ["thaw"]}


def _nested_templates(js: str) -> list[int]:
    """Line numbers where a template literal opens inside another's ${...}: rjsmin minifies
    the inner one as code (`${a} ${b}` inside loses its spaces)."""
    out, stack, i, line = [], [], 0, 1   # stack: "t" inside a template's text, "e" inside its ${...}
    quote = None
    while i < len(js):
        c = js[i]
        if c == "\n":
            line += 1
        top = stack[-1] if stack else None
        if top == "t":
            if c == "\\":
                i += 2
                continue
            if c == "`":
                stack.pop()
            elif js.startswith("${", i):
                stack.append("e")
                i += 2
                continue
        elif quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif js.startswith("//", i):
            i = js.find("\n", i)
            i = len(js) if i < 0 else i
            continue
        elif js.startswith("/*", i):
            i = js.find("*/", i) + 2
            continue
        elif c in "\"'":
            quote = c
        elif c == "`":
            if top == "e":
                out.append(line)
            stack.append("t")
        elif c == "{" and top == "e":
            stack.append("{")
        elif c == "}" and top in ("e", "{"):
            stack.pop()
        i += 1
    return out


def test_no_nested_template_literal_the_minifier_would_break():
    """Bug class: rjsmin treats a template literal inside another's ${...} as code, so
    `${kind} ${i}` came out as "crystal3" in the editor and ", best 5 moves" as ",best 5moves"."""
    found = {p.name: _nested_templates(p.read_text()) for p in sorted(STATIC.glob("*.js"))}
    assert not {k: v for k, v in found.items() if v}
    assert _nested_templates("const a = `x ${y ? `${b} ${c}` : ''}`;\n") == [1], "the check can fail"
