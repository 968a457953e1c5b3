"""Rules as data: a variant's rules (`variant`), the presets one file a family (`presets`), the packed array
the kernels read (`pack`), and the rules in words and in the command line's `--rule KEY=VALUE` form
(`text`). The names the other layers use are importable from `sim.rules` itself."""

from sim.rules.pack import engine_view, pack
from sim.rules.presets import FAMILIES, PRESETS, base_variant, family_players, get_variant
from sim.rules.text import (
    FIXED_FIELDS,
    IDENTITY_FIELDS,
    RULE_DOCS,
    house_rules,
    parse_rule,
    presets_markdown,
    rules_table,
    show_value,
    with_rules,
)
from sim.rules.variant import (
    FIELD_ORDER,
    GROUP_OF,
    GROUPS,
    MINUS_INF,
    ONE_DEAL,
    AskMode,
    CanastaKind,
    CardClass,
    EndOfStock,
    PileMethod,
    Rotation,
    RulesError,
    Variant,
    exact_deal_cards,
    requirement,
    rule_fields,
    validate,
)

__all__ = [
    "FAMILIES", "FIELD_ORDER", "FIXED_FIELDS", "GROUPS", "GROUP_OF", "IDENTITY_FIELDS", "MINUS_INF", "ONE_DEAL",
    "PRESETS", "RULE_DOCS", "AskMode",
    "CanastaKind", "CardClass", "EndOfStock", "PileMethod", "Rotation", "RulesError", "Variant", "base_variant",
    "engine_view", "exact_deal_cards", "family_players", "get_variant", "house_rules", "pack", "parse_rule",
    "presets_markdown", "requirement", "rule_fields", "rules_table", "show_value", "validate", "with_rules",
]
