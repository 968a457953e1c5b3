"""A position written by hand, for `canasta-lab analyse --position FILE` (docs/analysis.md, "A position written by
hand"): what the deciding seat sees, in a few `key: value` lines, checked card by card and turned into the
observation the engine would hand that seat. Everything the seat cannot see is left to the sampler, as at a
traced decision.

The observation is built field by field (the variant's rules decide requirements, canastas and feet), then the
engine deals one state from it (`sample_nb`: any deal matching it will do, since the seat's options depend only
on what it sees), enumerates the legal options there with the engine's own enumerators and observes it
(`observe_nb`), so the options and the observation are the engine's, not this module's reading of the rules.

Only what a person can see and say is asked: the variant, the seat, the decision point (the draw step or the
discard), the hand, every seat's hand size, the melds of each side, the pile, the stock's size, the scores, the
red threes laid out, the feet still face down. What a transcript would add (cards known to be in a hand after a
pile pickup, who of a side laid its melds) is left out: no card is known, and each side's melds were laid by its
first seat on an earlier turn.

`Position` (a decision as its seat met it, from a transcript or from this format) and `AnalysisError` live here,
below sim.analysis.analyse, which evaluates them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.analysis.trace import describe_option
from sim.engine import layout as L
from sim.engine.state import State
from sim.rules import Variant, get_variant, pack, with_rules
from sim.rules.cards import RANK_CLASS_NAMES, RANKS, card_name, parse_card

POINTS = {"draw": L.DP_DRAW, "discard": L.DP_DISCARD}  # the decision points a position may stand at
YES_NO = {"yes": 1, "no": 0}
REQUIRED = ("variant", "seat", "point", "hand", "hands", "pile", "stock")
OPTIONAL = ("scores", "red3", "feet", "frozen", "blocked", "dealer", "turn", "rule")
SAMPLE_SEED = 0  # the one deal the options are enumerated on (any deal matching the observation gives the same)


class AnalysisError(ValueError):
    """Bad input to an analysis (a transcript, a decision number, a position): one line saying what and what is
    accepted."""


@dataclass
class Position:
    """One decision as its seat met it: the observation the seat was handed (layout.OB_*, the strategy's scratch
    zeroed), its legal options (n rows of contract.Option), and where it comes from. `taken` is the option the
    game's player took (None for a position written by hand); `strategy` that player's label."""

    variant: Variant
    obs: np.ndarray
    opts: np.ndarray
    source: str
    taken: int | None = None
    strategy: str | None = None
    decision: int | None = None

    @property
    def n(self) -> int:
        return len(self.opts)

    @property
    def seat(self) -> int:
        return int(self.obs[L.OB_SEAT])

    @property
    def side(self) -> int:
        return int(self.obs[L.OB_SIDE])

    @property
    def point(self) -> str:
        return L.DP_NAMES[int(self.obs[L.OB_DP])]

    @property
    def hand(self) -> list[str]:
        counts = self.obs[L.OB_HAND:L.OB_HAND + L.NK]
        return [card_name(k) for k in np.repeat(np.arange(L.NK), counts)]

    def options_text(self) -> list[str]:
        return [describe_option(*row[:4]) for row in self.opts.tolist()]



class PositionError(AnalysisError):
    """An impossible or unreadable position: one line naming the file, what is wrong and what is accepted."""


def _rank_token(t: str) -> int | None:
    """A rank alone (`K`, `7`, `JK`, `10`): a card of a rank meld whose suit does not matter; None if not one."""
    u = t.strip().upper()
    if u == "JK":
        return L.RK_JK
    if u == "10":
        u = "T"
    return RANKS.index(u) if len(u) == 1 and u in RANKS else None


def _ints(where: str, text: str, count: int, what: str) -> list[int]:
    """`count` whole numbers, or one line saying how many of what were expected."""
    want = "a whole number" if count == 1 else f"{count} whole numbers (one per {what.split()[-1]})"
    try:
        vals = [int(x) for x in text.split()]
    except ValueError:
        raise PositionError(f"{where}: {what}: expected {want}, got {text!r}") from None
    if len(vals) != count:
        raise PositionError(f"{where}: {what}: expected {want}, got {len(vals)}")
    return vals


def _cards(where: str, text: str) -> list[int]:
    try:
        return [parse_card(c) for c in text.split()]
    except ValueError as exc:
        raise PositionError(f"{where}: {exc}") from None


@dataclass(frozen=True)
class _Lines:
    """The `key: value` lines of a position (melds and house rules apart): each key's line number, for the
    errors, and its value, read as what the key holds."""

    name: str  # the file's name, as the errors give it
    fields: dict[str, tuple[int, str]]

    def __contains__(self, key: str) -> bool:
        return key in self.fields

    def at(self, key: str) -> str:
        return f"{self.name} line {self.fields[key][0]}"

    def val(self, key: str) -> str:
        return self.fields[key][1]

    def ints(self, key: str, count: int, what: str) -> list[int]:
        return _ints(self.at(key), self.val(key), count, what)

    def number(self, key: str, what: str) -> int:
        return self.ints(key, 1, what)[0]

    def cards(self, key: str) -> list[int]:
        return _cards(self.at(key), self.val(key))

    def yes_no(self, key: str) -> int:
        """1 or 0 for `yes` or `no`, 0 when the key is not given."""
        if key not in self.fields:
            return 0
        word = self.val(key).lower()
        if word not in YES_NO:
            raise PositionError(f"{self.at(key)}: {key}: expected yes or no, got {word!r}")
        return YES_NO[word]


def parse_position(text: str, name: str = "position") -> Position:
    """A Position from the text format (module docstring; docs/analysis.md). Every impossible position is refused
    with one line (PositionError) before any rollout."""
    lines, melds, rules = _read_lines(text, name)
    try:
        v = get_variant(lines.val("variant"))
        if rules:
            v = with_rules(v, rules)
    except ValueError as exc:
        raise PositionError(f"{lines.at('variant')}: {exc}") from None
    return _build(v, lines, melds)


def _read_lines(text: str, name: str) -> tuple[_Lines, list[tuple[int, int, str]], list[str]]:
    """The position's lines split by key (comments and blank lines dropped): the keyed values, the melds as
    (line, side, cards) and the house rules; an unknown, repeated or missing key is refused."""
    fields: dict[str, tuple[int, str]] = {}
    melds: list[tuple[int, int, str]] = []  # (line, side, cards)
    rules: list[str] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().split())
        where = f"{name} line {no}"
        if not colon:
            raise PositionError(f"{where}: expected `key: value`, got {line!r}")
        if key.startswith("meld"):
            side_text = key[len("meld"):].strip()
            if not side_text.isdigit():
                raise PositionError(f"{where}: a meld line is `meld SIDE: CARDS` (e.g. `meld 0: KS KH KD 2C`)")
            melds.append((no, int(side_text), value.strip()))
            continue
        if key == "rule":
            rules.append(value.strip())
            continue
        if key not in REQUIRED + OPTIONAL:
            raise PositionError(f"{where}: unknown key {key!r}; accepted: {', '.join(REQUIRED + OPTIONAL)}, meld SIDE")
        if key in fields:
            raise PositionError(f"{where}: {key} is given twice (first on line {fields[key][0]})")
        fields[key] = (no, value.strip())
    missing = [k for k in REQUIRED if k not in fields]
    if missing:
        raise PositionError(f"{name}: missing {', '.join(missing)}; a position needs {', '.join(REQUIRED)}")
    return _Lines(name, fields), melds, rules


def _build(v: Variant, lines: _Lines, melds: list[tuple[int, int, str]]) -> Position:
    """The position read key by key, in the order of the format (each value checked against the variant as it
    is read), its melds laid, its cards counted against the pack, then the observation and the engine's
    view of it."""
    from sim.engine.cards import threes_plain_nb

    R = pack(v)
    name = lines.name
    plain = bool(threes_plain_nb(R))  # Buraco: threes are ordinary cards
    seat, dp = _seat_and_point(v, lines)
    hand, hands = _hand(v, lines, seat, dp, plain)
    stock = lines.number("stock", "stock size")
    if stock < 0:
        raise PositionError(f"{lines.at('stock')}: the stock's size cannot be negative")
    pile, size, under_unknown = _pile(v, lines, plain)
    scores, red3 = _scores_and_red3(v, lines, plain)
    feet, packets = _feet(v, lines)
    frozen = lines.yes_no("frozen")
    blocked = lines.yes_no("blocked")
    dealer, turn = _dealer_and_turn(v, lines, seat)
    T, counts = _meld_rows(v, R, name, melds, plain)
    kind_left, rank_left = _count_cards(v, R, name, hand + pile, counts, red3, plain)
    placed = sum(hands) + sum(feet) + int(counts["cards"]) + size + stock + sum(red3)
    if placed != v.pack_size:
        raise PositionError(f"{name}: the sizes do not add up to the pack: hands {sum(hands)} + feet {sum(feet)} + "
                            f"melds {int(counts['cards'])} + pile {size} + stock {stock} + red threes {sum(red3)} "
                            f"= {placed}, the pack of {v.name} holds {v.pack_size}")
    if frozen == 0 and not plain and any(L.card_rank(k) in (L.RK_2, L.RK_JK) or k in (L.RED3_H, L.RED3_D)
                                         for k in pile):
        frozen = 1  # a wild or red three in the pile freezes it (the seat sees it lie crosswise)
    if under_unknown:
        pile = _fill_pile(pile, under_unknown, kind_left, rank_left, plain)
    obs = _observation(v, R, seat, dp, hand, hands, pile, stock, scores, red3, feet, frozen, blocked, dealer, turn,
                       T, packets)
    return _engine_view(v, R, obs, dp, name)


def _seat_and_point(v: Variant, lines: _Lines) -> tuple[int, int]:
    """The deciding seat and its decision point (layout.DP_*)."""
    seat = lines.number("seat", "seat")
    if not 0 <= seat < v.players:
        raise PositionError(f"{lines.at('seat')}: seat {seat} does not exist: {v.name} has seats 0 to {v.players - 1}")
    point = lines.val("point").lower()
    if point not in POINTS:
        raise PositionError(f"{lines.at('point')}: decision point {point!r}; accepted: {', '.join(POINTS)} (the draw "
                            "step, or the discard after melding)")
    return seat, POINTS[point]


def _hand(v: Variant, lines: _Lines, seat: int, dp: int, plain: bool) -> tuple[list[int], list[int]]:
    """The seat's hand, and every seat's hand size (the seat's own the length of its hand)."""
    hand = lines.cards("hand")
    hands = lines.ints("hands", v.players, "hand size of every seat")
    if hands[seat] != len(hand):
        raise PositionError(f"{lines.at('hands')}: seat {seat}'s hand size is {hands[seat]} but its hand lists "
                            f"{len(hand)} cards")
    if any(h < 0 for h in hands):
        raise PositionError(f"{lines.at('hands')}: a hand size cannot be negative")
    if dp == L.DP_DISCARD and not hand:
        raise PositionError(f"{lines.at('hand')}: an empty hand has nothing to discard")
    if not plain and any(k in (L.RED3_H, L.RED3_D) for k in hand):
        raise PositionError(f"{lines.at('hand')}: a red three cannot be in a hand at {v.name}: it is laid out at once")
    return hand, hands


def _pile(v: Variant, lines: _Lines, plain: bool) -> tuple[list[int], int, int]:
    """The pile, `SIZE TOP` or its cards bottom first: the cards shown (bottom first), its size, and how many
    cards under the top are not shown (0 when every card is)."""
    pile_parts = lines.val("pile").split()
    if pile_parts and pile_parts[0].isdigit():
        size = int(pile_parts[0])
        shown = _cards(lines.at("pile"), " ".join(pile_parts[1:]))
        if size == 0 and shown:
            raise PositionError(f"{lines.at('pile')}: an empty pile has no top card (write `pile: 0`)")
        if size > 0 and len(shown) != 1:
            raise PositionError(f"{lines.at('pile')}: write `pile: SIZE TOP` (e.g. `pile: 12 7H`) or the pile's cards "
                                "bottom first")
        pile, under_unknown = shown, size - len(shown)
    else:
        pile = lines.cards("pile")
        size, under_unknown = len(pile), 0
    if pile and not plain and pile[-1] in (L.RED3_H, L.RED3_D):
        raise PositionError(f"{lines.at('pile')}: a red three cannot be the pile's top card at {v.name}: it is laid "
                            "out at once (a red upcard is covered by the next card)")
    return pile, size, under_unknown


def _scores_and_red3(v: Variant, lines: _Lines, plain: bool) -> tuple[list[int], list[int]]:
    """Every side's score and red threes laid out (0 when not given)."""
    nsides = v.n_sides
    scores = lines.ints("scores", nsides, "score of every side") if "scores" in lines else [0] * nsides
    red3 = lines.ints("red3", nsides, "red threes of every side") if "red3" in lines else [0] * nsides
    if plain and any(red3):
        raise PositionError(f"{lines.at('red3')}: {v.name} has no red threes to lay out (threes are ordinary cards)")
    if any(x < 0 for x in red3):
        raise PositionError(f"{lines.at('red3')}: a count of red threes cannot be negative")
    return scores, red3


def _feet(v: Variant, lines: _Lines) -> tuple[list[int], int]:
    """The cards of each foot still face down (every foot, when not given), and the number of feet: one per
    side or one per seat."""
    packets = v.n_sides if v.table.packet_per_side else v.players
    fs = v.table.foot_size
    if "feet" not in lines:
        return [fs] * packets, packets
    feet = lines.ints("feet", packets, "foot still face down of every "
                      + ("side" if v.table.packet_per_side else "seat"))
    if fs == 0 and any(feet):
        raise PositionError(f"{lines.at('feet')}: {v.name} has no feet")
    bad = [f for f in feet if f not in (0, fs)]
    if bad:
        raise PositionError(f"{lines.at('feet')}: a foot is {fs} cards face down, or 0 once picked up; got {bad[0]}")
    return feet, packets


def _dealer_and_turn(v: Variant, lines: _Lines, seat: int) -> tuple[int, int]:
    """The dealer (by default the seat before the deciding one) and the turn of the hand (by default the
    seat's second), which must be one of the seat's turns."""
    n = v.players
    dealer = lines.number("dealer", "dealer seat") if "dealer" in lines else (seat - 1) % n
    if not 0 <= dealer < n:
        raise PositionError(f"{lines.at('dealer')}: seat {dealer} does not exist: {v.name} has seats 0 to {n - 1}")
    first = (dealer + 1) % n
    turn = lines.number("turn", "turn of the hand") if "turn" in lines else (seat - first) % n + 1 + n
    if turn < 1 or (turn - 1) % n != (seat - first) % n:
        raise PositionError(f"{lines.at('turn') if 'turn' in lines else lines.name}: turn {turn} is not seat {seat}'s "
                            f"with dealer {dealer}: seat {seat} plays turns {(seat - first) % n + 1}, "
                            f"{(seat - first) % n + 1 + n}, ...")
    return dealer, turn


def _count_cards(v: Variant, R: np.ndarray, name: str, shown: list[int], counts: dict[str, Any], red3: list[int],
                 plain: bool) -> tuple[np.ndarray, np.ndarray]:
    """The cards shown (hand and pile, the melds, the red threes laid out) counted by kind and by rank class
    against the packs, refused where they are more than the packs hold; what is left of each kind and rank
    class (the pile's unshown cards are drawn from it)."""
    from sim.engine.deal import pack_count_nb

    pack_kind = np.array([pack_count_nb(R, k) for k in range(L.NK)])
    seen_kind = np.zeros(L.NK, np.int64)
    for k in shown:
        seen_kind[k] += 1
    seen_kind += counts["kind"]
    seen_rank = np.zeros(L.NR, np.int64)
    for k in range(L.NK):
        seen_rank[L.card_rank(k)] += seen_kind[k]
    seen_rank += counts["rank"]
    seen_rank[L.RK_3] += sum(red3)
    for k in range(L.NK):
        if seen_kind[k] > pack_kind[k]:
            raise PositionError(f"{name}: more copies of {card_name(k)} than the packs hold: {seen_kind[k]} shown "
                                f"(hand, pile, melds), the packs of {v.name} hold {pack_kind[k]}")
    rank_held = np.array([sum(int(pack_kind[k]) for k in range(L.NK) if L.card_rank(k) == r) for r in range(L.NR)])
    for r in range(L.NR):
        if seen_rank[r] > rank_held[r]:
            what = "threes (red threes laid out included)" if r == L.RK_3 else f"{RANK_CLASS_NAMES[r]}s"
            raise PositionError(f"{name}: more {what} than the packs hold: {seen_rank[r]} shown, the packs of "
                                f"{v.name} hold {rank_held[r]}")
    red_seen = int(seen_kind[L.RED3_H] + seen_kind[L.RED3_D]) + sum(red3)
    if not plain and red_seen > pack_kind[L.RED3_H] + pack_kind[L.RED3_D]:
        raise PositionError(f"{name}: more red threes than the packs hold: {red_seen}")
    return pack_kind - seen_kind, rank_held - seen_rank


def _fill_pile(pile: list[int], count: int, left: np.ndarray, rank_left: np.ndarray, plain: bool) -> list[int]:
    """The cards under a pile given by size and top: drawn once from the cards not shown (by kind, and by rank
    class for the melds written by rank), never a wild or a red three (they would freeze it, which `frozen: yes`
    says), from a fixed seed, so a position is one position."""
    rng = np.random.default_rng(SAMPLE_SEED)
    budget = rank_left.copy()
    pool = []
    for k in range(L.NK):
        r = L.card_rank(k)
        if r in (L.RK_2, L.RK_JK) or (not plain and k in (L.RED3_H, L.RED3_D)):
            continue
        take = int(min(left[k], budget[r]))
        budget[r] -= take
        pool += [k] * take
    if len(pool) < count:
        raise PositionError(f"the pile's {count} cards under its top cannot be drawn: only {len(pool)} cards are left")
    under = [int(x) for x in rng.choice(pool, size=count, replace=False)]
    return under + pile


def _meld_rows(v: Variant, R: np.ndarray, name: str, melds: Iterable[tuple[int, int, str]],
               plain: bool) -> tuple[State, dict[str, Any]]:
    """The meld rows, laid with the engine's own meld table on a scratch state (its canasta counts, values and
    open rows), and how many cards they hold by kind (suited cards), by rank class (ranks alone) and in all."""
    from sim.engine.meldtable import meld_new_nb, meld_put_nb
    from sim.engine.planning import new_state

    T = new_state(R)
    T.st[L.S_TURN] = 0  # every meld was started on an earlier turn
    kind_counts = np.zeros(L.NK, np.int64)
    rank_counts = np.zeros(L.NR, np.int64)
    total = 0
    for no, s, text in melds:
        where = f"{name} line {no}"
        if not 0 <= s < v.n_sides:
            raise PositionError(f"{where}: side {s} does not exist: {v.name} has sides 0 to {v.n_sides - 1}")
        cards = _meld_cards(where, text)
        player = v.sides[s][0]
        if R[L.R_SEQ] != 0 and _is_sequence(cards):
            _lay_sequence(R, T, where, s, player, cards)
        else:
            kind, rank = _set_kind(v, R, T, where, s, cards, plain)
            if T.side[s, L.SD_NM] >= R[L.R_MAXM]:
                raise PositionError(f"{where}: side {s} has more melds than {v.name} allows ({int(R[L.R_MAXM])})")
            m = meld_new_nb(T, np.int64(player), np.int64(s), np.int64(kind), np.int64(rank))
            for r, k in cards:
                meld_put_nb(R, T, np.int64(s), np.int64(m), np.int64(k if k >= 0 else r * L.SUITS))
        for r, k in cards:
            if k >= 0 and not (k == L.JOKER):
                kind_counts[k] += 1
            else:
                rank_counts[r] += 1
        total += len(cards)
    return T, {"kind": kind_counts, "rank": rank_counts, "cards": total}


def _meld_cards(where: str, text: str) -> list[tuple[int, int]]:
    """A meld line's cards as (rank class, kind), the kind -1 for a rank alone (a joker is its own kind)."""
    tokens = text.split()
    if len(tokens) < L.MIN_MELD:
        raise PositionError(f"{where}: a meld holds at least {L.MIN_MELD} cards, got {len(tokens)}")
    cards: list[tuple[int, int]] = []
    for t in tokens:
        r = _rank_token(t)
        if r is not None:
            cards.append((r, -1 if r != L.RK_JK else L.JOKER))
        else:
            k = _cards(where, t)[0]
            cards.append((L.card_rank(k), k))
    return cards


def _set_kind(v: Variant, R: np.ndarray, T: State, where: str, s: int, cards: list[tuple[int, int]],
              plain: bool) -> tuple[int, int]:
    """The kind and rank of a meld of one rank (or of wilds only), refused where the variant does not allow it
    or side `s` already has a meld of that rank."""
    from sim.engine.meldtable import rank_meld_ok_nb

    wild = [r in (L.RK_2, L.RK_JK) for r, _ in cards]
    nat = {r for (r, _), w in zip(cards, wild, strict=True) if not w}
    if not nat:
        if R[L.R_WILD_MELDS] == 0:
            raise PositionError(f"{where}: a meld of wild cards only is not a meld at {v.name}")
        return L.MK_WILD, L.RK_JK
    if len(nat) > 1:
        seq = " or one suit in sequence" if R[L.R_SEQ] else ""
        raise PositionError(f"{where}: a meld holds one rank (and wilds){seq}; got "
                            f"{', '.join(sorted(RANK_CLASS_NAMES[r] for r in nat))}")
    rank = nat.pop()
    if rank == L.RK_3 and not plain:
        raise PositionError(f"{where}: threes are not melded during a hand at {v.name} (black threes only "
                            "as the last cards of a player going out)")
    naturals = sum(1 for w in wild if not w)
    if not rank_meld_ok_nb(R, np.int64(rank), np.int64(naturals), np.int64(len(cards) - naturals)):
        raise PositionError(f"{where}: {naturals} naturals and {len(cards) - naturals} wilds is not a "
                            f"legal meld of {RANK_CLASS_NAMES[rank]}s at {v.name}")
    if T.side[s, L.SD_MOR + rank] >= 0 and R[L.R_MELD_CAP] == 0:
        raise PositionError(f"{where}: side {s} has two melds of {RANK_CLASS_NAMES[rank]}s; a side has one "
                            f"meld of each rank at {v.name}")
    return L.MK_RANK, rank


def _is_sequence(cards: list[tuple[int, int]]) -> bool:
    """Buraco: more than one natural rank among the cards makes a sequence (a set holds one rank)."""
    return len({r for r, _ in cards if r not in (L.RK_2, L.RK_JK)}) > 1


def _lay_sequence(R: np.ndarray, T: State, where: str, s: int, player: int, cards: list[tuple[int, int]]) -> None:
    """A Buraco sequence, its cards low to high with the wild at the place it stands for: the lowest place that
    makes every card the natural of its place but at most one wild (a 2 of the suit at the two's place is
    natural)."""
    from sim.engine.seqtable import is_natural_at_nb, seq_new_nb, seq_put_nb

    if any(k < 0 for _, k in cards):
        raise PositionError(f"{where}: write a sequence's cards with their suits, low to high (e.g. 5H 6H JK 8H)")
    suits = {k % L.SUITS for r, k in cards if r not in (L.RK_2, L.RK_JK)}
    if len(suits) != 1:
        raise PositionError(f"{where}: a sequence is of one suit; got several")
    suit = suits.pop()
    count = len(cards)
    for lo in range(L.POS_ACE_LOW, L.POS_ACE_HIGH - count + 2):
        wild = [not is_natural_at_nb(np.int64(k), np.int64(suit), np.int64(lo + i)) for i, (_, k) in enumerate(cards)]
        if sum(wild) <= 1 and all(r in (L.RK_2, L.RK_JK) for (r, _), w in zip(cards, wild, strict=True) if w):
            m = seq_new_nb(T, np.int64(player), np.int64(s), np.int64(suit), np.int64(lo))
            for i, (_, k) in enumerate(cards):
                seq_put_nb(R, T, np.int64(s), np.int64(m), np.int64(k), np.int64(lo + i))
            return
    raise PositionError(f"{where}: not a legal sequence: one suit, consecutive low to high (ace low or high), at "
                        "most one wild at the place it stands for")


def _observation(v: Variant, R: np.ndarray, seat: int, dp: int, hand: list[int], hands: list[int], pile: list[int],
                 stock: int, scores: list[int], red3: list[int], feet: list[int], frozen: int, blocked: int,
                 dealer: int, turn: int, T: State, packets: int) -> np.ndarray:
    """The observation of `seat` at this position, field by field as observe.py fills it."""
    from sim.engine.opening import requirement_nb

    n, nsides = v.players, v.n_sides
    maxm = int(R[L.R_MAXM])
    o = np.zeros(L.obs_len(maxm), np.int64)
    side = v.seat_side(seat)
    first = (dealer + 1) % n
    o[L.OB_DP], o[L.OB_SEAT], o[L.OB_SIDE], o[L.OB_PLAYERS], o[L.OB_NSIDES] = dp, seat, side, n, nsides
    o[L.OB_TURN], o[L.OB_HANDNO], o[L.OB_STOCK_N], o[L.OB_PILE_N] = turn, 1, stock, len(pile)
    o[L.OB_PILE_TOP] = pile[-1] if pile else -1
    o[L.OB_FROZEN], o[L.OB_BLOCKED], o[L.OB_ANSWER], o[L.OB_ASKER] = frozen, blocked, L.ANSWER_NONE, -1
    o[L.OB_PEND], o[L.OB_TOP_TAKEN], o[L.OB_FOOT_DUE], o[L.OB_DEALER], o[L.OB_MAXM] = -1, -1, L.FOOT_NONE, dealer, maxm
    o[L.OB_HN] = len(hand)
    for q in range(n):
        o[L.OB_HANDS + q] = hands[q]
        o[L.OB_SEAT_TURNS + q] = (turn - 1 - (q - first) % n + n - 1) // n + (1 if q == seat else 0)
    for i in range(packets):
        o[L.OB_FEET + i] = feet[i]
        o[L.OB_PACKETS_TAKEN + i] = 1 if v.table.foot_size > 0 and feet[i] == 0 else 0
    for s in range(nsides):
        nm = int(T.side[s, L.SD_NM])
        req = int(requirement_nb(R, np.int64(scores[s])))
        o[L.OB_SCORE + s], o[L.OB_SREQ + s], o[L.OB_RED3 + s] = scores[s], req, red3[s]
        o[L.OB_SMELDED + s] = 1 if nm > 0 else 0
        o[L.OB_CANASTAS + s], o[L.OB_NM + s] = T.side[s, L.SD_NCAN], nm
        for c in range(L.NCK):
            o[L.OB_CANK + s * L.NCK + c] = T.side[s, L.SD_CAN + c]
        for r in range(L.NR):
            o[L.OB_MOR + s * L.NR + r] = T.side[s, L.SD_MOR + r]
        for m in range(nm):
            base = L.OB_MELDS + (s * maxm + m) * L.NMF
            o[base:base + L.NMF] = T.melds[s, m, :L.NMF]
        if nm > 0:
            o[L.OB_SEAT_LAID + v.sides[s][0]] = 1  # its melds were laid by its first seat, on an earlier turn
    o[L.OB_REQ], o[L.OB_MELDED] = o[L.OB_SREQ + side], o[L.OB_SMELDED + side]
    o[L.OB_LAID] = o[L.OB_SEAT_LAID + seat]
    for k in hand:
        o[L.OB_HAND + k] += 1
        o[L.OB_HR + L.card_rank(k)] += 1
    for k in pile:
        o[L.OB_PILEK + k] += 1
    return o


def _engine_view(v: Variant, R: np.ndarray, obs: np.ndarray, dp: int, name: str) -> Position:
    """One state dealt from the observation, its legal options by the engine's enumerators, and the observation
    the engine gives of it: the Position to evaluate."""
    from sim.engine.buraco import enum_buraco_discard_nb, enum_buraco_draw_nb
    from sim.engine.discard import enum_discard_nb
    from sim.engine.draw import enum_draw_step_nb
    from sim.engine.observe import observe_nb
    from sim.engine.planning import S_ERR, new_state, sample_nb

    S = new_state(R)
    sample_nb(R, obs, S, np.int64(SAMPLE_SEED))
    if S.st[S_ERR] != 0:
        raise PositionError(f"{name}: no deal of the hidden cards matches this position (the engine's sampler "
                            "found none)")
    p = int(obs[L.OB_SEAT])
    seq = R[L.R_SEQ] != 0
    if dp == L.DP_DRAW:
        n = int(enum_buraco_draw_nb(S) if seq else enum_draw_step_nb(R, S, np.int64(p)))
    else:
        n = int(enum_buraco_discard_nb(S, np.int64(p)) if seq else enum_discard_nb(R, S, np.int64(p)))
    if n < 1:
        raise PositionError(f"{name}: no legal option at this {L.DP_NAMES[dp]} (the hand would end here)")
    observe_nb(R, S, np.int64(p), np.int64(dp), np.int64(n))
    seen = S.obs.copy()
    seen[L.OB_RAND] = 0  # a position has no random word: `search` at it samples from seed 0
    return Position(v, seen, S.opts[:n, :L.OPT_FIELDS].copy(), f"position {name}")


def read_position(path: str | os.PathLike[str]) -> Position:
    """A position file (the text format above); refused in one line if it cannot be read or cannot be."""
    p = Path(path)
    if not p.is_file():
        raise PositionError(f"{str(p)!r}: no such position file; give a text file as docs/analysis.md describes")
    try:
        text = p.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"{str(p)!r}: cannot be read: {exc}") from None
    return parse_position(text, p.name)


def position_text(pos: Position) -> str:
    """A decision (a traced one, or one read) written in the text format: what its seat sees, melds by rank (their
    suits are not shown to the seat) and Buraco sequences card by card, the pile card by card. Known cards and who
    laid the melds are not written (the format has no place for them)."""
    from sim.engine.seqtable import seq_card_nb

    o = pos.obs
    v = pos.variant
    dp = int(o[L.OB_DP])
    point = next((k for k, d in POINTS.items() if d == dp), None)
    if point is None:
        raise PositionError(f"a position stands at the draw step or the discard, not at {L.DP_NAMES[dp]}")
    R = pack(v)
    maxm = int(R[L.R_MAXM])
    n, nsides = v.players, v.n_sides
    packets = nsides if v.table.packet_per_side else n
    top = int(o[L.OB_PILE_TOP])
    pile = [card_name(k) for k in range(L.NK) for _ in range(int(o[L.OB_PILEK + k]) - (1 if k == top else 0))]
    if top >= 0:
        pile.append(card_name(top))
    lines = [f"variant: {v.name}"]
    from sim.rules import house_rules

    lines += [f"rule: {r}" for r in house_rules(v)]
    lines += [f"seat: {int(o[L.OB_SEAT])}", f"point: {point}", f"hand: {' '.join(pos.hand)}",
              f"hands: {' '.join(str(int(o[L.OB_HANDS + q])) for q in range(n))}",
              f"pile: {' '.join(pile)}" if pile else "pile: 0",
              f"stock: {int(o[L.OB_STOCK_N])}",
              f"scores: {' '.join(str(int(o[L.OB_SCORE + s])) for s in range(nsides))}",
              f"red3: {' '.join(str(int(o[L.OB_RED3 + s])) for s in range(nsides))}",
              f"frozen: {'yes' if o[L.OB_FROZEN] else 'no'}",
              f"blocked: {'yes' if o[L.OB_BLOCKED] else 'no'}",
              f"dealer: {int(o[L.OB_DEALER])}", f"turn: {int(o[L.OB_TURN])}"]
    if v.table.foot_size:
        lines.append(f"feet: {' '.join(str(int(o[L.OB_FEET + i])) for i in range(packets))}")
    for s in range(nsides):
        for m in range(int(o[L.OB_NM + s])):
            row = o[L.OB_MELDS + (s * maxm + m) * L.NMF:][:L.NMF]
            if row[L.F_KIND] == L.MK_SEQ:
                places = range(int(row[L.F_LO]), int(row[L.F_HI]) + 1)
                cards = [card_name(int(seq_card_nb(row, np.int64(q)))) for q in places]
            else:
                r = L.RK_3 if row[L.F_KIND] == L.MK_BLACK3 else int(row[L.F_RANK])
                cards = ([RANK_CLASS_NAMES[r]] * int(row[L.F_NAT]) if row[L.F_KIND] != L.MK_WILD else []) + \
                    ["2"] * int(row[L.F_TWO]) + ["JK"] * int(row[L.F_JOK])
            lines.append(f"meld {s}: {' '.join(cards)}")
    return "\n".join(lines) + "\n"
