"""Issue 26, part 4: every library player, in mirror play and against every other, ends its hands by going out
or by the stock, never by the turn cap (R-150, a simulator safeguard), at every preset: a study that averaged
capped hands would report the safeguard, not the game. The presets are read from the rules, so a new one is
checked by itself."""

from __future__ import annotations

import itertools

import pytest

from sim import play
from sim.analysis.strength import LOOKAHEAD, library_names
from sim.rules import PRESETS
from tests.conftest import FULL_SCALE, random_play_scale

FAST = [n for n in library_names() if n != LOOKAHEAD] + ["reference"]
FULL = random_play_scale() == FULL_SCALE
# per pair, the same deals every run: a share of capped hands is read, not sampled anew (make test-fast: fewer, which
# still catches a player that loops in every hand)
GAMES = 20 if FULL else 4
MAX_CAPPED = 0.01 if FULL else 0.1  # fast: a few games, where one capped hand is a few percent

# Boat for two and three (E-RESHUFFLE: the Treasure pile becomes the stock, so a hand ends only when a player goes
# out): players who keep black threes for a close they never complete, or who melded down to two cards and cannot
# complete the canasta going out needs, draw and discard until the turn cap. Measured with GAMES games a pair on
# the code of issue 26: boat-2p up to 5.7% of hands capped (cautious against itself), boat-3p up to 3.5%
# (pile-hoarder against itself). Known, not yet mended: strict under make test, so that a mend shows.
KNOWN = {"boat-2p", "boat-3p"}


def capped_pairs(preset: str) -> list[str]:
    bad = []
    pairs = itertools.combinations_with_replacement(FAST, 2) if FULL else ((a, a) for a in FAST)  # fast: mirror
    for a, b in pairs:
        g = play(preset, [a, b], games=GAMES, seed=1).games
        share = float(g.capped_hands.sum()) / float(g.n_hands.sum())
        if share > MAX_CAPPED:
            bad.append(f"{a} against {b}: {share:.3f} of hands capped")
    return bad


@pytest.mark.parametrize("preset", [pytest.param(p, marks=pytest.mark.xfail(
    strict=FULL, reason="Boat's reshuffled stock: players who cannot go out play to the turn cap")) if p in KNOWN
    else p for p in PRESETS])
def test_every_fast_library_player_ends_its_hands_by_going_out_or_the_stock(preset):
    assert capped_pairs(preset) == []


# R-37 at boat-3p: a player who throws every black three (hold_black3=throw) against one who keeps them. Before the
# mend, hand 24 of game 41 went to the turn cap: the thrower's side had its canastas, the other cards were on the
# table, and the four black threes went round through the reshuffled stock, drawn and thrown by everyone.
CLOSE_RUN = ("boat-3p", ["baseline:hold_black3=throw", "baseline:hold_black3=keep"])
CLOSED = (41, 24)
# a dead end no play ends, black threes or not: the side with canastas has melded down to two cards (a hand keeps its
# size, a card drawn and one discarded, so it can never hold four), the players without a canasta hold one card each
# for ever, one of them the fourth black three
DEAD_END = {(73, 24)}


def test_r37_a_player_who_can_close_with_four_black_threes_keeps_them_and_ends_the_hand():
    r = play(*CLOSE_RUN, games=100, seed=1, hands=True)
    h = r.hands
    capped = {(int(g), int(n)) for g, n in h.loc[h.reason == "cap", ["game", "hand"]].to_numpy()}
    assert capped <= DEAD_END
    closed = h[(h.game == CLOSED[0]) & (h.hand == CLOSED[1])].iloc[0]
    side = int(closed.out_side)
    assert closed.reason == "out" and closed[f"going_out_{side}"] == PRESETS["boat-3p"].melds.black3_close_bonus
    game = r.games[r.games.game == CLOSED[0]].iloc[0]
    assert game[f"strategy_{side}"] == "baseline:hold_black3=throw"  # it keeps them although it throws them elsewhere


@pytest.mark.parametrize("preset", [p for p in PRESETS if FULL or PRESETS[p].game.sequences])  # fast: Buraco
def test_search_against_itself_plays_real_hands(preset):
    """Two lookahead players once traded a one-card Buraco pile for the rest of the hand (810 turns a hand)."""
    g = play(preset, ["search:samples=4"], games=1, seed=2).games
    assert int(g.capped_hands.sum()) == 0
    assert float(g.turns.sum()) / float(g.n_hands.sum()) < 300  # a real hand: the turn cap is 1000
