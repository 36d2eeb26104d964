"""python -m lumina.publish [--packs packs] [--out site]: verify, then build the site.

The packs are verified first (`lumina.verify.verify_paths`: every level re-solved
from disk). If any level fails, nothing is published: exit 1 and the output
folder is left exactly as it was. Bad or unreadable input (a missing folder, a
file that is not JSON, a level with a bad field) is one short line on stderr
naming the file, level and field, exit 2, no traceback. Progress goes to
stderr; the one summary line of a successful build goes to stdout.

Exit codes: 0 published, 1 verification failed, 2 bad input.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from lumina.render import site


def _verify(paths: list[Path]) -> Any:
    """The verifier's report for `paths` (see docs/INTERFACES.md, `lumina.verify`)."""
    try:
        from lumina.verify import verify_paths
    except ImportError:  # TEMPORARY shim until lumina.verify lands (issue 3)
        return _verify_shim(paths)
    return verify_paths(paths)


class _ShimReport:
    def __init__(self, ok: bool, lines: list[str], packs: list[dict[str, Any]]):
        self.ok, self.lines, self.packs, self.gates = ok, lines, packs, {}


def _verify_shim(paths: list[Path]) -> _ShimReport:
    """Re-solve every level with the engine and compare par and stored solution."""
    from lumina.engine import Board, Outcome, solve
    from lumina.packfile import read_pack
    packs, lines, ok = [], [], True
    for path in paths:
        pack = read_pack(path)
        hist: dict[str, int] = {}
        fails = []
        solvable = confirmed = 0
        for lv in pack.levels:
            sol = solve(lv)
            if sol.outcome is not Outcome.SOLVED:
                fails.append({"level": lv.id, "reason": sol.outcome.value})
                continue
            solvable += 1
            hist[str(sol.optimal)] = hist.get(str(sol.optimal), 0) + 1
            board, s = Board(lv), None
            try:
                s = board.start
                for m in lv.solution or ():
                    s = board.apply(s, tuple(m))
                replay = board.is_solved(s) and len(lv.solution or ()) == sol.optimal
            except ValueError:
                replay = False
            if lv.optimal != sol.optimal or not replay:
                fails.append({"level": lv.id, "reason": f"stored optimal {lv.optimal}, solver {sol.optimal}"
                              + ("" if replay else ", stored solution does not replay")})
            else:
                confirmed += 1
        ok = ok and not fails
        name = str(pack.meta.get("pack", path.stem))
        packs.append({"pack": name, "name": pack.meta.get("name", ""), "levels": len(pack.levels),
                      "solvable": solvable, "confirmed": confirmed,
                      "histogram": dict(sorted(hist.items(), key=lambda kv: int(kv[0]))), "failures": fails})
        lines.append(f"{name}: {len(pack.levels)} levels, {confirmed} confirmed, {len(fails)} failed")
    return _ShimReport(ok, lines, packs)


def _report_dict(report: Any) -> dict[str, Any]:
    return {"ok": bool(report.ok), "lines": list(getattr(report, "lines", []) or []),
            "packs": list(getattr(report, "packs", []) or []),
            "gates": dict(getattr(report, "gates", {}) or {})}


def _input_errors() -> tuple[type[BaseException], ...]:
    errs: list[type[BaseException]] = [site.SiteError, ValueError, OSError]
    try:
        from lumina.packfile import PackError
        errs.insert(0, PackError)
    except ImportError:  # pragma: no cover
        pass
    return tuple(errs)


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def publish(packs: Path, out: Path) -> int:
    """Verify `packs`, then build into `out`. Returns the exit code."""
    errors = _input_errors()
    try:
        if not packs.is_dir():
            raise site.SiteError(f"{packs}: not a folder of packs")
        paths = site.pack_paths(packs)
        if not paths:
            raise site.SiteError(f"{packs}: no world-*.json or dailies.json packs")
        print(f"publish: verifying {len(paths)} packs in {packs}", file=sys.stderr)
        report = _verify(paths)
        rep = _report_dict(report)
        if not rep["ok"]:
            for line in rep["lines"]:
                print(line, file=sys.stderr)
            failed = [f"{f.get('level')}: {f.get('reason')}" for p in rep["packs"] for f in p.get("failures", [])]
            print(f"publish: refused: {len(failed)} level(s) failed verification"
                  + (f" (first: {failed[0]})" if failed else "") + f"; {out} untouched", file=sys.stderr)
            return 1
        print("publish: verified; building", file=sys.stderr)
        writer = site.build(packs, out, verify=rep)
    except errors as e:
        print(f"publish: {_one_line(e)}", file=sys.stderr)
        return 2
    pages = sum(1 for p in writer.files if p.endswith(".html"))
    print(f"published {pages} pages, {len(writer.files)} files to {out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lumina.publish", description=__doc__.splitlines()[0])
    ap.add_argument("--packs", default="packs", type=Path, help="folder of packs (default: packs)")
    ap.add_argument("--out", default="site", type=Path, help="output folder (default: site)")
    args = ap.parse_args(argv)
    return publish(args.packs, args.out)


if __name__ == "__main__":
    sys.exit(main())
