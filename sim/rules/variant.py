"""A variant's rules as a validated, frozen, hashable dataclass (VARIANTS.md §2 and Appendix A): each
field with its meaning, the codes as string enums, and the validation that refuses what the engine
cannot play, naming the field."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sim.engine import layout as L

MINUS_INF = -(10**9)
ONE_DEAL = 0  # target_score 0: one deal is the game, the higher score wins, a tie plays another deal
PPM = L.PPM  # probabilities reach the kernels as whole parts per million

# Card values by rank class: A 2 3 4 5 6 7 8 9 T J Q K Joker (§2 row 22; the 3 is the black three).
CLASSIC_VALUES = (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
CLASSIC_MELD_TABLE = ((MINUS_INF, 15), (0, 50), (1500, 90), (3000, 120))


class RulesError(ValueError):
    """A variant description that the engine cannot play; the message names the field."""


class AskMode(StrEnum):
    """Whether and whom a player asks "may I go out?" (R-07)."""

    NONE = "none"
    PARTNER = "partner"
    CHOOSE_ONE_PARTNER = "choose_one_partner"


class EndOfStock(StrEnum):
    """What happens when the stock runs out (VARIANTS.md 1.10)."""

    CLASSIC = "E-CLASSIC"
    RESHUFFLE = "E-RESHUFFLE"
    VOLUNTARY = "E-VOLUNTARY"
    BURACO = "E-BURACO"


class Rotation(StrEnum):
    """Which way the deal passes."""

    LEFT = "left"
    RIGHT = "right"


class PileMethod(StrEnum):
    """The ways of taking the pile (VARIANTS.md 1.6): M1 a natural pair, M2 a natural and a wild, M3 a meld."""

    M1 = "M1"
    M2 = "M2"
    M3 = "M3"


class CardClass(StrEnum):
    """The classes of card that rules about the pile name."""

    WILD = "wild"
    BLACK3 = "black3"
    RED3 = "red3"


class CanastaKind(StrEnum):
    NATURAL = "natural"
    MIXED = "mixed"
    WILD = "wild"
    SEVENS = "sevens"
    SMALL_WILD = "small_wild"
    BIG_WILD = "big_wild"


# the fields holding codes, and their enum
CODE_FIELDS: dict[str, type[StrEnum]] = {
    "ask_partner": AskMode, "end_of_stock": EndOfStock, "dealer_rotation": Rotation,
    "pile_methods_unfrozen": PileMethod, "pile_methods_frozen": PileMethod, "pile_methods_premeld": PileMethod,
    "untakeable_top": CardClass, "freeze_on_discard": CardClass, "block_on_discard": CardClass,
    "upcard_cover": CardClass, "upcard_blocks": CardClass, "foot_canastas": CanastaKind,
    "going_out_kinds": CanastaKind,
}
UNIMPLEMENTED_OPTIONS = ("c3_cutthroat", "c6_hoyle_three_pack")  # optional rule sets of the texts, not played


def _code(enum: type[StrEnum], value: Any) -> Any:
    return enum(value) if isinstance(value, str) and value in enum._value2member_map_ else value


def rule(default: Any = dataclasses.MISSING, doc: str = "") -> Any:
    """A rule field with its meaning beside it (read by `canasta-lab rules` and docs/presets.md)."""
    return field(default=default, metadata={"doc": doc})


class _Group:
    """A group of rules read by one engine module: codes given as strings (a preset, `--rule`, a JSON record)
    become their enums; a string that is no code is kept, for `validate` to refuse with the accepted values."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            enum = CODE_FIELDS.get(f.name)
            if enum is None:
                continue
            value = getattr(self, f.name)
            value = tuple(_code(enum, x) for x in value) if isinstance(value, tuple) else _code(enum, value)
            object.__setattr__(self, f.name, value)


@dataclass(frozen=True)
class DealRules(_Group):
    """The deal: the pack, the hands, the upcard and what covers or blocks it, the exact-deal chance.
    Read by sim/engine/deal.py."""

    decks: int = rule(2, "52-card decks in the pack")
    jokers_per_deck: int = rule(2, "jokers added per deck")
    hand_size: int = rule(11, "cards dealt to each player")
    upcard: bool = rule(True,
        "a card is turned up to start the pile; a wild or red three is covered and freezes it (R-21)")
    # covered by another card, the pile frozen (§1.3)
    upcard_cover: tuple[str, ...] = rule(("wild", "red3"),
        "upcards that are covered by the next stock card, freezing the pile")
    # stays as the upcard and bars the first player
    upcard_blocks: tuple[str, ...] = rule(("black3",),
        "upcards that stay and bar the first player from the pile, without freezing it (R-21)")
    exact_deal_prob: float = rule(0.0,
        "probability of that exact deal, an independent draw each hand (a modelling assumption, R-04)")


@dataclass(frozen=True)
class DrawRules(_Group):
    """The draw step: how many cards, and the top discard alone as a draw (House-001); read by sim/engine/draw.py."""

    draw_count: int = rule(1,
        "cards drawn from the stock in the draw step (a last single card is a complete draw, R-08)")
    # R-54 (House-001)
    top_card_draw: bool = rule(False,
        "the top discard alone may be taken into the hand instead of drawing: not a wild or black three, "
        "frozen pile or not, never at an empty stock, and not discarded again that turn (House-001 R-54)")


@dataclass(frozen=True)
class PileRules(_Group):
    """Taking the pile: by which methods, frozen or not, what can never be taken, the one-card pile.
    Read by sim/engine/pile.py."""

    pile_methods_unfrozen: tuple[str, ...] = rule(("M1", "M2", "M3"),
        "ways to take an unfrozen pile once the side has melded: M1 natural pair, M2 natural and wild, M3 "
        "lay-off on the side's meld")
    pile_methods_frozen: tuple[str, ...] = rule(("M1",), "ways to take a frozen pile")
    pile_methods_premeld: tuple[str, ...] = rule(("M1",),
        "ways to take the pile before the side's initial meld (the minimum still applies)")
    untakeable_top: tuple[str, ...] = rule(("wild", "black3"),
        "top cards that can never be taken (a black three also bars the next player only)")
    one_card_pile_rule: bool = rule(True, "a player holding one card may not take a pile of one card (R-20)")


@dataclass(frozen=True)
class DiscardRules(_Group):
    """A discard's effect on the pile: what freezes it, what bars the next player; read by sim/engine/discard.py."""

    freeze_on_discard: tuple[str, ...] = rule(("wild",), "cards whose discard freezes the pile until it is taken")
    # block_next: bars the next player only
    block_on_discard: tuple[str, ...] = rule(("black3",),
        "cards whose discard bars the next player (only) from taking the pile (block_next)")


@dataclass(frozen=True)
class MeldRules(_Group):
    """Melds and canastas: naturals and wilds in a meld, black-three melds, the canasta's size and kinds, caps.
    Read by sim/engine/meldtable.py."""

    min_naturals: int = rule(2, "fewest natural cards in a rank meld (R-14)")
    max_wilds: int = rule(3, "most wild cards in a rank meld (R-14)")
    # R-65 (House-001), R-36 (Boat)
    wilds_below_naturals: bool = rule(False,
        "a rank meld always holds fewer wild cards than natural ones (House-001 R-65, Boat R-36)")
    # R-35 (Boat): melds of wild cards only, one per side
    wild_melds: bool = rule(False,
        "melds of wild cards only (jokers and twos, three or more, never a natural), one per side (Boat R-35)")
    # R-35 option: a wild canasta with as many jokers as twos is big
    wild_tie_big: bool = rule(False,
        "a wild canasta with as many jokers as twos counts as big rather than small (R-35 option)")
    black3_meld_min: int = rule(3, "fewest black threes in a going-out meld (R-15)")
    black3_meld_max: int = rule(4, "most black threes in a going-out meld; 0: never (R-15)")
    # R-37 (Boat): going out by melding black threes, in place of the bonus
    black3_close_bonus: int = rule(0,
        "where not 0, black threes are melded only as the last cards of the hand, and going out so earns this"
        " in place of the going-out bonus (Boat R-37)")
    canasta_size: int = rule(7, "cards that make a canasta")
    # canasta kinds whose first personal completion brings the foot
    foot_canastas: tuple[str, ...] = rule((),
        "canasta kinds whose first completion by a player (placing its seventh card) brings that player's "
        "foot (Pennies: any; Railroad: red, wild, seven, R-114)")
    # melds close at this size, a new meld of the rank after; 0: no cap
    meld_cap: int = rule(0,
        "melds close at this many cards, and a new meld of the rank may start only then; 0: no cap (R-92)")
    # sevens meld without wilds, their canasta a kind of its own
    sevens_natural_only: bool = rule(False,
        "sevens are melded without wilds, and seven sevens make a canasta kind of their own (R-97, R-118)")
    # Boat R-35: a wild canasta is small or big by its twos and jokers
    wild_canasta_small_big: bool = rule(False,
        "a wild canasta is small or big by its twos and jokers, with the bonuses above (Boat R-35); otherwise"
        " it is one kind (canasta_bonus_wild)")
    # R-97 (Pennies)
    sevens_discard_ban: bool = rule(False,
        "no seven may be discarded until every side has a sevens canasta, and never as the going-out discard;"
        " a hand of sevens only that may discard none ends the hand (R-97)")


@dataclass(frozen=True)
class OpeningRules(_Group):
    """The initial meld: the minimum by score, the opening rounds, the concealed waiver.
    Read by sim/engine/opening.py."""

    initial_meld_table: tuple[tuple[int, int], ...] = rule(CLASSIC_MELD_TABLE,
        "initial-meld minimum by the side's score at the start of the hand: (from score, minimum), the first "
        "row for any score (R-10)")
    # R-32 (Boat): each player's first turns are draw and discard only
    opening_rounds: int = rule(0,
        "each player's first turns of a hand: draw and discard only, no melding, taking or going out (Boat "
        "R-32)")
    #
    concealed_waives_minimum: bool = rule(True,
        "a concealed going out after a stock draw needs no initial-meld minimum (R-13)")


@dataclass(frozen=True)
class GoingOutRules(_Group):
    """Going out: the canastas or canasta kinds needed, the final discard, keeping the last card.
    Read by sim/engine/gorules.py."""

    going_out_canastas: int = rule(1, "canastas a side needs before one of its players may go out")
    # R-58 (House-001): the final discard is required
    going_out_discard: bool = rule(False,
        "going out needs a final discard: the last card may never be melded (House-001 R-58)")
    # R-38 (Boat)
    keep_last_card: bool = rule(False,
        "a player left with one card who may not go out keeps it and does not discard (Boat R-38)")
    # R-13 option
    concealed_requires_partner_unmelded: bool = rule(False,
        "concealed only while the partners have laid nothing either (R-13)")
    # canasta kinds a side needs one of each of to go out
    going_out_kinds: tuple[str, ...] = rule((),
        "canasta kinds a side needs one of each of before one of its players may go out (natural, mixed, "
        "wild, sevens: Pennies and Railroad)")


@dataclass(frozen=True)
class AskRules(_Group):
    """Asking "may I go out?"; read by sim/engine/ask.py."""

    # none | partner | choose_one_partner
    ask_partner: AskMode = rule(AskMode("partner"),
        "'may I go out?': none, partner, or choose_one_partner (binding either way, R-07)")


@dataclass(frozen=True)
class StockEndRules(_Group):
    """The end of the stock; read by sim/engine/stockend.py."""

    end_of_stock: EndOfStock = rule(EndOfStock("E-CLASSIC"),
        "what happens when the stock runs out (E-CLASSIC: R-05, R-06; E-RESHUFFLE: the pile, shuffled, "
        "becomes the stock, and the hand ends when both are empty, R-39; E-VOLUNTARY: take the pile by any "
        "legal method or end the hand, R-99)")
    #
    last_red3_may_meld: bool = rule(True,
        "a red three drawn as the last stock card still lets the player meld (R-05)")
    # R-06 read literally (the seed's own words)
    empty_stock_take_ends_hand: bool = rule(False,
        "R-06 read literally: a pile taken once the stock is empty ends the hand as soon as it is taken (no "
        "more melds, no discard, no going out)")


@dataclass(frozen=True)
class ScoreRules(_Group):
    """Scoring a hand: canasta bonuses, red threes, going out, concealed, the dealing bonus, penalties.
    Read by sim/engine/score.py."""

    canasta_bonus_natural: int = rule(500, "bonus for a canasta without wilds")
    canasta_bonus_mixed: int = rule(300, "bonus for a canasta with at least one wild")
    # R-35 (Boat): a wild canasta with more twos than jokers
    canasta_bonus_small_wild: int = rule(0,
        "bonus for a wild canasta with more twos than jokers (Boat R-35)")
    # R-35 (Boat): a wild canasta with more jokers than twos
    canasta_bonus_big_wild: int = rule(0,
        "bonus for a wild canasta with more jokers than twos (Boat R-35)")
    # Pennies, Railroad: a canasta of seven wild cards
    canasta_bonus_wild: int = rule(0,
        "bonus for a canasta of seven wild cards (Pennies, Railroad)")
    # Pennies, Railroad: a canasta of seven sevens
    canasta_bonus_sevens: int = rule(0,
        "bonus for a canasta of seven sevens (Pennies, Railroad)")
    # by count held by a side
    red3_points: tuple[int, ...] = rule((0, 100, 200, 300, 800),
        "points for 0, 1, 2, ... red threes laid out by a side (the last value holds for more, up to 8; each "
        "one past 8 adds the table's last step, R-19, R-115)")
    red3_negative_if_no_meld: bool = rule(True, "red threes count against a side that has melded nothing (R-12)")
    # Pennies: red threes negative without a sevens canasta
    red3_negative_without_sevens: bool = rule(False,
        "red threes count against a side without a sevens canasta (Pennies)")
    # R-34 (Boat)
    table_negative_without_canasta: bool = rule(False,
        "a side without a canasta scores its melded cards and red threes negative (Boat R-34)")
    going_out_bonus: int = rule(100, "bonus for going out")
    # 0 = no concealed bonus (R-13: 200 in total)
    concealed_total: int = rule(200,
        "bonus in total for going out concealed; 0: none (R-13)")
    # R-04 (House-001, House-003): 0 = no dealing bonus
    exact_deal_bonus: int = rule(0,
        "bonus to the dealer's side when the dealer grabbed exactly the cards needed; 0: none (R-04)")
    # points for each red three in a foot never picked up (Pennies -100, R-96)
    unpicked_foot_red3: int = rule(0,
        "points for each red three in a foot never picked up; its other cards count at their values against "
        "the side (Pennies -100, R-96; Railroad 0, R-115)")
    # Buraco: a side's morto never taken, or reached too late indirectly, costs this
    morto_penalty: int = rule(0,
        "points a side loses for a morto it never took, or took by an indirect knock when the hand ended "
        "before that player's next turn (then the morto's cards are not counted, R-140); 0: none")


@dataclass(frozen=True)
class TableRules(_Group):
    """The table's cards: a black three left in hand, the foot or kitty, the packets per side.
    Read by sim/engine/table.py."""

    # points a black three left in a hand costs (Boat: 100)
    black3_in_hand: int = rule(5,
        "points each black three left in a hand costs (its melded value is in card_values)")
    # Pennies foot, Railroad kitty: dealt face down to each player
    foot_size: int = rule(0,
        "cards dealt face down to each player as a foot (Pennies) or kitty (Railroad), picked up after the "
        "discard on the turn the player first completes a canasta of a kind in foot_canastas (R-95, R-114); "
        "0: none")
    # Buraco R-136: one face-down packet (morto) per side, not per player
    packet_per_side: bool = rule(False,
        "one face-down packet per side rather than per player: Buraco's mortos, a team's taken by whichever "
        "partner knocks first (R-136)")


@dataclass(frozen=True)
class CardRules(_Group):
    """The cards themselves: their values, threes as plain cards (Buraco); read by sim/engine/cards.py."""

    card_values: tuple[int, ...] = rule(CLASSIC_VALUES,
        "points per card: A 2 3 4 5 6 7 8 9 T J Q K joker (the 3 is the black three; red threes score "
        "separately)")
    # Buraco: threes are ordinary cards (no red-three area, sets of threes)
    threes_plain: bool = rule(False,
        "threes are ordinary cards: no red threes laid out, sets of threes allowed (Buraco)")


@dataclass(frozen=True)
class GameRules(_Group):
    """The game: the target, the deal's rotation, Buraco's game of sequences, the simulator's caps.
    Read by sim/engine/game.py."""

    target_score: int = rule(5000,
        "the game ends when a side reaches this score (a tie for the lead plays on, R-03); 0: one deal is the"
        " game, the higher score wins and a tie plays another deal (Buraco R-141, R-147)")
    target_strict: bool = rule(False, "the target must be exceeded rather than reached")
    dealer_rotation: Rotation = rule(Rotation("left"), "direction in which the deal passes")
    # Buraco (§3.10): sets and same-suit sequences, the whole pile, knocks to the morto
    sequences: bool = rule(False,
        "Buraco's game (seed 004): sets (one per rank, A or 3 to K, at most one wild) and same-suit sequences"
        " (ace low or high, at most one wild, a two in its own place natural), the whole pile taken freely, "
        "the morto reached by a direct or indirect knock, the final knock-out with a canasta (R-131 to R-140)")
    # simulator safeguard, counted in the results
    max_turns_per_hand: int = rule(1000,
        "simulator safeguard: a hand ends after this many turns (reason cap, counted, R-150)")
    # simulator safeguard, counted in the results
    max_hands_per_game: int = rule(200,
        "simulator safeguard: a game stops after this many hands (counted, R-150)")


@dataclass(frozen=True)
class Variant:
    """One variant's rules, each group read by one engine module (`v.deal.hand_size`, `v.score.going_out_bonus`).
    The rules' flat names (the config keys of VARIANTS.md §2 / Appendix A) are the keys of `--rule KEY=VALUE`,
    `Variant.of`, `replace`, `rule` and `to_dict`."""

    name: str = rule(doc="preset name")
    description: str = rule(doc="one-line description")
    seed_doc: str = rule(doc="source rules text the preset follows (002: Hoyle-based Classic Canasta)")
    players: int = rule(doc="players at the table")
    sides: tuple[tuple[int, ...], ...] = rule(
        doc="seats of each side (a side is a partnership or a lone player); partners never sit side by side")
    deal: DealRules = field(default_factory=DealRules)
    draw: DrawRules = field(default_factory=DrawRules)
    pile: PileRules = field(default_factory=PileRules)
    discard: DiscardRules = field(default_factory=DiscardRules)
    melds: MeldRules = field(default_factory=MeldRules)
    opening: OpeningRules = field(default_factory=OpeningRules)
    going_out: GoingOutRules = field(default_factory=GoingOutRules)
    ask: AskRules = field(default_factory=AskRules)
    stock_end: StockEndRules = field(default_factory=StockEndRules)
    score: ScoreRules = field(default_factory=ScoreRules)
    table: TableRules = field(default_factory=TableRules)
    cards: CardRules = field(default_factory=CardRules)
    game: GameRules = field(default_factory=GameRules)

    @classmethod
    def of(cls, **rules: Any) -> Variant:
        """A variant from the rules' flat names (`hand_size=13`), as the presets and records write them."""
        top, by_group = _by_group(rules)
        return cls(**top, **{g: GROUPS[g](**by_group.get(g, {})) for g in GROUPS})

    def rule(self, name: str) -> Any:
        """One rule by its flat name (`v.rule("hand_size")` is `v.deal.hand_size`)."""
        group = GROUP_OF.get(name)
        return getattr(self, name) if group is None else getattr(getattr(self, group), name)

    @property
    def pack_size(self) -> int:
        return self.deal.decks * (52 + self.deal.jokers_per_deck)

    @property
    def n_sides(self) -> int:
        return len(self.sides)

    def seat_side(self, seat: int) -> int:
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise RulesError(f"seat {seat} belongs to no side")

    def stock_after_deal(self) -> int:
        packets = self.n_sides if self.table.packet_per_side else self.players
        return (self.pack_size - self.players * self.deal.hand_size - packets * self.table.foot_size
                - (1 if self.deal.upcard else 0))

    def replace(self, **changes: Any) -> Variant:
        """A modified copy by the rules' flat names, validated (for sensitivity studies and tests). An
        optional rule set of the rules texts that is not implemented is refused by its name, as any key that
        is not a rule."""
        top, by_group = _by_group(changes)
        v = dataclasses.replace(self, **top, **{g: dataclasses.replace(getattr(self, g), **rules)
                                                for g, rules in by_group.items()})
        validate(v)
        return v

    def to_dict(self) -> dict[str, Any]:
        """The rules flat, in FIELD_ORDER: the `rules` record of transcripts, runs and results (its keys are
        a contract: added, never renamed)."""
        d = {name: self.rule(name) for name in FIELD_ORDER}
        d["sides"] = [list(s) for s in self.sides]
        d["initial_meld_table"] = [[a if a > MINUS_INF else None, b] for a, b in self.opening.initial_meld_table]
        if self.game.target_score == ONE_DEAL:
            d["target_score"] = None  # one deal is the game
        d["options"] = {}  # the transcript's and the run record's key, kept (fields are added, never removed)
        return json.loads(json.dumps(d))  # tuples as lists, the codes as their strings


def _by_group(rules: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Rules by their flat names split into Variant's own fields and, per group, the group's fields
    (an unknown name refused first)."""
    _refuse_unknown(rules)
    top: dict[str, Any] = {}
    by_group: dict[str, dict[str, Any]] = {}
    for name, value in rules.items():
        group = GROUP_OF.get(name)
        (top if group is None else by_group.setdefault(group, {}))[name] = value
    return top, by_group


def _refuse_unknown(rules: dict[str, Any]) -> None:
    unknown = sorted(set(rules) - FIELD_NAMES)
    if unknown:
        named = [k for k in unknown if k in UNIMPLEMENTED_OPTIONS]
        if named:
            raise RulesError(f"{', '.join(named)}: an optional rule set that is not implemented "
                             f"({', '.join(UNIMPLEMENTED_OPTIONS)} are not); set the rule fields themselves")
        raise RulesError(f"{', '.join(unknown)}: no such rule; accepted: {', '.join(sorted(FIELD_NAMES))}")


# the rules' flat names in the order records write them
FIELD_ORDER = ('name', 'description', 'seed_doc', 'players', 'sides', 'decks', 'jokers_per_deck', 'hand_size',
    'draw_count', 'top_card_draw', 'upcard', 'card_values', 'initial_meld_table', 'min_naturals', 'max_wilds',
    'wilds_below_naturals', 'wild_melds', 'canasta_bonus_natural', 'canasta_bonus_mixed', 'canasta_bonus_small_wild',
    'canasta_bonus_big_wild', 'wild_tie_big', 'red3_points', 'red3_negative_if_no_meld',
    'table_negative_without_canasta', 'black3_in_hand', 'black3_meld_min', 'black3_meld_max', 'black3_close_bonus',
    'pile_methods_unfrozen', 'pile_methods_frozen', 'pile_methods_premeld', 'untakeable_top', 'freeze_on_discard',
    'block_on_discard', 'upcard_cover', 'upcard_blocks', 'canasta_size', 'going_out_canastas', 'going_out_bonus',
    'going_out_discard', 'keep_last_card', 'opening_rounds', 'concealed_total', 'concealed_waives_minimum',
    'concealed_requires_partner_unmelded', 'ask_partner', 'one_card_pile_rule', 'end_of_stock', 'last_red3_may_meld',
    'empty_stock_take_ends_hand', 'exact_deal_bonus', 'exact_deal_prob', 'target_score', 'target_strict',
    'dealer_rotation', 'foot_size', 'foot_canastas', 'unpicked_foot_red3', 'meld_cap', 'sevens_natural_only',
    'canasta_bonus_wild', 'canasta_bonus_sevens', 'wild_canasta_small_big', 'sevens_discard_ban', 'going_out_kinds',
    'red3_negative_without_sevens', 'sequences', 'packet_per_side', 'threes_plain', 'morto_penalty',
    'max_turns_per_hand', 'max_hands_per_game')
GROUP_OF: dict[str, str] = {  # a flat name -> the group holding it (absent: a field of Variant itself)
    'decks': 'deal',
    'jokers_per_deck': 'deal',
    'hand_size': 'deal',
    'upcard': 'deal',
    'upcard_cover': 'deal',
    'upcard_blocks': 'deal',
    'exact_deal_prob': 'deal',
    'draw_count': 'draw',
    'top_card_draw': 'draw',
    'pile_methods_unfrozen': 'pile',
    'pile_methods_frozen': 'pile',
    'pile_methods_premeld': 'pile',
    'untakeable_top': 'pile',
    'one_card_pile_rule': 'pile',
    'freeze_on_discard': 'discard',
    'block_on_discard': 'discard',
    'min_naturals': 'melds',
    'max_wilds': 'melds',
    'wilds_below_naturals': 'melds',
    'wild_melds': 'melds',
    'wild_tie_big': 'melds',
    'black3_meld_min': 'melds',
    'black3_meld_max': 'melds',
    'black3_close_bonus': 'melds',
    'canasta_size': 'melds',
    'foot_canastas': 'melds',
    'meld_cap': 'melds',
    'sevens_natural_only': 'melds',
    'wild_canasta_small_big': 'melds',
    'sevens_discard_ban': 'melds',
    'initial_meld_table': 'opening',
    'opening_rounds': 'opening',
    'concealed_waives_minimum': 'opening',
    'going_out_canastas': 'going_out',
    'going_out_discard': 'going_out',
    'keep_last_card': 'going_out',
    'concealed_requires_partner_unmelded': 'going_out',
    'going_out_kinds': 'going_out',
    'ask_partner': 'ask',
    'end_of_stock': 'stock_end',
    'last_red3_may_meld': 'stock_end',
    'empty_stock_take_ends_hand': 'stock_end',
    'canasta_bonus_natural': 'score',
    'canasta_bonus_mixed': 'score',
    'canasta_bonus_small_wild': 'score',
    'canasta_bonus_big_wild': 'score',
    'canasta_bonus_wild': 'score',
    'canasta_bonus_sevens': 'score',
    'red3_points': 'score',
    'red3_negative_if_no_meld': 'score',
    'red3_negative_without_sevens': 'score',
    'table_negative_without_canasta': 'score',
    'going_out_bonus': 'score',
    'concealed_total': 'score',
    'exact_deal_bonus': 'score',
    'unpicked_foot_red3': 'score',
    'morto_penalty': 'score',
    'black3_in_hand': 'table',
    'foot_size': 'table',
    'packet_per_side': 'table',
    'card_values': 'cards',
    'threes_plain': 'cards',
    'target_score': 'game',
    'target_strict': 'game',
    'dealer_rotation': 'game',
    'sequences': 'game',
    'max_turns_per_hand': 'game',
    'max_hands_per_game': 'game',
}
FIELD_NAMES = frozenset(FIELD_ORDER)


def rule_fields() -> list[dataclasses.Field]:
    """Every rule's dataclass field (its meaning in `.metadata["doc"]`), flat, in FIELD_ORDER."""
    found = {f.name: f for f in dataclasses.fields(Variant) if f.name not in GROUPS}
    for g in GROUPS.values():
        found.update({f.name: f for f in dataclasses.fields(g)})
    return [found[n] for n in FIELD_ORDER]


GROUPS: dict[str, type] = {'deal': DealRules, 'draw': DrawRules, 'pile': PileRules, 'discard': DiscardRules,
    'melds': MeldRules, 'opening': OpeningRules, 'going_out': GoingOutRules, 'ask': AskRules,
    'stock_end': StockEndRules, 'score': ScoreRules, 'table': TableRules, 'cards': CardRules, 'game': GameRules}


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
    _need(1 <= v.deal.decks <= 2 * L.MAXP and 0 <= v.deal.jokers_per_deck <= 4,
          f"decks 1-{2 * L.MAXP}, jokers_per_deck 0-4")
    _need(v.deal.hand_size >= 1, "hand_size must be at least 1")
    _need(v.draw.draw_count in (1, 2, 3), f"draw_count={v.draw.draw_count}: accepted 1, 2 or 3")
    _need(v.stock_after_deal() > 0, "the deal leaves no stock")
    _need(len(v.cards.card_values) == L.NR, f"card_values: {L.NR} values (A 2 3 ... K Joker)")
    _need(all(x % 5 == 0 for x in v.cards.card_values), "card_values must be multiples of 5")
    t = v.opening.initial_meld_table
    _need(1 <= len(t) <= 8 and t[0][0] == MINUS_INF, "initial_meld_table: 1-8 rows, the first for any score")
    _need(all(t[i][0] < t[i + 1][0] for i in range(len(t) - 1)), "initial_meld_table: ascending thresholds")
    wilds = v.deal.decks * (4 + v.deal.jokers_per_deck)
    _need(v.melds.min_naturals in (2, 3) and 0 <= v.melds.max_wilds <= wilds,
          f"min_naturals 2 or 3; max_wilds 0-{wilds} (the wild cards in the pack: no cap)")
    _need(1 <= len(v.score.red3_points) <= 9, "red3_points: points for 0..8 red threes")
    b3 = max(6, 2 * v.deal.decks)  # every black three in the pack, and 6 as before
    _need(v.melds.black3_meld_max == 0 or 3 <= v.melds.black3_meld_min <= v.melds.black3_meld_max <= b3,
          f"black3 meld: 3 <= min <= max <= {b3}, or max 0 for never")
    for group in (v.pile.pile_methods_unfrozen, v.pile.pile_methods_frozen, v.pile.pile_methods_premeld):
        _need(all(m in METHODS for m in group), f"pile methods {group}: accepted M1, M2, M3")
    _need(all(u in CARD_CLASSES for u in v.pile.untakeable_top), f"untakeable_top: accepted {', '.join(CARD_CLASSES)}")
    for key in ("freeze_on_discard", "block_on_discard"):
        _need(all(c in DISCARDABLE for c in v.rule(key)), f"{key}: accepted {', '.join(DISCARDABLE)}")
    for key in ("upcard_cover", "upcard_blocks"):
        _need(all(c in CARD_CLASSES for c in v.rule(key)), f"{key}: accepted {', '.join(CARD_CLASSES)}")
    _need(not set(v.deal.upcard_cover) & set(v.deal.upcard_blocks),
          "upcard_cover and upcard_blocks: a card class in one only")
    _need(v.game.sequences or ("wild" in v.deal.upcard_cover and "red3" in v.deal.upcard_cover),
          "upcard_cover: wild and red3 must be covered (a wild or red three cannot start the pile)")
    _need(3 <= v.melds.canasta_size <= 13, f"canasta_size={v.melds.canasta_size}: accepted 3 to 13")
    _need(v.ask.ask_partner in ASK_MODES, f"ask_partner={v.ask.ask_partner!r}: accepted {sorted(ASK_MODES)}")
    _need(v.stock_end.end_of_stock in END_OF_STOCK,
          f"end_of_stock={v.stock_end.end_of_stock!r}: implemented {sorted(END_OF_STOCK)}")
    _need(v.game.dealer_rotation in ("left", "right"), "dealer_rotation: left or right")
    _need(v.going_out.going_out_canastas >= 0 and v.game.target_score >= 0,
          "going_out_canastas >= 0, target_score >= 0 (0: one deal is the game, R-141)")
    _need(0.0 <= v.deal.exact_deal_prob <= 1.0, f"exact_deal_prob={v.deal.exact_deal_prob}: accepted 0 to 1")
    _need(0 <= v.opening.opening_rounds <= 10, f"opening_rounds={v.opening.opening_rounds}: accepted 0 to 10")
    for key in ("canasta_bonus_small_wild", "canasta_bonus_big_wild", "black3_close_bonus", "black3_in_hand"):
        x = v.rule(key)
        _need(x >= 0 and x % 5 == 0, f"{key}={x}: a multiple of 5, at least 0")
    _need(v.melds.black3_close_bonus == 0 or v.melds.black3_meld_max > 0,
          "black3_close_bonus needs a black-three meld (black3_meld_max > 0)")
    _need(not v.melds.wild_melds or v.melds.canasta_size <= wilds,
          "wild_melds: the pack holds too few wilds for a wild canasta")
    _need(v.score.exact_deal_bonus >= 0 and v.score.exact_deal_bonus % 5 == 0,
          f"exact_deal_bonus={v.score.exact_deal_bonus}: a multiple of 5, at least 0 (0: no dealing bonus)")
    _need(v.score.exact_deal_bonus > 0 or v.deal.exact_deal_prob == 0.0,
          "exact_deal_prob needs a dealing bonus: set exact_deal_bonus too (House presets have 100)")
    _need(1 <= v.game.max_turns_per_hand <= 100_000 and 1 <= v.game.max_hands_per_game <= 10_000,
          "max_turns_per_hand 1-100000, max_hands_per_game 1-10000")
    _validate_feet_and_caps(v)
    _validate_buraco(v)
    if v.ask.ask_partner != "none":
        _need(any(len(side) > 1 for side in v.sides), "ask_partner needs partnerships")


def _validate_feet_and_caps(v: Variant) -> None:
    """Pennies' and Railroad's rules (§3.8, §3.9): feet, capped melds, sevens, the canasta kinds."""
    for key in ("foot_canastas", "going_out_kinds"):
        names = v.rule(key)
        _need(all(k in CANASTA_KINDS for k in names) and len(set(names)) == len(names),
              f"{key}={','.join(names)}: accepted each of {', '.join(CANASTA_KINDS)} once")
        for k in names:
            _need(k != "sevens" or v.melds.sevens_natural_only, f"{key}: sevens canastas need sevens_natural_only")
            _need(k != "wild" or (v.melds.wild_melds and not v.melds.wild_canasta_small_big),
                  f"{key}: wild canastas need wild_melds (and not wild_canasta_small_big)")
            _need(k not in ("small_wild", "big_wild") or v.melds.wild_canasta_small_big,
                  f"{key}: small and big wild canastas need wild_canasta_small_big")
    _need(0 <= v.table.foot_size <= 20, f"foot_size={v.table.foot_size}: accepted 0 to 20")
    _need(v.melds.meld_cap in (0, v.melds.canasta_size),
          f"meld_cap={v.melds.meld_cap}: 0 (no cap) or canasta_size ({v.melds.canasta_size})")
    if v.table.foot_size > 0 and not v.game.sequences:
        _need(v.melds.meld_cap > 0, "foot_size: feet are played with capped melds only (set meld_cap)")
        _need(v.table.foot_size <= v.deal.hand_size, "foot_size: at most hand_size")
        _need(v.stock_end.end_of_stock != "E-RESHUFFLE", "foot_size: a foot cannot be played with E-RESHUFFLE")
    _need(v.table.foot_size > 0 or not v.melds.foot_canastas, "foot_canastas needs a foot (foot_size)")
    if v.melds.meld_cap > 0:
        _need(v.going_out.going_out_canastas <= 1, "meld_cap: going_out_canastas 0 or 1 (use going_out_kinds)")
        _need(not v.melds.wild_canasta_small_big, "meld_cap: wild canastas are one kind (wild_canasta_small_big off)")
    _need(not v.going_out.going_out_kinds or v.melds.meld_cap > 0,
          "going_out_kinds is played with capped melds only (meld_cap)")
    _need(v.score.canasta_bonus_sevens == 0 or v.melds.sevens_natural_only,
          "canasta_bonus_sevens needs sevens_natural_only")
    _need(not v.melds.sevens_discard_ban or v.melds.sevens_natural_only, "sevens_discard_ban needs sevens_natural_only")
    _need(not v.score.red3_negative_without_sevens or v.melds.sevens_natural_only,
          "red3_negative_without_sevens needs sevens_natural_only")
    _need(not v.melds.wild_canasta_small_big or v.melds.wild_melds, "wild_canasta_small_big needs wild_melds")
    for key in ("canasta_bonus_wild", "canasta_bonus_sevens"):
        x = v.rule(key)
        _need(x >= 0 and x % 5 == 0, f"{key}={x}: a multiple of 5, at least 0")
    _need(v.score.unpicked_foot_red3 % 5 == 0, f"unpicked_foot_red3={v.score.unpicked_foot_red3}: a multiple of 5")


def _validate_buraco(v: Variant) -> None:
    """Buraco's rules (§3.10) go together: its own turn plays them all, and a Canasta turn none."""
    buraco = (v.game.sequences, v.table.packet_per_side, v.cards.threes_plain, v.stock_end.end_of_stock == "E-BURACO",
              v.score.morto_penalty > 0)
    _need(all(buraco) or not any(buraco),
          "sequences, packet_per_side, threes_plain, end_of_stock=E-BURACO and morto_penalty > 0 are Buraco's "
          "rules and go together (the buraco presets)")
    _need(v.score.morto_penalty >= 0 and v.score.morto_penalty % 5 == 0,
          f"morto_penalty={v.score.morto_penalty}: a multiple of 5")
    if not v.game.sequences:
        _need(v.game.target_score > 0, "target_score 0 (one deal) is Buraco's (R-141); give a target above 0")
        return
    _need(v.players in (2, 4) and (v.players == 2 or v.sides == ((0, 2), (1, 3))),
          "sequences: Buraco is played by two, or by four in two partnerships (seats 0+2 and 1+3)")
    m = v.melds
    _need(v.table.foot_size > 0 and m.meld_cap == 0 and not m.wild_melds and m.max_wilds == 1 and m.min_naturals == 2,
          "sequences: a morto (foot_size), no meld cap, no wild melds, one wild a meld (max_wilds=1, min_naturals=2)")
    _need(v.draw.draw_count == 1 and v.ask.ask_partner == "none" and v.score.concealed_total == 0
          and not v.draw.top_card_draw
          and v.going_out.going_out_canastas >= 1 and not v.going_out.going_out_kinds,
          "sequences: one card drawn, no asking, no concealed bonus, no top-card draw, a canasta to go out")
    pile = v.pile
    _need(not (pile.pile_methods_unfrozen or pile.pile_methods_frozen or pile.pile_methods_premeld
               or pile.untakeable_top or v.discard.freeze_on_discard or v.discard.block_on_discard
               or v.deal.upcard_cover or v.deal.upcard_blocks),
          "sequences: the pile is always taken whole (R-135): no pile methods, untakeable, freezing, blocking or "
          "covered cards")



def requirement(v: Variant, score: int) -> int:
    """Initial-meld minimum for a side's cumulative score (mirrors the kernel; for docs and tests)."""
    req = v.opening.initial_meld_table[0][1]
    for thr, r in v.opening.initial_meld_table:
        if score >= thr:
            req = r
    return req


def exact_deal_cards(v: Variant) -> int:
    """Cards the dealer must grab for the exact-deal bonus: every hand and the upcard (R-66, §1.12)."""
    return v.players * v.deal.hand_size + (1 if v.deal.upcard else 0)

