"""Every preset, one file a family, in the order `canasta-lab rules --all` lists them; a family that plays
at any player count (Railroad) is built by its function."""

from __future__ import annotations

from sim.rules.presets import boat, buraco, classic, house, pennies, railroad
from sim.rules.variant import RulesError, Variant, validate

PRESETS: dict[str, Variant] = {}
for _family in (classic, house, boat, pennies, railroad, buraco):
    for _v in _family.PRESETS:
        validate(_v)
        PRESETS[_v.name] = _v
FAMILIES = {"railroad": (railroad.railroad, railroad.RAILROAD_PLAYERS)}  # families playable at any of these counts


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

