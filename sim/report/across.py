"""One view across presets: the answers of knob studies asked at several presets side by side (issue 27,
part 2), with the sentences that say where an answer changes and where it holds.

It reads only what the studies already measured (their `summary` tables), so it plays no game: a study
asked at one more preset adds its row here from its own cached games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from sim.report.common import FAIR, RARE, Z95, Z95_WIDTH, Headline, Study, fmt_pct, study_meta

ACROSS = "across"  # the stem's suffix of a view across presets: reports/STUDY-across.md


MIN_TEST_DEALS = 100  # a difference read from fewer deals rests on a spread estimated from too few of them


POCOCK_Z = 2.361  # Pocock's bound for four equally spaced looks at a two-sided 5% (Jennison & Turnbull, table 2.1)


def decided(h: Headline) -> bool:
    """A headline that decides: its 95% interval within +-1 point, or its distance from an even match beyond
    Pocock's bound (a sequential design may look at it four times) from at least MIN_TEST_DEALS deals."""
    if h.sized:
        return True
    se = (h.high - h.low) / Z95_WIDTH
    return h.deals >= MIN_TEST_DEALS and se > 0 and abs(h.value - FAIR) / se > POCOCK_Z


def _recommendation(r: pd.Series) -> str:
    """What a player is told at one preset: a setting, the default, or that the choice does not arise."""
    if r["rare"]:
        return "the choice almost never arises"
    if r["advice"]:
        return f"{r['knob']}={r['advice']}"
    if r["real"]:
        against = f"with {r['strong'].split(':')[0]}" if not r["holds"] else "against search"
        return f"{r['knob']}={r['best']} beats the default, but not {against}: no advice"
    return f"keep the default {r['knob']}={r['default']}"


def across(studies: Sequence[Study]) -> Study:
    """The studies' answers (each a knob study at one preset) as one table, one chart and the sentences
    that say, per question, at which presets the answer is the same and where it changes."""
    if not studies:
        raise ValueError("across needs at least one study")
    t0 = time.perf_counter()
    rows = pd.concat([s.tables["summary"].assign(study=s.name, question=s.title, games=s.games) for s in studies],
                     ignore_index=True)
    rows["recommendation"] = [_recommendation(r) for _, r in rows.iterrows()]
    rows["decided"] = [decided(Headline("", r["win_rate"], r["win_low"], r["win_high"], int(r["deals"])))
                       for _, r in rows.iterrows()]
    rows["gain"] = rows["win_rate"] - FAIR
    answer: list[str] = []
    for (question, knob), grp in rows.groupby(["question", "knob"], sort=False):
        by = grp.groupby("recommendation", sort=False)["variant"].apply(list)
        if len(by) == 1:
            answer.append(f"**{question}** (`{knob}`): the same answer at every preset asked "
                          f"({', '.join(grp['variant'])}): {by.index[0]}.")
        else:
            answer.append(f"**{question}** (`{knob}`): the answer changes with the preset: "
                          + "; ".join(f"{rec} at {', '.join(v)}" for rec, v in by.items()) + ".")
        for _, r in grp.iterrows():
            answer.append(f"- {r['variant']}: best other setting `{knob}={r['best']}` wins {r['win_rate']:.3f} "
                          f"[{r['win_low']:.3f}, {r['win_high']:.3f}] against `{knob}={r['default']}` "
                          f"({fmt_pct(r['gain'])}; "
                          f"{'it beats' if r['real'] else 'no setting beats'} the default after Holm); with "
                          f"`{r['strong']}` the same choice is {'' if r['holds'] else 'not '}among the best"
                          + (f"; the choice changes what a side does {r['arises']:.3f} times a side and hand"
                             if pd.notna(r["arises"]) else "")
                          + (f"; against `search` ({r['search_games']} games a setting) it does "
                             f"{fmt_pct(r['search_diff'])} (+-{100 * Z95 * r['search_se']:.1f}) against the default"
                             if r["search_games"] > 0 else "")
                          + ("" if r["decided"] else f"; **undecided** at {r['games']} games a setting") + ".")
    heads = [Headline(f"{r['variant']}: {r['knob']}={r['best']} against {r['knob']}={r['default']}", r["win_rate"],
                      r["win_low"], r["win_high"], int(r["deals"]), settled=bool(r["decided"]))
             for _, r in rows.iterrows()]

    def forest(ax: Any) -> Any:
        from sim import plots

        table = rows.assign(label=[f"{r['variant']}: {r['knob']}={r['best']}" for _, r in rows.iterrows()])
        return plots.forest(ax, table, title="best other setting against the default, by preset")

    charts: dict[str, tuple[str, Callable[[Any], Any]]] = {
        "across": ("The best other setting against the default at each preset, with its 95% interval", forest)}
    names = list(dict.fromkeys(s.name for s in studies))
    method = ("Each row is one preset's study, played as its own report says (players, games, seating); this view "
              "reads their answers and plays nothing. A setting is advised at a preset only where it beats the "
              "default after Holm's correction and holds with the strong player; where the choice changes what a "
              f"side does less than {RARE:g} times a side and hand, the preset says the choice almost never arises.\n\n"
              + f"How each study plays, as at {studies[0].variant} (the others change only the preset, its games "
                f"and its seating): {studies[0].method.split(chr(10))[0]}\n\n"
              + "Games per setting: " + "; ".join(
                  f"{name}: " + ", ".join(f"{s.variant} {s.games}" for s in studies if s.name == name)
                  for name in dict.fromkeys(s.name for s in studies)) + ".")
    first = studies[0]
    study = Study(f"{'+'.join(names)}", f"{first.title} Across presets" if len(names) == 1 else "Across presets",
                  "How does the answer change from preset to preset?", method,
                  {"summary": rows[["question", "variant", "knob", "default", "best", "win_rate", "win_low",
                                    "win_high", "real", "decided", "games", "arises", "strong_win_rate", "holds",
                                    "power", "search_games", "search_diff", "search_se", "recommendation"]]},
                  charts, "\n".join(answer), "", heads, first.games, first.seed, time.perf_counter() - t0,
                  study_meta(), ACROSS)
    return study
