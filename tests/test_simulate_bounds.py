"""`playtest simulate` is bounded as it goes (issue 28).

It streams its log in batches of players (memory bounded whatever --players is),
refuses at once a request whose least possible size is over the play-log bound, and
stops the moment the bound is crossed, leaving nothing written.
"""
from __future__ import annotations

import importlib
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from lumina import cli
from lumina.playtest import schema
from lumina.playtest.replay import Book

ROOT = Path(__file__).resolve().parents[1]
WORLD1 = ROOT / "tests" / "fixtures" / "packs" / "world-1.json"
MEMORY = 1 << 30
simulate_mod = importlib.import_module("lumina.playtest.simulate")
playtest_main = importlib.import_module("lumina.playtest.__main__")


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def test_simulate_request_that_cannot_fit_is_refused_at_once(tmp_path):
    """--players 100000 on the real packs: refused in seconds (before: every log kept in
    memory, hours and gigabytes, and the 16 MB bound checked only at the end)."""
    out = tmp_path / "sim.jsonl"
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "lumina.playtest", "simulate", "--levels", str(ROOT / "packs"),
                           "--players", "100000", "--seed", "1", "--out", str(out)], capture_output=True,
                          text=True, timeout=120, preexec_fn=_limit, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "at least" in proc.stderr and str(schema.MAX_LOG_BYTES) in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert time.monotonic() - t0 < 60
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_simulate_stops_at_the_bound_the_moment_it_is_crossed(tmp_path, monkeypatch, capsys):
    """A request that could fit but does not: the simulation stops within a batch of the
    bound (an eighth of it), not after every player, and nothing is written."""
    entries = list(Book([WORLD1]).entries.values())
    players = 400
    least = simulate_mod.least_bytes(entries, players=players, seed=1)
    bound = least + 1                  # the least size fits; the real log is far bigger
    monkeypatch.setattr(schema, "MAX_LOG_BYTES", bound)
    played: set[str] = set()
    real_play = simulate_mod.play

    def counting(lm, pl, seed, first, prm):
        played.add(pl.id)
        return real_play(lm, pl, seed, first, prm)
    monkeypatch.setattr(simulate_mod, "play", counting)
    out = tmp_path / "sim.jsonl"
    code = cli.guarded(playtest_main.main, ["simulate", "--levels", str(WORLD1), "--players", str(players),
                                            "--seed", "1", "--out", str(out)], prog="lumina.playtest")
    err = capsys.readouterr().err
    assert code == 2 and str(out) in err and "nothing written" in err, err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == []
    assert len(played) < players / 2, f"played {len(played)} of {players} players past the bound"


def test_simulate_streams_the_same_log_in_any_batch_size():
    """Batching never changes the log: each player's play depends on the seed, the player
    and the level alone."""
    entries = list(Book([WORLD1]).entries.values())
    whole = list(simulate_mod.simulate(entries, players=12, seed=5, batch_bytes=1 << 30))
    assert whole == list(simulate_mod.simulate(entries, players=12, seed=5, batch_bytes=1))
    assert whole == list(simulate_mod.simulate(entries, players=12, seed=5, batch_bytes=20_000))
    assert simulate_mod.least_bytes(entries, players=12, seed=5) <= sum(len(x) + 1 for x in whole)
