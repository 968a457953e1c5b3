"""ASK-PARTNER (sim/engine/ask.py, §1.9, R-07): asked only when the player could go out this turn and
holds at least two cards, of the partner (classic-4p) or of one partner of the asker's choice
(classic-6p); never in the games without partners."""

from __future__ import annotations

from sim.engine import layout as L
from sim.engine.ask import enum_ask_nb
from tests.support import NATURAL_KINGS, Table


def ask_options(t: Table, seat: int) -> list[tuple[int, int]]:
    n = enum_ask_nb(t.R, t.S, seat)
    return [(int(t.S.opts[i, L.OPT_KIND]), int(t.S.opts[i, L.OPT_A])) for i in range(n)]


def test_r07_ask_the_partner_only_when_going_out_is_possible():
    can = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "9S 9H 9D 5C")
    assert ask_options(can, 0) == [(L.O_NOASK, 0), (L.O_ASK, 2)]
    cannot = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "9S 9H 5D 6C")
    assert ask_options(cannot, 0) == []


def test_r07_with_one_card_going_out_is_forced_so_nobody_is_asked():
    t = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "5C")
    assert ask_options(t, 0) == []


def test_r19_six_players_ask_one_partner_of_their_choice():
    t = Table("classic-6p").meld(0, NATURAL_KINGS).hand(0, "9S 9H 9D 5C")
    assert ask_options(t, 0) == [(L.O_NOASK, 0), (L.O_ASK, 2), (L.O_ASK, 4)]


def test_r17_r18_no_partner_to_ask_in_the_individual_games():
    for variant in ("classic-2p", "classic-3p"):
        t = Table(variant).meld(0, NATURAL_KINGS).hand(0, "9S 9H 9D 5C")
        assert ask_options(t, 0) == []
