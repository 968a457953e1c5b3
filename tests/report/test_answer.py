"""The answer record and its one decision rule (sim.report.answer), and the words made from it
(sim.report.say): each verdict from the data that should give it, a losing setting never the headline, the
record read back as written, and every sentence's facts from the record."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sim.report import say
from sim.report.answer import (
    MARGIN,
    RARE,
    Answer,
    Frequency,
    Sweep,
    Verdict,
    elo_of_share,
    judge,
    player_result,
    read_answer,
    write_answer,
)

SETTINGS = ("never", "5", "10", "20")
DEFAULT = "never"


def sweep(means: list[float], player: str = "baseline", n: int = 4000, seed: int = 0, fair: float = 0.5,
          plays: str = DEFAULT, capped: list[float] | None = None) -> Sweep:
    """A player's sweep whose settings win `means` of the games on average, on shared deals; the setting the
    opponent plays is its own play (even by construction)."""
    rng = np.random.default_rng(seed)
    luck = rng.normal(0, 0.3, n)[:, None]
    share = np.clip(np.asarray(means)[None, :] + luck + rng.normal(0, 0.25, (n, len(means))), 0, 1)
    share[:, SETTINGS.index(plays)] = fair
    return Sweep(player, player, plays, SETTINGS, share, share.copy(), fair, 2 * n,
                 np.asarray(capped if capped is not None else [0.0] * len(SETTINGS)), ("",) * len(SETTINGS))


def decide(*sweeps: Sweep, freq: tuple[Frequency, ...] = (), last: bool = True, alpha: float = 0.05):
    results = [player_result(sw, DEFAULT, alpha, MARGIN) for sw in sweeps]
    return judge([p for p, _ in results], [s for _, s in results], DEFAULT, SETTINGS, freq, sweeps[0].games,
                 alpha, last)


def often(x: float = 0.5) -> tuple[Frequency, ...]:
    return tuple(Frequency(s, 100, x, 0.1) for s in SETTINGS if s != DEFAULT)


def test_do_x_when_it_beats_the_default_with_every_player_and_nothing_beats_it():
    j = decide(sweep([0.5, 0.56, 0.5, 0.47]), sweep([0.5, 0.55, 0.49, 0.46], "expert", seed=1), freq=often())
    assert j.verdict == Verdict.DO and j.advice == ("5",) and j.headline == "5"
    assert all(p.power >= 0.8 for p in j.players[1:])


def test_a_range_of_settings_that_all_beat_the_default_is_named_whole():
    j = decide(sweep([0.5, 0.56, 0.56, 0.45]), sweep([0.5, 0.55, 0.551, 0.46], "expert", seed=1), freq=often())
    assert j.verdict == Verdict.DO and j.advice == ("5", "10")


def test_keep_the_default_when_it_is_among_the_best_and_every_rival_is_within_the_margin():
    j = decide(sweep([0.5, 0.44, 0.501, 0.40], n=20_000), sweep([0.5, 0.43, 0.5, 0.41], "expert", n=20_000, seed=1),
               freq=often())
    assert j.verdict == Verdict.KEEP and not j.advice and j.headline == ""


def test_a_wide_confidence_set_is_no_answer_yet_and_says_how_many_games_would_decide():
    j = decide(sweep([0.5, 0.51, 0.49, 0.45], n=300), sweep([0.5, 0.51, 0.5, 0.45], "expert", n=300, seed=1),
               freq=often())
    assert j.verdict == Verdict.UNDECIDED and j.undecided_games > 600 and j.why


def test_the_choice_matters_less_than_a_point_when_every_setting_is_within_it():
    j = decide(sweep([0.5, 0.501, 0.499, 0.5], n=40_000), sweep([0.5, 0.5, 0.501, 0.5], "expert", n=40_000, seed=1),
               freq=often())
    assert j.verdict == Verdict.SMALL


def test_it_depends_on_the_player_when_their_best_settings_do_not_meet():
    # expert already plays 20 (its own play, even by construction); the default loses badly with it
    j = decide(sweep([0.5, 0.58, 0.5, 0.40]), sweep([0.35, 0.30, 0.34, 0.5], "expert", seed=1, plays="20"),
               freq=often())
    assert j.verdict == Verdict.DEPENDS and "baseline" in j.why and "expert" in j.why


def test_a_choice_that_never_changes_a_decision_does_not_arise():
    j = decide(sweep([0.5, 0.5, 0.5, 0.5], n=200), sweep([0.5, 0.5, 0.5, 0.5], "expert", n=200, seed=1),
               freq=often(RARE / 2))
    assert j.verdict == Verdict.NOT_ARISE


def test_a_do_whose_check_is_too_small_to_see_a_reversal_is_sent_on_and_undecided_at_the_last_look():
    strong = sweep([0.5, 0.53, 0.5, 0.47], n=20_000)
    weak = sweep([0.5, 0.56, 0.5, 0.47], "expert", n=250, seed=3)
    first = decide(strong, weak, freq=often(), last=False)
    assert first.verdict == Verdict.UNDECIDED  # the next look may give the check its power
    last = decide(strong, weak, freq=often(), last=True)
    assert last.verdict == Verdict.UNDECIDED and last.undecided_games > weak.games and "reversal" in last.why


def test_a_row_cut_short_by_the_turn_cap_is_never_advice():
    capped = [0.0, 0.3, 0.0, 0.0]
    j = decide(sweep([0.5, 0.6, 0.52, 0.45], capped=capped), sweep([0.5, 0.6, 0.52, 0.45], "expert", seed=1,
                                                                       capped=capped), freq=often())
    assert "5" not in j.advice and j.headline != "5"


@pytest.mark.parametrize("seed", range(12))
def test_a_losing_setting_is_never_the_headline(seed):
    rng = np.random.default_rng(seed)
    means = [0.5, *rng.uniform(0.40, 0.56, 3)]
    j = decide(sweep(means, seed=seed, n=int(rng.integers(200, 6000))),
               sweep([0.5, *rng.uniform(0.40, 0.56, 3)], "expert", seed=seed + 100), freq=often())
    if j.headline:
        assert all(p.row(j.headline).effect > 0 for p in j.players[:1])
        assert not any(p.row(j.headline).loses for p in j.players)


def test_elo_of_a_share_is_zero_at_the_fair_share_and_the_usual_elo_between_two():
    assert elo_of_share(1 / 3, 1 / 3) == pytest.approx(0, abs=1e-9)
    assert elo_of_share(0.64, 0.5) == pytest.approx(400 * np.log10(0.64 / 0.36))
    assert elo_of_share(0.5, 1 / 3) > 0


def record(verdict_sweeps: tuple[Sweep, ...] = (), sides: int = 2, partners: bool = True) -> Answer:
    sweeps = verdict_sweeps or (sweep([0.5, 0.56, 0.5, 0.47]), sweep([0.5, 0.55, 0.49, 0.46], "expert", seed=1))
    j = decide(*sweeps, freq=often())
    return Answer(study="freezing_the_pile", question="Should I freeze the pile?", knob="freeze", preset="classic-4p",
                  default=DEFAULT, settings=SETTINGS, decision="freezing", points=("discard",), players=j.players,
                  sides=sides, partners=partners, seating="rest", seating_text="side against side", verdict=j.verdict,
                  advice=j.advice, headline=j.headline, margin=MARGIN, alpha=0.05, games=sweeps[0].games,
                  looks=(sweeps[0].games,), decisions=1000, side_hands=800, frequency_games=500, frequency=often(),
                  strongest=None, undecided_games=j.undecided_games, why=j.why, seed=1)


def test_the_record_is_read_back_as_it_was_written(tmp_path):
    a = record()
    path = write_answer(a, tmp_path)
    assert path.name == "freezing_the_pile-freeze-classic-4p.json"
    assert read_answer(path) == a


def test_the_sentence_states_the_records_setting_default_and_effect():
    a = record()
    text = say.verdict_sentence(a)
    head = a.players[0].row(a.headline)
    assert "`freeze=5`" in text and "`freeze=never`" in text and say.pts(head.effect) in text
    assert "win rate" not in text


def test_three_players_each_for_himself_read_a_share_beside_its_fair_share_never_a_win_rate():
    three = (sweep([1 / 3, 0.40, 1 / 3, 0.30], fair=1 / 3), sweep([1 / 3, 0.40, 0.33, 0.30], "expert", seed=1,
                                                                   fair=1 / 3))
    a = record(three, sides=3, partners=False)
    assert "fair share 0.333" in say.quantity(a)
    assert "fair share 0.333" in say.won_text(a, a.players[0].row("5"))
    assert "win rate" not in say.answer_text(a)


def test_a_setting_the_opponent_already_plays_is_said_to_be_its_own_play():
    a = record((sweep([0.5, 0.58, 0.5, 0.40]), sweep([0.35, 0.30, 0.34, 0.5], "expert", seed=1, plays="20")))
    text = say.answer_text(a)
    assert "`expert` plays `freeze=20`" in text and "its own play" in text


@pytest.mark.parametrize("more", [0, 4000])
def test_an_undecided_answer_names_more_games_only_where_the_differences_say_how_many(more):
    a = replace(record(), verdict=Verdict.UNDECIDED, headline="", advice=(), undecided_games=2000 + more,
                games=2000, why="no setting beats the default with every player")
    for text in (say.verdict_sentence(a), say.how_sure(a)):
        if more:
            assert f"about {a.undecided_games:,} games a setting would decide it" in text
        else:
            assert "would decide it" not in text and f"more than the {a.games:,} games" in text
