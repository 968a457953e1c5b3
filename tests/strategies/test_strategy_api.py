"""The strategy API of issue 25: the contract's accessors read a card's rank, the hand, a meld row and each
option kind's fields by name (in Python and in numba code), and every kernel declares its knobs beside
its code with slots assigned in the order of declaration (strategies.knobs.KnobTable), never typed by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from sim.engine import cards
from sim.engine import contract as C
from strategies import BUILT_IN, REGISTRY, KnobTable, StrategyError
from strategies import buraco as B
from strategies import heuristic as H
from strategies import search as S
from strategies.knobs import USER_SLOT0
from strategies.library import BASELINE

ROOT = Path(__file__).resolve().parents[2]


def py(fn):
    """The plain Python function of an engine kernel (no compile), or the function itself under NUMBA_DISABLE_JIT."""
    return getattr(fn, "py_func", fn)


# Knobs ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("table", [B.KNOBS, H.KNOBS, S.KNOBS], ids=["buraco", "heuristic", "search"])
def test_knob_slots_follow_the_order_of_declaration(table):
    assert [k.slot for k in table.knobs] == list(range(table.first, table.first + len(table.knobs)))
    assert table.next == table.first + len(table.knobs) <= table.end


def test_the_heuristic_family_shares_one_knob_vector_without_overlap():
    """Buraco's table comes first (heuristic.py imports buraco.py), the heuristic's continues it; baseline lists
    the heuristic's knobs, then Buraco's, as `canasta-lab strategies` always has."""
    assert H.KNOBS.first == B.KNOBS.next
    assert BASELINE.knobs == H.KNOBS.knobs + B.KNOBS.knobs == H.FAMILY_KNOBS
    assert [k.name for k in BASELINE.knobs][:8] == ["min_pile", "freeze", "hold_black3", "ask", "answer_max", "meld",
                                                     "wilds", "go_out"]


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_every_built_in_strategys_knob_slots_are_unique_and_below_the_user_slots(name):
    """Below USER_SLOT0, where a user strategy's own begin; search's and learned's own lie above, as their rollout
    player's or teacher's knob vector takes the slots below (and no user strategy may build on them). learned
    carries its teacher's knobs (expert's) in expert's own slots."""
    slots = [k.slot for k in REGISTRY[name].knobs]
    assert len(slots) == len(set(slots))
    if name == "search":  # the rollout player's vector, completed at the variant, takes the slots below
        assert all(USER_SLOT0 <= s < C.NPRM for s in slots)
    elif name == "learned":
        teacher = {k.name: k.slot for k in REGISTRY["expert"].knobs}
        own = [k for k in REGISTRY[name].knobs if k.name not in teacher]
        assert own and all(USER_SLOT0 <= k.slot < C.NPRM for k in own)
        assert {k.name: k.slot for k in REGISTRY[name].knobs if k.name in teacher} == teacher
    else:
        assert all(0 <= s < USER_SLOT0 for s in slots)
    assert USER_SLOT0 < C.NPRM


def test_no_user_strategy_builds_on_search_whose_own_knobs_take_the_user_slots():
    from strategies.user import user_strategy

    with pytest.raises(StrategyError, match="'search' keeps knobs of its own from knobs\\[USER_SLOT0\\].*one of: "
                                            "random, baseline"):
        user_strategy("over-search", base="search")


def test_the_kernels_read_their_knobs_by_the_declared_slots():
    assert (H.K_MIN_PILE, H.K_WILDS, H.K_GO_OUT, H.K_SEVENS) == tuple(
        BASELINE.knob(n).slot for n in ("min_pile", "wilds", "go_out", "sevens"))
    assert (B.K_BU_TAKE, B.K_BU_CLEAN) == (BASELINE.knob("bu_take").slot, BASELINE.knob("bu_clean").slot)
    assert (S.K_SAMPLES, S.K_CONFIDENCE) == (REGISTRY["search"].knob("samples").slot,
                                             REGISTRY["search"].knob("confidence").slot)


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT)) for p in (ROOT / "strategies").rglob("*.py")))
def test_no_knob_slot_is_numbered_by_hand(path):
    """A module-level `K_X = 3` would be a slot typed by hand, free to collide with a declared one (the frozen
    players of strategies/frozen/ included: `reference` declares its own table)."""
    for node in ast.parse((ROOT / path).read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            assert not [n for n in names if n.startswith("K_")], f"{path}:{node.lineno} numbers {names} by hand"


def test_a_knob_table_refuses_a_name_twice_and_a_slot_past_its_end():
    t = KnobTable(end=2)
    assert (t.knob("a", 0, 1, 0, "a"), t.knob("b", 0, 1, 0, "b")) == (0, 1)
    with pytest.raises(StrategyError, match="no slot left below 2"):
        t.knob("c", 0, 1, 0, "c")
    assert KnobTable(after=t, end=4).knob("c", 0, 1, 0, "c") == 2  # a table continues the one before
    u = KnobTable()
    u.knob("x", 0, 1, 0, "x")
    with pytest.raises(StrategyError, match="declared twice"):
        u.knob("x", 0, 1, 0, "x")
    with pytest.raises(StrategyError, match=f"within the {C.NPRM} slots"):
        KnobTable(end=C.NPRM + 1)


def test_search_rollouts_play_the_rollout_player_with_its_knobs_at_the_variant():
    """search's knob vector holds its rollout player's, at the variant played, below USER_SLOT0."""
    from sim.rules import get_variant
    from strategies import REGISTRY, parse_strategy
    from strategies.knobs import USER_SLOT0

    for name in ("classic-4p", "boat-4p", "buraco-2p"):
        v = get_variant(name)
        assert np.array_equal(parse_strategy("search").at(v).params[:USER_SLOT0], BASELINE.params(v=v)[:USER_SLOT0])
        expert = parse_strategy("search:rollout=expert").at(v).params[:USER_SLOT0]
        assert np.array_equal(expert, REGISTRY["expert"].params(v=v)[:USER_SLOT0])
        # learned's own knobs (its network, margin) sit where search's do: they ride above search's and move back
        learned = parse_strategy("search:rollout=learned").at(v).params
        assert np.array_equal(S.rollout_knobs_nb(learned), REGISTRY["learned"].params(v=v))
    assert all(USER_SLOT0 <= k.slot < S.ROLLOUT_OWN for k in S.KNOBS.knobs)


# Accessors ------------------------------------------------------------------------------------------------------
def test_card_rank_and_suit_are_the_engines_for_every_card_kind():
    for k in range(C.NK):
        assert C.card_rank(k) == py(cards.rank_of_nb)(k)
        if k != C.JOKER:
            assert (C.card_rank(k), C.card_suit(k)) == divmod(k, C.SUITS)
    assert C.card_rank(C.JOKER) == C.RK_JK


def options(*rows: tuple[int, int, int, int]) -> np.ndarray:
    opts = np.full((C.MAXOPT, C.OPT_FIELDS), -1, np.int64)
    for i, r in enumerate(rows):
        opts[i] = r
    return opts


def test_option_accessors_read_the_fields_each_option_kind_documents():
    """docs/strategies.md's table of option rows, field by field."""
    o = options((C.O_TAKE, C.TAKE_M2, C.RK_JK, -1), (C.O_NEW, 7, 2, C.RK_2), (C.O_ADD, 3, -1, -1),
                (C.O_BLACK3, 4, -1, -1), (C.O_WILD, 2, 1, -1), (C.O_SEQ, C.SUIT_D, 5, C.seq_wild(6, C.RK_JK)),
                (C.O_SEQ, C.SUIT_H, 12, -1), (C.O_EXTEND, 1, C.END_HIGH, C.RK_2), (C.O_DISCARD, 33, -1, -1),
                (C.O_TOP, C.JOKER, -1, -1), (C.O_ASK, 2, -1, -1), (C.O_YES, 3, -1, -1))
    assert [C.option_kind(o, i) for i in range(12)] == [C.O_TAKE, C.O_NEW, C.O_ADD, C.O_BLACK3, C.O_WILD, C.O_SEQ,
                                                        C.O_SEQ, C.O_EXTEND, C.O_DISCARD, C.O_TOP, C.O_ASK, C.O_YES]
    assert (C.take_method(o, 0), C.take_wild(o, 0)) == (C.TAKE_M2, C.RK_JK)
    assert (C.new_rank(o, 1), C.new_naturals(o, 1), C.new_wild(o, 1)) == (7, 2, C.RK_2)
    assert (C.add_row(o, 2), C.add_wild(o, 2)) == (3, -1)
    assert C.black3_count(o, 3) == 4
    assert (C.wild_jokers(o, 4), C.wild_twos(o, 4)) == (2, 1)
    assert (C.seq_suit(o, 5), C.seq_low(o, 5), C.seq_wild_place(o, 5), C.seq_wild_class(o, 5)) == (
        C.SUIT_D, 5, 6, C.RK_JK)
    assert (C.seq_wild_place(o, 6), C.seq_wild_class(o, 6)) == (0, -1)  # no wild: the packed c is -1
    assert (C.extend_row(o, 7), C.extend_end(o, 7), C.extend_wild(o, 7)) == (1, C.END_HIGH, C.RK_2)
    assert (C.option_card(o, 8), C.option_card(o, 9)) == (33, C.JOKER)
    assert (C.option_seat(o, 10), C.option_seat(o, 11)) == (2, 3)


def test_meld_rows_and_the_hand_are_read_by_name():
    maxm = 16
    obs = np.zeros(C.obs_len(maxm), np.int64)
    obs[C.OB_MAXM] = maxm
    obs[C.OB_HR + C.RK_7] = 3
    obs[C.OB_HAND + 25] = 2
    row = C.OB_MELDS + (2 * maxm + 5) * C.NMF  # side 2, row 5 (docs/strategies.md, OB_MELDS)
    obs[row + C.F_RANK] = 9
    assert C.meld_row(obs, 2, 5) == row
    assert C.meld_field(obs, 2, 5, C.F_RANK) == 9
    assert (C.hand_count(obs, C.RK_7), C.hand_card_count(obs, 25)) == (3, 2)


@njit
def _read_all_nb(obs, opts):
    return (C.card_rank(C.option_card(opts, 0)), C.hand_count(obs, C.RK_7), C.meld_field(obs, 1, 2, C.F_VAL),
            C.new_rank(opts, 1), C.new_wild(opts, 1), C.seq_wild_place(opts, 2), C.seq_wild_class(opts, 2))


def test_the_accessors_compile_in_numba_code_with_the_same_answers():
    obs = np.zeros(C.obs_len(4), np.int64)
    obs[C.OB_MAXM] = 4
    obs[C.OB_HR + C.RK_7] = 2
    obs[C.meld_row(obs, 1, 2) + C.F_VAL] = 55
    opts = options((C.O_DISCARD, C.JOKER, -1, -1), (C.O_NEW, 10, 3, -1), (C.O_SEQ, 0, 2, C.seq_wild(3, C.RK_2)))
    assert _read_all_nb(obs, opts) == (C.RK_JK, 2, 55, 10, -1, 3, C.RK_2)


def test_a_user_strategy_s_own_knobs_take_slots_from_a_knob_table_in_declaration_order():
    from strategies.knobs import USER_SLOT0
    from strategies.user import DEFER, user_strategy

    @user_strategy("table-user", base="baseline",
                   knobs=[("first", 0, 1, 1, "the first knob"), ("second", 0, 9, 3, "the second", True)])
    def table_user(rules, obs, opts, n, knobs):
        return DEFER

    own = [k for k in table_user.knobs if k.name in ("first", "second")]
    assert [(k.name, k.slot, k.whole) for k in own] == [("first", USER_SLOT0, False), ("second", USER_SLOT0 + 1, True)]
    with pytest.raises(StrategyError, match="declared twice"):
        user_strategy("twice-user", knobs=[("a", 0, 1, 0, "a"), ("a", 0, 1, 0, "again")])
