"""House Canasta: seed 001 for two to four, seed 003 for four (VARIANTS.md 3.6, 3.7)."""

from __future__ import annotations

from sim.rules.variant import Variant

PRESETS: list[Variant] = []

# House-001 (seed 001, VARIANTS.md 3.6): eights are worth 5
HOUSE_001_VALUES = (20, 20, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 50)
HOUSE_001_SIDES = {2: ((0,), (1,)), 3: ((0,), (1,), (2,)), 4: ((0, 2), (1, 3))}
HOUSE_001_HANDS = {2: 15, 3: 13, 4: 11}
for _n in (2, 3, 4):
    PRESETS.append(Variant.of(
        name=f"house-001-{_n}p", seed_doc="001",
        description=(f"House Canasta (seed 001) for {_n}"
                     + (" in two partnerships" if _n == 4 else ", each for himself")
                     + ": the top discard alone as a third draw, eights 5, a final discard to go out, "
                       "exact-deal bonus, the deal passing right"),
        players=_n, sides=HOUSE_001_SIDES[_n], hand_size=HOUSE_001_HANDS[_n],
        card_values=HOUSE_001_VALUES, wilds_below_naturals=True, top_card_draw=True,
        pile_methods_frozen=("M1", "M2"), pile_methods_premeld=("M1", "M2"),
        going_out_discard=True, concealed_total=0, concealed_waives_minimum=False,
        ask_partner="partner" if _n == 4 else "none",
        exact_deal_bonus=100, exact_deal_prob=0.10, dealer_rotation="right",
    ))
PRESETS.append(Variant.of(
    name="house-003-4p", seed_doc="003",
    description="House Canasta (seed 003) for four in two partnerships: 13 cards, draw two or take the pile, "
                "two canastas to go out, exact-deal bonus, game over 5000",
    players=4, sides=((0, 2), (1, 3)), hand_size=13, draw_count=2, going_out_canastas=2,
    pile_methods_premeld=("M1", "M2"),  # frozen: M1 only
    concealed_total=0, concealed_waives_minimum=False,
    exact_deal_bonus=100, exact_deal_prob=0.10, target_strict=True,
))
