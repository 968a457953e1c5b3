"""Study 05: how balanced is each variant: the edge of the seat, of the dealer, of going out first?"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.records.results import Results, play
from sim.records.tidy import hand_sides
from sim.report.common import CAP_SHARE, SEARCH, SEED, Headline, Setup, Study, fmt_pct, rules_text, setup, study_meta
from sim.rules import PRESETS, RulesError, Variant, get_variant
from sim.rules.variant import ONE_DEAL
from sim.run.output import folder_name
from sim.stats import mean_interval, wilson

LEAD_OUT = "side of the player left of the dealer goes out (share of hands ended by going out)"


DEALER_SCORE = "dealer's side hand score minus the others' mean"


def balance_row(variant: str, games: pd.DataFrame, hands: pd.DataFrame) -> list[dict[str, Any]]:
    """Seat and dealer advantage, hand and game length and the spread of scores of one preset."""
    v = get_variant(variant)
    n = v.n_sides
    fair = 1 / n
    first = hands[hands["hand"] == hands["hand"].min()].set_index("game")["dealer"]
    dealer_side = np.array([v.seat_side(int(p)) for p in first.reindex(games["game"]).to_numpy()])
    won_first = (games["winner_side"].to_numpy() == dealer_side)
    k = int(won_first.sum())
    lo, hi = wilson(k, len(games))
    hs = hand_sides(hands)
    hs["dealer_side"] = [v.seat_side(int(p)) for p in hs["dealer"]]
    own = hs[hs["side"] == hs["dealer_side"]].set_index(["game", "hand"])["total"]
    others = hs[hs["side"] != hs["dealer_side"]].groupby(["game", "hand"])["total"].mean()
    diff = (own - others.reindex(own.index)).to_numpy(dtype=float)
    d, dlo, dhi = mean_interval(diff)
    leader = (hands["dealer"] + 1) % v.players
    lead_side = np.array([v.seat_side(int(p)) for p in leader])
    out = hands["out_side"].to_numpy()
    went = hands["reason"].astype(str).to_numpy() == "out"
    lead_out = (out == lead_side) & went
    lk = int(lead_out.sum())
    llo, lhi = wilson(lk, int(went.sum()))
    turns = mean_interval(hands["turns"].to_numpy(dtype=float))
    hpg = mean_interval(games["n_hands"].to_numpy(dtype=float))
    sd = float(hs["total"].std())
    base = {"variant": variant, "players": v.players, "sides": n}
    share = {"fair_share": fair}  # only the win-rate rows have one
    return [
        {**base, **share, "measure": "first dealer's side wins the game", "value": k / len(games), "low": lo,
         "high": hi, "excess": k / len(games) - fair},
        {**base, **share, "measure": LEAD_OUT, "value": lk / max(int(went.sum()), 1), "low": llo, "high": lhi,
         "excess": lk / max(int(went.sum()), 1) - fair},
        {**base, "measure": DEALER_SCORE, "value": d, "low": dlo, "high": dhi, "excess": d},
        {**base, "measure": "turns per hand", "value": turns[0], "low": turns[1], "high": turns[2], "excess": np.nan},
        {**base, "measure": "hands per game", "value": hpg[0], "low": hpg[1], "high": hpg[2], "excess": np.nan},
        {**base, "measure": "hand score per side, standard deviation", "value": sd, "low": np.nan, "high": np.nan,
         "excess": np.nan},
    ]


def one_game_per_deal(st: Setup, v: Variant, strategy: str, deals: int, out: str) -> tuple[pd.DataFrame,
                                                                                          pd.DataFrame]:
    """`deals` deals with `strategy` on every seat, one game each. Games are dealt in duplicate (the seating
    rotated over the same cards), and with one strategy everywhere the rotations are the same game again:
    counting them would overstate the evidence by the number of sides, and playing them would cost as many
    times the games, so each deal is played once, on its base seating (`one_rotation`: the same game as the
    first rotation of a run of every rotation, game for game)."""
    return distinct_games(st.run(play, v, strategy, games=deals, seed=st.seed, hands=True, out=out,
                                 one_rotation=True))


def distinct_games(r: Results, deals: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The games and hands of a run with one strategy on every seat, one game per deal (the first
    `deals` deals when given): its duplicate rotations replay the same game."""
    n = int(r.meta["duplicate_rotations"])
    keep = r.games["game"] % n == 0
    if deals is not None:
        keep &= r.games["game"] < deals * n
    g = r.games[keep].reset_index(drop=True)
    h = r.hands if r.hands is not None else pd.DataFrame({"game": pd.Series([], dtype=np.int64)})
    return g, h[h["game"].isin(g["game"])].reset_index(drop=True)


PLAYERS = ("reference", "expert")  # the fixed yardstick and the strongest fast player, each on every seat


PILE_SHY = {"min_pile": 8, "bu_take": 3}  # the third player: the yardstick taking only bigger piles


PILE_SHY_ROLE = "pile-shy"  # the third player's column in the summary, whichever knob it sets


def pile_shy(v: Variant) -> str:
    """`reference` with the pile play changed (the knob of the pile threshold that acts at `v`): an edge that
    moves with it comes from the players' pile play, not from the rules."""
    from strategies import parse_strategy

    spec = parse_strategy("reference").spec
    knob, value = next((k, x) for k, x in PILE_SHY.items() if spec.knob(k).acts_at(v))
    return f"reference:{knob}={value}"


def _verdict(rows: pd.DataFrame) -> str:
    """The first dealer's edge at one preset across its players: of the rules only if every player shows
    it on the same side of the fair share; a row flagged for the turn cap judges nothing."""
    ok = rows[~rows["capped"]]
    if ok.empty:
        return "not judged (every player's hands hit the turn cap)"
    above = (ok["low"] > ok["fair_share"]).all()
    below = (ok["high"] < ok["fair_share"]).all()
    none = ((ok["low"] <= ok["fair_share"]) & (ok["fair_share"] <= ok["high"])).all()
    if above or below:
        return "an edge of the rules: " + ("for" if above else "against") + " the first dealer's side with every player"
    if none:
        return "no measurable edge with any player"
    return "an edge of the players, not of the rules: it comes and goes with who plays"


def _rules_edge(rows: pd.DataFrame) -> float:
    """The edge every player shows, its interval clear of the fair share (the smallest in size), else 0:
    the ranking key, zero exactly where the verdict names no edge of the rules."""
    ok = rows[~rows["capped"]]
    if ok.empty or not ((ok["low"] > ok["fair_share"]).all() or (ok["high"] < ok["fair_share"]).all()):
        return 0.0
    return float(ok["excess"].abs().min() * np.sign(ok["excess"].iat[0]))


@dataclass
class _Played:
    """The games of every preset asked and its players: the balance rows of each (preset, player), and the
    hands, scores and games of the first player, whose distributions the charts draw."""

    table: pd.DataFrame
    hands: pd.DataFrame  # turns per hand
    scores: pd.DataFrame  # hand score per side
    games: pd.DataFrame  # hands per game


def variant_balance(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                    out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0, progress: Any = None,
                    scheduler: Any = None, presets: Sequence[str] | None = None,
                    players: Sequence[str] | None = None, seating: Any = None) -> Study:
    """Every preset (a new one appears here by itself, or those of `presets`) played by each of `players`
    on every seat (default `reference`, `expert`, and `reference` with other pile play): who gains from the
    seating, with which players, how long hands and games last, how spread the scores are. A house rule
    that some presets refuse is played at the others, and the refusing ones are named. One strategy on
    every seat: `seating` has nothing to choose here."""
    st = setup("variant_balance", games, seed, check_games, out, rules, workers, progress, scheduler)
    games, check = st.games, st.check
    names, refused = _playable(st, list(presets) if presets is not None else list(PRESETS))
    t0 = time.perf_counter()
    played = _play_presets(st, names, players, games)
    table = played.table
    strong, strong_deals = _check_with_search(st, names[0], check)
    first = table[table["measure"].str.startswith("first dealer")]
    heads = [Headline(f"{r.variant}, {r.players} on every seat: first dealer's side wins the game", r.value, r.low,
                      r.high, games) for r in first.itertuples() if not r.capped]
    summary = _summary(first)
    answer = _answer(summary, table, names)
    holds = ""
    if strong is not None:
        s0 = strong.iloc[0]
        holds = (f"With `{SEARCH}` on every seat of `{names[0]}` ({strong_deals} deals), the first dealer's "
                 f"side wins {s0.value:.3f} [{s0.low:.3f}, {s0.high:.3f}]; hands last {strong.iloc[3].value:.1f} "
                 f"turns and games {strong.iloc[4].value:.2f} hands (with the fast players: see the table).")
        table = pd.concat([table, strong], ignore_index=True)
    charts = _charts(table, played, (players or PLAYERS)[0])
    study = Study("variant_balance", "How balanced is each variant?",
                  "Does the seating favour a side (the dealer's, or the first to play), with which players? How long "
                  "do hands and games last, and how spread are the scores, in every preset?",
                  _method(st, names, refused, players, games, seed, check),
                  {"balance": table, "summary": summary, "hands_per_game": played.games}, charts, "\n".join(answer),
                  holds, heads, games, seed, time.perf_counter() - t0, study_meta())
    study.meta["refused"] = refused
    return study


def _playable(st: Setup, asked: list[str]) -> tuple[list[str], list[str]]:
    """The presets asked that accept the house rules, and those refusing them, each with its reason; none
    accepting them is an error."""
    names, refused = [], []
    for name in asked:
        try:
            st.variant(name)
            names.append(name)
        except RulesError as e:
            refused.append(f"{name} ({e})")
    if not names:
        raise RulesError("every preset asked refuses the house rules: " + "; ".join(refused))
    return names, refused


def _play_presets(st: Setup, names: Sequence[str], players: Sequence[str] | None, games: int) -> _Played:
    """`games` deals of every preset with each player on every seat (the default players, and `reference`
    with other pile play, unless `players` are given): their balance rows, each flagged when more than
    CAP_SHARE of its hands end at the turn cap."""
    lineup = players or PLAYERS
    rows: list[dict[str, Any]] = []
    turns, scores, lengths = [], [], []
    for name in names:
        v = st.variant(name)
        cast = {p: p for p in lineup} | ({} if players else {PILE_SHY_ROLE: pile_shy(v)})
        for role, strategy in cast.items():
            g, h = one_game_per_deal(st, v, strategy, games, f"{name}-{folder_name(strategy)}")
            capped = float((h["reason"].astype(str) == "cap").mean()) if len(h) else 0.0
            rows += [{**r, "players": strategy, "role": role, "capped_share": capped, "capped": capped > CAP_SHARE}
                     for r in balance_row(name, g, h)]
            if strategy == lineup[0]:
                turns.append(pd.DataFrame({"variant": name, "turns": h["turns"].to_numpy()}))
                scores.append(pd.DataFrame({"variant": name, "score": hand_sides(h)["total"].to_numpy()}))
                lengths.append(pd.DataFrame({"variant": name, "n_hands": g["n_hands"].to_numpy()}))
    hands_df, scores_df, games_df = (pd.concat(x, ignore_index=True) for x in (turns, scores, lengths))
    return _Played(pd.DataFrame(rows), hands_df, scores_df, games_df)


def _check_with_search(st: Setup, name: str, check: int) -> tuple[pd.DataFrame | None, int]:
    """The balance rows of SEARCH on every seat of one preset (`check` games, one per deal), and the deals
    played; None and 0 without a check."""
    if check <= 0:
        return None, 0
    v = st.variant(name)
    g, h = one_game_per_deal(st, v, SEARCH, max(1, check // v.n_sides), f"{v.name}-{SEARCH}")
    strong = pd.DataFrame(balance_row(v.name, g, h)).assign(players=SEARCH, role=SEARCH, capped_share=np.nan,
                                                             capped=False)
    return strong, len(g)


def _summary(first: pd.DataFrame) -> pd.DataFrame:
    """A row per preset from its first-dealer rows: the verdict, the edge of the rules, and each player's
    edge; ranked by the size of the edge of the rules."""
    summary = pd.DataFrame([{"variant": name, "verdict": _verdict(grp), "rules_edge": _rules_edge(grp),
                             **{f"edge ({r.role})": float(r.excess) for r in grp.itertuples()}}
                            for name, grp in first.groupby("variant", sort=False)])
    summary = summary.assign(size=summary["rules_edge"].abs()).sort_values("size", ascending=False, kind="stable")
    return summary.drop(columns="size").reset_index(drop=True)


def _answer(summary: pd.DataFrame, table: pd.DataFrame, names: Sequence[str]) -> list[str]:
    """The answer's lines: the presets ranked, each preset's figures per player, and whether the seat's edge
    of a hand evens out over a game."""
    answer = ["Presets ranked by the first dealer's edge that every player shows (an edge that only some players "
              "show is the players', and ranks as none):", ""]
    for r in summary.itertuples():
        answer.append(f"{len(answer) - 1}. **{r.variant}**: {r.verdict}"
                      + (f" ({fmt_pct(r.rules_edge)} at least)" if r.rules_edge else "") + ".")
    answer.append("")
    for name in names:
        parts = [_player_line(strategy, grp) for strategy, grp in
                 table[table.variant == name].groupby("players", sort=False)]
        answer.append(f"- **{name}**: " + "; ".join(parts) + ".")
    return answer + _evening_out(names)


def _player_line(strategy: str, grp: pd.DataFrame) -> str:
    """One player's figures at one preset: the first dealer's side's win rate, the dealer's side's hand
    score, how often the first player's side goes out; flagged when its hands hit the turn cap."""
    m = grp.set_index("measure")
    w, dealt, lead = m.loc["first dealer's side wins the game"], m.loc[DEALER_SCORE], m.loc[LEAD_OUT]
    flag = f" **flagged: {100 * w.capped_share:.1f}% of hands ended by the turn cap, not judged**" if w.capped else ""
    return (f"`{strategy}`: first dealer's side wins {w.value:.3f} [{w.low:.3f}, {w.high:.3f}] (fair "
            f"{w.fair_share:.3f}), dealer's side {dealt.value:+.0f} [{dealt.low:+.0f}, {dealt.high:+.0f}] "
            f"points a hand, first player's side goes out in {lead.value:.3f} of hands ended by going "
            f"out{flag}")


def _evening_out(names: Sequence[str]) -> list[str]:
    """Why a game's seat advantage is smaller than a hand's where a game is several hands, and not where it
    is one deal."""
    one_deal = [n for n in names if get_variant(n).game.target_score == ONE_DEAL]
    many = [n for n in names if n not in one_deal]
    if many:
        return ["\nWhere a game is several hands (" + ", ".join(many) + "), the deal moves on every hand, so a "
                "side that deals one hand plays from the other seats in the next: whatever dealing gains or "
                "costs within a hand largely evens out over a game, which is why the seat advantage of a whole "
                "game is so much smaller than the hand's."
                + (" Where a game is one deal (" + ", ".join(one_deal) + "), nothing evens out: the first "
                   "dealer's edge of the hand is the game's." if one_deal else "")]
    if one_deal:
        return ["\nA game here is one deal, so nothing evens out: the first dealer's edge of the hand is the game's."]
    return []


def _charts(table: pd.DataFrame, played: _Played, first_player: str) -> dict[str, tuple[str, Any]]:
    """The study's charts: the seat's and the dealer's edge per preset and player (the rows flagged for the
    turn cap left out), and the first player's hands per game, turns per hand and hand scores."""
    from sim import plots

    def seat(ax: Any) -> Any:
        rows_ = table[table["measure"].str.startswith("first dealer") & ~table["capped"]]
        return plots.variant_panel(
            ax, rows_.assign(lo=rows_["low"] - rows_["fair_share"], hi=rows_["high"] - rows_["fair_share"]),
            "excess", low="lo", high="hi", hue="players", ref=0.0,
            title="first dealer's side: win rate minus its fair share",
            xlabel="win rate minus fair share (95% interval)")

    def dealer(ax: Any) -> Any:
        rows_ = table[table["measure"].str.startswith("dealer's side") & ~table["capped"]]
        return plots.variant_panel(ax, rows_, "value", low="low", high="high", hue="players", ref=0.0,
                                   title="dealer's side hand score minus the other sides' mean",
                                   xlabel="points per hand (95% interval)")

    return {
        "seat_advantage": ("Win rate of the first dealer's side minus its fair share, per preset and players", seat),
        "dealer_advantage": ("Hand score of the dealer's side over the others, per preset and players", dealer),
        "game_length": (f"Hands per game, per preset ({first_player})",
                        lambda ax: plots.distribution(ax, played.games, "n_hands", by="variant",
                                                      title="hands per game")),
        "hand_length": (f"Turns per hand, per preset ({first_player})",
                        lambda ax: plots.distribution(ax, played.hands, "turns", by="variant", kind="ecdf",
                                                      title="turns per hand (cumulative)")),
        "scores": (f"Hand score per side, per preset ({first_player})",
                   lambda ax: plots.distribution(ax, played.scores, "score", by="variant", kind="ecdf",
                                                 title="hand score per side (cumulative)")),
    }


def _method(st: Setup, names: Sequence[str], refused: Sequence[str], players: Sequence[str] | None, games: int,
            seed: int, check: int) -> str:
    """How the study was played and what it measures, as the report states it."""
    who = ", ".join(f"`{p}`" for p in (players or PLAYERS)) + (
        ", and `reference` with other pile play (" + ", ".join(f"`{k}={x}`" for k, x in PILE_SHY.items())
        + ", whichever acts at the preset)" if not players else "")
    return (f"Presets {', '.join(names)}{rules_text(st)}; each played by {who}, one strategy on every seat, "
            f"{games} deals each from seed {seed}, one game per deal, with every hand recorded. (Games are dealt in "
            "duplicate, the seating rotated over the same cards; with one strategy everywhere the rotations are "
            "the same game, so only one counts.) With one strategy everywhere, a difference between seats comes "
            "from the rules and the seating together with how that strategy plays: an edge is called the rules' "
            "only when every player shows it. Seat advantage is the game win rate of the side that deals the "
            "first hand, against its fair share (one over the number of sides; Wilson interval); the dealer's "
            "advantage is the dealer's side hand score minus the other sides' mean (t interval over hands). A row "
            f"with more than {CAP_SHARE:.0%} of its hands ended by the turn cap is flagged and judges nothing."
            + (f" Refused by the house rules, so not played: {'; '.join(refused)}." if refused else "")
            + (f" The check plays `{SEARCH}` on every seat of `{names[0]}`." if check else ""))
