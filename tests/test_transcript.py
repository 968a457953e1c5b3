"""An independent replayer for Classic and House transcripts (docs/transcript.md, DESIGN.md "Interfaces").

The replayer reads nothing but the events of `sim.transcript.events` and rebuilds the table card by card:
stock (top first), pile (bottom first), every hand, every meld and every red-three area. The state always
follows what the transcript says happened; every disagreement with the documented format or with the rules
of the variant is recorded under a named check, and each test asserts that one check is clean. Variants:
Classic (classic-2p/3p/4p/6p: VARIANTS.md §1, §3.1-3.4), House-001 (house-001-2p/3p/4p: §3.6, R-50..R-66,
R-156..R-158) and House-003 (house-003-4p: §3.7, R-70..R-81, R-157, R-158). Rule values (card values,
red-three points, draw counts, pack and stock sizes, pile-taking methods, dealing direction, the dealing bonus,
the game target) are written out here in `Spec` from VARIANTS.md, not read from the engine.
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from sim.results import play
from sim.rules import get_variant, with_rules
from sim.runner import make_job
from sim.transcript import events

# VARIANTS.md §2 rows 2-5, 8, 9, 13, 14, 18, 20, 22, 25, 30, 31, 34, 38, 39 ----------------------------------

RANKS = "A23456789TJQK"
SUITS = "SHDC"
VALUE = {"A": 20, "2": 20, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5,
         "8": 10, "9": 10, "T": 10, "J": 10, "Q": 10, "K": 10}
RED3 = ("3H", "3D")  # exposed in this order from one hand
BLACK3 = ("3S", "3C")
EVENTS = {"game", "deal", "red_three", "draw", "take_pile", "take_top", "meld", "ask", "discard", "go_out",
          "hand_end", "game_end"}  # the events of these variants (DESIGN.md; `take_top` House-001 only)

# pile-taking methods (§0): M1 pair, M2 natural + wild, M3 lay-off
ANY_METHOD = frozenset({"pair", "natural_wild", "layoff"})
PAIR = frozenset({"pair"})
PAIR_OR_WILD = frozenset({"pair", "natural_wild"})

TWO_TEAMS = ((0, 2), (1, 3))  # partners opposite


@dataclass(frozen=True)
class Spec:
    decks: int
    hand_size: int
    stock_after_deal: int  # before the upcard(s) beyond the first and before red-three replacements
    draw: int
    black3_max: int
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
VARIANTS = list(SPECS)
HOUSE = [v for v in VARIANTS if v.startswith("house-")]

# About three games per variant: random against random, and baseline against random in both seatings
# (odd game indices rotate the strategies by one seat: duplicate deals).
CASES = [(("random",), 1, 0), (("baseline", "random"), 1, 1), (("baseline", "random"), 7, 2)]
# One more game where those three deal no exact-deal bonus (R-04, p = 0.1 a hand), so that it is checked too
VARIANT_CASES: dict[str, list[tuple[tuple[str, ...], int, int]]] = {
    "house-001-3p": [*CASES, (("baseline", "random"), 7, 3)],
    "house-003-4p": [*CASES, (("baseline", "random"), 7, 6)],
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
    return 800 if k == 4 else 100 * k


def requirement(score: int) -> int:
    """Initial-meld minimum from the side's cumulative score at the start of the hand (§3.1 setup 2; House-001
    R-53 and House-003 R-79 take the same table, the negative bracket included)."""
    return 15 if score < 0 else 50 if score < 1500 else 90 if score < 3000 else 120


def methods(spec: Spec, frozen: bool, melded: bool) -> frozenset[str]:
    """The pile-taking methods allowed (§2 rows 12-14); frozen and not yet melded is the intersection (R-157)."""
    allowed = ANY_METHOD
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


@dataclass
class Pickup:
    """A taken pile whose top is melded but whose rest is not yet in the hand."""

    player: int
    rest: list[str]
    needed: int  # value the turn's melds must reach before the rest is picked up (0: at once)
    value: int = 0
    top_melded: bool = False


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
        if [list(s) for s in self.spec.sides] != self.sides:
            self.flag("sides", f"sides {self.sides}, §2 row 3 gives {[list(s) for s in self.spec.sides]}")
        self.run()

    # bookkeeping -------------------------------------------------------------------------------------------

    def flag(self, check: str, message: str) -> None:
        self.issues[check].append(f"event {self.i} {self.evs[self.i]}: {message}")

    def value(self, card: str) -> int:
        return value(card, self.spec.eight)

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
        return c

    def hand_cards(self, p: int) -> list[str]:
        return sorted(self.hands[p].elements())

    def frozen(self) -> bool:
        """A wild or a red three anywhere in the pile (a covered upcard or a discarded wild): frozen until taken.
        In House-001 a top-card take can leave such a card on top; the pile stays frozen while it holds it."""
        return any(is_wild(c) or is_red3(c) for c in self.pile)

    # the event loop ---------------------------------------------------------------------------------------------

    def run(self) -> None:
        for i in range(1, len(self.evs)):
            self.i = i
            e = self.evs[i]
            t = e["event"]
            if t != "red_three" and self.i > 1:
                if self.expect_r3:
                    self.flag("red3_order", f"red threes {self.expect_r3} were never exposed")
                    self.expect_r3.clear()
                for p in range(self.players):
                    if any(self.hands[p][c] for c in RED3):
                        self.flag("red3_in_hand", f"player {p} holds {self.hand_cards(p)}")
            if self.take_must_end:
                self.check_literal_end(e)
            if t not in EVENTS or t == "game":
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
        if nxt.get("event") != "go_out" or nxt.get("player") != p:
            self.flag("empty_hand", f"player {p}'s hand is empty and the next event {nxt} is not its go_out")
        if e["event"] == "meld" and self.spec.final_discard:
            self.flag("r58_final_discard", f"player {p} melds the last card (R-58: going out needs a discard)")

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
        if e["feet"]:
            self.flag("deal", "these variants have no feet")
        if any(len(h) != spec.hand_size for h in e["hands"]) or len(e["hands"]) != self.players:
            self.flag("deal", f"hands of {[len(h) for h in e['hands']]} cards, expected {spec.hand_size}")
        # §1.3: wild and red-three upcards are covered; the final upcard is neither
        if not self.pile or is_wild(self.pile[-1]) or is_red3(self.pile[-1]):
            self.flag("deal", f"pile {self.pile} does not end in a takeable-rank upcard")
        if any(not (is_wild(c) or is_red3(c)) for c in self.pile[:-1]):
            self.flag("deal", f"covered upcards {self.pile[:-1]} include a card that is neither wild nor a red three")
        if len(self.stock) != spec.stock_after_deal - (len(self.pile) - 1):
            self.flag("deal", f"stock of {len(self.stock)} cards after the deal")
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
        if not self.expect_r3:
            self.flag("red3_order", "red three not expected here")
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
            elif self.turn is not None and self.turn.player == p:
                self.turn.last_red3 = True  # drawn as the last stock card
        else:
            if not self.stock or self.stock[0] != rep:
                self.flag("replacement", f"replacement {rep} is not the stock top {self.stock[:1]}")
            self.take_from_stock(rep)
            self.hands[p][rep] += 1
            if is_red3(rep):
                self.expect_r3.insert(0, (p, rep, "stock"))  # a red-three replacement is exposed at once

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
        self.turn = Turn(p, self.turn_no, bool(self.melds[self.side_of[p]]), took, barred=self.barred == p)
        self.barred = None  # block_next lasts the barred player's turn only

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
            need = requirement(self.cum0[self.side_of[t.player]])
            if t.meld_value < need:
                self.flag("initial_meld", f"player {t.player} opened with {t.meld_value} < {need}")
        if t.laid:
            self.laid_before[t.player] = True
        if t.answer and not t.out:
            self.flag("r07_ask", f"player {t.player} was told yes and did not go out this turn")

    def on_draw(self, e: dict[str, Any]) -> None:
        p, cards = e["player"], e["cards"]
        self.start_turn(p, took=False)
        # the stock order: each drawn card, then the replacement(s) of a drawn red three (§1.2, §1.5)
        pos, j, seq_ok = 0, self.i + 1, True
        for c in cards:
            if pos >= len(self.stock) or self.stock[pos] != c:
                seq_ok = False
            pos += 1
            cur = c
            while is_red3(cur):
                r = self.evs[j] if j < len(self.evs) else {}
                j += 1
                if r.get("event") != "red_three" or r.get("player") != p or r.get("card") != cur:
                    self.flag("red3_order", f"drawn {cur} is not followed by its red_three event")
                    break
                cur = r["replacement"]
                if cur is None:
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
        for c in cards:
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
        if held == 1 and len(self.pile) == 1:
            self.flag("r20_one_card", f"player {p} holds one card and takes the one-card pile {self.pile}")
        top = self.pile[-1]
        s = self.side_of[p]
        frozen = self.frozen()
        if is_wild(top) or top[0] == "3":
            self.flag("take", f"top card {top} cannot be taken")
        if self.turn.barred:
            self.flag("take", f"player {p} is barred by the black three discarded before (block_next)")
        allowed = methods(self.spec, frozen, bool(self.melds[s]))
        state = " and ".join(x for x, on in (("frozen", frozen), ("pre-meld", not self.melds[s])) if on) or "plain"
        self.takes[e["method"], state] += 1
        if e["method"] not in allowed:
            self.flag("take", f"method {e['method']} on a {state} pile (allowed: {sorted(allowed)})")
        nxt = self.evs[self.i + 1] if self.i + 1 < len(self.evs) else {}
        want = {"pair": 3, "natural_wild": 3, "layoff": 1}.get(e["method"], 0)
        mc = nxt.get("cards", [])
        if nxt.get("event") != "meld" or nxt.get("player") != p or not mc or mc[0] != top or len(mc) != want \
                or any(c[0] != top[0] for c in mc[1:want - (e["method"] == "natural_wild")]) \
                or (e["method"] == "natural_wild" and not is_wild(mc[-1])) \
                or (e["method"] == "layoff" and nxt.get("new")):
            self.flag("take", f"the next event {nxt} does not meld the top card {top} by {e['method']}")
        needed = 0 if self.melds[s] else requirement(self.cum0[s])
        self.pickup = Pickup(p, self.pile[:-1], needed)

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
        pk = self.pickup
        t.free_melds += pk is None
        from_pile = pk is not None and not pk.top_melded
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
            if kind == "rank":
                nat = [c for c in cards if not is_wild(c)]
                if nat and any(o.kind == "rank" and _rank(o) == nat[0][0] for o in side[:-1]):
                    self.flag("meld", f"a second meld of rank {nat[0][0]}")
        else:
            if not 0 <= m < len(side):
                self.flag("meld", f"added to meld {m} of {len(side)}")
                return
            meld = side[m]
            if meld.kind != kind or kind == "black3":
                self.flag("meld", f"added to a {meld.kind} meld as {kind}")
            meld.cards += cards
            if meld.turn != t.number or meld.player != p:
                t.added_old = True
        self.check_meld(meld)
        if e.get("whole") != meld.cards:  # DESIGN.md: the whole meld after this event, in the order laid
            self.flag("meld", f"whole {e.get('whole')} but the meld holds {meld.cards}")
        t.laid = True
        if kind == "black3":
            t.black3 = True
        if not t.side_melded_before:
            t.meld_value += sum(self.value(c) for c in cards)
        if pk is not None:
            pk.value += sum(self.value(c) for c in cards)
            if pk.value >= pk.needed:
                self.do_pickup()

    def check_meld(self, meld: Meld) -> None:
        """§1.4: Classic and House-003 n >= 2, w <= 3 (R-14, R-75); House-001 also w < n (R-65)."""
        cards = meld.cards
        if meld.kind == "black3":
            if any(c not in BLACK3 for c in cards) or not 3 <= len(cards) <= self.spec.black3_max:
                self.flag("meld", f"black-three meld {cards}")
            return
        if meld.kind != "rank":
            self.flag("meld", f"kind {meld.kind} does not exist in {self.variant}")
            return
        nat = [c for c in cards if not is_wild(c)]
        wild = len(cards) - len(nat)
        if len(nat) < 2 or wild > 3 or len({c[0] for c in nat}) != 1 or nat[0][0] == "3" \
                or (self.spec.wilds_below_naturals and wild >= len(nat)):
            self.flag("meld", f"rank meld {cards}: {len(nat)} naturals, {wild} wilds")

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
        if self.pickup is not None:
            self.flag("take", "discard before the pile was picked up")
            self.do_pickup()
        self.take_from_hand(p, c)
        self.pile.append(c)
        if c in BLACK3:
            self.barred = (p + 1) % self.players  # block_next: the next player only

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
        prev = self.evs[self.i - 1]
        if self.spec.final_discard and (prev["event"] != "discard" or prev["player"] != p):
            self.flag("r58_final_discard", f"player {p} goes out after {prev}, not after a final discard")
        t.out = True
        s = self.side_of[p]
        canastas = sum(m.kind == "rank" and len(m.cards) >= 7 for m in self.melds[s])
        if canastas < self.spec.canastas_to_go_out:
            melds = [" ".join(m.cards) for m in self.melds[s]]
            self.flag("go_out_canastas", f"side {s} goes out with {canastas} canasta(s), melds {melds}")
        # nothing laid on an earlier turn, nothing added to older melds, a canasta of its own this turn;
        # House-001 and House-003 have no concealed going out
        own = any(m.kind == "rank" and len(m.cards) >= 7 and m.turn == t.number and m.player == p
                  for m in self.melds[s])
        concealed = self.spec.concealed_bonus and not self.laid_before[p] and not t.added_old and own
        if e["concealed"] != concealed:
            rule = "R-13" if self.spec.concealed_bonus else "R-62/R-77 (no concealed going out)"
            self.flag("go_out", f"concealed is {e['concealed']}, {rule} gives {concealed}")
        self.out = (p, concealed)

    def on_hand_end(self, e: dict[str, Any]) -> None:
        t = self.turn
        if t is not None and t.last_red3 and e["reason"] != "stock":
            self.flag("r05_last_red_three", "the hand after the last stock card, a red three, ends otherwise")
        if e["reason"] == "stock" and t is not None and not t.last_red3 \
                and not (self.literal_eos and t.empty_stock_take):
            self.check_forced_take((t.player + 1) % self.players)
        self.end_turn()
        reason = e["reason"]
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
        scores = []
        for s, seats in enumerate(self.sides):
            melds = self.melds[s]
            melded = sum(self.value(c) for m in melds for c in m.cards)
            canastas = sum(300 if any(is_wild(c) for c in m.cards) else 500
                           for m in melds if m.kind == "rank" and len(m.cards) >= 7)
            red3 = red3_points(self.spec, len(self.red3[s])) * (1 if melds else -1)
            going_out = 0
            if reason == "out" and e["out_player"] is not None and self.side_of[e["out_player"]] == s:
                going_out = 200 if concealed else 100
            in_hand = -sum(self.value(c) for p in seats for c in self.hands[p].elements())
            # the dealing bonus to the dealer's side, in `other`
            other = self.spec.exact_deal if self.exact and s == self.side_of[self.dealer] else 0
            if s < len(e["scores"]) and e["scores"][s].get("other") != other:
                self.flag("exact_deal", f"side {s} other {e['scores'][s].get('other')}, the dealing bonus gives "
                                        f"{other} (exact_deal {self.exact}, dealer {self.dealer})")
            total = melded + canastas + red3 + going_out + in_hand + other
            self.totals[s] += total
            scores.append({"side": s, "melded": melded, "canastas": canastas, "red_threes": red3,
                           "going_out": going_out, "in_hand": in_hand, "other": other, "total": total})
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


# Tests ----------------------------------------------------------------------------------------------------------

variants = pytest.mark.parametrize("variant", VARIANTS)


@variants
def test_transcript_replay_covers_whole_games(variant):
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        kinds = Counter(e["event"] for e in r.evs)
        assert r.evs[-1]["event"] == "game_end" and kinds["game_end"] == 1
        assert kinds["deal"] == kinds["hand_end"] == len(r.hand_ends) >= 1
        assert kinds["draw"] and kinds["discard"] and kinds["meld"]


@variants
def test_transcript_replay_deal_matches_hand_size_upcards_and_stock(variant):
    assert_clean(variant, "deal")


@variants
def test_transcript_replay_follows_turn_order_from_dealers_left(variant):
    """Play to the left from the dealer's left; the deal passes left, in House-001 to the right (R-63)."""
    assert_clean(variant, "turn_order")


@variants
def test_transcript_replay_sides_follow_the_partnerships(variant):
    """§2 row 3: House-001 4p plays in partnerships opposite (R-52), House-003 too (R-70)."""
    assert_clean(variant, "sides")


@variants
def test_transcript_replay_draws_come_off_the_stock_top_in_order(variant):
    assert_clean(variant, "draw_order")


@variants
def test_transcript_replay_red_three_replacements_come_off_the_stock(variant):
    assert_clean(variant, "replacement")


@variants
def test_transcript_replay_red_threes_are_exposed_in_documented_order(variant):
    assert_clean(variant, "red3_order")


@variants
def test_transcript_replay_no_red_three_stays_in_a_hand(variant):
    assert_clean(variant, "red3_in_hand")


@variants
def test_transcript_replay_take_pile_cards_equal_the_current_pile(variant):
    assert_clean(variant, "pile")


@variants
def test_transcript_replay_take_pile_melds_top_card_then_picks_up_the_rest(variant):
    assert_clean(variant, "take")


@variants
def test_transcript_replay_meld_and_discard_cards_come_from_the_players_hand(variant):
    assert_clean(variant, "hand")


@variants
def test_transcript_replay_melds_have_two_naturals_at_most_three_wilds_black3_only_going_out(variant):
    assert_clean(variant, "meld")


@variants
def test_transcript_replay_initial_meld_reaches_the_minimum(variant):
    assert_clean(variant, "initial_meld")


@variants
def test_transcript_replay_ask_goes_to_a_partner(variant):
    assert_clean(variant, "ask")


@variants
def test_transcript_replay_go_out_empties_the_hand_and_concealed_follows_r13(variant):
    assert_clean(variant, "go_out")


@variants
def test_transcript_replay_going_out_side_has_required_canastas(variant):
    assert_clean(variant, "go_out_canastas")


# Regression, found by this replayer: with one card left in hand the meld phase offered "stop" whenever the
# side *could* still go out by melding that card, and the player could then discard it instead, emptying
# the hand without the canastas (VARIANTS.md §3.1 turn step 5, §3.2 item 3). These are the games that
# showed it (the event numbers were those of the engine before the fix).
GOING_OUT_WITHOUT_CANASTAS = {
    "classic-2p": (("baseline", "random"), 3, 35),  # event 140: player 0 out with 1 canasta (2 needed)
    "classic-3p": (("random",), 11, 0),  # event 1389: player 1 melds 2C, discards 6C, out with no canasta
    "classic-4p": (("random",), 3, 21),  # event 95: player 3 melds JK, discards 2D, out with no canasta
    "classic-6p": (("baseline", "random"), 3, 0),  # event 320: player 3 melds 2S, discards 2C, out, no canasta
}


@pytest.mark.parametrize("variant", list(GOING_OUT_WITHOUT_CANASTAS))
def test_transcript_replay_going_out_side_has_required_canastas_regression(variant):
    strategies, seed, game = GOING_OUT_WITHOUT_CANASTAS[variant]
    r = replay(variant, strategies, seed, game)
    assert not r.issues.get("go_out_canastas"), r.issues["go_out_canastas"]


@variants
def test_transcript_replay_conserves_cards(variant):
    assert_clean(variant, "conservation")
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        assert sum(r.pack.values()) == (162 if variant == "classic-6p" else 108)


@variants
def test_transcript_replay_hand_end_reason_matches_the_table(variant):
    assert_clean(variant, "hand_end")


@variants
def test_transcript_replay_hand_scores_recomputed_from_the_table(variant):
    assert_clean(variant, "score")


@variants
def test_transcript_replay_hand_empties_only_when_going_out(variant):
    """§5.8 item 4: a hand becomes empty only when its player goes out, and `go_out` follows at once."""
    assert_clean(variant, "empty_hand")


@variants
def test_r05_a_red_three_drawn_as_the_last_stock_card_ends_the_hand_without_a_discard(variant):
    assert_clean(variant, "r05_last_red_three")


@variants
def test_r06_at_the_empty_stock_a_pile_that_fits_a_meld_must_be_taken(variant):
    """E-CLASSIC step 2 (R-06): a hand ends by the stock only when the next player need not take the pile."""
    assert_clean(variant, "r06_forced_take")


@variants
def test_r07_ask_once_after_the_draw_step_before_melding_and_the_answer_binds(variant):
    assert_clean(variant, "r07_ask")


@variants
def test_r20_one_card_hand_may_not_take_a_one_card_pile(variant):
    assert_clean(variant, "r20_one_card")


@variants
def test_r54_take_top_only_in_house_001_a_legal_top_card_not_discarded_the_same_turn(variant):
    """R-54, R-156: the top discard alone, in House-001 only, while the stock lasts, never a wild or a black
    three, never by a player barred by a black three; that physical card is not discarded the same turn (a
    copy held before the take may be). A red three taken so is laid out without replacement (the checks
    `replacement` and `red3_order`)."""
    assert_clean(variant, "r54_take_top")


@variants
def test_r58_house_001_goes_out_by_a_final_discard_never_by_melding_the_last_card(variant):
    assert_clean(variant, "r58_final_discard")


@variants
def test_r04_r158_exact_deal_is_written_in_house_deals_and_scored_to_the_dealers_side(variant):
    """R-04, R-158: `exact_deal` true|false in every House deal and in no other; when true, +100 in the
    dealer's side's `other`, 0 for every other side (and `other` is 0 in Classic)."""
    assert_clean(variant, "exact_deal")


@pytest.mark.parametrize("variant", HOUSE)
def test_r04_r158_the_dealing_bonus_leaves_the_cards_alone_and_is_written_at_any_probability(variant):
    """R-04: the bonus is a Bernoulli event with no effect on the deal; R-158: `exact_deal` is written in
    every House deal, false throughout when the probability is 0 (true throughout at 1)."""
    strategies, seed, game = cases(variant)[0]
    dealt = transcript(variant, strategies, seed, game)[1]
    for prob in (0, 1):
        v = with_rules(get_variant(variant), [f"exact_deal_prob={prob}"])
        evs = list(events(make_job(v, strategies, seed), game))
        deals = [e for e in evs if e["event"] == "deal"]
        assert [e.get("exact_deal") for e in deals] == [bool(prob)] * len(deals)
        assert {k: deals[0][k] for k in ("dealer", "hands", "stock", "pile")} == \
            {k: dealt[k] for k in ("dealer", "hands", "stock", "pile")}
        r = Replay(variant, evs)
        assert not r.issues.get("exact_deal") and not r.issues.get("score"), dict(r.issues)


@variants
def test_r03_r78_game_ends_after_the_first_hand_with_a_unique_leader_at_the_target(variant):
    """§1.13: at 5000 or more, House-003 over 5000 (R-78); a tie at the top plays another hand (R-03)."""
    assert_clean(variant, "game_end")


@variants
def test_r160_transcript_holds_only_the_documented_events(variant):
    assert_clean(variant, "events")


@variants
def test_transcript_replay_exercises_red_threes_pile_takes_and_going_out(variant):
    """The checks above are not vacuous: the replayed games contain the events they are about."""
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        kinds.update(e["event"] for e in r.evs)
        reasons.update(e["reason"] for e in r.hand_ends)
    assert kinds["red_three"] and kinds["take_pile"] and kinds["go_out"] and reasons["out"]


@pytest.mark.parametrize("variant", HOUSE)
def test_transcript_replay_exercises_house_rules(variant):
    """The House checks are not vacuous: the replayed games hold dealing bonuses, several hands (the dealer's
    rotation), going out, pile takes by M2 before the side has melded (R-55, R-74) and in House-001 on a
    frozen pile (R-55), and in House-001 top-card takes (R-54), on frozen piles, before melding, and of cards
    the player already held a copy of (R-156)."""
    kinds: Counter[str] = Counter()
    top: Counter[str] = Counter()
    takes: Counter[tuple[str, str]] = Counter()
    exact = new_dealers = 0
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        kinds.update(e["event"] for e in r.evs)
        top.update(r.top_takes)
        takes.update(r.takes)
        exact += r.exact_deals
        new_dealers += len(r.dealers) - 1
    assert exact and new_dealers and kinds["take_pile"] and kinds["go_out"], (exact, new_dealers, kinds)
    m2 = {state for (method, state), n in takes.items() if method == "natural_wild" and n}
    assert any("pre-meld" in state for state in m2), takes
    if "natural_wild" in SPECS[variant].frozen_methods:
        assert any("frozen" in state for state in m2), takes
    if SPECS[variant].top_card:
        assert kinds["take_top"] and top["frozen"] and top["premeld"] and top["held copy"], top
    else:
        assert not kinds["take_top"]


@variants
def test_transcript_final_totals_equal_results_row(variant):
    for strategies, seed, game in cases(variant):
        evs = transcript(variant, strategies, seed, game)
        end = evs[-1]
        row = play(variant, list(strategies), games=game + 1, seed=seed).games.iloc[game]
        n_sides = len(evs[0]["sides"])
        assert end["totals"] == [int(row[f"score_{s}"]) for s in range(n_sides)]
        assert (end["winner"] if end["winner"] is not None else -1) == int(row["winner_side"])
        assert sum(e["event"] == "hand_end" for e in evs) == int(row["n_hands"])
        assert end["capped"] == bool(row["capped_game"])
        assert evs[0]["deal"] == int(row["deal"])


# The replayer is not blind: tampering with one field of a real transcript trips the named check -----------------


def _first(evs: list[dict[str, Any]], event: str, **where: Any) -> dict[str, Any]:
    return next(e for e in evs if e["event"] == event and all(f(e[k]) for k, f in where.items()))


def _other(card: str) -> str:
    return "KS" if card != "KS" else "QS"


def _swap_first_drawn_card_with_the_next(evs):
    deal = evs[1]
    end = evs.index(_first(evs, "draw"))
    k = sum(1 for e in evs[2:end] if e["event"] == "red_three" and e["replacement"])  # replacements before it
    stock = deal["stock"]
    assert stock[k] != stock[k + 1]
    stock[k], stock[k + 1] = stock[k + 1], stock[k]


def _change_replacement(evs):
    e = _first(evs, "red_three", replacement=bool)
    e["replacement"] = _other(e["replacement"])


def _reorder_taken_pile(evs):
    e = _first(evs, "take_pile", cards=lambda c: len(c) > 2 and c[0] != c[1])
    e["cards"][:2] = e["cards"][1::-1]


def _discard_a_card_not_held(evs):
    _first(evs, "discard")["card"] = "JK"


def _meld_four_wilds(evs):
    _first(evs, "meld", new=lambda n: not n, kind=lambda k: k == "rank")["cards"] = ["2S", "2H", "2D", "2C"]


def _drop_a_red_three(evs):
    evs.remove(_first(evs, "red_three", replacement=bool))


def _add_to_melded_points(evs):
    _first(evs, "hand_end")["scores"][0]["melded"] += 5


def _flip_concealed(evs):
    e = _first(evs, "go_out")
    e["concealed"] = not e["concealed"]


@pytest.mark.parametrize("tamper, check", [
    (_swap_first_drawn_card_with_the_next, "draw_order"), (_change_replacement, "replacement"),
    (_reorder_taken_pile, "pile"),
    (_discard_a_card_not_held, "hand"), (_meld_four_wilds, "meld"), (_drop_a_red_three, "red3_in_hand"),
    (_add_to_melded_points, "score"), (_flip_concealed, "go_out"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_transcript(tamper, check):
    evs = [copy.deepcopy(e) for e in transcript("classic-4p", ("baseline", "random"), 1, 1)]
    assert not Replay("classic-4p", list(evs)).issues
    tamper(evs)
    assert Replay("classic-4p", evs).issues.get(check)


HOUSE_TAMPERED = ("house-001-4p", ("baseline", "random"), 1, 1)


def _take_top_of_another_card(evs):
    e = _first(evs, "take_top")
    e["card"] = _other(e["card"])


def _discard_the_card_taken_from_the_top(evs):
    k = next(i for i, held in Replay(HOUSE_TAMPERED[0], list(evs)).top_take_at if not held)
    p = evs[k]["player"]
    next(e for e in evs[k:] if e["event"] == "discard" and e["player"] == p)["card"] = evs[k]["card"]


def _flip_exact_deal(evs):
    e = _first(evs, "deal")
    e["exact_deal"] = not e["exact_deal"]


def _drop_the_final_discard(evs):
    del evs[evs.index(_first(evs, "go_out")) - 1]


def _pass_the_deal_left(evs):
    deals = [e for e in evs if e["event"] == "deal"]
    deals[1]["dealer"] = (deals[0]["dealer"] + 1) % evs[0]["players"]


def _meld_two_naturals_two_wilds(evs):  # legal in Classic, not in House-001
    e = _first(evs, "meld", new=bool, kind=lambda k: k == "rank")
    e["cards"] = [c for c in e["cards"] if not is_wild(c)][:2] + ["JK", "2S"]


@pytest.mark.parametrize("tamper, check", [
    (_take_top_of_another_card, "r54_take_top"), (_discard_the_card_taken_from_the_top, "r54_take_top"),
    (_flip_exact_deal, "exact_deal"), (_drop_the_final_discard, "r58_final_discard"),
    (_pass_the_deal_left, "turn_order"), (_meld_two_naturals_two_wilds, "meld"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_house_transcript(tamper, check):
    variant, strategies, seed, game = HOUSE_TAMPERED
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    assert not Replay(variant, list(evs)).issues.get(check)
    tamper(evs)
    assert Replay(variant, evs).issues.get(check)


def test_r156_discarding_a_copy_held_before_the_top_card_take_is_allowed():
    """R-156: "that same card" is the physical card taken; with a copy in hand before the take, discarding
    that card is no breach. Tampered so: the discard right after such a take becomes the taken card, and the
    game up to that discard replays clean."""
    variant, strategies, seed, game = HOUSE_TAMPERED
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    k = next(i for i, held in Replay(variant, list(evs)).top_take_at
             if held and evs[i + 1]["event"] == "discard" and evs[i + 1]["card"] != evs[i]["card"])
    evs[k + 1]["card"] = evs[k]["card"]
    assert not Replay(variant, evs[:k + 2]).issues  # the game up to that discard


R06_GAMES = range(12)  # pile-hoarder exhausts the stock and takes piles there (about three takes a game)
R06_STRATEGY = ("pile-hoarder",)


def test_r06_read_literally_ends_the_hand_as_soon_as_a_pile_is_taken_at_the_empty_stock():
    """The rule switch empty_stock_take_ends_hand (R-06 read literally): the replayer finds nothing after
    such a take but its own melds and red threes, then a hand end by the stock. Under the project's
    reading (the default) play goes on after it, which the same check flags: the switch changes play."""
    literal = with_rules(get_variant("classic-4p"), ["empty_stock_take_ends_hand=true"])
    takes = 0
    for g in R06_GAMES:
        r = Replay("classic-4p", list(events(make_job(literal, R06_STRATEGY, 5), g)))
        assert not any(r.issues.values()), dict(r.issues)
        takes += r.empty_stock_takes
    assert takes >= 3, "too few takes at the empty stock to check the rule; play more games"
    went_on = 0
    for g in R06_GAMES:
        evs = [dict(e) for e in transcript("classic-4p", R06_STRATEGY, 5, g)]
        evs[0] = {**evs[0], "rules": {**evs[0]["rules"], "empty_stock_take_ends_hand": True}}
        went_on += len(Replay("classic-4p", evs).issues.get("end_of_stock", []))
    assert went_on > 0
    checked = play(literal, R06_STRATEGY[0], games=200, seed=1, check=True, workers=1)  # the 5.8 invariants
    assert (checked.games["capped_hands"] == 0).all()
