"""The draw step (sim/engine/draw.py): DRAW(k), with fewer cards left than k a complete draw (C-12, R-08)."""

from __future__ import annotations

from sim.engine import layout as L
from sim.engine.draw import draw_nb
from sim.engine.layout import HC_N
from sim.rules.cards import parse_card
from tests.support import Table


def test_c12_r08_two_player_last_single_stock_card_is_a_complete_draw():
    t = Table("classic-2p").hand(0, "5S 6H 9C")
    t.S.stock[0] = parse_card("7H")
    t.stock(1)
    draw_nb(t.R, t.S, 0)
    assert int(t.S.hand[0, HC_N]) == 4
    assert int(t.S.hand[0, parse_card("7H")]) == 1
    assert int(t.S.st[L.S_STOCK_N]) == 0
    assert int(t.S.st[L.S_LASTR3]) == 0
    assert int(t.S.st[L.S_ENDED]) == 0
    assert (L.O_STOP, 0, 0, 0) in t.meld_options(0)  # the turn continues normally
