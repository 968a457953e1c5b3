"""Issues 10 and 26: every library strategy's strength against the fixed yardstick `reference`, at every preset,
comes from one committed measurement (strategies/strength.json) that the CLI and docs/strategies.md show, with the
command of each preset."""

from __future__ import annotations

from pathlib import Path

from sim.analysis import strength
from sim.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]


def test_measure_plays_each_strategy_against_reference_and_a_preset_keeps_the_others(tmp_path):
    record = strength.measure("classic-2p", 40, 3, {"random": 20}, names=["aggressive", "random"],
                              command="canasta-lab strategies --measure classic-2p --games 40 --seed 3",
                              profile_games=20)
    rows = strength.by_name(record)
    assert set(rows) == {"aggressive", "random"} and record["reference"] == "reference"
    assert rows["aggressive"]["games"] == 40 and rows["random"]["games"] == 20
    assert rows["random"]["win_high"] < 0.5  # random loses to reference even in 20 games
    for r in record["rows"]:
        assert r["win_low"] <= r["win_rate"] <= r["win_high"] and r["elo_low"] <= r["elo"] <= r["elo_high"]
    assert [p["strategy"] for p in record["play"]] == ["reference", "expert"]
    assert all(p["games"] == 20 and abs(p["ended_out"] + p["ended_stock"] + p["ended_cap"] - 1) < 0.01
               for p in record["play"])
    path = tmp_path / "s.json"
    strength.write([record], path)
    other = {**record, "variant": "boat-2p", "command": "another"}
    data = strength.write([other], path)
    assert set(data["presets"]) == {"classic-2p", "boat-2p"} and strength.load(path) == data
    assert strength.record_for(data, "classic-2p") == record
    md = strength.markdown(data)
    assert record["command"] in md and "| classic-2p |" in md and "| boat-2p |" in md


def test_only_adds_some_strategies_rows_to_a_preset_s_record_and_keeps_the_rest():
    whole = strength.measure("classic-2p", 20, 3, names=["random", "aggressive"], command="whole", profile_games=0)
    added = strength.measure("classic-2p", 20, 4, names=["learned"], command="only", profile_games=0)
    merged = strength.add_rows(whole, added)
    order = strength.library_names()
    assert [r["strategy"] for r in merged["rows"]] == [n for n in order if n in {"random", "aggressive", "learned"}]
    assert merged["command"] == "whole" and merged["rows"][0] == whole["rows"][0]
    assert merged["added"] == [{"strategies": ["learned"], "command": "only", "code_version": added["code_version"],
                                "seed": 4}]
    again = strength.add_rows(merged, {**added, "command": "only again"})  # measured again: one entry, the new one
    assert [a["command"] for a in again["added"]] == ["only again"]
    md = strength.markdown({"reference": "reference", "presets": {"classic-2p": again}})
    assert "  * `learned`: `only again`" in md


def test_only_is_refused_with_a_strategy_outside_the_library(cli):
    r = cli("strategies", "--measure", "classic-2p", "--only", "nobody", "--games", "10", "--seed", "1")
    assert r.returncode == 2 and "--only nobody: give library strategies" in r.stderr


def test_versus_adds_one_head_to_head_with_its_command_and_keeps_the_rest():
    """`--versus A,B` (issue 37: search:rollout=learned against search): one pair beside the standard ones, listed in
    its own table with the command that measured it; measured again, it replaces its earlier row."""
    old = strength.measure("classic-2p", 4, 1, names=["random"], command="whole", profile_games=0)
    row = strength.measure_versus("classic-2p", "aggressive:freeze=5", "baseline", 4, 1, command="versus cmd")
    old["versus"] = [{**row, "strategy": "search", "against": "expert", "command": ""}]  # a standard pair's row
    assert row["strategy"] == "aggressive:freeze=5" and row["against"] == "baseline" and row["games"] == 4
    merged = strength.add_versus(old, row)
    assert merged["versus"] == [old["versus"][0], row] and merged["command"] == "whole"
    assert strength.add_versus(merged, {**row, "command": "again"})["versus"][1]["command"] == "again"
    assert not strength.standard_pair(row) and strength.standard_pair(old["versus"][0])
    md = strength.markdown({"reference": "reference", "presets": {"classic-2p": merged}})
    assert f"| classic-2p | `aggressive:freeze=5` | `baseline` | {strength._win(row)} | {strength._elo(row)} |" in md
    assert "  * `aggressive:freeze=5` against `baseline`: `versus cmd`" in md


def test_versus_is_refused_in_one_line_before_any_game(cli):
    base = ("strategies", "--measure", "classic-2p", "--games", "4", "--seed", "1")
    for args, needle in (((*base, "--versus", "search"), "give two different strategies"),
                         ((*base, "--versus", "search,search"), "give two different strategies"),
                         ((*base, "--versus", "search:rollout=bogus,search"), "--versus: knob search:rollout='bogus'"),
                         ((*base, "--versus", "a,b", "--only", "expert"), "give it without --only"),
                         (("strategies", "--versus", "search,expert"), "go with --measure")):
        r = cli(*args)
        assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, args


def test_learned_is_measured_against_expert_and_search_against_learned_where_it_has_a_network():
    """Beside its row against reference: learned against expert everywhere, search against learned only where a
    network plays (elsewhere learned plays expert's games, which search already met)."""
    assert strength.versus_pairs(["learned"], "classic-4p") == [("learned", "expert"), ("search", "learned")]
    assert strength.versus_pairs(["learned"], "classic-2p") == [("learned", "expert")]
    record = strength.measure("classic-4p", 2, 1, names=["learned"], games_for={"search": 2}, profile_games=0)
    assert [(r["strategy"], r["against"], r["games"]) for r in record["versus"]] == [
        ("learned", "expert", 2), ("search", "learned", 2)]
    old = {"rows": [], "versus": [{"strategy": "search", "against": "expert", "games": 20},
                                  {"strategy": "search", "against": "learned", "games": 20}], "seed": 1,
           "play": [{"strategy": "reference"}, {"strategy": "expert"}, {"strategy": "learned", "games": 9}]}
    merged = strength.add_rows(old, {**record, "play": [{"strategy": "learned", "games": 2}]})
    assert [(r["strategy"], r["against"], r["games"]) for r in merged["versus"]] == [
        ("search", "expert", 20), ("learned", "expert", 2), ("search", "learned", 2)]
    assert merged["play"] == [{"strategy": "reference"}, {"strategy": "expert"}, {"strategy": "learned", "games": 2}]


def test_search_is_measured_against_expert_as_well():
    record = strength.measure("classic-2p", 2, 1, names=["search"], games_for={"search": 2}, profile_games=0)
    (vs,) = record["versus"]  # classic-2p: learned has no network there, so search does not meet it
    assert vs["strategy"] == "search" and vs["against"] == "expert" and vs["games"] == 2 and record["play"] == []


def _row(name: str, elo: float, low: float) -> dict:
    return {"strategy": name, "elo": elo, "elo_low": low}


def test_the_strongest_fast_player_is_the_highest_elo_that_does_not_look_ahead():
    record = {"rows": [_row("baseline", 0, 0), _row("expert", 44, 32), _row("learned", 58, 45),
                       _row("search", 108, -70)]}
    assert strength.strongest_fast(record) == "learned"
    record["rows"][2] = _row("learned", 30, 20)
    assert strength.strongest_fast(record) == "expert"


def test_a_tie_with_expert_and_a_preset_without_a_record_keep_expert():
    """learned plays expert's choice where it has no network: the same games, the same Elo, and expert stays."""
    assert strength.strongest_fast({"rows": [_row("learned", 49, 35), _row("expert", 49, 35)]}) == "expert"
    assert strength.strongest_fast(None) == "expert"
    assert strength.strongest_fast({"rows": [_row("search", 300, 100)]}) == "expert"


def test_the_committed_record_covers_every_preset_and_the_whole_library_and_the_docs_show_it():
    data = strength.load()
    assert data is not None, "strategies/strength.json is missing: run canasta-lab strategies --measure all"
    assert set(data["presets"]) == set(PRESETS)
    for name, record in data["presets"].items():
        assert [r["strategy"] for r in record["rows"]] == strength.library_names(), name
        assert record["command"].startswith(f"canasta-lab strategies --measure {name} "), name
        assert [r["strategy"] for r in record["play"]] == list(strength.PROFILED), name
        pairs = {(r["strategy"], r["against"]) for r in record["versus"] if strength.standard_pair(r)}
        assert pairs == set(strength.versus_pairs(strength.library_names(), name)), name
        assert all(r["command"].startswith(f"canasta-lab strategies --measure {name} ")
                   for r in record["versus"] if not strength.standard_pair(r)), name
    docs = (ROOT / "docs" / "strategies.md").read_text()
    assert strength.markdown(data) in docs, "docs/strategies.md: paste `canasta-lab strategies --markdown`"


def test_strategies_variant_shows_the_strength_at_that_preset(cli):
    out = cli("strategies", "--variant", "boat-4p").stdout
    assert "strength against reference at boat-4p, from `canasta-lab strategies --measure boat-4p" in out
    assert "search against expert: Elo" in out and "    strength     Elo" in out
    assert "reference in mirror play:" in out
    out = cli("strategies", "--variant", "boat-4p", "--rule", "target_score=3000").stdout
    assert "strength against" not in out  # measured at the preset, not with house rules


def test_measure_options_are_refused_without_measure_and_bad_counts_are_named(cli):
    r = cli("strategies", "--games", "10")
    assert r.returncode == 2 and "--measure" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = cli("strategies", "--measure", "classic-4p", "--games", "10", "--seed", "1", "--games-for", "search=0")
    assert r.returncode == 2 and "NAME=GAMES" in r.stderr
    r = cli("strategies", "--measure", "classic-4p", "--games", "10")
    assert r.returncode == 2 and "--seed" in r.stderr


def test_the_networks_table_says_what_each_network_was_fitted_to():
    """A network fitted to option values (`train --label`) is not read as one fitted to hand margins: the table
    says which, with the rollouts and the decisions labelled, from the provenance."""
    from sim.analysis.strength import targets

    assert targets({"rounds": [{"labelled": 0}]}) == "hand margin"
    prov = {"label": 16, "label_share": 0.3, "rounds": [{"labelled": 1200}, {"labelled": 34}]}
    assert targets(prov) == "option values, 16 rollouts, 1,234 decisions"
    assert targets(prov | {"label_with": "learned"}) == "option values, 16 rollouts by learned, 1,234 decisions"
    assert targets(prov | {"label_value": "result"}) == "option values (results), 16 rollouts, 1,234 decisions"
    two = {"rounds": [{"labelled": 1234, "also": ["house-001-4p seed 1, 1 round of 2,500 games: 10 rows",
                                                  "house-001-4p seed 3, 1 round of 2,500 games: 20 rows"]}]}
    assert targets(two | {"label": 16}) == ("option values, 16 rollouts, 1,234 decisions; and the rows of house-001-4p "
                                            "seed 1, 1 round of 2,500 games: 10 rows; of house-001-4p seed 3, 1 round "
                                            "of 2,500 games: 20 rows")
    assert targets(two).startswith("hand margin; and the rows of house-001-4p seed 1")
