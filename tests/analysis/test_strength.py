"""Issue 10, part 4: every library strategy's strength against baseline comes from one committed
measurement (strategies/strength.json) that the CLI and docs/strategies.md show, with its command."""

from __future__ import annotations

from pathlib import Path

from sim.analysis import strength

ROOT = Path(__file__).resolve().parents[2]


def test_measure_plays_each_strategy_against_baseline_and_records_the_command(tmp_path):
    record = strength.measure("classic-2p", 40, 3, {"random": 20}, names=["aggressive", "random"],
                              command="canasta-lab strategies --measure classic-2p --games 40 --seed 3")
    rows = strength.by_name(record)
    assert set(rows) == {"aggressive", "random"}
    assert rows["aggressive"]["games"] == 40 and rows["random"]["games"] == 20
    assert rows["random"]["win_high"] < 0.5  # random loses to baseline even in 20 games
    for r in record["rows"]:
        assert r["win_low"] <= r["win_rate"] <= r["win_high"]
    strength.write(record, tmp_path / "s.json")
    assert strength.load(tmp_path / "s.json") == record
    md = strength.markdown(record)
    assert record["command"] in md and "| `random` | 20 |" in md


def test_the_committed_record_covers_the_whole_library_and_the_docs_show_it():
    record = strength.load()
    assert record is not None, "strategies/strength.json is missing: run canasta-lab strategies --measure"
    assert [r["strategy"] for r in record["rows"]] == strength.library_names()
    assert record["command"].startswith("canasta-lab strategies --measure ")
    docs = (ROOT / "docs" / "strategies.md").read_text()
    assert strength.markdown(record) in docs, "docs/strategies.md: paste `canasta-lab strategies --markdown`"


def test_strategies_command_shows_the_strength_line(cli):
    out = cli("strategies").stdout
    assert "strength against baseline" in out and "    strength     win rate" in out


def test_measure_options_are_refused_without_measure_and_bad_counts_are_named(cli):
    r = cli("strategies", "--games", "10")
    assert r.returncode == 2 and "--measure" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = cli("strategies", "--measure", "classic-4p", "--games", "10", "--seed", "1", "--games-for", "search=0")
    assert r.returncode == 2 and "NAME=GAMES" in r.stderr
    r = cli("strategies", "--measure", "classic-4p", "--games", "10")
    assert r.returncode == 2 and "--seed" in r.stderr
