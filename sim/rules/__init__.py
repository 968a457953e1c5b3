"""Rules as data: a validated, frozen description of a variant, its presets, and the packed array
the kernels read (VARIANTS.md §2 and Appendix A)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.engine import layout as L

MINUS_INF = -(10**9)
ONE_DEAL = 0  # target_score 0: one deal is the game, the higher score wins, a tie plays another deal
PPM = L.PPM  # probabilities reach the kernels as whole parts per million

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
    top_card_draw: bool = False  # R-54 (House-001)
    upcard: bool = True
    card_values: tuple[int, ...] = CLASSIC_VALUES
    initial_meld_table: tuple[tuple[int, int], ...] = CLASSIC_MELD_TABLE
    min_naturals: int = 2
    max_wilds: int = 3
    wilds_below_naturals: bool = False  # R-65 (House-001), R-36 (Boat)
    wild_melds: bool = False  # R-35 (Boat): melds of wild cards only, one per side
    canasta_bonus_natural: int = 500
    canasta_bonus_mixed: int = 300
    canasta_bonus_small_wild: int = 0  # R-35 (Boat): a wild canasta with more twos than jokers
    canasta_bonus_big_wild: int = 0  # R-35 (Boat): a wild canasta with more jokers than twos
    wild_tie_big: bool = False  # R-35 option: a wild canasta with as many jokers as twos is big
    red3_points: tuple[int, ...] = (0, 100, 200, 300, 800)  # by count held by a side
    red3_negative_if_no_meld: bool = True
    table_negative_without_canasta: bool = False  # R-34 (Boat)
    black3_in_hand: int = 5  # points a black three left in a hand costs (Boat: 100)
    black3_meld_min: int = 3
    black3_meld_max: int = 4
    black3_close_bonus: int = 0  # R-37 (Boat): going out by melding black threes, in place of the bonus
    pile_methods_unfrozen: tuple[str, ...] = ("M1", "M2", "M3")
    pile_methods_frozen: tuple[str, ...] = ("M1",)
    pile_methods_premeld: tuple[str, ...] = ("M1",)
    untakeable_top: tuple[str, ...] = ("wild", "black3")
    freeze_on_discard: tuple[str, ...] = ("wild",)
    block_on_discard: tuple[str, ...] = ("black3",)  # block_next: bars the next player only
    upcard_cover: tuple[str, ...] = ("wild", "red3")  # covered by another card, the pile frozen (§1.3)
    upcard_blocks: tuple[str, ...] = ("black3",)  # stays as the upcard and bars the first player
    canasta_size: int = 7
    going_out_canastas: int = 1
    going_out_bonus: int = 100
    going_out_discard: bool = False  # R-58 (House-001): the final discard is required
    keep_last_card: bool = False  # R-38 (Boat)
    opening_rounds: int = 0  # R-32 (Boat): each player's first turns are draw and discard only
    concealed_total: int = 200  # 0 = no concealed bonus (R-13: 200 in total)
    concealed_waives_minimum: bool = True
    concealed_requires_partner_unmelded: bool = False  # R-13 option
    ask_partner: str = "partner"  # none | partner | choose_one_partner
    one_card_pile_rule: bool = True
    end_of_stock: str = "E-CLASSIC"
    last_red3_may_meld: bool = True
    empty_stock_take_ends_hand: bool = False  # R-06 read literally (the seed's own words)
    exact_deal_bonus: int = 0  # R-04 (House-001, House-003): 0 = no dealing bonus
    exact_deal_prob: float = 0.0
    target_score: int = 5000
    target_strict: bool = False
    dealer_rotation: str = "left"
    foot_size: int = 0  # Pennies foot, Railroad kitty: dealt face down to each player
    foot_canastas: tuple[str, ...] = ()  # canasta kinds whose first personal completion brings the foot
    unpicked_foot_red3: int = 0  # points for each red three in a foot never picked up (Pennies -100, R-96)
    meld_cap: int = 0  # melds close at this size, a new meld of the rank after; 0: no cap
    sevens_natural_only: bool = False  # sevens meld without wilds, their canasta a kind of its own
    canasta_bonus_wild: int = 0  # Pennies, Railroad: a canasta of seven wild cards
    canasta_bonus_sevens: int = 0  # Pennies, Railroad: a canasta of seven sevens
    wild_canasta_small_big: bool = False  # Boat R-35: a wild canasta is small or big by its twos and jokers
    sevens_discard_ban: bool = False  # R-97 (Pennies)
    going_out_kinds: tuple[str, ...] = ()  # canasta kinds a side needs one of each of to go out
    red3_negative_without_sevens: bool = False  # Pennies: red threes negative without a sevens canasta
    sequences: bool = False  # Buraco (§3.10): sets and same-suit sequences, the whole pile, knocks to the morto
    packet_per_side: bool = False  # Buraco R-136: one face-down packet (morto) per side, not per player
    threes_plain: bool = False  # Buraco: threes are ordinary cards (no red-three area, sets of threes)
    morto_penalty: int = 0  # Buraco: a side's morto never taken, or reached too late indirectly, costs this
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
        packets = self.n_sides if self.packet_per_side else self.players
        return self.pack_size - self.players * self.hand_size - packets * self.foot_size - (1 if self.upcard else 0)

    def replace(self, **changes: Any) -> Variant:
        """A modified copy, validated (for sensitivity studies and tests)."""
        v = dataclasses.replace(self, **changes)
        validate(v)
        return v

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["sides"] = [list(s) for s in self.sides]
        d["initial_meld_table"] = [[a if a > MINUS_INF else None, b] for a, b in self.initial_meld_table]
        if self.target_score == ONE_DEAL:
            d["target_score"] = None  # one deal is the game
        return d


METHODS = {"M1": L.MASK_M1, "M2": L.MASK_M2, "M3": L.MASK_M3}
CARD_CLASSES = {"wild": L.CC_WILD, "black3": L.CC_BLACK3, "red3": L.CC_RED3}
ASK_MODES = {"none": L.ASK_NONE, "partner": L.ASK_PARTNER, "choose_one_partner": L.ASK_CHOOSE}
END_OF_STOCK = {"E-CLASSIC": L.EOS_CLASSIC, "E-RESHUFFLE": L.EOS_RESHUFFLE, "E-VOLUNTARY": L.EOS_VOLUNTARY,
                "E-BURACO": L.EOS_BURACO}
CANASTA_KINDS = {"natural": L.CK_NATURAL, "mixed": L.CK_MIXED, "wild": L.CK_WILD, "sevens": L.CK_SEVENS,
                 "small_wild": L.CK_SMALL_WILD, "big_wild": L.CK_BIG_WILD}
DISCARDABLE = ("wild", "black3")  # a red three never reaches a hand, so never the discard pile


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
    _need(1 <= v.decks <= 2 * L.MAXP and 0 <= v.jokers_per_deck <= 4,
          f"decks 1-{2 * L.MAXP}, jokers_per_deck 0-4")
    _need(v.hand_size >= 1, "hand_size must be at least 1")
    _need(v.draw_count in (1, 2, 3), f"draw_count={v.draw_count}: accepted 1, 2 or 3")
    _need(v.stock_after_deal() > 0, "the deal leaves no stock")
    _need(len(v.card_values) == L.NR, f"card_values: {L.NR} values (A 2 3 ... K Joker)")
    _need(all(x % 5 == 0 for x in v.card_values), "card_values must be multiples of 5")
    t = v.initial_meld_table
    _need(1 <= len(t) <= 8 and t[0][0] == MINUS_INF, "initial_meld_table: 1-8 rows, the first for any score")
    _need(all(t[i][0] < t[i + 1][0] for i in range(len(t) - 1)), "initial_meld_table: ascending thresholds")
    wilds = v.decks * (4 + v.jokers_per_deck)
    _need(v.min_naturals in (2, 3) and 0 <= v.max_wilds <= wilds,
          f"min_naturals 2 or 3; max_wilds 0-{wilds} (the wild cards in the pack: no cap)")
    _need(1 <= len(v.red3_points) <= 9, "red3_points: points for 0..8 red threes")
    b3 = max(6, 2 * v.decks)  # every black three in the pack, and 6 as before
    _need(v.black3_meld_max == 0 or 3 <= v.black3_meld_min <= v.black3_meld_max <= b3,
          f"black3 meld: 3 <= min <= max <= {b3}, or max 0 for never")
    for group in (v.pile_methods_unfrozen, v.pile_methods_frozen, v.pile_methods_premeld):
        _need(all(m in METHODS for m in group), f"pile methods {group}: accepted M1, M2, M3")
    _need(all(u in CARD_CLASSES for u in v.untakeable_top), f"untakeable_top: accepted {', '.join(CARD_CLASSES)}")
    for key in ("freeze_on_discard", "block_on_discard"):
        _need(all(c in DISCARDABLE for c in getattr(v, key)), f"{key}: accepted {', '.join(DISCARDABLE)}")
    for key in ("upcard_cover", "upcard_blocks"):
        _need(all(c in CARD_CLASSES for c in getattr(v, key)), f"{key}: accepted {', '.join(CARD_CLASSES)}")
    _need(not set(v.upcard_cover) & set(v.upcard_blocks), "upcard_cover and upcard_blocks: a card class in one only")
    _need(v.sequences or ("wild" in v.upcard_cover and "red3" in v.upcard_cover),
          "upcard_cover: wild and red3 must be covered (a wild or red three cannot start the pile)")
    _need(3 <= v.canasta_size <= 13, f"canasta_size={v.canasta_size}: accepted 3 to 13")
    _need(v.ask_partner in ASK_MODES, f"ask_partner={v.ask_partner!r}: accepted {sorted(ASK_MODES)}")
    _need(v.end_of_stock in END_OF_STOCK, f"end_of_stock={v.end_of_stock!r}: implemented {sorted(END_OF_STOCK)}")
    _need(v.dealer_rotation in ("left", "right"), "dealer_rotation: left or right")
    _need(v.going_out_canastas >= 0 and v.target_score >= 0,
          "going_out_canastas >= 0, target_score >= 0 (0: one deal is the game, R-141)")
    _need(0.0 <= v.exact_deal_prob <= 1.0, f"exact_deal_prob={v.exact_deal_prob}: accepted 0 to 1")
    _need(0 <= v.opening_rounds <= 10, f"opening_rounds={v.opening_rounds}: accepted 0 to 10")
    for key in ("canasta_bonus_small_wild", "canasta_bonus_big_wild", "black3_close_bonus", "black3_in_hand"):
        x = getattr(v, key)
        _need(x >= 0 and x % 5 == 0, f"{key}={x}: a multiple of 5, at least 0")
    _need(v.black3_close_bonus == 0 or v.black3_meld_max > 0,
          "black3_close_bonus needs a black-three meld (black3_meld_max > 0)")
    _need(not v.wild_melds or v.canasta_size <= wilds, "wild_melds: the pack holds too few wilds for a wild canasta")
    _need(v.exact_deal_bonus >= 0 and v.exact_deal_bonus % 5 == 0,
          f"exact_deal_bonus={v.exact_deal_bonus}: a multiple of 5, at least 0 (0: no dealing bonus)")
    _need(v.exact_deal_bonus > 0 or v.exact_deal_prob == 0.0,
          "exact_deal_prob needs a dealing bonus: set exact_deal_bonus too (House presets have 100)")
    _need(1 <= v.max_turns_per_hand <= 100_000 and 1 <= v.max_hands_per_game <= 10_000,
          "max_turns_per_hand 1-100000, max_hands_per_game 1-10000")
    _validate_feet_and_caps(v)
    _validate_buraco(v)
    if v.ask_partner != "none":
        _need(any(len(side) > 1 for side in v.sides), "ask_partner needs partnerships")
    _need(not v.options, f"options {sorted(v.options)}: no optional rule sets are implemented "
                         "(c3_cutthroat and c6_hoyle_three_pack are not); set the rule fields themselves")


def _validate_feet_and_caps(v: Variant) -> None:
    """Pennies' and Railroad's rules (§3.8, §3.9): feet, capped melds, sevens, the canasta kinds."""
    for key in ("foot_canastas", "going_out_kinds"):
        names = getattr(v, key)
        _need(all(k in CANASTA_KINDS for k in names) and len(set(names)) == len(names),
              f"{key}={','.join(names)}: accepted each of {', '.join(CANASTA_KINDS)} once")
        for k in names:
            _need(k != "sevens" or v.sevens_natural_only, f"{key}: sevens canastas need sevens_natural_only")
            _need(k != "wild" or (v.wild_melds and not v.wild_canasta_small_big),
                  f"{key}: wild canastas need wild_melds (and not wild_canasta_small_big)")
            _need(k not in ("small_wild", "big_wild") or v.wild_canasta_small_big,
                  f"{key}: small and big wild canastas need wild_canasta_small_big")
    _need(0 <= v.foot_size <= 20, f"foot_size={v.foot_size}: accepted 0 to 20")
    _need(v.meld_cap in (0, v.canasta_size), f"meld_cap={v.meld_cap}: 0 (no cap) or canasta_size ({v.canasta_size})")
    if v.foot_size > 0 and not v.sequences:
        _need(v.meld_cap > 0, "foot_size: feet are played with capped melds only (set meld_cap)")
        _need(v.foot_size <= v.hand_size, "foot_size: at most hand_size")
        _need(v.end_of_stock != "E-RESHUFFLE", "foot_size: a foot cannot be played with E-RESHUFFLE")
    _need(v.foot_size > 0 or not v.foot_canastas, "foot_canastas needs a foot (foot_size)")
    if v.meld_cap > 0:
        _need(v.going_out_canastas <= 1, "meld_cap: going_out_canastas 0 or 1 (use going_out_kinds)")
        _need(not v.wild_canasta_small_big, "meld_cap: wild canastas are one kind (wild_canasta_small_big off)")
    _need(not v.going_out_kinds or v.meld_cap > 0, "going_out_kinds is played with capped melds only (meld_cap)")
    _need(v.canasta_bonus_sevens == 0 or v.sevens_natural_only, "canasta_bonus_sevens needs sevens_natural_only")
    _need(not v.sevens_discard_ban or v.sevens_natural_only, "sevens_discard_ban needs sevens_natural_only")
    _need(not v.red3_negative_without_sevens or v.sevens_natural_only,
          "red3_negative_without_sevens needs sevens_natural_only")
    _need(not v.wild_canasta_small_big or v.wild_melds, "wild_canasta_small_big needs wild_melds")
    for key in ("canasta_bonus_wild", "canasta_bonus_sevens"):
        x = getattr(v, key)
        _need(x >= 0 and x % 5 == 0, f"{key}={x}: a multiple of 5, at least 0")
    _need(v.unpicked_foot_red3 % 5 == 0, f"unpicked_foot_red3={v.unpicked_foot_red3}: a multiple of 5")


def _validate_buraco(v: Variant) -> None:
    """Buraco's rules (§3.10) go together: its own turn plays them all, and a Canasta turn none."""
    buraco = (v.sequences, v.packet_per_side, v.threes_plain, v.end_of_stock == "E-BURACO", v.morto_penalty > 0)
    _need(all(buraco) or not any(buraco),
          "sequences, packet_per_side, threes_plain, end_of_stock=E-BURACO and morto_penalty > 0 are Buraco's "
          "rules and go together (the buraco presets)")
    _need(v.morto_penalty >= 0 and v.morto_penalty % 5 == 0, f"morto_penalty={v.morto_penalty}: a multiple of 5")
    if not v.sequences:
        _need(v.target_score > 0, "target_score 0 (one deal) is Buraco's (R-141); give a target above 0")
        return
    _need(v.players in (2, 4) and (v.players == 2 or v.sides == ((0, 2), (1, 3))),
          "sequences: Buraco is played by two, or by four in two partnerships (seats 0+2 and 1+3)")
    _need(v.foot_size > 0 and v.meld_cap == 0 and not v.wild_melds and v.max_wilds == 1 and v.min_naturals == 2,
          "sequences: a morto (foot_size), no meld cap, no wild melds, one wild a meld (max_wilds=1, min_naturals=2)")
    _need(v.draw_count == 1 and v.ask_partner == "none" and v.concealed_total == 0 and not v.top_card_draw
          and v.going_out_canastas >= 1 and not v.going_out_kinds,
          "sequences: one card drawn, no asking, no concealed bonus, no top-card draw, a canasta to go out")
    _need(not (v.pile_methods_unfrozen or v.pile_methods_frozen or v.pile_methods_premeld or v.untakeable_top
               or v.freeze_on_discard or v.block_on_discard or v.upcard_cover or v.upcard_blocks),
          "sequences: the pile is always taken whole (R-135): no pile methods, untakeable, freezing, blocking or "
          "covered cards")


def _kinds(names: tuple[str, ...]) -> int:
    return sum(1 << CANASTA_KINDS[k] for k in set(names))


def _mask(classes: tuple[str, ...]) -> int:
    return sum(CARD_CLASSES[c] for c in set(classes))


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
    R[L.R_WILD_LT_NAT] = int(v.wilds_below_naturals)
    R[L.R_TOP_CARD] = int(v.top_card_draw)
    R[L.R_GO_DISCARD] = int(v.going_out_discard)
    R[L.R_EXACT_PPM] = round(v.exact_deal_prob * PPM)
    R[L.R_EXACT_BONUS] = v.exact_deal_bonus
    R[L.R_OPEN_ROUNDS] = v.opening_rounds
    R[L.R_WILD_MELDS] = int(v.wild_melds)
    R[L.R_WILD_TIE_BIG] = int(v.wild_tie_big)
    R[L.R_TABLE_NEG] = int(v.table_negative_without_canasta)
    R[L.R_B3_HAND] = v.black3_in_hand
    R[L.R_KEEP_LAST] = int(v.keep_last_card)
    R[L.R_B3_CLOSE] = v.black3_close_bonus
    R[L.R_CANBONUS + L.CK_SMALL_WILD] = v.canasta_bonus_small_wild
    R[L.R_CANBONUS + L.CK_BIG_WILD] = v.canasta_bonus_big_wild
    R[L.R_CANBONUS + L.CK_NATURAL] = v.canasta_bonus_natural
    R[L.R_CANBONUS + L.CK_MIXED] = v.canasta_bonus_mixed
    R[L.R_CANBONUS + L.CK_WILD] = v.canasta_bonus_wild
    R[L.R_CANBONUS + L.CK_SEVENS] = v.canasta_bonus_sevens
    R[L.R_FOOT] = v.foot_size
    R[L.R_FOOT_KINDS] = _kinds(v.foot_canastas)
    R[L.R_FOOT_R3] = v.unpicked_foot_red3
    R[L.R_MELD_CAP] = v.meld_cap
    R[L.R_SEVENS] = int(v.sevens_natural_only)
    R[L.R_SEVENS_BAN] = int(v.sevens_discard_ban)
    R[L.R_WILD_SPLIT] = int(v.wild_canasta_small_big)
    R[L.R_GO_KINDS] = _kinds(v.going_out_kinds)
    R[L.R_RED3_NEG_SEVENS] = int(v.red3_negative_without_sevens)
    R[L.R_SEQ] = int(v.sequences)
    R[L.R_PACKET_SIDE] = int(v.packet_per_side)
    R[L.R_THREES_PLAIN] = int(v.threes_plain)
    R[L.R_MORTO_PEN] = v.morto_penalty
    R[L.R_CANASTA] = v.canasta_size
    R[L.R_FREEZE_ON] = _mask(v.freeze_on_discard)
    R[L.R_BLOCK_ON] = _mask(v.block_on_discard)
    R[L.R_UPCARD_COVER] = _mask(v.upcard_cover)
    R[L.R_UPCARD_BLOCK] = _mask(v.upcard_blocks)
    R[L.R_ASK] = ASK_MODES[v.ask_partner]
    R[L.R_ONE_CARD] = int(v.one_card_pile_rule)
    R[L.R_EOS] = END_OF_STOCK[v.end_of_stock]
    R[L.R_LAST_R3_MELD] = int(v.last_red3_may_meld)
    R[L.R_EOS_TAKE_ENDS] = int(v.empty_stock_take_ends_hand)
    R[L.R_TARGET] = v.target_score if v.target_score != ONE_DEAL else MINUS_INF  # one deal: reached at once
    R[L.R_TARGET_STRICT] = int(v.target_strict)
    R[L.R_MAX_TURNS] = v.max_turns_per_hand
    R[L.R_MAX_HANDS] = v.max_hands_per_game
    R[L.R_PM_UNFROZEN] = sum(METHODS[m] for m in set(v.pile_methods_unfrozen))
    R[L.R_PM_FROZEN] = sum(METHODS[m] for m in set(v.pile_methods_frozen))
    R[L.R_PM_PREMELD] = sum(METHODS[m] for m in set(v.pile_methods_premeld))
    R[L.R_UNTAKE] = _mask(v.untakeable_top)
    R[L.R_RED3_NEG] = int(v.red3_negative_if_no_meld)
    R[L.R_DEALER_DIR] = 1 if v.dealer_rotation == "left" else -1
    # one meld per rank: at most 11 rank melds and a black-three meld per side; where melds close
    # as many rows as three-card melds the pack's cards but its threes make, and a black-three meld
    R[L.R_MAXM] = (v.pack_size - 4 * v.decks) // 3 + 2 if v.meld_cap > 0 else 16
    if v.sequences:
        R[L.R_MAXM] = v.pack_size // 3  # any number of sequences per suit: as many as three-card melds
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

# House-001 (seed 001, VARIANTS.md 3.6): eights are worth 5
HOUSE_001_VALUES = (20, 20, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 50)
HOUSE_001_SIDES = {2: ((0,), (1,)), 3: ((0,), (1,), (2,)), 4: ((0, 2), (1, 3))}
HOUSE_001_HANDS = {2: 15, 3: 13, 4: 11}
for _n in (2, 3, 4):
    _add(Variant(
        name=f"house-001-{_n}p", seed_doc="001",
        description=(f"House Canasta (seed 001) for {_n}"
                     + (" in two partnerships" if _n == 4 else ", each for himself")
                     + ": the top discard alone as a third draw, eights 5, a final discard to go out, "
                       "exact-deal bonus, the deal passing right"),
        players=_n, sides=HOUSE_001_SIDES[_n], hand_size=HOUSE_001_HANDS[_n],
        card_values=HOUSE_001_VALUES, wilds_below_naturals=True, top_card_draw=True,
        pile_methods_frozen=("M1", "M2"), pile_methods_premeld=("M1", "M2"),
        going_out_discard=True, concealed_total=0, concealed_waives_minimum=False,
        ask_partner="partner" if _n == 4 else "none",
        exact_deal_bonus=100, exact_deal_prob=0.10, dealer_rotation="right",
    ))
_add(Variant(
    name="house-003-4p", seed_doc="003",
    description="House Canasta (seed 003) for four in two partnerships: 13 cards, draw two or take the pile, "
                "two canastas to go out, exact-deal bonus, game over 5000",
    players=4, sides=((0, 2), (1, 3)), hand_size=13, draw_count=2, going_out_canastas=2,
    pile_methods_premeld=("M1", "M2"),  # frozen: M1 only
    concealed_total=0, concealed_waives_minimum=False,
    exact_deal_bonus=100, exact_deal_prob=0.10, target_strict=True,
))

# Boat Canasta (seed 000, VARIANTS.md 3.5): black threes 0 melded, 100 in hand; no upcard
BOAT_VALUES = (20, 20, 0, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
BOAT_MELD_TABLE = ((MINUS_INF, 15), (0, 50), (2505, 90), (5005, 120), (7505, 150))  # B-1, R-149
for _n in (2, 3, 4):
    _add(Variant(
        name=f"boat-{_n}p", seed_doc="000",
        description=(f"Boat Canasta (seed 000) for {_n}" + (" in two partnerships" if _n == 4 else ", each for himself")
                     + ": 14 cards, no upcard, three opening rounds, wild canastas, natural canastas 600, "
                       "the Treasure pile reshuffled, the game to 10,000"),
        players=_n, sides=HOUSE_001_SIDES[_n], hand_size=14, upcard=False,
        card_values=BOAT_VALUES, black3_in_hand=100,
        initial_meld_table=BOAT_MELD_TABLE,
        wilds_below_naturals=True, max_wilds=12,  # fewer wilds than naturals, no cap
        wild_melds=True, wild_canasta_small_big=True, canasta_bonus_natural=600, canasta_bonus_small_wild=1000,
        canasta_bonus_big_wild=2000,
        table_negative_without_canasta=True, red3_negative_if_no_meld=False,
        black3_meld_min=4, black3_meld_max=4, black3_close_bonus=1000,
        freeze_on_discard=("wild", "black3"), block_on_discard=("wild", "black3"),
        pile_methods_premeld=("M1", "M2"),
        going_out_bonus=200, concealed_total=0, concealed_waives_minimum=False,
        keep_last_card=True, opening_rounds=3, one_card_pile_rule=False,
        ask_partner="partner" if _n == 4 else "none",
        end_of_stock="E-RESHUFFLE", target_score=10000,
    ))


# Pennies from Heaven and Railroad (seed 002, VARIANTS.md 3.8, 3.9): a foot or kitty, melds closed at 7,
# sevens and wild canastas, one canasta of each of four kinds to go out, the game to 20,000
PFH_MELD_TABLE = ((MINUS_INF, 15), (0, 50), (5000, 90), (10000, 120), (15000, 150))
FOUR_KINDS = ("natural", "mixed", "wild", "sevens")
_CAPPED = dict(
    hand_size=13, foot_size=11, draw_count=2, meld_cap=7, sevens_natural_only=True, wild_melds=True,
    canasta_bonus_wild=1000, canasta_bonus_sevens=1500, going_out_kinds=FOUR_KINDS,
    concealed_total=0, concealed_waives_minimum=False, end_of_stock="E-VOLUNTARY",
    initial_meld_table=PFH_MELD_TABLE, target_score=20000, red3_negative_if_no_meld=False,
)
_add(Variant(
    name="pennies-6p", seed_doc="002",
    description="Pennies from Heaven: six in two teams of three, four packs, an 11-card foot each, melds closed "
                "at seven, sevens and wild canastas, one canasta of each of four kinds to go out, the game to 20,000",
    players=6, sides=((0, 2, 4), (1, 3, 5)), decks=4,
    foot_canastas=FOUR_KINDS, unpicked_foot_red3=-100,
    untakeable_top=("wild", "black3", "red3"), pile_methods_unfrozen=("M1", "M3"),  # any three, no M2
    red3_points=(0, 100, 200, 300, 400, 500, 600, 700, 1000), red3_negative_without_sevens=True,
    black3_meld_max=7, sevens_discard_ban=True, ask_partner="choose_one_partner",
    **_CAPPED,
))


def railroad(players: int) -> Variant:
    """Railroad Canasta for `players` (2 to 8), each for himself, two decks and four jokers a player
    (R-110, R-111): the presets and `railroad --players N` are this."""
    return Variant(
        name=f"railroad-{players}p", seed_doc="002",
        description=(f"Railroad Canasta for {players}, each for himself: two decks a player, an 11-card kitty, "
                     "melds closed at seven, red, black, wild and seven canastas, a final discard to go out, "
                     "black threes without limit, the game to 20,000"),
        players=players, sides=tuple((p,) for p in range(players)), decks=2 * players,
        foot_canastas=("natural", "wild", "sevens"), unpicked_foot_red3=0,
        red3_points=(0, 100, 200, 300, 400, 500, 600, 700, 800),  # 100 each, never negative
        black3_meld_max=4 * players, going_out_discard=True, ask_partner="none",
        **_CAPPED,
    )


RAILROAD_PRESETS = (2, 3, 4, 6)
RAILROAD_PLAYERS = range(2, L.MAXP + 1)
for _n in RAILROAD_PRESETS:
    _add(railroad(_n))
FAMILIES = {"railroad": (railroad, RAILROAD_PLAYERS)}

# Buraco (seed 004, VARIANTS.md 3.10): 11 cards and two 11-card mortos, sets and sequences, one wild a meld,
# aces 15, clean canastas 200 and dirty 100, E-BURACO, one deal
BURACO_VALUES = (15, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
for _n in (2, 4):
    _add(Variant(
        name=f"buraco-{_n}p", seed_doc="004",
        description=(f"Buraco for {_n}" + (" in two partnerships" if _n == 4 else ", each for himself")
                     + ": sets and same-suit sequences with one wild each, two 11-card mortos reached by knocking, "
                       "clean canastas 200 and dirty 100, one deal"),
        players=_n, sides=((0, 2), (1, 3)) if _n == 4 else ((0,), (1,)), hand_size=11, foot_size=11,
        card_values=BURACO_VALUES, initial_meld_table=((MINUS_INF, 0),),  # no minimum
        max_wilds=1, canasta_bonus_natural=200, canasta_bonus_mixed=100,  # R-131, §3.10 scoring 2
        red3_points=(0,), red3_negative_if_no_meld=False, untakeable_top=(), freeze_on_discard=(),
        block_on_discard=(), upcard_cover=(), upcard_blocks=(), black3_meld_max=0,  # no conditions
        concealed_total=0, concealed_waives_minimum=False, ask_partner="none", one_card_pile_rule=False,
        pile_methods_unfrozen=(), pile_methods_frozen=(), pile_methods_premeld=(),
        end_of_stock="E-BURACO", target_score=ONE_DEAL,
        sequences=True, packet_per_side=True, threes_plain=True, morto_penalty=100,
    ))  # families playable at any of these counts


def exact_deal_cards(v: Variant) -> int:
    """Cards the dealer must grab for the exact-deal bonus: every hand and the upcard (R-66, §1.12)."""
    return v.players * v.hand_size + (1 if v.upcard else 0)


def family_players(family: str) -> list[int]:
    if family in FAMILIES:
        return list(FAMILIES[family][1])
    return sorted(v.players for v in PRESETS.values() if v.name.rsplit("-", 1)[0] == family)


def base_variant(name: str) -> Variant | None:
    """The preset of that name, or a family's variant for another player count (`railroad-5p`)."""
    if name in PRESETS:
        return PRESETS[name]
    family, _, count = name.rpartition("-")
    if family in FAMILIES and count.endswith("p") and count[:-1].isdigit():
        n = int(count[:-1])
        build, counts = FAMILIES[family]
        if n in counts:
            return build(n)
    return None


def get_variant(name: str, players: int | None = None) -> Variant:
    """A preset by name (`classic-4p`), or by family and player count (`classic`, players=4)."""
    if players is not None and name in PRESETS and PRESETS[name].players != players:
        family = name.rsplit("-", 1)[0]
        raise RulesError(f"{name} is the {PRESETS[name].players}-player preset and --players {players} contradicts "
                         f"it; give {family} --players {players}, or {name} without --players")
    if players is not None:
        family = name.rsplit("-", 1)[0] if name in PRESETS else name
        counts = family_players(family)
        if not counts:
            raise RulesError(f"unknown variant {name!r}; accepted: {', '.join(PRESETS)}")
        if players not in counts:
            raise RulesError(f"{family} does not support {players} players; accepted: "
                             + ", ".join(str(c) for c in counts))
        name = f"{family}-{players}p"
    base = base_variant(name)
    if base is not None:
        return base
    if name not in PRESETS:
        families = sorted({v.name.rsplit("-", 1)[0] for v in PRESETS.values()})
        raise RulesError(f"unknown variant {name!r}; accepted: {', '.join(PRESETS)} "
                         f"(or a family, {', '.join(families)}, with --players)")
    return PRESETS[name]


# What each rule means, for `canasta-lab rules` and docs/presets.md (R-nn: the project's readings,
# docs/rules.md). Every field of Variant is here; a test checks that none is missing.
RULE_DOCS: dict[str, str] = {
    "name": "preset name",
    "description": "one-line description",
    "seed_doc": "source rules text the preset follows (002: Hoyle-based Classic Canasta)",
    "players": "players at the table",
    "sides": "seats of each side (a side is a partnership or a lone player); partners never sit side by side",
    "decks": "52-card decks in the pack",
    "jokers_per_deck": "jokers added per deck",
    "hand_size": "cards dealt to each player",
    "draw_count": "cards drawn from the stock in the draw step (a last single card is a complete draw, R-08)",
    "top_card_draw": "the top discard alone may be taken into the hand instead of drawing: not a wild or black "
                     "three, frozen pile or not, never at an empty stock, and not discarded again that turn "
                     "(House-001 R-54)",
    "upcard": "a card is turned up to start the pile; a wild or red three is covered and freezes it (R-21)",
    "card_values": "points per card: A 2 3 4 5 6 7 8 9 T J Q K joker (the 3 is the black three; red threes "
                   "score separately)",
    "initial_meld_table": "initial-meld minimum by the side's score at the start of the hand: "
                          "(from score, minimum), the first row for any score (R-10)",
    "min_naturals": "fewest natural cards in a rank meld (R-14)",
    "max_wilds": "most wild cards in a rank meld (R-14)",
    "wilds_below_naturals": "a rank meld always holds fewer wild cards than natural ones (House-001 R-65, Boat R-36)",
    "wild_melds": "melds of wild cards only (jokers and twos, three or more, never a natural), one per side "
                  "(Boat R-35)",
    "canasta_bonus_natural": "bonus for a canasta without wilds",
    "canasta_bonus_mixed": "bonus for a canasta with at least one wild",
    "canasta_bonus_small_wild": "bonus for a wild canasta with more twos than jokers (Boat R-35)",
    "canasta_bonus_big_wild": "bonus for a wild canasta with more jokers than twos (Boat R-35)",
    "wild_tie_big": "a wild canasta with as many jokers as twos counts as big rather than small (R-35 option)",
    "red3_points": "points for 0, 1, 2, ... red threes laid out by a side (the last value holds for more, up to 8; "
                   "each one past 8 adds the table's last step, R-19, R-115)",
    "red3_negative_if_no_meld": "red threes count against a side that has melded nothing (R-12)",
    "table_negative_without_canasta": "a side without a canasta scores its melded cards and red threes negative "
                                      "(Boat R-34)",
    "black3_in_hand": "points each black three left in a hand costs (its melded value is in card_values)",
    "black3_meld_min": "fewest black threes in a going-out meld (R-15)",
    "black3_meld_max": "most black threes in a going-out meld; 0: never (R-15)",
    "black3_close_bonus": "where not 0, black threes are melded only as the last cards of the hand, and going out "
                          "so earns this in place of the going-out bonus (Boat R-37)",
    "pile_methods_unfrozen": "ways to take an unfrozen pile once the side has melded: M1 natural pair, "
                             "M2 natural and wild, M3 lay-off on the side's meld",
    "pile_methods_frozen": "ways to take a frozen pile",
    "pile_methods_premeld": "ways to take the pile before the side's initial meld (the minimum still applies)",
    "untakeable_top": "top cards that can never be taken (a black three also bars the next player only)",
    "freeze_on_discard": "cards whose discard freezes the pile until it is taken",
    "block_on_discard": "cards whose discard bars the next player (only) from taking the pile (block_next)",
    "upcard_cover": "upcards that are covered by the next stock card, freezing the pile",
    "upcard_blocks": "upcards that stay and bar the first player from the pile, without freezing it (R-21)",
    "canasta_size": "cards that make a canasta",
    "going_out_canastas": "canastas a side needs before one of its players may go out",
    "going_out_bonus": "bonus for going out",
    "going_out_discard": "going out needs a final discard: the last card may never be melded (House-001 R-58)",
    "keep_last_card": "a player left with one card who may not go out keeps it and does not discard (Boat R-38)",
    "opening_rounds": "each player's first turns of a hand: draw and discard only, no melding, taking or going out "
                      "(Boat R-32)",
    "concealed_total": "bonus in total for going out concealed; 0: none (R-13)",
    "concealed_waives_minimum": "a concealed going out after a stock draw needs no initial-meld minimum (R-13)",
    "concealed_requires_partner_unmelded": "concealed only while the partners have laid nothing either (R-13)",
    "ask_partner": "'may I go out?': none, partner, or choose_one_partner (binding either way, R-07)",
    "one_card_pile_rule": "a player holding one card may not take a pile of one card (R-20)",
    "end_of_stock": "what happens when the stock runs out (E-CLASSIC: R-05, R-06; E-RESHUFFLE: the pile, shuffled, "
                    "becomes the stock, and the hand ends when both are empty, R-39; E-VOLUNTARY: take the pile "
                    "by any legal method or end the hand, R-99)",
    "last_red3_may_meld": "a red three drawn as the last stock card still lets the player meld (R-05)",
    "empty_stock_take_ends_hand": "R-06 read literally: a pile taken once the stock is empty ends the hand as soon as "
                                  "it is taken (no more melds, no discard, no going out)",
    "exact_deal_bonus": "bonus to the dealer's side when the dealer grabbed exactly the cards needed; 0: none (R-04)",
    "exact_deal_prob": "probability of that exact deal, an independent draw each hand (a modelling assumption, R-04)",
    "target_score": "the game ends when a side reaches this score (a tie for the lead plays on, R-03); 0: one deal "
                    "is the game, the higher score wins and a tie plays another deal (Buraco R-141, R-147)",
    "target_strict": "the target must be exceeded rather than reached",
    "dealer_rotation": "direction in which the deal passes",
    "foot_size": "cards dealt face down to each player as a foot (Pennies) or kitty (Railroad), picked up after the "
                 "discard on the turn the player first completes a canasta of a kind in foot_canastas (R-95, R-114); "
                 "0: none",
    "foot_canastas": "canasta kinds whose first completion by a player (placing its seventh card) brings that "
                     "player's foot (Pennies: any; Railroad: red, wild, seven, R-114)",
    "unpicked_foot_red3": "points for each red three in a foot never picked up; its other cards count at their values "
                          "against the side (Pennies -100, R-96; Railroad 0, R-115)",
    "meld_cap": "melds close at this many cards, and a new meld of the rank may start only then; 0: no cap (R-92)",
    "sevens_natural_only": "sevens are melded without wilds, and seven sevens make a canasta kind of their own "
                           "(R-97, R-118)",
    "canasta_bonus_wild": "bonus for a canasta of seven wild cards (Pennies, Railroad)",
    "canasta_bonus_sevens": "bonus for a canasta of seven sevens (Pennies, Railroad)",
    "wild_canasta_small_big": "a wild canasta is small or big by its twos and jokers, with the bonuses above "
                              "(Boat R-35); otherwise it is one kind (canasta_bonus_wild)",
    "sevens_discard_ban": "no seven may be discarded until every side has a sevens canasta, and never as the "
                          "going-out discard; a hand of sevens only that may discard none ends the hand (R-97)",
    "going_out_kinds": "canasta kinds a side needs one of each of before one of its players may go out (natural, "
                       "mixed, wild, sevens: Pennies and Railroad)",
    "red3_negative_without_sevens": "red threes count against a side without a sevens canasta (Pennies)",
    "sequences": "Buraco's game (seed 004): sets (one per rank, A or 3 to K, at most one wild) and same-suit "
                 "sequences (ace low or high, at most one wild, a two in its own place natural), the whole pile "
                 "taken freely, the morto reached by a direct or indirect knock, the final knock-out with a canasta "
                 "(R-131 to R-140)",
    "packet_per_side": "one face-down packet per side rather than per player: Buraco's mortos, a team's taken by "
                       "whichever partner knocks first (R-136)",
    "threes_plain": "threes are ordinary cards: no red threes laid out, sets of threes allowed (Buraco)",
    "morto_penalty": "points a side loses for a morto it never took, or took by an indirect knock when the hand "
                     "ended before that player's next turn (then the morto's cards are not counted, R-140); "
                     "0: none",
    "max_turns_per_hand": "simulator safeguard: a hand ends after this many turns (reason cap, counted, R-150)",
    "max_hands_per_game": "simulator safeguard: a game stops after this many hands (counted, R-150)",
    "options": "optional rule sets; none is implemented",
}

IDENTITY_FIELDS = ("name", "description", "seed_doc")  # describe the preset; the engine does not read them
FIXED_FIELDS = ("players", "sides")  # chosen by the preset (or --players), not by --rule


def _unmask(mask: int, names: dict[str, int], order: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in order if mask & names[n])


def engine_view(v: Variant) -> dict[str, Any]:
    """The rules as the kernels read them: every field decoded back from the packed array, so what
    `canasta-lab rules` prints is the engine's own data, not a copy of the dataclass."""
    R = pack(v)
    ntab = int(R[L.R_MTAB_N])
    nsides = int(R[L.R_NSIDES])
    players = int(R[L.R_PLAYERS])
    seat_side = [int(R[L.R_SEAT_SIDE + p]) for p in range(players)]
    red3 = [int(R[L.R_RED3TAB + k]) for k in range(9)]
    while len(red3) > 1 and red3[-1] == red3[-2]:  # the packed table repeats its last value to 8 threes
        red3.pop()
    inv = {b: a for a, b in END_OF_STOCK.items()}
    ask = {b: a for a, b in ASK_MODES.items()}
    return {
        "players": players,
        "sides": tuple(tuple(p for p in range(players) if seat_side[p] == s) for s in range(nsides)),
        "decks": int(R[L.R_DECKS]),
        "jokers_per_deck": int(R[L.R_JOKERS]) // int(R[L.R_DECKS]),
        "hand_size": int(R[L.R_HAND]),
        "draw_count": int(R[L.R_DRAW]),
        "top_card_draw": bool(R[L.R_TOP_CARD]),
        "upcard": bool(R[L.R_UPCARD]),
        "card_values": tuple(int(R[L.R_CARDVAL + r]) for r in range(L.NR)),
        "initial_meld_table": tuple((int(R[L.R_MTAB_THR + i]), int(R[L.R_MTAB_REQ + i])) for i in range(ntab)),
        "min_naturals": int(R[L.R_MIN_NAT]),
        "max_wilds": int(R[L.R_MAX_WILD]),
        "wilds_below_naturals": bool(R[L.R_WILD_LT_NAT]),
        "wild_melds": bool(R[L.R_WILD_MELDS]),
        "canasta_bonus_natural": int(R[L.R_CANBONUS + L.CK_NATURAL]),
        "canasta_bonus_mixed": int(R[L.R_CANBONUS + L.CK_MIXED]),
        "canasta_bonus_small_wild": int(R[L.R_CANBONUS + L.CK_SMALL_WILD]),
        "canasta_bonus_big_wild": int(R[L.R_CANBONUS + L.CK_BIG_WILD]),
        "wild_tie_big": bool(R[L.R_WILD_TIE_BIG]),
        "red3_points": tuple(red3),
        "red3_negative_if_no_meld": bool(R[L.R_RED3_NEG]),
        "table_negative_without_canasta": bool(R[L.R_TABLE_NEG]),
        "black3_in_hand": int(R[L.R_B3_HAND]),
        "black3_meld_min": int(R[L.R_B3MIN]),
        "black3_meld_max": int(R[L.R_B3MAX]),
        "black3_close_bonus": int(R[L.R_B3_CLOSE]),
        "pile_methods_unfrozen": _unmask(int(R[L.R_PM_UNFROZEN]), METHODS, ("M1", "M2", "M3")),
        "pile_methods_frozen": _unmask(int(R[L.R_PM_FROZEN]), METHODS, ("M1", "M2", "M3")),
        "pile_methods_premeld": _unmask(int(R[L.R_PM_PREMELD]), METHODS, ("M1", "M2", "M3")),
        "untakeable_top": _unmask(int(R[L.R_UNTAKE]), CARD_CLASSES, tuple(CARD_CLASSES)),
        "freeze_on_discard": _unmask(int(R[L.R_FREEZE_ON]), CARD_CLASSES, tuple(CARD_CLASSES)),
        "block_on_discard": _unmask(int(R[L.R_BLOCK_ON]), CARD_CLASSES, tuple(CARD_CLASSES)),
        "upcard_cover": _unmask(int(R[L.R_UPCARD_COVER]), CARD_CLASSES, tuple(CARD_CLASSES)),
        "upcard_blocks": _unmask(int(R[L.R_UPCARD_BLOCK]), CARD_CLASSES, tuple(CARD_CLASSES)),
        "canasta_size": int(R[L.R_CANASTA]),
        "going_out_canastas": int(R[L.R_GO_CANASTAS]),
        "going_out_bonus": int(R[L.R_GO_BONUS]),
        "going_out_discard": bool(R[L.R_GO_DISCARD]),
        "keep_last_card": bool(R[L.R_KEEP_LAST]),
        "opening_rounds": int(R[L.R_OPEN_ROUNDS]),
        "concealed_total": int(R[L.R_CONC_BONUS]),
        "concealed_waives_minimum": bool(R[L.R_CONC_WAIVE]),
        "concealed_requires_partner_unmelded": bool(R[L.R_CONC_PARTNER_UNMELDED]),
        "ask_partner": ask[int(R[L.R_ASK])],
        "one_card_pile_rule": bool(R[L.R_ONE_CARD]),
        "end_of_stock": inv[int(R[L.R_EOS])],
        "last_red3_may_meld": bool(R[L.R_LAST_R3_MELD]),
        "empty_stock_take_ends_hand": bool(R[L.R_EOS_TAKE_ENDS]),
        "exact_deal_bonus": int(R[L.R_EXACT_BONUS]),
        "exact_deal_prob": int(R[L.R_EXACT_PPM]) / PPM,
        "target_score": int(R[L.R_TARGET]) if R[L.R_TARGET] != MINUS_INF else ONE_DEAL,
        "target_strict": bool(R[L.R_TARGET_STRICT]),
        "dealer_rotation": "left" if R[L.R_DEALER_DIR] > 0 else "right",
        "foot_size": int(R[L.R_FOOT]),
        "foot_canastas": _unmask(int(R[L.R_FOOT_KINDS]), {k: 1 << c for k, c in CANASTA_KINDS.items()},
                                 tuple(CANASTA_KINDS)),
        "unpicked_foot_red3": int(R[L.R_FOOT_R3]),
        "meld_cap": int(R[L.R_MELD_CAP]),
        "sevens_natural_only": bool(R[L.R_SEVENS]),
        "canasta_bonus_wild": int(R[L.R_CANBONUS + L.CK_WILD]),
        "canasta_bonus_sevens": int(R[L.R_CANBONUS + L.CK_SEVENS]),
        "wild_canasta_small_big": bool(R[L.R_WILD_SPLIT]),
        "sevens_discard_ban": bool(R[L.R_SEVENS_BAN]),
        "going_out_kinds": _unmask(int(R[L.R_GO_KINDS]), {k: 1 << c for k, c in CANASTA_KINDS.items()},
                                   tuple(CANASTA_KINDS)),
        "red3_negative_without_sevens": bool(R[L.R_RED3_NEG_SEVENS]),
        "sequences": bool(R[L.R_SEQ]),
        "packet_per_side": bool(R[L.R_PACKET_SIDE]),
        "threes_plain": bool(R[L.R_THREES_PLAIN]),
        "morto_penalty": int(R[L.R_MORTO_PEN]),
        "max_turns_per_hand": int(R[L.R_MAX_TURNS]),
        "max_hands_per_game": int(R[L.R_MAX_HANDS]),
        "options": {},
    }


def show_value(key: str, value: Any) -> str:
    """A rule value as `--rule KEY=VALUE` takes it."""
    if key == "initial_meld_table":
        return ",".join(f"{'-inf' if a <= MINUS_INF else a}:{b}" for a, b in value)
    if key == "sides":
        return " ".join("+".join(str(p) for p in side) for side in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(x) for x in value)
    if isinstance(value, dict):
        return ",".join(f"{k}={x}" for k, x in value.items()) or "none"
    return str(value)


def _parse_bool(key: str, text: str) -> bool:
    t = text.strip().lower()
    if t in ("true", "yes", "1", "on"):
        return True
    if t in ("false", "no", "0", "off"):
        return False
    raise RulesError(f"--rule {key}={text!r}: give true or false")


def _parse_int(key: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RulesError(f"--rule {key}={text!r}: give a whole number") from None


def _parse_float(key: str, text: str) -> float:
    try:
        x = float(text.strip())
    except ValueError:
        raise RulesError(f"--rule {key}={text!r}: give a number, e.g. 0.2") from None
    if x != x or x in (float("inf"), float("-inf")):
        raise RulesError(f"--rule {key}={text!r}: give a finite number")
    return x


def parse_rule(v: Variant, item: str) -> tuple[str, Any]:
    """One `KEY=VALUE` house rule, typed by the field it sets (validated with the others later)."""
    key, eq, text = item.partition("=")
    key = key.strip()
    fields = {f.name: f for f in dataclasses.fields(Variant)}
    settable = [n for n in fields if n not in IDENTITY_FIELDS + FIXED_FIELDS + ("options",)]
    if not eq or not text.strip():
        raise RulesError(f"--rule {item!r}: write KEY=VALUE, e.g. --rule target_score=3000")
    if key not in fields:
        raise RulesError(f"--rule {key}: no such rule; accepted: {', '.join(settable)}")
    if key not in settable:
        why = ("choose the preset or --players" if key in FIXED_FIELDS else "not a rule the engine plays")
        raise RulesError(f"--rule {key}: cannot be set ({why}); accepted: {', '.join(settable)}")
    current = getattr(v, key)
    if isinstance(current, bool):
        return key, _parse_bool(key, text)
    if isinstance(current, int):
        return key, _parse_int(key, text)
    if isinstance(current, float):
        return key, _parse_float(key, text)
    if key == "initial_meld_table":
        rows = []
        for part in text.split(","):
            a, colon, b = part.partition(":")
            if not colon:
                raise RulesError(f"--rule {key}={text!r}: give FROM:MINIMUM pairs, e.g. -inf:15,0:50,1500:90,3000:120")
            rows.append((MINUS_INF if a.strip() == "-inf" else _parse_int(key, a), _parse_int(key, b)))
        return key, tuple(rows)
    if isinstance(current, tuple) and not current:  # an empty list: typed by the field's default
        default = fields[key].default
        current = default if isinstance(default, tuple) else current
    if isinstance(current, tuple) and current and all(isinstance(x, int) for x in current):
        return key, tuple(_parse_int(key, x) for x in text.split(","))
    if isinstance(current, tuple):
        return key, tuple(x.strip() for x in text.split(",") if x.strip())
    return key, text.strip()


def house_rules(v: Variant) -> list[str]:
    """The rules of `v` that differ from its preset, as `KEY=VALUE` (empty for a preset itself)."""
    base = base_variant(v.name)
    if base is None:
        return []
    return [f"{f.name}={show_value(f.name, getattr(v, f.name))}" for f in dataclasses.fields(Variant)
            if f.name not in IDENTITY_FIELDS and getattr(v, f.name) != getattr(base, f.name)]


def with_rules(v: Variant, items: list[str]) -> Variant:
    """The variant with house rules applied (`--rule KEY=VALUE`, each key once), validated."""
    changes: dict[str, Any] = {}
    for item in items:
        key, value = parse_rule(v, item)
        if key in changes:
            raise RulesError(f"--rule {key} is given twice; give each rule once")
        changes[key] = value
    return v.replace(**changes) if changes else v


def rules_table(v: Variant) -> list[tuple[str, str, str]]:
    """(key, value, meaning) for every rule of `v`, values as the engine reads them."""
    view = engine_view(v)
    rows = []
    for f in dataclasses.fields(Variant):
        value = getattr(v, f.name) if f.name in IDENTITY_FIELDS else view[f.name]
        rows.append((f.name, show_value(f.name, value), RULE_DOCS[f.name]))
    return rows


def presets_markdown() -> str:
    """docs/presets.md: every rule of every preset, from the same data the engine reads."""
    names = list(PRESETS)
    tables = {n: {k: val for k, val, _ in rules_table(PRESETS[n])} for n in names}
    lines = ["# Every rule of every preset", "",
             "Generated from the data the engine reads (`canasta-lab rules --all --markdown > docs/presets.md`); "
             "a test keeps it current. [rules.md](rules.md) explains the rules in words; "
             "`canasta-lab rules VARIANT --rule KEY=VALUE` shows a preset with house rules applied.", "",
             "| rule | " + " | ".join(names) + " | meaning |",
             "|---|" + "---|" * len(names) + "---|"]
    for f in dataclasses.fields(Variant):
        if f.name == "description":
            continue
        cells = [tables[n][f.name].replace("|", "\\|") for n in names]
        lines.append(f"| `{f.name}` | " + " | ".join(f"`{c}`" for c in cells) + f" | {RULE_DOCS[f.name]} |")
    lines += ["", "Descriptions:", ""] + [f"* `{n}`: {PRESETS[n].description}" for n in names]
    return "\n".join(lines) + "\n"
