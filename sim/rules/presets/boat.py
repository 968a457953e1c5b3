"""Boat Canasta (seed 000, VARIANTS.md 3.5) for two to four."""

from __future__ import annotations

from sim.rules.presets.house import HOUSE_001_SIDES
from sim.rules.variant import MINUS_INF, Variant

PRESETS: list[Variant] = []

# Boat Canasta (seed 000, VARIANTS.md 3.5): black threes 0 melded, 100 in hand; no upcard
BOAT_VALUES = (20, 20, 0, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
BOAT_MELD_TABLE = ((MINUS_INF, 15), (0, 50), (2505, 90), (5005, 120), (7505, 150))  # B-1, R-149
for _n in (2, 3, 4):
    PRESETS.append(Variant.of(
        name=f"boat-{_n}p", seed_doc="000",
        description=(f"Boat Canasta (seed 000) for {_n}" + (" in two partnerships" if _n == 4 else ", each for himself")
                     + ": 14 cards, no upcard, three opening rounds, wild canastas, natural canastas 600, "
                       "the Treasure pile reshuffled, the game to 10,000"),
        players=_n, sides=HOUSE_001_SIDES[_n], hand_size=14, upcard=False,
        card_values=BOAT_VALUES, black3_in_hand=100,
        initial_meld_table=BOAT_MELD_TABLE,
        wilds_below_naturals=True, max_wilds=12,  # fewer wilds than naturals, no cap
        wild_melds=True, wild_canasta_small_big=True, canasta_bonus_natural=600, canasta_bonus_small_wild=1000,
        canasta_bonus_big_wild=2000,
        table_negative_without_canasta=True, red3_negative_if_no_meld=False,
        black3_meld_min=4, black3_meld_max=4, black3_close_bonus=1000,
        freeze_on_discard=("wild", "black3"), block_on_discard=("wild", "black3"),
        pile_methods_premeld=("M1", "M2"),
        going_out_bonus=200, concealed_total=0, concealed_waives_minimum=False,
        keep_last_card=True, opening_rounds=3, one_card_pile_rule=False,
        ask_partner="partner" if _n == 4 else "none",
        end_of_stock="E-RESHUFFLE", target_score=10000,
    ))

