"""Words from an answer record (sim.report.answer): every sentence, cell and caption a report, card, view or
notebook prints about a question is made here from the record alone, so two of them cannot disagree and no
sentence states a fact the record does not hold.

The quantity is named for what it is: the share of games won (with its fair share where three or more play each
for himself); a head-to-head score is called so, never a win rate."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.analysis.strength import LEARNED
from sim.report.answer import POWER, RARE, Answer, Player, Row, Verdict

BETTER, WORSE, SAME, DEFAULT = "better than the default", "worse than the default", "no clear difference", "the default"
GLOSSARY = (
    ("share of games won", "the games a setting's side won, out of those it played; an even match is one half "
                           "between two sides, one third when three play each for himself (its fair share)"),
    ("points", "hundredths of the games: +2.0 points is two more games won in a hundred"),
    ("Elo", "the same difference on the rating scale players know: +35 Elo wins 55% of games against an equal "
            "player (Bradley-Terry, from the share of games won)"),
    ("the default", "what `baseline` plays at the preset, the question's starting point"),
    ("beats the default", "does better beyond chance after Holm's correction for the settings tried"),
    ("among the best", "in the 95% confidence set of the best setting (Gupta's subset selection): the settings "
                       "nothing beats beyond chance"),
    ("matters less than 1 point", "every setting's difference from the default lies within +-1 point (two "
                                  "one-sided tests)"),
    ("players checked", "`baseline`, a club heuristic, and the strongest fast player the strength record measured at "
                        "the preset (`expert`, the heuristic tuned at each family, or `learned`, the trained network, "
                        "where it measured above `expert`), each sweeping the knob against itself"),
    ("power", "the chance that the strong player's check would see a reversal of the headline's size"),
    ("decisions changed", "at the default's own decisions of the knob's kind, how often the setting would choose "
                          "otherwise"),
)


LEARNED_NOTE = ("`learned` carries `expert`'s knobs: the knob set on it changes the choice of `expert`, its teacher, "
                "and it plays that choice except where its network expects another option to do better by its "
                "margin (docs/strategies.md, \"The learned player\").")


def pts(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f}" if math.isfinite(x) else "n/a"


def elo(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def share(x: float) -> str:
    return f"{x:.3f}"


def knob_setting(a: Answer, s: str) -> str:
    return f"`{a.knob}={s}`"


def fair_text(a: Answer) -> str:
    return f" (fair share {a.fair:.3f})" if a.sides > 2 else ""


def quantity(a: Answer) -> str:
    """The quantity every number of the answer is of."""
    if a.sides == 2:
        return "share of games won, side against side" if a.partners else "share of games won, one against one"
    return f"share of games won by one player against {a.sides - 1} others, each for himself{fair_text(a)}"


def effect_text(r: Row) -> str:
    """A setting's worth against the default: points of games won and Elo, each with its 95% interval."""
    return (f"{pts(r.effect)} points of games won [{pts(r.effect_low)}, {pts(r.effect_high)}], "
            f"{elo(r.elo)} Elo [{elo(r.elo_low)}, {elo(r.elo_high)}]")


def won_text(a: Answer, r: Row) -> str:
    return f"wins {share(r.share)} [{share(r.share_low)}, {share(r.share_high)}] of its games{fair_text(a)}"


def settings_list(a: Answer, settings: Sequence[str]) -> str:
    """Settings in the knob's order, as a range a player can act on: `throw` or `2`."""
    ordered = [s for s in a.settings if s in settings]
    return " or ".join(f"`{s}`" for s in ordered)


def own_play(a: Answer, p: Player, s: str) -> bool:
    return p.opponent_plays == s


def level(a: Answer) -> str:
    return f"{100 * a.alpha:.1f}%"


def short(a: Answer) -> str:
    """The answer in a few words (a cell of the grid across presets)."""
    if a.verdict == Verdict.DO:
        return " or ".join(a.advice)
    if a.verdict == Verdict.KEEP:
        return f"keep {a.default}"
    if a.verdict == Verdict.SMALL:
        return f"< {100 * a.margin:g} pt"
    if a.verdict == Verdict.DEPENDS:
        return "depends"
    if a.verdict == Verdict.NOT_ARISE:
        return "rare"
    return "?"


def what_to_do(a: Answer) -> str:
    """The card's first column: what to do, in words."""
    if a.verdict == Verdict.DO:
        return f"play {settings_list(a, a.advice)} (default `{a.default}`)"
    if a.verdict == Verdict.KEEP:
        return f"keep the default `{a.default}`"
    if a.verdict == Verdict.SMALL:
        return f"play as you like: every setting is within {100 * a.margin:g} point of `{a.default}`"
    if a.verdict == Verdict.DEPENDS:
        return "it depends on the player: " + "; ".join(f"{p.name}: {settings_list(a, p.best)}" for p in a.players)
    if a.verdict == Verdict.NOT_ARISE:
        return "the choice almost never arises here"
    return f"undecided after {a.games:,} games a setting"


def verdict_sentence(a: Answer) -> str:
    """The one sentence that states the answer; the report, the view across presets and the card each print it
    as it is (a test reads it in each)."""
    names = " and ".join(f"`{p.name}`" for p in a.players)
    if a.verdict == Verdict.DO:
        head = a.players[0].row(a.headline)
        also = [s for s in a.advice if s != a.headline]
        return (f"**Play {knob_setting(a, a.headline)}**" + (f" (or {settings_list(a, also)})" if also else "")
                + f" rather than the default {knob_setting(a, a.default)}: with `{a.players[0].name}` it is worth "
                f"{effect_text(head)}; it beats the default with {names} and nothing beats it.")
    if a.verdict == Verdict.KEEP:
        return (f"**Keep the default** {knob_setting(a, a.default)}: no setting beats it with {names} after "
                "correction, and it is among the best with each.")
    if a.verdict == Verdict.SMALL:
        return (f"**The choice matters less than {100 * a.margin:g} point**: every setting of `{a.knob}` is within "
                f"+-{100 * a.margin:g} point of the default {knob_setting(a, a.default)} with {names}.")
    if a.verdict == Verdict.DEPENDS:
        return ("**It depends on the player**: no setting is among the best with every player (" + "; ".join(
            f"with `{p.name}`, {settings_list(a, p.best) or 'none spared by the turn cap'}" for p in a.players) + ").")
    if a.verdict == Verdict.NOT_ARISE:
        return (f"**The choice almost never arises** at {a.preset}: no setting changes more than {RARE:g} of the "
                f"decisions a side and hand ({a.decision}), and none differs from the default.")
    return f"**Undecided** after {a.games:,} games a setting: {a.why}; {games_to_decide_text(a)}."


def worth(a: Answer) -> str:
    """The card's worth column: points of games won and Elo of the answer's setting, with the first player."""
    p = a.players[0]
    if a.verdict == Verdict.DO and a.headline:
        return effect_text(p.row(a.headline))
    if a.verdict == Verdict.UNDECIDED:
        return f"ahead so far: {knob_setting(a, a.leader)} {effect_text(p.row(a.leader))}" if a.leader else "-"
    others = [r for r in p.rows if r.setting != a.default and not r.capped > 0.01]
    if not others:
        return "-"
    if a.verdict == Verdict.SMALL:
        lo = min(r.effect_low for r in others)
        hi = max(r.effect_high for r in others)
        return f"every setting within [{pts(lo)}, {pts(hi)}] points"
    if a.verdict == Verdict.KEEP:
        worst = min(others, key=lambda r: r.effect)
        return f"leaving it costs up to {pts(worst.effect)} points ({knob_setting(a, worst.setting)})"
    if a.verdict == Verdict.DEPENDS:
        tops = [(q, max(q.best, key=lambda s, q=q: q.row(s).effect)) for q in a.players if q.best]
        return "; ".join(f"{q.name}: {knob_setting(a, top)} {pts(q.row(top).effect)} points" for q, top in tops)
    return "-"


def how_sure(a: Answer) -> str:
    """The card's sureness column: the test behind the verdict and its level."""
    if a.verdict == Verdict.DO:
        power = min((p.power for p in a.players[1:]), default=math.nan)
        return (f"beats the default with every player (Holm, each test at {level(a)}); the check sees a reversal "
                f"of this size {power:.0%} of the time")
    if a.verdict == Verdict.KEEP:
        return f"the default is in every player's confidence set of the best (Gupta, {level(a)})"
    if a.verdict == Verdict.SMALL:
        return f"equivalence within +-{100 * a.margin:g} point with every player (each test at {level(a)})"
    if a.verdict == Verdict.DEPENDS:
        return f"the players' confidence sets of the best do not meet (Gupta, {level(a)})"
    if a.verdict == Verdict.NOT_ARISE:
        top = max((f.per_side_hand for f in a.frequency), default=0.0)
        return f"at most {top:.3f} decisions changed a side and hand, from {a.frequency_games:,} games"
    return games_to_decide_text(a)


def games_to_decide_text(a: Answer) -> str:
    """Where an undecided answer's estimate is no more than the games played, the differences seen do not say
    how many more would decide it (no setting is on its way to beating the default with every player)."""
    if a.undecided_games > a.games:
        return f"about {a.undecided_games:,} games a setting would decide it if the differences are as they seem"
    return (f"more than the {a.games:,} games a setting played would be needed, how many the differences seen do "
            "not tell")


def players_short(a: Answer) -> str:
    return ", ".join(p.name for p in a.players)


def frequency_text(a: Answer) -> str:
    """How often the choice arises, counted where it is made."""
    if not a.frequency:
        return ""
    rows = [f for f in a.frequency]
    parts = ", ".join(f"`{f.setting}` {f.per_side_hand:.3f} ({f.share:.1%})" for f in rows)
    return (f"How often the choice arises ({a.decision}): at the {a.decisions:,} decisions of that kind with a "
            f"choice in {a.frequency_games:,} games of `{a.players[0].player}` at its default on every seat "
            f"({a.side_hands:,} side-hands), each setting would choose otherwise this often a side and hand (and as a "
            f"share of those decisions): {parts}.")


def _player_lines(a: Answer, p: Player) -> list[str]:
    lines = []
    against = f"`{p.player}` against `{p.opponent}`"
    if own_play(a, p, a.default) and p.name == a.players[0].name:
        lines.append(f"With {against} (the default row is `{p.name}` against itself: even by construction).")
    elif not p.opponent_plays:
        lines.append(f"With {against}, which has no `{a.knob}`: every row is measured against it.")
    else:
        lines.append(f"With {against}: `{p.opponent}` plays {knob_setting(a, p.opponent_plays)} at {a.preset}"
                     + (" (its own play: that row is even by construction, not measured)." if p.opponent_plays in
                        a.settings else "."))
    better = [r for r in p.rows if r.beats]
    worse = [r for r in p.rows if r.loses]
    if p.opponent_plays != a.default and p.opponent_plays in a.settings:
        d = p.row(a.default)
        lines.append(f"The default {knob_setting(a, a.default)} {won_text(a, d)} there.")
    if better:
        lines.append("Beat the default after Holm's correction: " + "; ".join(
            (f"{knob_setting(a, r.setting)}, `{p.name}`'s own play, {effect_text(r)}" if r.own_play else
             f"{knob_setting(a, r.setting)} {won_text(a, r)}, {effect_text(r)}") for r in better) + ".")
    else:
        lines.append(f"No setting beats the default {knob_setting(a, a.default)} after Holm's correction.")
    if worse:
        lines.append("Lose to it: " + ", ".join(f"{knob_setting(a, r.setting)} ({pts(r.effect)} points)"
                                              for r in worse) + ".")
    lines.append(f"Among the best (95% confidence set): {settings_list(a, p.best) or 'none'}.")
    twins = [r for r in p.rows if r.same_games_as]
    for r in twins:
        f = a.frequency_of(r.setting)
        why = (f"it never chooses otherwise than {knob_setting(a, r.same_games_as)} here"
               + (f" ({f.changed} of {a.decisions:,} decisions changed against the default)" if f else ""))
        lines.append(f"{knob_setting(a, r.setting)} plays exactly the games of {knob_setting(a, r.same_games_as)}: "
                     f"{why}.")
    capped = [r for r in p.rows if r.capped > 0.01]
    if capped:
        lines.append("Flagged, never advice: " + ", ".join(
            f"{knob_setting(a, r.setting)} ({100 * r.capped:.1f}% of its hands ended by the turn cap)" for r in capped)
            + ".")
    return lines


def answer_text(a: Answer) -> str:
    """The report's answer to one question: the verdict sentence, then what each player showed."""
    size = f"From {a.games:,} games a setting, each player"
    if len(a.looks) > 1:
        size += (f" (the design stopped at look {a.looks.index(a.games) + 1} of {len(a.looks)})"
                 if a.games in a.looks else "")
    lines = [f"### {a.question} (`{a.knob}` at {a.preset})", "", verdict_sentence(a), "", size + ".", ""]
    for p in a.players:
        lines.append(" ".join(_player_lines(a, p)))
        lines.append("")
    freq = frequency_text(a)
    if freq:
        lines += [freq, ""]
    return "\n".join(lines).rstrip()


def strongest_text(a: Answer) -> str:
    """Which stronger player checks the answer, and why not a stronger one (the strength record's measurement)."""
    s = a.strongest
    if s is None:
        return f"The strength record has no measurement at {a.preset}: the check is `{a.players[-1].name}`."
    if s.fast:
        return (f"The strongest player measured at {a.preset} is `{s.player}` (Elo {elo(s.elo)} against `reference`, "
                "from the strength record), one of the players checked.")
    cost = (f"; seeing a reversal of the headline's size with {POWER:.0%} power would take about {s.games_needed:,} "
            f"games a setting, {s.hours:.1f} hours" if s.games_needed else "")
    return (f"The strongest player measured at {a.preset} is `{s.player}` (Elo {elo(s.elo)} against `reference`); it "
            f"costs {s.seconds_per_game:.1f} s a game there (measured: {s.measured}){cost}: no stronger player is "
            f"fast enough at this preset, so the check is `{a.players[-1].name}`, the strongest fast player.")


def players_text(a: Answer, strongest: bool = True) -> str:
    """Does the answer hold with the stronger players: each player's power, and (`strongest`) the strongest
    player's cost, which a study of several questions at one preset states once."""
    lines = [f"**{a.question}** (`{a.knob}`):" + (" " + strongest_text(a) if strongest else "")]
    if not a.headline:
        lines.append(f"No setting is advised ({a.verdict.value}), so there is no headline for a stronger player to "
                     "turn round.")
    if a.headline and len(a.players) > 1:
        gain = a.players[0].row(a.headline).effect
        lines.append(" ".join(
            f"With `{p.name}`, {knob_setting(a, a.headline)} does {effect_text(p.row(a.headline))} against the "
            "default; "
            f"its check sees a reversal of {pts(gain)} points with probability {p.power:.0%} (two-sided, 5%)."
            for p in a.players[1:]))
    if a.check is not None:
        c = a.check
        if c.setting:
            lines.append(f"Against `{c.player}` ({c.games} games a setting, on the same deals): the default scores "
                         f"{share(c.default_score)} head to head, {knob_setting(a, c.setting)} {share(c.setting_score)}"
                         f": {pts(c.diff)} points (+-{100 * 1.96 * c.se:.1f} at 95%); a reversal of the headline's "
                         f"size would be seen with probability {c.power:.0%}.")
        else:
            lines.append(f"Against `{c.player}` ({c.games} games): the default scores {share(c.default_score)} head to "
                         "head.")
    return " ".join(lines)


def design(a: Answer) -> str:
    """How the record was sized, in words."""
    if len(a.looks) > 1:
        return (f"a sequential design: {', '.join(f'{n:,}' for n in a.looks)} games a setting in turn, stopping at "
                f"the first look where the answer is decided; each test at {level(a)} (Pocock's level for "
                f"{len(a.looks)} looks)")
    return f"{a.games:,} games a setting, each test at {level(a)}"


def study_method(answers: Sequence[Answer], notes: Sequence[str], rules: str = "") -> str:
    """How the study played, from its records."""
    a = answers[0]
    size = design(a)[0].upper() + design(a)[1:]
    players = "; ".join(f"`{p.player}` against `{p.opponent}`" for p in a.players)
    lines = [f"`{a.preset}`{rules}, seed {a.seed}, duplicate deals: every deal is played once per rotation of the "
             "seating, so the cards cancel and every setting meets the same cards. "
             f"Each setting is played by each player checked against the same player at its defaults ({players}). "
             f"{size}. Quantity: the {quantity(a)}. Seating: {a.seating_text}. Intervals are 95% on the deals, "
             "differences paired deal by deal; Holm's correction says which settings beat the default, Gupta's subset "
             f"selection which are among the best; +-{100 * a.margin:g} point is the margin of 'matters less'."]
    if any(p.player.split(":")[0] == LEARNED for p in a.players):
        lines.append(LEARNED_NOTE)
    lines += list(notes)
    return "\n\n".join(lines)


def summary_table(answers: Sequence[Answer]) -> pd.DataFrame:
    """One row per question: the verdict and the numbers it rests on."""
    rows = []
    for a in answers:
        p = a.players[0]
        h = p.row(a.headline) if a.headline else None
        rows.append({"question": a.question, "preset": a.preset, "knob": a.knob, "default": a.default,
                     "verdict": a.verdict.value, "advice": " or ".join(a.advice), "headline": a.headline,
                     "effect": h.effect if h else np.nan, "effect_low": h.effect_low if h else np.nan,
                     "effect_high": h.effect_high if h else np.nan, "elo": h.elo if h else np.nan,
                     "games": a.games, "players": players_short(a),
                     "best": "; ".join(f"{q.name}: {' '.join(q.best)}" for q in a.players)})
    return pd.DataFrame(rows)


def row_class(r: Row, a: Answer) -> str:
    if r.setting == a.default:
        return DEFAULT
    if r.beats:
        return BETTER
    if r.loses:
        return WORSE
    return SAME


def chart_table(a: Answer) -> pd.DataFrame:
    """Every player's rows for a chart: setting, share of games won with its interval, and its class in words."""
    return pd.DataFrame([{"player": p.name, "setting": r.setting, "share": r.share, "low": r.share_low,
                          "high": r.share_high, "class": row_class(r, a)} for p in a.players for r in p.rows])


def chart_title(a: Answer) -> str:
    return f"{a.preset}: share of games won by {a.knob}"


def chart_caption(a: Answer) -> str:
    return (f"The {quantity(a)} by `{a.knob}`, each player checked against itself, with its 95% interval; the "
            "marks say whether a setting does better than the default, worse, or no clear difference")
