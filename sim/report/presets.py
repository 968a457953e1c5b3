"""Which presets a study answers at: the knobs each study varies, why a preset cannot answer its question,
and the presets that `--variant` names (presets, families, player counts, all)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.report import asking_to_go_out as _asking
from sim.report import black_threes as _black3
from sim.report import buraco_choices as _buraco
from sim.report import freezing_the_pile as _freezing
from sim.report import taking_the_pile as _taking
from sim.report.common import VARIANT, NotApplicable
from sim.report.knob_study import Part, applies, asked_at  # noqa: F401 - asked_at: the presets' API
from sim.report.your_own_strategy import own_parts
from sim.rules import PRESETS, get_variant, with_rules

PRESET_STUDIES = ("variant_balance", "across_variants")  # studies that take every preset by default


FIXED_PARTS: dict[str, tuple[Part, ...]] = {  # the library's questions, study by study, in the order they are asked
    "freezing_the_pile": _freezing.PARTS, "black_threes": _black3.PARTS, "asking_to_go_out": _asking.PARTS,
    "taking_the_pile": _taking.PARTS, "buraco_choices": _buraco.PARTS}


OWN_PRESET = {"buraco_choices": _buraco.PRESET}  # a study whose questions do not arise at classic-4p: its preset


def parts_of(name: str) -> list[Part] | None:
    """The knobs a study varies (None: a study of the presets themselves, variant_balance or across_variants)."""
    fixed = FIXED_PARTS
    if name in fixed:
        return list(fixed[name])
    if name == "your_own_strategy":
        return own_parts()[1]
    return None


def why_not(name: str, preset: str, rules: Sequence[str] = ()) -> str | None:
    """Why the study's question does not arise at `preset` (one line), or None where it does."""
    parts = parts_of(name)
    if parts is None:
        return None
    try:
        applies(name, parts, with_rules(get_variant(preset), list(rules)))
    except NotApplicable as e:
        return str(e)
    return None


PRESET_GROUPS = "all, a family (boat), or a player count (4p)"


def choose_presets(name: str, text: str | None, rules: Sequence[str] = ()) -> tuple[list[str], list[str]]:
    """The presets a study plays from `--variant` (comma-separated presets, families, player counts like
    `4p`, or `all`), and a line for each preset of a group where its question does not arise. A preset
    named alone where it does not arise is refused (NotApplicable); so is a group where it arises nowhere."""
    if not text:
        text = ",".join(PRESETS) if name in PRESET_STUDIES else OWN_PRESET.get(name, VARIANT)
    chosen: list[str] = []
    skipped: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        if token == "all":
            group = list(PRESETS)
        elif token.endswith("p") and token[:-1].isdigit():
            group = [p for p in PRESETS if get_variant(p).players == int(token[:-1])]
            if not group:
                counts = sorted({get_variant(p).players for p in PRESETS})
                raise ValueError(f"no preset for {token}; player counts with presets: "
                                 + ", ".join(f"{n}p" for n in counts))
        elif token in PRESETS:
            group = []
            reason = why_not(name, token, rules)
            if reason is not None:
                raise NotApplicable(reason)
            chosen.append(token)
        else:
            family = [p for p in PRESETS if p.rpartition("-")[0] == token]
            if not family:
                raise ValueError(f"unknown preset {token!r}; accepted: {', '.join(PRESETS)}, or {PRESET_GROUPS}")
            group = family
        for p in group:
            reason = why_not(name, p, rules)
            if reason is None:
                chosen.append(p)
            else:
                skipped.append(reason)
    chosen = list(dict.fromkeys(chosen))
    if not chosen:
        raise NotApplicable(skipped[0] if len(skipped) == 1 else
                            f"{name} applies at none of the presets asked ({text}): " + "; ".join(skipped))
    return chosen, skipped
