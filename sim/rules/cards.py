"""Card names for the Python layers: rank then suit (`7C`, `TH`), a joker is `JK` (DESIGN.md)."""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52


def card_name(k: int) -> str:
    if k == JOKER:
        return "JK"
    return RANKS[k // 4] + SUITS[k % 4]


def parse_card(text: str) -> int:
    t = text.strip().upper()
    if t == "JK":
        return JOKER
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"bad card {text!r}: expected rank ({RANKS}) then suit ({SUITS}), or JK")
    return RANKS.index(t[0]) * 4 + SUITS.index(t[1])


def parse_cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def rank_class(k: int) -> int:
    return 13 if k == JOKER else k // 4


RANK_CLASS_NAMES = [*RANKS, "JK"]
