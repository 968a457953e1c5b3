"""Issue 3: the library, user strategies written in Python, and parameter sweeps."""

from __future__ import annotations

import numpy as np
import pytest

from sim import Experiment, play, sweep, trace_decisions, win_rates
from sim.cli import main
from sim.engine import layout as L
from sim.engine.game import play_batch_nb
from sim.run.runner import EngineError, make_job
from sim.stats import paired_difference
from strategies import REGISTRY, StrategyError, parse_strategy
from strategies.user import DEFER, USER_SLOT0, user_strategy

LIBRARY = ["random", "baseline", "aggressive", "pile-hoarder", "freezer", "cautious"]


def compiled_engines() -> int:
    return len(play_batch_nb.signatures)


# --- the library -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant,games", [("classic-4p", 60), ("classic-2p", 40), ("classic-3p", 45),
                                           ("classic-6p", 30)])
def test_baseline_beats_random_by_a_wide_margin_in_every_variant(variant, games):
    seats = ["baseline", "random", "random"] if variant == "classic-3p" else ["baseline", "random"]
    r = play(variant, seats, games, seed=21)
    w = win_rates(r.games).set_index("strategy")
    mine = next(x for x in w.index if "baseline" in x)
    other = next(x for x in w.index if "random" in x)
    assert w.loc[mine, "ci_low"] > 0.8, w  # wins more than 80% of games, with 95% confidence
    d = paired_difference(r.games, mine, other)
    assert d["ci_low"] > 1000, d  # and by more than 1,000 points a deal


@pytest.mark.parametrize("name", LIBRARY[2:])
def test_every_named_strategy_beats_random(name):
    r = play("classic-4p", [name, "random"], 16, seed=4)
    w = win_rates(r.games).set_index("strategy")
    assert w.loc[f"{name}+{name}", "win_rate"] >= 0.9


def test_library_strategies_differ_from_baseline_only_in_knob_defaults():
    base = REGISTRY["baseline"]
    for name in LIBRARY[2:]:
        spec = REGISTRY[name]
        assert spec.decide is base.decide and [k.name for k in spec.knobs] == [k.name for k in base.knobs]
        assert any(a.default != b.default for a, b in zip(spec.knobs, base.knobs, strict=True)), name


def test_strategies_command_lists_every_named_strategy_and_knob(capsys):
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    for name in LIBRARY:
        assert f"\n{name}:" in "\n" + out
    for knob in ["min_pile", "freeze", "hold_black3", "ask", "answer_max", "meld", "wilds", "go_out"]:
        assert f"    {knob} " in out
    assert "accepted: never, always or a whole number from 0 to 108" in out


def test_knobs_take_named_values_on_the_command_line_form():
    c = parse_strategy("baseline:freeze=never,hold_black3=8,meld=pairs,go_out=asap")
    assert c.label == "baseline:freeze=never,hold_black3=8,meld=pairs,go_out=asap"
    assert c.knob_values()["hold_black3"] == 8
    with pytest.raises(StrategyError, match="give never, always or a whole number from 0 to 108"):
        parse_strategy("baseline:freeze=sometimes")
    with pytest.raises(StrategyError, match="out of range"):
        parse_strategy("baseline:meld=3")


# --- user strategies ---------------------------------------------------------------------------


@user_strategy("test-defer-all", base="baseline")
def defer_all(rules, obs, opts, n, knobs):
    return DEFER


@user_strategy("test-high-discard", base="baseline", knobs=[("keep_wilds", 0, 1, 1, "1: never discard a wild")])
def high_discard(rules, obs, opts, n, knobs):
    """Discards the card of highest value; baseline decides everything else."""
    if obs[L.OB_DP] != L.DP_DISCARD:
        return DEFER
    best = 0
    bestv = -1
    for i in range(n):
        k = L.option_card(opts, i)  # the docs' example: the contract's accessors, no offsets
        r = L.card_rank(k)
        v = rules[L.R_CARDVAL + r]
        if knobs[USER_SLOT0] >= 1 and (r == 1 or r == 13):
            v = -1
        if v > bestv:
            bestv = v
            best = i
    return best


@user_strategy("test-illegal", base="random")
def illegal(rules, obs, opts, n, knobs):
    if obs[L.OB_DP] == L.DP_DISCARD:
        return n  # one past the last option
    return DEFER


def test_user_strategy_that_defers_everything_plays_exactly_like_its_base():
    def rows(strategies: list[str]) -> np.ndarray:
        with Experiment([make_job("classic-4p", strategies, 9)], 6, keep_rows=True) as exp:
            exp.advance()
        return exp.kept_rows(0)[0]

    assert np.array_equal(rows(["test-defer-all", "random"]), rows(["baseline", "random"]))


def test_user_strategy_replaces_one_decision_and_is_played_as_written():
    t = trace_decisions("classic-4p", ["test-high-discard", "baseline"], 4, seed=3, points=(L.DP_DISCARD,))
    values = np.array([20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50])
    assert len(t) > 50
    for i in range(len(t)):
        legal = [int(k) for k in t.options_of(i)[:, 1]]
        ranks = [13 if k == L.JOKER else k // 4 for k in legal]
        v = [-1 if r in (1, 13) else values[r] for r in ranks]
        assert t.decisions["a"].iat[i] == legal[int(np.argmax(v))]
    assert (t.decisions["strategy"] == "test-high-discard").all()


def test_user_strategy_knobs_reach_the_function_and_base_knobs_still_apply():
    c = parse_strategy("test-high-discard:keep_wilds=0,min_pile=7")
    assert c.params[USER_SLOT0] == 0 and c.knob_values()["min_pile"] == 7
    with pytest.raises(StrategyError, match="out of range"):
        parse_strategy("test-high-discard:keep_wilds=2")


def test_illegal_choice_stops_the_run_naming_strategy_point_and_choice():
    with pytest.raises(EngineError) as e:
        play("classic-4p", ["test-illegal", "baseline"], 2, seed=1)
    msg = str(e.value)
    assert "'test-illegal'" in msg and "discard" in msg and "illegal choice" in msg
    n = int(msg.split("illegal choice ")[1].split()[0])
    assert n >= 2  # the choice it made: one past its options


def test_user_strategies_never_recompile_the_engine():
    play("classic-4p", ["test-defer-all", "random"], 1, seed=1)
    before = compiled_engines()

    @user_strategy("test-fresh", base="baseline")
    def fresh(rules, obs, opts, n, knobs):
        return n - 1 if obs[L.OB_DP] == L.DP_DISCARD else DEFER

    play("classic-4p", ["test-fresh", "test-high-discard", "random"], 2, seed=1)
    play("classic-4p", ["test-fresh", "baseline"], 2, seed=1)
    assert compiled_engines() == before


def test_user_strategies_give_the_same_results_in_worker_processes():
    a = play("classic-4p", ["test-high-discard", "baseline"], 8, seed=2, workers=1).games
    b = play("classic-4p", ["test-high-discard", "baseline"], 8, seed=2, workers=2, chunk=2).games
    assert a.equals(b)


def test_user_strategy_names_and_bases_are_checked():
    with pytest.raises(StrategyError, match="unknown base strategy"):
        user_strategy("x", base="nope")
    with pytest.raises(StrategyError, match="already exists"):
        user_strategy("baseline")(lambda rules, obs, opts, n, knobs: -1)
    with pytest.raises(StrategyError, match="already a knob"):
        user_strategy("y", knobs=[("min_pile", 0, 1, 0, "clash")])


def test_cli_loads_a_user_strategy_file_and_reports_its_illegal_choice(tmp_path, capsys):
    f = tmp_path / "mine.py"
    f.write_text(
        "from strategies.user import user_strategy, DEFER\n"
        "from sim.engine import layout as L\n"
        "@user_strategy('file-bad', base='baseline')\n"
        "def bad(rules, obs, opts, n, knobs):\n"
        "    return 99 if obs[L.OB_DP] == L.DP_DRAW else DEFER\n")
    assert main(["strategies", "--load", str(f)]) == 0
    assert "file-bad (user, over baseline)" in capsys.readouterr().out
    out = tmp_path / "r.parquet"
    code = main(["play", "classic-4p", "-s", "file-bad", "--games", "2", "--seed", "1", "--load", str(f),
                 "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 3 and "\n" not in err
    assert "'file-bad'" in err and "illegal choice 99" in err and "draw-or-take" in err
    assert not out.exists()
    assert main(["play", "classic-4p", "-s", "baseline", "--games", "1", "--seed", "1",
                 "--load", str(tmp_path / "missing.py")]) == 2
    assert "no such file" in capsys.readouterr().err


# --- sweeps ------------------------------------------------------------------------------------


def test_sweep_plays_every_grid_row_against_the_opponent_without_recompiling():
    play("classic-4p", ["baseline"], 1, seed=1)
    before = compiled_engines()
    df = sweep("classic-4p", "baseline", {"min_pile": [0, 8], "freeze": ["never", 0]}, "baseline", games=8, seed=3)
    assert compiled_engines() == before
    # knob columns are typed (sim.records.tidy): numbers as numbers, a named value makes an ordered categorical
    assert list(df["min_pile"]) == [0, 0, 8, 8] and list(df["freeze"]) == ["never", "0", "never", "0"]
    assert (df["games"] == 8).all()
    assert {"win_rate", "win_low", "win_high", "margin", "margin_low", "margin_high", "elo", "real"} <= set(df.columns)


def test_sweep_row_equal_to_the_opponent_is_an_even_match():
    df = sweep("classic-4p", "baseline", {"min_pile": [3]}, "baseline", games=10, seed=5)
    assert df["win_rate"].iat[0] == 0.5 and df["margin"].iat[0] == 0


def test_sweep_rows_are_the_games_play_would_give():
    df = sweep("classic-2p", "baseline:meld=three", {"hold_black3": ["keep"]}, "random", games=6, seed=8)
    r = play("classic-2p", ["baseline:meld=three,hold_black3=keep", "random"], 6, seed=8)
    w = win_rates(r.games).set_index("strategy")
    assert df["wins"].iat[0] == w.loc["baseline:meld=three,hold_black3=keep", "wins"]


def test_sweep_refuses_bad_knobs_before_playing():
    with pytest.raises(StrategyError, match="has no knob 'nope'"):
        sweep("classic-4p", "baseline", {"nope": [1]}, games=2)
    with pytest.raises(StrategyError, match="out of range"):
        sweep("classic-4p", "baseline", {"min_pile": [1, 500]}, games=2)


def test_cli_sweep_prints_a_table_and_writes_its_table_and_runs(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main(["sweep", "classic-4p", "-s", "baseline", "--grid", "min_pile=0,9", "--games", "4", "--seed", "1",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "min_pile" in text and "win_rate" in text
    from sim.records.results import read_parquet

    r = read_parquet(out / "sweep.parquet")
    assert len(r.games) == 2 and r.meta["grid"] == {"min_pile": ["0", "9"]}
    assert sorted(p.name for p in out.iterdir()) == ["_canasta_lab_output.json", "baseline_min_pile=0.parquet",
                                                    "baseline_min_pile=9.parquet", "sweep.parquet"]
    assert main(["sweep", "classic-4p", "-s", "baseline", "--grid", "min_pile", "--games", "4", "--seed", "1"]) == 2
    assert "write knob=value" in capsys.readouterr().err


def test_more_strategy_functions_than_the_engine_has_slots_is_refused():
    """Strategies reach the engine as a table of L.MAXF function values; a run needing more is
    refused before any game, naming the limit."""
    names = []
    for i in range(L.MAXF):
        name = f"test-slot-{i}"

        @user_strategy(name, base="baseline")
        def slot(rules, obs, opts, n, knobs):
            return DEFER

        names.append(name)
    with pytest.raises(ValueError, match=f"at most {L.MAXF} distinct strategy functions"):
        make_job("classic-6p", names, 1)
    make_job("classic-6p", names[:L.MAXF - 1], 1)  # MAXF - 1 user functions and baseline fit


def test_built_in_kernels_that_allocate_nothing_are_compiled_without_reference_counting():
    """The heuristic, Buraco and random kernels allocate nothing, so they are compiled as the engine's
    kernels are (`strategy_jit`, no reference counting: about a seventh of baseline's time went to it);
    `search` allocates its sample tables and keeps numba's defaults."""
    import inspect

    from numba.core.registry import CPUDispatcher

    import strategies.buraco
    import strategies.heuristic
    import strategies.random_
    import strategies.search

    for module in (strategies.heuristic, strategies.buraco, strategies.random_):
        kernels = [f for _, f in inspect.getmembers(module, lambda f: isinstance(f, CPUDispatcher))
                   if f.__module__ == module.__name__]
        if not kernels:
            pytest.skip("plain Python kernels (NUMBA_DISABLE_JIT)")
        assert all(f.targetoptions.get("_nrt") is False for f in kernels), module.__name__
    search_kernels = [f for _, f in inspect.getmembers(strategies.search, lambda f: isinstance(f, CPUDispatcher))
                      if f.__module__ == strategies.search.__name__]
    assert search_kernels and all(f.targetoptions.get("_nrt", True) for f in search_kernels)
