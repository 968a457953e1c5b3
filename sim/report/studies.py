"""The strategy studies behind the notebooks and `canasta-lab report`: each asks one question, plays
the games that answer it on duplicate deals, and says the answer with its interval and whether it holds
against the library's strongest players (`expert`, the tuned heuristic, and `search`).

One study is one module of sim/report/, its function returning a `Study` (tables, charts, the answer
in words), so a notebook and
a report show the same numbers from the same code. Games are kept in run folders under a cache
(`out/studies/` of the checkout, git-ignored), so a notebook run after its report, or a report asked
again with more games, plays only what is missing. This module is the studies' one entry point: the
registry `STUDIES`, and every name a notebook or the command line reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim.report import asking_to_go_out as _asking
from sim.report import black_threes as _black3
from sim.report import freezing_the_pile as _freezing
from sim.report import taking_the_pile as _taking
from sim.report.across import ACROSS, across
from sim.report.asking_to_go_out import ANSWER_VALUES, ASK_VALUES, BASELINE_ANSWER, asking_to_go_out
from sim.report.black_threes import BLACK3_VALUES, black_threes
from sim.report.common import (
    CHECK_GAMES,
    FULL_GAMES,
    GAMES_ENV,
    OUT_ENV,
    SEED,
    VARIANT,
    Headline,
    NotApplicable,
    Setup,
    Study,
    cache_dir,
    cached,
    check_games_for,
    games_from_env,
    setup,
)
from sim.report.freezing_the_pile import FREEZE_VALUES, freezing_the_pile
from sim.report.knob_study import Part, applies, knob_study
from sim.report.reports import REPORT, check_report_target, report_markdown, report_tables, write_report
from sim.report.taking_the_pile import MIN_PILE_VALUES, taking_the_pile
from sim.report.variant_balance import DEALER_SCORE, LEAD_OUT, balance_row, distinct_games, variant_balance
from sim.report.your_own_strategy import OWN_NOTEBOOK, OWN_TAG, own_parts, own_strategy_cell, your_own_strategy
from sim.rules import PRESETS, RulesError, get_variant, with_rules
from sim.run.store import REPORT_MARK

__all__ = [
    "ACROSS", "ANSWER_VALUES", "ASK_VALUES", "BASELINE_ANSWER", "BLACK3_VALUES", "CHECK_GAMES", "DEALER_SCORE",
    "FREEZE_VALUES",
    "FULL_GAMES", "GAMES_ENV", "LEAD_OUT", "MIN_PILE_VALUES", "NOTEBOOKS", "OUT_ENV", "OWN_NOTEBOOK", "OWN_TAG",
    "REPORT", "REPORT_MARK", "SEED", "STUDIES", "VARIANT", "Headline", "NotApplicable", "Part", "Setup", "Study",
    "RulesError", "across", "asking_to_go_out", "choose_presets", "parts_of", "why_not",
    "balance_row", "black_threes", "cache_dir", "cached", "check_games_for", "check_report_target",
    "distinct_games", "freezing_the_pile", "games_from_env", "get_study", "knob_study", "own_strategy_cell",
    "report_markdown", "report_tables", "setup", "taking_the_pile", "variant_balance", "write_report",
    "your_own_strategy",
]

STUDIES: dict[str, Callable[..., Study]] = {
    "freezing_the_pile": freezing_the_pile,
    "black_threes": black_threes,
    "asking_to_go_out": asking_to_go_out,
    "taking_the_pile": taking_the_pile,
    "variant_balance": variant_balance,
    "your_own_strategy": your_own_strategy,
}
NOTEBOOKS = {name: f"{i + 1:02d}_{name}" for i, name in enumerate(STUDIES)}


def parts_of(name: str) -> list[Part] | None:
    """The knobs a study varies (None: variant_balance, which varies the preset itself)."""
    fixed = {"freezing_the_pile": _freezing.PARTS, "black_threes": _black3.PARTS,
             "asking_to_go_out": _asking.PARTS, "taking_the_pile": _taking.PARTS}
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
        text = ",".join(PRESETS) if name == "variant_balance" else VARIANT
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


def get_study(name: str) -> Callable[..., Study]:
    key = name.strip()
    by_number = {f"{i + 1:02d}": n for i, n in enumerate(STUDIES)} | {str(i + 1): n for i, n in enumerate(STUDIES)}
    key = by_number.get(key, key)
    if key not in STUDIES:
        raise ValueError(f"unknown study {name!r}; accepted: {', '.join(STUDIES)} (or their numbers 1 to "
                         f"{len(STUDIES)})")
    return STUDIES[key]


# --- reports -------------------------------------------------------------------------------------------


