"""Railroad Canasta (seed 002, VARIANTS.md 3.9): each for himself, at any count from two to eight."""

from __future__ import annotations

from sim.engine import layout as L
from sim.rules.presets.pennies import CAPPED
from sim.rules.variant import Variant


def railroad(players: int) -> Variant:
    """Railroad Canasta for `players` (2 to 8), each for himself, two decks and four jokers a player
    (R-110, R-111): the presets and `railroad --players N` are this."""
    return Variant.of(
        name=f"railroad-{players}p", seed_doc="002",
        description=(f"Railroad Canasta for {players}, each for himself: two decks a player, an 11-card kitty, "
                     "melds closed at seven, red, black, wild and seven canastas, a final discard to go out, "
                     "black threes without limit, the game to 20,000"),
        players=players, sides=tuple((p,) for p in range(players)), decks=2 * players,
        foot_canastas=("natural", "wild", "sevens"), unpicked_foot_red3=0,
        red3_points=(0, 100, 200, 300, 400, 500, 600, 700, 800),  # 100 each, never negative
        black3_meld_max=4 * players, going_out_discard=True, ask_partner="none",
        **CAPPED,
    )


RAILROAD_PRESETS = (2, 3, 4, 6)
RAILROAD_PLAYERS = range(2, L.MAXP + 1)
PRESETS = [railroad(n) for n in RAILROAD_PRESETS]
