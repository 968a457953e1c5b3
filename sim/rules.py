"""Rules as data: a validated, frozen description of a variant, its presets, and the packed array
the kernels read (VARIANTS.md §2 and Appendix A)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .engine import layout as L

MINUS_INF = -(10**9)

# Card values by rank class: A 2 3 4 5 6 7 8 9 T J Q K Joker (§2 row 22; the 3 is the black three).
CLASSIC_VALUES = (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
CLASSIC_MELD_TABLE = ((MINUS_INF, 15), (0, 50), (1500, 90), (3000, 120))


class RulesError(ValueError):
    """A variant description that the engine cannot play; the message names the field."""


@dataclass(frozen=True)
class Variant:
    """One variant's rules. Field names follow the config keys of VARIANTS.md §2 / Appendix A."""

    name: str
    description: str
    seed_doc: str
    players: int
    sides: tuple[tuple[int, ...], ...]
    decks: int = 2
    jokers_per_deck: int = 2
    hand_size: int = 11
    draw_count: int = 1
    upcard: bool = True
    card_values: tuple[int, ...] = CLASSIC_VALUES
    initial_meld_table: tuple[tuple[int, int], ...] = CLASSIC_MELD_TABLE
    min_naturals: int = 2
    max_wilds: int = 3
    canasta_bonus_natural: int = 500
    canasta_bonus_mixed: int = 300
    red3_points: tuple[int, ...] = (0, 100, 200, 300, 800)  # by count held by a side
    red3_negative_if_no_meld: bool = True
    black3_meld_min: int = 3
    black3_meld_max: int = 4
    pile_methods_unfrozen: tuple[str, ...] = ("M1", "M2", "M3")
    pile_methods_frozen: tuple[str, ...] = ("M1",)
    pile_methods_premeld: tuple[str, ...] = ("M1",)
    untakeable_top: tuple[str, ...] = ("wild", "black3")
    going_out_canastas: int = 1
    going_out_bonus: int = 100
    concealed_total: int = 200  # 0 = no concealed bonus (R-13: 200 in total)
    concealed_waives_minimum: bool = True
    concealed_requires_partner_unmelded: bool = False  # R-13 option
    ask_partner: str = "partner"  # none | partner | choose_one_partner
    one_card_pile_rule: bool = True
    end_of_stock: str = "E-CLASSIC"
    last_red3_may_meld: bool = True
    target_score: int = 5000
    target_strict: bool = False
    dealer_rotation: str = "left"
    max_turns_per_hand: int = 1000  # simulator safeguard, counted in the results
    max_hands_per_game: int = 200  # simulator safeguard, counted in the results
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def pack_size(self) -> int:
        return self.decks * (52 + self.jokers_per_deck)

    @property
    def n_sides(self) -> int:
        return len(self.sides)

    def seat_side(self, seat: int) -> int:
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise RulesError(f"seat {seat} belongs to no side")

    def stock_after_deal(self) -> int:
        return self.pack_size - self.players * self.hand_size - (1 if self.upcard else 0)

    def replace(self, **changes: Any) -> Variant:
        """A modified copy, validated (for sensitivity studies and tests)."""
        v = dataclasses.replace(self, **changes)
        validate(v)
        return v

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["sides"] = [list(s) for s in self.sides]
        d["initial_meld_table"] = [[a if a > MINUS_INF else None, b] for a, b in self.initial_meld_table]
        return d


METHODS = {"M1": L.MASK_M1, "M2": L.MASK_M2, "M3": L.MASK_M3}
UNTAKEABLE = {"wild": L.UNTAKE_WILD, "black3": L.UNTAKE_BLACK3}
ASK_MODES = {"none": 0, "partner": 1, "choose_one_partner": 2}
END_OF_STOCK = {"E-CLASSIC": 0}


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise RulesError(msg)


def validate(v: Variant) -> None:
    """Reject descriptions the engine cannot play, naming the field and what is accepted."""
    _need(2 <= v.players <= L.MAXP, f"players={v.players}: accepted 2 to {L.MAXP}")
    seats = sorted(s for side in v.sides for s in side)
    _need(seats == list(range(v.players)), f"sides={v.sides}: every seat 0..{v.players - 1} exactly once")
    _need(1 <= v.n_sides <= L.MAXS, f"sides: accepted 1 to {L.MAXS} sides")
    if any(len(side) > 1 for side in v.sides):
        _need(all(v.seat_side(p) != v.seat_side((p + 1) % v.players) for p in range(v.players)),
              "sides: partners may not sit next to each other")
    _need(1 <= v.decks <= 8 and 0 <= v.jokers_per_deck <= 4, "decks 1-8, jokers_per_deck 0-4")
    _need(v.hand_size >= 1, "hand_size must be at least 1")
    _need(v.draw_count in (1, 2, 3), f"draw_count={v.draw_count}: accepted 1, 2 or 3")
    _need(v.stock_after_deal() > 0, "the deal leaves no stock")
    _need(len(v.card_values) == L.NR, f"card_values: {L.NR} values (A 2 3 ... K Joker)")
    _need(all(x % 5 == 0 for x in v.card_values), "card_values must be multiples of 5")
    t = v.initial_meld_table
    _need(1 <= len(t) <= 8 and t[0][0] == MINUS_INF, "initial_meld_table: 1-8 rows, the first for any score")
    _need(all(t[i][0] < t[i + 1][0] for i in range(len(t) - 1)), "initial_meld_table: ascending thresholds")
    _need(v.min_naturals in (2, 3) and 0 <= v.max_wilds <= 3, "min_naturals 2 or 3; max_wilds 0-3")
    _need(1 <= len(v.red3_points) <= 9, "red3_points: points for 0..8 red threes")
    _need(v.black3_meld_max == 0 or 3 <= v.black3_meld_min <= v.black3_meld_max <= 6,
          "black3 meld: 3 <= min <= max <= 6, or max 0 for never")
    for group in (v.pile_methods_unfrozen, v.pile_methods_frozen, v.pile_methods_premeld):
        _need(all(m in METHODS for m in group), f"pile methods {group}: accepted M1, M2, M3")
    _need(all(u in UNTAKEABLE for u in v.untakeable_top), f"untakeable_top: accepted {sorted(UNTAKEABLE)}")
    _need(v.ask_partner in ASK_MODES, f"ask_partner={v.ask_partner!r}: accepted {sorted(ASK_MODES)}")
    _need(v.end_of_stock in END_OF_STOCK, f"end_of_stock={v.end_of_stock!r}: implemented {sorted(END_OF_STOCK)}")
    _need(v.dealer_rotation in ("left", "right"), "dealer_rotation: left or right")
    _need(v.going_out_canastas >= 0 and v.target_score > 0, "going_out_canastas >= 0, target_score > 0")
    _need(1 <= v.max_turns_per_hand <= 100_000 and 1 <= v.max_hands_per_game <= 10_000,
          "max_turns_per_hand 1-100000, max_hands_per_game 1-10000")
    if v.ask_partner != "none":
        _need(any(len(side) > 1 for side in v.sides), "ask_partner needs partnerships")


def pack(v: Variant) -> np.ndarray:
    """The int64 array the kernels read; every rule value goes through here (no globals)."""
    validate(v)
    R = np.zeros(L.R_LEN, np.int64)
    R[L.R_PLAYERS] = v.players
    R[L.R_NSIDES] = v.n_sides
    R[L.R_HAND] = v.hand_size
    R[L.R_PACK] = v.pack_size
    R[L.R_DECKS] = v.decks
    R[L.R_JOKERS] = v.decks * v.jokers_per_deck
    R[L.R_DRAW] = v.draw_count
    R[L.R_UPCARD] = int(v.upcard)
    R[L.R_GO_CANASTAS] = v.going_out_canastas
    R[L.R_GO_BONUS] = v.going_out_bonus
    R[L.R_CONC_BONUS] = v.concealed_total
    R[L.R_CONC_WAIVE] = int(v.concealed_waives_minimum)
    R[L.R_CONC_PARTNER_UNMELDED] = int(v.concealed_requires_partner_unmelded)
    R[L.R_B3MIN] = v.black3_meld_min
    R[L.R_B3MAX] = v.black3_meld_max
    R[L.R_MIN_NAT] = v.min_naturals
    R[L.R_MAX_WILD] = v.max_wilds
    R[L.R_NAT_BONUS] = v.canasta_bonus_natural
    R[L.R_MIX_BONUS] = v.canasta_bonus_mixed
    R[L.R_ASK] = ASK_MODES[v.ask_partner]
    R[L.R_ONE_CARD] = int(v.one_card_pile_rule)
    R[L.R_EOS] = END_OF_STOCK[v.end_of_stock]
    R[L.R_LAST_R3_MELD] = int(v.last_red3_may_meld)
    R[L.R_TARGET] = v.target_score
    R[L.R_TARGET_STRICT] = int(v.target_strict)
    R[L.R_MAX_TURNS] = v.max_turns_per_hand
    R[L.R_MAX_HANDS] = v.max_hands_per_game
    R[L.R_PM_UNFROZEN] = sum(METHODS[m] for m in set(v.pile_methods_unfrozen))
    R[L.R_PM_FROZEN] = sum(METHODS[m] for m in set(v.pile_methods_frozen))
    R[L.R_PM_PREMELD] = sum(METHODS[m] for m in set(v.pile_methods_premeld))
    R[L.R_UNTAKE] = sum(UNTAKEABLE[u] for u in set(v.untakeable_top))
    R[L.R_RED3_NEG] = int(v.red3_negative_if_no_meld)
    R[L.R_DEALER_DIR] = 1 if v.dealer_rotation == "left" else -1
    # one meld per rank: at most 11 rank melds and a black-three meld per side
    R[L.R_MAXM] = 16
    for r, x in enumerate(v.card_values):
        R[L.R_CARDVAL + r] = x
    pts = list(v.red3_points) + [v.red3_points[-1]] * (9 - len(v.red3_points))
    for k, x in enumerate(pts):
        R[L.R_RED3TAB + k] = x
    R[L.R_MTAB_N] = len(v.initial_meld_table)
    for i, (thr, req) in enumerate(v.initial_meld_table):
        R[L.R_MTAB_THR + i] = thr
        R[L.R_MTAB_REQ + i] = req
    for p in range(v.players):
        R[L.R_SEAT_SIDE + p] = v.seat_side(p)
    return R


def requirement(v: Variant, score: int) -> int:
    """Initial-meld minimum for a side's cumulative score (mirrors the kernel; for docs and tests)."""
    req = v.initial_meld_table[0][1]
    for thr, r in v.initial_meld_table:
        if score >= thr:
            req = r
    return req


PRESETS: dict[str, Variant] = {}


def _add(v: Variant) -> None:
    validate(v)
    PRESETS[v.name] = v


_add(Variant(
    name="classic-4p", seed_doc="002",
    description="Classic Canasta for four in two partnerships (Hoyle, seed 002)",
    players=4, sides=((0, 2), (1, 3)), hand_size=11,
))
_add(Variant(
    name="classic-2p", seed_doc="002",
    description="Classic two-hand: 15 cards, draw 2 discard 1, two canastas to go out (R-17)",
    players=2, sides=((0,), (1,)), hand_size=15, draw_count=2, going_out_canastas=2, ask_partner="none",
))
_add(Variant(
    name="classic-3p", seed_doc="002",
    description="Classic three-hand: 13 cards each, every player for himself (R-18)",
    players=3, sides=((0,), (1,), (2,)), hand_size=13, ask_partner="none",
))
_add(Variant(
    name="classic-6p", seed_doc="002",
    description="Classic six-hand: three decks, two teams of three alternating, 5 red threes 1000, 6 1200 (R-19)",
    players=6, sides=((0, 2, 4), (1, 3, 5)), decks=3, hand_size=11,
    red3_points=(0, 100, 200, 300, 400, 1000, 1200), black3_meld_max=6, ask_partner="choose_one_partner",
))


def family_players(family: str) -> list[int]:
    return sorted(v.players for v in PRESETS.values() if v.name.rsplit("-", 1)[0] == family)


def get_variant(name: str, players: int | None = None) -> Variant:
    """A preset by name (`classic-4p`), or by family and player count (`classic`, players=4)."""
    if players is not None:
        family = name.rsplit("-", 1)[0] if name in PRESETS else name
        counts = family_players(family)
        if not counts:
            raise RulesError(f"unknown variant {name!r}; accepted: {', '.join(PRESETS)}")
        if players not in counts:
            raise RulesError(f"{family} does not support {players} players; accepted: "
                             + ", ".join(str(c) for c in counts))
        name = f"{family}-{players}p"
    if name not in PRESETS:
        families = sorted({v.name.rsplit("-", 1)[0] for v in PRESETS.values()})
        raise RulesError(f"unknown variant {name!r}; accepted: {', '.join(PRESETS)} "
                         f"(or a family, {', '.join(families)}, with --players)")
    return PRESETS[name]
