"""Rules as data: presets cover the §2 rows they use; invalid descriptions are refused by name."""

import pytest

from sim import PRESETS, get_variant
from sim.engine import layout as L
from sim.rules import RulesError, pack, requirement


def test_section2_rows_for_the_classic_presets():
    c4, c2, c3, c6 = (get_variant(n) for n in ("classic-4p", "classic-2p", "classic-3p", "classic-6p"))
    assert (c4.pack_size, c2.pack_size, c3.pack_size, c6.pack_size) == (108, 108, 108, 162)  # row 2
    assert (c4.hand_size, c2.hand_size, c3.hand_size, c6.hand_size) == (11, 15, 13, 11)  # row 5
    assert (c4.draw_count, c2.draw_count, c3.draw_count, c6.draw_count) == (1, 2, 1, 1)  # row 9
    assert (c4.going_out_canastas, c2.going_out_canastas, c3.going_out_canastas, c6.going_out_canastas) == (1, 2, 1, 1)
    assert c4.sides == ((0, 2), (1, 3)) and c6.sides == ((0, 2, 4), (1, 3, 5))  # row 3, R-19
    assert (c4.ask_partner, c2.ask_partner, c3.ask_partner, c6.ask_partner) == (
        "partner", "none", "none", "choose_one_partner")  # row 32
    assert c4.pile_methods_frozen == ("M1",) and c4.pile_methods_premeld == ("M1",)  # rows 13-14
    assert c4.untakeable_top == ("wild", "black3")  # row 15
    assert (c4.black3_meld_max, c6.black3_meld_max) == (4, 6)  # row 18
    assert c6.red3_points[4:] == (400, 1000, 1200) and c4.red3_points[4] == 800  # row 20
    assert c4.card_values == (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)  # row 22
    assert (c4.concealed_total, c4.going_out_bonus) == (200, 100)  # rows 33-34
    assert c4.one_card_pile_rule and c4.target_score == 5000  # rows 40, 38


def test_r10_requirement_table_in_python_and_kernel_agree():
    from sim.engine.opening import requirement_nb

    v = get_variant("classic-4p")
    R = pack(v)
    for score, req in [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120)]:
        assert requirement(v, score) == req == requirement_nb(R, score)


def test_packed_rules_carry_every_value_the_kernels_read():
    R = pack(get_variant("classic-6p"))
    assert R[L.R_PACK] == 162 and R[L.R_JOKERS] == 6 and R[L.R_PLAYERS] == 6 and R[L.R_NSIDES] == 2
    assert [R[L.R_SEAT_SIDE + p] for p in range(6)] == [0, 1, 0, 1, 0, 1]
    assert R[L.R_RED3TAB + 5] == 1000 and R[L.R_RED3TAB + 6] == 1200


@pytest.mark.parametrize("change,message", [
    ({"players": 9}, "players=9"),
    ({"sides": ((0, 1), (2, 3))}, "partners may not sit next to each other"),
    ({"draw_count": 4}, "draw_count=4"),
    ({"pile_methods_frozen": ("M4",)}, "accepted M1, M2, M3"),
    ({"end_of_stock": "E-BURACO"}, "go together"),
    ({"end_of_stock": "E-NONE"}, "implemented"),
    ({"card_values": (1,) * 14}, "multiples of 5"),
])
def test_invalid_variant_descriptions_are_refused_by_name(change, message):
    with pytest.raises(RulesError, match=message):
        PRESETS["classic-4p"].replace(**change)
