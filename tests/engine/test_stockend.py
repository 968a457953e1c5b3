"""The end of the stock (sim/engine/stockend.py, E-CLASSIC, R-06): at an empty stock a take that
lays the top card off on the side's meld is forced, any other take is optional (declining ends the
hand), and no take at all ends the hand."""

from __future__ import annotations

from sim.engine import layout as L
from sim.engine.draw import enum_draw_step_nb
from tests.support import NATURAL_KINGS, Table


def draw_step(t: Table, seat: int) -> list[tuple[int, int]]:
    n = enum_draw_step_nb(t.R, t.S, seat)
    return [(int(t.S.opts[i, L.OPT_KIND]), int(t.S.opts[i, L.OPT_A])) for i in range(n)]


def test_r06_take_by_lay_off_is_forced_at_an_empty_stock():
    t = Table().meld(0, "9S 9H 9D").hand(0, "5S 6S 7S 8D").pile("4C 9C").stock(0)
    opts = draw_step(t, 0)
    assert (L.O_TAKE, L.TAKE_M3) in opts and (L.O_END, 0) not in opts and (L.O_DRAW, 0) not in opts


def test_r06_other_takes_are_optional_at_an_empty_stock():
    t = Table().meld(0, NATURAL_KINGS).hand(0, "8S 8H 5D 6D").pile("4C 8C").stock(0)
    assert draw_step(t, 0) == [(L.O_TAKE, L.TAKE_M1), (L.O_END, 0)]


def test_no_take_at_an_empty_stock_ends_the_hand():
    t = Table().meld(0, NATURAL_KINGS).hand(0, "5S 6S 7D").pile("4C 8C").stock(0)
    assert draw_step(t, 0) == []


def test_with_cards_in_the_stock_drawing_is_always_an_option():
    t = Table().meld(0, "9S 9H 9D").hand(0, "5S 6S 7S 8D").pile("4C 9C").stock(5)
    assert draw_step(t, 0)[0] == (L.O_DRAW, 0) and (L.O_TAKE, L.TAKE_M3) in draw_step(t, 0)
