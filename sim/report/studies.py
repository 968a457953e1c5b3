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

from collections.abc import Callable

from sim.report.across import ACROSS, CARDS, across, card_markdown, write_cards
from sim.report.across_variants import QUESTIONS, across_variants
from sim.report.across_variants import from_records as across_from_records
from sim.report.answer import Answer, Verdict, read_answer, read_answers, write_answer
from sim.report.asking_to_go_out import ANSWER_VALUES, ASK_VALUES, BASELINE_ANSWER, asking_to_go_out
from sim.report.black_threes import BLACK3_VALUES, black_threes
from sim.report.buraco_choices import buraco_choices
from sim.report.common import (
    CHECK_GAMES,
    FULL_GAMES,
    GAMES_ENV,
    KNOB_GAMES,
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
from sim.report.knob_study import ANSWERS, Part, knob_study, strong_player_at
from sim.report.presets import PRESET_STUDIES, choose_presets, parts_of, why_not
from sim.report.reports import REPORT, check_report_target, report_markdown, report_tables, write_report
from sim.report.taking_the_pile import MIN_PILE_VALUES, taking_the_pile
from sim.report.variant_balance import DEALER_SCORE, LEAD_OUT, balance_row, distinct_games, variant_balance
from sim.report.your_own_strategy import OWN_NOTEBOOK, OWN_TAG, own_strategy_cell, your_own_strategy
from sim.rules import RulesError
from sim.run.store import REPORT_MARK

__all__ = [
    "ACROSS", "ANSWERS", "CARDS", "KNOB_GAMES", "QUESTIONS", "Answer", "Verdict", "buraco_choices", "card_markdown",
    "read_answer", "read_answers", "write_answer", "write_cards",
    "ANSWER_VALUES", "ASK_VALUES", "BASELINE_ANSWER", "BLACK3_VALUES", "CHECK_GAMES", "DEALER_SCORE",
    "FREEZE_VALUES",
    "FULL_GAMES", "GAMES_ENV", "LEAD_OUT", "MIN_PILE_VALUES", "NOTEBOOKS", "OUT_ENV", "OWN_NOTEBOOK", "OWN_TAG",
    "PRESET_STUDIES",
    "REPORT", "REPORT_MARK", "SEED", "STUDIES", "VARIANT", "Headline", "NotApplicable", "Part", "Setup", "Study",
    "RulesError", "across", "across_from_records", "strong_player", "across_variants", "asking_to_go_out",
    "choose_presets",
    "parts_of", "why_not",
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
    "across_variants": across_variants,
    "buraco_choices": buraco_choices,
}
NUMBERS = {"freezing_the_pile": 1, "black_threes": 2, "asking_to_go_out": 3, "taking_the_pile": 4,
           "variant_balance": 5, "your_own_strategy": 6, "across_variants": 7, "buraco_choices": 9}  # 8: analyse
NOTEBOOKS = {name: f"{NUMBERS[name]:02d}_{name}" for name in STUDIES}


def get_study(name: str) -> Callable[..., Study]:
    key = name.strip()
    by_number = {f"{NUMBERS[n]:02d}": n for n in STUDIES} | {str(NUMBERS[n]): n for n in STUDIES}
    key = by_number.get(key, key)
    if key not in STUDIES:
        raise ValueError(f"unknown study {name!r}; accepted: {', '.join(STUDIES)} (or their numbers "
                         f"{', '.join(str(NUMBERS[n]) for n in STUDIES)})")
    return STUDIES[key]


# --- reports -------------------------------------------------------------------------------------------


def strong_player(preset: str) -> str:
    """The player the studies check every answer with at `preset`, beside `baseline`: the strongest fast player of
    the strength record there (`expert`, or `learned` where its network measured above it)."""
    from sim.rules import get_variant

    return strong_player_at(get_variant(preset))

