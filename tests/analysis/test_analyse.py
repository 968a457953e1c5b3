"""The value of each choice at one position (issue 27, part 6): `analyse` at a transcript's decision and at a
position written by hand, the position format's checks, and the command line's refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim import analyse, list_decisions, write_transcript
from sim.analysis.analyse import MIN_SAMPLES, AnalysisError, check_out, position_at, read_game
from sim.analysis.position import PositionError, parse_position, position_text, read_position
from sim.engine import layout as L
from sim.rules import PRESETS

POSITIONS = Path(__file__).resolve().parents[2] / "docs" / "positions"
SMALL = 6  # samples: enough for an interval, few enough for a test of a second or two
GAME = 3
SEED = 1


def transcript(tmp_path_factory: pytest.TempPathFactory, variant: str, strategies: list[str]) -> Path:
    out = tmp_path_factory.mktemp("analyse") / f"{variant}.jsonl"
    write_transcript(variant, strategies, SEED, GAME, out)
    return out


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return transcript(tmp_path_factory, "classic-4p", ["baseline", "expert"])


def first_at(path: Path, point: str, min_options: int = 3) -> int:
    d = list_decisions(path)
    return int(d[(d["point"] == point) & (d["options"] >= min_options)]["decision"].iat[0])


def test_the_table_lists_exactly_the_decisions_legal_options(classic):
    g = read_game(classic)
    i = first_at(classic, "discard")
    a = analyse(classic, i, samples=SMALL, seed=1)
    assert sorted(a.table["option"]) == list(range(int(g.trace.decisions["n"].iat[i])))
    by_option = a.table.sort_values("option")
    assert list(by_option["text"]) == g.trace.options_text(i)


def test_the_option_the_games_player_took_is_marked(classic):
    i = first_at(classic, "discard")
    a = analyse(classic, i, samples=SMALL, seed=1)
    taken = a.table[a.table["taken"]]
    assert len(taken) == 1
    assert taken["text"].iat[0] == list_decisions(classic)["taken"].iat[i]
    assert "taken" in a.text()


def test_the_players_picks_are_each_one_option_and_the_games_player_is_among_them(classic):
    d = list_decisions(classic)
    i = first_at(classic, "discard")
    a = analyse(classic, i, samples=SMALL, seed=1)
    for player in ("search", "expert", "baseline"):
        assert 0 <= a.picks[player] < len(a.table)
        assert int(a.table[f"pick_{player}"].sum()) == 1
    player = d["strategy"].iat[i]  # the seat's own strategy, asked again, takes what it took in the game
    assert a.picks[player] == int(a.table[a.table["taken"]]["option"].iat[0])


def test_a_fixed_seed_gives_the_same_table_and_another_seed_other_rollouts(classic):
    i = first_at(classic, "discard")
    a = analyse(classic, i, samples=SMALL, seed=7)
    b = analyse(classic, i, samples=SMALL, seed=7)
    c = analyse(classic, i, samples=SMALL, seed=8)
    assert a.table.equals(b.table)
    assert not np.array_equal(a.margins, c.margins)


def test_margins_are_means_of_one_rollout_per_sample_and_option_sorted_best_first(classic):
    i = first_at(classic, "discard")
    a = analyse(classic, i, samples=SMALL, seed=1)
    assert a.margins.shape == (SMALL, len(a.table))
    assert (a.table["rollouts"] == SMALL).all()
    means = a.margins.mean(axis=0)
    assert np.allclose(a.table["margin"], means[a.table["option"]])
    assert list(a.table["margin"]) == sorted(a.table["margin"], reverse=True)
    assert a.table["diff"].iat[0] == 0 and (a.table["diff"] <= 0).all()
    assert ((a.table["margin_low"] <= a.table["margin"]) & (a.table["margin"] <= a.table["margin_high"])).all()
    assert ((0 <= a.table["win_low"]) & (a.table["win_low"] <= a.table["win"]) & (a.table["win"] <= a.table["win_high"])
            & (a.table["win_high"] <= 1)).all()


def test_taking_a_big_pile_scores_above_drawing():
    a = analyse(position=POSITIONS / "classic-2p-big-pile.txt", samples=30, seed=1)
    assert a.table["kind"].iat[0] == "take"
    draw = a.table[a.table["kind"] == "draw"]
    assert draw["diff_high"].iat[0] < 0  # worse on the same samples, with 95% confidence


def test_the_list_numbers_every_traced_decision_from_zero(classic):
    d = list_decisions(classic)
    g = read_game(classic)
    assert list(d["decision"]) == list(range(len(g.trace)))
    assert (d["options"] > 1).all()  # a forced move is no decision
    assert set(d["seat"]) == set(range(4))


@pytest.mark.parametrize("point", ["discard", "draw-or-take"])
def test_a_position_written_from_a_traced_decision_reads_back_to_the_same_options(classic, point):
    i = first_at(classic, point, min_options=2)
    p = position_at(classic, i)
    q = parse_position(position_text(p), "round-trip")
    assert q.opts.tolist() == p.opts.tolist()
    for field in (L.OB_DP, L.OB_SEAT, L.OB_STOCK_N, L.OB_PILE_N, L.OB_PILE_TOP, L.OB_FROZEN, L.OB_TURN):
        assert q.obs[field] == p.obs[field]
    assert q.hand == p.hand
    a = analyse(position=q, samples=SMALL, seed=1)
    assert sorted(a.table["text"]) == sorted(p.options_text())


@pytest.mark.parametrize("variant,strategies", [("buraco-2p", ["baseline", "expert"]),
                                                ("buraco-4p", ["expert", "baseline"]),
                                                ("pennies-6p", ["baseline", "expert"]),
                                                ("railroad-2p", ["expert", "baseline"])])
def test_a_decision_of_buraco_pennies_and_railroad_is_analysed(tmp_path_factory, variant, strategies):
    path = transcript(tmp_path_factory, variant, strategies)
    i = first_at(path, "discard")
    a = analyse(path, i, samples=MIN_SAMPLES + 1, seed=1)
    assert len(a.table) == int(list_decisions(path)["options"].iat[i])
    assert int(a.table["taken"].sum()) == 1
    if variant.startswith("buraco"):  # a position written from a Buraco decision keeps its sequences
        p = position_at(path, i)
        assert parse_position(position_text(p), "buraco").opts.tolist() == p.opts.tolist()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_analyses_a_discard_and_writes_it_as_a_position(tmp_path_factory, preset):
    path = transcript(tmp_path_factory, preset, ["expert", "baseline"])
    d = list_decisions(path)
    discards = d[d["point"] == "discard"]
    i = int(discards["decision"].iat[len(discards) // 2])
    a = analyse(path, i, samples=MIN_SAMPLES, seed=1)
    assert len(a.table) == int(d["options"].iat[i]) and int(a.table["taken"].sum()) == 1
    p = position_at(path, i)
    assert parse_position(position_text(p), preset).opts.tolist() == p.opts.tolist()


def test_the_committed_positions_read(tmp_path):
    for f in sorted(POSITIONS.glob("*.txt")):
        p = read_position(f)
        assert p.n >= 2, f.name
        assert parse_position(position_text(p), f.name).opts.tolist() == p.opts.tolist()


# --- impossible positions: one line each ---------------------------------------------------------------------

BASE = """variant: classic-2p
seat: 0
point: discard
hand: KS KH 4C 5D 6S 7H 9C TD JS QH 8S
hands: 11 11
meld 0: A A A
meld 1: 5 5 5
pile: 4S 4H 6H KD
stock: 76
"""


def with_lines(**changes: str) -> str:
    """BASE with some keys' lines replaced (a value of None drops the line) and extra lines under `extra`."""
    out = []
    for line in BASE.splitlines():
        key = line.split(":")[0].replace(" ", "_")
        if key in changes:
            if changes[key] is not None:
                out.append(f"{line.split(':')[0]}: {changes[key]}")
        else:
            out.append(line)
    return "\n".join(out + changes.get("extra", "").splitlines()) + "\n"


def test_the_base_position_is_possible():
    assert parse_position(BASE).n == 11


@pytest.mark.parametrize("changes,needle", [
    ({"hand": "KS KH KS KS 6S 7H 9C TD JS QH 8S"}, "more copies of KS"),
    ({"extra": "meld 0: K K K K K K K K"}, "more Ks than the packs hold"),
    ({"meld_1": "5 2 2 2"}, "is not a legal meld of 5s"),
    ({"meld_1": "5 6 7"}, "a meld holds one rank"),
    ({"meld_1": "3 3 3"}, "threes are not melded"),
    ({"extra": "meld 0: A A A A"}, "two melds of As"),
    ({"pile": "4S 3H"}, "a red three cannot be the pile's top card"),
    ({"hand": "3H KH 4C 5D 6S 7H 9C TD JS QH 8S"}, "a red three cannot be in a hand"),
    ({"stock": "70"}, "the sizes do not add up to the pack"),
    ({"hands": "10 11"}, "hand size is 10 but its hand lists 11"),
    ({"hands": "11 11 11"}, "expected 2 whole numbers"),
    ({"seat": "4"}, "seat 4 does not exist"),
    ({"point": "meld"}, "decision point 'meld'; accepted: draw, discard"),
    ({"extra": "colour: red"}, "unknown key 'colour'"),
    ({"stock": None}, "missing stock"),
    ({"hand": "KS KH ZZ"}, "bad card 'ZZ'"),
    ({"extra": "meld 2: 9 9 9"}, "side 2 does not exist"),
    ({"pile": "0 KD"}, "an empty pile has no top card"),
    ({"extra": "red3: 4 1"}, "more red threes"),
    ({"variant": "clasic-2p"}, "clasic-2p"),
    ({"extra": "turn: 2"}, "turn 2 is not seat 0's"),
])
def test_an_impossible_position_is_refused_in_one_line(changes, needle):
    with pytest.raises(PositionError) as e:
        parse_position(with_lines(**changes), "p.txt")
    msg = str(e.value)
    assert needle in msg, msg
    assert "\n" not in msg


def test_an_illegal_buraco_sequence_is_refused():
    text = (POSITIONS / "buraco-2p-joker.txt").read_text().replace("meld 0: 9H TH JH", "meld 0: 9H TH QH")
    with pytest.raises(PositionError, match="not a legal sequence"):
        parse_position(text, "b.txt")


# --- bad input --------------------------------------------------------------------------------------------


def test_settings_out_of_range_are_refused_before_any_work(classic, tmp_path):
    with pytest.raises(AnalysisError, match="accepted rollout players are baseline, expert"):
        analyse(classic, 0, rollout="search")
    with pytest.raises(AnalysisError, match="--samples 1: give a whole number from 2"):
        analyse(classic, 0, samples=1)
    with pytest.raises(AnalysisError, match="decision 99999 is out of range"):
        analyse(classic, 99999)
    (tmp_path / "t.csv").write_text("keep")
    with pytest.raises(AnalysisError, match="already exists"):
        check_out(tmp_path / "t.csv")
    with pytest.raises(AnalysisError, match=r"\.csv or \.json"):
        check_out(tmp_path / "t.txt")


def refused(r, *needles: str) -> None:
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and "compiling" not in ln]
    assert r.returncode != 0, r.stdout
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for n in needles:
        assert n in lines[0], lines[0]


def test_bad_command_lines_are_refused_in_one_line(classic, tmp_path, cli):
    n = len(list_decisions(classic))
    refused(cli("analyse", str(tmp_path / "nope.jsonl"), "--decision", "0"), "no such transcript")
    refused(cli("analyse", str(classic), "--decision", str(n)), "out of range", f"decisions 0 to {n - 1}", "--list")
    refused(cli("analyse", str(classic), "--decision", "0", "--rollout", "search"), "--rollout 'search'", "expert")
    refused(cli("analyse", str(classic)), "--decision N")
    refused(cli("analyse", str(classic), "--decision", "0", "--position", str(POSITIONS / "classic-4p-discard.txt")),
            "not both")
    (tmp_path / "x.json").write_text("keep")
    refused(cli("analyse", str(classic), "--decision", "0", "--out", str(tmp_path / "x.json")), "already exists")
    assert (tmp_path / "x.json").read_text() == "keep"
    bad = tmp_path / "bad.txt"
    bad.write_text(with_lines(stock="70"))
    refused(cli("analyse", "--position", str(bad)), "do not add up")
    not_a_transcript = tmp_path / "t.jsonl"
    not_a_transcript.write_text('{"event": "deal"}\n')
    refused(cli("analyse", str(not_a_transcript), "--decision", "0"), "is not a transcript")
    lines = classic.read_text().splitlines()
    header = json.loads(lines[0])
    header["strategies"] = ["random"] * len(header["strategies"])  # not the players of these moves
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    refused(cli("analyse", str(other), "--decision", "0"), "does not replay to the same game")


def test_the_command_prints_the_table_and_writes_it(classic, tmp_path, cli):
    i = first_at(classic, "discard")
    out = tmp_path / "t.json"
    r = cli("analyse", str(classic), "--decision", str(i), "--samples", "4", "--seed", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "margin [95%]" in r.stdout and "taken" in r.stdout
    doc = json.loads(out.read_text())
    assert doc["decision"] == i and doc["samples"] == 4 and len(doc["options"]) == int(
        list_decisions(classic)["options"].iat[i])
    listed = cli("analyse", str(classic), "--list")
    assert listed.returncode == 0 and "decision" in listed.stdout.splitlines()[0]
    r = cli("analyse", "--position", str(POSITIONS / "classic-4p-discard.txt"), "--samples", "3")
    assert r.returncode == 0, r.stderr
    assert "discard QS" in r.stdout


def test_the_command_has_help(cli):
    r = cli("analyse", "--help")
    assert r.returncode == 0 and "--decision" in r.stdout and "--position" in r.stdout and "--list" in r.stdout


def test_a_transcript_with_house_rules_replays_under_them(tmp_path):
    from sim import get_variant, with_rules

    v = with_rules(get_variant("classic-4p"), ["target_score=3000", "initial_meld_table=-inf:15,0:60,1500:90,3000:120"])
    path = tmp_path / "house.jsonl"
    write_transcript(v, ["baseline"], SEED, GAME, path)
    g = read_game(path)
    assert g.variant.to_dict() == v.to_dict()
    a = analyse(path, first_at(path, "discard"), samples=MIN_SAMPLES, seed=1)
    assert int(a.table["taken"].sum()) == 1


def test_learned_rolls_out_with_its_network_and_as_expert_where_it_has_none(classic, tmp_path_factory):
    """`--rollout learned` (issue 37, part 5): at classic-4p learned's network plays the rollouts, so the same samples
    give other margins than expert's; at a preset without a network learned plays expert's choice, the same rollouts."""
    from sim.analysis.strength import has_network

    assert has_network("classic-4p") and not has_network("classic-2p")
    i = first_at(classic, "discard")
    a = analyse(classic, i, samples=SMALL, seed=1, rollout="learned")
    assert a.rollout == "learned" and "learned" in a.text()
    assert not np.array_equal(a.margins, analyse(classic, i, samples=SMALL, seed=1, rollout="expert").margins)
    two = transcript(tmp_path_factory, "classic-2p", ["baseline", "expert"])
    j = first_at(two, "discard")
    assert np.array_equal(analyse(two, j, samples=SMALL, seed=1, rollout="learned").margins,
                          analyse(two, j, samples=SMALL, seed=1, rollout="expert").margins)
