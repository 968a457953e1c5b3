"""Issue 10, part 3: `search`, the reference player that samples the hidden cards and plays every
option to the end of the hand. It plays legal games, is a pure function of the seed, computes the
same choices as plain Python, and refuses bad knobs."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim import get_variant, play
from sim.engine import layout as L
from strategies import REGISTRY, StrategyError, parse_strategy
from strategies.heuristic import heuristic_decide_nb
from strategies.library import BASELINE
from strategies.search import DEFAULT_CONFIDENCE, DEFAULT_SAMPLES, K_SAMPLES, ROLLOUTS, SEED_SHIFT, search_decide_nb
from tests.decisions import decisions

FAST = "search:samples=2"


@pytest.mark.parametrize("variant", ["classic-2p", "classic-4p", "buraco-2p", "buraco-4p"])
def test_search_plays_legal_complete_games(variant):
    r = play(variant, [FAST, "baseline"], games=2, seed=3, check=True)  # every invariant after every action
    g = r.games
    assert len(g) == 2 and (g.n_hands >= 1).all() and not g.capped_game.any()
    assert set(g.winner_side) <= {0, 1}


def test_search_is_a_pure_function_of_the_seed():
    a = play("classic-2p", [FAST, "baseline"], games=2, seed=8).games
    b = play("classic-2p", [FAST, "baseline"], games=2, seed=8).games
    pd.testing.assert_frame_equal(a, b)
    c = play("classic-2p", [FAST, "baseline"], games=2, seed=9).games
    assert not a.equals(c)


def test_more_samples_change_some_choices():
    """The knob reaches the kernel: at the same decisions, 1 and 8 samples do not always agree."""
    ds = [d for d in decisions("classic-2p", 4, hands=1, period=3) if d.n > 2][:25]
    one = [search_decide_nb(d.S.ru, d.obs.copy(), d.opts.copy(), d.n, parse_strategy("search:samples=1").params)
           for d in ds]
    eight = [search_decide_nb(d.S.ru, d.obs.copy(), d.opts.copy(), d.n, parse_strategy("search:samples=8").params)
             for d in ds]
    assert all(0 <= i < d.n for i, d in zip(one + eight, ds + ds, strict=True))
    assert one != eight


SCRIPT = """
import json, sys
import numpy as np
from strategies.search import search_decide_nb
z = np.load(sys.argv[1])
out = []
for i in range(len(z["n"])):
    n = int(z["n"][i])
    out.append(int(search_decide_nb(z["R"], z["obs"][i].copy(), z["opts"][i].copy(), n, z["prm"])))
print(json.dumps(out))
"""


@pytest.mark.parametrize("player", ["search:samples=1", "search:samples=1,rollout=learned"])
def test_search_chooses_the_same_as_plain_python(tmp_path: Path, player: str):
    """Under NUMBA_DISABLE_JIT=1 (every kernel a Python function) the same decisions come out, with the heuristic's
    rollouts and with learned's (classic-4p's network)."""
    ds = [d for d in decisions("classic-4p", 6, hands=1, period=4) if d.n > 1][:4]
    prm = parse_strategy(player).at(get_variant("classic-4p")).params
    f = tmp_path / "positions.npz"
    np.savez(f, R=ds[0].S.ru, obs=np.stack([d.obs for d in ds]), opts=np.stack([d.S.opts for d in ds]),
             n=np.array([d.n for d in ds]), prm=prm)
    jitted = [int(search_decide_nb(d.S.ru, d.obs.copy(), d.S.opts.copy(), d.n, prm)) for d in ds]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(f)], env=env, capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout) == jitted


def test_search_plays_a_short_game_as_plain_python():
    """A whole game (one hand capped at a few turns) with every kernel a Python function."""
    script = ("from dataclasses import replace\n"
              "from sim import get_variant, play\n"
              "v = get_variant('classic-2p').replace(max_turns_per_hand=6, max_hands_per_game=1)\n"
              "g = play(v, ['search:samples=1', 'baseline'], games=1, seed=2, check=True).games\n"
              "print(int(g.n_hands[0]), int(g.decisions[0]))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    hands, decided = (int(x) for x in out.stdout.split())
    assert hands == 1 and decided > 0
    v = get_variant("classic-2p").replace(max_turns_per_hand=6, max_hands_per_game=1)
    g = play(v, ["search:samples=1", "baseline"], games=1, seed=2).games
    assert int(g.decisions[0]) == decided  # and the same game as compiled


def test_the_confidence_knob_reaches_the_kernel():
    """confidence 0 takes the best mean; a very high one keeps baseline's choice unless no sample
    disagrees, so the two differ somewhere, and the high one agrees with baseline more often."""
    ds = [d for d in decisions("classic-2p", 4, hands=1, period=3) if d.n > 2][:25]
    base = [heuristic_decide_nb(d.S.ru, d.obs.copy(), d.opts.copy(), d.n, BASELINE.params()) for d in ds]
    picks = {}
    for conf in (0, 10):
        prm = parse_strategy(f"search:samples=6,confidence={conf}").params
        picks[conf] = [search_decide_nb(d.S.ru, d.obs.copy(), d.opts.copy(), d.n, prm) for d in ds]
    assert picks[0] != picks[10]
    agree = {c: sum(a == b for a, b in zip(picks[c], base, strict=True)) for c in picks}
    assert agree[10] > agree[0]


def test_search_knobs_are_checked():
    assert parse_strategy("search").knob_values() == {"samples": DEFAULT_SAMPLES, "confidence": DEFAULT_CONFIDENCE,
                                                      "budget": 0, "rollout": ROLLOUTS.index("baseline")}
    assert parse_strategy("search:rollout=expert").label == "search:rollout=expert"
    assert parse_strategy("search:samples=40").knob_values()["samples"] == 40
    for bad in ("search:samples=0", "search:samples=2.5", f"search:samples={10 ** 6}", "search:depth=3",
                "search:samples=many", "search:confidence=-1", "search:confidence=11", "search:rollout=search",
                "search:rollout=reference", "search:budget=-1", "search:budget=1.5"):
        with pytest.raises(StrategyError):
            parse_strategy(bad)


def test_search_travels_to_worker_processes_by_name():
    spec = REGISTRY["search"]
    assert pickle.loads(pickle.dumps(spec)) is spec
    choice = parse_strategy("search:samples=3")
    back = pickle.loads(pickle.dumps(choice))
    assert back.spec is spec and back.params[K_SAMPLES] == 3


def test_search_never_leaves_the_hidden_cards_it_was_dealt_in_the_observation():
    """It reads only its arguments: the observation and options it is handed are left as they were
    (but for the scratch at the end), so its samples cannot leak into the game."""
    d = next(d for d in decisions("classic-4p", 3, hands=1, period=3) if d.n > 2)
    obs, opts = d.obs.copy(), d.opts.copy()
    search_decide_nb(d.S.ru, obs, opts, d.n, parse_strategy(FAST).params)
    assert np.array_equal(obs[:len(obs) - L.OB_SCRATCH], d.obs[:len(obs) - L.OB_SCRATCH])
    assert np.array_equal(opts, d.opts)


def test_the_rollout_knob_puts_the_lookahead_on_top_of_another_fast_player():
    """rollout=expert: expert plays the rollouts and gives search its default choices, with expert's own defaults at
    the variant (at boat-4p far from baseline's), so the games differ from search over baseline (the knob vector
    it reads: tests/strategies/test_strategy_api.py)."""
    a = play("boat-4p", ["search:samples=2", "baseline"], games=2, seed=4).games
    b = play("boat-4p", ["search:samples=2,rollout=expert", "baseline"], games=2, seed=4).games
    assert not a.equals(b)


def test_rollout_learned_plays_the_network_and_expert_where_there_is_none():
    """rollout=learned (issue 37): learned's own kernel plays the rollouts and gives search its default choices. At
    classic-4p its network departs from expert, so the games differ from search over expert; at classic-2p it has no
    network and plays expert's choice, so the games are search over expert's, exactly (its knobs reach the rollouts:
    tests/strategies/test_strategy_api.py)."""
    from sim.analysis.strength import has_network

    assert has_network("classic-4p") and not has_network("classic-2p")
    a = play("classic-4p", ["search:samples=2,rollout=learned", "expert"], games=1, seed=2).games
    b = play("classic-4p", ["search:samples=2,rollout=expert", "expert"], games=1, seed=2).games
    assert not a.drop(columns=["strategy_0"]).equals(b.drop(columns=["strategy_0"]))
    c = play("classic-2p", ["search:samples=2,rollout=learned", "expert"], games=1, seed=2).games
    d = play("classic-2p", ["search:samples=2,rollout=expert", "expert"], games=1, seed=2).games
    pd.testing.assert_frame_equal(c.drop(columns=["strategy_0"]), d.drop(columns=["strategy_0"]))


def test_search_plays_the_same_games_with_a_budget_that_is_never_reached():
    a = play("classic-2p", ["search:samples=4", "baseline"], games=1, seed=6).games
    b = play("classic-2p", ["search:samples=4,budget=100000", "baseline"], games=1, seed=6).games
    c = play("classic-2p", ["search:samples=4,budget=2", "baseline"], games=1, seed=6).games
    pd.testing.assert_frame_equal(a.drop(columns=["strategy_0"]), b.drop(columns=["strategy_0"]))
    assert not a.drop(columns=["strategy_0"]).equals(c.drop(columns=["strategy_0"]))


def test_an_answer_no_deal_explains_is_the_rollout_players_answer():
    """At an answer the asker could go out, so the sampler deals it hands until one could (rejection sampling); a
    long hand that can go out is a rare deal, and none may come in the sampler's tries (classic-6p, game 172 of
    `search:rollout=expert` against expert, seed 1: an asker with 12 cards). search then answers as its rollout
    player does, where it used to stop the run with "no state matches the observation"."""
    from sim.analysis.trace import trace_decisions
    from sim.engine.planning import S_ERR, new_state, sample_nb
    from sim.rules import pack

    v = get_variant("classic-6p")
    players = [parse_strategy(s).at(v) for s in ("search:rollout=expert", "expert")]
    t = trace_decisions(v, players, 1, 1, traced=(0,), points=(L.DP_ANSWER,), first=172)
    R = pack(v)
    unexplained = 0
    for i in range(len(t)):
        obs = np.zeros(L.obs_len(int(R[L.R_MAXM])), np.int64)
        obs[:t.obs.shape[1]] = t.obs[i]
        S = new_state(R)
        sample_nb(R, obs, S, int(obs[L.OB_RAND]) << SEED_SHIFT)  # its first sample, as search draws it
        if S.st[S_ERR] == 0:
            continue
        unexplained += 1
        opts = np.zeros((L.MAXOPT, L.OPT_FIELDS), np.int64)
        n = int(t.decisions["n"].iat[i])
        opts[:n] = t.options_of(i)[:, :L.OPT_FIELDS]
        prm = players[0].params
        assert search_decide_nb(R, obs, opts, n, prm) == heuristic_decide_nb(R, obs, opts, n, prm.copy())
    assert unexplained >= 1  # the game still holds such an answer (else pick another: the fallback is untested)
