"""Play statistics (sim/analysis/profile.py, `canasta-lab profile`): every figure recomputed here from the hands
table by another route, the hands table's per-side columns checked against a transcript, the command
line, and bad input refused before any game."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest

from sim import get_variant, play, profile
from sim.analysis.profile import FIGURES, markdown, table
from sim.cli import main
from sim.records.outputs import PROFILE_FILE
from sim.records.transcript import events
from sim.run.runner import make_job
from sim.run.store import DERIVED

VARIANT = "classic-4p"
PAIR = ["baseline", "freezer"]  # freezer freezes, both ask: every per-side count shows up
GAMES = 60
SEED = 4
WILDS = {"2S", "2H", "2D", "2C", "JK"}
BLACK_THREES = {"3S", "3C"}


def one_label(label: str) -> str:
    parts = label.split("+")
    return parts[0] if len(set(parts)) == 1 else label


def by_hand_and_side(games: pd.DataFrame, hands: pd.DataFrame, n_sides: int) -> pd.DataFrame:
    """One row per (hand, side), labelled with the side's strategy from the games table."""
    strategy = games.set_index("game")
    frames = []
    for s in range(n_sides):
        frames.append(pd.DataFrame({
            "strategy": hands["game"].map(strategy[f"strategy_{s}"].astype(str)).map(one_label).to_numpy(),
            "went_out": (hands["out_side"] == s).to_numpy(),
            "held": (hands[f"natural_canastas_{s}"] + hands[f"mixed_canastas_{s}"]).to_numpy(),
            "natural": hands[f"natural_canastas_{s}"].to_numpy(),
            "mixed": hands[f"mixed_canastas_{s}"].to_numpy(),
            "score": hands[f"total_{s}"].to_numpy(),
            **{c: hands[f"{c}_{s}"].to_numpy() for c in ("pile_pickups", "freezes", "black3_discards", "asks",
                                                          "yes_answers")},
        }))
    return pd.concat(frames, ignore_index=True)


@pytest.fixture(scope="module")
def pair_run():
    r = play(VARIANT, PAIR, games=GAMES, seed=SEED, hands=True, workers=1)
    df = profile(VARIANT, PAIR, games=GAMES, seed=SEED, workers=1)
    return r, df


def test_every_figure_agrees_with_the_hands_table(pair_run):
    r, df = pair_run
    g, h = r.games, r.hands
    long = by_hand_and_side(g, h, get_variant(VARIANT).n_sides)
    assert list(df["strategy"]) == PAIR
    for label in PAIR:
        row = df.set_index("strategy").loc[label]
        mine = long[long["strategy"] == label]
        out = mine[mine["went_out"]]
        want = {
            "games": len(g), "hands": len(h), "side_hands": len(mine),
            "hands_per_game": g["n_hands"].mean(), "turns_per_hand": h["turns"].mean(),
            "ended_out": (h["reason"] == "out").mean(), "ended_stock": (h["reason"] == "stock").mean(),
            "ended_cap": (h["reason"] == "cap").mean(),
            "went_out": mine["went_out"].mean(),
            "out_with_1": (out["held"] == 1).mean(), "out_with_2": (out["held"] == 2).mean(),
            "out_with_3plus": (out["held"] >= 3).mean(),
            "natural_canastas": mine["natural"].mean(), "mixed_canastas": mine["mixed"].mean(),
            "score_mean": mine["score"].mean(), "score_sd": mine["score"].std(ddof=1),
            **{c: mine[c].mean() for c in ("pile_pickups", "freezes", "black3_discards", "asks", "yes_answers")},
        }
        for column, value in want.items():
            assert row[column] == pytest.approx(value, rel=1e-9), f"{label}: {column}"
    # the two sides split the goings out, and the figures differ where the strategies do
    assert df["went_out"].sum() == pytest.approx(df["ended_out"].iat[0])
    freezes = df.set_index("strategy")["freezes"]
    assert freezes["freezer"] > 10 * freezes["baseline"]
    assert set(df.columns) >= {c for c, _, _ in FIGURES}


def test_hand_rows_split_the_hand_totals_by_side_and_count_canastas_by_kind(pair_run):
    r, _ = pair_run
    h = r.hands
    v = get_variant(VARIANT)
    for c in ("pile_pickups", "freezes", "black3_discards", "asks", "yes_answers"):
        assert (h[c] == sum(h[f"{c}_{s}"] for s in range(v.n_sides))).all(), c
        assert h[c].sum() > 0, c  # the check counts something
    for s in range(v.n_sides):
        bonus = (h[f"natural_canastas_{s}"] * v.score.canasta_bonus_natural
                 + h[f"mixed_canastas_{s}"] * v.score.canasta_bonus_mixed)
        assert (h[f"canastas_{s}"] == bonus).all()
        assert (h[f"yes_answers_{s}"] <= h[f"asks_{s}"]).all()
    went_out = h[h["out_side"] >= 0]
    held = np.array([went_out[f"natural_canastas_{s}"].iat[i] + went_out[f"mixed_canastas_{s}"].iat[i]
                     for i, s in enumerate(went_out["out_side"])])
    assert (held >= v.going_out.going_out_canastas).all()


def transcript_counts(variant: str, strategies: list[str], seed: int, game: int) -> list[dict[str, list[int]]]:
    """Per hand, per side: canastas by kind at the hand's end and what the side's seats did, read
    from the game's transcript (docs/transcript.md) alone."""
    v = get_variant(variant)
    side = v.seat_side
    hands: list[dict[str, list[int]]] = []
    melds: dict[tuple[int, int], list[int]] = {}
    counts: dict[str, list[int]] = {}
    for e in events(make_job(variant, strategies, seed), game):
        kind = e["event"]
        if kind == "deal":
            melds = {}
            counts = defaultdict(lambda: [0] * v.n_sides)
        elif kind == "take_pile":
            counts["pile_pickups"][side(e["player"])] += 1
        elif kind == "meld":
            m = melds.setdefault((e["side"], e["meld"]), [0, 0, int(e["kind"] == "black3")])
            for card in e["cards"]:
                m[1 if card in WILDS else 0] += 1
        elif kind == "discard":
            if e["card"] in WILDS:
                counts["freezes"][side(e["player"])] += 1
            elif e["card"] in BLACK_THREES:
                counts["black3_discards"][side(e["player"])] += 1
        elif kind == "ask":
            counts["asks"][side(e["player"])] += 1
            counts["yes_answers"][side(e["player"])] += int(e["answer"])
        elif kind == "hand_end":
            for (s, _), (naturals, wilds, black3) in melds.items():
                if not black3 and naturals + wilds >= v.melds.canasta_size:
                    counts["mixed_canastas" if wilds else "natural_canastas"][s] += 1
            hands.append(dict(counts))
    return hands


@pytest.mark.parametrize("game", [0, 1, 2])
def test_hand_rows_agree_with_the_transcript(pair_run, game):
    r, _ = pair_run
    rows = r.hands[r.hands["game"] == game].sort_values("hand")
    seen = transcript_counts(VARIANT, PAIR, SEED, game)
    assert len(seen) == len(rows)
    for counts, row in zip(seen, rows.itertuples(), strict=True):
        for name in ("natural_canastas", "mixed_canastas", "pile_pickups", "freezes", "black3_discards", "asks",
                     "yes_answers"):
            got = [getattr(row, f"{name}_{s}") for s in range(2)]
            assert got == counts.get(name, [0, 0]), f"game {game} hand {row.hand}: {name}"


def test_mirror_plays_each_strategy_against_itself_on_the_same_deals():
    both = profile(VARIANT, ["baseline", "cautious"], games=20, seed=2, mirror=True, workers=1)
    alone = profile(VARIANT, "cautious", games=20, seed=2, workers=1)
    assert list(both["strategy"]) == ["baseline", "cautious"]
    pd.testing.assert_series_equal(both.iloc[1], alone.iloc[0], check_names=False)
    assert both["went_out"].iat[0] == pytest.approx(both["ended_out"].iat[0] / 2)  # two sides of one strategy
    with pytest.raises(ValueError, match="given twice"):
        profile(VARIANT, ["baseline", "baseline"], games=2, seed=1, mirror=True)


def test_a_side_that_mixes_strategies_is_one_row_whichever_seats_it_holds():
    df = profile(VARIANT, ["baseline", "freezer", "random"], games=10, seed=1, workers=1)
    # seats A B C A: rotation 0 pairs A+C against B+A, rotation 1 A+B against A+C
    assert list(df["strategy"]) == ["baseline+random", "baseline+freezer"]
    assert df["side_hands"].sum() == 2 * df["hands"].iat[0]


def test_table_and_markdown_show_every_figure(pair_run):
    _, df = pair_run
    text = table(df)
    md = markdown(df).splitlines()
    assert text.startswith(f"{VARIANT}: baseline vs freezer on duplicate deals, {GAMES} games (30 duplicate deals)")
    assert md[0] == "| figure | `baseline` | `freezer` |" and len(md) == 2 + len(FIGURES)
    for _, name, _ in FIGURES:
        assert name in text


def test_the_command_prints_the_table_json_and_markdown_and_writes_its_folder(tmp_path, capsys):
    args = ["profile", "classic-2p", "-s", "baseline", "-s", "cautious", "--games", "8", "--seed", "3", "--workers",
            "1"]
    assert main(args) == 0
    assert "hands per game" in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["variant"] == "classic-2p" and [r["strategy"] for r in doc["strategies"]] == ["baseline", "cautious"]
    assert main([*args, "--mirror", "--markdown", "--out", str(tmp_path / "p")]) == 0
    md = capsys.readouterr().out
    assert md.startswith("| figure | `baseline` | `cautious` |")
    saved = pd.read_parquet(tmp_path / "p" / PROFILE_FILE)
    assert list(saved["strategy"]) == ["baseline", "cautious"]
    assert (tmp_path / "p" / "baseline.parquet").is_dir() and (tmp_path / "p" / "cautious.parquet").is_dir()
    # the same command again resumes: nothing is played, the same table comes out
    assert main([*args, "--mirror", "--markdown", "--out", str(tmp_path / "p")]) == 0
    assert capsys.readouterr().out == md
    assert PROFILE_FILE in DERIVED  # --force may replace it


def test_profile_has_help(cli):
    r = cli("profile", "--help")
    assert r.returncode == 0 and "--mirror" in r.stdout


BAD = [
    (["-s", "nope"], "unknown strategy 'nope'"),
    (["-s", "baseline:min_pile=900"], "out of range"),
    (["-s", "baseline", "--games", "0"], "positive whole number, got 0"),
    (["-s", "baseline"] * 5, "has 4 seats"),
    (["--mirror", "-s", "baseline", "-s", "baseline"], "given twice"),
    (["-s", "baseline", "--json", "--markdown"], "not allowed with argument"),
    (["-s", "baseline", "--rule", "nope=1"], "nope"),
]


@pytest.mark.parametrize("extra,message", BAD)
def test_bad_input_gets_one_clear_line_before_any_game(extra, message, tmp_path, cli):
    args = ["profile", VARIANT, "--seed", "1", *extra]
    if "--games" not in extra:
        args += ["--games", "4"]
    r = cli(*args, "--out", str(tmp_path / "p"))
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert "compiling" not in r.stderr and not (tmp_path / "p").exists()


def test_an_output_that_is_a_file_is_refused_and_kept(tmp_path, cli):
    f = tmp_path / "keep"
    f.write_text("precious")
    r = cli("profile", VARIANT, "-s", "baseline", "--games", "2", "--seed", "1", "--out", str(f))
    assert r.returncode != 0 and "is a file" in r.stderr and f.read_text() == "precious"
