"""Each knob declares the rule features its code needs (strategies.FEATURES, a test on the variant's rules),
and a knob the user sets where it never acts is refused in one line wherever a strategy meets a variant:
such a run would play exactly as without it and report equal strategies (every deal split) as a measurement
(issue 24: `sweep buraco-2p -s baseline --vs baseline --grid min_pile=1,2,3` gave 0.500 on every row)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from sim import (
    PRESETS,
    Variant,
    compare,
    get_variant,
    play,
    profile,
    sweep,
    tournament,
    trace_decisions,
    tune,
    with_rules,
    write_transcript,
)
from sim.cli import main
from sim.run.runner import Job, make_job, run_chunk
from strategies import BUILT_IN, FEATURES, REGISTRY, Knob, StrategyError, StrategySpec, parse_strategy
from strategies.library import BASELINE

# the three examples of the issue: a Canasta knob at Buraco, a Buraco knob at Classic, asking with no partner
IDLE = [("buraco-2p", "min_pile", "2"), ("classic-4p", "bu_take", "3"), ("classic-2p", "ask", "never")]
# an acting knob of each of those variants, to sweep or tune beside the idle one
ACTING = {"buraco-2p": "bu_seq", "classic-4p": "min_pile", "classic-2p": "min_pile"}


@pytest.fixture
def no_game(monkeypatch):
    """Any game (or compile) would first ask a Job for its strategy functions: a refusal comes before."""
    monkeypatch.setattr(Job, "functions", lambda self: pytest.fail("a game would be played"))


def refused_line(exc: BaseException | str, variant: str, knob: str, where: object = "") -> None:
    """One line naming the knob, the variant and the knobs of the strategy that act there."""
    text = str(exc)
    acting = ", ".join(k.name for k in BASELINE.acting(get_variant(variant)))
    assert "\n" not in text.strip(), (where, text)
    assert f"knob {knob!r} of baseline never acts at {variant}" in text, (where, text)
    assert f"the knobs of baseline that act at {variant}: {acting}" in text, (where, text)


@pytest.mark.parametrize("variant,knob,value", IDLE)
def test_a_knob_the_variant_never_reads_is_refused(variant, knob, value, no_game, tmp_path):
    """The Python API: every entry point that parses strategies with a variant."""
    s = f"baseline:{knob}={value}"
    other = ACTING[variant]
    calls = {
        "make_job": lambda: make_job(variant, [s], 1),
        "play": lambda: play(variant, [s, "baseline"], 4, seed=1, workers=1),
        "compare": lambda: compare(variant, [s, "baseline"], 4, seed=1, workers=1),
        "tournament": lambda: tournament(variant, ["baseline", s, "random"], 4, seed=1, workers=1),
        "sweep grid": lambda: sweep(variant, "baseline", {knob: [value]}, games=4, seed=1, workers=1),
        "sweep fixed": lambda: sweep(variant, s, {other: [5]}, games=4, seed=1, workers=1),
        "sweep opponent": lambda: sweep(variant, "baseline", {other: [5]}, s, games=4, seed=1, workers=1),
        "tune knobs": lambda: tune(variant, "baseline", "baseline", f"{other},{knob}", 400, workers=1,
                                   save=tmp_path / "t.py"),
        "tune fixed": lambda: tune(variant, s, "baseline", other, 400, workers=1, save=tmp_path / "t.py"),
        "profile": lambda: profile(variant, [s], 4, seed=1, workers=1),
        "trace": lambda: trace_decisions(variant, [s], 2, seed=1),
        "transcript": lambda: write_transcript(variant, [s], 1, 0, tmp_path / "t.jsonl"),
    }
    for name, call in calls.items():
        with pytest.raises(StrategyError) as e:
            call()
        refused_line(e.value, variant, knob, name)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("variant,knob,value", IDLE)
def test_a_knob_the_variant_never_reads_is_refused_by_every_command(variant, knob, value, no_game, tmp_path,
                                                                    capsys):
    s = f"baseline:{knob}={value}"
    other = ACTING[variant]
    out = str(tmp_path / "out")
    commands = [
        ["play", variant, "-s", s, "--games", "2", "--seed", "1", "--out", out],
        ["compare", variant, "-s", s, "-s", "baseline", "--games", "2", "--seed", "1", "--out", out],
        ["tournament", variant, "baseline", "random", s, "--games", "2", "--seed", "1", "--out", out],
        ["sweep", variant, "-s", "baseline", "--vs", "baseline", "--grid", f"{knob}={value}", "--games", "2",
         "--seed", "1", "--out", out],
        ["sweep", variant, "-s", "baseline", "--vs", s, "--grid", f"{other}=4,5", "--games", "2", "--seed", "1"],
        ["tune", "baseline", "--vs", "baseline", "--knobs", knob, "--budget", "400", "--variant", variant,
         "--save", str(tmp_path / "t.py")],
        ["profile", variant, "-s", s, "--games", "2", "--seed", "1", "--out", out],
        ["transcript", variant, "-s", s, "--seed", "1", "--game", "0", "--out", str(tmp_path / "t.jsonl")],
    ]
    for argv in commands:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        refused_line(err.removeprefix("canasta-lab: error: "), variant, knob, argv)
    assert list(tmp_path.iterdir()) == []


def test_the_issue_sweep_of_min_pile_at_buraco_is_refused(no_game, capsys):
    assert main(["sweep", "buraco-2p", "-s", "baseline", "--vs", "baseline", "--grid", "min_pile=1,2,3", "--games",
                 "2000", "--seed", "1"]) == 2
    r = capsys.readouterr()
    assert r.out == ""
    refused_line(r.err.removeprefix("canasta-lab: error: "), "buraco-2p", "min_pile")
    assert "bu_take, bu_pile, bu_seq, bu_knock, bu_clean" in r.err


def test_only_the_knobs_the_user_set_are_judged(no_game):
    """A relative's own defaults are the strategy, not a setting: expert at Buraco (ask=never, freeze=20...)
    plays its acting knobs' values (baseline's there), and is accepted; the same value set by hand is not."""
    buraco = get_variant("buraco-2p")
    for s in ("expert", "aggressive", "expert:bu_take=3", "search:samples=4", "random"):
        parse_strategy(s).refuse_idle(buraco)
    with pytest.raises(StrategyError, match="knob 'ask' of expert never acts at buraco-2p"):
        parse_strategy("expert:ask=never").refuse_idle(buraco)
    tuned = BASELINE.with_defaults("scope-tuned", "a tuned relative", min_pile=7)  # as a `tune` file makes one
    tuned.choice().refuse_idle(buraco)
    with pytest.raises(StrategyError, match="knob 'min_pile' of scope-tuned"):
        tuned.choice(min_pile=5).refuse_idle(buraco)
    # a user strategy: its own knobs act wherever it plays, its base's where they act
    user = StrategySpec("scope-user", None, "a user strategy", BASELINE.knobs + (Knob("mine", 20, 0, 1, 0, "x"),),
                        base=BASELINE)
    user.choice(mine=1, bu_take=3).refuse_idle(buraco)
    with pytest.raises(StrategyError, match="knob 'freeze' of scope-user never acts at buraco-2p"):
        user.choice(freeze="always").refuse_idle(buraco)


def test_a_house_rule_that_adds_or_removes_a_feature_is_judged_by_its_rules():
    """The scope is a test on the rules, not on the preset's name (`--rule`)."""
    top = with_rules(get_variant("classic-4p"), ["top_card_draw=true"])
    parse_strategy("baseline:take_top=always").refuse_idle(top)
    no_top = with_rules(get_variant("house-001-4p"), ["top_card_draw=false"])
    with pytest.raises(StrategyError, match="never acts at house-001-4p with the house rules given: it needs the "
                                            r"top discard alone as a draw \(top_card_draw"):
        parse_strategy("baseline:take_top=always").refuse_idle(no_top)
    alone = with_rules(get_variant("classic-4p"), ["ask_partner=none"])
    for knob in ("ask", "answer_max"):
        with pytest.raises(StrategyError, match=f"knob '{knob}' of baseline never acts at classic-4p with"):
            parse_strategy(f"baseline:{knob}=0").refuse_idle(alone)
    no_wilds = with_rules(get_variant("classic-4p"), ["max_wilds=0"])
    with pytest.raises(StrategyError, match=r"needs wild cards in melds of naturals \(max_wilds above 0\)"):
        parse_strategy("baseline:wilds=free").refuse_idle(no_wilds)


# a value far from baseline's default for every knob of the heuristic: where the knob acts, a few games differ
EXTREME = {"min_pile": 108, "freeze": "always", "hold_black3": "keep", "ask": "never", "answer_max": "no",
           "meld": "pairs", "wilds": "free", "go_out": 20000, "canastas": 20, "natural": 3, "take_top": "always",
           "wild_meld": "never", "foot": 0, "sevens": "free", "bu_take": "off", "bu_pile": -100, "bu_seq": 50,
           "bu_knock": "indirect", "bu_clean": 3,
           # the discard weights, each against its default's direction or far from its 0
           "d_value": 50, "d_danger": 300, "d_own": -300, "d_pairs": 300, "d_seen": -300, "d_next_danger": 300,
           "d_next_holds": 300, "d_next_pair": 300, "d_pile_risk": 30, "d_dead": -300, "d_single": -300, "d_late": 50,
           "bd_use": 30, "bd_own": -1000, "bd_opp": 300, "bd_value": -30, "bd_next": 300, "bd_next_holds": -1000,
           "bd_pile_risk": 1000, "bd_wild": 1000, "bd_late": 1000}
# a knob reached only with another away from its default (bu_pile decides only the piles bu_take leaves to it):
# compared with that other setting alone
WITH = {"bu_pile": {"bu_take": "off"}}
GAMES = 6


@cache
def games_of(variant: str, knob: str | None, base: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """GAMES games of baseline on every seat (with one knob at its extreme, over the settings WITH[base]), the check
    bypassed: the game and hand rows."""
    c = BASELINE.choice(**WITH.get(base or "", {}), **({knob: EXTREME[knob]} if knob else {}))
    return run_chunk(Job(PRESETS[variant], (c.at(PRESETS[variant]),), 3), 0, GAMES, True)


def same_games(variant: str, knob: str) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(games_of(variant, knob, knob), games_of(variant, None, knob),
                                                    strict=True))


@pytest.mark.parametrize("knob", [k.name for k in BASELINE.knobs])
def test_every_knob_acts_where_it_is_declared_and_nowhere_else(knob):
    """At the first preset of the Canasta games and of Buraco where the knob is declared to act, its extreme
    value changes play; at every preset where it is declared not to act, play is the same game for game (a
    knob wrongly refused there would have changed something)."""
    k = BASELINE.knob(knob)
    acting = [n for n, v in PRESETS.items() if k.acts_at(v)]
    assert acting, knob
    firsts = {next(n for n in acting if PRESETS[n].game.sequences == seq) for seq in (False, True)
              if any(PRESETS[n].game.sequences == seq for n in acting)}
    for name in firsts:
        assert not same_games(name, knob), (knob, name)
    for name in PRESETS:
        if name not in acting:
            assert same_games(name, knob), (knob, name)


def test_every_knob_of_the_library_declares_known_features():
    assert set(EXTREME) == {k.name for k in BASELINE.knobs}  # a new knob joins the check above
    for name in BUILT_IN:
        for k in REGISTRY[name].knobs:
            assert all(f in FEATURES for f in k.needs), (name, k.name)
    # search's knobs act wherever search plays; go_out at every variant (Canasta's and Buraco's decisions)
    assert all(not k.needs for k in REGISTRY["search"].knobs) and not BASELINE.knob("go_out").needs
    with pytest.raises(StrategyError, match="needs unknown feature 'boats'"):
        Knob("x", 0, 0, 1, 0, "x", needs=("boats",))


def knob_lines(out: str, strategy: str) -> dict[str, str]:
    """The knob lines of one strategy in `canasta-lab strategies` output: name -> the line."""
    block = out.split(f"\n{strategy}: ", 1)[1].split("\n")[1:]
    lines: dict[str, str] = {}
    for line in block:
        if not line.startswith("    "):
            break
        words = line.split()
        if len(words) > 2 and words[1] == "default":
            lines[words[0]] = line
    return lines


def test_strategies_variant_lists_the_knobs_acting_there_with_defaults_and_ranges(capsys):
    assert main(["strategies", "--variant", "buraco-2p"]) == 0
    out = capsys.readouterr().out
    assert "the knobs that act at buraco-2p" in out
    lines = knob_lines(out, "baseline")
    from strategies.buraco import BURACO_DISCARD_FEATURES

    assert list(lines) == ["wilds", "go_out", "bu_take", "bu_pile", "bu_seq", "bu_knock", "bu_clean",
                           *(f"bd_{n}" for n in BURACO_DISCARD_FEATURES)]
    assert "default 2 " in lines["bu_take"] and "accepted: off or a whole number from 2 to 108" in out
    assert "never acting at buraco-2p (refused there): min_pile, freeze" in out
    freezer = out.split("\nfreezer: ")[1]
    assert "at buraco-2p it plays as baseline" in freezer.split("\ncautious: ")[0]
    assert "default -24 " in knob_lines(out, "expert")["bu_pile"]  # expert's own default for buraco-2p
    assert "strength against reference at buraco-2p" in out  # the record of that preset, not another's

    assert main(["strategies", "--variant", "classic-2p"]) == 0
    lines = knob_lines(capsys.readouterr().out, "baseline")
    assert "ask" not in lines and "answer_max" not in lines and "min_pile" in lines
    assert main(["strategies", "--variant", "classic-4p", "--rule", "top_card_draw=true"]) == 0
    out = capsys.readouterr().out
    assert "take_top" in knob_lines(out, "baseline") and "classic-4p with the house rules given" in out

    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    assert len(knob_lines(out, "baseline")) == len(BASELINE.knobs)
    assert "acts at: Buraco's sets and sequences (sequences on): buraco-2p, buraco-4p" in out
    assert "every preset but buraco-2p, buraco-4p" in out and "acts at: every variant" in out


@pytest.mark.parametrize("argv,needle", [
    (["strategies", "--variant", "nope"], "unknown variant 'nope'"),
    (["strategies", "--rule", "top_card_draw=true"], "--players and --rule go with --variant"),
    (["strategies", "--variant", "classic-4p", "--markdown"], "give it without --measure and --markdown"),
])
def test_strategies_variant_bad_input_is_one_line(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1, err


def test_variant_features_read_the_rules():
    """The features as tests on sim.rules.Variant fields (docs/strategies.md, 'Where each knob acts')."""
    f = {name: feat.test for name, feat in FEATURES.items()}
    v: Variant = get_variant("pennies-6p")
    assert all(t(v) for n, t in f.items() if n not in ("buraco", "top_card_draw"))
    assert f["buraco"](get_variant("buraco-4p")) and not f["partners"](get_variant("buraco-4p"))
    assert not f["partners"](get_variant("railroad-6p"))  # six seats, no partnerships
