"""Classic Canasta (seed 002, Hoyle): for two, three, four and six (VARIANTS.md 3.1 to 3.4)."""

from __future__ import annotations

from sim.rules.variant import Variant

PRESETS: list[Variant] = []
PRESETS.append(Variant.of(
    name="classic-4p", seed_doc="002",
    description="Classic Canasta for four in two partnerships (Hoyle, seed 002)",
    players=4, sides=((0, 2), (1, 3)), hand_size=11,
))
PRESETS.append(Variant.of(
    name="classic-2p", seed_doc="002",
    description="Classic two-hand: 15 cards, draw 2 discard 1, two canastas to go out (R-17)",
    players=2, sides=((0,), (1,)), hand_size=15, draw_count=2, going_out_canastas=2, ask_partner="none",
))
PRESETS.append(Variant.of(
    name="classic-3p", seed_doc="002",
    description="Classic three-hand: 13 cards each, every player for himself (R-18)",
    players=3, sides=((0,), (1,), (2,)), hand_size=13, ask_partner="none",
))
PRESETS.append(Variant.of(
    name="classic-6p", seed_doc="002",
    description="Classic six-hand: three decks, two teams of three alternating, 5 red threes 1000, 6 1200 (R-19)",
    players=6, sides=((0, 2, 4), (1, 3, 5)), decks=3, hand_size=11,
    red3_points=(0, 100, 200, 300, 400, 1000, 1200), black3_meld_max=6, ask_partner="choose_one_partner",
))
