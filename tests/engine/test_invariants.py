"""The engine invariants (docs/rules.md section 6) asserted after every action, in thousands of games
of random legal play (the `random` strategy is the engine's fuzzer), in every preset there is: a new
preset is fuzzed the day it is registered. The game counts are the full size; `make test-fast` plays a
fraction of them (CANASTA_TEST_SCALE, tests/conftest.py)."""

import pytest

from sim import PRESETS, play

EVERY_PRESET = list(PRESETS)
RANDOM_GAMES = 2000  # random legal play per preset, at full size
MIXED_GAMES = 300  # baseline against random per preset, at full size


@pytest.mark.parametrize("variant", EVERY_PRESET)
def test_s58_invariants_hold_after_every_action_in_2000_random_games(variant, scaled):
    # play() raises EngineError naming the invariant, game, hand and turn on the first violation
    games = scaled(RANDOM_GAMES)
    r = play(variant, ["random"], games=games, seed=20261121, check=True)
    g = r.games
    assert len(g) == games
    assert (g.n_hands >= 1).all()
    # every game ended by reaching the target (not by the hand cap), and the winner is unique
    assert not g.capped_game.any()
    assert (g.winner_side >= 0).all()


@pytest.mark.parametrize("variant", EVERY_PRESET)
def test_s58_invariants_hold_with_baseline_and_mixed_seats(variant, scaled):
    games = scaled(MIXED_GAMES, least=2)  # two games: both seatings of the duplicate deal
    r = play(variant, ["baseline", "random"], games=games, seed=7, check=True, hands=True)
    assert len(r.games) == games
    h = r.hands
    # invariant 7 from the outside: every side's total is the sum of its components
    n_sides = sum(1 for c in h.columns if c.startswith("total_"))
    for s in range(n_sides):
        parts = sum(h[f"{c}_{s}"] for c in ("melded", "canastas", "red_threes", "going_out", "in_hand", "other"))
        assert (parts == h[f"total_{s}"]).all()
        assert (h.groupby("game")[f"total_{s}"].sum().to_numpy() == r.games[f"score_{s}"].to_numpy()).all()
