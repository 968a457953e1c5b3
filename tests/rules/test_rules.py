"""Rules as data: presets cover the §2 rows they use; invalid descriptions are refused by name."""

import pytest

from sim import PRESETS, get_variant
from sim.engine import layout as L
from sim.rules import RulesError, pack, requirement


def test_section2_rows_for_the_classic_presets():
    c4, c2, c3, c6 = (get_variant(n) for n in ("classic-4p", "classic-2p", "classic-3p", "classic-6p"))
    assert (c4.pack_size, c2.pack_size, c3.pack_size, c6.pack_size) == (108, 108, 108, 162)  # row 2
    assert (c4.deal.hand_size, c2.deal.hand_size, c3.deal.hand_size, c6.deal.hand_size) == (11, 15, 13, 11)  # row 5
    assert (c4.draw.draw_count, c2.draw.draw_count, c3.draw.draw_count, c6.draw.draw_count) == (1, 2, 1, 1)  # row 9
    assert tuple(c.going_out.going_out_canastas for c in (c4, c2, c3, c6)) == (1, 2, 1, 1)
    assert c4.sides == ((0, 2), (1, 3)) and c6.sides == ((0, 2, 4), (1, 3, 5))  # row 3, R-19
    assert (c4.ask.ask_partner, c2.ask.ask_partner, c3.ask.ask_partner, c6.ask.ask_partner) == (
        "partner", "none", "none", "choose_one_partner")  # row 32
    assert c4.pile.pile_methods_frozen == ("M1",) and c4.pile.pile_methods_premeld == ("M1",)  # rows 13-14
    assert c4.pile.untakeable_top == ("wild", "black3")  # row 15
    assert (c4.melds.black3_meld_max, c6.melds.black3_meld_max) == (4, 6)  # row 18
    assert c6.score.red3_points[4:] == (400, 1000, 1200) and c4.score.red3_points[4] == 800  # row 20
    assert c4.cards.card_values == (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)  # row 22
    assert (c4.score.concealed_total, c4.score.going_out_bonus) == (200, 100)  # rows 33-34
    assert c4.pile.one_card_pile_rule and c4.game.target_score == 5000  # rows 40, 38


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


def test_each_group_of_rules_is_the_one_its_engine_module_reads():
    """Variant groups its rules by the engine module that reads them (issue 25): for every rule that pack()
    turns into a field of the rules array, the module its group names reads that field."""
    import ast
    import re
    from pathlib import Path

    from sim.rules import GROUP_OF, GROUPS

    root = Path(__file__).resolve().parents[2]
    pack_src = (root / "sim" / "rules" / "pack.py").read_text()
    pack_fn = next(n for n in ast.parse(pack_src).body if isinstance(n, ast.FunctionDef) and n.name == "pack")
    fields_of: dict[str, set[str]] = {}
    for node in ast.walk(pack_fn):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.For):
            text = ast.get_source_segment(pack_src, node)
            for name in re.findall(r"\bv\.\w+\.(\w+)", text):
                fields_of.setdefault(name, set()).update(re.findall(r"L\.(R_[A-Z0-9_]+)", text))
    readers: dict[str, set[str]] = {}
    for path in (root / "sim" / "engine").glob("*.py"):
        for field in set(re.findall(r"\b(R_[A-Z0-9_]+)\b", path.read_text())):
            readers.setdefault(field, set()).add(path.stem)
    checked = 0
    for name, group in GROUP_OF.items():
        module = re.search(r"sim/engine/(\w+)\.py", GROUPS[group].__doc__).group(1)
        fields = fields_of.get(name, set())
        if fields:
            assert any(module in readers.get(f, ()) for f in fields), (name, group, module, fields)
            checked += 1
    assert checked >= 60  # nearly every rule reaches the kernels through one field
    v = get_variant("pennies-6p")
    assert v.replace(hand_size=12).deal.hand_size == 12 and v.rule("going_out_kinds") == v.going_out.going_out_kinds
    assert type(v).of(**{k: v.rule(k) for k in GROUP_OF} | {k: v.rule(k) for k in ("name", "description",
                                                                                 "seed_doc", "players", "sides")}) == v
