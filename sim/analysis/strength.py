"""How strong each library strategy is against the fixed yardstick `reference`, at every preset, from one
committed measurement.

`canasta-lab strategies --measure V` plays every named strategy against `reference` on duplicate deals at
preset V (`all`: every preset), `search` also against `expert`, and profiles `reference` and `expert` in mirror
play (hands a game, how hands end, canastas), and writes the figures with the command that produced them to
strategies/strength.json, one record per preset (a measurement of some presets keeps the others). The file is
committed and shipped with the package: `canasta-lab strategies --variant V` and docs/strategies.md read it,
so what a user sees is a measurement anyone can repeat, never a number typed by hand.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import strategies as strategies_pkg
from sim.analysis.compare import compare
from sim.run.store import write_json_atomic
from strategies import BUILT_IN, REGISTRY, StrategyError

STRENGTH_FILE = Path(strategies_pkg.__file__).parent / "strength.json"
REFERENCE = "reference"
STRONGEST = "expert"  # the strongest fast player, which `search` is also measured against
LOOKAHEAD = "search"
LEARNED = "learned"  # the trained player, measured against STRONGEST as well, and `search` against it
PROFILED = (REFERENCE, STRONGEST, LEARNED)  # played in mirror for the play statistics, where measured
PROFILE_GAMES = 2000  # at most this many mirror games for the play statistics
FIELDS = ("games", "win_rate", "win_low", "win_high", "margin", "margin_low", "margin_high", "elo", "elo_low",
          "elo_high")
PLAY_FIELDS = ("hands_per_game", "turns_per_hand", "ended_out", "ended_stock", "ended_cap", "natural_canastas",
               "mixed_canastas", "wild_canastas", "sevens_canastas")


def library_names() -> list[str]:
    """The library's strategies other than the reference, in the library's order (not the tuned or
    user strategies a process registered later)."""
    return [n for n in REGISTRY if n in BUILT_IN and n != REFERENCE]


def _row(name: str, c: Any) -> dict[str, Any]:
    pair = c.pairs.iloc[0]
    return {"strategy": name, **{f: (int(pair[f]) if f == "games" else round(float(pair[f]), 4)) for f in FIELDS},
            "wall_seconds": round(float(c.meta.get("wall_seconds", 0.0)), 1)}


def measure(variant: str, games: int, seed: int, games_for: Mapping[str, int] | None = None,
            names: Sequence[str] | None = None, workers: int = 0, command: str = "",
            report: Callable[[str], None] | None = None, profile_games: int = PROFILE_GAMES) -> dict[str, Any]:
    """Play each strategy against `reference` (`games` games, or `games_for[name]` for a slow one), the pairs of
    versus_pairs, profile PROFILED in mirror play (those named, when `names` are given), and return the preset's
    record."""
    from sim.analysis.profile import profile

    full = names is None
    names = list(names) if names is not None else library_names()
    games_for = dict(games_for or {})
    unknown = [n for n in [*names, *games_for] if n not in REGISTRY]
    if unknown:
        raise StrategyError(f"unknown strategy {unknown[0]!r}; accepted: {', '.join(library_names())}")
    rows: list[dict[str, Any]] = []
    meta: dict[str, Any] = {}
    for name in names:
        c = compare(variant, [name, REFERENCE], games_for.get(name, games), seed, workers=workers)
        rows.append(_row(name, c))
        meta = c.meta
        if report is not None:
            report(f"{variant}: {name} against {REFERENCE}: {line(rows[-1])}")
    versus: list[dict[str, Any]] = []
    for player, against in versus_pairs(names, variant):
        c = compare(variant, [player, against], games_for.get(player, games), seed, workers=workers)
        versus.append({**_row(player, c), "against": against})
        if report is not None:
            report(f"{variant}: {player} against {against}: {line(versus[-1])}")
    play: list[dict[str, Any]] = []
    # the yardstick and the strongest heuristic always (deterministic: the same rows again), learned where measured
    profiled = [n for n in PROFILED if n != LEARNED or full or n in names]
    if profile_games > 0 and profiled:
        df = profile(variant, profiled, min(games, profile_games), seed, mirror=True, workers=workers)
        for _, r in df.iterrows():
            play.append({"strategy": str(r["strategy"]), "games": int(r["games"]),
                         **{f: round(float(r[f]), 4) for f in PLAY_FIELDS}})
    return {"variant": variant, "reference": REFERENCE, "seed": seed, "command": command,
            "code_version": meta.get("code_version"), "machine": meta.get("machine"), "rows": rows,
            "versus": versus, "play": play}


def versus_pairs(names: Sequence[str], variant: str) -> list[tuple[str, str]]:
    """The head-to-heads measured beside the rows: `learned` against `expert`, and `search` against each of them.
    `search` against `learned` is played only where `learned` has a network: elsewhere it plays expert's games."""
    pairs = []
    if LEARNED in names and STRONGEST in REGISTRY:
        pairs.append((LEARNED, STRONGEST))
    if LOOKAHEAD in names and STRONGEST in REGISTRY:
        pairs.append((LOOKAHEAD, STRONGEST))
    if (LEARNED in names or LOOKAHEAD in names) and LOOKAHEAD in REGISTRY and has_network(variant):
        pairs.append((LOOKAHEAD, LEARNED))
    return pairs


def has_network(variant: str) -> bool:
    """Whether `learned` plays a network at the preset (else it plays expert's choice: the same games)."""
    from sim.rules import get_variant
    from strategies.learned import plays_network

    return LEARNED in REGISTRY and plays_network(REGISTRY[LEARNED].params(v=get_variant(variant)))


def measure_versus(variant: str, player: str, against: str, games: int, seed: int, workers: int = 0,
                   command: str = "") -> dict[str, Any]:
    """One head-to-head on duplicate deals as a row of the record's `versus`, with the command that measured it (a
    pair beside the standard ones: `search:rollout=learned` against `search`)."""
    c = compare(variant, [player, against], games, seed, workers=workers)
    return {**_row(player, c), "against": against, "command": command}


def add_versus(record: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """The preset's record with this head-to-head in place of the same pair's earlier one; every other row kept."""
    pair = (row["strategy"], row["against"])
    versus = [r for r in record.get("versus", []) if (r["strategy"], r["against"]) != pair]
    return {**record, "versus": [*versus, row]}


def standard_pair(row: Mapping[str, Any]) -> bool:
    """A pair of versus_pairs (a column of the strength table), not one measured on its own (`--versus`)."""
    return (row["strategy"], row.get("against")) in {(LEARNED, STRONGEST), (LOOKAHEAD, STRONGEST), (LOOKAHEAD, LEARNED)}


def add_rows(record: dict[str, Any], added: dict[str, Any]) -> dict[str, Any]:
    """The preset's record with the rows of `added` (a measurement of some strategies, `--only`) put in, in the
    library's order, and its command listed under `added`; the other rows, and their command, kept."""
    rows = {**by_name(record), **by_name(added)}
    order = [n for n in library_names() if n in rows] + sorted(set(rows) - set(library_names()))
    extra = [a for a in record.get("added", []) if not set(a["strategies"]) & set(by_name(added))]
    new = {(r["strategy"], r["against"]) for r in added.get("versus", [])}
    versus = [r for r in record.get("versus", []) if (r["strategy"], r["against"]) not in new]
    played = {r["strategy"] for r in added.get("play", [])}
    play = [r for r in record.get("play", []) if r["strategy"] not in played] + list(added.get("play", []))
    return {**record, "rows": [rows[n] for n in order], "versus": versus + list(added.get("versus", [])),
            "play": play,
            "added": extra + [{"strategies": [r["strategy"] for r in added["rows"]], "command": added["command"],
                               "code_version": added.get("code_version"), "seed": added["seed"]}]}


def write(records: Sequence[dict[str, Any]], path: str | Path = STRENGTH_FILE) -> dict[str, Any]:
    """Put these presets' records into the file, keeping the other presets' (the measurement of one preset
    does not undo another's)."""
    data = load(path) or {"reference": REFERENCE, "presets": {}}
    for record in records:
        data["presets"][record["variant"]] = record
    write_json_atomic(Path(path), data)
    return data


def load(path: str | Path = STRENGTH_FILE) -> dict[str, Any] | None:
    """The committed measurement ({"reference", "presets": {preset: record}}), or None when there is none (a
    strategy library without a measurement). A file of the earlier layout (one preset, against baseline)
    measured another yardstick: it is read as no measurement."""
    p = Path(path)
    if not p.is_file():
        return None
    data = json.loads(p.read_text())
    return data if isinstance(data, dict) and "presets" in data else None


def record_for(data: dict[str, Any] | None, variant: str) -> dict[str, Any] | None:
    return (data or {}).get("presets", {}).get(variant)


def is_fast(name: str) -> bool:
    """A player that decides without looking ahead (no rollouts): fast enough to check an answer at thousands of
    games a setting."""
    from strategies.search import rollout_player

    spec = REGISTRY.get(name)
    return spec is not None and rollout_player(spec.choice()) is None


def strongest_fast(record: dict[str, Any] | None) -> str:
    """The fast player with the highest Elo against `reference` in a preset's record (STRONGEST where the record
    has none, and on a tie: `learned` plays expert's choice wherever it has no network, and measures the same)."""
    rows = [r for r in (record or {}).get("rows", []) if is_fast(r["strategy"])]
    if not rows:
        return STRONGEST
    return min(rows, key=lambda r: (-float(r["elo"]), -float(r["elo_low"]), r["strategy"] != STRONGEST))["strategy"]


def line(row: Mapping[str, Any]) -> str:
    return (f"Elo {_elo(row)}, win rate {row['win_rate']:.3f} [{row['win_low']:.3f}, {row['win_high']:.3f}], "
            f"margin {row['margin']:+.0f} [{row['margin_low']:+.0f}, {row['margin_high']:+.0f}] per deal, "
            f"{row['games']:,} games")


def by_name(record: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {r["strategy"]: r for r in record["rows"]} if record else {}


def _elo(r: Mapping[str, Any] | None) -> str:
    return "" if r is None else f"{r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}]"


def _win(r: Mapping[str, Any] | None) -> str:
    return "" if r is None else f"{r['win_rate']:.3f} [{r['win_low']:.3f}, {r['win_high']:.3f}] ({r['games']:,})"


def markdown(data: dict[str, Any]) -> str:
    """The tables docs/strategies.md shows: every strategy's Elo against `reference` at every preset, `search`
    against `expert`, and the play statistics, each preset under the command that measured it."""
    from sim.rules import PRESETS

    presets = [p for p in PRESETS if p in data["presets"]] + sorted(set(data["presets"]) - set(PRESETS))
    names = [n for n in library_names() if n != LOOKAHEAD]
    out = [f"Elo against `{data['reference']}` [95%] on duplicate deals (games per strategy in the commands below); "
           f"`{LEARNED}`'s Elo against `{STRONGEST}`; `{LOOKAHEAD}`'s win rate against `{data['reference']}`, "
           f"`{STRONGEST}` and `{LEARNED}` [95%] (games; against `{LEARNED}` only where it plays a network: elsewhere "
           f"it plays `{STRONGEST}`'s games):", "",
           "| preset | " + " | ".join(f"`{n}`" for n in names) + f" | `{LEARNED}` vs `{STRONGEST}` | "
           f"`{LOOKAHEAD}` vs `{data['reference']}` | `{LOOKAHEAD}` vs `{STRONGEST}` | `{LOOKAHEAD}` vs `{LEARNED}` |",
           "|---" * (len(names) + 5) + "|"]
    for p in presets:
        rec = data["presets"][p]
        rows = by_name(rec)
        vs = {(r["strategy"], r.get("against")): r for r in rec.get("versus", [])}
        out.append(f"| {p} | " + " | ".join(_elo(rows.get(n)) for n in names)
                   + f" | {_elo(vs.get((LEARNED, STRONGEST)))} | {_win(rows.get(LOOKAHEAD))} | "
                   f"{_win(vs.get((LOOKAHEAD, STRONGEST)))} | {_win(vs.get((LOOKAHEAD, LEARNED)))} |")
    out += ["", "Play in mirror games (`canasta-lab profile V -s reference -s expert -s learned --mirror`): hands a "
            "game, turns a hand, the share of hands ended by going out, by the stock and by the turn cap, and "
            "canastas a side and hand (natural, mixed, wild, sevens):", "",
            "| preset | player | hands a game | turns a hand | out | stock | cap | natural | mixed | wild | sevens |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in presets:
        for r in data["presets"][p].get("play", []):
            out.append(f"| {p} | `{r['strategy']}` | {r['hands_per_game']:.2f} | {r['turns_per_hand']:.1f} | "
                       f"{r['ended_out']:.3f} | {r['ended_stock']:.3f} | {r['ended_cap']:.3f} | "
                       f"{r['natural_canastas']:.3f} | {r['mixed_canastas']:.3f} | {r['wild_canastas']:.3f} | "
                       f"{r['sevens_canastas']:.3f} |")
    other = [(p, r) for p in presets for r in data["presets"][p].get("versus", []) if not standard_pair(r)]
    if other:
        out += ["", "Other head-to-heads on duplicate deals (`strategies --measure P --versus A,B`), win rate and Elo "
                "of the first against the second [95%]:", "", "| preset | player | against | win rate (games) | Elo |",
                "|---|---|---|---|---|"]
        out += [f"| {p} | `{r['strategy']}` | `{r['against']}` | {_win(r)} | {_elo(r)} |" for p, r in other]
    out += ["", *networks_markdown(data), "", "Measured by:", ""]
    for p in presets:
        rec = data["presets"][p]
        cv = rec.get("code_version") or {}
        version = (f"engine sources {cv.get('engine_sources')}, git {cv.get('git')}" if isinstance(cv, dict)
                   else str(cv))
        out.append(f"* {p}: `{rec['command']}` ({version})")
        for a in rec.get("added", []):
            out.append(f"  * {', '.join(f'`{n}`' for n in a['strategies'])}: `{a['command']}`")
        for r in rec.get("versus", []):
            if not standard_pair(r) and r.get("command"):
                out.append(f"  * `{r['strategy']}` against `{r['against']}`: `{r['command']}`")
    return "\n".join(out) + "\n"


def networks_markdown(data: dict[str, Any]) -> list[str]:
    """The table of `learned`'s networks: how each was trained (its provenance) and what it measured where it plays
    (the strength record), so that what docs/strategies.md says of a network is the file's, never typed."""
    from sim.analysis.selfplay import MARGIN_SEED, MarginTrial, setting_label
    from strategies.learned import network_setting
    from strategies.learned_nets import NETWORKS

    out = [f"`{LEARNED}`'s networks (`strategies/learned_nets.py`): each the last round of a run of self-play "
           "(`canasta-lab train`), fitted to the hand's margin or to option values (`--label`: rows are options, "
           "losses their values' less the decision's mean; with `--also`, other runs' rows too, named under targets), "
           "its held-out loss beside the mean's, `margin` chosen against `expert` on 2,000 games a trial (deals of "
           f"seed {MARGIN_SEED} plus the command's seed, Elo; then, for the networks installed since the trials of "
           "decision points, each point closed in turn at the best margin and kept closed where that gained: `0.2 at "
           "draw, meld` departs from expert "
           f"there only), and at its preset `{LEARNED}` against `{STRONGEST}` and `{data['reference']}` (Elo, the "
           f"record's seed; `{STRONGEST}`'s against `{data['reference']}` in brackets) and `{LOOKAHEAD}`'s win rate "
           f"against it:", "",
           "| network | command | targets | rows | CPU s | held-out loss (mean only) | Elo against `expert` by margin |"
           f" margin | `{LEARNED}` vs `{STRONGEST}` | `{LEARNED}` vs `{data['reference']}` (`{STRONGEST}`'s) | "
           f"`{LOOKAHEAD}` vs `{LEARNED}` |", "|---" * 11 + "|"]
    for scope in sorted(NETWORKS):
        prov = NETWORKS[scope]["provenance"]
        rec = data["presets"].get(scope, {})
        rows = by_name(rec)
        vs = {(r["strategy"], r.get("against")): r for r in rec.get("versus", [])}
        trials = ", ".join(f"{MarginTrial(**t).label()}: {t['elo']:+.1f}" for t in prov["margin_trials"])
        setting = setting_label(*network_setting(prov))
        cpu = sum(r["cpu_seconds"] for r in prov["rounds"])
        out.append(f"| {scope} | `{prov['command']}` | {targets(prov)} | {prov['rows']:,} | {cpu:.0f} | "
                   f"{prov['held_out_loss']:.3g} ({prov['held_out_base']:.3g}) | {trials} | {setting} | "
                   f"{_elo(vs.get((LEARNED, STRONGEST)))} | {_elo(rows.get(LEARNED))} ({_elo(rows.get(STRONGEST))}) | "
                   f"{_win(vs.get((LOOKAHEAD, LEARNED)))} |")
    return out


def targets(prov: dict[str, Any]) -> str:
    """What a network was fitted to: the hand's margin, or option values (`train --label`; mean margins, or results
    with `--label-value result`), played out by whom (`--label-with`) and how many decisions."""
    also = prov["rounds"][-1].get("also", [])  # other runs' rows (`--also`), named by their markers
    more = f"; and the rows of {'; of '.join(also)}" if also else ""
    if not prov.get("label"):
        return "hand margin" + more
    decisions = sum(r.get("labelled", 0) for r in prov["rounds"])
    by = f" by {prov['label_with']}" if prov.get("label_with") else ""  # expert's, where the provenance names none
    kind = f" ({prov['label_value']}s)" if prov.get("label_value", "margin") != "margin" else ""
    return f"option values{kind}, {prov['label']} rollouts{by}, {decisions:,} decisions{more}"


def command_line(variant: str, games: int, seed: int, games_for: Mapping[str, int], only: Sequence[str] = (),
                 versus: Sequence[str] = ()) -> str:
    parts = ["canasta-lab", "strategies", "--measure", variant, "--games", str(games), "--seed", str(seed)]
    if only:
        parts += ["--only", ",".join(only)]
    if versus:
        parts += ["--versus", ",".join(versus)]
    for name, n in games_for.items():
        parts += ["--games-for", f"{name}={n}"]
    return shlex.join(parts)
