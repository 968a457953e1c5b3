"""Buraco transcripts replayed by the independent replayer (tests/replay/buraco.py, written from
VARIANTS.md §3.10 and the transcript format alone): every card's flow, every action's legality and
every score component of whole games of both presets, the games picked so that between them they hold
sequences with a wild and with a natural two, pile takes, direct and indirect knocks, final knock-outs,
hands ended by the stock and R-140's late indirect knock. A tampered transcript is flagged."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest

from sim import play
from sim.records.transcript import events
from sim.run.runner import make_job
from tests.replay.buraco import replay

BURACO = ["buraco-2p", "buraco-4p"]
CASES = [(("baseline", "random"), 1, 0), (("random",), 2, 1), (("baseline",), 3, 2),
         (("baseline:bu_knock=indirect", "random"), 4, 3), (("random",), 2, 4)]
R140 = ("buraco-4p", ("random",), 2, 7)  # seat 2 knocks indirectly and the stock ends the hand first


@functools.cache
def transcript(variant: str, strategies: tuple[str, ...], seed: int, game: int) -> tuple[dict[str, Any], ...]:
    return tuple(events(make_job(variant, list(strategies), seed), game))


def evs(case: tuple) -> list[dict[str, Any]]:
    return copy.deepcopy(list(transcript(*case)))


ALL = [(v, *c) for v in BURACO for c in CASES] + [R140]


@pytest.mark.parametrize("case", ALL, ids=[f"{c[0]}-{'+'.join(c[1])}-{c[2]}-{c[3]}" for c in ALL])
def test_transcript_replay_buraco_games_are_clean(case):
    problems = replay(evs(case))
    assert problems == []


def test_transcript_replay_buraco_games_hold_every_kind_of_play():
    seen: set[str] = set()
    for case in ALL:
        for e in transcript(*case):
            if e["event"] == "foot":
                seen.add(f"knock {e['knock']}")
            elif e["event"] == "meld" and e["kind"] == "sequence":
                if any(c == "JK" or c[0] == "2" for c in e["whole"]):
                    seen.add("sequence with a two or a wild")
                seen.add("sequence extended" if not e["new"] else "sequence")
            elif e["event"] == "meld":
                seen.add("set")
            elif e["event"] == "take_pile":
                assert e["method"] == "free"
                seen.add("take")
            elif e["event"] == "hand_end":
                seen.add(f"end {e['reason']}")
    assert seen >= {"knock direct", "knock indirect", "sequence", "sequence extended", "sequence with a two or a wild",
                    "set", "take", "end out", "end stock"}


def test_r140_transcript_a_late_indirect_knock_costs_100_and_its_morto_is_not_counted():
    t = transcript(*R140)
    end = next(e for e in t if e["event"] == "hand_end")
    assert end["reason"] == "stock"
    assert end["scores"][0]["other"] == -100  # seat 2's morto, reached indirectly, never played
    assert replay(list(t)) == []


@pytest.mark.parametrize("variant", BURACO)
def test_transcript_buraco_deal_has_a_morto_per_side_and_the_final_totals_equal_the_results_row(variant):
    case = (variant, ("baseline", "random"), 1, 0)
    t = transcript(*case)
    deal = next(e for e in t if e["event"] == "deal")
    assert [len(f) for f in deal["feet"]] == [11, 11] and len(deal["pile"]) == 1
    assert len(deal["stock"]) == (63 if variant == "buraco-2p" else 41)
    g = play(variant, ["baseline", "random"], games=1, seed=1).games
    assert t[-1]["totals"] == [int(g.score_0[0]), int(g.score_1[0])]


def _first(e: list[dict[str, Any]], kind: str, **where: Any) -> dict[str, Any]:
    return next(x for x in e if x["event"] == kind and all(x.get(k) == v for k, v in where.items()))


def _swap_draw(e):
    d = _first(e, "draw")
    d["cards"] = ["JK" if d["cards"][0] != "JK" else "AS"]


def _sequence_out_of_order(e):
    m = next(x for x in e if x["event"] == "meld" and x["kind"] == "sequence")
    m["whole"] = m["whole"][::-1]


def _knock_flipped(e):
    f = _first(e, "foot")
    f["knock"] = "direct" if f["knock"] == "indirect" else "indirect"


def _score_changed(e):
    h = _first(e, "hand_end")
    h["scores"][0]["melded"] += 5
    h["scores"][0]["total"] += 5


def _discard_not_held(e):
    d = _first(e, "discard")
    d["card"] = "JK" if d["card"] != "JK" else "AS"


@pytest.mark.parametrize("tamper,check", [(_swap_draw, "[stock]"), (_sequence_out_of_order, "[meld]"),
                                          (_knock_flipped, "[knock]"), (_score_changed, "[score]"),
                                          (_discard_not_held, "[cards]")])
def test_transcript_replay_flags_a_tampered_buraco_transcript(tamper, check):
    e = evs(("buraco-2p", ("baseline", "random"), 1, 0))
    assert replay(e) == []
    tamper(e)
    problems = replay(e)
    assert any(p.startswith(check) for p in problems), problems
