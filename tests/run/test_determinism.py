"""Same seed, same results: whatever the workers or chunks, and jitted or as plain Python."""

import json
import os
import subprocess
import sys

import pandas as pd

from sim import play

COLS = ["game", "deal", "winner_side", "n_hands", "capped_hands", "decisions", "turns", "score_0", "score_1"]


def test_same_seed_gives_identical_results():
    a = play("classic-4p", ["baseline", "random"], games=60, seed=5)
    b = play("classic-4p", ["baseline", "random"], games=60, seed=5)
    pd.testing.assert_frame_equal(a.games, b.games)
    c = play("classic-4p", ["baseline", "random"], games=60, seed=6)
    assert not a.games[COLS].equals(c.games[COLS])


def test_results_do_not_depend_on_chunks_or_workers():
    one = play("classic-2p", ["baseline", "random"], games=80, seed=9, chunk=80)
    small = play("classic-2p", ["baseline", "random"], games=80, seed=9, chunk=7)
    two = play("classic-2p", ["baseline", "random"], games=80, seed=9, workers=2, chunk=10)
    pd.testing.assert_frame_equal(one.games, small.games)
    pd.testing.assert_frame_equal(one.games, two.games)


def test_a_game_is_the_same_alone_as_inside_a_run():
    run = play("classic-3p", ["baseline", "random"], games=12, seed=4).games
    from sim.run.runner import make_job, run_chunk

    rows, _ = run_chunk(make_job("classic-3p", ["baseline", "random"], 4), 10, 1, False)
    assert int(rows[0, 8]) == int(run.loc[10, "score_0"])


def test_duplicate_deals_rotate_strategies_through_the_seats():
    g = play("classic-4p", ["baseline", "random"], games=4, seed=3).games
    assert list(g.deal) == [0, 0, 1, 1]
    assert list(g.strategy_0.astype(str)) == ["baseline+baseline", "random+random"] * 2


# games played jitted and as plain Python, at full size (plain Python is slow: make test-fast plays fewer)
PLAIN_PYTHON_GAMES = [("classic-4p", ["baseline", "random"], 150), ("classic-2p", ["random"], 60),
                      ("classic-3p", ["baseline"], 40), ("classic-6p", ["random", "baseline"], 30)]

SCRIPT = """
import json, sys
from sim import play
out = {}
for v, strats, n in json.loads(sys.argv[1]):
    g = play(v, strats, games=n, seed=77).games
    out[v] = g[[c for c in g.columns if not c.startswith("strategy_") and c != "capped_game"]].values.tolist()
print(json.dumps(out))
"""


def test_jitted_and_plain_python_kernels_give_identical_games(scaled):
    games = json.dumps([(v, strats, scaled(n, least=2)) for v, strats, n in PLAIN_PYTHON_GAMES])
    env = dict(os.environ)
    runs = []
    for disable in ("0", "1"):
        env["NUMBA_DISABLE_JIT"] = disable
        out = subprocess.run([sys.executable, "-c", SCRIPT, games], env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1]


def test_a_footer_names_the_code_and_is_dirty_only_when_the_code_was_edited(tmp_path):
    # a committed report is written into the checkout: that must not make the footer of its own code say +dirty
    import subprocess

    from sim.run.experiment import git_commit

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    (tmp_path / "sim").mkdir()
    (tmp_path / "reports").mkdir()
    (tmp_path / "sim" / "x.py").write_text("x = 1\n")
    (tmp_path / "reports" / "r.md").write_text("old\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "c")
    clean = git_commit(tmp_path)
    assert clean and not clean.endswith("+dirty")
    (tmp_path / "reports" / "r.md").write_text("regenerated\n")
    assert git_commit(tmp_path) == clean  # a report written anew: the code is the commit's
    (tmp_path / "sim" / "x.py").write_text("x = 2\n")
    assert git_commit(tmp_path) == clean + "+dirty"
