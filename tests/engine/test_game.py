"""The hand, the game and the batch (sim/engine/game.py, §1.13): the target and ties (R-03), the deal
passing (`dealer_rotation`), and the simulator's caps, counted and never silent (R-150)."""

from __future__ import annotations

from sim import get_variant, play


def test_r03_game_ends_only_with_a_unique_leader_at_or_above_5000():
    r = play("classic-4p", ["baseline", "random"], games=200, seed=11)
    g = r.games
    best = g[["score_0", "score_1"]].max(axis=1)
    assert (best >= 5000).all()
    assert (g.score_0 != g.score_1).all()
    assert ((g.score_0 > g.score_1) == (g.winner_side == 0)).all()


def test_target_strict_needs_more_than_the_target():
    v = get_variant("classic-4p").replace(target_score=2000, target_strict=True)
    g = play(v, ["baseline", "random"], games=60, seed=3).games
    assert (g[["score_0", "score_1"]].max(axis=1) > 2000).all()


def test_dealer_rotation_left_and_right():
    for rotation, step in (("left", 1), ("right", -1)):
        v = get_variant("classic-4p").replace(dealer_rotation=rotation, target_score=3000)
        h = play(v, ["random"], games=6, seed=2, hands=True).hands
        for _, game in h.groupby("game"):
            d = game.dealer.to_numpy()
            assert ((d[1:] - d[:-1]) % 4 == step % 4).all()


def test_r150_turn_cap_ends_hands_with_reason_cap_and_counts_them():
    v = get_variant("classic-4p").replace(max_turns_per_hand=8)
    r = play(v, ["random"], games=4, seed=1, hands=True)
    assert (r.hands.reason == "cap").any() and (r.hands.turns <= 8).all()
    assert r.games.capped_hands.sum() == (r.hands.reason == "cap").sum()


def test_r150_hand_cap_stops_the_game_and_names_a_unique_leader_or_none():
    v = get_variant("classic-4p").replace(max_hands_per_game=2)
    g = play(v, ["random"], games=10, seed=1).games
    assert g.capped_game.all() and (g.n_hands == 2).all()
    leader = (g.score_0 > g.score_1).map({True: 0, False: 1}).where(g.score_0 != g.score_1, -1)
    assert (g.winner_side == leader).all()
