"""Issue 26, part 5: the discard scorer as weights (knobs d_*) over features of the card, and weights learned from
a player's own ranked discards (`canasta-lab learn`, sim.analysis.learn).

The features are checked against the observation read independently here; the default weights play the
hand-set rule baseline always played (its games unchanged: the golden games and the reference tests hold); a
weight changes the games; and the learner recovers a player's choices from its own discards."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from sim import trace_decisions
from sim.analysis.learn import learn_discards
from sim.analysis.trace import DecisionTrace
from sim.engine import layout as L
from sim.rules import get_variant, pack
from strategies import heuristic as H
from strategies import parse_strategy

FEATURE_PRESETS = ("classic-4p", "classic-3p", "railroad-3p", "pennies-6p", "boat-4p")


@cache
def discards(variant: str) -> DecisionTrace:
    return trace_decisions(variant, ["expert", "baseline"], 6, seed=4, traced=(0, 1), points=(L.DP_DISCARD,))


def full_obs(R: np.ndarray, row: np.ndarray) -> np.ndarray:
    o = np.zeros(L.obs_len(int(R[L.R_MAXM])), np.int64)
    o[:len(row)] = row
    return o


def expected_features(R: np.ndarray, o: np.ndarray, k: int) -> dict[str, int]:
    """The features as the knobs' meanings state them, read from the observation here."""
    r = k // L.SUITS
    s = o[L.OB_SIDE]
    nxt = (o[L.OB_SEAT] + 1) % o[L.OB_PLAYERS]
    ns = R[L.R_SEAT_SIDE + nxt]
    unfrozen = o[L.OB_FROZEN] == 0
    danger = sum(o[L.OB_MOR + t * L.NR + r] >= 0 for t in range(o[L.OB_NSIDES]) if t != s) if unfrozen else 0
    next_danger = int(unfrozen and ns != s and o[L.OB_MOR + ns * L.NR + r] >= 0)
    holds = o[L.ob_known(o) + nxt * L.NR + r]
    cnt = o[L.OB_HR + r]
    opp_seats = [q for q in range(o[L.OB_PLAYERS]) if R[L.R_SEAT_SIDE + q] != s]
    threat = any(o[L.OB_CANASTAS + R[L.R_SEAT_SIDE + q]] >= R[L.R_GO_CANASTAS] and o[L.OB_HANDS + q] <= H.THREAT_CARDS
                 for q in opp_seats)
    late = o[L.OB_STOCK_N] <= H.LATE_STOCK or threat
    value = R[L.R_CARDVAL + r]
    return {"value": value, "danger": danger, "own": int(o[L.OB_MOR + s * L.NR + r] >= 0),
            "pairs": cnt - 1 if cnt >= 2 else 0, "seen": int(o[L.OB_PILEK + k] > 0),
            "next_danger": next_danger, "next_holds": int(holds >= 1), "next_pair": int(holds >= 2),
            "pile_risk": o[L.OB_PILE_N] if next_danger or holds >= 2 else 0,
            "dead": int(sum(o[L.OB_PILEK + r * L.SUITS + u] for u in range(L.SUITS))),
            "single": int(cnt == 1), "late": value if late else 0}


@pytest.mark.parametrize("variant", FEATURE_PRESETS)
def test_discard_features_are_what_the_knobs_say(variant):
    v = get_variant(variant)
    R = pack(v)
    t = discards(variant)
    f = np.zeros(H.N_DFEAT, np.int64)
    prm = parse_strategy("baseline").at(v).params
    checked = 0
    seen = {name: 0 for name in H.DISCARD_FEATURES}
    for i in range(len(t)):
        o = full_obs(R, t.obs[i])
        for k in {int(x) for x in t.options_of(i)[:, 1]}:
            if not H.ordinary_discard_nb(R, k, prm):
                continue
            H.discard_features_nb(R, o, k, f)
            got = dict(zip(H.DISCARD_FEATURES, f.tolist(), strict=True))
            assert got == expected_features(R, o, k), (variant, i, k)
            checked += 1
            for name, x in got.items():
                seen[name] += x != 0
    assert checked > 200
    # every feature but the rarest was non-zero somewhere, or the check above proved little
    assert sum(n > 0 for n in seen.values()) >= len(seen) - 2, seen


def test_ordinary_discards_leave_out_wilds_black_threes_and_kept_sevens():
    v = get_variant("railroad-4p")
    R = pack(v)
    build = parse_strategy("baseline:sevens=build").at(v).params
    free = parse_strategy("baseline:sevens=free").at(v).params
    assert not H.ordinary_discard_nb(R, L.JOKER, build) and not H.ordinary_discard_nb(R, 1 * L.SUITS, build)
    assert not H.ordinary_discard_nb(R, L.BLACK3_S, build) and H.ordinary_discard_nb(R, L.RED3_H, build)
    assert not H.ordinary_discard_nb(R, L.RK_7 * L.SUITS, build) and H.ordinary_discard_nb(R, L.RK_7 * L.SUITS, free)


def test_default_weights_are_baselines_hand_set_rule():
    """-value, -100 for each opponent side that could lay it off, +5 an own meld of the rank, -15 for each other
    card of the rank, +8 a card seen going in: the rule baseline played before the weights were knobs."""
    w = dict(zip(H.DISCARD_FEATURES, parse_strategy("baseline").params[H.K_D0:H.K_D0 + H.N_DFEAT], strict=True))
    assert w == {"value": -1, "danger": -100, "own": 5, "pairs": -15, "seen": 8, "next_danger": 0, "next_holds": 0,
                 "next_pair": 0, "pile_risk": 0, "dead": 0, "single": 0, "late": 0}
    assert [k.name for k in parse_strategy("baseline").spec.knobs if k.name.startswith("d_")] == [
        f"d_{n}" for n in H.DISCARD_FEATURES]


def test_a_discard_weight_changes_the_discards():
    base = trace_decisions("classic-4p", ["baseline", "baseline"], 4, seed=2, traced=(0,), points=(L.DP_DISCARD,))
    keep_singles = trace_decisions("classic-4p", ["baseline:d_single=-200", "baseline"], 4, seed=2, traced=(0,),
                                   points=(L.DP_DISCARD,))
    assert not base.decisions["a"].reset_index(drop=True).equals(keep_singles.decisions["a"].reset_index(drop=True))


def test_weights_learned_from_a_player_pick_its_discards():
    """A player whose discards follow weights of its own: the learner, from its ranked discards, picks its card at
    nearly every held-out discard, and the player's own weights at every one (ties go to the first option, as in
    the kernel)."""
    player = "baseline:d_value=-3,d_danger=-40,d_pairs=-25,d_single=20,d_pile_risk=-2"
    r = learn_discards("classic-2p", player, ["baseline"], games=20, seed=3)
    assert r.fast == player and r.agree_fast == 1.0
    assert r.decisions > 300 and r.held_out > 50
    assert r.agree >= 0.9, r
    assert set(r.weights) == {f"d_{n}" for n in H.DISCARD_FEATURES}
    again = learn_discards("classic-2p", player, ["baseline"], games=20, seed=3, check_games=20)
    assert again.weights == r.weights  # the same command gives the same weights
    # the check: the player with the learned weights against itself, on fresh deals
    assert again.check is not None and again.check["games"] == 20 and again.command.endswith(" --check 20")
    assert again.check["win_low"] <= again.check["win_rate"] <= again.check["win_high"]
    assert r.command == (f"canasta-lab learn classic-2p -s {player} --against baseline --games 20 --seed 3")
    played = parse_strategy(f"baseline:{r.setting}").knob_values()
    assert all(played[k] == pytest.approx(x) for k, x in r.weights.items())


@pytest.mark.parametrize("variant", ["buraco-2p", "buraco-4p"])
def test_buraco_discard_features_are_what_the_knobs_say(variant):
    from strategies import buraco as B

    v = get_variant(variant)
    R = pack(v)
    t = discards(variant)
    f = np.zeros(B.N_BFEAT, np.int64)
    checked = 0
    for i in range(len(t)):
        o = full_obs(R, t.obs[i])
        s = o[L.OB_SIDE]
        nxt = (o[L.OB_SEAT] + 1) % o[L.OB_PLAYERS]
        ns = R[L.R_SEAT_SIDE + nxt]
        for k in {int(x) for x in t.options_of(i)[:, 1]}:
            B.buraco_discard_features_nb(R, o, k, f)
            got = dict(zip(B.BURACO_DISCARD_FEATURES, f.tolist(), strict=True))
            r = k // L.SUITS
            fits_next = ns != s and B.fits_side_nb(o, ns, k)
            assert got["use"] == B.hand_use_nb(o, k) and got["own"] == int(B.fits_side_nb(o, s, k))
            assert got["opp"] == sum(B.fits_side_nb(o, q, k) for q in range(o[L.OB_NSIDES]) if q != s)
            assert got["value"] == R[L.R_CARDVAL + r] and got["wild"] == int(r in (L.RK_2, L.RK_JK))
            assert got["next"] == int(fits_next) and got["pile_risk"] == (o[L.OB_PILE_N] if fits_next else 0)
            assert got["next_holds"] == int(o[L.ob_known(o) + nxt * L.NR + r] >= 1)
            assert got["late"] == (R[L.R_CARDVAL + r] if o[L.OB_STOCK_N] <= B.LATE_DISCARD else 0)
            checked += 1
    assert checked > 200


def test_buraco_default_weights_are_the_bu_d5_rule():
    """Least use to the hand first (10 a point of use), a card that could be melded held back (40), one that extends
    an opponent's meld more (60 a side), the higher value thrown first among equals (a tenth of its points)."""
    from strategies import buraco as B

    p = parse_strategy("baseline").params
    w = dict(zip(B.BURACO_DISCARD_FEATURES, p[B.K_BD0:B.K_BD0 + B.N_BFEAT], strict=True))
    assert w == {"use": -10, "own": -40, "opp": -60, "value": 0.1, "next": 0, "next_holds": 0, "pile_risk": 0,
                 "wild": 0, "late": 0}


def test_buraco_weights_are_learned_from_a_buraco_player():
    player = "baseline:bd_use=-4,bd_opp=-90,bd_value=1,bd_next_holds=-20"
    r = learn_discards("buraco-2p", player, ["baseline"], games=30, seed=2)
    assert set(r.weights) == {f"bd_{n}" for n in __import__("strategies.buraco").buraco.BURACO_DISCARD_FEATURES}
    assert r.agree_fast == 1.0 and r.held_out > 30 and r.agree >= 0.85, r


def test_cli_learn_writes_data_and_provenance_and_refuses_an_existing_folder(cli, tmp_path):
    out = tmp_path / "learned"
    r = cli("learn", "classic-2p", "-s", "expert", "--against", "baseline", "--games", "6", "--seed", "1",
            "--check", "4", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "play them: expert:d_value=" in r.stdout and (out / "decisions.parquet").exists()
    assert "expert with them against expert without, 4 games on fresh deals (seed 1000001)" in r.stdout
    import json

    prov = json.loads((out / "weights.json").read_text())
    assert prov["command"] == "canasta-lab learn classic-2p -s expert --against baseline --games 6 --seed 1 --check 4"
    assert prov["check"]["games"] == 4
    again = cli("learn", "classic-2p", "-s", "expert", "--games", "6", "--seed", "1", "--out", str(out))
    assert again.returncode != 0 and again.stderr.count("\n") == 1 and "already exists" in again.stderr


def test_expert_plays_the_learned_weights_at_their_presets_and_its_own_elsewhere():
    from strategies.library import EXPERT_LEARNED

    assert EXPERT_LEARNED  # else the learned route is untested here
    for preset, (command, check, weights) in EXPERT_LEARNED.items():
        assert command.startswith(f"canasta-lab learn {preset} ") and check.startswith(f"{preset}, ")
        played = parse_strategy("expert").at(get_variant(preset)).knob_values()
        assert {k: played[k] for k in weights} == pytest.approx(weights)
    elsewhere = next(p for p in ("classic-2p", "boat-4p", "railroad-4p") if p not in EXPERT_LEARNED)
    assert parse_strategy("expert").at(get_variant(elsewhere)).knob_values()["d_danger"] == -100
