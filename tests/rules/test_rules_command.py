"""The rules a user can read: `canasta-lab rules`, `--rule KEY=VALUE` house rules, docs/presets.md.

What is printed is decoded from the packed array the kernels read, so a rule the engine ignores or
packs wrongly cannot look right in the listing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sim import play
from sim.cli import main
from sim.rules import (
    IDENTITY_FIELDS,
    PRESETS,
    RULE_DOCS,
    RulesError,
    engine_view,
    get_variant,
    house_rules,
    presets_markdown,
    rule_fields,
    with_rules,
)

ROOT = Path(__file__).resolve().parents[2]


def normalised(key: str, value):
    """Equal meanings compare equal: method sets in any order, a red-three table whose last value
    repeats (the engine holds it for every larger count)."""
    if key.startswith(("pile_methods", "upcard_")) or key in ("untakeable_top", "freeze_on_discard",
                                                             "block_on_discard"):
        return tuple(sorted(set(value)))
    if key == "red3_points":
        v = list(value)
        while len(v) > 1 and v[-1] == v[-2]:
            v.pop()
        return tuple(v)
    return value


HOUSE = [["target_score=3000"], ["draw_count=2", "going_out_canastas=2"], ["red3_points=0,100,200,300,400,900"],
         ["pile_methods_frozen=M1,M2", "untakeable_top=black3"], ["initial_meld_table=-inf:15,0:50,2000:100"],
         ["concealed_total=0", "last_red3_may_meld=false", "dealer_rotation=right"]]


# where melds close at seven (Pennies, Railroad) going out counts canastas by kind, and a count of two is
# refused (rules.validate); these presets take the kinds instead
CAPPED = {"draw_count=2,going_out_canastas=2": ["draw_count=1", "going_out_kinds=natural,mixed,wild"]}
# Buraco's own turn draws one card and takes the pile whole: those house rules are refused by name
BURACO = {"draw_count=2,going_out_canastas=2": ("one card drawn", ["going_out_canastas=2"]),
          "pile_methods_frozen=M1,M2,untakeable_top=black3": ("the pile is always taken whole", ["morto_penalty=50"])}


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("rules", HOUSE, ids=lambda r: ",".join(r))
def test_engine_view_decodes_every_rule_the_variant_states(name, rules):
    key = ",".join(rules)
    if PRESETS[name].melds.meld_cap > 0 and key in CAPPED:
        with pytest.raises(RulesError, match="meld_cap: going_out_canastas 0 or 1"):
            with_rules(PRESETS[name], rules)
        rules = CAPPED[key]
    if PRESETS[name].game.sequences and key in BURACO:
        message, instead = BURACO[key]
        with pytest.raises(RulesError, match=message):
            with_rules(PRESETS[name], rules)
        rules = instead
    v = with_rules(PRESETS[name], rules)
    view = engine_view(v)
    for f in rule_fields():
        if f.name in IDENTITY_FIELDS:
            continue
        assert normalised(f.name, view[f.name]) == normalised(f.name, v.rule(f.name)), f.name


def test_every_rule_has_a_meaning():
    assert set(RULE_DOCS) == {f.name for f in rule_fields()}


def test_rules_command_prints_every_rule_of_the_preset(capsys):
    assert main(["rules", "classic-6p"]) == 0
    out = capsys.readouterr().out
    for f in rule_fields():
        assert f"  {f.name} " in out, f.name
    assert "red3_points" in out and "0,100,200,300,400,1000,1200" in out
    assert "choose_one_partner" in out


def test_rules_command_shows_house_rules(capsys):
    assert main(["rules", "classic", "--players", "2", "--rule", "target_score=3000"]) == 0
    out = capsys.readouterr().out
    assert "* target_score" in out and "3000" in out and "house rule" in out


BAD_RULES = [
    (["--rule", "target_scor=3000"], "no such rule; accepted:"),
    (["--rule", "target_score=lots"], "give a whole number"),
    (["--rule", "upcard=maybe"], "give true or false"),
    (["--rule", "target_score=3000", "--rule", "target_score=4000"], "given twice"),
    (["--rule", "players=5"], "cannot be set"),
    (["--rule", "draw_count=7"], "draw_count=7: accepted 1, 2 or 3"),
    (["--rule", "pile_methods_frozen=M4"], "accepted M1, M2, M3"),
    (["--rule", "target_score"], "write KEY=VALUE"),
]


@pytest.mark.parametrize("extra,message", BAD_RULES)
def test_bad_house_rule_gets_one_clear_line(extra, message):
    r = subprocess.run([sys.executable, "-m", "sim.cli", "play", "classic-4p", "-s", "random", "--games", "2",
                        "--seed", "1", *extra], capture_output=True, text=True)
    assert r.returncode == 2
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_options_that_are_not_implemented_are_refused_by_name():
    with pytest.raises(RulesError, match="c3_cutthroat: an optional rule set that is not implemented"):
        get_variant("classic-3p").replace(c3_cutthroat=True)
    with pytest.raises(RulesError, match="hand_sise: no such rule; accepted: .*hand_size"):
        get_variant("classic-3p").replace(hand_sise=12)
    with pytest.raises(RulesError, match="--rule c6_hoyle_three_pack: an optional rule set that is not implemented"):
        with_rules(get_variant("classic-6p"), ["c6_hoyle_three_pack=true"])


def test_a_variant_is_hashable_and_its_codes_are_enums_that_read_as_their_strings():
    from sim.rules import AskMode, EndOfStock, PileMethod

    v = get_variant("boat-4p")
    assert len({v, get_variant("boat-4p"), get_variant("classic-4p")}) == 2
    assert v.ask.ask_partner is AskMode.PARTNER and v.ask.ask_partner == "partner"
    assert v.stock_end.end_of_stock is EndOfStock.RESHUFFLE
    assert v.pile.pile_methods_premeld == (PileMethod.M1, PileMethod.M2)
    assert v.to_dict()["pile_methods_premeld"] == ["M1", "M2"] and v.to_dict()["options"] == {}
    assert with_rules(v, ["ask_partner=none"]).ask.ask_partner is AskMode.NONE


def test_every_rule_field_carries_its_meaning():

    assert all(f.metadata.get("doc") for f in rule_fields())


def test_house_rules_are_played_and_recorded():
    base = play("classic-4p", ["baseline"], games=6, seed=5)
    short = play(with_rules(get_variant("classic-4p"), ["target_score=1500"]), ["baseline"], games=6, seed=5)
    assert short.meta["house_rules"] == ["target_score=1500"] and short.meta["rules"]["target_score"] == 1500
    assert base.meta["house_rules"] == []
    assert short.games.n_hands.sum() < base.games.n_hands.sum()


def test_house_rules_reach_the_command_line_results(tmp_path):
    from sim import read

    out = tmp_path / "r.parquet"
    assert main(["play", "classic-4p", "-s", "random", "--games", "2", "--seed", "1", "--quiet",
                 "--rule", "target_score=1000", "--out", str(out)]) == 0
    meta = read(out).meta
    assert meta["house_rules"] == ["target_score=1000"] and meta["rules"]["target_score"] == 1000


def test_house_rules_of_a_preset_list_only_changes():
    v = get_variant("classic-4p").replace(target_score=3000, concealed_total=0)
    assert house_rules(v) == ["concealed_total=0", "target_score=3000"]


def test_docs_presets_md_is_current():
    assert (ROOT / "docs" / "presets.md").read_text() == presets_markdown(), \
        "regenerate: canasta-lab rules --all --markdown > docs/presets.md"


def test_docs_do_not_send_users_to_files_they_do_not_have():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in path.read_text() and "VARIANTS.md" not in path.read_text(), path.name
