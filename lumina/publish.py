"""python -m lumina.publish [--packs packs] [--out site]: verify, then build the site.

Every pack is read once (`lumina.packfile.read_pack`; the practice pack too, when the
folder has one: `lumina.verify.with_practice`); those very objects are
verified (`lumina.verify.verify_packs`: every level re-solved) and then rendered, so
a pack replaced on disk in between is neither published nor half-trusted. If any
level fails, nothing is published: exit 1 and the output folder is left exactly as
it was. Bad or unreadable input (a missing folder, a
file that is not JSON, a level with a bad field) is one short line on stderr
naming the file, level and field, exit 2, no traceback. Progress goes to
stderr; the one summary line of a successful build goes to stdout.

Output safety (`lumina.safeio`): `--out` may not be, contain or sit above the
working folder, the packs folder or the project; an existing `--out` is replaced
only if it is empty or carries the marker file `.lumina-site` of an earlier
publish. The new site is swapped in with one atomic exchange, so a kill at any
instant leaves the old site or the new one complete; leftovers of a killed run are
deleted by the next; a second publish to the same folder waits for the first.

The campaign (`lumina/campaign.toml`, or `--campaign FILE`) gives the verifier the
worlds' shape and the site its gates and daily pool. Whether the pack set can be
published at all (the daily pool's size, a world per pack, ...) is the verifier's one
rule, `lumina.verify.pack_set_problems`, checked before any level is re-solved: what
publish refuses, `python -m lumina.verify PACKS_FOLDER` fails on too.

Exit codes: 0 published, 1 verification failed, 2 bad input.
"""
from __future__ import annotations

import functools
import shlex

import sys
from pathlib import Path
from typing import Callable, Sequence

from lumina import safeio
from lumina.cli import ArgumentParser, int_in, one_line, run
from lumina.executor import MAX_WORKERS, default_workers
from lumina.packfile import Pack, read_pack
from lumina.render import pages, site
from lumina.verify import VerifyReport, pack_set_problems, verify_packs, with_practice
from lumina.worlds import CAMPAIGN, Campaign, load

PROJECT = Path(__file__).resolve().parent.parent


#: The verifier's seam: a function of (the packs read, the campaign) to a VerifyReport.
#: Publish runs `lumina.verify.verify_packs`; a test passes its own (`verify=`).
Verifier = Callable[[list[Pack], Campaign], VerifyReport]


#: Bad input: one line on stderr, exit 2 (PackError and SiteError are ValueErrors).
INPUT_ERRORS = (ValueError, OSError)


def protected(packs: Path, campaign: Campaign = CAMPAIGN) -> list[Path]:
    """Folders (and the campaign file) an --out must never be, contain or sit above."""
    return [Path.cwd(), packs, PROJECT, Path(campaign.source)]


def publish(packs: Path, out: Path, campaign: Campaign = CAMPAIGN, *,
            verify: Verifier = verify_packs, builders: Sequence = pages.BUILDERS) -> int:
    """Verify `packs` (with `verify`), then build into `out` (the page kinds of
    `builders`). Returns the exit code."""
    try:
        safeio.check_output(out, inputs=[packs, campaign.source], files=[])   # before any work
        safeio.check_out(out, protect=protected(packs, campaign))
        with safeio.lock(out):                               # a second publish waits
            return _publish(packs, out, campaign, verify, builders)
    except INPUT_ERRORS as e:
        print(one_line(f"publish: {e}"), file=sys.stderr)
        return 2


def _publish(packs: Path, out: Path, campaign: Campaign, verify: Verifier,
             builders: Sequence) -> int:
    """Verify, render and swap in the site (the lock on `out` held)."""
    if not packs.is_dir():
        raise site.SiteError(f"{packs}: not a folder of packs")
    # once: verified, then rendered; the practice pack too (its page shows its levels)
    read = [read_pack(p) for p in with_practice([packs])]
    problems = pack_set_problems(read, campaign, [packs], levels=False)   # the verifier's rule, first
    if problems:
        raise site.SiteError(problems[0])
    print(f"publish: verifying {len(read)} packs in {packs}", file=sys.stderr)
    report = verify(read, campaign)
    if not report.ok:
        for line in report.lines:
            print(line, file=sys.stderr)
        failed = [f"{f['level']}: {f['reason']}" for p in report.packs for f in p["failures"]]
        print(f"publish: refused: {len(failed)} level(s) failed verification"
              + (f" (first: {failed[0]})" if failed else "") + f"; {out} untouched", file=sys.stderr)
        return 1
    print("publish: verified; building", file=sys.stderr)
    writer = site.render(site.gather(packs, report, campaign, packs=read), builders=builders)
    safeio.replace_tree(writer.files, out, protect=protected(packs, campaign))
    pages = sum(1 for p in writer.files if p.endswith(".html"))
    print(f"published {pages} pages, {len(writer.files)} files to {out}")
    print(serve_command(out))
    return 0


def serve_command(out: Path) -> str:
    """What to run next: the site served on this machine (a file:// page cannot play)."""
    return (f"play it: python3 -m http.server -b 127.0.0.1 8000 --directory {shlex.quote(str(out))}"
            "   then open http://127.0.0.1:8000/")


def main(argv: Sequence[str] | None = None, *, verify: Verifier = verify_packs,
         builders: Sequence = pages.BUILDERS) -> int:
    """The command; `verify` and `builders` are the seams `publish` takes."""
    ap = ArgumentParser(prog="python -m lumina.publish", description=__doc__.splitlines()[0])
    ap.add_argument("--packs", default="packs", type=Path, help="folder of packs (default: packs)")
    ap.add_argument("--out", default="site", type=Path, help="output folder (default: site)")
    ap.add_argument("--campaign", type=Path, metavar="FILE",
                    help="the campaign file (default: lumina/campaign.toml)")
    ap.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=default_workers(),
                    help="local processes that verify the levels (default: this machine's "
                         "cores, at most 8)")
    args = ap.parse_args(argv)
    campaign = CAMPAIGN if args.campaign is None else load(args.campaign)
    if verify is verify_packs:
        verify = functools.partial(verify_packs, workers=args.workers)
    return publish(args.packs, args.out, campaign, verify=verify, builders=builders)


if __name__ == "__main__":
    run(main)
