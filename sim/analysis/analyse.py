"""The value of each choice at one position (issue 27, part 6): every legal option of one decision, played out
over samples of what the deciding seat cannot see, with its mean hand margin and win chance and their 95%
intervals, sorted best first, and which option `search`, `expert` and `baseline` would take there. GNU
Backgammon's hint/rollout is the model (docs/analysis.md, "The value of each choice at one position").

The evaluation is `search`'s own (strategies/search.py, docs/strategies.md "The search player"): the hidden
cards are dealt again consistently with the seat's observation (`sample_nb`), each option is applied and the
hand played to its end by the rollout player on every seat (`resume_hand_nb`), and the hand is scored as
`search` scores it: the seat's side's hand score minus the best other side's (the margin). Every option is
played on the same samples, so the differences to the best option are paired and far narrower than the margins.
Unlike `search` it plays every option on every sample (no pruning, no equivalent discards merged): the table
answers for each option, not only for the best.

A decision comes from a transcript (`canasta-lab transcript`): the game is replayed from its first event and the
decisions with more than one legal option are traced (sim.analysis.trace), numbered from 0 in the order they
were met; `list_decisions(transcript)` lists them. Or it comes from a position written by hand (sim.analysis.position).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.position import AnalysisError, Position, read_position
from sim.analysis.trace import DecisionTrace, describe_option, trace_decisions
from sim.engine import layout as L
from sim.engine.contract import cached_jit
from sim.engine.planning import S_ERR, new_state, resume_hand_nb, sample_nb
from sim.rules import Variant, get_variant, pack
from sim.rules.cards import card_name
from sim.run.store import write_text_atomic
from sim.stats.intervals import CONFIDENCE, mean_interval, wilson
from strategies import parse_strategy
from strategies.search import (
    ROLLOUTS,
    copy_play_nb,
    learned_policy,
    margin_nb,
    rollout_fn,
    rollout_policy,
    seat_policy_nb,
)

DEFAULT_SAMPLES = 200
MAX_SAMPLES = 100_000
SAMPLE_SEED_SHIFT = 20  # a sample's seed: the analysis seed, then the sample's number below it (< 2**20)
MAX_SEED = (1 << 40) - 1  # so that seed << SAMPLE_SEED_SHIFT stays a positive int64
DEFAULT_ROLLOUT = "expert"
PLAYERS = ("search", "expert", "baseline")  # the players whose choice the table marks
MIN_SAMPLES = 2  # an interval needs two samples
TIE = 0.5  # a rollout whose margin is 0 (the seat's side tied for the best hand score) counts half a win
OUT_SUFFIXES = (".csv", ".json")


@dataclass
class Analysis:
    """table: one row per legal option, best mean margin first: `option` (its index in the engine's option list),
    `text`, `margin` with `margin_low`/`margin_high`, `win` (win chance of the hand) with `win_low`/`win_high`,
    `diff` (paired difference of the mean margin to the best option's) with `diff_low`/`diff_high`, `taken`
    (the option the game's player took) and one boolean column per player of `picks`. picks: the option index
    each player would take. margins: the margin of every option on every sample (samples x options, in option
    order), the rollouts the table summarises."""

    position: Position
    table: pd.DataFrame
    picks: dict[str, int]
    samples: int
    seed: int
    rollout: str
    margins: np.ndarray = field(repr=False)

    @property
    def best(self) -> int:
        return int(self.table["option"].iat[0])

    def text(self) -> str:
        """The table as a person reads it, with a header naming the decision."""
        p = self.position
        head = [f"{p.variant.name}: {p.source}; seat {p.seat} (side {p.side}) at {p.point}"
                + (f", played by {p.strategy}" if p.strategy else ""),
                f"hand: {' '.join(p.hand)}",
                f"pile: {int(p.obs[L.OB_PILE_N])} cards, top "
                + (card_name(int(p.obs[L.OB_PILE_TOP])) if p.obs[L.OB_PILE_N] > 0 else "none")
                + f"; stock {int(p.obs[L.OB_STOCK_N])}",
                f"{self.samples} samples of the hidden cards (seed {self.seed}), every seat played by {self.rollout} "
                "to the end of the hand",
                "margin: the side's hand score minus the best other side's; win: the win chance of the hand (a tie "
                "counts half); diff: to the best option, on the same samples; [95% intervals]", ""]
        t = self.table
        rows = []
        for r in t.itertuples(index=False):
            marks = ([("taken" if r.taken else "")] + [name for name in self.picks if getattr(r, _col(name))])
            rows.append({
                "#": r.option, "option": r.text,
                "margin [95%]": f"{r.margin:+.0f} [{r.margin_low:+.0f}, {r.margin_high:+.0f}]",
                "win [95%]": f"{r.win:.3f} [{r.win_low:.3f}, {r.win_high:.3f}]",
                "diff [95%]": ("" if r.option == self.best else
                               f"{r.diff:+.0f} [{r.diff_low:+.0f}, {r.diff_high:+.0f}]"),
                "marks": " ".join(m for m in marks if m)})
        return "\n".join(head) + pd.DataFrame(rows).to_string(index=False)

    def write(self, out: str | os.PathLike[str], force: bool = False) -> Path:
        """The table as CSV or JSON (by the suffix), with the decision's provenance in JSON."""
        p = check_out(out, force)
        if p.suffix == ".csv":
            write_text_atomic(p, self.table.to_csv(index=False))
        else:
            pos = self.position
            doc: dict[str, Any] = {
                "variant": pos.variant.name, "source": pos.source, "decision": pos.decision, "seat": pos.seat,
                "side": pos.side, "point": pos.point, "hand": pos.hand, "strategy": pos.strategy,
                "samples": self.samples, "seed": self.seed, "rollout": self.rollout, "picks": self.picks,
                "options": json.loads(self.table.to_json(orient="records"))}
            write_text_atomic(p, json.dumps(doc, indent=1) + "\n")
        return p


def _col(player: str) -> str:
    """The table column marking a player's pick (a label may hold ':' and '=')."""
    return "pick_" + "".join(ch if ch.isalnum() else "_" for ch in player)


def check_out(out: str | os.PathLike[str], force: bool = False) -> Path:
    """Refuse an output that is not .csv or .json, is a folder, or exists (without force), before any work."""
    p = Path(out)
    if p.suffix not in OUT_SUFFIXES:
        raise AnalysisError(f"--out {str(p)!r}: give a file ending in {' or '.join(OUT_SUFFIXES)}")
    if p.is_dir():
        raise AnalysisError(f"--out {str(p)!r} is a folder; give a file ending in {' or '.join(OUT_SUFFIXES)}")
    if p.exists() and not force:
        raise AnalysisError(f"--out {str(p)!r} already exists; choose another path or pass --force")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise AnalysisError(f"--out {str(p)!r}: folder {str(parent)!r} does not exist")
    return p


# -- transcripts ---------------------------------------------------------------------------------------------


@dataclass
class Game:
    """A transcript's game, replayed: the variant, the strategy of every seat (the game's own seating), the run's
    seed and the game's index, and every decision with more than one option (trace), numbered from 0."""

    path: str
    variant: Variant
    seats: list[str]
    seed: int
    game: int
    trace: DecisionTrace


def _rule_text(value: Any) -> str:
    """A value of a transcript's `rules` record as `--rule KEY=VALUE` writes it (`initial_meld_table` as
    FROM:MINIMUM pairs, -inf for no lower bound)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(x, list) and len(x) == 2 for x in value):
        return ",".join(f"{'-inf' if a is None else a}:{b}" for a, b in value)
    if isinstance(value, list):
        return ",".join(str(x) for x in value)
    return str(value)


def _variant_of(header: dict[str, Any], path: str) -> Variant:
    """The transcript's variant: its preset, with the house rules its `rules` record differs in."""
    from sim.rules import with_rules

    v = get_variant(str(header["variant"]))
    rules = header.get("rules")
    base = v.to_dict()
    if not isinstance(rules, dict):
        return v
    changed = [k for k in rules if k in base and rules[k] != base[k]]  # a key added since it was written: absent
    if not changed:
        return v
    try:
        w = with_rules(v, [f"{k}={_rule_text(rules[k])}" for k in changed])
    except ValueError:
        w = v
    rebuilt = w.to_dict()
    if any(rebuilt[k] != rules[k] for k in changed):
        raise AnalysisError(f"{path}: its rules differ from {v.name}'s in {', '.join(changed)} and cannot be rebuilt "
                            f"here; give a transcript of this version of canasta-lab")
    return w


def read_game(path: str | os.PathLike[str]) -> Game:
    """Replay a transcript's game and trace its decisions. Refused in one line: no such file, not a transcript,
    or a game that does not replay to the same events (another version, a user strategy not loaded)."""
    from sim.records.transcript import events
    from sim.run.runner import make_job

    p = Path(path)
    if not p.is_file():
        raise AnalysisError(f"{str(p)!r}: no such transcript; give a file written by `canasta-lab transcript`")
    try:
        lines = [json.loads(x) for x in p.read_text().splitlines() if x.strip()]
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise AnalysisError(f"{str(p)!r} is not a transcript (JSON Lines): {exc}") from None
    header = lines[0] if lines else {}
    need = ("variant", "seed", "game", "strategies")
    if not isinstance(header, dict) or header.get("event") != "game" or any(k not in header for k in need):
        raise AnalysisError(f"{str(p)!r} is not a transcript: its first line must be the `game` event with "
                            f"{', '.join(need)}")
    v = _variant_of(header, str(p))
    seats = [str(s) for s in header["strategies"]]
    seed, game = int(header["seed"]), int(header["game"])
    if len(seats) != v.players:
        raise AnalysisError(f"{str(p)!r}: {len(seats)} strategies for {v.players} seats")
    rot = game % v.n_sides
    listed = [seats[(q + rot) % v.players] for q in range(v.players)]  # the -s list whose game `game` seats them
    job = make_job(v, listed, seed)
    replayed = list(events(job, game))
    same_game = all(replayed[0].get(k) == header.get(k) for k in replayed[0] if k != "rules")
    if not same_game or replayed[1:] != lines[1:]:
        raise AnalysisError(f"{str(p)!r} does not replay to the same game here (another version of the engine or "
                            f"of a strategy?); write it again with `canasta-lab transcript`")
    trace = trace_decisions(v, listed, 1, seed, traced=range(len(listed)), first=game)
    return Game(str(p), v, seats, seed, game, trace)


def list_decisions(transcript: str | os.PathLike[str] | Game) -> pd.DataFrame:
    """Every decision of the transcript's game with more than one legal option, numbered from 0 (`decision`, the
    number `analyse` takes): the hand, the turn, the seat and its strategy, the decision point, how many options,
    the pile's top card and size, the stock, and the option taken."""
    g = transcript if isinstance(transcript, Game) else read_game(transcript)
    d = g.trace.decisions
    obs = g.trace.obs
    return pd.DataFrame({
        "decision": np.arange(len(d)), "hand": obs[:, L.OB_HANDNO], "turn": obs[:, L.OB_TURN], "seat": d["seat"],
        "strategy": d["strategy"], "point": d["point"], "options": d["n"], "pile_top": d["pile_top"],
        "pile": obs[:, L.OB_PILE_N], "stock": obs[:, L.OB_STOCK_N], "taken": d["choice_text"]})


def position_at(transcript: str | os.PathLike[str] | Game, decision: int) -> Position:
    """Decision number `decision` (from 0, as `list_decisions` lists them) of a transcript's game."""
    g = transcript if isinstance(transcript, Game) else read_game(transcript)
    n = len(g.trace)
    if isinstance(decision, bool) or not isinstance(decision, int | np.integer) or not 0 <= decision < n:
        raise AnalysisError(f"decision {decision} is out of range: {g.path} has decisions 0 to {n - 1} (numbered "
                            f"from 0; `canasta-lab analyse {g.path} --list` lists them)")
    i = int(decision)
    R = pack(g.variant)
    obs = np.zeros(L.obs_len(int(R[L.R_MAXM])), np.int64)
    obs[:g.trace.obs.shape[1]] = g.trace.obs[i]  # a trace keeps no scratch space: it stays 0, as in overrides
    row = g.trace.decisions.iloc[i]
    return Position(g.variant, obs, g.trace.options_of(i)[:, :L.OPT_FIELDS].copy(),
                    f"{g.path} decision {i} (game {g.game}, hand {int(obs[L.OB_HANDNO])}, turn {int(obs[L.OB_TURN])})",
                    taken=int(row["choice"]), strategy=str(row["strategy"]), decision=i)


# -- the rollouts --------------------------------------------------------------------------------------------


@cached_jit
def rollouts_nb(R, obs, opts, n, knobs, fn, samples, seed0, m):
    """m[k, j]: the margin of option j on sample k, every seat played by the rollout table's function fn (search's
    FN_HEURISTIC or FN_LEARNED) with `knobs`.
    Returns the samples played: fewer than asked only where the sampler finds no state (an answer whose asker
    could go out in none of its tries); -1 - k when a rollout of sample k failed (an engine bug)."""
    S = new_state(R)
    W = new_state(R)
    seat_policy_nb(S, knobs, fn)
    seat_policy_nb(W, knobs, fn)
    f = rollout_policy()
    F = (f, learned_policy(), f, f)
    seat = obs[L.OB_SEAT]
    side = obs[L.OB_SIDE]
    dp = obs[L.OB_DP]
    for k in range(samples):
        sample_nb(R, obs, S, seed0 + k)
        if S.st[S_ERR] != 0:
            return k
        for j in range(n):
            for c in range(L.OPT_FIELDS):
                S.opts[j, c] = opts[j, c]
        for j in range(n):
            copy_play_nb(S, W, n)
            resume_hand_nb(R, W, F, seat, dp, j)
            if W.st[S_ERR] != 0:
                return -1 - k
            m[k, j] = margin_nb(obs, W, side)
    return samples


def check_settings(samples: int, seed: int, rollout: str) -> None:
    """Refuse a sample count, seed or rollout player out of range, in one line, before any work."""
    whole = isinstance(samples, int | np.integer) and not isinstance(samples, bool)
    if not whole or not MIN_SAMPLES <= samples <= MAX_SAMPLES:
        raise AnalysisError(f"--samples {samples}: give a whole number from {MIN_SAMPLES} to {MAX_SAMPLES}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed <= MAX_SEED:
        raise AnalysisError(f"--seed {seed}: give a whole number from 0 to {MAX_SEED}")
    if rollout not in ROLLOUTS:
        raise AnalysisError(f"--rollout {rollout!r}: accepted rollout players are {', '.join(ROLLOUTS)}")


def pick(player: str, pos: Position) -> int:
    """The option `player` (a strategy label, its knobs at the variant) takes at this decision, asked as the
    engine asks it: on a copy of the observation and of the engine's whole option table."""
    c = parse_strategy(player).at(pos.variant)
    R = pack(pos.variant)
    buf = np.zeros((L.MAXOPT, L.OPT_FIELDS), np.int64)
    buf[:pos.n] = pos.opts
    j = int(c.spec.decide(R, pos.obs.copy(), buf, pos.n, c.params))
    if j == L.DEFER and c.spec.base is not None:
        b = c.spec.base
        buf[:pos.n] = pos.opts
        j = int(b.decide(R, pos.obs.copy(), buf, pos.n, c.params))
    if not 0 <= j < pos.n:
        raise AnalysisError(f"{player} returned option {j} at this decision, not one of 0 to {pos.n - 1}")
    return j


def evaluate(pos: Position, samples: int = DEFAULT_SAMPLES, seed: int = 0, rollout: str = DEFAULT_ROLLOUT,
             players: Sequence[str] = PLAYERS) -> Analysis:
    """Play every option of the position out on `samples` samples of the hidden cards (the same samples for
    every option) and summarise each: mean margin, win chance, paired difference to the best, with 95%
    intervals."""
    check_settings(samples, seed, rollout)
    for p in players:
        parse_strategy(p).refuse_idle(pos.variant)
    R = pack(pos.variant)
    knobs = parse_strategy(rollout).at(pos.variant).params.copy()
    m = np.zeros((samples, pos.n), np.int64)
    fn = np.int64(rollout_fn(rollout))
    done = int(rollouts_nb(R, pos.obs, pos.opts, np.int64(pos.n), knobs, fn, np.int64(samples),
                           np.int64(seed << SAMPLE_SEED_SHIFT), m))
    if done < 0:
        raise AnalysisError(f"a rollout of sample {-1 - done} failed at {pos.source} (an engine bug)")
    if done < MIN_SAMPLES:
        raise AnalysisError(f"{pos.source}: no deal of the hidden cards matches this decision (the sampler found "
                            f"{done}); an answer whose asker could not go out, or a position that cannot be")
    m = m[:done]
    means = m.mean(axis=0)
    best = int(np.argmax(means))
    wins = (m > 0) + TIE * (m == 0)
    rows = []
    for j in range(pos.n):
        mean, lo, hi = mean_interval(m[:, j].astype(float), CONFIDENCE)
        w = float(wins[:, j].mean())
        wlo, whi = wilson(float(wins[:, j].sum()), done, CONFIDENCE)
        d, dlo, dhi = mean_interval((m[:, j] - m[:, best]).astype(float), CONFIDENCE)
        rows.append({"option": j, "text": describe_option(*pos.opts[j, :4]), "kind": L.option_name(int(pos.opts[j, 0])),
                     "a": int(pos.opts[j, 1]), "b": int(pos.opts[j, 2]), "c": int(pos.opts[j, 3]),
                     "margin": mean, "margin_low": lo, "margin_high": hi, "win": w, "win_low": wlo, "win_high": whi,
                     "diff": d, "diff_low": dlo, "diff_high": dhi, "rollouts": done, "taken": j == pos.taken})
    picks = {p: pick(p, pos) for p in players}
    t = pd.DataFrame(rows)
    for p, j in picks.items():
        t[_col(p)] = t["option"] == j
    t = t.sort_values(["margin", "option"], ascending=[False, True], ignore_index=True)
    return Analysis(pos, t, picks, done, seed, rollout, m)


def analyse(transcript: str | os.PathLike[str] | None = None, decision: int | None = None, *,
            position: str | os.PathLike[str] | Position | None = None, samples: int = DEFAULT_SAMPLES, seed: int = 0,
            rollout: str = DEFAULT_ROLLOUT, players: Sequence[str] = PLAYERS) -> Analysis:
    """The value of each legal option at one decision: decision number `decision` (from 0, as `list_decisions` lists
    them) of a transcript's game, or a position (a file in the text format of sim.analysis.position, or a
    Position). Every option is played out on the same `samples` samples of the hidden cards by `rollout` on every
    seat; the table is sorted best mean margin first and marks the option taken and the options `players` take."""
    check_settings(samples, seed, rollout)
    if (transcript is None) == (position is None):
        raise AnalysisError("give a transcript and a decision number, or a position file, not both")
    if position is not None:
        pos = position if isinstance(position, Position) else read_position(position)
    else:
        if decision is None:
            raise AnalysisError("give the decision number (--decision N, from 0; --list lists them)")
        pos = position_at(transcript, decision)
    return evaluate(pos, samples, seed, rollout, players)


def command(transcript: str | None, decision: int | None, position: str | None = None, listing: bool = False,
            samples: int | None = None, seed: int | None = None, rollout: str | None = None, out: str | None = None,
            force: bool = False) -> str:
    """`canasta-lab analyse`: what it prints. Every input is checked before the rollouts, each refusal one line;
    a setting left out (None) takes its default."""
    samples = DEFAULT_SAMPLES if samples is None else samples
    seed = 0 if seed is None else seed
    rollout = DEFAULT_ROLLOUT if rollout is None else rollout
    if listing:
        if transcript is None or position is not None or decision is not None or out is not None:
            raise AnalysisError("--list lists a transcript's decisions: give the transcript alone "
                                "(canasta-lab analyse TRANSCRIPT --list)")
        return list_decisions(transcript).to_string(index=False)
    check_settings(samples, seed, rollout)
    if transcript is not None and position is not None:
        raise AnalysisError("give a transcript with --decision N, or --position FILE, not both")
    if transcript is None and position is None:
        raise AnalysisError("give a transcript with --decision N (--list lists them), or --position FILE")
    if position is not None and decision is not None:
        raise AnalysisError("--decision numbers a transcript's decisions; a --position file is one decision")
    if out is not None:
        check_out(out, force)
    a = analyse(transcript, decision, position=position, samples=samples, seed=seed, rollout=rollout)
    text = a.text()
    if out is not None:
        text += f"\ntable: {a.write(out, force)}"
    return text
