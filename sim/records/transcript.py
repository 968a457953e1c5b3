"""Transcripts: one game replayed with the event log on, written as JSON Lines (docs/transcript.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from sim.engine import layout as L
from sim.records.results import check_writable
from sim.rules import Variant
from sim.rules.cards import card_name
from sim.run.runner import EngineError, Job, describe_error, make_job
from sim.run.store import write_text_atomic

METHODS = {L.TAKE_M1: "pair", L.TAKE_M2: "natural_wild", L.TAKE_M3: "layoff", L.TAKE_FREE: "free"}
KNOCKS = {L.KNOCK_DIRECT: "direct", L.KNOCK_INDIRECT: "indirect"}  # a Buraco morto's `knock`
SEQ_AT_HIGH = 1  # a sequence meld event's d: its cards go above the meld (else below it, or they start it)
KINDS = {L.MK_RANK: "rank", L.MK_WILD: "wild", L.MK_BLACK3: "black3", L.MK_SEQ: "sequence"}


def record(job: Job, game: int, n_events: int = 200_000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play game `game` of the run with logging on: the same cards and choices as in `play`."""
    from sim.engine.game import play_batch_nb
    from sim.engine.state import new_state
    from sim.rules import pack

    R = pack(job.variant)
    while True:
        S = new_state(R, n_events)
        S.st[L.S_LOG] = 1
        seat_fns, prm = job.seat_tables()
        out_g = np.zeros((1, L.GF), np.int64)
        play_batch_nb(R, S, job.engine_fns(), seat_fns, prm, job.seed, game, 1, out_g, np.zeros((0, L.HF), np.int64), 0)
        if S.st[L.S_ERR] == L.ERR_LOG_FULL:
            n_events *= 4
            continue
        if S.st[L.S_ERR] != 0:
            raise EngineError(describe_error(job, S.st))
        n = int(S.st[L.S_EV_N])
        return S.ev[:n].copy(), S.evc[: int(S.st[L.S_EVC_N])].copy(), out_g[0]


def events(job: Job, game: int) -> Iterator[dict[str, Any]]:
    v = job.variant
    ev, evc, row = record(job, game)
    whole: dict[tuple[int, int], list[str]] = {}  # every meld's cards so far this hand, by (side, meld)
    yield {"event": "game", "variant": v.name, "seed": job.seed, "game": game, "deal": int(row[L.G_DEAL]),
           "players": v.players, "sides": [list(s) for s in v.sides], "strategies": job.seat_labels(game),
           "rules": v.to_dict()}
    for e in ev:
        t, p, a, b, c, off, cnt, d, x = (int(f) for f in e)
        cards = [int(x) for x in evc[off:off + cnt]]  # card kinds, or points for hand_end/game_end
        names = [card_name(k) for k in cards] if t not in (L.EV_HANDEND, L.EV_GAMEEND) else []
        if t == L.EV_DEAL:
            hs, npile, nstock = a, b, c
            hands = [names[i * hs:(i + 1) * hs] for i in range(v.players)]
            rest = names[v.players * hs:]
            fs = v.table.foot_size
            feet_at = npile + nstock
            packets = v.n_sides if v.table.packet_per_side else v.players  # Buraco: a morto per side
            feet = [rest[feet_at + i * fs:feet_at + (i + 1) * fs] for i in range(packets)] if fs else []
            whole.clear()
            deal: dict[str, Any] = {"event": "deal", "hand": d, "dealer": p, "hands": hands, "feet": feet,
                                    "stock": rest[npile:npile + nstock], "pile": rest[:npile]}
            if v.score.exact_deal_bonus > 0:
                deal["exact_deal"] = bool(x)  # written wherever the rules have the bonus
            yield deal
        elif t == L.EV_RED3:
            yield {"event": "red_three", "player": p, "card": card_name(a),
                   "replacement": card_name(b) if b >= 0 else None}
        elif t == L.EV_DRAW:
            yield {"event": "draw", "player": p, "cards": names}
        elif t == L.EV_TAKE:
            yield {"event": "take_pile", "player": p, "method": METHODS[a], "cards": names}
        elif t == L.EV_FOOT:
            foot: dict[str, Any] = {"event": "foot", "player": p, "cards": names}  # a foot or kitty
            if a in KNOCKS:
                foot["knock"] = KNOCKS[a]  # a Buraco morto, reached directly or indirectly
            yield foot
        elif t == L.EV_RESHUFFLE:
            yield {"event": "reshuffle", "player": p, "stock": names}  # E-RESHUFFLE: the new stock, top first
        elif t == L.EV_TOP:
            yield {"event": "take_top", "player": p, "card": card_name(a)}
        elif t == L.EV_MELD:
            side = v.seat_side(p)
            cards_so_far = whole.setdefault((side, a), [])
            if b:
                cards_so_far.clear()  # a new meld (its index may be reused in a later hand)
            if c == L.MK_SEQ and d != SEQ_AT_HIGH:
                cards_so_far[:0] = names  # a sequence low to high, each wild at its place
            else:
                cards_so_far.extend(names)
            yield {"event": "meld", "player": p, "side": side, "meld": a, "new": bool(b),
                   "kind": KINDS[c], "cards": names, "whole": list(cards_so_far)}
        elif t == L.EV_ASK:
            yield {"event": "ask", "player": p, "partner": a, "answer": bool(b)}
        elif t == L.EV_DISCARD:
            yield {"event": "discard", "player": p, "card": card_name(a)}
        elif t == L.EV_GOOUT:
            yield {"event": "go_out", "player": p, "concealed": bool(a)}
        elif t == L.EV_HANDEND:
            ns = v.n_sides
            comps = cards[: ns * L.NC]
            scores = []
            for s in range(ns):
                item: dict[str, Any] = {"side": s}
                item.update(zip(L.COMPONENTS, comps[s * L.NC:(s + 1) * L.NC], strict=True))
                scores.append(item)
            yield {"event": "hand_end", "hand": p, "reason": L.END_NAMES[a],
                   "out_player": b if b >= 0 else None, "scores": scores, "totals": cards[ns * L.NC:]}
        elif t == L.EV_GAMEEND:
            yield {"event": "game_end", "totals": cards, "winner": p if p >= 0 else None, "capped": bool(a)}
        else:
            raise EngineError(f"unknown event code {t} in the log of game {game}")


def write_transcript(variant: str | Variant, strategies: Sequence[str], seed: int, game: int,
                     out: str | os.PathLike[str], force: bool = False) -> int:
    """Write the transcript atomically; returns the number of events."""
    if game < 0:
        raise ValueError(f"game index must be a non-negative integer, got {game}")
    p = check_writable(out, force, suffix=".jsonl")
    job = make_job(variant, strategies, seed)
    lines = [json.dumps(e, separators=(",", ":")) for e in events(job, game)]
    write_text_atomic(p, "\n".join(lines) + "\n")
    return len(lines)
