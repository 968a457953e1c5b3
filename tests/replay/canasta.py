"""An independent replayer for Classic, House and Boat transcripts (docs/transcript.md, DESIGN.md "Interfaces").

The replayer reads nothing but the events of `sim.records.transcript.events` and rebuilds the table card by card:
stock (top first), pile (bottom first), every hand, every meld and every red-three area. The state always
follows what the transcript says happened; every disagreement with the documented format or with the rules
of the variant is recorded under a named check, and each test asserts that one check is clean. Variants:
Classic (classic-2p/3p/4p/6p: VARIANTS.md §1, §3.1-3.4), House-001 (house-001-2p/3p/4p: §3.6, R-50..R-66,
R-156..R-158), House-003 (house-003-4p: §3.7, R-70..R-81, R-157, R-158) and Boat (boat-2p/3p alone, boat-4p in
partnerships opposite: §3.5, R-30..R-45, R-148..R-150, worked examples §5.4). Rule values (card values,
red-three points, draw counts, pack and stock sizes, pile-taking methods, dealing direction, the dealing bonus,
the initial-meld table, canasta bonuses, the going-out bonus, the game target) are written out here in `Spec`
from VARIANTS.md, not read from the engine. The tests that use it: test_transcript.py beside it.

Boat in short, as checked here: no upcard (R-31); each player's turns 1-3 of a hand are draw and discard only
(R-32); a black three, joker or 2 discarded bars the next player from the pile and blocks it (natural pair
only) until it is taken or reshuffled (R-33); rank melds have fewer wilds than naturals, no cap (R-36); one wild
meld per side, wilds only (R-35); black threes are melded only in the four-black-three close (R-37); a player
who may not close keeps a last single card without discarding (R-38); an empty stock is rebuilt from the whole
pile (`reshuffle`, E-RESHUFFLE, R-39), and the hand ends by the stock only when stock and pile are both empty
(R-149); the table scores negative without a canasta (R-34).

Pennies from Heaven (pennies-6p: §3.8, R-90..R-101, R-151..R-159, §5.5) and Railroad (railroad-2p/3p/4p/6p: §3.9,
R-110..R-122, R-152..R-155, §5.6), as checked here: 216 cards (Pennies) or 108 a player (Railroad, R-111), 13 cards
in the hand and an 11-card foot (kitty) face down for each player, dealt in the `deal` event's `feet`; stock 71 or
84·N - 1 after the upcard. Every meld is closed at 7 cards (R-92): cards are added only to an incomplete meld, a new
meld of a rank (or a new wild meld, 3..7 wilds, R-91) only when every earlier one is complete, and a pile take that
overflows the open meld completes it to 7 and starts the next meld at once with the rest and more naturals from the
hand; sevens take no wild (R-97, R-118). Pile takes: Pennies M1 always, M3 onto an incomplete meld when unfrozen and
melded, never M2 (R-93); Railroad M1/M2/M3, only M1 when frozen or before the first meld (R-117); wild, black-three
(Pennies: any three) tops untakeable. The foot is picked up (`foot`, its red threes exposed and replaced from the
stock) after the discard of the turn in which its player first placed the 7th card of a canasta (Pennies any kind;
Railroad natural, wild or sevens, R-114), or in Pennies at once when the hand empties by melding while it is due
(R-95, R-159); never on a turn that ends the hand without a discard (R-153); a player whose foot is due is not out.
Going out needs a natural, a mixed, a wild and a sevens canasta; Railroad goes out by a final discard and never
melds the last card (R-152); Pennies never discards a seven unless both teams have a sevens canasta, and never as
the going-out discard (R-97), no pile take or meld leaves a hand of sevens only while they may not be discarded
(§3.8 turn step 8; only a hand of sevens drawn may meld them down), and a hand of nothing but undiscardable sevens
ends the hand (reason `sevens`). Black threes are melded only to go out, 3..7 in Pennies (R-151), any number in
Railroad (R-121). The stock ends by E-VOLUNTARY (R-99, R-120: no forced take). Scores: canastas natural 500, mixed
300, wild 1000, sevens 1500; red threes 100 each, in Pennies all eight 1000 and negative without a sevens canasta,
in Railroad never negative and no all-bonus (R-115); un-picked feet in `other` at card values, a red three in one
-100 in Pennies and 0 in Railroad (R-96, R-115, R-154); no concealed bonus (R-98); the game to 20,000 (R-119).
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sim.records.transcript import events
from sim.run.runner import make_job

# VARIANTS.md §2 rows 2-5, 8, 9, 13, 14, 18, 20, 22, 25, 30, 31, 34, 38, 39 ----------------------------------

RANKS = "A23456789TJQK"
SUITS = "SHDC"
VALUE = {"A": 20, "2": 20, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5,
         "8": 10, "9": 10, "T": 10, "J": 10, "Q": 10, "K": 10}
RED3 = ("3H", "3D")  # exposed in this order from one hand
BLACK3 = ("3S", "3C")
EVENTS = {"game", "deal", "red_three", "draw", "take_pile", "take_top", "meld", "ask", "discard", "go_out",
          "hand_end", "game_end"}  # the events of these variants (DESIGN.md; `take_top` House-001 only)
RESHUFFLE_EVENTS = EVENTS | {"reshuffle"}  # Boat (E-RESHUFFLE, R-39)
FOOT_EVENTS = EVENTS | {"foot"}  # Pennies and Railroad: a foot (kitty) picked up

# pile-taking methods (§0): M1 pair, M2 natural + wild, M3 lay-off
ANY_METHOD = frozenset({"pair", "natural_wild", "layoff"})
PAIR = frozenset({"pair"})
PAIR_OR_WILD = frozenset({"pair", "natural_wild"})
PAIR_OR_LAYOFF = frozenset({"pair", "layoff"})  # Pennies: never M2

TWO_TEAMS = ((0, 2), (1, 3))  # partners opposite

# Initial-meld minimum by the side's cumulative score at the start of the hand: (score bound, minimum) for the
# scores below each bound, the last bound open. Classic §3.1 setup 2 (House-001 R-53 and House-003 R-79 take
# the same table, the negative bracket included); Boat §3.5 setup 4, B-1, R-149 (150 from 7505 up).
CLASSIC_MELD_TABLE: tuple[tuple[int | None, int], ...] = ((0, 15), (1500, 50), (3000, 90), (None, 120))
BOAT_MELD_TABLE: tuple[tuple[int | None, int], ...] = ((0, 15), (2505, 50), (5005, 90), (7505, 120), (None, 150))
# Pennies §3.8 setup 3, R-101, P-2; Railroad takes it too, on the player's own score
PENNIES_MELD_TABLE: tuple[tuple[int | None, int], ...] = ((0, 15), (5000, 50), (10000, 90), (15000, 120), (None, 150))


@dataclass(frozen=True)
class Spec:
    decks: int
    hand_size: int
    stock_after_deal: int  # before the upcard(s) beyond the first and before red-three replacements
    draw: int
    black3_max: int | None  # None: any number (Railroad, R-121)
    sides: tuple[tuple[int, ...], ...]
    canastas_to_go_out: int = 1
    six_pack_red3: bool = False  # classic-6p red-three scale
    eight: int = 10  # value of an 8 (House-001: 5, R-51)
    wilds_below_naturals: bool = False  # every rank meld has w < n as well as w <= 3 (House-001, R-65)
    dealer_step: int = 1  # next dealer = dealer + step: +1 to the left, -1 to the right (House-001, R-63)
    frozen_methods: frozenset[str] = PAIR  # §2 row 13 (House-001 R-55: M1 or M2; House-003 R-73: M1)
    premeld_methods: frozenset[str] = PAIR  # §2 row 14 (House-001 R-55, House-003 R-74: M1 or M2)
    top_card: bool = False  # the third draw option, the top discard alone (House-001, R-54, R-156)
    final_discard: bool = False  # going out needs a final discard; the last card is never melded
    concealed_bonus: bool = True  # R-13; none in House-001 and House-003
    exact_deal: int = 0  # dealing bonus to the dealer's side, sampled per hand; 0: none
    target: int = 5000
    target_strict: bool = False  # the game ends when a total is over (not at) the target (House-003, R-78)
    meld_table: tuple[tuple[int | None, int], ...] = CLASSIC_MELD_TABLE  # §2 row 23
    max_turns: int = 1000  # safeguards of every preset: turns a hand, hands a game
    max_hands: int = 200
    # Boat (§3.5; the defaults are the Classic and House rules)
    upcard: bool = True  # §1.3; Boat has none, the pile starts empty
    opening_rounds: int = 0  # each player's first N turns of a hand: draw and discard only (Boat 3, R-32)
    max_wilds: int | None = 3  # wilds in a rank meld (Boat: no cap, only w < n, R-36)
    wild_melds: bool = False  # melds of jokers and 2s only, one per side, never a natural added (Boat, R-35)
    black3_min: int = 3  # smallest black-three meld (Boat: only the four-black-three close, R-37)
    natural_canasta: int = 500  # §2 row 29 (Boat 600)
    mixed_canasta: int = 300
    small_wild_canasta: int = 0  # a wild canasta with 2s >= jokers, a tie being small (Boat 1000, R-35)
    big_wild_canasta: int = 0  # a wild canasta with more jokers than 2s (Boat 2000, R-35)
    negative_without_canasta: bool = False  # melds and red threes negative without a canasta (Boat, R-34);
    # otherwise red threes are negative without a meld and melds are never negative
    black3_melded: int = 5  # a melded black three (Boat: 0, R-37, B-7)
    black3_in_hand: int = 5  # a black three left in a hand (Boat: 100, B-8)
    going_out_bonus: int = 100  # §2 row 33 (Boat 200); the Classic concealed total is 200
    black3_close_bonus: int = 0  # the four-black-three close, in place of the going-out bonus (Boat 1000, R-37)
    wild_blocks: bool = False  # a discarded wild bars the next player as a black three does (Boat, R-33)
    black3_blocks_pile: bool = False  # a black three in the pile blocks it until taken (Boat, R-33)
    one_card_pile_rule: bool = True  # R-20 (none in Boat, R-45)
    keep_last_card: bool = False  # one card left and no close allowed: kept, no discard (Boat, R-38)
    reshuffle: bool = False  # E-RESHUFFLE (Boat, R-39, R-149) in place of E-CLASSIC
    # Pennies and Railroad (§3.8, §3.9; the defaults are the rules above)
    plain_methods: frozenset[str] = ANY_METHOD  # §2 row 12: unfrozen pile, side melded (Pennies M1, M3: R-93)
    red3_all: tuple[int, int] | None = (4, 800)  # (count, points) of the all-red-threes bonus (Pennies 8 = 1000;
    # Railroad none, R-115)
    red3_negative: str = "meld"  # red threes negative without: "meld" (a meld), "sevens" (a sevens canasta,
    # Pennies), "never" (Railroad, R-115); Boat: negative_without_canasta
    foot_size: int = 0  # an 11-card foot (Pennies) or kitty (Railroad) face down for each player (§2 row 6)
    foot_red3: int = 0  # what a red three in an un-picked foot costs (Pennies 100, R-96; Railroad 0, R-115)
    foot_any_canasta: bool = True  # the foot comes with any canasta (Pennies); Railroad: not a mixed one
    midturn_foot: bool = False  # a hand emptied by melding while the foot is due picks it up at once (Pennies, R-95)
    cap: int | None = None  # melds are closed at 7 cards; several melds of a rank, one incomplete
    wild_canasta: int = 0  # a 7-card wild meld (Pennies, Railroad: 1000)
    sevens_canasta: int = 0  # a 7-card meld of sevens, never with a wild (1500, R-97, R-118)
    four_kinds_to_go_out: bool = False  # a natural, a mixed, a wild and a sevens canasta to go out (§2 row 30)
    sevens_discard: bool = True  # Pennies: a seven is discarded only when both teams have a sevens canasta, and
    # never to go out
    sevens_end: bool = False  # Pennies: a hand of undiscardable sevens ends the hand, reason `sevens` (§3.8 step 8)
    voluntary_end: bool = False  # E-VOLUNTARY (Pennies R-99, Railroad R-120): no take at the empty stock is forced


SOLO2, SOLO3 = ((0,), (1,)), ((0,), (1,), (2,))
HOUSE_001 = dict(eight=5, wilds_below_naturals=True, dealer_step=-1, frozen_methods=PAIR_OR_WILD,
                 premeld_methods=PAIR_OR_WILD, top_card=True, final_discard=True, concealed_bonus=False,
                 exact_deal=100)
SPECS = {
    "classic-2p": Spec(decks=2, hand_size=15, stock_after_deal=77, draw=2, black3_max=4, sides=SOLO2,
                       canastas_to_go_out=2),
    "classic-3p": Spec(decks=2, hand_size=13, stock_after_deal=68, draw=1, black3_max=4, sides=SOLO3),
    "classic-4p": Spec(decks=2, hand_size=11, stock_after_deal=63, draw=1, black3_max=4, sides=TWO_TEAMS),
    "classic-6p": Spec(decks=3, hand_size=11, stock_after_deal=95, draw=1, black3_max=6,
                       sides=((0, 2, 4), (1, 3, 5)), six_pack_red3=True),
    "house-001-2p": Spec(decks=2, hand_size=15, stock_after_deal=77, draw=1, black3_max=4, sides=SOLO2,
                         **HOUSE_001),
    "house-001-3p": Spec(decks=2, hand_size=13, stock_after_deal=68, draw=1, black3_max=4, sides=SOLO3,
                         **HOUSE_001),
    "house-001-4p": Spec(decks=2, hand_size=11, stock_after_deal=63, draw=1, black3_max=4, sides=TWO_TEAMS,
                         **HOUSE_001),
    "house-003-4p": Spec(decks=2, hand_size=13, stock_after_deal=55, draw=2, black3_max=4, sides=TWO_TEAMS,
                         canastas_to_go_out=2, frozen_methods=PAIR, premeld_methods=PAIR_OR_WILD,
                         concealed_bonus=False, exact_deal=100, target_strict=True),
}
# §3.5, §2 column Boat: 14 cards at every player count, stock 52 / 66 / 80, draw 1, M1 only on a blocked
# pile, M1 or M2 before melding, game to 10,000 reached
BOAT = dict(decks=2, hand_size=14, draw=1, black3_min=4, black3_max=4, frozen_methods=PAIR,
            premeld_methods=PAIR_OR_WILD, concealed_bonus=False, target=10000, meld_table=BOAT_MELD_TABLE,
            upcard=False, opening_rounds=3, max_wilds=None, wilds_below_naturals=True, wild_melds=True,
            natural_canasta=600, small_wild_canasta=1000, big_wild_canasta=2000, negative_without_canasta=True,
            black3_melded=0, black3_in_hand=100, going_out_bonus=200, black3_close_bonus=1000, wild_blocks=True,
            black3_blocks_pile=True, one_card_pile_rule=False, keep_last_card=True, reshuffle=True)
SPECS.update({
    "boat-2p": Spec(stock_after_deal=80, sides=SOLO2, **BOAT),
    "boat-3p": Spec(stock_after_deal=66, sides=SOLO3, **BOAT),
    "boat-4p": Spec(stock_after_deal=52, sides=TWO_TEAMS, **BOAT),
})
VARIANTS = list(SPECS)
HOUSE = [v for v in VARIANTS if v.startswith("house-")]
BOATS = [v for v in VARIANTS if v.startswith("boat-")]

# §3.8, §3.9, §2 columns PfH and RR: draw 2, 13 cards and an 11-card foot, melds closed at 7, wild canastas 1000,
# sevens 1500, the four kinds to go out, no concealed bonus, E-VOLUNTARY, the Pennies meld
# table, the game to 20,000
FEET = dict(hand_size=13, draw=2, foot_size=11, cap=7, wild_melds=True, wild_canasta=1000, sevens_canasta=1500,
            four_kinds_to_go_out=True, concealed_bonus=False, voluntary_end=True, meld_table=PENNIES_MELD_TABLE,
            target=20000)
SPECS["pennies-6p"] = Spec(decks=4, stock_after_deal=71, black3_max=7, sides=((0, 2, 4), (1, 3, 5)),
                           plain_methods=PAIR_OR_LAYOFF, red3_all=(8, 1000), red3_negative="sevens", foot_red3=100,
                           midturn_foot=True, sevens_discard=False, sevens_end=True, **FEET)
for _n in (2, 3, 4, 6):  # individual, 2 decks a player; stock 84·N - 1 (RR-4)
    SPECS[f"railroad-{_n}p"] = Spec(decks=2 * _n, stock_after_deal=84 * _n - 1, black3_max=None,
                                    sides=tuple((p,) for p in range(_n)), red3_all=None, red3_negative="never",
                                    foot_any_canasta=False, final_discard=True, **FEET)
VARIANTS = list(SPECS)
FEET_VARIANTS = [v for v in VARIANTS if SPECS[v].foot_size]
RAILROADS = [v for v in VARIANTS if v.startswith("railroad-")]

# About three games per variant: random against random, and baseline against random in both seatings
# (odd game indices rotate the strategies by one seat: duplicate deals).
CASES = [(("random",), 1, 0), (("baseline", "random"), 1, 1), (("baseline", "random"), 7, 2)]
# One more game where those three deal no exact-deal bonus (R-04, p = 0.1 a hand), so that it is checked too
# Boat: one more game each with a reshuffle for a red three's replacement, and in 3p and 4p a hand ended
# with stock and pile empty and the four-black-three close; in 4p also a capped hand
OLD_EXPERT = ("baseline:min_pile=3,freeze=20,hold_black3=throw,ask=never,answer_max=no,meld=all,wilds=save,go_out=asap,"
              "canastas=1,natural=off")
VARIANT_CASES: dict[str, list[tuple[tuple[str, ...], int, int]]] = {
    "house-001-3p": [*CASES, (("baseline", "random"), 7, 3)],
    "house-003-4p": [*CASES, (("baseline", "random"), 7, 6)],
    "boat-2p": [*CASES, (("random",), 1, 12), (("random",), 1, 53)],  # game 53: a hand ended by the turn cap
    "boat-3p": [*CASES, (("random",), 1, 5)],
    "boat-4p": [*CASES, (("pile-hoarder",), 1, 12)],
    # Pennies and Railroad: games (several strategies and seeds) that hold between them going out by a discard and
    # (Pennies) by melding, feet picked up after the discard and (Pennies) mid-turn, red threes in feet (some at
    # the empty stock), takes overflowing the open meld, M2 takes (Railroad), black-three going-out melds, asks
    # (Pennies) and the all-sevens end (Pennies: random, seed 2, game 26; game 24 reached it by a take that
    # left only sevens, which the engine no longer offers: §3.8 turn step 8)
    # (the second: expert's knobs before its Pennies tuning, issue 26, written out so that the game stays the one
    # that goes out by melding)
    "pennies-6p": [(("baseline",), 2, 2), ((OLD_EXPERT,), 3, 2), (("cautious",), 3, 0), (("random",), 2, 26)],
    "railroad-2p": [(("baseline", "random"), 3, 2)],
    "railroad-3p": [(("cautious", "random"), 2, 2)],
    "railroad-4p": [(("aggressive",), 2, 0)],
    "railroad-6p": [(("baseline", "random"), 2, 1), (("random",), 2, 1)],
}


def cases(variant: str) -> list[tuple[tuple[str, ...], int, int]]:
    return VARIANT_CASES.get(variant, CASES)


def value(card: str, eight: int = 10) -> int:
    return 50 if card == "JK" else eight if card[0] == "8" else VALUE[card[0]]


def is_wild(card: str) -> bool:
    return card == "JK" or card[0] == "2"


def is_red3(card: str) -> bool:
    return card in RED3


def full_pack(decks: int) -> Counter[str]:
    pack = Counter({r + s: decks for r in RANKS for s in SUITS})
    pack["JK"] = 2 * decks
    return pack


def red3_points(spec: Spec, k: int) -> int:
    if spec.six_pack_red3:
        return {5: 1000, 6: 1200}.get(k, 100 * k)
    if spec.red3_all is not None and k == spec.red3_all[0]:
        return spec.red3_all[1]  # all four 800; Pennies all eight 1000; Railroad no all-bonus
    return 100 * k


def requirement(score: int, table: tuple[tuple[int | None, int], ...] = CLASSIC_MELD_TABLE) -> int:
    """Initial-meld minimum from the side's cumulative score at the start of the hand (`meld_table`)."""
    return next(need for bound, need in table if bound is None or score < bound)


def canasta_bonus(spec: Spec, kind: str, cards: list[str]) -> int:
    """§2 row 29 by final composition (R-35): natural, mixed; Boat wild canastas small (2s >= jokers) or big."""
    if len(cards) < 7 or kind not in ("rank", "wild"):
        return 0
    if kind == "wild":
        if spec.wild_canasta:  # Pennies, Railroad: any seven wild cards (§3.8, §3.9 scoring)
            return spec.wild_canasta
        jokers = cards.count("JK")
        return spec.big_wild_canasta if jokers > len(cards) - jokers else spec.small_wild_canasta
    if spec.sevens_canasta and _nat_rank(cards) == "7":
        return spec.sevens_canasta  # a sevens canasta, never mixed: 1500 in place of 500
    return spec.mixed_canasta if any(is_wild(c) for c in cards) else spec.natural_canasta


def canasta_kind(kind: str, cards: list[str]) -> str | None:
    """The kind of a completed canasta in Pennies and Railroad (§2 rows 29, 30): natural (Railroad "red"), mixed
    ("black"), wild or sevens; None for a meld that is no canasta (a black-three meld never is one, R-151)."""
    if kind == "wild" and len(cards) >= 7:
        return "wild"
    if kind != "rank" or len(cards) < 7:
        return None
    if _nat_rank(cards) == "7":
        return "sevens"
    return "mixed" if any(is_wild(c) for c in cards) else "natural"


def _nat_rank(cards: list[str]) -> str:
    return next((c[0] for c in cards if not is_wild(c)), "?")


def table_value(spec: Spec, card: str) -> int:
    """A card's value in a meld (Boat: a melded black three is worth 0, R-37)."""
    return spec.black3_melded if card in BLACK3 else value(card, spec.eight)


def hand_value(spec: Spec, card: str) -> int:
    """A card's value left in a hand (Boat: a black three costs 100, B-8)."""
    return spec.black3_in_hand if card in BLACK3 else value(card, spec.eight)


def foot_cost(spec: Spec, cards: list[str]) -> int:
    """What a foot (kitty) still face down at the hand end costs, in `other` (R-154): its cards at their values, a
    red three 100 in Pennies (R-96) and 0 in Railroad (R-115)."""
    return sum(spec.foot_red3 if is_red3(c) else hand_value(spec, c) for c in cards)


def is_canasta(kind: str, cards: list[str]) -> bool:
    """A rank or wild meld of 7+ cards; a black-three meld never is one."""
    return kind in ("rank", "wild") and len(cards) >= 7


def side_score(spec: Spec, melds: list[tuple[str, list[str]]], red3: int, in_hand: list[str], going_out: int = 0,
               other: int = 0) -> dict[str, int]:
    """One side's hand score by component (§1.11; Classic §3.1, Boat §3.5 scoring): melds as (kind, cards), the
    number of red threes laid out, the cards left in the side's hands, the going-out bonus won."""
    melded = sum(table_value(spec, c) for _, cards in melds for c in cards)
    canastas = sum(canasta_bonus(spec, kind, cards) for kind, cards in melds)
    red_threes = red3_points(spec, red3)
    if spec.negative_without_canasta:  # Boat: the table (melds and red threes) counts negative
        if not any(is_canasta(kind, cards) for kind, cards in melds):
            melded, red_threes = -melded, -red_threes
    elif spec.red3_negative == "sevens":  # Pennies: negative without a completed sevens canasta (§3.8 scoring 3)
        if not any(canasta_kind(kind, cards) == "sevens" for kind, cards in melds):
            red_threes = -red_threes
    elif spec.red3_negative == "meld" and not melds:  # Railroad: never negative
        red_threes = -red_threes
    hand = -sum(hand_value(spec, c) for c in in_hand)
    return {"melded": melded, "canastas": canastas, "red_threes": red_threes, "going_out": going_out,
            "in_hand": hand, "other": other, "total": melded + canastas + red_threes + going_out + hand + other}


def methods(spec: Spec, frozen: bool, melded: bool) -> frozenset[str]:
    """The pile-taking methods allowed (§2 rows 12-14); frozen and not yet melded is the intersection (R-157)."""
    allowed = spec.plain_methods
    if frozen:
        allowed &= spec.frozen_methods
    if not melded:
        allowed &= spec.premeld_methods
    return allowed


# The replayer -------------------------------------------------------------------------------------------------


@dataclass
class Meld:
    kind: str
    cards: list[str]
    turn: int
    player: int


@dataclass
class Turn:
    player: int
    number: int
    side_melded_before: bool
    took: bool
    barred: bool = False  # block_next applies to this player (a black three discarded by the previous player)
    meld_value: int = 0
    laid: bool = False
    added_old: bool = False
    black3: bool = False
    out: bool = False
    top: str | None = None  # the card taken by the top-card option (House-001, R-54)
    top_had_copy: bool = False  # the player held another copy of it before the take
    empty_stock_take: bool = False  # the pile taken with the stock empty (E-CLASSIC step 2, R-06)
    last_red3: bool = False  # the last stock card drawn was a red three: meld, no discard, the hand ends
    free_melds: int = 0  # melds after the draw step was complete (not the take's own melds)
    answer: bool | None = None  # the partner's answer to "may I go out?"
    opening: bool = False  # one of the player's first `opening_rounds` turns of the hand (Boat, R-32)
    discarded: bool = False
    stock_end: bool = False  # a red-three replacement found stock and pile empty: the hand ends (Boat, R-149)
    completed: bool = False  # the player placed the 7th card of a canasta that brings the foot
    foot: str | None = None  # the player's foot picked up this turn: "after" the discard, or "mid"-turn
    sevens_end: bool = False  # the hand ends on this turn by a hand of undiscardable sevens (Pennies, §3.8 step 8)
    pre_meld_hand: Counter[str] | None = None  # the hand before the first meld after the draw step


@dataclass
class Pickup:
    """A taken pile whose top is melded but whose rest is not yet in the hand."""

    player: int
    rest: list[str]
    needed: int  # value the turn's melds must reach before the rest is picked up (0: at once)
    value: int = 0
    top_melded: bool = False
    hold: bool = False  # a take that overflows the open meld: the next meld (from the hand) comes before the pick-up


@dataclass
class Replay:
    variant: str
    evs: list[dict[str, Any]]
    issues: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def __post_init__(self) -> None:
        self.spec = SPECS[self.variant]
        game = self.evs[0]
        assert game["event"] == "game" and game["variant"] == self.variant
        self.players: int = game["players"]
        self.sides: list[list[int]] = game["sides"]
        self.side_of = {p: s for s, seats in enumerate(self.sides) for p in seats}
        self.pack = full_pack(self.spec.decks)
        self.totals = [0] * len(self.sides)
        self.hand_ends: list[dict[str, Any]] = []
        self.dealer = -1
        self.dealers: list[int] = []
        self.i = 0
        # R-06 read literally (the rule switch empty_stock_take_ends_hand): a pile taken when the stock is
        # empty ends the hand once taken, so only the take's own melds and red threes may follow
        self.literal_eos = bool(game["rules"].get("empty_stock_take_ends_hand", False))
        self.take_must_end = False
        self.empty_stock_takes = 0
        self.exact_deals = 0  # hands with the dealing bonus
        self.top_takes: Counter[str] = Counter()  # top-card takes by circumstance: "all", "frozen", ...
        self.top_take_at: list[tuple[int, bool]] = []  # (event index, the player held a copy before)
        self.takes: Counter[tuple[str, str]] = Counter()  # pile takes by (method, "frozen" | "pre-meld" | "plain")
        self.barred: int | None = None  # the player block_next applies to
        self.boat: Counter[str] = Counter()  # Boat circumstances met (the test that the games exercise the rules)
        self.at: dict[str, list[int]] = defaultdict(list)  # event indices of some of them (the tampering tests)
        self.reshuffled: list[tuple[list[str], list[str]]] = []  # (pile bottom first, new stock top first)
        self.allowed_events = RESHUFFLE_EVENTS if self.spec.reshuffle else FOOT_EVENTS if self.spec.foot_size \
            else EVENTS
        self.seen: Counter[str] = Counter()  # Pennies and Railroad circumstances met (the games exercise the rules)
        if [list(s) for s in self.spec.sides] != self.sides:
            self.flag("sides", f"sides {self.sides}, §2 row 3 gives {[list(s) for s in self.spec.sides]}")
        self.run()

    # bookkeeping -------------------------------------------------------------------------------------------

    def flag(self, check: str, message: str) -> None:
        self.issues[check].append(f"event {self.i} {self.evs[self.i]}: {message}")

    def value(self, card: str) -> int:
        return table_value(self.spec, card)

    def canastas(self, s: int) -> int:
        """The side's canastas of any kind: rank or wild melds of 7+ cards (a black-three meld never is one)."""
        return sum(is_canasta(m.kind, m.cards) for m in self.melds[s])

    def take_from_hand(self, p: int, card: str) -> None:
        if self.hands[p][card] > 0:
            self.hands[p][card] -= 1
        else:
            self.flag("hand", f"{card} is not in player {p}'s hand {sorted(self.hands[p].elements())}")

    def take_from_stock(self, card: str) -> None:
        """Remove a card the transcript says left the stock (its top-first order is checked separately)."""
        if card in self.stock:
            self.stock.remove(card)
        else:
            self.flag("conservation", f"{card} left the stock but is not in it")

    def table(self) -> Counter[str]:
        c = Counter(self.stock) + Counter(self.pile)
        for h in self.hands:
            c += h
        for side in self.melds:
            for m in side:
                c += Counter(m.cards)
        for r3 in self.red3:
            c += Counter(r3)
        for f in self.feet:
            c += f
        return c

    def hand_cards(self, p: int) -> list[str]:
        return sorted(self.hands[p].elements())

    def frozen(self) -> bool:
        """A wild or a red three anywhere in the pile (a covered upcard or a discarded wild): frozen until taken.
        In House-001 a top-card take can leave such a card on top; the pile stays frozen while it holds it.
        Boat (R-33): `blocked` from the first black three, joker or 2 discarded until the pile is taken or
        reshuffled, i.e. while the pile holds one (the pile starts empty and grows by discards only)."""
        return any(is_wild(c) or is_red3(c) or (self.spec.black3_blocks_pile and c in BLACK3) for c in self.pile)

    # the event loop ---------------------------------------------------------------------------------------------

    def run(self) -> None:
        for i in range(1, len(self.evs)):
            self.i = i
            e = self.evs[i]
            t = e["event"]
            if t not in ("red_three", "reshuffle") and self.i > 1:  # a reshuffle may come before a replacement
                if self.expect_r3:
                    self.flag("red3_order", f"red threes {self.expect_r3} were never exposed")
                    self.expect_r3.clear()
                for p in range(self.players):
                    if any(self.hands[p][c] for c in RED3):
                        self.flag("red3_in_hand", f"player {p} holds {self.hand_cards(p)}")
            if self.take_must_end:
                self.check_literal_end(e)
            if t not in self.allowed_events or t == "game":
                self.flag("events", f"event {t!r} is not a transcript event of this variant (R-160)")
                continue
            getattr(self, "on_" + t)(e)
            if t in ("meld", "discard") and self.pickup is None and not sum(self.hands[e["player"]].values()):
                self.check_emptied(e)
            table = self.table()
            if table != self.pack or sum(table.values()) != sum(self.pack.values()):
                self.flag("conservation", f"table minus pack {table - self.pack}, pack minus table "
                                          f"{self.pack - table}")

    def check_emptied(self, e: dict[str, Any]) -> None:
        """§5.8 item 4: a hand becomes empty only when its player goes out, at once; R-58 (House-001): only by
        the final discard, never by melding the last card."""
        p = e["player"]
        nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
        if self.foot_due(p) and (e["event"] == "discard" or self.spec.midturn_foot):
            # Pennies, Railroad: the hand may empty when the foot, due, is picked up right after;
            # by melding only in Pennies, after the discard in both
            if nxt.get("event") != "foot" or nxt.get("player") != p:
                self.flag("foot", f"player {p}'s hand is empty while its foot is due, and the next event {nxt} is "
                                  f"not its pick-up (R-95, R-114)")
        elif nxt.get("event") != "go_out" or nxt.get("player") != p:
            self.flag("empty_hand", f"player {p}'s hand is empty and the next event {nxt} is not its go_out")
        if e["event"] == "meld" and self.spec.final_discard:
            self.flag("r58_final_discard", f"player {p} melds the last card (R-58, Railroad §3.9 turn step 4, R-152: "
                                           f"going out needs a discard)")

    def foot_due(self, p: int) -> bool:
        """Player p's foot is due: still face down, and p placed the 7th card of a canasta this turn that brings it
        (Pennies any kind, R-95; Railroad natural, wild or sevens, R-114)."""
        t = self.turn
        return bool(self.spec.foot_size) and not self.foot_taken[p] and t is not None and t.player == p \
            and t.completed

    def sevens_canasta(self, s: int) -> bool:
        return any(canasta_kind(m.kind, m.cards) == "sevens" for m in self.melds[s])

    def sevens_discardable(self) -> bool:
        """Pennies R-97: a seven may be discarded once both teams have completed a sevens canasta."""
        return self.spec.sevens_discard or all(self.sevens_canasta(s) for s in range(len(self.sides)))

    def on_deal(self, e: dict[str, Any]) -> None:
        spec = self.spec
        if self.dealer >= 0 and e["dealer"] != (self.dealer + spec.dealer_step) % self.players:
            self.flag("turn_order", f"dealer {e['dealer']} does not follow dealer {self.dealer} "
                                    f"(the deal passes {'right' if spec.dealer_step < 0 else 'left'})")
        self.dealer = e["dealer"]
        self.dealers.append(self.dealer)
        self.hand_no = e["hand"]
        self.stock: list[str] = list(e["stock"])
        self.pile: list[str] = list(e["pile"])
        self.hands = [Counter(h) for h in e["hands"]]
        self.melds: list[list[Meld]] = [[] for _ in self.sides]
        self.red3: list[list[str]] = [[] for _ in self.sides]
        self.cum0 = list(self.totals)
        self.expect_r3: list[tuple[int, str, str]] = []  # (player, card, "stock" | "pile")
        self.turn: Turn | None = None
        self.turn_no = 0
        self.laid_before = [False] * self.players
        self.pickup: Pickup | None = None
        self.out: tuple[int, bool] | None = None
        # Pennies, Railroad: an 11-card foot (kitty) face down for each player, in seat order (§3.8, §3.9 setup)
        self.feet_dealt: list[list[str]] = [list(f) for f in e["feet"]] if spec.foot_size else []
        self.feet = [Counter(f) for f in self.feet_dealt]  # the feet still face down
        self.foot_taken = [False] * self.players
        if not spec.foot_size and e["feet"]:
            self.flag("deal", "these variants have no feet")
        elif spec.foot_size and (len(e["feet"]) != self.players or any(len(f) != spec.foot_size for f in e["feet"])):
            self.flag("deal", f"feet of {[len(f) for f in e['feet']]} cards, expected {self.players} of "
                              f"{spec.foot_size}")
            self.feet += [Counter() for _ in range(self.players - len(self.feet))]
            self.feet_dealt += [[] for _ in range(self.players - len(self.feet_dealt))]
        if any(len(h) != spec.hand_size for h in e["hands"]) or len(e["hands"]) != self.players:
            self.flag("deal", f"hands of {[len(h) for h in e['hands']]} cards, expected {spec.hand_size}")
        if not spec.upcard:  # Boat: no upcard, the Treasure pile starts empty
            if self.pile:
                self.flag("deal", f"pile {self.pile} at the deal, Boat has no upcard (R-31)")
        else:  # §1.3: wild and red-three upcards are covered; the final upcard is neither
            if not self.pile or is_wild(self.pile[-1]) or is_red3(self.pile[-1]):
                self.flag("deal", f"pile {self.pile} does not end in a takeable-rank upcard")
            if any(not (is_wild(c) or is_red3(c)) for c in self.pile[:-1]):
                self.flag("deal", f"covered upcards {self.pile[:-1]} include a card that is neither wild nor a red "
                                  f"three")
        if len(self.stock) != spec.stock_after_deal - max(len(self.pile) - 1, 0):
            self.flag("deal", f"stock of {len(self.stock)} cards after the deal")
        self.player_turns = [0] * self.players  # each player's turns this hand (Boat opening rounds, R-32)
        # a black-three upcard bars the first player from the pile
        self.barred = (self.dealer + 1) % self.players if self.pile and self.pile[-1] in BLACK3 else None
        # the sampled dealing bonus is written in every House deal, and in no other
        self.exact = False
        if spec.exact_deal:
            if not isinstance(e.get("exact_deal"), bool):
                self.flag("exact_deal", "no exact_deal true|false in a House deal (R-158)")
            self.exact = e.get("exact_deal") is True
            self.exact_deals += self.exact
        elif "exact_deal" in e:
            self.flag("exact_deal", "exact_deal in a variant without a dealing bonus")
        # §1.1 step 4: red threes exposed in turn order from the dealer's left, 3H before 3D in one hand
        for q in range(self.players):
            p = (self.dealer + 1 + q) % self.players
            for c in RED3:
                self.expect_r3 += [(p, c, "stock")] * self.hands[p][c]

    def on_red_three(self, e: dict[str, Any]) -> None:
        p, c, rep = e["player"], e["card"], e["replacement"]
        source = "stock"
        # a picked-up foot's red threes (and red-three replacements found meanwhile): the format gives no order
        foot = [k for k, (fp, fc, fs) in enumerate(self.expect_r3) if fs == "foot" and (fp, fc) == (p, c)]
        if not self.expect_r3:
            self.flag("red3_order", "red three not expected here")
        elif foot and all(fs == "foot" for _, _, fs in self.expect_r3[:foot[0]]):
            source = self.expect_r3.pop(foot[0])[2]
        else:
            ep, ec, source = self.expect_r3.pop(0)
            if (ep, ec) != (p, c):
                self.flag("red3_order", f"expected player {ep} to expose {ec}")
        if not is_red3(c):
            self.flag("red3_order", f"{c} is not a red three")
        self.take_from_hand(p, c)
        self.red3[self.side_of[p]].append(c)
        if source == "pile":
            if rep is not None:
                self.flag("replacement", "a red three from the pile gets no replacement")
        elif rep is None:
            if self.stock:
                self.flag("replacement", f"no replacement although the stock holds {len(self.stock)} cards")
            elif source == "foot":  # a red three of a foot pick-up at the empty stock: play continues
                self.seen["foot red three at the empty stock"] += 1
            elif self.spec.reshuffle:  # Boat: reshuffle the pile; with stock and pile empty the hand ends
                if self.pile:
                    self.flag("r39_reshuffle", f"no replacement and no reshuffle although the pile holds "
                                               f"{len(self.pile)} cards (R-39)")
                nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
                if nxt.get("event") != "hand_end" or nxt.get("reason") != "stock":
                    self.flag("r149_stock_end", f"no replacement with stock and pile empty, but the next event {nxt} "
                                                f"is not a hand end by the stock (R-149)")
                if self.turn is not None and self.turn.player == p:
                    self.turn.stock_end = True
            elif self.turn is not None and self.turn.player == p:
                self.turn.last_red3 = True  # drawn as the last stock card
        else:
            if not self.stock or self.stock[0] != rep:
                self.flag("replacement", f"replacement {rep} is not the stock top {self.stock[:1]}")
            self.take_from_stock(rep)
            self.hands[p][rep] += 1
            if is_red3(rep):  # a red-three replacement is exposed at once (in a foot pick-up: with the others)
                self.expect_r3.insert(0, (p, rep, "foot" if source == "foot" else "stock"))

    def start_turn(self, p: int, took: bool) -> None:
        if self.turn is not None and self.turn.last_red3:
            self.flag("r05_last_red_three", "the hand goes on after the last stock card, a red three, was drawn")
        self.end_turn()
        first = self.turn is None
        if first and p != (self.dealer + 1) % self.players:
            self.flag("turn_order", f"first player {p}, dealer {self.dealer}")
        if not first and self.turn is not None and p != (self.turn.player + 1) % self.players:
            self.flag("turn_order", f"player {p} plays after player {self.turn.player}")
        self.turn_no += 1
        self.player_turns[p] += 1
        self.turn = Turn(p, self.turn_no, bool(self.melds[self.side_of[p]]), took, barred=self.barred == p,
                         opening=self.player_turns[p] <= self.spec.opening_rounds)
        self.boat["barred turn"] += self.turn.barred
        if self.turn.barred:
            self.at["barred turn"].append(self.i)
        self.barred = None  # block_next lasts the barred player's turn only
        if took and self.turn.opening:
            self.flag("r32_opening", f"player {p} takes the pile on its turn {self.player_turns[p]} (R-32)")

    def end_turn(self) -> None:
        t = self.turn
        if t is None:
            return
        if self.pickup is not None:
            self.flag("take", f"the pile {self.pickup.rest} was never picked up")
            self.do_pickup()
        if t.black3 and not t.out:
            self.flag("meld", f"player {t.player} melded black threes without going out")
        # the initial minimum over the turn's melds; waived only for a Classic concealed going out
        waived = t.out and self.spec.concealed_bonus
        if not t.side_melded_before and not t.took and t.laid and not waived:
            need = requirement(self.cum0[self.side_of[t.player]], self.spec.meld_table)
            if t.meld_value < need:
                self.flag("initial_meld", f"player {t.player} opened with {t.meld_value} < {need}")
        if t.laid:
            self.laid_before[t.player] = True
        if t.answer and not t.out:
            self.flag("r07_ask", f"player {t.player} was told yes and did not go out this turn")
        if t.discarded and not t.out and self.foot_due(t.player):
            self.flag("foot", f"player {t.player} placed the 7th card of a canasta and discarded, but did not pick up "
                              f"its foot (R-95, R-114)")
        self.check_turn_end(t)

    def check_turn_end(self, t: Turn) -> None:
        """A turn ends by a discard or by going out (§1.8), except: E-CLASSIC's last red three (R-05), a take at
        the empty stock under the literal R-06, a Boat hand ended by a replacement with stock and pile empty
        (R-149), and R-38: a Boat player with exactly one card who may not close keeps it and does not discard.
        A Boat player may close when past the opening rounds, with a side canasta after this turn's melds and
        not under a "no" (§3.5 turn step 5); such a player with one card must discard it (and so close)."""
        if t.discarded or t.out or t.last_red3 or t.stock_end or t.sevens_end \
                or (self.literal_eos and t.empty_stock_take):
            if t.opening and not t.discarded and not t.stock_end:
                self.flag("r32_opening", f"player {t.player}'s opening turn ends without a discard (R-32)")
            return
        held = sum(self.hands[t.player].values())
        s = self.side_of[t.player]
        may_close = not t.opening and self.canastas(s) >= self.spec.canastas_to_go_out and t.answer is not False
        if not self.spec.keep_last_card:
            self.flag("r38_keep_last_card", f"player {t.player}'s turn ends without a discard, holding {held} "
                                            f"card(s) (only Boat keeps a last card, R-38)")
        elif held != 1 or may_close:
            why = f"holding {held} cards" if held != 1 else \
                f"holding one card though permitted to close (side canastas {self.canastas(s)}, answer {t.answer})"
            self.flag("r38_keep_last_card", f"player {t.player}'s turn ends without a discard, {why}")
        else:
            self.boat["kept last card"] += 1
            self.at["kept last card"].append(self.i)
        if t.opening:
            self.flag("r32_opening", f"player {t.player}'s opening turn ends without a discard (R-32)")

    def on_draw(self, e: dict[str, Any]) -> None:
        p, cards = e["player"], e["cards"]
        self.start_turn(p, took=False)
        if self.spec.reshuffle and not self.stock:
            self.flag("r39_reshuffle", f"player {p} draws at an empty stock without a reshuffle (R-39)")
        # the stock order: each drawn card, then the replacement(s) of a drawn red three (§1.2, §1.5)
        pos, j, seq_ok, fresh = 0, self.i + 1, True, False
        at: list[int | None] = []  # where each drawn card lay in the stock (None: not known, e.g. after a reshuffle)
        for c in cards:
            if pos >= len(self.stock) or self.stock[pos] != c:
                seq_ok = False
            at.append(pos if seq_ok and not fresh and pos < len(self.stock) else None)
            pos += 1
            cur = c
            while is_red3(cur):
                r = self.evs[j] if j < len(self.evs) else {}
                j += 1
                reshuffled = r.get("event") == "reshuffle"  # Boat: the replacement comes off a new stock
                if reshuffled:
                    fresh = True  # later drawn cards come off the new stock: taken by value below
                    r = self.evs[j] if j < len(self.evs) else {}
                    j += 1
                if r.get("event") != "red_three" or r.get("player") != p or r.get("card") != cur:
                    self.flag("red3_order", f"drawn {cur} is not followed by its red_three event")
                    break
                cur = r["replacement"]
                if cur is None or reshuffled:  # the new stock's order is checked by on_red_three
                    break
                if pos >= len(self.stock) or self.stock[pos] != cur:
                    seq_ok = False
                pos += 1
        if not seq_ok:
            self.flag("draw_order", f"drawn cards and replacements are not the stock top {self.stock[:pos]}")
        # a stock shorter than the draw count is drawn whole, as a complete draw
        short = len(cards) < self.spec.draw
        if not cards or len(cards) > self.spec.draw or (short and pos < len(self.stock)):
            self.flag("draw_order", f"{len(cards)} cards drawn from a stock of {len(self.stock)}")
        # each drawn card leaves the stock from where it lay, not the first copy of it: with card 1 a red three,
        # its replacement may be a copy of card 2 (§1.5: drawn one by one, each red three replaced at once)
        for k in sorted((k for k in at if k is not None), reverse=True):
            del self.stock[k]
        for c, k in zip(cards, at, strict=False):
            if k is None:
                self.take_from_stock(c)
            self.hands[p][c] += 1
            if is_red3(c):
                self.expect_r3.append((p, c, "stock"))

    def check_literal_end(self, e: dict[str, Any]) -> None:
        t = e["event"]
        if t == "hand_end":
            self.take_must_end = False
            if e["reason"] != "stock":
                self.flag("end_of_stock", f"the hand ends by {e['reason']!r} after a take at the empty stock")
        elif t != "red_three" and not (t == "meld" and self.pickup is not None):
            self.flag("end_of_stock", "the hand goes on after a pile taken at the empty stock (R-06 read literally)")

    def on_take_top(self, e: dict[str, Any]) -> None:
        """House-001's third draw option (R-54, R-156): the top discard alone into the hand."""
        p, c = e["player"], e["card"]
        self.start_turn(p, took=False)
        t = self.turn
        assert t is not None
        if not self.spec.top_card:
            self.flag("r54_take_top", "the top-card option exists only in House-001 (R-54)")
        if not self.stock:
            self.flag("r54_take_top", "the top card taken with the stock empty (R-54: E-CLASSIC applies)")
        if t.barred:
            self.flag("r54_take_top", f"player {p} is barred by the black three discarded before (block_next)")
        if not self.pile or self.pile[-1] != c:
            self.flag("r54_take_top", f"{c} is not the top of the pile {self.pile[-1:]}")
        elif is_wild(c) or c in BLACK3:
            self.flag("r54_take_top", f"top card {c} cannot be taken (R-54, R-56, R-156)")
        self.top_takes["all"] += 1
        self.top_takes["frozen"] += self.frozen()
        self.top_takes["premeld"] += not self.melds[self.side_of[p]]
        self.top_takes["red3"] += is_red3(c)
        self.top_takes["held copy"] += self.hands[p][c] > 0
        self.top_takes["emptied"] += self.pile == [c]
        t.top, t.top_had_copy = c, self.hands[p][c] > 0
        self.top_take_at.append((self.i, t.top_had_copy))
        if self.pile and self.pile[-1] == c:
            self.pile.pop()
        elif c in self.pile:
            self.pile.remove(c)  # follow the transcript (the check above has complained)
        self.hands[p][c] += 1
        if is_red3(c):
            self.expect_r3.append((p, c, "pile"))  # laid out without replacement

    def on_take_pile(self, e: dict[str, Any]) -> None:
        p = e["player"]
        self.take_must_end = self.literal_eos and not self.stock
        self.empty_stock_takes += not self.stock
        held = sum(self.hands[p].values())
        self.start_turn(p, took=True)
        assert self.turn is not None
        self.turn.empty_stock_take = not self.stock
        if e["cards"] != self.pile:
            self.flag("pile", f"take_pile cards differ from the pile {self.pile}")
            self.pile = list(e["cards"])  # follow the transcript (conservation will complain)
        if not self.pile:
            self.flag("take", "empty pile taken")
            return
        if held == 1 and len(self.pile) == 1 and self.spec.one_card_pile_rule:
            self.flag("r20_one_card", f"player {p} holds one card and takes the one-card pile {self.pile}")
        top = self.pile[-1]
        s = self.side_of[p]
        frozen = self.frozen()
        if is_wild(top) or top[0] == "3":
            self.flag("take", f"top card {top} cannot be taken")
        # Boat's blocking is reported under its own name; Classic and House under `take`
        block_check = "r33_blocked" if self.spec.wild_blocks else "take"
        if self.turn.barred:
            self.flag(block_check, f"player {p} is barred by the discard before (block_next)")
        allowed = methods(self.spec, frozen, bool(self.melds[s]))
        state = " and ".join(x for x, on in (("frozen", frozen), ("pre-meld", not self.melds[s])) if on) or "plain"
        self.takes[e["method"], state] += 1
        self.at[f"take {state}"].append(self.i)
        if e["method"] not in allowed:
            self.flag(block_check if frozen else "take", f"method {e['method']} on a {state} pile "
                                                         f"(allowed: {sorted(allowed)})")
        if self.spec.wild_blocks and frozen:
            self.boat["blocked pile taken"] += 1
            self.at["blocked pile taken"].append(self.i)
        nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
        want = {"pair": 3, "natural_wild": 3, "layoff": 1}.get(e["method"], 0)
        mc = nxt.get("cards", [])
        target = self.melds[s][nxt["meld"]] if not nxt.get("new") and 0 <= nxt.get("meld", -1) < len(self.melds[s]) \
            else None
        hold = False
        if self.spec.cap:
            hold = self.check_capped_take(e, top, nxt, target)
        elif nxt.get("event") != "meld" or nxt.get("player") != p or not mc or mc[0] != top or len(mc) != want \
                or any(c[0] != top[0] for c in mc[1:want - (e["method"] == "natural_wild")]) \
                or (e["method"] == "natural_wild" and not is_wild(mc[-1])) \
                or (e["method"] == "layoff" and nxt.get("new")) \
                or nxt.get("kind") != "rank" or (target is not None and target.kind != "rank"):
            self.flag("take", f"the next event {nxt} does not meld the top card {top} by {e['method']} (never onto "
                              f"a wild meld, §3.5 turn step 2)")
        needed = 0 if self.melds[s] else requirement(self.cum0[s], self.spec.meld_table)
        self.pickup = Pickup(p, self.pile[:-1], needed, hold=hold)

    def check_capped_take(self, e: dict[str, Any], top: str, nxt: dict[str, Any], target: Meld | None) -> bool:
        """Pennies and Railroad (§1.4 capped melds, §0, R-92, R-93, R-117): the next event melds T. M3 adds T alone
        to an incomplete meld of its rank. M1 (T and two naturals of its rank) and M2 (T, a natural, a wild) join
        the side's incomplete meld of T's rank if there is one, else start a new meld. When they overflow it, the
        event completes it to exactly 7 and the event after starts the next meld with the rest of the method's
        cards and more naturals of the rank from the hand, 3 or more cards in all. Returns whether that second
        event comes (the pile is picked up after it)."""
        p, method = e["player"], e["method"]
        mc = list(nxt.get("cards", []))
        room = self.spec.cap - len(target.cards) if target is not None else 0
        ok = nxt.get("event") == "meld" and nxt.get("player") == p and nxt.get("kind") == "rank" and mc[:1] == [top]
        if not nxt.get("new"):
            ok = ok and target is not None and target.kind == "rank" and _rank(target) == top[0] and room > 0
        hold = False
        if method == "layoff":
            ok = ok and not nxt.get("new") and mc == [top]
        else:
            body = mc[1:]
            if not nxt.get("new") and 0 < room < 3:  # the take overflows the open meld
                cont = self.evs[self.i + 2] if self.i + 2 < len(self.evs) else {}
                ok = ok and len(mc) == room and cont.get("event") == "meld" and cont.get("player") == p \
                    and cont.get("new") is True and cont.get("kind") == "rank" and len(cont.get("cards", [])) >= 3
                body = body + list(cont.get("cards", []))
                hold = True
                self.seen["take overflowing the open meld"] += 1
                self.at["overflow take"].append(self.i)
            else:
                ok = ok and len(mc) == 3
            wilds = [c for c in body if is_wild(c)]
            ok = ok and len(body) >= 2 and all(c[0] == top[0] for c in body if not is_wild(c)) \
                and len(wilds) == (method == "natural_wild") and all(is_wild(c) for c in wilds)
        if not ok:
            self.flag("take", f"the next event {nxt} does not meld the top card {top} by {method} (capped melds: "
                              f"M3 onto an incomplete meld, an overflow completes it to 7 and starts the next, R-92)")
        return hold

    def on_reshuffle(self, e: dict[str, Any]) -> None:
        """E-RESHUFFLE (R-39): a card is needed from an empty stock, so the whole pile, all of its cards, becomes
        the new stock (shuffled) and the pile is empty and unblocked; right before the `draw` that needs it, or
        before the `red_three` whose replacement needs it. With the pile empty too the hand ends (R-149)."""
        p, new = e["player"], list(e["stock"])
        nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
        self.reshuffled.append((list(self.pile), new))
        self.boat["reshuffle"] += 1
        if self.stock:
            self.flag("r39_reshuffle", f"reshuffle with {len(self.stock)} cards still in the stock")
        if not self.pile:
            self.flag("r39_reshuffle", "reshuffle of an empty pile (with stock and pile empty the hand ends, R-149)")
        if Counter(new) != Counter(self.pile) or len(new) != len(self.pile):
            self.flag("r39_reshuffle", f"the new stock {new} is not the whole pile {self.pile}")
        if self.pickup is not None:
            self.flag("r39_reshuffle", "reshuffle while a taken pile is still to be picked up")
        if nxt.get("event") == "draw":
            nxt_player = (self.dealer + 1) % self.players if self.turn is None else (self.turn.player + 1) % \
                self.players
            if nxt.get("player") != p or p != nxt_player:
                self.flag("r39_reshuffle", f"reshuffle by player {p} before the draw {nxt} (player {nxt_player} "
                                           f"draws next)")
        elif nxt.get("event") == "red_three":
            self.boat["reshuffle for a replacement"] += 1
            pending = self.expect_r3[0] if self.expect_r3 else None
            if nxt.get("player") != p or pending is None or pending[:2] != (p, nxt.get("card")):
                self.flag("r39_reshuffle", f"reshuffle by player {p} before {nxt}, but no red three of player {p} "
                                           f"awaits a replacement ({pending})")
        else:
            self.flag("r39_reshuffle", f"reshuffle followed by {nxt}: no draw or replacement needs it")
        self.stock = new  # follow the transcript (conservation complains about a stock that is not the pile)
        self.pile = []

    def do_pickup(self) -> None:
        pk = self.pickup
        assert pk is not None
        self.pickup = None
        self.pile = []
        for c in pk.rest:
            self.hands[pk.player][c] += 1
            if is_red3(c):
                self.expect_r3.append((pk.player, c, "pile"))

    def on_meld(self, e: dict[str, Any]) -> None:
        p, m, cards, kind = e["player"], e["meld"], e["cards"], e["kind"]
        s = self.side_of[p]
        t = self.turn
        if t is None or t.player != p:
            self.flag("meld", "meld outside the player's turn")
            t = Turn(p, self.turn_no, True, False)
        if e["side"] != s:
            self.flag("meld", f"side {e['side']} but player {p} sits on side {s}")
        if t.opening:
            self.flag("r32_opening", f"player {p} melds on its turn {self.player_turns[p]} (R-32)")
        pk = self.pickup
        held_before = self.hand_with_pile_rest(p)
        t.free_melds += pk is None
        if pk is None and t.pre_meld_hand is None:
            t.pre_meld_hand = Counter(self.hands[p])
        from_pile = pk is not None and not pk.top_melded
        take = from_pile or (pk is not None and pk.hold)  # the take's own meld events (an overflow has two)
        if from_pile:
            assert pk is not None
            pk.top_melded = True
            if self.pile and cards and cards[0] == self.pile[-1]:
                cards_from_hand = cards[1:]
            else:
                self.flag("take", f"meld after take_pile does not start with the top card {self.pile[-1:]}")
                cards_from_hand = cards
            self.pile = self.pile[:-1]
        else:
            cards_from_hand = cards
        for c in cards_from_hand:
            self.take_from_hand(p, c)
        side = self.melds[s]
        if e["new"]:
            if m != len(side):
                self.flag("meld", f"new meld numbered {m}, the side has {len(side)}")
            side.append(Meld(kind, list(cards), t.number, p))
            meld = side[-1]
            if len(cards) < 3:
                self.flag("meld", f"a new meld of {len(cards)} cards")
            before = 0
            cap = self.spec.cap
            if kind == "rank":
                nat = [c for c in cards if not is_wild(c)]
                same = [o for o in side[:-1] if o.kind == "rank" and nat and _rank(o) == nat[0][0]]
                if cap is None and same:
                    self.flag("meld", f"a second meld of rank {nat[0][0]}")
                elif cap is not None and any(len(o.cards) < cap for o in same):
                    self.flag("r92_capped_meld", f"a new meld of rank {nat[0][0]} while the side's meld of that rank "
                                                 f"is incomplete (R-92)")
                self.seen["new meld of a rank with a canasta"] += bool(same)
            if kind == "wild" and cap is None and any(o.kind == "wild" for o in side[:-1]):
                self.flag("r35_wild_meld", "a second wild meld of the side (one per side, R-35)")
            elif kind == "wild" and cap is not None and any(o.kind == "wild" and len(o.cards) < cap for o in side[:-1]):
                self.flag("r91_wild_meld", "a new wild meld while the side's wild meld is incomplete (R-91)")
        else:
            if not 0 <= m < len(side):
                self.flag("meld", f"added to meld {m} of {len(side)}")
                return
            meld = side[m]
            if meld.kind != kind or kind == "black3":
                self.flag("meld", f"added to a {meld.kind} meld as {kind}")
            before = len(meld.cards)
            if self.spec.cap is not None and before >= self.spec.cap and kind != "black3":
                self.flag("r92_capped_meld", f"cards added to a closed meld of {before} cards (R-92)")
            meld.cards += cards
            if meld.turn != t.number or meld.player != p:
                t.added_old = True
        self.check_meld(meld)
        if e.get("whole") != meld.cards:  # DESIGN.md: the whole meld after this event, in the order laid
            self.flag("meld", f"whole {e.get('whole')} but the meld holds {meld.cards}")
        t.laid = True
        if kind == "black3":
            t.black3 = True
            if self.spec.black3_close_bonus:
                self.check_black3_close(e, pk)
        if kind == "wild":
            self.boat["wild meld"] += 1
            self.boat["wild canasta"] += len(meld.cards) >= 7 > len(meld.cards) - len(cards)
        if not t.side_melded_before:
            t.meld_value += sum(self.value(c) for c in cards)
        if self.spec.cap is not None and kind in ("rank", "wild") and before < self.spec.cap <= len(meld.cards):
            # the player placed the 7th card: the foot (kitty) comes after the discard
            ck = canasta_kind(kind, meld.cards)
            self.seen[f"{ck} canasta"] += 1
            if self.spec.foot_any_canasta or ck != "mixed":
                t.completed = True
        if pk is not None:
            pk.value += sum(self.value(c) for c in cards)
            if from_pile and pk.hold:
                pass  # the overflow's second meld, from the hand, comes before the pick-up
            elif pk.value >= pk.needed:
                self.do_pickup()
        self.check_sevens_left(p, held_before, take)

    def hand_with_pile_rest(self, p: int) -> Counter[str]:
        """Player p's hand and the rest of a pile p took that is still to be picked up (its red threes are laid
        out, not held)."""
        held = Counter({c: n for c, n in self.hands[p].items() if not is_red3(c)})  # a red three is exposed
        if self.pickup is not None and self.pickup.player == p:
            held.update(c for c in self.pickup.rest if not is_red3(c))
        return +held

    def check_sevens_left(self, p: int, before: Counter[str], take: bool) -> None:
        """Pennies §3.8 turn step 8, the seed: "you are not allowed to meld all your other cards, leaving yourself
        only with sevens; you must keep at least one legal discard". No pile take and no meld leaves the hand
        (with a taken pile's rest still to come) holding sevens only while sevens may not be discarded (R-97),
        counting a sevens canasta this very meld completes; a hand emptied is going out or the foot (R-95). Only a
        hand that already was sevens only (sevens drawn to a last seven) may meld them down, and never by a take:
        a take is a choice, the draw the way to avoid the all-sevens end. A turn that drew a red three as the last
        stock card has no discard at all and ends the hand by the stock (R-05), so its melds are free of this."""
        if not self.spec.sevens_end or self.sevens_discardable() or (self.turn is not None and self.turn.last_red3):
            return
        held = self.hand_with_pile_rest(p)
        if not held or any(c[0] != "7" for c in held):
            return
        if not take and before and all(c[0] == "7" for c in before):
            return
        self.flag("sevens_left", f"player {p}'s {'pile take' if take else 'meld'} leaves {sorted(held.elements())}, "
                                 f"sevens only, while sevens may not be discarded (§3.8 turn step 8, R-97)")

    def check_black3_close(self, e: dict[str, Any], pk: Pickup | None) -> None:
        """R-37 (Boat): black threes are melded only in the four-black-three close: after the player's other
        melds the hand is exactly the four black threes, melded at once as a new meld, and the player closes
        at once with no discard (the closing conditions are those of `go_out`)."""
        p = e["player"]
        nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
        self.boat["black3 close"] += 1
        if not e["new"] or sorted(e["cards"]) != sorted(["3S", "3S", "3C", "3C"]) or pk is not None \
                or sum(self.hands[p].values()) or nxt.get("event") != "go_out" or nxt.get("player") != p:
            self.flag("r37_black3_close", f"black threes {e['cards']} melded (new {e['new']}) leaving "
                                          f"{self.hand_cards(p)} in hand, next event {nxt}: only the four black "
                                          f"threes as the last cards of the hand, then the close (R-37)")

    def check_meld(self, meld: Meld) -> None:
        """§1.4: Classic and House-003 n >= 2, w <= 3 (R-14, R-75); House-001 also w < n (R-65); Boat w < n with
        no cap (R-36), wild melds of 3+ wilds only (R-35), black threes only as the four-black-three close."""
        cards = meld.cards
        black3_max = self.spec.black3_max
        if meld.kind == "black3":  # Pennies 3..7, Railroad any number from 3
            if any(c not in BLACK3 for c in cards) or len(cards) < self.spec.black3_min \
                    or (black3_max is not None and len(cards) > black3_max):
                self.flag("meld", f"black-three meld {cards}")
            return
        if self.spec.cap is not None and len(cards) > self.spec.cap:
            self.flag("r92_capped_meld", f"{meld.kind} meld {cards} of {len(cards)} cards (at most 7, R-92)")
        if meld.kind == "wild" and self.spec.wild_melds:
            if len(cards) < 3 or any(not is_wild(c) for c in cards):
                check = "r91_wild_meld" if self.spec.cap else "r35_wild_meld"
                self.flag(check, f"wild meld {cards}: 3+ jokers and 2s only, never a natural (R-35, R-91)")
            return
        if meld.kind != "rank":
            self.flag("meld", f"kind {meld.kind} does not exist in {self.variant}")
            return
        nat = [c for c in cards if not is_wild(c)]
        wild = len(cards) - len(nat)
        cap = self.spec.max_wilds
        if len(nat) < 2 or (cap is not None and wild > cap) or len({c[0] for c in nat}) != 1 or nat[0][0] == "3" \
                or (self.spec.wilds_below_naturals and wild >= len(nat)):
            self.flag("meld", f"rank meld {cards}: {len(nat)} naturals, {wild} wilds")
        if self.spec.sevens_canasta and wild and nat and nat[0][0] == "7":
            self.flag("r97_sevens", f"meld of sevens {cards} with a wild (R-97, R-118)")

    def on_ask(self, e: dict[str, Any]) -> None:
        p, q = e["player"], e["partner"]
        t = self.turn
        if q == p or self.side_of[q] != self.side_of[p] or t is None or t.player != p:
            self.flag("ask", f"player {p} asked {q}")
            return
        # at most once a turn, once the draw step is complete (a taken pile picked up), before any
        # other meld
        if t.answer is not None or self.pickup is not None or t.free_melds:
            self.flag("r07_ask", f"ask after {t.free_melds} meld(s), pile pending {self.pickup is not None}, "
                                 f"earlier answer {t.answer}")
        if t.opening:  # only a player who could close may ask; nobody closes in the opening rounds
            self.flag("r32_opening", f"player {p} asks on its turn {self.player_turns[p]} (R-32, R-07)")
        t.answer = bool(e["answer"])

    def on_discard(self, e: dict[str, Any]) -> None:
        p, c = e["player"], e["card"]
        t = self.turn
        if t is None or t.player != p:
            self.flag("turn_order", "discard outside the player's turn")
        elif t.last_red3:
            self.flag("r05_last_red_three", f"player {p} discards after drawing a red three as the last stock card")
        elif t.top == c and not t.top_had_copy:
            self.flag("r54_take_top", f"player {p} discards {c}, the card it took from the top this turn (R-54)")
        if t is not None and t.player == p:
            if t.discarded:
                self.flag("turn_order", f"player {p} discards twice in one turn")
            t.discarded = True
        if c[0] == "7" and not self.sevens_discardable():
            self.flag("r97_sevens", f"player {p} discards a seven; sevens canastas by side "
                                    f"{[self.sevens_canasta(s) for s in range(len(self.sides))]} (R-97)")
        if self.pickup is not None:
            self.flag("take", "discard before the pile was picked up")
            self.do_pickup()
        self.take_from_hand(p, c)
        self.pile.append(c)
        if c in BLACK3 or (self.spec.wild_blocks and is_wild(c)):
            self.barred = (p + 1) % self.players  # block_next: the next player only (Boat: wilds too, R-33)

    def on_go_out(self, e: dict[str, Any]) -> None:
        p = e["player"]
        t = self.turn
        if t is None or t.player != p:
            self.flag("go_out", "going out outside the player's turn")
            return
        if sum(self.hands[p].values()):
            self.flag("go_out", f"player {p} goes out holding {self.hand_cards(p)}")
        if t.answer is False:
            self.flag("r07_ask", f"player {p} goes out after a no")
        if t.last_red3:
            self.flag("r05_last_red_three", f"player {p} goes out after drawing a red three as the last stock card")
        if t.opening:
            self.flag("r32_opening", f"player {p} closes on its turn {self.player_turns[p]} (R-32)")
        prev = self.evs[self.i - 1]
        if self.spec.final_discard and (prev["event"] != "discard" or prev["player"] != p):
            self.flag("r58_final_discard", f"player {p} goes out after {prev}, not after a final discard")
        t.out = True
        s = self.side_of[p]
        canastas = self.canastas(s)  # Boat: a canasta of any kind, wild ones included (§3.5 turn step 5)
        if canastas < self.spec.canastas_to_go_out:
            melds = [" ".join(m.cards) for m in self.melds[s]]
            self.flag("go_out_canastas", f"side {s} goes out with {canastas} canasta(s), melds {melds}")
        if self.spec.four_kinds_to_go_out:  # §2 row 30: a natural, a mixed, a wild and a sevens canasta
            missing = {"natural", "mixed", "wild", "sevens"} - {canasta_kind(m.kind, m.cards) for m in self.melds[s]}
            if missing:
                self.flag("go_out_canastas", f"side {s} goes out without a {' / '.join(sorted(missing))} canasta")
        if self.spec.foot_size and (self.foot_due(p) or t.foot is not None):
            self.flag("foot", f"player {p} goes out while its foot is due or picked up this turn ({t.foot}): it is "
                              f"not out (R-95, R-114, R-159)")
        if not self.spec.sevens_discard and prev["event"] == "discard" and prev["card"][0] == "7":
            self.flag("r97_sevens", f"player {p} goes out by discarding a seven (R-97)")
        self.seen["out by melding" if prev["event"] == "meld" else "out by discarding"] += 1
        # nothing laid on an earlier turn, nothing added to older melds, a canasta of its own this turn;
        # House-001 and House-003 have no concealed going out
        own = any(m.kind == "rank" and len(m.cards) >= 7 and m.turn == t.number and m.player == p
                  for m in self.melds[s])
        concealed = self.spec.concealed_bonus and not self.laid_before[p] and not t.added_old and own
        if e["concealed"] != concealed:
            rule = "R-13" if self.spec.concealed_bonus else "R-62/R-77 (no concealed going out)"
            self.flag("go_out", f"concealed is {e['concealed']}, {rule} gives {concealed}")
        self.out = (p, concealed)
        self.boat["closed by melding"] += prev["event"] == "meld"
        self.boat["closed by discarding"] += prev["event"] == "discard"

    def on_foot(self, e: dict[str, Any]) -> None:
        """Pennies R-95, Railroad R-114: a player picks up its own foot, the cards dealt to it, once a hand: right
        after its discard on the turn it first placed the 7th card of a canasta (Railroad: not a mixed one), or in
        Pennies at once when its hand empties by melding while the pick-up is due (R-95, R-159), never by
        melding in Railroad (R-152). Its red threes are then exposed and replaced from the stock (R-96)."""
        p, cards = e["player"], list(e["cards"])
        t = self.turn
        prev = self.evs[self.i - 1]
        after = prev.get("event") == "discard" and prev.get("player") == p
        mid = prev.get("event") == "meld" and prev.get("player") == p and not sum(self.hands[p].values()) \
            and self.spec.midturn_foot and self.pickup is None
        if t is None or t.player != p:
            self.flag("foot", f"player {p} picks up a foot outside its turn")
        elif not self.foot_due(p):
            self.flag("foot", f"player {p} picks up its foot (taken before: {self.foot_taken[p]}) without placing the "
                              f"7th card of a canasta this turn{'' if self.spec.foot_any_canasta else ' (not mixed)'} "
                              f"(R-95, R-114)")
        if not (after or mid) or (t is not None and t.last_red3):
            self.flag("foot", f"player {p} picks up its foot after {prev}: only after its discard, or in Pennies "
                              f"when melding empties its hand, never on a turn that ends the hand without a "
                              f"discard (R-95, R-152, R-153, R-159)")
        if p < len(self.feet_dealt) and cards != self.feet_dealt[p]:
            self.flag("foot", f"foot {cards} is not the foot dealt to player {p}, {self.feet_dealt[p]}")
        if t is not None and t.player == p:
            t.foot = "mid" if mid else "after"
        self.seen["foot mid-turn" if mid else "foot after the discard"] += 1
        if after and not sum(self.hands[p].values()):
            self.seen["foot after emptying the hand by the discard"] += 1
            self.at["foot after emptying the hand"].append(self.i)
        self.at["foot"].append(self.i)
        if p < len(self.foot_taken):
            self.foot_taken[p] = True
        foot = self.feet[p] if p < len(self.feet) else Counter()
        for c in cards:
            if foot[c] > 0:
                foot[c] -= 1
            else:
                self.flag("conservation", f"{c} is not in player {p}'s foot")
            self.hands[p][c] += 1
            if is_red3(c):  # exposed and replaced from the stock
                self.expect_r3.append((p, c, "foot"))
                self.seen["red three in a foot"] += 1
        if sum(foot.values()):
            self.flag("foot", f"player {p} leaves {sorted(foot.elements())} of its foot")

    def on_hand_end(self, e: dict[str, Any]) -> None:
        t = self.turn
        if t is not None and t.last_red3 and e["reason"] != "stock":
            self.flag("r05_last_red_three", "the hand after the last stock card, a red three, ends otherwise")
        if e["reason"] == "stock" and t is not None and not t.last_red3 \
                and not (self.literal_eos and t.empty_stock_take) and not self.spec.reshuffle \
                and not self.spec.voluntary_end:  # E-VOLUNTARY (R-99, R-120): no take is forced
            self.check_forced_take((t.player + 1) % self.players)
        reason = e["reason"]
        if reason == "sevens":
            self.check_sevens_end(t)
        self.seen[f"hand end {reason}"] += 1
        if self.spec.reshuffle:  # the hand ends by the stock only with stock and pile both empty
            if reason == "stock" and (self.stock or self.pile):
                self.flag("r149_stock_end", f"the hand ends by the stock with {len(self.stock)} stock and "
                                            f"{len(self.pile)} pile cards")
            if t is not None and t.stock_end and reason != "stock":
                self.flag("r149_stock_end", f"a replacement found stock and pile empty, the hand ends by {reason!r}")
            self.boat["stock end"] += reason == "stock"
        # the safeguard ends a hand with reason `cap` at max_turns_per_hand turns, and only there
        if self.turn_no > self.spec.max_turns or (reason == "cap" and self.turn_no != self.spec.max_turns):
            self.flag("r150_cap", f"the hand ends by {reason!r} after {self.turn_no} turns (cap "
                                  f"{self.spec.max_turns})")
        self.boat["cap"] += reason == "cap"
        self.end_turn()
        if e["hand"] != self.hand_no:
            self.flag("hand_end", f"hand {e['hand']} ends during hand {self.hand_no}")
        if reason == "out":
            if self.out is None or e["out_player"] != self.out[0]:
                self.flag("hand_end", f"reason out, out_player {e['out_player']}, go_out {self.out}")
        else:
            if self.out is not None or e["out_player"] is not None:
                self.flag("hand_end", f"reason {reason} after go_out {self.out}")
            if reason == "stock" and self.stock:
                self.flag("hand_end", f"hand ended on the stock with {len(self.stock)} cards left")
        concealed = self.out is not None and self.out[1]
        black3_close = t is not None and t.out and t.black3 and bool(self.spec.black3_close_bonus)
        scores = []
        for s, seats in enumerate(self.sides):
            going_out = 0
            if reason == "out" and e["out_player"] is not None and self.side_of[e["out_player"]] == s:
                going_out = self.spec.black3_close_bonus if black3_close else 200 if concealed \
                    else self.spec.going_out_bonus
            # the dealing bonus to the dealer's side, in `other`
            other = self.spec.exact_deal if self.exact and s == self.side_of[self.dealer] else 0
            # the side's feet still face down, at card values (a red three: Pennies -100,
            # Railroad 0), in `other`
            face_down = [p for p in seats if self.spec.foot_size and not self.foot_taken[p]]
            unpicked = [c for p in face_down for c in self.feet[p].elements()]
            other -= foot_cost(self.spec, unpicked)
            self.seen["foot left face down at the hand end"] += len(face_down)
            self.seen["red three in a foot left face down"] += sum(map(is_red3, unpicked))
            check = "r154_other" if self.spec.foot_size else "exact_deal"
            if s < len(e["scores"]) and e["scores"][s].get("other") != other:
                self.flag(check, f"side {s} other {e['scores'][s].get('other')}, the dealing bonus and the feet face "
                                 f"down give {other} (exact_deal {self.exact}, dealer {self.dealer}, feet face down "
                                 f"{face_down})")
            score = side_score(self.spec, [(m.kind, m.cards) for m in self.melds[s]], len(self.red3[s]),
                               [c for p in seats for c in self.hands[p].elements()], going_out, other)
            self.totals[s] += score["total"]
            scores.append({"side": s, **score})
        if e["scores"] != scores:
            self.flag("score", f"recomputed {scores}")
        if e["totals"] != self.totals:
            self.flag("score", f"cumulative totals recomputed as {self.totals}")
        self.hand_ends.append(e)
        # §1.13, R-03, R-78: the game ends after the first hand that leaves a unique leader at (House-003: over)
        # the target, and only then (or at the safeguard of 200 hands)
        nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
        if self.game_over() and nxt.get("event") != "game_end":
            self.flag("game_end", f"totals {self.totals} end the game, but the next event is {nxt.get('event')}")
        if not self.game_over() and nxt.get("event") == "game_end" and not nxt.get("capped"):
            self.flag("game_end", f"the game ends with totals {self.totals} (target {self.spec.target}, "
                                  f"{'strictly over' if self.spec.target_strict else 'reached'})")

    def check_sevens_end(self, t: Turn | None) -> None:
        """Pennies §3.8 step 8: the hand ends (reason `sevens`, no going-out bonus, no discard, no foot pick-up,
        R-153) when the player's hand at the discard step is nothing but sevens and sevens may not be discarded
        (R-97); the player may not have melded its way into such a hand."""
        if not self.spec.sevens_end or t is None:
            self.flag("sevens_end", "reason sevens outside Pennies")
            return
        t.sevens_end = True
        p = t.player
        held = self.hand_cards(p)
        before = sorted((t.pre_meld_hand or self.hands[p]).elements())
        if t.discarded or t.foot is not None or not held or any(c[0] != "7" for c in held) \
                or self.sevens_discardable() or any(c[0] != "7" for c in before):
            self.flag("sevens_end", f"player {p} holds {held} ({before} before melding), discarded {t.discarded}, "
                                    f"foot {t.foot}, sevens discardable {self.sevens_discardable()}")

    def check_forced_take(self, q: int) -> None:
        """E-CLASSIC step 2 (R-06): at the empty stock, player q must take the pile when its top card can be laid
        off on q's side's meld, the pile is not frozen and the side has melded (unless R-20 forbids the take)."""
        if not self.pile:
            return
        top = self.pile[-1]
        s = self.side_of[q]
        layoff = any(m.kind == "rank" and _rank(m) == top[0] for m in self.melds[s])
        one_card = sum(self.hands[q].values()) == 1 and len(self.pile) == 1
        if layoff and not is_wild(top) and top[0] != "3" and not self.frozen() and self.barred != q \
                and not one_card:
            self.flag("r06_forced_take", f"the hand ends at the empty stock, but player {q} had to take the pile "
                                         f"{self.pile} (its top card fits side {s}'s meld)")

    def game_over(self) -> bool:
        best = max(self.totals)
        reached = best > self.spec.target if self.spec.target_strict else best >= self.spec.target
        return reached and self.totals.count(best) == 1

    def on_game_end(self, e: dict[str, Any]) -> None:
        if e["totals"] != self.totals:
            self.flag("score", f"final totals recomputed as {self.totals}")
        best = max(self.totals)
        leaders = [s for s, v in enumerate(self.totals) if v == best]
        winner = leaders[0] if len(leaders) == 1 else None
        if e["winner"] != winner or (not e["capped"] and not self.game_over()):
            self.flag("score", f"winner {e['winner']} with totals {self.totals}, capped {e['capped']}")
        if e["capped"] != (len(self.hand_ends) == self.spec.max_hands and not self.game_over()):
            self.flag("r150_cap", f"capped {e['capped']} after {len(self.hand_ends)} hands (cap {self.spec.max_hands})")
        if self.i != len(self.evs) - 1:
            self.flag("score", "events after game_end")


def _rank(m: Meld) -> str:
    return next((c[0] for c in m.cards if not is_wild(c)), "?")


@cache
def transcript(variant: str, strategies: tuple[str, ...], seed: int, game: int) -> tuple[dict[str, Any], ...]:
    return tuple(events(make_job(variant, strategies, seed), game))


@cache
def replay(variant: str, strategies: tuple[str, ...], seed: int, game: int) -> Replay:
    return Replay(variant, list(transcript(variant, strategies, seed, game)))


def assert_clean(variant: str, check: str) -> None:
    found = []
    for strategies, seed, game in cases(variant):
        for msg in replay(variant, strategies, seed, game).issues.get(check, [])[:3]:
            found.append(f"{'+'.join(strategies)} seed {seed} game {game}: {msg}")
    assert not found, f"{len(found)} {check} problem(s):\n" + "\n".join(found)


def assert_tamper_flagged(case: tuple[str, tuple[str, ...], int, int], tamper: Any, check: str) -> None:
    """The game replays clean under `check`, and the same game tampered by `tamper` is flagged by it."""
    variant, strategies, seed, game = case
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    assert not Replay(variant, list(evs)).issues.get(check)
    tamper(evs)
    assert Replay(variant, evs).issues.get(check)

