"""Pennies from Heaven (seed 002, VARIANTS.md 3.8), and the capped-meld rules it shares with Railroad."""

from __future__ import annotations

from sim.rules.variant import MINUS_INF, Variant

PRESETS: list[Variant] = []

# Pennies from Heaven and Railroad (seed 002, VARIANTS.md 3.8, 3.9): a foot or kitty, melds closed at 7,
# sevens and wild canastas, one canasta of each of four kinds to go out, the game to 20,000
PFH_MELD_TABLE = ((MINUS_INF, 15), (0, 50), (5000, 90), (10000, 120), (15000, 150))
FOUR_KINDS = ("natural", "mixed", "wild", "sevens")
CAPPED = dict(
    hand_size=13, foot_size=11, draw_count=2, meld_cap=7, sevens_natural_only=True, wild_melds=True,
    canasta_bonus_wild=1000, canasta_bonus_sevens=1500, going_out_kinds=FOUR_KINDS,
    concealed_total=0, concealed_waives_minimum=False, end_of_stock="E-VOLUNTARY",
    initial_meld_table=PFH_MELD_TABLE, target_score=20000, red3_negative_if_no_meld=False,
)
PRESETS.append(Variant.of(
    name="pennies-6p", seed_doc="002",
    description="Pennies from Heaven: six in two teams of three, four packs, an 11-card foot each, melds closed "
                "at seven, sevens and wild canastas, one canasta of each of four kinds to go out, the game to 20,000",
    players=6, sides=((0, 2, 4), (1, 3, 5)), decks=4,
    foot_canastas=FOUR_KINDS, unpicked_foot_red3=-100,
    untakeable_top=("wild", "black3", "red3"), pile_methods_unfrozen=("M1", "M3"),  # any three, no M2
    red3_points=(0, 100, 200, 300, 400, 500, 600, 700, 1000), red3_negative_without_sevens=True,
    black3_meld_max=7, sevens_discard_ban=True, ask_partner="choose_one_partner",
    **CAPPED,
))

