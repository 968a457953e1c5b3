"""Decision traces show cards by name: describe_option, the card / pile_top / choice_text columns,
DecisionTrace.hand_of and DecisionTrace.options_text (sim/analysis/trace.py)."""

import pytest

from sim import trace_decisions
from sim.analysis.trace import describe_option
from sim.engine import layout as L
from sim.rules.cards import JOKER, RANK_CLASS_NAMES, card_name, parse_card

CARD_NAMES = {card_name(k) for k in range(L.NK)}


@pytest.fixture(scope="module")
def trace():
    return trace_decisions("classic-4p", ["baseline"], games=2, seed=3)


def discard_rows(trace):
    d = trace.decisions
    rows = [i for i in range(len(d)) if d["kind"].iat[i] == "discard"]
    assert rows, "the trace has no discard decision"
    return rows


def test_trace_has_the_readable_columns_and_keeps_the_old_ones(trace):
    cols = list(trace.decisions.columns)
    assert cols[:11] == ["game", "seat", "strategy", "point", "dp", "n", "choice", "kind", "a", "b", "c"]
    assert {"card", "pile_top", "choice_text"} <= set(cols)


def test_discard_rows_card_is_a_valid_card_name_equal_to_card_name_of_a(trace):
    d = trace.decisions
    for i in discard_rows(trace):
        card = d["card"].iat[i]
        assert card in CARD_NAMES
        assert card == card_name(int(d["a"].iat[i]))
        assert parse_card(card) == int(d["a"].iat[i])


def test_card_is_none_for_every_non_discard_choice(trace):
    d = trace.decisions
    others = [i for i in range(len(d)) if d["kind"].iat[i] != "discard"]
    assert others
    assert all(d["card"].iat[i] is None for i in others)


def test_hand_of_at_a_discard_holds_the_discarded_card_and_has_the_observed_hand_size(trace):
    d = trace.decisions
    for i in discard_rows(trace):
        hand = trace.hand_of(i)
        assert d["card"].iat[i] in hand
        assert len(hand) == int(trace.obs[i, L.OB_HN])
        assert all(c in CARD_NAMES for c in hand)


def test_hand_of_lists_cards_sorted_by_kind_and_repeats_a_card_held_twice(trace):
    seen_pair = False
    for i in range(len(trace)):
        hand = trace.hand_of(i)
        kinds = [parse_card(c) for c in hand]
        assert kinds == sorted(kinds)
        counts = trace.obs[i, L.OB_HAND:L.OB_HAND + L.NK]
        for k in range(L.NK):
            assert kinds.count(k) == int(counts[k])
        seen_pair = seen_pair or int(counts.max()) >= 2
    assert seen_pair, "no decision held two cards of one kind: the repeat is untested"


def test_options_text_has_n_entries_and_its_entry_at_choice_is_choice_text(trace):
    d = trace.decisions
    for i in range(len(d)):
        texts = trace.options_text(i)
        assert len(texts) == int(d["n"].iat[i])
        assert texts[int(d["choice"].iat[i])] == d["choice_text"].iat[i]
        assert texts == [describe_option(*row) for row in trace.options_of(i).tolist()]


def test_choice_text_is_describe_option_of_the_chosen_row(trace):
    d = trace.decisions
    kinds = {v: k for k, v in L.OPTION_NAMES.items()}
    for i in range(len(d)):
        row = (kinds[d["kind"].iat[i]], int(d["a"].iat[i]), int(d["b"].iat[i]), int(d["c"].iat[i]))
        assert d["choice_text"].iat[i] == describe_option(*row)


def test_pile_top_is_none_exactly_when_the_observed_pile_top_is_minus_one(trace):
    d = trace.decisions
    for i in range(len(d)):
        top = int(trace.obs[i, L.OB_PILE_TOP])
        if top == -1:
            assert d["pile_top"].iat[i] is None
        else:
            assert d["pile_top"].iat[i] == card_name(top)


def test_pile_top_is_none_when_the_pile_is_empty_in_a_real_trace():
    # right after a take the pile is empty: the meld decisions that follow see no top card
    tr = trace_decisions("classic-4p", ["baseline"], games=3, seed=3)
    empty = tr.obs[:, L.OB_PILE_TOP] == -1
    assert empty.any() and (~empty).any()
    assert tr.decisions["pile_top"][empty].map(lambda x: x is None).all()
    assert tr.decisions["pile_top"][~empty].isin(CARD_NAMES).all()


@pytest.mark.parametrize(("row", "text"), [
    ((L.O_DRAW, 0, 0, 0), "draw from the stock"),
    ((L.O_TAKE, L.TAKE_M1, -1, 0), "take the pile (pair)"),
    ((L.O_TAKE, L.TAKE_M2, L.RK_JK, 0), "take the pile (natural_wild with a JK)"),
    ((L.O_TAKE, L.TAKE_M2, L.RK_2, 0), "take the pile (natural_wild with a 2)"),
    ((L.O_TAKE, L.TAKE_M3, -1, 0), "take the pile (layoff)"),
    ((L.O_END, 0, 0, 0), "end the hand"),
    ((L.O_NEW, 7, 2, L.RK_2), "new meld of 8s: 2 naturals + 2"),
    ((L.O_NEW, 9, 3, -1), "new meld of Ts: 3 naturals"),
    ((L.O_NEW, L.RK_A, 2, L.RK_JK), "new meld of As: 2 naturals + JK"),
    ((L.O_ADD, 3, -1, 0), "add a natural to meld 3"),
    ((L.O_ADD, 3, L.RK_JK, 0), "add a wild JK to meld 3"),
    ((L.O_ADD, 0, L.RK_2, 0), "add a wild 2 to meld 0"),
    ((L.O_BLACK3, 3, 0, 0), "meld 3 black threes"),
    ((L.O_STOP, 0, 0, 0), "stop melding"),
    ((L.O_NOASK, 0, 0, 0), "do not ask partner"),
    ((L.O_ASK, 2, 0, 0), "ask partner seat 2"),
    ((L.O_YES, 0, 0, 0), "answer yes"),
    ((L.O_NO, 0, 0, 0), "answer no"),
    ((L.O_DISCARD, parse_card("7C"), 0, 0), "discard 7C"),
    ((L.O_DISCARD, parse_card("TH"), 0, 0), "discard TH"),
    ((L.O_DISCARD, JOKER, 0, 0), "discard JK"),
])
def test_describe_option_gives_the_exact_text_of_hand_made_rows(row, text):
    assert describe_option(*row) == text


def test_describe_option_names_every_card_and_rank_class():
    for k in range(L.NK):
        assert describe_option(L.O_DISCARD, k, 0, 0) == f"discard {card_name(k)}"
    for r, name in enumerate(RANK_CLASS_NAMES):
        assert describe_option(L.O_ADD, 1, r, 0) == f"add a wild {name} to meld 1"


@pytest.mark.parametrize("kind", [0, 17, 99, -1])
def test_describe_option_unknown_kind_raises_value_error(kind):
    with pytest.raises(ValueError, match="unknown option kind"):
        describe_option(kind, 0, 0, 0)


@pytest.mark.parametrize("row", [
    (L.O_DISCARD, -1, 0, 0),  # no negative wrap-around to a real card
    (L.O_DISCARD, L.NK, 0, 0),
    (L.O_TAKE, 9, -1, 0),
    (L.O_NEW, -1, 3, -1),
    (L.O_ADD, 1, L.NR, 0),
])
def test_describe_option_bad_field_raises_value_error(row):
    with pytest.raises(ValueError):
        describe_option(*row)


def test_empty_trace_has_the_readable_columns():
    tr = trace_decisions("classic-4p", ["baseline"], games=0, seed=3)
    assert len(tr) == 0
    assert {"card", "pile_top", "choice_text"} <= set(tr.decisions.columns)


def test_describe_option_names_buraco_sequences_and_the_free_take():
    assert describe_option(L.O_SEQ, L.SUIT_H, 5, L.seq_wild(7, L.RK_JK)) == "new sequence 5H 6H 7H (a JK as the 7H)"
    assert describe_option(L.O_SEQ, L.SUIT_D, 12, -1) == "new sequence QD KD AD"
    assert describe_option(L.O_EXTEND, 3, L.END_HIGH, L.RK_2) == "extend sequence 3 at its high end with a wild 2"
    assert describe_option(L.O_TAKE, L.TAKE_FREE, -1, 0) == "take the pile (free)"
    with pytest.raises(ValueError, match="bad sequence"):
        describe_option(L.O_SEQ, 4, 5, -1)
