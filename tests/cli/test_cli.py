"""The command line: the DESIGN.md contract and one clear line for every kind of bad input."""

import json

import pandas as pd
import pytest

from sim import read
from sim.cli import main
from sim.records.results import read_parquet


def test_variants_lists_the_four_classic_presets(capsys):
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for name in ("classic-4p", "classic-2p", "classic-3p", "classic-6p"):
        assert name in out


def test_strategies_lists_knobs_with_range_default_and_meaning(capsys):
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "baseline" in out
    assert "min_pile" in out and "default 3" in out


def _commands() -> list[str]:
    from sim.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return list(sub.choices)


@pytest.mark.parametrize("command", _commands())  # every subcommand the parser has, a new one included
def test_every_command_has_help(command, cli):
    r = cli(command, "--help")
    assert r.returncode == 0 and "usage" in r.stdout


def test_play_writes_a_run_folder_with_metadata_and_contract_columns(tmp_path):
    out = tmp_path / "r.parquet"
    assert main(["play", "classic-4p", "-s", "baseline:min_pile=5", "-s", "random", "--games", "6", "--seed", "2",
                 "--out", str(out), "--hands"]) == 0
    res = read(out)
    for col in ("game", "deal", "winner_side", "n_hands", "capped_hands", "score_0", "score_1",
                "strategy_0", "strategy_1"):
        assert col in res.games.columns
    assert len(res.games) == 6
    m = res.meta
    assert m["variant"] == "classic-4p" and m["seed"] == 2 and m["games"] == 6
    assert m["strategies"][0]["knobs"]["min_pile"] == 5
    assert m["rules"]["hand_size"] == 11 and "package_version" in m and "wall_seconds" in m
    assert m["code_version"]["engine_sources"] and m["machine"]["cpus"] >= 1  # what ran it, and where
    assert res.hands.groupby("game").size().tolist() == res.games.n_hands.tolist()
    # a Parquet reader that knows nothing of canasta-lab reads the games table from the folder
    assert pd.read_parquet(out).sort_values("game")["score_0"].tolist() == res.games["score_0"].tolist()


BAD = [
    (["play", "classic-5p", "-s", "baseline", "--games", "3", "--seed", "1"], "unknown variant 'classic-5p'"),
    (["play", "classic", "--players", "5", "-s", "baseline", "--games", "3", "--seed", "1"],
     "does not support 5 players; accepted: 2, 3, 4, 6"),
    (["play", "classic-4p", "-s", "nope", "--games", "3", "--seed", "1"], "unknown strategy 'nope'; accepted"),
    (["play", "classic-4p", "-s", "baseline:foo=1", "--games", "3", "--seed", "1"], "has no knob 'foo'"),
    (["play", "classic-4p", "-s", "baseline:min_pile=900", "--games", "3", "--seed", "1"], "out of range"),
    (["play", "classic-4p", "-s", "baseline", "--games", "0", "--seed", "1"], "positive whole number, got 0"),
    (["play", "classic-4p", "-s", "baseline", "--games", "-2", "--seed", "1"], "positive whole number, got -2"),
    (["play", "classic-4p", "-s", "baseline", "--games", "3", "--seed", "1", "--out", "/nonexistent/r.parquet"],
     "does not exist"),
    (["play", "classic-2p", "-s", "random", "-s", "random", "-s", "random", "--games", "3", "--seed", "1"],
     "has 2 seats"),
    (["transcript", "classic-4p", "-s", "baseline", "--seed", "1", "--game", "0", "--out", "/nonexistent/t.jsonl"],
     "not writable"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_gets_one_clear_line_and_nonzero_exit(args, message, cli):
    r = cli(*args)
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert message in lines[0]
    assert "Traceback" not in r.stderr


def test_existing_output_is_never_overwritten(tmp_path, cli):
    out = tmp_path / "keep.parquet"
    out.write_bytes(b"precious")
    r = cli("play", "classic-4p", "-s", "baseline", "--games", "2", "--seed", "1", "--out", str(out))
    assert r.returncode != 0 and "is a file" in r.stderr
    assert out.read_bytes() == b"precious"
    t = tmp_path / "keep.jsonl"
    t.write_text("precious")
    r = cli("transcript", "classic-4p", "-s", "baseline", "--seed", "1", "--game", "0", "--out", str(t))
    assert r.returncode != 0 and t.read_text() == "precious"


def test_corrupt_or_foreign_results_file_is_refused(tmp_path):
    from sim import ResultsError

    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet")
    with pytest.raises(ResultsError, match="not a readable Parquet"):
        read_parquet(bad)
    foreign = tmp_path / "foreign.parquet"
    pd.DataFrame({"a": [1]}).to_parquet(foreign)
    with pytest.raises(ResultsError, match="not written by canasta-lab"):
        read_parquet(foreign)


def test_transcript_writes_jsonl_matching_the_game_row(tmp_path):
    out = tmp_path / "t.jsonl"
    assert main(["transcript", "classic-4p", "-s", "baseline", "-s", "random", "--seed", "1", "--game", "3",
                 "--out", str(out)]) == 0
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert events[0]["event"] == "game" and events[1]["event"] == "deal" and events[-1]["event"] == "game_end"
    from sim import play

    row = play("classic-4p", ["baseline", "random"], games=4, seed=1).games.iloc[3]
    assert events[-1]["totals"] == [int(row.score_0), int(row.score_1)]


def test_compare_writes_report_table_and_chart(tmp_path, capsys):
    assert main(["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "20", "--seed", "3",
                 "--out", str(tmp_path / "rep")]) == 0
    for name in ("report.md", "win_rates.png", "games.parquet", "pairs.parquet"):
        assert (tmp_path / "rep" / name).exists()
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "baseline vs random" in text and "Reproduce: `canasta-lab compare classic-2p" in text
    assert "won all" in text and "Elo" in text and "Pairing cut the variance" in text


def test_bench_json_has_the_contract_fields(cli):
    # --no-cold-start: the cold start is a whole compile from scratch (minutes), which the next test checks
    # the wiring of, and tests/engine/test_jit.py the compile itself
    r = cli("bench", "classic-2p", "--json", "--seconds", "0.2", "--no-cold-start")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout.splitlines()[0])
    for key in ("variant", "hands_per_second", "games_per_second", "us_per_decision", "warm_start_seconds",
                "cold_start_seconds"):
        assert key in d
    assert d["variant"] == "classic-2p" and d["hands_per_second"] > 0 and d["cold_start_seconds"] is None


def test_bench_cold_start_times_a_fresh_interpreter_on_an_empty_compiled_cache(monkeypatch):
    """The cold start runs its child with NUMBA_CACHE_DIR on a new, empty folder and reports the seconds
    from before the launch until the child has played (here the child only reports, instead of compiling
    the engine: that compile is tests/engine/test_jit.py's)."""
    from sim.analysis import bench

    child = ("import os, sys, time; d = os.environ['NUMBA_CACHE_DIR']; "
             "assert os.path.isdir(d) and not os.listdir(d), d; assert sys.argv[2] == 'classic-2p'; "
             "time.sleep(0.2); print(time.time() - float(sys.argv[1]))")
    monkeypatch.setattr(bench, "WARM_START", child)
    seconds = bench.cold_start("classic-2p")
    assert 0.2 <= seconds < 60


def test_report_help_names_every_study_and_its_number(cli):
    from sim.report.studies import NUMBERS, STUDIES

    text = " ".join(cli("report", "--help").stdout.split())  # argparse wraps the help at any space
    for name in STUDIES:
        assert name in text and str(NUMBERS[name]) in text, name
    assert "across_variants" in text and "buraco_choices" in text and "cards" in text
