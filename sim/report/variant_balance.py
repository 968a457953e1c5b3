"""Study 05: how balanced is each variant: the edge of the seat, of the dealer, of going out first?"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.records.results import Results, play
from sim.records.tidy import hand_sides
from sim.report.common import SEARCH, SEED, VARIANT, Headline, Setup, Study, fmt_pct, setup, study_meta
from sim.rules import PRESETS, Variant, get_variant
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
    """`deals` deals with `strategy` on every seat, one game each. Games are played on duplicate deals
    (the seating rotated over the same cards), and with one strategy everywhere the rotations are the
    same game again: counting them would overstate the evidence by the number of sides."""
    return distinct_games(st.run(play, v, strategy, games=deals * v.n_sides, seed=st.seed, hands=True, out=out))


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


def variant_balance(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                    out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0, progress: Any = None,
                    scheduler: Any = None, presets: Sequence[str] | None = None, strategy: str = "baseline") -> Study:
    """Every preset (a new one appears here by itself) played by `strategy` on every seat: who gains
    from the seating, how long hands and games last, how spread the scores are."""
    st = setup("variant_balance", games, seed, check_games, out, rules, workers, progress, scheduler)
    games, check = st.games, st.check
    names = list(presets) if presets is not None else list(PRESETS)
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    turns, scores, lengths = [], [], []
    for name in names:
        g, h = one_game_per_deal(st, st.variant(name), strategy, games, f"{name}-{folder_name(strategy)}")
        rows += balance_row(name, g, h)
        turns.append(pd.DataFrame({"variant": name, "turns": h["turns"].to_numpy()}))
        scores.append(pd.DataFrame({"variant": name, "score": hand_sides(h)["total"].to_numpy()}))
        lengths.append(pd.DataFrame({"variant": name, "n_hands": g["n_hands"].to_numpy()}))
    table = pd.DataFrame(rows)
    strong = None
    if check > 0:
        g, h = one_game_per_deal(st, st.variant(), SEARCH, max(1, check // st.variant().n_sides),
                                 f"{VARIANT}-{SEARCH}")
        strong = pd.DataFrame(balance_row(VARIANT, g, h))
    hands_df, scores_df, games_df = (pd.concat(x, ignore_index=True) for x in (turns, scores, lengths))
    first = table[table["measure"].str.startswith("first dealer")]
    heads = [Headline(f"{r.variant}: first dealer's side wins the game", r.value, r.low, r.high, games)
             for r in first.itertuples()]
    answer = []
    for r in first.itertuples():
        verdict = ("no measurable seat advantage" if r.low <= r.fair_share <= r.high else
                   f"an advantage of {fmt_pct(r.excess)} to the first dealer's side" if r.excess > 0 else
                   f"a disadvantage of {fmt_pct(r.excess)} to the first dealer's side")
        of = table[table.variant == r.variant].set_index("measure")
        length, turns, lead, dealt = (of.loc[m] for m in ("hands per game", "turns per hand", LEAD_OUT, DEALER_SCORE))
        answer.append(f"- **{r.variant}**: the first dealer's side wins {r.value:.3f} [{r.low:.3f}, {r.high:.3f}] "
                      f"of games (fair share {r.fair_share:.3f}): {verdict}. Within a hand, the dealer's side scores "
                      f"{dealt.value:+.0f} [{dealt.low:+.0f}, {dealt.high:+.0f}] points against the others' mean, and "
                      f"the side of the player left of the dealer, who plays first, goes out in {lead.value:.3f} "
                      f"[{lead.low:.3f}, {lead.high:.3f}] of the hands ended by going out (fair share "
                      f"{lead.fair_share:.3f}). A game lasts {length.value:.2f} hands of {turns.value:.1f} turns.")
    if len(first):
        answer.append("\nThe deal moves on every hand, so a side that deals one hand plays from the other "
                      "seats in the next: whatever dealing gains or costs within a hand largely evens out over a "
                      "game, which is why the seat advantage of a whole game is so much smaller than the hand's.")
    from sim import plots

    holds = ""
    if strong is not None:
        s = strong.iloc[0]
        holds = (f"With `{SEARCH}` on every seat of `{VARIANT}` ({len(g)} deals), the first dealer's "
                 f"side wins {s.value:.3f} [{s.low:.3f}, {s.high:.3f}]; hands last {strong.iloc[3].value:.1f} turns "
                 f"and games {strong.iloc[4].value:.2f} hands (with `{strategy}`: see the table).")
        table = pd.concat([table, strong.assign(variant=f"{VARIANT} ({SEARCH})")], ignore_index=True)

    def seat(ax: Any) -> Any:
        rows_ = table[table["measure"].str.startswith("first dealer")]
        return plots.variant_panel(
            ax, rows_.assign(lo=rows_["low"] - rows_["fair_share"], hi=rows_["high"] - rows_["fair_share"]),
            "excess", low="lo", high="hi", ref=0.0, title="first dealer's side: win rate minus its fair share",
            xlabel="win rate minus fair share (95% interval)")

    def dealer(ax: Any) -> Any:
        rows_ = table[table["measure"].str.startswith("dealer's side")]
        return plots.variant_panel(ax, rows_, "value", low="low", high="high", ref=0.0,
                                   title="dealer's side hand score minus the other sides' mean",
                                   xlabel="points per hand (95% interval)")

    charts = {
        "seat_advantage": ("Win rate of the first dealer's side minus its fair share, per preset", seat),
        "dealer_advantage": ("Hand score of the dealer's side over the others, per preset", dealer),
        "game_length": ("Hands per game, per preset",
                        lambda ax: plots.distribution(ax, games_df, "n_hands", by="variant",
                                                      title="hands per game")),
        "hand_length": ("Turns per hand, per preset",
                        lambda ax: plots.distribution(ax, hands_df, "turns", by="variant", kind="ecdf",
                                                      title="turns per hand (cumulative)")),
        "scores": ("Hand score per side, per preset",
                   lambda ax: plots.distribution(ax, scores_df, "score", by="variant", kind="ecdf",
                                                 title="hand score per side (cumulative)")),
    }
    method = (f"Every preset of this version ({', '.join(names)}), `{strategy}` on every seat, {games} deals each "
              f"from seed {seed}, one game per deal, with every hand recorded. (Games are dealt in duplicate, the "
              "seating rotated over the same cards; with one strategy everywhere the rotations are the same game, "
              "so only one counts.) The same strategy everywhere means any "
              "difference between seats comes from the rules and the seating, not from the players. Seat advantage "
              "is the game win rate of the side that deals the first hand, against its fair share (one over the "
              "number of sides; Wilson interval); the dealer's advantage is the dealer's side hand score minus the "
              "other sides' mean (t interval over hands)." + (
                  f" The check plays `{SEARCH}` on every seat of `{VARIANT}`." if check else ""))
    return Study("variant_balance", "How balanced is each variant?",
                 "Does the seating favour a side (the dealer's, or the first to play)? How long do hands and games "
                 "last, and how spread are the scores, in every preset?", method,
                 {"balance": table, "hands_per_game": games_df}, charts, "\n".join(answer), holds, heads,
                 games, seed, time.perf_counter() - t0, study_meta())
