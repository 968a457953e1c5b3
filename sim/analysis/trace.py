"""Decision traces: every decision a strategy made, with what it saw, its options and its choice.

For checking that a knob does what it says over real games (tests/strategies/test_heuristic.py) and for asking
"what did my strategy do when ...?" in a notebook. Runs in this process; memory grows with the
number of traced decisions (about 5 KB each in a two-side game), so trace what you need.

Cards show by name (sim/rules/cards.py: `7C`, `TH`, `JK`): the `card`, `pile_top` and `choice_text`
columns of `DecisionTrace.decisions`, `DecisionTrace.hand_of(i)` and `DecisionTrace.options_text(i)`;
`describe_option(kind, a, b, c)` reads one option row (sim/engine/contract.py, class Option) as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.engine import layout as L
from sim.records.transcript import METHODS
from sim.rules import Variant, pack
from sim.rules.cards import RANK_CLASS_NAMES, card_name
from sim.run.runner import EngineError, describe_error, make_job
from strategies import StrategyChoice, StrategySpec

CARD_NAMES = np.array([card_name(k) for k in range(L.NK)], dtype=object)  # by card kind


def _card(k: int) -> str:
    if not 0 <= k < L.NK:
        raise ValueError(f"bad card kind {k}: expected 0..{L.NK - 1}")
    return card_name(k)


def _rank(r: int) -> str:
    if not 0 <= r < L.NR:
        raise ValueError(f"bad rank class {r}: expected 0..{L.NR - 1}")
    return RANK_CLASS_NAMES[r]


# options whose text needs none of their fields
FIXED_TEXT = {L.O_DRAW: "draw from the stock", L.O_END: "end the hand", L.O_STOP: "stop melding",
              L.O_NOASK: "do not ask partner", L.O_YES: "answer yes", L.O_NO: "answer no"}


def _seq_kind(suit: int, pos: int) -> int:
    """The card of sequence place `pos` (1 and 14: the ace) in `suit`."""
    return (0 if pos in (L.POS_ACE_LOW, L.POS_ACE_HIGH) else pos - 1) * L.SUITS + suit


def describe_option(kind: int, a: int, b: int, c: int) -> str:
    """One option row (kind, a, b, c; contract.Option) as short text with card and rank names:
    "draw from the stock", "take the pile (natural_wild with a JK)", "new meld of 8s: 2 naturals + 2",
    "add a wild 2 to meld 3", "discard 7C", ... An unknown kind or a bad field is a ValueError."""
    kind, a, b, c = int(kind), int(a), int(b), int(c)
    name = L.option_name(kind)  # raises on an unknown kind
    if kind in FIXED_TEXT:
        return FIXED_TEXT[kind]
    if kind == L.O_TAKE:
        if a not in METHODS:
            raise ValueError(f"bad take method {a}: expected one of {sorted(METHODS)}")
        return f"take the pile ({METHODS[a]}{f' with a {_rank(b)}' if b >= 0 else ''})"
    if kind == L.O_NEW:
        wild = f" + {_rank(c)}" if c >= 0 else ""
        return f"new meld of {_rank(a)}s: {b} natural{'s' if b != 1 else ''}{wild}"
    if kind == L.O_ADD:
        return f"add {'a natural' if b < 0 else f'a wild {_rank(b)}'} to meld {a}"
    if kind == L.O_BLACK3:
        return f"meld {a} black threes"
    if kind == L.O_ASK:
        return f"ask partner seat {a}"
    if kind == L.O_DISCARD:
        return f"discard {_card(a)}"
    if kind == L.O_TOP:
        return f"take the top discard {_card(a)} alone"
    if kind == L.O_WILD:
        return f"new wild meld: {a} joker{'s' if a != 1 else ''} + {b} two{'s' if b != 1 else ''}"
    if kind == L.O_SEQ:
        if not (0 <= a < L.SUITS and L.POS_ACE_LOW <= b <= L.POS_ACE_HIGH - L.MIN_MELD + 1):
            raise ValueError(f"bad sequence suit {a} or lowest place {b}")
        cards = [_card(_seq_kind(a, q)) for q in range(b, b + L.MIN_MELD)]
        wpos = L.seq_wild_pos(c)
        wild = f" (a {_rank(L.seq_wild_rank(c))} as the {cards[wpos - b]})" if wpos else ""
        return f"new sequence {' '.join(cards)}{wild}"
    if kind == L.O_EXTEND:
        end = "low" if b == L.END_LOW else "high"
        return f"extend sequence {a} at its {end} end with {'a natural' if c < 0 else f'a wild {_rank(c)}'}"
    raise ValueError(f"option kind {kind} ({name}) has no description")


def same_choice(rows_a: np.ndarray, rows_b: np.ndarray, suits: bool = False) -> np.ndarray:
    """Two option rows (n x 4: kind, a, b, c) are the same choice: equal, or discards of one rank class where
    suits never matter (rank melds; `suits`: Buraco's sequences, where they do)."""
    same = (rows_a == rows_b).all(axis=1)
    if suits:
        return same
    disc = (rows_a[:, 0] == L.O_DISCARD) & (rows_b[:, 0] == L.O_DISCARD)
    ranks_a = np.array([L.card_rank(int(k)) for k in rows_a[:, 1]]) if len(rows_a) else np.zeros(0, int)
    ranks_b = np.array([L.card_rank(int(k)) for k in rows_b[:, 1]]) if len(rows_b) else np.zeros(0, int)
    return same | (disc & (ranks_a == ranks_b))


def _names_or_none(kinds: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Card names of `kinds` where `valid`, else None (object array, one lookup)."""
    out = np.full(len(kinds), None, dtype=object)
    out[valid] = CARD_NAMES[kinds[valid]]
    return out


def _describe_rows(rows: np.ndarray) -> np.ndarray:
    """describe_option of every row of `rows` (n x 4), computed once per distinct row."""
    if len(rows) == 0:
        return np.zeros(0, dtype=object)
    uniq, inv = np.unique(rows, axis=0, return_inverse=True)
    texts = np.array([describe_option(*r) for r in uniq.tolist()], dtype=object)
    return texts[inv.reshape(-1)]


@dataclass
class DecisionTrace:
    """decisions: one row per decision: game, seat, strategy, point, dp, n, choice, the chosen option's
    kind, a, b, c (contract.Option), and for reading: `card` (the discarded card's name for a discard
    choice, else None), `pile_top` (the card on top of the pile, None when it is empty) and
    `choice_text` (describe_option of the choice). obs[i]: the observation at decision i
    (layout.OB_*); options_of(i): its option rows; options_text(i): the same as text; hand_of(i):
    the deciding player's hand by card name."""

    decisions: pd.DataFrame
    obs: np.ndarray
    options: np.ndarray
    offsets: np.ndarray
    hands: int = 0  # hands played in the traced games: what a rate per hand divides by

    def options_of(self, i: int) -> np.ndarray:
        o = int(self.offsets[i])
        return self.options[o:o + int(self.decisions["n"].iat[i])]

    def options_text(self, i: int) -> list[str]:
        """describe_option of each legal option at decision i, in option order (`choice` indexes it)."""
        return [describe_option(*row) for row in self.options_of(i).tolist()]

    def hand_of(self, i: int) -> list[str]:
        """The deciding player's hand at decision i as card names sorted by card kind (a card held
        twice is listed twice)."""
        counts = self.obs[i, L.OB_HAND:L.OB_HAND + L.NK]
        return CARD_NAMES[np.repeat(np.arange(L.NK), counts)].tolist()

    def __len__(self) -> int:
        return len(self.decisions)


def trace_decisions(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], games: int,
                    seed: int = 0, traced: Iterable[int] = (0,), points: Iterable[int] | None = None,
                    check: bool = False, chunk: int = 10, first: int = 0) -> DecisionTrace:
    """Play `games` games (from game number `first`, so that workers can share a run) and trace the decisions
    of the strategies at positions `traced` of the list, at the decision points `points` (layout.DP_*; default
    all). Same games as `play`."""
    from sim.engine.game import play_batch_nb
    from sim.engine.state import new_state

    job = make_job(variant, strategies, seed, check)
    R = pack(job.variant)
    seat_fns, prm = job.seat_tables()
    fns = job.engine_fns()
    base = sum(1 << int(q) for q in traced)
    dpm = sum(1 << int(d) for d in points) if points is not None else (1 << 8) - 1
    rows: list[np.ndarray] = []
    opts: list[np.ndarray] = []
    offs: list[np.ndarray] = []
    cap = 400 * chunk
    done = first
    n_opts = 0
    hands = 0
    while done < first + games:
        n = min(chunk, first + games - done)
        while True:
            S = new_state(R, 0, cap)
            S.st[L.S_TRACE_BASE] = base
            S.st[L.S_TRACE_DPM] = dpm
            out_g = np.zeros((n, L.GF), np.int64)
            play_batch_nb(R, S, fns, seat_fns, prm, job.seed, done, n, out_g, np.zeros((0, L.HF), np.int64),
                          1 if check else 0)
            if S.st[L.S_ERR] != 0:
                raise EngineError(describe_error(job, S.st))
            k, ko = int(S.st[L.S_TRACE_N]), int(S.st[L.S_TRACE_ON])
            if k <= S.tr.shape[0] and ko <= S.tro.shape[0]:
                break
            cap = max(k, -(-ko // 8)) + 1  # the buffers were too small: replay the same games
        hands += int(out_g[:, L.G_NHANDS].sum())
        rows.append(S.tr[:k].copy())
        opts.append(S.tro[:ko].copy())
        offs.append(S.tr[:k, L.T_OPT0] + n_opts)
        n_opts += ko
        done += n
    tr = (np.concatenate(rows) if rows else
          np.zeros((0, L.T_OBS + L.trace_obs_len(int(R[L.R_MAXM]), int(R[L.R_NSIDES]))), np.int64))
    games_col = tr[:, L.T_GAME].astype(np.int64)
    labels = np.array([job.seat_labels(g)[s] for g, s in zip(games_col, tr[:, L.T_SEAT], strict=True)],
                      dtype=object)
    df = pd.DataFrame({
        "game": games_col,
        "seat": tr[:, L.T_SEAT],
        "strategy": labels,
        "point": pd.Categorical([L.DP_NAMES[int(d)] for d in tr[:, L.T_DP]], categories=list(L.DP_NAMES.values())),
        "dp": tr[:, L.T_DP],
        "n": tr[:, L.T_N],
        "choice": tr[:, L.T_CHOICE],
        "kind": [L.option_name(int(t)) for t in tr[:, L.T_ROW]],
        "a": tr[:, L.T_ROW + 1],
        "b": tr[:, L.T_ROW + 2],
        "c": tr[:, L.T_ROW + 3],
    })
    chosen = tr[:, L.T_ROW:L.T_ROW + 4]
    discard = chosen[:, 0] == L.O_DISCARD
    top = tr[:, L.T_OBS + L.OB_PILE_TOP]
    # object columns so that a missing card is None (pandas would otherwise make it NaN)
    df["card"] = pd.Series(_names_or_none(chosen[:, 1], discard), dtype=object)
    df["pile_top"] = pd.Series(_names_or_none(top, top >= 0), dtype=object)
    df["choice_text"] = _describe_rows(chosen)
    return DecisionTrace(df, tr[:, L.T_OBS:], np.concatenate(opts) if opts else np.zeros((0, 4), np.int64),
                         np.concatenate(offs) if offs else np.zeros(0, np.int64), hands)
