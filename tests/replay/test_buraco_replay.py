"""Tests of the independent Buraco replayer (tests/replay/buraco.py) on hand-built transcripts.

Each transcript is written out event by event with the small builder below (a deal with chosen hands, mortos and
stock top, the rest of the 108 cards filled in a fixed order). Legal play must replay clean; each rule violation
must be flagged under its check name. Worked examples BU-1..BU-6 of VARIANTS.md §5.7 are included.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.replay.buraco import (
    CHECKS,
    PACK,
    canasta_bonus,
    checks_of,
    meld_value,
    replay,
    score_side,
    sequence_ok,
    set_ok,
)

# card values written out again here (§3.10 setup 4), so that expected scores do not lean on the replayer
VALUES = {"A": 15, "2": 20, "K": 10, "Q": 10, "J": 10, "T": 10, "9": 10, "8": 10}


def value(cards: list[str] | Counter[str]) -> int:
    cards = list(cards.elements()) if isinstance(cards, Counter) else cards
    return sum(50 if c == "JK" else VALUES.get(c[0], 5) for c in cards)


def seq(suit: str, ranks: str) -> list[str]:
    """seq("H", "3456789") -> ["3H", ..., "9H"]"""
    return [r + suit for r in ranks]


# ---- builders --------------------------------------------------------------------------------------------------

def make_deal(players: int = 2, hands: tuple[list[str], ...] = (), feet: tuple[list[str], ...] = (),
              stock: list[str] = (), pile: str | None = None) -> dict[str, Any]:
    """Hands, mortos (feet[side]), stock top and upcard as chosen; everything left over fills them up (11 cards a
    hand and a morto, one upcard, the rest under the chosen stock top) in a fixed order."""
    pool = Counter(PACK)
    chosen = [c for part in (*hands, *feet, stock, [pile] if pile else []) for c in part]
    over = Counter(chosen) - pool
    assert not over, f"more copies than the pack holds: {over}"
    pool.subtract(chosen)
    rest = sorted(pool.elements(), key=lambda c: ("SHDCK".index(c[1]), "A23456789TJQK".index(c[0])))
    hands = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    feet = [list(f) for f in feet] + [[] for _ in range(2 - len(feet))]
    for part in (*hands, *feet):
        while len(part) < 11:
            part.append(rest.pop())
    upcard = pile or rest.pop()
    return {"hands": hands, "feet": feet, "stock": list(stock) + rest, "pile": [upcard]}


class Tx:
    """A transcript under construction. It tracks only what it needs to write events: the stock, the pile, the
    mortos and the melds' wholes. It applies no rule: illegal play is written as asked."""

    def __init__(self, players: int = 2, *, target: int | None = None, max_turns: int = 1000,
                 max_hands: int = 200, dealer: int = 1, **deal: Any) -> None:
        self.n = players
        self.sides = [[0], [1]] if players == 2 else [[0, 2], [1, 3]]
        self.events: list[dict[str, Any]] = [{
            "event": "game", "variant": f"buraco-{players}p", "seed": 1, "game": 0, "deal": 0, "players": players,
            "sides": self.sides, "strategies": ["hand"] * players,
            "rules": {"target_score": target, "max_turns_per_hand": max_turns, "max_hands_per_game": max_hands}}]
        self.totals = [0, 0]
        self.hand = 0
        self.deal(dealer=dealer, **deal)

    def add(self, event: str, **fields: Any) -> Tx:
        self.events.append({"event": event, **fields})
        return self

    def deal(self, dealer: int, **chosen: Any) -> Tx:
        self.hand += 1
        d = make_deal(self.n, **chosen)
        self.hands = [Counter(h) for h in d["hands"]]
        self.stock, self.pile, self.feet = list(d["stock"]), list(d["pile"]), d["feet"]
        self.wholes: dict[tuple[int, int], list[str]] = {}
        return self.add("deal", hand=self.hand, dealer=dealer, **d)

    def draw(self, p: int, card: str | None = None) -> Tx:
        card = card or self.stock[0]
        if card in self.stock:
            self.stock.remove(card)
        self.hands[p][card] += 1
        return self.add("draw", player=p, cards=[card])

    def take(self, p: int, cards: list[str] | None = None) -> Tx:
        cards = list(self.pile) if cards is None else cards
        self.hands[p].update(self.pile)
        self.pile.clear()
        return self.add("take_pile", player=p, method="free", cards=cards)

    def meld(self, p: int, cards: list[str], whole: list[str] | None = None, *, idx: int | None = None,
             kind: str | None = None, side: int | None = None, new: bool | None = None) -> Tx:
        side = p % 2 if side is None else side
        if idx is None:
            idx = sum(1 for s, _ in self.wholes if s == side)
        new = (side, idx) not in self.wholes if new is None else new
        if whole is None:
            whole = list(cards) if new else self.wholes[(side, idx)] + list(cards)
        if kind is None:
            naturals = {c[0] for c in whole if c != "JK" and c[0] != "2"}
            kind = "rank" if len(naturals) == 1 else "sequence"
        self.wholes[(side, idx)] = list(whole)
        self.hands[p].subtract(cards)
        return self.add("meld", player=p, side=side, meld=idx, new=new, kind=kind, cards=list(cards), whole=whole)

    def discard(self, p: int, card: str) -> Tx:
        self.hands[p][card] -= 1
        self.pile.append(card)
        return self.add("discard", player=p, card=card)

    def foot(self, p: int, knock: str, cards: list[str] | None = None) -> Tx:
        cards = list(self.feet[p % 2]) if cards is None else cards
        self.hands[p].update(cards)
        return self.add("foot", player=p, cards=cards, knock=knock)

    def go_out(self, p: int) -> Tx:
        return self.add("go_out", player=p, concealed=False)

    def turn(self, p: int) -> Tx:
        """Draw the stock's top card and discard it."""
        card = self.stock[0]
        return self.draw(p).discard(p, card)

    def end(self, reason: str, rows: list[dict[str, int]], out_player: int | None = None,
            totals: list[int] | None = None) -> Tx:
        scores = []
        for s, row in enumerate(rows):
            full = {"side": s, **{k: row.get(k, 0) for k in
                                  ("melded", "canastas", "red_threes", "going_out", "in_hand", "other")}}
            full["total"] = row.get("total", sum(v for k, v in full.items() if k != "side"))
            scores.append(full)
        self.totals = [t + r["total"] for t, r in zip(self.totals, scores, strict=True)]
        return self.add("hand_end", hand=self.hand, reason=reason, out_player=out_player, scores=scores,
                        totals=totals or list(self.totals))

    def game_end(self, winner: int | None, capped: bool = False) -> Tx:
        return self.add("game_end", totals=list(self.totals), winner=winner, capped=capped)

    def in_hand(self, p: int) -> int:
        return -value(+self.hands[p])


def problems(tx: Tx, complete: bool = True) -> list[str]:
    return replay(tx.events, complete=complete)


def flagged(tx: Tx, complete: bool = False) -> set[str]:
    return checks_of(problems(tx, complete))


def assert_clean(tx: Tx, complete: bool = True) -> None:
    found = problems(tx, complete)
    assert found == [], "\n".join(found)


# ---- scenario A: seat 0 knocks out directly, seat 1 indirectly, seat 0 goes out (BU-3) ---------------------------

H0 = seq("H", "3456789") + ["KS", "KD", "KC", "KH"]
H1 = seq("C", "3456789TJQK")
MORTO0 = seq("D", "3456789TJQ") + ["4S"]  # 75 once the 4S is discarded
MORTO1 = ["8S", "8S", "9S", "9S", "TS", "TS", "JS", "JS", "QS", "2S", "2S"]  # worth 130 (BU-3)
KINGS = ["KS", "KD", "KC", "KH", "KS"]


def scenario_a(**kw: Any) -> Tx:
    """Turn 1: seat 0 draws KS, lays ♥3-9 (clean canasta) and five kings, empties its hand, takes its morto
    (direct) and discards 4S. Turn 2: seat 1 draws 7D, lays ♣3-K, discards 7D and takes its morto (indirect)."""
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"], **kw)
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, ["KS", "KD", "KC", "KH", "KS"])
    tx.foot(0, "direct").discard(0, "4S")
    tx.draw(1).meld(1, H1).discard(1, "7D").foot(1, "indirect")
    return tx


def finish_a_out(tx: Tx, side1: dict[str, int] | None = None) -> Tx:
    """Turn 3: seat 0 draws KD, lays ♦3-K (clean canasta) and goes out, before seat 1's next turn."""
    tx.draw(0).meld(0, seq("D", "3456789TJQK")).go_out(0)
    side0 = {"melded": 45 + 50 + 85, "canastas": 400, "going_out": 100}
    return tx.end("out", [side0, side1 or {"melded": 85, "canastas": 200, "other": -100}], out_player=0)


def test_legal_hand_with_direct_and_indirect_knocks_and_a_final_knock_out_replays_clean():
    tx = finish_a_out(scenario_a()).game_end(winner=0)
    assert tx.totals == [680, 185]
    assert_clean(tx)


def test_bu3_r140_indirect_knock_then_hand_ends_costs_100_and_morto_not_subtracted():
    assert value(MORTO1) == 130
    assert_clean(finish_a_out(scenario_a()).game_end(winner=0))
    # the morto's 130 subtracted as hand cards, no penalty: both wrong
    tx = finish_a_out(scenario_a(), side1={"melded": 85, "canastas": 200, "in_hand": -130}).game_end(winner=0)
    found = problems(tx)
    assert checks_of(found) == {"score"}
    assert any("in_hand" in p for p in found) and any("other" in p for p in found)


def test_r140_indirect_knock_then_hand_ends_by_cap_costs_100_and_morto_not_subtracted():
    tx = scenario_a(max_turns=2)
    tx.end("cap", [{"melded": 95, "canastas": 200, "in_hand": -75}, {"melded": 85, "canastas": 200, "other": -100}])
    assert_clean(tx.game_end(winner=0))


def test_r140_no_penalty_once_the_indirect_knocker_has_had_its_next_turn():
    tx = scenario_a(max_turns=4)
    tx.draw(0).discard(0, "KD").turn(1)
    tx.end("cap", [{"melded": 95, "canastas": 200, "in_hand": -75}, {"melded": 85, "canastas": 200, "in_hand": -130}])
    assert_clean(tx.game_end(winner=0))


def test_r137_direct_knock_player_draws_no_card_after_the_morto():
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).foot(0, "direct").draw(0)
    assert flagged(tx) == {"turn"}


def test_r137_knock_kind_must_match_how_the_hand_emptied():
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).foot(0, "indirect")
    assert flagged(tx) == {"knock"}


def test_r137_indirect_knock_ends_the_turn():
    tx = scenario_a()
    tx.meld(1, ["8S", "9S", "TS"])  # seat 1 keeps playing after its indirect knock
    assert "turn" in flagged(tx)


def test_r136_foot_must_be_the_sides_own_morto_in_deal_order():
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).foot(0, "direct", cards=MORTO1)
    assert "cards" in flagged(tx)
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).foot(0, "direct", cards=list(reversed(MORTO0)))
    assert flagged(tx) == {"cards"}


def test_r137_the_morto_must_follow_an_emptied_hand_at_once():
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).foot(0, "direct").discard(0, "4S")
    tx.draw(1).meld(1, H1).discard(1, "7D").turn(0)  # no foot after seat 1's last discard
    assert flagged(tx) == {"knock"}


def test_r137_foot_only_with_an_empty_hand():
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).foot(0, "direct")
    assert "knock" in flagged(tx)


R137_H0 = seq("H", "345678") + ["KS", "KD", "KC", "KH", "KH"]


def test_r137_morto_taken_and_no_canasta_the_hand_may_not_be_emptied():
    tx = Tx(hands=(R137_H0,), feet=(MORTO0,), stock=["KS", "AC", "5C"])
    tx.draw(0).meld(0, seq("H", "345678")).meld(0, ["KS", "KD", "KC", "KH", "KH", "KS"])  # 6 + 6: no canasta
    tx.foot(0, "direct").discard(0, "4S").turn(1)
    tx.draw(0).meld(0, seq("D", "3456")).meld(0, seq("D", "789")).meld(0, seq("D", "TJQ"))
    assert flagged(tx) == set()
    tx.discard(0, "5C")  # the last card, the morto taken, no canasta
    assert flagged(tx) == {"knock"}
    tx.go_out(0)
    assert any("R-138" in p for p in problems(tx, complete=False))


def test_r138_final_knock_out_needs_the_morto_taken_first():
    tx = Tx(hands=(H0, H1), feet=(MORTO0, MORTO1), stock=["KS", "7D", "KD"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).go_out(0)  # a canasta, but the morto is still there
    assert flagged(tx) == {"knock"}


def test_r138_game_with_a_final_knock_out_ends_the_hand_no_more_turns():
    tx = finish_a_out(scenario_a())
    tx.events.insert(-1, {"event": "draw", "player": 1, "cards": [tx.stock[0]]})
    assert "end" in flagged(tx)


# ---- 4 players: one morto per team, taken by whichever partner empties first (R-136) ----------------------------

P2_HAND = seq("C", "456789TJQKA")


def four_player_hand() -> Tx:
    tx = Tx(4, dealer=3, hands=(H0, [], P2_HAND), feet=(MORTO0,), stock=["KS", "AS", "3C"])
    tx.draw(0).meld(0, seq("H", "3456789")).meld(0, KINGS).foot(0, "direct").discard(0, "4S")
    tx.turn(1)
    tx.draw(2).meld(2, seq("C", "3456789TJQKA"))
    return tx


def test_r136_4p_partner_of_the_morto_taker_goes_out_with_the_team_canasta():
    tx = four_player_hand().go_out(2)
    side0 = {"melded": 45 + 50 + 100, "canastas": 400, "going_out": 100, "in_hand": -75}
    side1 = {"in_hand": tx.in_hand(1) + tx.in_hand(3), "other": -100}
    tx.end("out", [side0, side1], out_player=2).game_end(winner=0)
    assert tx.totals[0] == 620
    assert_clean(tx)


def test_r136_4p_a_team_takes_its_morto_only_once():
    tx = four_player_hand().foot(2, "direct")
    assert flagged(tx) == {"knock", "cards"}  # and the second morto comes from nowhere: 108 cards broken


def test_bu6_stock_after_the_deal_is_41_for_4p_and_63_for_2p():
    assert len(Tx(4, dealer=3).stock) == 41 and len(Tx(2).stock) == 63
    assert flagged(Tx(4, dealer=3)) == set() and flagged(Tx(2)) == set()
    tx = Tx(2)
    deal = tx.events[1]
    deal["pile"].append(deal["stock"].pop())  # a 62-card stock and two upcards
    found = problems(tx, complete=False)
    assert checks_of(found) == {"deal"} and any("BU-6" in p for p in found)


def test_deal_must_be_exactly_the_108_card_pack():
    tx = Tx(2)
    tx.events[1]["stock"][-1] = tx.events[1]["stock"][0]
    assert flagged(tx) == {"deal"}


# ---- turn order, draw step, card flow -----------------------------------------------------------------------------

def test_r145_first_player_is_the_dealers_left():
    tx = Tx(2, dealer=1)
    tx.turn(1)
    assert flagged(tx) == {"turn"}
    tx = Tx(4, dealer=1)
    tx.turn(2).turn(3).turn(0).turn(1)
    assert_clean(tx, complete=False)


def test_r145_deal_passes_left():
    tx = Tx(2, max_turns=2, dealer=1, hands=(seq("S", "3456789TJQK"), seq("H", "3456789TJQK")))
    tx.turn(0).turn(1).end("cap", [{"in_hand": -85, "other": -100}] * 2)  # a tie: another deal
    tx.deal(dealer=1)  # should be seat 0
    assert flagged(tx) == {"deal"}


def test_a_turn_starts_with_exactly_one_draw_or_take_pile():
    tx = Tx(hands=(["5H", "6H", "7H"],))
    tx.meld(0, ["5H", "6H", "7H"])
    assert flagged(tx) == {"turn"}
    tx = Tx()
    tx.draw(0).draw(0)
    assert flagged(tx) == {"turn"}
    tx = Tx()
    tx.draw(0).take(0)
    assert "turn" in flagged(tx)


def test_a_turn_ends_with_a_discard_before_the_next_player_draws():
    tx = Tx(hands=(["5H", "6H", "7H"],))
    tx.draw(0).meld(0, ["5H", "6H", "7H"]).turn(1)
    assert flagged(tx) == {"turn"}


def test_draw_is_the_stock_top_card():
    tx = Tx()
    tx.draw(0, next(c for c in tx.stock if c != tx.stock[0]))
    assert flagged(tx) == {"stock"}


def test_r135_take_pile_takes_the_whole_pile_unconditionally_even_on_the_first_turn():
    tx = Tx(pile="JK")
    tx.take(0).discard(0, "JK").take(1)  # any card may be discarded, the pile is free to take
    assert_clean(tx, complete=False)
    tx = Tx(pile="JK")
    tx.turn(0)
    tx.take(1, cards=[tx.pile[-1]])  # only the top card listed
    assert flagged(tx) == {"cards"}


def test_cards_melded_or_discarded_come_from_the_players_hand():
    tx = Tx(hands=(["5H", "6H"], ["7H"]))
    tx.draw(0).meld(0, ["5H", "6H", "7H"])
    assert flagged(tx) == {"cards"}
    tx = Tx(hands=((), ["7H"]))
    tx.draw(0).discard(0, "7H")
    found = problems(tx, complete=False)
    assert checks_of(found) == {"cards"} and any("conserved" in p for p in found)


# ---- melds: §1.4, R-131..R-134, R-143, R-146 ----------------------------------------------------------------------

def meld_flags(hand: list[str], *melds: tuple[list[str], dict[str, Any]]) -> set[str]:
    tx = Tx(hands=(hand,))
    tx.draw(0)
    for cards, kw in melds:
        tx.meld(0, cards, **kw)
    return flagged(tx)


def test_r131_a_sequence_with_one_wild_is_legal():
    assert meld_flags(["5H", "6H", "JK", "8H"], (["5H", "6H", "JK", "8H"], {})) == set()


def test_r131_a_sequence_with_two_wilds_is_flagged():
    assert meld_flags(["5H", "2C", "JK", "8H"], (["5H", "2C", "JK", "8H"], {"kind": "sequence"})) == {"meld"}


def test_r131_a_set_with_two_wilds_is_flagged():
    assert meld_flags(["7C", "7H", "2D", "JK"], (["7C", "7H", "2D", "JK"], {})) == {"meld"}


def test_r131_adding_a_second_wild_to_a_meld_is_flagged():
    assert meld_flags(["7C", "7H", "JK", "2D"], (["7C", "7H", "JK"], {}), (["2D"], {"idx": 0})) == {"meld"}


def test_r132_r146_a_natural_position_two_plus_one_wild_is_legal():
    assert meld_flags(["AH", "2H", "3H", "JK"], (["AH", "2H", "3H", "JK"], {})) == set()
    assert meld_flags(["2H", "3H", "4H", "2S"], (["2H", "3H", "4H", "2S"], {"kind": "sequence"})) == set()
    assert meld_flags(["2H", "2H", "3H"], (["2H", "2H", "3H"], {"kind": "sequence"})) == set()  # wild 2♥ as A


def test_r146_a_two_of_the_suit_out_of_its_place_is_wild():
    assert meld_flags(["2H", "4H", "JK"], (["4H", "2H", "JK"], {"kind": "sequence"})) == {"meld"}


def test_r133_wrap_around_is_flagged_ace_high_is_legal():
    assert meld_flags(["KS", "AS", "2S"], (["KS", "AS", "2S"], {"kind": "sequence"})) == {"meld"}
    assert meld_flags(["QD", "KD", "AD"], (["QD", "KD", "AD"], {})) == set()


def test_r133_a_sequence_is_one_suit_and_consecutive():
    assert meld_flags(["5H", "6S", "7H"], (["5H", "6S", "7H"], {})) == {"meld"}
    assert meld_flags(["5H", "6H", "8H"], (["5H", "6H", "8H"], {})) == {"meld"}


def test_r133_a_sequence_has_at_most_13_cards_ace_to_ace_is_flagged():
    tx = Tx(hands=(seq("H", "A23456789TJ"),), feet=(["KH", "AH"],), stock=["QH"])
    tx.draw(0).meld(0, seq("H", "A23456789TJQ")).foot(0, "direct").meld(0, ["KH"], idx=0)
    assert flagged(tx) == set()  # A..K, 13 cards
    tx.meld(0, ["AH"], idx=0)  # the 14th card: A..K..A
    assert flagged(tx) == {"meld"}


def test_r134_a_set_of_twos_is_flagged():
    assert meld_flags(["2C", "2D", "2H"], (["2C", "2D", "2H"], {"kind": "rank"})) == {"meld"}


def test_r134_one_set_per_rank_per_side():
    hand = ["7C", "7H", "7D", "7S", "7C", "7H"]
    assert meld_flags(hand, (["7C", "7H", "7D"], {}), (["7S", "7C", "7H"], {})) == {"meld"}
    assert meld_flags(hand, (["7C", "7H", "7D"], {}), (["7S", "7C", "7H"], {"idx": 0})) == set()


def test_r134_each_side_may_have_its_own_set_of_a_rank():
    tx = Tx(hands=(["7C", "7H", "7D"], ["7S", "7C", "7H"]))
    card = tx.stock[0]
    tx.draw(0).meld(0, ["7C", "7H", "7D"]).discard(0, card)
    tx.draw(1).meld(1, ["7S", "7C", "7H"])
    assert flagged(tx) == set()


def test_sequences_are_any_number_per_suit():
    assert meld_flags(["3H", "4H", "5H", "7H", "8H", "9H"], (["3H", "4H", "5H"], {}), (["7H", "8H", "9H"], {})) \
        == set()


def test_melds_of_the_other_side_may_never_be_touched():
    tx = Tx(hands=(["7C", "7H", "7D"], ["7S"]))
    card = tx.stock[0]
    tx.draw(0).meld(0, ["7C", "7H", "7D"]).discard(0, card)
    tx.draw(1).meld(1, ["7S"], side=0, idx=0)
    assert flagged(tx) == {"meld"}


def test_r143_a_wild_never_moves():
    hand = ["5H", "6H", "JK", "7H", "4H"]
    ok = ((["5H", "6H", "JK"], {}), (["4H"], {"idx": 0, "whole": ["4H", "5H", "6H", "JK"]}))
    assert meld_flags(hand, *ok) == set()  # extended below, the joker still stands for 7♥
    moved = ((["5H", "6H", "JK"], {}), (["7H"], {"idx": 0, "whole": ["5H", "6H", "7H", "JK"]}))
    assert meld_flags(hand, *moved) == {"meld"}  # the joker moved from 7 to 8


def test_meld_events_must_be_consistent():
    assert meld_flags(["5H", "6H", "7H"], (["5H", "6H", "7H"], {"idx": 3, "new": True})) == {"meld"}
    # a whole with a card not in `cards`: a meld problem, and the 8♥ breaks conservation
    assert meld_flags(["5H", "6H", "7H"], (["5H", "6H", "7H"], {"whole": ["5H", "6H", "7H", "8H"]})) \
        == {"meld", "cards"}
    assert meld_flags(["5H", "6H", "7H", "8H"], (["5H", "6H", "7H"], {}),
                      (["8H"], {"idx": 0, "whole": ["8H", "5H", "6H", "7H"]})) == {"meld"}


# ---- hand ends: E-BURACO, the cap, the game (R-141, R-147) -----------------------------------------

def stock_out_hand() -> Tx:
    tx = Tx(hands=(["JK"],))
    for t in range(63):
        tx.turn(t % 2)
    return tx


def stock_rows(tx: Tx) -> list[dict[str, int]]:
    return [{"in_hand": tx.in_hand(0), "other": -100}, {"in_hand": tx.in_hand(1), "other": -100}]


def test_r139_the_hand_ends_after_the_turn_that_draws_the_last_stock_card():
    tx = stock_out_hand()
    assert tx.stock == []
    tx.end("stock", stock_rows(tx))
    assert tx.totals[0] < tx.totals[1]
    assert_clean(tx.game_end(winner=1))


def test_r139_play_after_the_last_stock_card_is_flagged():
    tx = stock_out_hand()
    tx.add("draw", player=1, cards=["AS"])
    assert flagged(tx) >= {"end", "stock"}


def test_r139_hand_end_reason_must_match():
    tx = stock_out_hand()
    tx.end("cap", stock_rows(tx)).game_end(winner=1)
    assert flagged(tx, complete=True) == {"end"}
    tx = Tx(hands=(["JK"],))
    for t in range(62):
        tx.turn(t % 2)
    tx.end("stock", stock_rows(tx)).game_end(winner=1)  # one card still in the stock
    assert flagged(tx, complete=True) == {"end"}


def test_r150_the_turn_cap_ends_the_hand():
    tx = Tx(max_turns=3, hands=(["JK"],))
    tx.turn(0).turn(1).turn(0).end("cap", stock_rows(tx)).game_end(winner=1)
    assert_clean(tx)
    tx = Tx(max_turns=3, hands=(["JK"],))
    tx.turn(0).turn(1).turn(0).turn(1)
    assert flagged(tx) == {"end"}


def test_r147_a_tie_after_the_deal_plays_another_deal():
    tx = Tx(2, max_turns=2, dealer=1, hands=(seq("S", "3456789TJQK"), seq("H", "3456789TJQK")))
    tx.turn(0).turn(1).end("cap", [{"in_hand": -85, "other": -100}] * 2)
    assert tx.totals == [-185, -185]
    tied = tx.events + [{"event": "game_end", "totals": [-185, -185], "winner": None, "capped": False}]
    assert checks_of(replay(tied)) == {"end"}
    tx.deal(dealer=0, hands=(["JK"],))
    tx.turn(1).turn(0).end("cap", stock_rows(tx)).game_end(winner=1)
    assert_clean(tx)


def test_r141_with_a_target_the_game_goes_on_until_a_side_reaches_it():
    tx = Tx(target=3000, max_turns=2, hands=(["JK"],))
    tx.turn(0).turn(1).end("cap", stock_rows(tx))
    ended = list(tx.events) + [{"event": "game_end", "totals": tx.totals, "winner": 1, "capped": False}]
    assert checks_of(replay(ended)) == {"end"}
    tx.deal(dealer=0)
    tx.turn(1)
    assert_clean(tx, complete=False)


def test_r150_the_hand_cap_ends_the_game_capped():
    tx = Tx(target=3000, max_turns=2, max_hands=1, hands=(["JK"],))
    tx.turn(0).turn(1).end("cap", stock_rows(tx)).game_end(winner=1, capped=True)
    assert_clean(tx)


def test_game_end_winner_and_totals_are_checked():
    tx = finish_a_out(scenario_a()).game_end(winner=1)
    assert flagged(tx, complete=True) == {"end"}
    tx = scenario_a()
    assert checks_of(replay(tx.events)) == {"end"}  # cut off before game_end


def test_r141_no_deal_after_a_decided_one_deal_game():
    tx = finish_a_out(scenario_a())
    tx.deal(dealer=0)
    assert flagged(tx) == {"end"}


def test_a_transcript_may_hold_several_games():
    first = finish_a_out(scenario_a()).game_end(winner=0)
    events = first.events + finish_a_out(scenario_a()).game_end(winner=0).events
    assert replay(events) == []
    assert checks_of(replay(first.events[:-1] + first.events)) == {"end"}  # a game without its game_end


# ---- scores: §3.10 scoring, R-140, R-142 ---------------------------------------------------------------------------

def test_score_components_and_totals_are_checked():
    tx = finish_a_out(scenario_a(), side1={"melded": 85, "canastas": 100, "other": -100}).game_end(winner=0)
    found = problems(tx)
    assert checks_of(found) == {"score"} and any("canastas" in p for p in found)
    tx = finish_a_out(scenario_a())
    tx.events[-1]["totals"] = [680, 285]
    tx.totals = [680, 285]
    assert flagged(tx.game_end(winner=0), complete=True) == {"score"}
    tx = finish_a_out(scenario_a())
    tx.events[-1]["scores"][0]["total"] = 700
    assert "score" in flagged(tx)


def test_r142_table_cards_count_without_a_canasta():
    tx = Tx(max_turns=2, hands=(["5H", "6H", "7H"],))
    card = tx.stock[0]
    tx.draw(0).meld(0, ["5H", "6H", "7H"]).discard(0, card).turn(1)
    tx.end("cap", [{"melded": 15, "in_hand": tx.in_hand(0), "other": -100},
                   {"in_hand": tx.in_hand(1), "other": -100}])
    assert_clean(tx.game_end(winner=0 if tx.totals[0] > tx.totals[1] else 1))


def test_r132_a_canasta_with_a_natural_position_two_is_clean():
    hand = seq("H", "A234567")
    tx = Tx(max_turns=1, hands=(hand,))
    card = tx.stock[0]
    tx.draw(0).meld(0, hand).discard(0, card)
    tx.end("cap", [{"melded": 15 + 20 + 25, "canastas": 200, "in_hand": tx.in_hand(0), "other": -100},
                   {"in_hand": tx.in_hand(1), "other": -100}])
    assert_clean(tx.game_end(winner=0 if tx.totals[0] > tx.totals[1] else 1))


# ---- worked examples (§5.7) and pure helpers ------------------------------------------------------------------------

def test_bu1_team_with_final_knock_out_scores_560():
    melds = [("sequence", seq("H", "3456789")), ("rank", ["KH", "KH", "KD", "KD", "KC", "KC", "JK"]),
             ("sequence", seq("S", "JQK"))]
    row = score_side(melds, ["7C", "2D"], went_out=True, morto_taken=True)
    assert row == {"melded": 45 + 110 + 30, "canastas": 300, "red_threes": 0, "going_out": 100, "in_hand": -25,
                   "other": 0, "total": 560}


def test_bu2_team_without_its_morto_scores_minus_160():
    melds = [("sequence", seq("D", "456")), ("rank", ["AS", "AH", "AD"])]
    row = score_side(melds, ["KS"] * 8 + ["TS"] * 4, went_out=False, morto_taken=False)  # hands 80 and 40
    assert (row["melded"], row["other"], row["in_hand"], row["total"]) == (60, -100, -120, -160)


def test_bu4_card_values_of_a_natural_two_sequence_and_a_set_of_aces():
    assert meld_value(["AC", "2C", "3C"]) == 40 and meld_value(["AS", "AH", "AD"]) == 45
    assert sequence_ok(["AC", "2C", "3C"]) and set_ok(["AS", "AH", "AD"])
    assert canasta_bonus(seq("C", "A234567")) == 200  # the 2 in its place is natural: clean


def test_bu5_meld_legality():
    assert sequence_ok(["5H", "6H", "JK", "8H"])
    assert not sequence_ok(["5H", "2C", "JK", "8H"])  # 2 wilds
    assert not set_ok(["2C", "2D", "2H"])  # set of 2s
    assert not sequence_ok(["KS", "AS", "2S"])  # wrap
    assert sequence_ok(["QD", "KD", "AD"])


def test_helpers_canasta_bonus_and_length_limits():
    assert canasta_bonus(seq("H", "345678") + ["JK"]) == 100
    assert canasta_bonus(["KH", "KH", "KD", "KD", "KC", "KC", "2S"]) == 100
    assert canasta_bonus(seq("H", "345678")) == 0
    assert sequence_ok(seq("H", "A23456789TJQK")) and sequence_ok(seq("H", "23456789TJQKA"))
    assert not sequence_ok(seq("H", "A23456789TJQKA"))  # 14 cards, ace at both ends
    assert sequence_ok(seq("H", "A23456789TJQKA"), ace_to_ace=True)
    assert not set_ok(["5H", "5S"]) and not set_ok(["5H", "6H", "7H"]) and set_ok(["5H", "5H", "2H"])


def test_r160_unknown_events_are_flagged():
    tx = Tx()
    tx.add("red_three", player=0, cards=["3H"])
    assert flagged(tx) == {"event"}


def test_every_check_name_is_declared():
    assert CHECKS == {"event", "deal", "turn", "stock", "cards", "meld", "knock", "score", "end"}
    assert all(p.startswith("[") for p in problems(scenario_a()))


@pytest.mark.parametrize("bad", [
    {"event": "draw", "player": 0},  # no cards
    {"event": "meld", "player": 0, "side": 7, "meld": 0, "new": True, "kind": "rank", "cards": [], "whole": []},
])
def test_malformed_events_are_reported_not_raised(bad):
    tx = Tx()
    tx.events.append(bad)
    assert "event" in flagged(tx)
