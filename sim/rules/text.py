"""The rules in words and in the command line's form: each rule's meaning, `--rule KEY=VALUE` parsed and
shown, the house rules of a variant, the table `canasta-lab rules` prints and docs/presets.md."""

from __future__ import annotations

from typing import Any

from sim.rules.pack import engine_view
from sim.rules.presets import PRESETS, base_variant
from sim.rules.variant import FIELD_ORDER, MINUS_INF, UNIMPLEMENTED_OPTIONS, RulesError, Variant, rule_fields

# What each rule means, for `canasta-lab rules` and docs/presets.md (R-nn: the project's readings,
# docs/rules.md): written beside each field of Variant.
RULE_DOCS: dict[str, str] = {f.name: f.metadata["doc"] for f in rule_fields()}

IDENTITY_FIELDS = ("name", "description", "seed_doc")  # describe the preset; the engine does not read them
FIXED_FIELDS = ("players", "sides")  # chosen by the preset (or --players), not by --rule


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
    fields = {f.name: f for f in rule_fields()}
    settable = [n for n in fields if n not in IDENTITY_FIELDS + FIXED_FIELDS]
    if not eq or not text.strip():
        raise RulesError(f"--rule {item!r}: write KEY=VALUE, e.g. --rule target_score=3000")
    if key in UNIMPLEMENTED_OPTIONS:
        raise RulesError(f"--rule {key}: an optional rule set that is not implemented "
                         f"({', '.join(UNIMPLEMENTED_OPTIONS)} are not); set the rule fields themselves")
    if key not in fields:
        raise RulesError(f"--rule {key}: no such rule; accepted: {', '.join(settable)}")
    if key not in settable:
        why = ("choose the preset or --players" if key in FIXED_FIELDS else "not a rule the engine plays")
        raise RulesError(f"--rule {key}: cannot be set ({why}); accepted: {', '.join(settable)}")
    current = v.rule(key)
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
    return [f"{name}={show_value(name, v.rule(name))}" for name in FIELD_ORDER
            if name not in IDENTITY_FIELDS and v.rule(name) != base.rule(name)]


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
    for f in rule_fields():
        value = v.rule(f.name) if f.name in IDENTITY_FIELDS else view[f.name]
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
    for f in rule_fields():
        if f.name == "description":
            continue
        cells = [tables[n][f.name].replace("|", "\\|") for n in names]
        lines.append(f"| `{f.name}` | " + " | ".join(f"`{c}`" for c in cells) + f" | {RULE_DOCS[f.name]} |")
    lines += ["", "Descriptions:", ""] + [f"* `{n}`: {PRESETS[n].description}" for n in names]
    return "\n".join(lines) + "\n"
