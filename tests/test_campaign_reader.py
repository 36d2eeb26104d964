"""The campaign reader is bounded like every other input (issue 28, round 3 of the attack).

`lumina.worlds.load` reads a campaign TOML through the bounded reader (size, strict
UTF-8) and counts, before tomllib builds anything, its nesting, its integers' digits and
its tables and keys; and it checks that every bucket can place its blocks, walls and
mirrors on its grid. Every failure is one line naming the file and the field, exit 2.
Big inputs run in a subprocess with a time and memory limit, so a regression fails
instead of hanging or swapping.
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from lumina import cli
from lumina.worlds import MAX_CAMPAIGN_BYTES, CampaignError, load

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGN = (ROOT / "lumina" / "campaign.toml").read_text(encoding="utf-8")
MEMORY = 1 << 30


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, preexec_fn=_limit,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, errors="backslashreplace")


def one_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= cli.MAX_LINE, proc.stderr[:2000]
    assert "internal error" not in lines[0] and "out of memory" not in lines[0], lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def write(tmp_path: Path, text: str, name: str = "campaign.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_campaign_seed_of_5000_digits_is_one_line(tmp_path):
    """Python's int-string limit ended this in "internal error"."""
    p = write(tmp_path, re.sub(r"(?m)^seed = \d+", "seed = " + "9" * 5000, CAMPAIGN, count=1))
    for cmd in (("lumina.verify", "--campaign", str(p), str(tmp_path)),
                ("lumina.generate", "--campaign", str(p), "--world", "1", "--out", str(tmp_path / "o"))):
        one_line(run(*cmd), str(p), "seed", "5000 digits")
    assert not (tmp_path / "o").exists()


def test_campaign_nested_5000_deep_names_the_file(tmp_path):
    p = write(tmp_path, CAMPAIGN.replace("levels = 4", "levels = " + "[" * 5000 + "]" * 5000, 1))
    one_line(run("lumina.verify", "--campaign", str(p), str(tmp_path)), str(p), "levels", "nested")


@pytest.mark.parametrize("kind", ["headers", "inline-tables", "keys"])
def test_campaign_of_tables_within_the_size_cap_is_refused_before_parsing(tmp_path, kind):
    """Under the size cap, a file of table headers (or inline tables, or keys) is counted
    before tomllib builds a dict per table (before: 3 GB for 8 MB of headers)."""
    unit = {"headers": "[t{}]\n", "inline-tables": "t{} = {{}}\n", "keys": "k{} = 1\n"}[kind]
    text, i = [], 0
    size = 0
    while size < MAX_CAMPAIGN_BYTES - 64:
        line = unit.format(i)
        text.append(line)
        size += len(line)
        i += 1
    p = write(tmp_path, "".join(text))
    one_line(run("lumina.verify", "--campaign", str(p), str(tmp_path)), str(p), "at most")


def test_campaign_of_8mb_of_table_headers_is_refused_by_size(tmp_path):
    p = tmp_path / "campaign.toml"
    p.write_bytes(b"[t]\n" * (2 << 20))
    one_line(run("lumina.verify", "--campaign", str(p), str(tmp_path)), str(p), "at most")


@pytest.mark.parametrize("change, field", [
    (('size = "6x6"', 'size = "4x4"'), "buckets[3].size"),
    (("blockers = [3, 5]", "blockers = [3, 15]"), "buckets[0].size"),
])
def test_bucket_that_cannot_fit_its_blocks_is_refused_on_reading(tmp_path, change, field):
    """A bucket whose blocks, walls and mirrors cannot fit its grid is refused when the
    campaign is read, naming the world and the bucket (before: `generate` searched for a
    minute and then failed)."""
    old, new = change
    assert old in CAMPAIGN, old
    p = write(tmp_path, CAMPAIGN.replace(old, new, 1))
    with pytest.raises(CampaignError, match=re.escape(field)) as e:
        load(p)
    assert str(p) in str(e.value) and "world 1" in str(e.value)
    line = one_line(run("lumina.generate", "--campaign", str(p), "--world", "1", "--out",
                        str(tmp_path / "o"), timeout=30), str(p), field)
    assert "cells" in line


def test_committed_campaign_is_within_every_bound():
    from lumina import worlds
    text = CAMPAIGN
    assert len(text.encode()) < MAX_CAMPAIGN_BYTES // 50
    worlds.check_bounds(text, "campaign.toml")
    for w in worlds.CAMPAIGN.worlds:
        for b in (*w.buckets, *worlds.CAMPAIGN.daily_buckets):
            assert worlds.cells_needed(b.blockers[1], b.walls[1], b.mirrors[1]) < b.width * b.height


def test_strings_and_comments_are_not_counted(tmp_path):
    """Long digit runs and brackets inside strings and comments are text, not numbers."""
    text = CAMPAIGN.replace('name = "', '# ' + "9" * 100 + " [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\nname = \"", 1)
    p = write(tmp_path, text)
    assert load(p).worlds[0].name
