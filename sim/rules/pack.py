"""Packing a variant into the int64 array the kernels read (every rule value goes through here), and
the rules read back from it (`engine_view`), so what `canasta-lab rules` prints is the engine's data."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.engine import layout as L
from sim.rules.variant import (
    ASK_MODES,
    CANASTA_KINDS,
    CARD_CLASSES,
    END_OF_STOCK,
    METHODS,
    MINUS_INF,
    ONE_DEAL,
    PPM,
    Variant,
    validate,
)


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
    R[L.R_HAND] = v.deal.hand_size
    R[L.R_PACK] = v.pack_size
    R[L.R_DECKS] = v.deal.decks
    R[L.R_JOKERS] = v.deal.decks * v.deal.jokers_per_deck
    R[L.R_DRAW] = v.draw.draw_count
    R[L.R_UPCARD] = int(v.deal.upcard)
    R[L.R_GO_CANASTAS] = v.going_out.going_out_canastas
    R[L.R_GO_BONUS] = v.score.going_out_bonus
    R[L.R_CONC_BONUS] = v.score.concealed_total
    R[L.R_CONC_WAIVE] = int(v.opening.concealed_waives_minimum)
    R[L.R_CONC_PARTNER_UNMELDED] = int(v.going_out.concealed_requires_partner_unmelded)
    R[L.R_B3MIN] = v.melds.black3_meld_min
    R[L.R_B3MAX] = v.melds.black3_meld_max
    R[L.R_MIN_NAT] = v.melds.min_naturals
    R[L.R_MAX_WILD] = v.melds.max_wilds
    R[L.R_WILD_LT_NAT] = int(v.melds.wilds_below_naturals)
    R[L.R_TOP_CARD] = int(v.draw.top_card_draw)
    R[L.R_GO_DISCARD] = int(v.going_out.going_out_discard)
    R[L.R_EXACT_PPM] = round(v.deal.exact_deal_prob * PPM)
    R[L.R_EXACT_BONUS] = v.score.exact_deal_bonus
    R[L.R_OPEN_ROUNDS] = v.opening.opening_rounds
    R[L.R_WILD_MELDS] = int(v.melds.wild_melds)
    R[L.R_WILD_TIE_BIG] = int(v.melds.wild_tie_big)
    R[L.R_TABLE_NEG] = int(v.score.table_negative_without_canasta)
    R[L.R_B3_HAND] = v.table.black3_in_hand
    R[L.R_KEEP_LAST] = int(v.going_out.keep_last_card)
    R[L.R_B3_CLOSE] = v.melds.black3_close_bonus
    R[L.R_CANBONUS + L.CK_SMALL_WILD] = v.score.canasta_bonus_small_wild
    R[L.R_CANBONUS + L.CK_BIG_WILD] = v.score.canasta_bonus_big_wild
    R[L.R_CANBONUS + L.CK_NATURAL] = v.score.canasta_bonus_natural
    R[L.R_CANBONUS + L.CK_MIXED] = v.score.canasta_bonus_mixed
    R[L.R_CANBONUS + L.CK_WILD] = v.score.canasta_bonus_wild
    R[L.R_CANBONUS + L.CK_SEVENS] = v.score.canasta_bonus_sevens
    R[L.R_FOOT] = v.table.foot_size
    R[L.R_FOOT_KINDS] = _kinds(v.melds.foot_canastas)
    R[L.R_FOOT_R3] = v.score.unpicked_foot_red3
    R[L.R_MELD_CAP] = v.melds.meld_cap
    R[L.R_SEVENS] = int(v.melds.sevens_natural_only)
    R[L.R_SEVENS_BAN] = int(v.melds.sevens_discard_ban)
    R[L.R_WILD_SPLIT] = int(v.melds.wild_canasta_small_big)
    R[L.R_GO_KINDS] = _kinds(v.going_out.going_out_kinds)
    R[L.R_RED3_NEG_SEVENS] = int(v.score.red3_negative_without_sevens)
    R[L.R_SEQ] = int(v.game.sequences)
    R[L.R_PACKET_SIDE] = int(v.table.packet_per_side)
    R[L.R_THREES_PLAIN] = int(v.cards.threes_plain)
    R[L.R_MORTO_PEN] = v.score.morto_penalty
    R[L.R_CANASTA] = v.melds.canasta_size
    R[L.R_FREEZE_ON] = _mask(v.discard.freeze_on_discard)
    R[L.R_BLOCK_ON] = _mask(v.discard.block_on_discard)
    R[L.R_UPCARD_COVER] = _mask(v.deal.upcard_cover)
    R[L.R_UPCARD_BLOCK] = _mask(v.deal.upcard_blocks)
    R[L.R_ASK] = ASK_MODES[v.ask.ask_partner]
    R[L.R_ONE_CARD] = int(v.pile.one_card_pile_rule)
    R[L.R_EOS] = END_OF_STOCK[v.stock_end.end_of_stock]
    R[L.R_LAST_R3_MELD] = int(v.stock_end.last_red3_may_meld)
    R[L.R_EOS_TAKE_ENDS] = int(v.stock_end.empty_stock_take_ends_hand)
    R[L.R_TARGET] = v.game.target_score if v.game.target_score != ONE_DEAL else MINUS_INF  # one deal: reached at once
    R[L.R_TARGET_STRICT] = int(v.game.target_strict)
    R[L.R_MAX_TURNS] = v.game.max_turns_per_hand
    R[L.R_MAX_HANDS] = v.game.max_hands_per_game
    R[L.R_PM_UNFROZEN] = sum(METHODS[m] for m in set(v.pile.pile_methods_unfrozen))
    R[L.R_PM_FROZEN] = sum(METHODS[m] for m in set(v.pile.pile_methods_frozen))
    R[L.R_PM_PREMELD] = sum(METHODS[m] for m in set(v.pile.pile_methods_premeld))
    R[L.R_UNTAKE] = _mask(v.pile.untakeable_top)
    R[L.R_RED3_NEG] = int(v.score.red3_negative_if_no_meld)
    R[L.R_DEALER_DIR] = 1 if v.game.dealer_rotation == "left" else -1
    # one meld per rank: at most 11 rank melds and a black-three meld per side; where melds close
    # as many rows as three-card melds the pack's cards but its threes make, and a black-three meld
    R[L.R_MAXM] = (v.pack_size - 4 * v.deal.decks) // 3 + 2 if v.melds.meld_cap > 0 else 16
    if v.game.sequences:
        R[L.R_MAXM] = v.pack_size // 3  # any number of sequences per suit: as many as three-card melds
    for r, x in enumerate(v.cards.card_values):
        R[L.R_CARDVAL + r] = x
    pts = list(v.score.red3_points) + [v.score.red3_points[-1]] * (9 - len(v.score.red3_points))
    for k, x in enumerate(pts):
        R[L.R_RED3TAB + k] = x
    R[L.R_MTAB_N] = len(v.opening.initial_meld_table)
    for i, (thr, req) in enumerate(v.opening.initial_meld_table):
        R[L.R_MTAB_THR + i] = thr
        R[L.R_MTAB_REQ + i] = req
    for p in range(v.players):
        R[L.R_SEAT_SIDE + p] = v.seat_side(p)
    return R



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
    }

