"""An independent replayer for Buraco transcripts, written from the rules text alone.

Sources: VARIANTS.md §0, §1.4, §2 (column Bur), §3.10, R-130..R-145, R-146, R-147, R-150, R-160, §5.7, §5.8 and
seed 004. Nothing here is taken from the engine (`sim/`).

`replay(events)` rebuilds the table card by card (stock top first, pile bottom first, every hand, the two mortos,
every meld) and returns a list of problems, each starting with the name of the check in brackets:

  [event]  unknown event names (R-160), malformed events or cards, a bad `game` header
  [deal]   the deal: hand numbers, dealer rotation (R-145), 11 cards a hand and a morto, stock 63 / 41, one
           upcard, exactly the 108-card pack (BU-6)
  [turn]   turn order from the dealer's left, one draw or take_pile to start a turn, melds and discards only by
           the player on turn after that
  [stock]  a draw is the stock's top card; no draw from an empty stock
  [cards]  cards come from where they should (hand, pile, morto); 108 cards conserved after every event (§5.8)
  [meld]   sets and sequences (§1.4, R-131..R-134, R-143, R-146), indexes, one set per rank, own side only
  [knock]  morto pick-ups (direct / indirect, once a side), the final knock-out (R-137, R-138)
  [score]  every score component of every side, totals (§3.10 Scoring, R-140, R-142)
  [end]    hand ends (out, E-BURACO stock R-139, cap R-150), game end (one deal or a target, ties R-147)

The state always follows the transcript: an illegal action is reported and then applied as written (cards that
were not where the transcript says are reported once through conservation), so one error does not hide the next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "JK"
PACK: Counter[str] = Counter({r + s: 2 for r in RANKS for s in SUITS} | {JOKER: 4})  # 108 cards
VALUE = {"A": 15, "2": 20, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5,
         "8": 10, "9": 10, "T": 10, "J": 10, "Q": 10, "K": 10}  # §3.10 setup 4; joker 50
POSITION = {r: i + 1 for i, r in enumerate(RANKS)}  # A low = 1 ... K = 13; A high = 14
HAND_SIZE = MORTO_SIZE = 11
STOCK_AFTER_DEAL = {2: 63, 4: 41}  # §2 row 8, BU-6
CANASTA = 7
CLEAN_CANASTA, DIRTY_CANASTA, KNOCK_BONUS, MORTO_PENALTY = 200, 100, 100, 100
MAX_SEQUENCE = 13  # R-133 (14 with the option bur_ace_to_ace)
VARIANTS = {"buraco-2p": (2, [[0], [1]]), "buraco-4p": (4, [[0, 2], [1, 3]])}  # §2 row 3: partners opposite
EVENTS = frozenset({"game", "deal", "draw", "take_pile", "meld", "discard", "foot", "go_out", "hand_end",
                    "game_end"})
TURN_EVENTS = frozenset({"draw", "take_pile", "meld", "discard", "foot", "go_out"})
COMPONENTS = ("melded", "canastas", "red_threes", "going_out", "in_hand", "other")
CHECKS = frozenset({"event", "deal", "turn", "stock", "cards", "meld", "knock", "score", "end"})


# ---- pure helpers ---------------------------------------------------------------------------------------------

def card_value(card: str) -> int:
    return 50 if card == JOKER else VALUE[card[0]]


def meld_value(whole: Iterable[str]) -> int:
    """Table value of a meld: a natural-position 2 counts 20 like any 2 (BU-4)."""
    return sum(card_value(c) for c in whole)


def _is_wild_card(card: str) -> bool:
    return card == JOKER or card[0] == "2"


def set_problem(whole: Sequence[str]) -> str | None:
    """Why `whole` is not a legal Buraco set (R-131, R-134), or None."""
    if len(whole) < 3:
        return "a set needs 3+ cards"
    naturals = [c for c in whole if not _is_wild_card(c)]
    if not naturals:
        return "a set of wilds / of 2s is not allowed (R-134)"
    if len({c[0] for c in naturals}) > 1:
        return "a set holds one rank"
    if len(whole) - len(naturals) > 1:
        return "a set holds at most one wild (R-131)"
    return None


def set_ok(whole: Sequence[str]) -> bool:
    return set_problem(whole) is None


def sequence_layout(whole: Sequence[str], ace_to_ace: bool = False) -> tuple[int, int | None] | None:
    """(position of whole[0]: A low 1 .. A high 14, index of the wild or None) for a legal sequence, else None.

    `whole` runs low to high, a wild standing at the place it represents. A 2 of the sequence's suit at the 2's
    own place is natural (R-132, R-146); a joker, or a 2 anywhere else, is wild; at most one wild (R-131)."""
    return _sequence(whole, ace_to_ace)[0]


def _sequence(whole: Sequence[str], ace_to_ace: bool) -> tuple[tuple[int, int | None] | None, str]:
    n = len(whole)
    if not 3 <= n <= MAX_SEQUENCE + ace_to_ace:
        return None, f"a sequence holds 3 to {MAX_SEQUENCE + ace_to_ace} cards (R-133)"
    fixed = [c for c in whole if not _is_wild_card(c)]
    if not fixed:
        return None, "a sequence needs natural cards"
    suit = fixed[0][1]
    fewest = None
    for base in range(1, 16 - n):  # the top place base + n - 1 is at most 14 (A high); no wrap
        wilds: list[int] = []
        for i, c in enumerate(whole):
            place = base + i
            if c == JOKER or (c[0] == "2" and not (c[1] == suit and place == 2)):
                wilds.append(i)
            elif c[1] != suit or POSITION[c[0]] != (1 if place == 14 else place):
                break
        else:
            if len(wilds) <= 1:
                return (base, wilds[0] if wilds else None), ""
            fewest = len(wilds) if fewest is None else min(fewest, len(wilds))
    if fewest is not None:
        return None, "a sequence holds at most one wild (R-131)"
    return None, "not one suit in consecutive order, A low or high, no wrap (R-133)"


def sequence_ok(whole: Sequence[str], ace_to_ace: bool = False) -> bool:
    return sequence_layout(whole, ace_to_ace) is not None


def meld_problem(kind: str, whole: Sequence[str], ace_to_ace: bool = False) -> str | None:
    if kind == "rank":
        return set_problem(whole)
    if kind == "sequence":
        return _sequence(whole, ace_to_ace)[1] or None
    return f"unknown meld kind {kind!r}"


def wild_count(kind: str | None, whole: Sequence[str]) -> int:
    """Wilds in a meld; kind None: a legal set, else read as a sequence. A natural-position 2 is not wild."""
    if kind == "rank" or (kind is None and set_ok(whole)):
        return sum(_is_wild_card(c) for c in whole)
    layout = sequence_layout(whole, ace_to_ace=True)
    if layout is None:  # an illegal meld: count every joker and 2
        return sum(_is_wild_card(c) for c in whole)
    return int(layout[1] is not None)


def canasta_bonus(whole: Sequence[str], kind: str | None = None) -> int:
    """200 for a clean canasta (7+ cards, no wild), 100 for a dirty one, else 0 (§3.10 scoring 2)."""
    if len(whole) < CANASTA:
        return 0
    return CLEAN_CANASTA if wild_count(kind, whole) == 0 else DIRTY_CANASTA


def score_side(melds: Iterable[tuple[str, Sequence[str]]], hand_cards: Iterable[str], *, went_out: bool,
               morto_taken: bool, morto_dead: bool = False) -> dict[str, int]:
    """One side's hand score (§3.10 Scoring). `melds` are (kind, whole); `hand_cards` the cards to subtract (the
    caller leaves out a dead morto, R-140); `morto_dead`: taken by an indirect knock-out and the hand ended before
    that player's next turn began (-100 as if never taken)."""
    melds = list(melds)
    row = {"melded": sum(meld_value(w) for _, w in melds),
           "canastas": sum(canasta_bonus(w, k) for k, w in melds),
           "red_threes": 0,
           "going_out": KNOCK_BONUS if went_out else 0,
           "in_hand": -sum(card_value(c) for c in hand_cards),
           "other": -MORTO_PENALTY if (not morto_taken or morto_dead) else 0}
    row["total"] = sum(row.values())
    return row


def game_decision(totals: Sequence[int], target: int | None, hands: int, max_hands: int
                  ) -> tuple[bool, int | None, bool]:
    """(game over, winner, capped) after a hand: one deal decides unless tied; with a target, a side at or over it
    with a unique lead (R-141, R-147); else the hand cap ends the game (R-150)."""
    top = max(totals)
    leader = totals.index(top) if list(totals).count(top) == 1 else None
    if leader is not None and (target is None or top >= target):
        return True, leader, False
    if hands >= max_hands:
        return True, leader, True
    return False, None, False


# ---- the replayer -------------------------------------------------------------------------------------------

@dataclass
class Meld:
    kind: str
    whole: list[str]


@dataclass
class Hand:
    number: int
    dealer: int
    stock: list[str]
    pile: list[str]
    hands: list[Counter[str]]
    mortos: list[list[str] | None]
    melds: list[list[Meld]]
    player: int
    phase: str = "start"  # start (draw or take_pile due) | play | empty (foot or go_out due) | over
    emptied_by: str = ""  # "meld" or "discard"
    turns: int = 0
    dead: dict[int, int] = field(default_factory=dict)  # side -> seat: morto taken indirectly, no turn since
    reasons: frozenset[str] = frozenset()
    out_player: int | None = None
    leak_reported: bool = False
    overrun_reported: bool = False


class Replayer:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.index = 0
        self.stage = "none"  # none | deal | hand | between | done
        self.h: Hand | None = None
        self.n = 2
        self.sides: list[list[int]] = [[0], [1]]
        self.side_of: dict[int, int] = {0: 0, 1: 1}
        self.rules: dict[str, Any] = {}
        self.hands_played = 0
        self.last_dealer: int | None = None
        self.totals: list[int] = [0, 0]
        self.decision: tuple[bool, int | None, bool] = (False, None, False)

    # -- plumbing --
    def report(self, check: str, message: str) -> None:
        assert check in CHECKS, check
        where = f"hand {self.h.number}, " if self.h else ""
        self.problems.append(f"[{check}] {where}event {self.index}: {message}")

    def cards(self, value: Any) -> list[str]:
        if not isinstance(value, list):
            self.report("event", f"expected a list of cards, got {value!r}")
            return []
        for c in value:
            if c not in PACK:
                self.report("event", f"unknown card {c!r}")
        return [c for c in value if c in PACK]

    def feed(self, ev: Any) -> None:
        name = ev.get("event") if isinstance(ev, dict) else None
        if name not in EVENTS:
            self.report("event", f"unknown event {name!r} (R-160)")
            return
        if name != "game" and self.stage == "none":
            self.report("event", f"{name} before the game event")
            return
        if name in TURN_EVENTS and not self.before_turn_event(name):
            return
        try:
            getattr(self, "on_" + name)(ev)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            self.report("event", f"malformed {name} event: {exc!r}")
        if self.h is not None and self.stage == "hand":
            self.conserve()

    def before_turn_event(self, name: str) -> bool:
        if self.stage != "hand" or self.h is None:
            self.report("end", f"{name} with no hand in progress")
            return False
        h = self.h
        if h.phase == "over":
            if not h.overrun_reported:
                self.report("end", f"the hand should have ended ({'/'.join(sorted(h.reasons))}) before this {name}")
                h.overrun_reported = True
            h.phase = "start"
        if h.phase == "empty" and name not in ("foot", "go_out"):
            self.report("knock", f"seat {h.player} emptied its hand by a {h.emptied_by}: a foot or go_out must "
                                 f"follow at once, not {name}")
            if h.emptied_by == "discard":
                self.end_turn()
            else:
                h.phase = "play"
        return True

    def conserve(self) -> None:
        h = self.h
        assert h is not None
        seen: Counter[str] = Counter(h.stock)
        seen.update(h.pile)
        for hand in h.hands:
            seen.update(hand)
        for morto in h.mortos:
            seen.update(morto or [])
        for melds in h.melds:
            for m in melds:
                seen.update(m.whole)
        if seen != PACK and not h.leak_reported:
            extra, missing = seen - PACK, PACK - seen
            self.report("cards", f"108 cards not conserved: extra {dict(extra)}, missing {dict(missing)} (§5.8)")
            h.leak_reported = True

    def take_from_hand(self, p: int, cards: list[str], what: str) -> None:
        hand = self.h.hands[p]
        short = Counter(cards) - hand
        if short:
            self.report("cards", f"{what}: seat {p} does not hold {sorted(short.elements())}")
        hand.subtract(cards)
        for c in [c for c, k in hand.items() if k <= 0]:
            del hand[c]

    def has_canasta(self, side: int) -> bool:
        return any(len(m.whole) >= CANASTA for m in self.h.melds[side])

    # -- game and deal --
    def on_game(self, ev: dict[str, Any]) -> None:
        if self.stage in ("deal", "hand", "between"):
            self.report("end", "a new game before the previous game_end")
        problems, index = self.problems, self.index
        Replayer.__init__(self)  # a fresh game; the problems found so far stay
        self.problems, self.index = problems, index
        variant = ev["variant"]
        if variant not in VARIANTS:
            self.report("event", f"unknown variant {variant!r}")
            self.n, self.sides = int(ev["players"]), [list(s) for s in ev["sides"]]
        else:
            self.n, self.sides = VARIANTS[variant]
            if ev.get("players") != self.n or ev.get("sides") != self.sides:
                self.report("event", f"{variant}: players {ev.get('players')} sides {ev.get('sides')}, expected "
                                     f"{self.n} and {self.sides}")
        self.side_of = {p: s for s, seats in enumerate(self.sides) for p in seats}
        rules = ev.get("rules")
        if not isinstance(rules, dict):
            self.report("event", "the game event has no rules dict")
            rules = {}
        for key in ("target_score", "max_turns_per_hand", "max_hands_per_game"):
            if key not in rules:
                self.report("event", f"rules lack {key}")
        if rules.get("bur_morto_to_stock"):
            self.report("event", "option bur_morto_to_stock is not modelled by this replayer")
        self.rules = {"target": rules.get("target_score"), "max_turns": rules.get("max_turns_per_hand", 1000),
                      "max_hands": rules.get("max_hands_per_game", 200),
                      "ace_to_ace": bool(rules.get("bur_ace_to_ace")), "wild_shift": bool(rules.get("bur_wild_shift"))}
        self.totals = [0] * len(self.sides)
        self.stage = "deal"

    def on_deal(self, ev: dict[str, Any]) -> None:
        if self.stage == "hand":
            self.report("end", f"deal before the hand_end of hand {self.h.number}")
        elif self.stage == "between" and self.decision[0]:
            self.report("end", f"a new deal, but the game is over (totals {self.totals})")
        elif self.stage == "done":
            self.report("end", "a deal after game_end")
        self.h = None
        number, dealer = ev["hand"], ev["dealer"]
        if number != self.hands_played + 1:
            self.report("deal", f"hand number {number}, expected {self.hands_played + 1}")
        if not (isinstance(dealer, int) and 0 <= dealer < self.n):
            self.report("deal", f"dealer {dealer!r} is not a seat")
            dealer = 0
        elif self.last_dealer is not None and dealer != (want := (self.last_dealer + 1) % self.n):
            self.report("deal", f"dealer {dealer}, expected {want} (the deal passes left, R-145)")
        hands = [self.cards(x) for x in ev["hands"]]
        feet = [self.cards(x) for x in ev["feet"]]
        stock, pile = self.cards(ev["stock"]), self.cards(ev["pile"])
        if len(hands) != self.n or any(len(x) != HAND_SIZE for x in hands):
            self.report("deal", f"hands must be {self.n} x {HAND_SIZE} cards: {[len(x) for x in hands]}")
        if len(feet) != len(self.sides) or any(len(x) != MORTO_SIZE for x in feet):
            self.report("deal", f"mortos must be {len(self.sides)} x {MORTO_SIZE} cards: {[len(x) for x in feet]}")
        if len(stock) != STOCK_AFTER_DEAL[self.n]:
            self.report("deal", f"stock of {len(stock)} after the deal, expected {STOCK_AFTER_DEAL[self.n]} (BU-6)")
        if len(pile) != 1:
            self.report("deal", f"the pile starts with one upcard, got {pile}")
        dealt: Counter[str] = Counter(stock + pile)
        for x in hands + feet:
            dealt.update(x)
        if dealt != PACK:
            self.report("deal", f"the deal is not the 108-card pack: extra {dict(dealt - PACK)}, "
                                f"missing {dict(PACK - dealt)}")
        hands += [[] for _ in range(self.n - len(hands))]
        feet += [[] for _ in range(len(self.sides) - len(feet))]
        self.h = Hand(number=number, dealer=dealer, stock=list(stock), pile=list(pile),
                      hands=[Counter(x) for x in hands[:self.n]], mortos=[list(x) for x in feet[:len(self.sides)]],
                      melds=[[] for _ in self.sides], player=(dealer + 1) % self.n, leak_reported=dealt != PACK)
        self.stage = "hand"

    # -- turns --
    def start_turn(self, p: int, what: str) -> None:
        h = self.h
        if p not in self.side_of:
            raise ValueError(f"player {p!r} is not a seat")
        if h.phase != "start" and p == h.player:
            self.report("turn", f"{what} by seat {p} in the middle of its turn (one draw or take_pile a turn)")
            return
        if h.phase == "play":
            self.report("turn", f"{what} by seat {p}, but seat {h.player} has not ended its turn with a discard")
        elif p != h.player:
            self.report("turn", f"{what} by seat {p}, but it is seat {h.player}'s turn (play passes left, R-145)")
        h.player, h.phase = p, "play"
        h.turns += 1
        if h.dead.get(self.side_of[p]) == p:
            del h.dead[self.side_of[p]]

    def in_turn(self, p: int, what: str) -> None:
        h = self.h
        if p not in self.side_of:
            raise ValueError(f"player {p!r} is not a seat")
        if h.phase != "play" or p != h.player:
            state = "before its draw" if h.phase == "start" and p == h.player else f"(seat {h.player} is on turn)"
            self.report("turn", f"{what} by seat {p} {state}")
            h.player, h.phase = p, "play"

    def end_turn(self) -> None:
        h = self.h
        h.player = (h.player + 1) % self.n
        reasons = set()
        if not h.stock:
            reasons.add("stock")  # E-BURACO
        if h.turns >= self.rules["max_turns"]:
            reasons.add("cap")
        h.phase, h.reasons = ("over", frozenset(reasons)) if reasons else ("start", frozenset())

    def emptied(self, p: int, by: str) -> None:
        h = self.h
        h.phase, h.emptied_by = "empty", by
        side = self.side_of[p]
        if h.mortos[side] is None and not self.has_canasta(side):
            self.report("knock", f"seat {p} emptied its hand by a {by}, but its side's morto is taken and the side "
                                 "has no canasta (R-137)")

    def on_draw(self, ev: dict[str, Any]) -> None:
        p = ev["player"]
        self.start_turn(p, "draw")
        cards, stock = self.cards(ev["cards"]), self.h.stock
        if len(cards) != 1:
            self.report("stock", f"a draw takes exactly one card, got {cards}")
        for c in cards:
            if not stock:
                self.report("stock", f"draw of {c} from an empty stock")
            elif stock[0] == c:
                stock.pop(0)
            elif c in stock:
                self.report("stock", f"drew {c}, but the stock's top card is {stock[0]}")
                stock.remove(c)
            else:
                self.report("stock", f"drew {c}, which is not in the stock (top {stock[0]})")
            self.h.hands[p][c] += 1

    def on_take_pile(self, ev: dict[str, Any]) -> None:
        p = ev["player"]
        self.start_turn(p, "take_pile")
        if ev.get("method") != "free":
            self.report("event", f"take_pile method {ev.get('method')!r}, Buraco has only 'free' (R-135)")
        cards, pile = self.cards(ev["cards"]), self.h.pile
        if not pile:
            self.report("cards", "take_pile from an empty pile")
        elif cards != pile:
            self.report("cards", f"take_pile lists {cards}, the pile (bottom first) is {pile} (R-135: all of it)")
        self.h.hands[p].update(pile)
        pile.clear()

    def on_meld(self, ev: dict[str, Any]) -> None:
        h = self.h
        p, side, idx, new, kind = ev["player"], ev["side"], ev["meld"], ev["new"], ev["kind"]
        self.in_turn(p, "meld")
        cards, whole = self.cards(ev["cards"]), self.cards(ev["whole"])
        if not (isinstance(side, int) and 0 <= side < len(self.sides)):
            raise ValueError(f"side {side!r}")
        if side != self.side_of[p]:
            self.report("meld", f"seat {p} touches side {side}'s melds (only its own side's, §1.4)")
        if not cards:
            self.report("meld", "a meld event adds no card")
        self.take_from_hand(p, cards, "meld")
        melds, ace = h.melds[side], self.rules["ace_to_ace"]
        if kind not in ("rank", "sequence"):
            self.report("meld", f"unknown meld kind {kind!r}")
        if new is True:
            if idx != len(melds):
                self.report("meld", f"new meld numbered {idx}, expected {len(melds)}")
            if Counter(cards) != Counter(whole):
                self.report("meld", f"a new meld's cards {cards} differ from its whole {whole}")
            why = meld_problem(kind, whole, ace)
            if why:
                self.report("meld", f"illegal {kind} {whole}: {why}")
            elif kind == "rank":
                rank = next(c[0] for c in whole if not _is_wild_card(c))
                if any(m.kind == "rank" and any(c[0] == rank for c in m.whole if not _is_wild_card(c))
                       for m in melds):
                    self.report("meld", f"side {side} already has a set of rank {rank} (one set per rank, R-134)")
            melds.append(Meld(kind, list(whole)))
        elif not (isinstance(idx, int) and 0 <= idx < len(melds)):
            self.report("meld", f"addition to meld {idx}, but side {side} has {len(melds)} melds")
            melds.append(Meld(kind, list(whole)))
        else:
            m = melds[idx]
            if kind != m.kind:
                self.report("meld", f"meld {idx} is a {m.kind}, the event says {kind}")
            why = self.addition_problem(m, cards, whole)
            if why:
                self.report("meld", f"addition of {cards} to meld {idx} {m.whole} -> {whole}: {why}")
            why = meld_problem(m.kind, whole, ace)
            if why:
                self.report("meld", f"meld {idx} becomes an illegal {m.kind} {whole}: {why}")
            m.whole = list(whole)
        if sum(h.hands[p].values()) == 0:
            self.emptied(p, "meld")

    def addition_problem(self, m: Meld, cards: list[str], whole: list[str]) -> str | None:
        old, k = m.whole, len(m.whole)
        if Counter(whole) != Counter(old) + Counter(cards):
            return "the new whole is not the previous whole plus the added cards"
        if m.kind == "rank":
            return None if whole[:k] == old else "a set's whole keeps the earlier cards first, in order"
        if self.rules["wild_shift"]:
            return None
        ace = self.rules["ace_to_ace"]
        before, after = sequence_layout(old, ace), sequence_layout(whole, ace)
        for at in range(len(whole) - k + 1):
            if whole[at:at + k] == old and Counter(whole[:at] + whole[at + k:]) == Counter(cards):
                if before is None or after is None or after[0] + at == before[0]:
                    return None
                return "the earlier cards changed places (a wild never moves, R-143)"
        return "cards only extend a sequence at its ends; earlier cards and the wild keep their places (R-143)"

    def on_discard(self, ev: dict[str, Any]) -> None:
        p, card = ev["player"], ev["card"]
        self.in_turn(p, "discard")
        cards = self.cards([card])
        self.take_from_hand(p, cards, "discard")
        self.h.pile.extend(cards)
        if sum(self.h.hands[p].values()) == 0:
            self.emptied(p, "discard")
        else:
            self.end_turn()

    def on_foot(self, ev: dict[str, Any]) -> None:
        h = self.h
        p, knock = ev["player"], ev["knock"]
        cards = self.cards(ev["cards"])
        if p not in self.side_of:
            raise ValueError(f"player {p!r} is not a seat")
        side = self.side_of[p]
        by = h.emptied_by if h.phase == "empty" and p == h.player else ""
        if not by:
            self.report("knock", f"seat {p} picks up a morto without having just emptied its hand")
        morto = h.mortos[side]
        if morto is None:
            self.report("knock", f"side {side}'s morto was already taken (once a hand, R-136)")
        expected = {"meld": "direct", "discard": "indirect"}.get(by)
        if knock not in ("direct", "indirect"):
            self.report("event", f"knock {knock!r}")
        elif expected and knock != expected:
            self.report("knock", f"the hand emptied by a {by}: the knock-out is {expected}, not {knock}")
        if morto is not None and cards != morto:
            self.report("cards", f"foot lists {cards}, side {side}'s morto is {morto}")
        h.hands[p].update(morto if morto is not None else cards)
        h.mortos[side] = None
        h.player = p
        if (expected or knock) == "indirect":
            h.dead[side] = p  # R-140 until p's next turn begins
            self.end_turn()
        else:
            h.phase = "play"

    def on_go_out(self, ev: dict[str, Any]) -> None:
        h = self.h
        p = ev["player"]
        if p not in self.side_of:
            raise ValueError(f"player {p!r} is not a seat")
        side = self.side_of[p]
        if h.phase != "empty" or p != h.player:
            self.report("knock", f"go_out by seat {p} without having just emptied its hand")
        if h.mortos[side] is not None:
            self.report("knock", f"go_out by seat {p}, but side {side} has not taken its morto: the foot comes first")
        if not self.has_canasta(side):
            self.report("knock", f"go_out by seat {p}, but side {side} has no canasta (R-138)")
        if ev.get("concealed") is not False:
            self.report("event", f"concealed {ev.get('concealed')!r}: Buraco has no concealed going out")
        h.phase, h.reasons, h.out_player, h.player = "over", frozenset({"out"}), p, (p + 1) % self.n

    # -- ends --
    def expected_scores(self) -> list[dict[str, int]]:
        h = self.h
        out_side = self.side_of[h.out_player] if h.out_player is not None else None
        rows = []
        for s, seats in enumerate(self.sides):
            dead = h.dead.get(s)
            rows.append(score_side(((m.kind, m.whole) for m in h.melds[s]),
                                   [c for p in seats if p != dead for c in h.hands[p].elements()],
                                   went_out=out_side == s, morto_taken=h.mortos[s] is None,
                                   morto_dead=dead is not None))
        return rows

    def on_hand_end(self, ev: dict[str, Any]) -> None:
        if self.stage != "hand" or self.h is None:
            self.report("end", "hand_end with no hand in progress")
            return
        h = self.h
        if ev["hand"] != h.number:
            self.report("end", f"hand_end for hand {ev['hand']}, this is hand {h.number}")
        reason = ev["reason"]
        if h.phase != "over":
            self.report("end", f"hand_end ({reason}) while the hand goes on (seat {h.player}, phase {h.phase}, "
                               f"stock {len(h.stock)}, turn {h.turns} of {self.rules['max_turns']})")
        elif reason not in h.reasons:
            self.report("end", f"hand ended by {reason!r}, expected {'/'.join(sorted(h.reasons))}")
        out = h.out_player if h.phase == "over" and "out" in h.reasons else None
        if ev.get("out_player") != out:
            self.report("end", f"out_player {ev.get('out_player')!r}, expected {out!r}")
        h.out_player = out
        expected, rows = self.expected_scores(), ev["scores"]
        if len(rows) != len(expected):
            self.report("score", f"{len(rows)} score rows for {len(expected)} sides")
        new_totals = list(self.totals)
        for s, (row, want) in enumerate(zip(rows, expected, strict=False)):
            if row.get("side") != s:
                self.report("score", f"score row {s} is for side {row.get('side')!r}")
            for key, value in want.items():
                if row.get(key) != value:
                    self.report("score", f"side {s} {key}: transcript {row.get(key)!r}, rules {value}")
            if row.get("total") != sum(row.get(key, 0) for key in COMPONENTS):
                self.report("score", f"side {s} total {row.get('total')!r} is not the sum of its components")
            new_totals[s] += row.get("total", 0)
        if ev["totals"] != new_totals:
            self.report("score", f"totals {ev['totals']}, expected previous {self.totals} + hand = {new_totals}")
        self.totals = list(ev["totals"])
        self.hands_played += 1
        self.last_dealer = h.dealer
        self.decision = game_decision(self.totals, self.rules["target"], self.hands_played, self.rules["max_hands"])
        self.stage, self.h = "between", None

    def on_game_end(self, ev: dict[str, Any]) -> None:
        if self.stage == "hand":
            self.report("end", f"game_end in the middle of hand {self.h.number}")
        elif self.stage == "deal":
            self.report("end", "game_end before any hand was played")
        elif self.stage == "done":
            self.report("end", "a second game_end")
        elif not self.decision[0]:
            why = "a tie plays another deal (R-147)" if len(set(self.totals)) == 1 else "no side has won yet"
            self.report("end", f"game_end at totals {self.totals}: {why}")
        over, winner, capped = self.decision
        if ev["totals"] != self.totals:
            self.report("end", f"game_end totals {ev['totals']}, last hand_end totals {self.totals}")
        if ev.get("winner") != winner and not (capped and ev.get("winner") is None):
            self.report("end", f"winner {ev.get('winner')!r}, expected {winner!r}")
        if bool(ev.get("capped")) != capped:
            self.report("end", f"capped {ev.get('capped')!r}, expected {capped}")
        self.stage, self.h = "done", None

    def finish(self, complete: bool) -> None:
        if self.stage == "none":
            self.report("event", "no game event")
        elif complete and self.stage != "done":
            self.report("end", "the transcript ends before game_end")


def replay(events: list[dict[str, Any]], *, complete: bool = True) -> list[str]:
    """Problems found replaying `events` (empty: clean). `complete=False` accepts a transcript cut off mid-game."""
    r = Replayer()
    for i, ev in enumerate(events):
        r.index = i
        r.feed(ev)
    r.index = len(events)
    r.finish(complete)
    return r.problems


def checks_of(problems: Iterable[str]) -> set[str]:
    """The check names of a list of problems."""
    return {p[1:p.index("]")] for p in problems}
