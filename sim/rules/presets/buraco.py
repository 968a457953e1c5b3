"""Buraco (seed 004, VARIANTS.md 3.10) for two and four."""

from __future__ import annotations

from sim.rules.variant import MINUS_INF, ONE_DEAL, Variant

PRESETS: list[Variant] = []

# Buraco (seed 004, VARIANTS.md 3.10): 11 cards and two 11-card mortos, sets and sequences, one wild a meld,
# aces 15, clean canastas 200 and dirty 100, E-BURACO, one deal
BURACO_VALUES = (15, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
for _n in (2, 4):
    PRESETS.append(Variant.of(
        name=f"buraco-{_n}p", seed_doc="004",
        description=(f"Buraco for {_n}" + (" in two partnerships" if _n == 4 else ", each for himself")
                     + ": sets and same-suit sequences with one wild each, two 11-card mortos reached by knocking, "
                       "clean canastas 200 and dirty 100, one deal"),
        players=_n, sides=((0, 2), (1, 3)) if _n == 4 else ((0,), (1,)), hand_size=11, foot_size=11,
        card_values=BURACO_VALUES, initial_meld_table=((MINUS_INF, 0),),  # no minimum
        max_wilds=1, canasta_bonus_natural=200, canasta_bonus_mixed=100,  # R-131, §3.10 scoring 2
        red3_points=(0,), red3_negative_if_no_meld=False, untakeable_top=(), freeze_on_discard=(),
        block_on_discard=(), upcard_cover=(), upcard_blocks=(), black3_meld_max=0,  # no conditions
        concealed_total=0, concealed_waives_minimum=False, ask_partner="none", one_card_pile_rule=False,
        pile_methods_unfrozen=(), pile_methods_frozen=(), pile_methods_premeld=(),
        end_of_stock="E-BURACO", target_score=ONE_DEAL,
        sequences=True, packet_per_side=True, threes_plain=True, morto_penalty=100,
    ))  # families playable at any of these counts

