"""Issue 10: the tuner. A small search respects its budget, confirms on deals no trial played, is
deterministic, and saves a strategy file that --load, the Python API and worker processes accept;
bad input is refused in one line before any game, with nothing written."""

from __future__ import annotations

import shlex
import subprocess
import sys

import pandas as pd
import pytest

import sim.analysis.tune as T
from sim import Experiment, compare, get_variant, play
from sim.cli import build_parser, main
from strategies import REGISTRY, load_file, parse_strategy

KNOBS = "min_pile=0..12,freeze=0..20"
BUDGET = 400  # classic-2p: five trials of 80 games (40 duplicate deals)
WEAK = "baseline:min_pile=9"  # an opponent that plays otherwise than the strategy tuned
AWAY = "min_pile=0..2,freeze=0..20"  # a space without baseline's own setting: the winner plays otherwise
CONFIRM = 600  # enough games for the confirmation to run in worker processes (runner.POOL_MIN_GAMES)


class Spy(Experiment):
    """Records the master seed and the games of every match the tuner plays."""

    played: list[tuple[int, int]] = []

    def __init__(self, jobs, budget, *args, **kwargs):
        Spy.played.append((jobs[0].seed, budget))
        super().__init__(jobs, budget, *args, **kwargs)


@pytest.fixture
def names():
    """Strategy names a test registers, removed afterwards so other tests see the library alone."""
    made: list[str] = []
    yield made
    for n in made:
        REGISTRY.pop(n, None)


def small(tmp_path, name, opponent="baseline", knobs=KNOBS, **kw):
    args = {"budget": BUDGET, "seed": 3, "confirm": CONFIRM, "workers": 1, "name": name,
            "save": tmp_path / f"{name}.py", **kw}
    return T.tune("classic-2p", "baseline", opponent, knobs, **args)


def test_a_small_search_respects_its_budget_and_confirms_on_deals_no_trial_played(tmp_path, monkeypatch, names):
    Spy.played = []
    monkeypatch.setattr(T, "Experiment", Spy)
    r = small(tmp_path, "test-tuned-a")
    df = r.trials
    assert len(df) == T.MIN_TRIALS and r.trial_games == 80
    assert set(df["games"]) <= {0, r.trial_games} and df["games"].sum() == r.games_played <= BUDGET
    assert bool(df["default"].iat[0]) and df["setting"].iat[0] == "min_pile=3,freeze=never"
    assert df["best_so_far"].is_monotonic_increasing and r.search["win_rate"] == df["win_rate"].max()
    trial_seeds = {s for s, _ in Spy.played[:len(Spy.played) - 1]}
    confirm_seeds = {s for s, _ in Spy.played[len(Spy.played) - 1:]}
    assert trial_seeds == {3} and confirm_seeds == {r.confirm_seed} and not trial_seeds & confirm_seeds
    assert sum(g for s, g in Spy.played if s == 3) == r.games_played  # repeats are not replayed
    assert [g for s, g in Spy.played if s == r.confirm_seed] == [CONFIRM]  # baseline is the opponent: one match
    assert r.opponent_is_default and r.confirm_opponent is r.confirm_default
    # the printed account shows both estimates of the winner and says why they differ
    text = r.table()
    assert "in the search" in text and "confirmation on fresh deals" in text and "winner's curse" in text
    assert f"{r.search['win_rate']:.3f}" in text and f"{r.confirm_opponent['win_rate']:.3f}" in text


def test_the_saved_file_loads_plays_and_reproduces_the_confirmation_in_worker_processes(tmp_path, names):
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3)  # the usage line is never wrapped inside the path
    deep.mkdir()
    r = small(deep, "test-tuned-b", opponent=WEAK, knobs=AWAY)
    assert r.default_search is None and not r.trials["default"].any()  # the default is outside the space
    assert not r.opponent_is_default and r.confirm_opponent["win_rate"] != r.confirm_default["win_rate"]
    names.append("test-tuned-b")
    text = r.saved.read_text()
    assert r.command in text and "winner's curse" in text and "with_defaults(NAME, DESCRIPTION, **KNOBS)" in text
    assert f"--load {r.saved}" in text  # how to use it, with the path it was saved to
    pinned = text.split("KNOBS = {\n")[1].split("}")[0].splitlines()  # every knob pinned, the searched ones marked
    assert len(pinned) == len(REGISTRY["baseline"].knobs) and sum(x.endswith("# tuned") for x in pinned) == 2
    load_file(r.saved)
    load_file(r.saved)  # a second load of the same file is harmless
    spec = REGISTRY["test-tuned-b"]
    assert spec.description == r.spec.description and r.command in spec.description
    winner = parse_strategy(r.best_label)
    assert (parse_strategy("test-tuned-b").params == winner.params).all()
    # the name reaches worker processes: the same games in two processes as in this one
    a = play("classic-2p", ["test-tuned-b", "baseline"], 300, seed=5, workers=1).games
    b = play("classic-2p", ["test-tuned-b", "baseline"], 300, seed=5, workers=2).games
    assert a.drop(columns=["strategy_0", "strategy_1"]).equals(b.drop(columns=["strategy_0", "strategy_1"]))
    c = compare("classic-2p", ["test-tuned-b", "baseline"], CONFIRM, r.confirm_seed, workers=2)
    assert c.pairs["win_rate"].iat[0] == r.confirm_default["win_rate"]
    # the command line: --load in a fresh process, worker processes forked from it, the printed replay
    replay = shlex.split(next(line for line in r.table().splitlines() if "replay the confirmation" in line)
                         .split(": ", 1)[1])
    assert replay[:2] == ["canasta-lab", "compare"] and "--load" in replay
    out = subprocess.run([sys.executable, "-m", "sim.cli", *replay[1:], "--workers", "2", "--quiet"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert f"{r.confirm_default['win_rate']:.3f} [" in out.stdout
    listed = subprocess.run([sys.executable, "-m", "sim.cli", "strategies", "--load", str(r.saved)],
                            capture_output=True, text=True)
    assert listed.returncode == 0 and "test-tuned-b: baseline with min_pile, freeze tuned" in listed.stdout


def test_a_fixed_seed_gives_the_same_search_whatever_the_workers(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = small(tmp_path / "a", "test-tuned-c")
    b = small(tmp_path / "b", "test-tuned-c", workers=2)
    assert a.trials.equals(b.trials) and a.best == b.best
    assert pd.Series(a.confirm_default).equals(pd.Series(b.confirm_default))  # nan where no spread, in both
    assert a.saved.read_text() == b.saved.read_text().replace(str(b.saved), str(a.saved))
    other = T.tune("classic-2p", "baseline", "baseline", KNOBS, BUDGET, seed=4, confirm=CONFIRM, workers=1)
    assert not other.trials["setting"].equals(a.trials["setting"])


def test_named_values_are_choices_beside_the_range_and_whole_knobs_stay_whole():
    spec = REGISTRY["baseline"]
    freeze, meld, pile = T.parse_knobs(spec, [], "freeze,meld,min_pile=2..9")
    assert freeze.choices() == ["never", "always", T.NUMBER] and (freeze.low, freeze.high) == (0, 108)
    assert meld.choices() == ["all", "three", "pairs"] and not meld.numeric  # every value has a name
    assert pile.choices() == [T.NUMBER] and (pile.low, pile.high) == (2, 9)
    assert freeze.params_of(spec.knob("freeze").default) == {"freeze": "never"}
    assert pile.params_of(3.0) == {"min_pile": 3} and pile.params_of(12.0) is None


BAD = [
    (["nope", "--vs", "baseline", "--knobs", "min_pile"], "unknown strategy 'nope'; accepted:"),
    (["baseline", "--vs", "nope", "--knobs", "min_pile"], "unknown strategy 'nope'; accepted:"),
    (["baseline", "--vs", "baseline", "--knobs", "pile"], "has no knob 'pile'; accepted: min_pile"),
    (["baseline", "--vs", "baseline", "--knobs", ""], "--knobs: give one or more knobs"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile,"], "--knobs: give one or more knobs"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile,min_pile"], "given twice"),
    (["baseline:min_pile=5", "--vs", "baseline", "--knobs", "min_pile"], "fixed on the strategy"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile=9..2"], "give LOW <= HIGH"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile=4"], "write min_pile=LOW..HIGH"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile=1.5..4"], "not a whole number"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile", "--budget", "50"], "too small for 5 trials"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile", "--trials", "2"], "too few for a search"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile", "--confirm", "4"], "--confirm 4 is too few"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile", "--name", "baseline"], "already exists"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile", "--name", "a:b"], "--name 'a:b'"),
    (["baseline", "--vs", "baseline", "--knobs", "min_pile", "--variant", "bridge"], "bridge"),
]


@pytest.mark.parametrize(("args", "needle"), BAD)
def test_bad_input_is_one_line_before_any_game_and_writes_nothing(tmp_path, monkeypatch, capsys, args, needle):
    def no_games(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(T, "Experiment", no_games)
    monkeypatch.chdir(tmp_path)
    argv = ["tune", *args, "--variant", "classic-2p"] if "--variant" not in args else ["tune", *args]
    if "--budget" not in args:
        argv += ["--budget", "400"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and needle in err, err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_strategy_file_is_kept_without_force(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(T, "Experiment", lambda *a, **k: pytest.fail("a game was played"))
    f = tmp_path / "tuned.py"
    f.write_text("# mine\n")
    for save, needle in ((f, "--save '" + str(f) + "' already exists; choose another path or pass --force"),
                         (tmp_path / "t.txt", "must end in .py"), (tmp_path / "missing" / "t.py", "does not exist")):
        assert main(["tune", "baseline", "--vs", "baseline", "--knobs", "min_pile", "--budget", "400", "--variant",
                     "classic-2p", "--save", str(save)]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and needle in err, err
    assert f.read_text() == "# mine\n" and sorted(p.name for p in tmp_path.iterdir()) == ["tuned.py"]


def test_the_command_line_prints_a_line_per_trial_and_saves(tmp_path, monkeypatch, capsys, names):
    monkeypatch.chdir(tmp_path)
    names.append("test-tuned-d")
    assert main(["tune", "baseline", "--vs", "baseline:min_pile=4", "--knobs", "min_pile=0..12,meld", "--budget", "400",
                 "--variant", "classic-2p", "--seed", "2", "--confirm", "100", "--workers", "1",
                 "--name", "test-tuned-d"]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("trial ") for line in out.splitlines()) == T.MIN_TRIALS
    assert "tuned against baseline (the strategy as given)" in out and "tuned against baseline:min_pile=4:" in out
    saved = tmp_path / "test-tuned-d.py"
    assert saved.exists() and "--vs baseline:min_pile=4" in saved.read_text()


def test_the_help_states_the_defaults_the_tuner_uses():
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices["tune"]
    helps = {a.dest: a.help for a in sub._actions}
    assert f"one per {T.DEFAULT_TRIAL_GAMES} games" in helps["trials"]
    assert f"at least {T.MIN_TRIALS}, at most {T.TRIALS_PER_KNOB} per knob" in helps["trials"]
    assert f"at least {T.MIN_DEFAULT_CONFIRM}" in helps["confirm"] and "a quarter" in helps["confirm"]
    assert f"seed + {T.CONFIRM_SEED_OFFSET}" in helps["seed"] and T.CONFIRM_SHARE == 4


def test_a_setting_whose_own_games_run_to_the_turn_cap_is_not_taken(tmp_path, names, monkeypatch):
    """At house-001-2p, `take_top=always` (with the other knobs the tuner first found there) beats reference, but two
    such players take the top discard from each other for ever: every hand of their games ends at the turn cap.
    The tuner takes the best trial that ends its own games, and says which it passed over."""
    names.append("test-tuned-cap")
    study = T._study

    def always_second(plan):
        """`always` as trial 1, after the default: whether the sampler's own draws come to it depends on the Optuna
        version (5.0's for seed 1 did not in five trials), and the choice among the trials is what is tested."""
        made = study(plan)
        made[0].enqueue_trial({"take_top": "always"})
        return made

    monkeypatch.setattr(T, "_study", always_second)
    looping = "baseline:min_pile=3,freeze=20,hold_black3=4,meld=three,go_out=610,canastas=4,natural=8"  # issue 26
    r = T.tune("house-001-2p", looping, "reference", "take_top", budget=600, seed=1, confirm=200, workers=1,
               name="test-tuned-cap", trials=5)
    always = [int(t) for t in r.trials.loc[r.trials["take_top"] == "always", "trial"] if
              r.trials.loc[int(t), "repeat_of"] < 0]
    assert always and r.trials.loc[always[0], "win_rate"] == r.trials["win_rate"].max()  # the best in the search
    assert "take_top=always" not in r.best_label and [t for t, _ in r.skipped] == always[:1]
    assert r.skipped[0][1] > 0.9 and "did better but was not taken" in r.table()
    assert T.mirror_capped(get_variant("house-001-2p"), parse_strategy(r.best_label).at(get_variant("house-001-2p")),
                           r.confirm_seed) <= T.MAX_MIRROR_CAPPED
