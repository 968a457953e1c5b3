"""Transcripts of the Canasta variants (Classic, House, Boat, Pennies from Heaven, Railroad) replayed by the
independent replayer (tests/replay/canasta.py, written from VARIANTS.md alone): each test asserts that one
named check is clean over whole games or that a tampered transcript is flagged by it, and the worked examples
of the rules text score as written."""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from typing import Any

import pytest

from sim import get_variant, play, with_rules
from sim.records.transcript import events
from sim.run.runner import make_job
from tests.replay.canasta import (
    BOATS,
    FEET_VARIANTS,
    HOUSE,
    RAILROADS,
    SPECS,
    VARIANTS,
    Meld,
    Replay,
    assert_clean,
    assert_tamper_flagged,
    canasta_bonus,
    cases,
    foot_cost,
    full_pack,
    is_red3,
    is_wild,
    replay,
    requirement,
    side_score,
    transcript,
)

variants = pytest.mark.parametrize("variant", VARIANTS)
boats = pytest.mark.parametrize("variant", BOATS)


@variants
def test_transcript_replay_covers_whole_games(variant):
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        kinds = Counter(e["event"] for e in r.evs)
        assert r.evs[-1]["event"] == "game_end" and kinds["game_end"] == 1
        assert kinds["deal"] == kinds["hand_end"] == len(r.hand_ends) >= 1
        assert kinds["draw"] and kinds["discard"] and kinds["meld"]


@variants
def test_transcript_replay_deal_matches_hand_size_upcards_and_stock(variant):
    assert_clean(variant, "deal")


@variants
def test_transcript_replay_follows_turn_order_from_dealers_left(variant):
    """Play to the left from the dealer's left; the deal passes left, in House-001 to the right (R-63)."""
    assert_clean(variant, "turn_order")


@variants
def test_transcript_replay_sides_follow_the_partnerships(variant):
    """§2 row 3: House-001 4p plays in partnerships opposite (R-52), House-003 too (R-70)."""
    assert_clean(variant, "sides")


@variants
def test_transcript_replay_draws_come_off_the_stock_top_in_order(variant):
    assert_clean(variant, "draw_order")


@variants
def test_transcript_replay_red_three_replacements_come_off_the_stock(variant):
    assert_clean(variant, "replacement")


@variants
def test_transcript_replay_red_threes_are_exposed_in_documented_order(variant):
    assert_clean(variant, "red3_order")


@variants
def test_transcript_replay_no_red_three_stays_in_a_hand(variant):
    assert_clean(variant, "red3_in_hand")


@variants
def test_transcript_replay_take_pile_cards_equal_the_current_pile(variant):
    assert_clean(variant, "pile")


@variants
def test_transcript_replay_take_pile_melds_top_card_then_picks_up_the_rest(variant):
    assert_clean(variant, "take")


@variants
def test_transcript_replay_meld_and_discard_cards_come_from_the_players_hand(variant):
    assert_clean(variant, "hand")


@variants
def test_transcript_replay_melds_have_two_naturals_at_most_three_wilds_black3_only_going_out(variant):
    """§1.4: Classic and House at most three wilds (House-001 also fewer than the naturals); Boat fewer wilds
    than naturals with no cap (R-36) and black threes only as the four of the close (R-37)."""
    assert_clean(variant, "meld")


@variants
def test_transcript_replay_initial_meld_reaches_the_minimum(variant):
    assert_clean(variant, "initial_meld")


@variants
def test_transcript_replay_ask_goes_to_a_partner(variant):
    assert_clean(variant, "ask")


@variants
def test_transcript_replay_go_out_empties_the_hand_and_concealed_follows_r13(variant):
    assert_clean(variant, "go_out")


@variants
def test_transcript_replay_going_out_side_has_required_canastas(variant):
    assert_clean(variant, "go_out_canastas")


# Regression, found by this replayer: with one card left in hand the meld phase offered "stop" whenever the
# side *could* still go out by melding that card, and the player could then discard it instead, emptying
# the hand without the canastas (VARIANTS.md §3.1 turn step 5, §3.2 item 3). These are the games that
# showed it (the event numbers were those of the engine before the fix).
GOING_OUT_WITHOUT_CANASTAS = {
    "classic-2p": (("baseline", "random"), 3, 35),  # event 140: player 0 out with 1 canasta (2 needed)
    "classic-3p": (("random",), 11, 0),  # event 1389: player 1 melds 2C, discards 6C, out with no canasta
    "classic-4p": (("random",), 3, 21),  # event 95: player 3 melds JK, discards 2D, out with no canasta
    "classic-6p": (("baseline", "random"), 3, 0),  # event 320: player 3 melds 2S, discards 2C, out, no canasta
}


@pytest.mark.parametrize("variant", list(GOING_OUT_WITHOUT_CANASTAS))
def test_transcript_replay_going_out_side_has_required_canastas_regression(variant):
    strategies, seed, game = GOING_OUT_WITHOUT_CANASTAS[variant]
    r = replay(variant, strategies, seed, game)
    assert not r.issues.get("go_out_canastas"), r.issues["go_out_canastas"]


# §2 row 2: 3 decks and 6 jokers in classic-6p, 4 decks and 8 jokers in Pennies, 108 cards a player in Railroad
PACK_SIZE = {"classic-6p": 162, "pennies-6p": 216, "railroad-2p": 216, "railroad-3p": 324, "railroad-4p": 432,
             "railroad-6p": 648}


@variants
def test_transcript_replay_conserves_cards(variant):
    assert_clean(variant, "conservation")
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        assert sum(r.pack.values()) == PACK_SIZE.get(variant, 108)


@variants
def test_transcript_replay_hand_end_reason_matches_the_table(variant):
    assert_clean(variant, "hand_end")


@variants
def test_transcript_replay_hand_scores_recomputed_from_the_table(variant):
    assert_clean(variant, "score")


@variants
def test_transcript_replay_hand_empties_only_when_going_out(variant):
    """§5.8 item 4: a hand becomes empty only when its player goes out, and `go_out` follows at once."""
    assert_clean(variant, "empty_hand")


@variants
def test_r05_a_red_three_drawn_as_the_last_stock_card_ends_the_hand_without_a_discard(variant):
    assert_clean(variant, "r05_last_red_three")


@variants
def test_r06_at_the_empty_stock_a_pile_that_fits_a_meld_must_be_taken(variant):
    """E-CLASSIC step 2 (R-06): a hand ends by the stock only when the next player need not take the pile."""
    assert_clean(variant, "r06_forced_take")


@variants
def test_r07_ask_once_after_the_draw_step_before_melding_and_the_answer_binds(variant):
    assert_clean(variant, "r07_ask")


@variants
def test_r20_one_card_hand_may_not_take_a_one_card_pile(variant):
    assert_clean(variant, "r20_one_card")


@variants
def test_r54_take_top_only_in_house_001_a_legal_top_card_not_discarded_the_same_turn(variant):
    """R-54, R-156: the top discard alone, in House-001 only, while the stock lasts, never a wild or a black
    three, never by a player barred by a black three; that physical card is not discarded the same turn (a
    copy held before the take may be). A red three taken so is laid out without replacement (the checks
    `replacement` and `red3_order`)."""
    assert_clean(variant, "r54_take_top")


@variants
def test_r58_house_001_goes_out_by_a_final_discard_never_by_melding_the_last_card(variant):
    """R-58; the same in Railroad (§3.9 turn step 4, R-152): going out is a final discard, and no player ever
    melds the last card of the hand."""
    assert_clean(variant, "r58_final_discard")


@variants
def test_r04_r158_exact_deal_is_written_in_house_deals_and_scored_to_the_dealers_side(variant):
    """R-04, R-158: `exact_deal` true|false in every House deal and in no other; when true, +100 in the
    dealer's side's `other`, 0 for every other side (and `other` is 0 in Classic)."""
    assert_clean(variant, "exact_deal")


@pytest.mark.parametrize("variant", HOUSE)
def test_r04_r158_the_dealing_bonus_leaves_the_cards_alone_and_is_written_at_any_probability(variant):
    """R-04: the bonus is a Bernoulli event with no effect on the deal; R-158: `exact_deal` is written in
    every House deal, false throughout when the probability is 0 (true throughout at 1)."""
    strategies, seed, game = cases(variant)[0]
    dealt = transcript(variant, strategies, seed, game)[1]
    for prob in (0, 1):
        v = with_rules(get_variant(variant), [f"exact_deal_prob={prob}"])
        evs = list(events(make_job(v, strategies, seed), game))
        deals = [e for e in evs if e["event"] == "deal"]
        assert [e.get("exact_deal") for e in deals] == [bool(prob)] * len(deals)
        assert {k: deals[0][k] for k in ("dealer", "hands", "stock", "pile")} == \
            {k: dealt[k] for k in ("dealer", "hands", "stock", "pile")}
        r = Replay(variant, evs)
        assert not r.issues.get("exact_deal") and not r.issues.get("score"), dict(r.issues)


@variants
def test_r03_r78_game_ends_after_the_first_hand_with_a_unique_leader_at_the_target(variant):
    """§1.13: at 5000 or more, House-003 over 5000 (R-78); a tie at the top plays another hand (R-03)."""
    assert_clean(variant, "game_end")


@variants
def test_r160_transcript_holds_only_the_documented_events(variant):
    assert_clean(variant, "events")


@variants
def test_transcript_replay_exercises_red_threes_pile_takes_and_going_out(variant):
    """The checks above are not vacuous: the replayed games contain the events they are about."""
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        kinds.update(e["event"] for e in r.evs)
        reasons.update(e["reason"] for e in r.hand_ends)
    assert kinds["red_three"] and kinds["take_pile"] and kinds["go_out"] and reasons["out"]


@pytest.mark.parametrize("variant", HOUSE)
def test_transcript_replay_exercises_house_rules(variant):
    """The House checks are not vacuous: the replayed games hold dealing bonuses, several hands (the dealer's
    rotation), going out, pile takes by M2 before the side has melded (R-55, R-74) and in House-001 on a
    frozen pile (R-55), and in House-001 top-card takes (R-54), on frozen piles, before melding, and of cards
    the player already held a copy of (R-156)."""
    kinds: Counter[str] = Counter()
    top: Counter[str] = Counter()
    takes: Counter[tuple[str, str]] = Counter()
    exact = new_dealers = 0
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        kinds.update(e["event"] for e in r.evs)
        top.update(r.top_takes)
        takes.update(r.takes)
        exact += r.exact_deals
        new_dealers += len(r.dealers) - 1
    assert exact and new_dealers and kinds["take_pile"] and kinds["go_out"], (exact, new_dealers, kinds)
    m2 = {state for (method, state), n in takes.items() if method == "natural_wild" and n}
    assert any("pre-meld" in state for state in m2), takes
    if "natural_wild" in SPECS[variant].frozen_methods:
        assert any("frozen" in state for state in m2), takes
    if SPECS[variant].top_card:
        assert kinds["take_top"] and top["frozen"] and top["premeld"] and top["held copy"], top
    else:
        assert not kinds["take_top"]


@variants
def test_transcript_final_totals_equal_results_row(variant):
    for strategies, seed, game in cases(variant):
        evs = transcript(variant, strategies, seed, game)
        end = evs[-1]
        row = play(variant, list(strategies), games=game + 1, seed=seed).games.iloc[game]
        n_sides = len(evs[0]["sides"])
        assert end["totals"] == [int(row[f"score_{s}"]) for s in range(n_sides)]
        assert (end["winner"] if end["winner"] is not None else -1) == int(row["winner_side"])
        assert sum(e["event"] == "hand_end" for e in evs) == int(row["n_hands"])
        assert end["capped"] == bool(row["capped_game"])
        assert evs[0]["deal"] == int(row["deal"])


# The replayer is not blind: tampering with one field of a real transcript trips the named check -----------------


def _first(evs: list[dict[str, Any]], event: str, **where: Any) -> dict[str, Any]:
    return next(e for e in evs if e["event"] == event and all(f(e[k]) for k, f in where.items()))


def _other(card: str) -> str:
    return "KS" if card != "KS" else "QS"


def _swap_first_drawn_card_with_the_next(evs):
    deal = evs[1]
    end = evs.index(_first(evs, "draw"))
    k = sum(1 for e in evs[2:end] if e["event"] == "red_three" and e["replacement"])  # replacements before it
    stock = deal["stock"]
    assert stock[k] != stock[k + 1]
    stock[k], stock[k + 1] = stock[k + 1], stock[k]


def _change_replacement(evs):
    e = _first(evs, "red_three", replacement=bool)
    e["replacement"] = _other(e["replacement"])


def _reorder_taken_pile(evs):
    e = _first(evs, "take_pile", cards=lambda c: len(c) > 2 and c[0] != c[1])
    e["cards"][:2] = e["cards"][1::-1]


def _discard_a_card_not_held(evs):
    _first(evs, "discard")["card"] = "JK"


def _meld_four_wilds(evs):
    _first(evs, "meld", new=lambda n: not n, kind=lambda k: k == "rank")["cards"] = ["2S", "2H", "2D", "2C"]


def _drop_a_red_three(evs):
    evs.remove(_first(evs, "red_three", replacement=bool))


def _add_to_melded_points(evs):
    _first(evs, "hand_end")["scores"][0]["melded"] += 5


def _flip_concealed(evs):
    e = _first(evs, "go_out")
    e["concealed"] = not e["concealed"]


@pytest.mark.parametrize("tamper, check", [
    (_swap_first_drawn_card_with_the_next, "draw_order"), (_change_replacement, "replacement"),
    (_reorder_taken_pile, "pile"),
    (_discard_a_card_not_held, "hand"), (_meld_four_wilds, "meld"), (_drop_a_red_three, "red3_in_hand"),
    (_add_to_melded_points, "score"), (_flip_concealed, "go_out"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_transcript(tamper, check):
    evs = [copy.deepcopy(e) for e in transcript("classic-4p", ("baseline", "random"), 1, 1)]
    assert not Replay("classic-4p", list(evs)).issues
    tamper(evs)
    assert Replay("classic-4p", evs).issues.get(check)


HOUSE_TAMPERED = ("house-001-4p", ("baseline", "random"), 1, 1)


def _take_top_of_another_card(evs):
    e = _first(evs, "take_top")
    e["card"] = _other(e["card"])


def _discard_the_card_taken_from_the_top(evs):
    k = next(i for i, held in Replay(HOUSE_TAMPERED[0], list(evs)).top_take_at if not held)
    p = evs[k]["player"]
    next(e for e in evs[k:] if e["event"] == "discard" and e["player"] == p)["card"] = evs[k]["card"]


def _flip_exact_deal(evs):
    e = _first(evs, "deal")
    e["exact_deal"] = not e["exact_deal"]


def _drop_the_final_discard(evs):
    del evs[evs.index(_first(evs, "go_out")) - 1]


def _pass_the_deal_left(evs):
    deals = [e for e in evs if e["event"] == "deal"]
    deals[1]["dealer"] = (deals[0]["dealer"] + 1) % evs[0]["players"]


def _meld_two_naturals_two_wilds(evs):  # legal in Classic, not in House-001
    e = _first(evs, "meld", new=bool, kind=lambda k: k == "rank")
    e["cards"] = [c for c in e["cards"] if not is_wild(c)][:2] + ["JK", "2S"]


@pytest.mark.parametrize("tamper, check", [
    (_take_top_of_another_card, "r54_take_top"), (_discard_the_card_taken_from_the_top, "r54_take_top"),
    (_flip_exact_deal, "exact_deal"), (_drop_the_final_discard, "r58_final_discard"),
    (_pass_the_deal_left, "turn_order"), (_meld_two_naturals_two_wilds, "meld"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_house_transcript(tamper, check):
    assert_tamper_flagged(HOUSE_TAMPERED, tamper, check)


def test_r156_discarding_a_copy_held_before_the_top_card_take_is_allowed():
    """R-156: "that same card" is the physical card taken; with a copy in hand before the take, discarding
    that card is no breach. Tampered so: the discard right after such a take becomes the taken card, and the
    game up to that discard replays clean."""
    variant, strategies, seed, game = HOUSE_TAMPERED
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    k = next(i for i, held in Replay(variant, list(evs)).top_take_at
             if held and evs[i + 1]["event"] == "discard" and evs[i + 1]["card"] != evs[i]["card"])
    evs[k + 1]["card"] = evs[k]["card"]
    assert not Replay(variant, evs[:k + 2]).issues  # the game up to that discard


R06_GAMES = range(12)  # pile-hoarder exhausts the stock and takes piles there (about three takes a game)
R06_STRATEGY = ("pile-hoarder",)


def test_r06_read_literally_ends_the_hand_as_soon_as_a_pile_is_taken_at_the_empty_stock():
    """The rule switch empty_stock_take_ends_hand (R-06 read literally): the replayer finds nothing after
    such a take but its own melds and red threes, then a hand end by the stock. Under the project's
    reading (the default) play goes on after it, which the same check flags: the switch changes play."""
    literal = with_rules(get_variant("classic-4p"), ["empty_stock_take_ends_hand=true"])
    takes = 0
    for g in R06_GAMES:
        r = Replay("classic-4p", list(events(make_job(literal, R06_STRATEGY, 5), g)))
        assert not any(r.issues.values()), dict(r.issues)
        takes += r.empty_stock_takes
    assert takes >= 3, "too few takes at the empty stock to check the rule; play more games"
    went_on = 0
    for g in R06_GAMES:
        evs = [dict(e) for e in transcript("classic-4p", R06_STRATEGY, 5, g)]
        evs[0] = {**evs[0], "rules": {**evs[0]["rules"], "empty_stock_take_ends_hand": True}}
        went_on += len(Replay("classic-4p", evs).issues.get("end_of_stock", []))
    assert went_on > 0
    checked = play(literal, R06_STRATEGY[0], games=200, seed=1, check=True, workers=1)  # the 5.8 invariants
    assert (checked.games["capped_hands"] == 0).all()


# Boat (§3.5, R-30..R-45, R-148..R-150) ------------------------------------------------------------------------------


@boats
def test_r31_r40_boat_deals_fourteen_cards_no_upcard_and_the_whole_stock(variant):
    """§3.5 setup: 14 cards at every player count (R-40), no upcard (R-31), stock 52 / 66 / 80, no feet, no
    dealing bonus (`exact_deal` absent, `other` 0)."""
    assert_clean(variant, "deal")
    assert_clean(variant, "exact_deal")
    for strategies, seed, game in cases(variant):
        for d in (e for e in replay(variant, strategies, seed, game).evs if e["event"] == "deal"):
            assert d["pile"] == [] and len(d["stock"]) == SPECS[variant].stock_after_deal
            assert {len(h) for h in d["hands"]} == {14} and "exact_deal" not in d


@boats
def test_r32_each_players_first_three_turns_are_a_stock_draw_and_a_discard_only(variant):
    """R-32: no take, meld, ask or close in a player's turns 1-3 of a hand, and a discard ends each."""
    assert_clean(variant, "r32_opening")


@boats
def test_r33_a_black_three_or_wild_discard_bars_the_next_player_and_blocks_the_pile_for_a_natural_pair(variant):
    """R-33, B-12: the next player may not take the pile at all; until it is taken (or reshuffled) it is taken
    only by a natural pair (M1), also before the side has melded (where M2 is otherwise allowed)."""
    assert_clean(variant, "r33_blocked")


@boats
def test_r35_wild_melds_are_three_or_more_wilds_one_per_side_never_a_natural(variant):
    assert_clean(variant, "r35_wild_meld")


@boats
def test_r37_four_black_three_close_melds_the_last_four_black_threes_then_closes_without_a_discard(variant):
    """R-37: exactly the four black threes, in one new meld, as the last cards of the hand, then `go_out` at once
    (the closing conditions are the checks `go_out_canastas`, `r07_ask`, `r32_opening`; the 1000 in place of
    the 200 and the threes' value 0 are the check `score`)."""
    assert_clean(variant, "r37_black3_close")


@variants
def test_r38_a_turn_ends_by_a_discard_or_going_out_and_only_a_boat_player_who_may_not_close_keeps_a_card(variant):
    """§1.8, R-38: a turn ends by a discard or by going out; in Boat a player left with exactly one card who
    may not close (opening rounds, no side canasta, or a "no") keeps it with no discard, and one who may close
    must discard it. Also the exceptions of R-05 and R-149 (no discard, the hand ends)."""
    assert_clean(variant, "r38_keep_last_card")


@boats
def test_r39_reshuffle_turns_the_whole_pile_into_the_stock_when_a_card_is_needed_from_an_empty_stock(variant):
    """E-RESHUFFLE, R-39: only at an empty stock, the whole pile, right before the draw or the red-three
    replacement that needs it; no draw from an empty stock without one."""
    assert_clean(variant, "r39_reshuffle")


@boats
def test_r149_a_boat_hand_ends_by_the_stock_only_with_stock_and_pile_both_empty(variant):
    assert_clean(variant, "r149_stock_end")


# Regression, found by this replayer: at an empty stock a take before the side's initial meld that was given
# back (the minimum not reached) ended a Boat hand by the stock although the pile still held cards, where R-39
# and R-149 make the player reshuffle the pile and draw. These are the games that showed it (the event numbers
# were those of the engine before the fix).
R149_TAKE_GIVEN_BACK = {
    "boat-3p": (("random",), 3, 4),  # event 7543: hand 34 ends by the stock with 61 cards in the pile
    "boat-4p": (("random",), 5, 20),  # event 1458: hand 10 ends by the stock with 48 cards in the pile
}


@pytest.mark.parametrize("variant", list(R149_TAKE_GIVEN_BACK))
def test_r149_a_take_given_back_at_the_empty_stock_reshuffles_the_pile_instead_of_ending_the_hand(variant):
    strategies, seed, game = R149_TAKE_GIVEN_BACK[variant]
    r = replay(variant, strategies, seed, game)
    assert not r.issues.get("r149_stock_end") and not r.issues.get("r39_reshuffle"), dict(r.issues)


@variants
def test_r150_a_hand_is_capped_at_1000_turns_and_a_game_at_200_hands(variant):
    """R-150 (R-39 for Boat): reason `cap` exactly at the 1000th turn of a hand, no hand longer; `capped` games
    stop after 200 hands without a winner by the target."""
    assert_clean(variant, "r150_cap")


@boats
def test_transcript_replay_exercises_boat_rules(variant):
    """The Boat checks are not vacuous: the replayed games hold reshuffles, wild melds, players barred by a
    blocking discard, blocked piles taken by a natural pair, takes by M2 before the side has melded, last cards
    kept without a discard (R-38), closes by a meld and by a discard, and in boat-4p "May I close?" answered
    both ways (R-148)."""
    seen: Counter[str] = Counter()
    takes: Counter[tuple[str, str]] = Counter()
    answers: Counter[bool] = Counter()
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        seen.update(r.boat)
        takes.update(r.takes)
        answers.update(e["answer"] for e in r.evs if e["event"] == "ask")
    for what in ("reshuffle", "wild meld", "barred turn", "blocked pile taken", "kept last card", "closed by melding",
                 "closed by discarding"):
        assert seen[what], (what, seen)
    assert any(method == "pair" and "frozen" in state and n for (method, state), n in takes.items()), takes
    assert any(method == "natural_wild" and "pre-meld" in state and n for (method, state), n in takes.items()), takes
    assert (answers[True] and answers[False]) if variant == "boat-4p" else not answers, answers


def test_transcript_replay_exercises_rare_boat_events():
    """Over the Boat games: wild canastas (R-35), the four-black-three close (R-37), a reshuffle for a red
    three's replacement (R-39), hands ended with stock and pile empty (R-149) and by the turn cap (R-150), and
    reshuffled stocks in another order than the pile's (shuffled, not just turned over)."""
    seen: Counter[str] = Counter()
    shuffled = 0
    for variant in BOATS:
        for strategies, seed, game in cases(variant):
            r = replay(variant, strategies, seed, game)
            seen.update(r.boat)
            shuffled += sum(len(pile) >= 5 and new not in (pile, pile[::-1]) for pile, new in r.reshuffled)
    for what in ("wild canasta", "black3 close", "reshuffle for a replacement", "stock end", "cap"):
        assert seen[what], (what, seen)
    assert shuffled, "no reshuffle of 5 or more cards came out in another order"


BOAT = SPECS["boat-4p"]
BOAT_TAMPERED = ("boat-4p", ("pile-hoarder",), 1, 12)  # a reshuffle, wild melds, the four-black-three close, ...


def test_b1_boat_initial_meld_minimum_by_side_score():
    """B-1, R-149: 150 from 7505 up, without a top bound."""
    scores = (-5, 0, 2500, 2505, 5000, 5005, 7500, 7505, 9995, 12000)
    assert [requirement(s, BOAT.meld_table) for s in scores] == [15, 50, 50, 90, 90, 120, 120, 150, 150, 150]


def test_b2_to_b9_boat_worked_scores_with_the_replayers_scoring():
    """§5.4: the replayer's own scoring (the Boat `Spec`) reproduces the worked examples."""
    jk, two = ["JK"] * 4, ["2S", "2H", "2D", "2C"]
    # B-2: mixed / natural / small wild / big wild
    assert [canasta_bonus(BOAT, "rank", ["9S"] * 6 + ["2S"]), canasta_bonus(BOAT, "rank", ["9S"] * 7),
            canasta_bonus(BOAT, "wild", two + jk[:3]), canasta_bonus(BOAT, "wild", jk + two[:3])] == \
        [300, 600, 1000, 2000]
    # B-3: closing side with a big wild canasta, a natural canasta of aces, 8 8 8, all four red threes
    b3 = side_score(BOAT, [("wild", jk + two[:3]), ("rank", ["AS"] * 7), ("rank", ["8S", "8H", "8D"])], 4,
                    ["3C", "5D"], BOAT.going_out_bonus)
    assert b3["total"] == 3925 and b3["in_hand"] == -105
    # B-4: no canasta: the table counts negative
    b4 = side_score(BOAT, [("rank", ["KS", "KH", "KD", "2S"]), ("rank", ["6S", "6H", "6D"])], 0,
                    ["JK", "9S", "4S", "4H"])
    assert (b4["melded"], b4["total"]) == (-65, -135)
    assert side_score(BOAT, [("wild", jk + two)], 0, [])["total"] == 1280  # B-5: a tie is small
    assert side_score(BOAT, [("rank", ["9S"] * 7 + ["2S"])], 0, [])["total"] == 390  # B-6
    # B-7: the four-black-three close, 1000 in place of 200, the melded threes worth 0
    b7 = side_score(BOAT, [("rank", ["QS"] * 7), ("black3", ["3S", "3S", "3C", "3C"])], 0, [],
                    BOAT.black3_close_bonus)
    assert (b7["melded"], b7["going_out"], b7["total"]) == (70, 1000, 1670)
    assert side_score(BOAT, [], 0, ["3S", "3C"])["in_hand"] == -200  # B-8
    # B-9: one red three with a canasta / without
    assert side_score(BOAT, [("rank", ["9S"] * 7)], 1, [])["red_threes"] == 100
    assert side_score(BOAT, [("rank", ["9S"] * 3)], 1, [])["red_threes"] == -100


@pytest.mark.parametrize("cards, legal", [
    (["QS"] * 5 + ["JK", "JK", "2S", "2H"], True),  # B-10: 5 naturals + 4 wilds, no cap
    (["JS", "JS", "JK", "2S"], False),  # w = n
    (["JS", "JS", "JK", "2S", "2H"], False),  # C-4: legal in Classic, not in Boat
    (["JS", "JS", "JK"], True),
], ids=["5N4W", "2N2W", "2N3W", "2N1W"])
def test_r36_boat_rank_melds_have_fewer_wilds_than_naturals_and_no_cap(cards, legal):
    """R-36, B-10: w < n with no cap (the rank-meld check `meld`, here on melds made up)."""
    r = copy.copy(replay(*BOAT_TAMPERED))
    r.issues = defaultdict(list)
    r.check_meld(Meld("rank", cards, 0, 0))
    assert (not r.issues) == legal, dict(r.issues)


def _drop_a_reshuffle_before_a_draw(evs):
    k = next(i for i, e in enumerate(evs) if e["event"] == "reshuffle" and evs[i + 1]["event"] == "draw")
    del evs[k]


def _reshuffle_a_card_short(evs):
    _first(evs, "reshuffle", stock=lambda s: len(s) > 1)["stock"].pop()


def _take_a_blocked_pile_by_natural_wild(evs):
    k = Replay(BOAT_TAMPERED[0], list(evs)).at["blocked pile taken"][0]
    evs[k]["method"] = "natural_wild"


def _take_the_pile_when_barred(evs):
    k = next(i for i in Replay(BOAT_TAMPERED[0], list(evs)).at["barred turn"] if evs[i]["event"] == "draw")
    pile = Replay(BOAT_TAMPERED[0], evs[:k]).pile
    evs[k] = {"event": "take_pile", "player": evs[k]["player"], "method": "pair", "cards": pile}


def _meld_on_an_opening_turn(evs):
    k = evs.index(_first(evs, "draw"))
    p = evs[k]["player"]
    evs.insert(k + 1, {"event": "meld", "player": p, "side": p % 2, "meld": 0, "new": True, "kind": "rank",
                       "cards": ["KS", "KS", "KS"], "whole": ["KS", "KS", "KS"]})


def _add_a_natural_to_the_wild_meld(evs):
    e = _first(evs, "meld", kind=lambda k: k == "wild", new=lambda n: not n)
    e["whole"] = e["whole"][:-len(e["cards"])] + ["KS"]
    e["cards"] = ["KS"]


def _keep_two_cards_without_discarding(evs):
    k = next(i for i, e in enumerate(evs) if e["event"] == "discard" and evs[i - 1]["event"] == "meld"
             and evs[i + 1]["event"] != "go_out")
    del evs[k]


def _close_with_three_black_threes(evs):
    e = _first(evs, "meld", kind=lambda k: k == "black3")
    e["cards"], e["whole"] = e["cards"][:3], e["whole"][:3]


def _score_the_black_three_close_200(evs):
    k = evs.index(_first(evs, "meld", kind=lambda k: k == "black3"))
    end = next(e for e in evs[k:] if e["event"] == "hand_end")
    s = next(x for x in end["scores"] if x["going_out"])
    s["going_out"], s["total"] = 200, s["total"] - 800


def _count_the_table_positive_without_a_canasta(evs):
    end = _first(evs, "hand_end", scores=lambda ss: any(x["melded"] < 0 for x in ss))
    s = next(x for x in end["scores"] if x["melded"] < 0)
    s["total"] -= 2 * s["melded"]
    s["melded"] = -s["melded"]


def _end_a_hand_by_the_stock_at_a_close(evs):  # a close with cards left in the stock or the pile
    k = next(i for i, e in enumerate(evs) if e["event"] == "hand_end" and e["reason"] == "out"
             and (lambda r: r.stock or r.pile)(Replay(BOAT_TAMPERED[0], evs[:i])))
    evs[k]["reason"], evs[k]["out_player"] = "stock", None


@pytest.mark.parametrize("tamper, check", [
    (_drop_a_reshuffle_before_a_draw, "r39_reshuffle"), (_reshuffle_a_card_short, "r39_reshuffle"),
    (_take_a_blocked_pile_by_natural_wild, "r33_blocked"), (_take_the_pile_when_barred, "r33_blocked"),
    (_meld_on_an_opening_turn, "r32_opening"), (_add_a_natural_to_the_wild_meld, "r35_wild_meld"),
    (_keep_two_cards_without_discarding, "r38_keep_last_card"), (_close_with_three_black_threes, "r37_black3_close"),
    (_score_the_black_three_close_200, "score"), (_count_the_table_positive_without_a_canasta, "score"),
    (_end_a_hand_by_the_stock_at_a_close, "r149_stock_end"), (_flip_concealed, "go_out"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_boat_transcript(tamper, check):
    assert_tamper_flagged(BOAT_TAMPERED, tamper, check)



# Pennies from Heaven and Railroad (§3.8, §3.9, R-90..R-122, R-151..R-159, §5.5, §5.6) ---------------------------------

feet_variants = pytest.mark.parametrize("variant", FEET_VARIANTS)


@feet_variants
def test_feet_variants_deal_thirteen_cards_an_eleven_card_foot_each_and_the_rest_to_the_stock(variant):
    """§3.8 setup 1 (P-1: 216 - 6·(13 + 11) = 72, 71 after the upcard), §3.9 setup 3 (RR-4: 84·N - 1, R-111): the
    feet in seat order, untouched by the initial red-three exposure; no dealing bonus (R-113)."""
    assert_clean(variant, "deal")
    assert_clean(variant, "exact_deal")
    spec = SPECS[variant]
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        n = r.players
        for d in (e for e in r.evs if e["event"] == "deal"):
            assert [len(h) for h in d["hands"]] == [13] * n and [len(f) for f in d["feet"]] == [11] * n
            assert len(d["stock"]) + len(d["pile"]) - 1 == spec.stock_after_deal == PACK_SIZE[variant] - 24 * n - 1
            assert "exact_deal" not in d


@feet_variants
def test_r95_r114_r153_the_foot_comes_once_after_the_discard_of_the_turn_its_player_first_completes_a_canasta(variant):
    """R-95, R-114, R-152, R-153, R-159: the dealt foot, picked up by its player right after the discard of the turn
    in which it placed the 7th card of a canasta (Railroad: not a mixed one), or in Pennies at once when melding
    empties the hand while it is due; never on a turn without a discard; a player whose foot is due (or was just
    picked up) is not out, and a hand emptied by the discard with the foot due is followed by the pick-up."""
    assert_clean(variant, "foot")


@feet_variants
def test_r92_melds_close_at_seven_and_a_new_meld_of_a_rank_waits_until_the_earlier_ones_are_complete(variant):
    """R-92, R-118 (§1.4 capped melds): no meld over 7 cards, nothing added to a closed meld, a new meld of a rank
    only when every meld of that rank is complete; a take's overflow completes the open meld to exactly 7 (the
    check `take`)."""
    assert_clean(variant, "r92_capped_meld")


@feet_variants
def test_r91_wild_melds_hold_three_to_seven_wilds_and_only_one_is_incomplete_at_a_time(variant):
    assert_clean(variant, "r91_wild_meld")


@feet_variants
def test_r97_r118_sevens_take_no_wild_and_pennies_discards_a_seven_only_once_both_teams_have_a_sevens_canasta(variant):
    """R-97: a meld of sevens never holds a wild (also Railroad, R-118); in Pennies a seven is discarded only when
    both teams have completed a sevens canasta, and never as the going-out discard; Railroad discards sevens
    freely (R-118)."""
    assert_clean(variant, "r97_sevens")


@feet_variants
def test_pennies_all_sevens_end_only_with_a_hand_of_undiscardable_sevens_not_melded_into(variant):
    """§3.8 turn step 8, R-153: reason `sevens` only in Pennies, when the player's hand, before and after its
    melds, is nothing but sevens, sevens may not be discarded (R-97), and the player neither discards nor picks
    up its foot; no going-out bonus (the check `score`)."""
    assert_clean(variant, "sevens_end")


@feet_variants
def test_pennies_no_take_or_meld_leaves_a_hand_of_undiscardable_sevens(variant):
    """§3.8 turn step 8 and the seed ("you are not allowed to meld all your other cards, leaving yourself only with
    sevens"): no pile take and no meld leaves a Pennies hand of sevens only while they may not be discarded; only a
    hand of sevens drawn may meld them down. Railroad discards sevens freely, so it has no such rule (R-118)."""
    assert_clean(variant, "sevens_left")


@feet_variants
def test_r96_r115_r154_feet_still_face_down_are_scored_in_other(variant):
    """R-154: `other` is minus the side's un-picked feet at card values, a red three in one -100 in Pennies
    (R-96) and 0 in Railroad (R-115)."""
    assert_clean(variant, "r154_other")


@feet_variants
def test_transcript_replay_exercises_feet_capped_melds_and_the_four_canastas(variant):
    """The checks are not vacuous: each preset's games hold feet picked up after the discard and left face down
    at a hand end, red threes in feet, canastas of all four kinds, new melds of a rank that has a canasta, going
    out, hands ended by the stock, black-three going-out melds, pile takes by the methods of the variant (Pennies
    M1 and M3, never M2, R-93; Railroad M1, M2 and M3, R-117), asks in Pennies and none in Railroad, and in
    Railroad sevens discarded (R-118)."""
    seen: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    methods_used: Counter[str] = Counter()
    sevens_discarded = black3_melds = 0
    for strategies, seed, game in cases(variant):
        r = replay(variant, strategies, seed, game)
        seen.update(r.seen)
        kinds.update(e["event"] for e in r.evs)
        methods_used.update(e["method"] for e in r.evs if e["event"] == "take_pile")
        sevens_discarded += sum(e["event"] == "discard" and e["card"][0] == "7" for e in r.evs)
        black3_melds += sum(e["event"] == "meld" and e["kind"] == "black3" for e in r.evs)
    for what in ("foot after the discard", "red three in a foot", "foot left face down at the hand end",
                 "natural canasta", "mixed canasta", "wild canasta", "sevens canasta",
                 "new meld of a rank with a canasta", "out by discarding", "hand end out", "hand end stock"):
        assert seen[what], (what, seen)
    assert kinds["foot"] and black3_melds, (kinds, black3_melds)
    if variant in RAILROADS:
        assert methods_used["pair"] and methods_used["natural_wild"] and methods_used["layoff"], methods_used
        assert sevens_discarded and not kinds["ask"], (sevens_discarded, kinds["ask"])
    else:
        assert methods_used["pair"] and methods_used["layoff"] and not methods_used["natural_wild"], methods_used
        assert kinds["ask"], kinds


def test_transcript_replay_exercises_rare_feet_events():
    """Over the Pennies and Railroad games: feet picked up mid-turn (Pennies, R-95, R-159) and after a discard
    that emptied the hand, red threes of a foot picked up at the empty stock (R-05), takes overflowing the open
    meld (R-92), going out by melding the last card (Pennies), the all-sevens end (§3.8 step 8) and red threes in
    feet left face down (R-96, R-115)."""
    seen: Counter[str] = Counter()
    for variant in FEET_VARIANTS:
        for strategies, seed, game in cases(variant):
            seen.update(replay(variant, strategies, seed, game).seen)
    for what in ("foot mid-turn", "foot after emptying the hand by the discard", "foot red three at the empty stock",
                 "take overflowing the open meld", "out by melding", "hand end sevens",
                 "red three in a foot left face down"):
        assert seen[what], (what, seen)


PENNIES = SPECS["pennies-6p"]
RAILROAD = SPECS["railroad-3p"]


def test_p1_rr4_pennies_and_railroad_deal_arithmetic():
    """P-1: 216 - 6·(13 + 11) = 72, 71 after the upcard; RR-4: 84·3 - 1 = 251 (R-111)."""
    assert sum(full_pack(PENNIES.decks).values()) == 216 and PENNIES.stock_after_deal == 71
    assert sum(full_pack(RAILROAD.decks).values()) == 324 and RAILROAD.stock_after_deal == 251


def test_p2_r101_r116_pennies_and_railroad_initial_meld_minimum_by_score():
    scores = (-5, 0, 4995, 5000, 9995, 10000, 14995, 15000, 30000)
    for spec in (PENNIES, RAILROAD):
        assert [requirement(s, spec.meld_table) for s in scores] == [15, 50, 50, 90, 90, 120, 120, 150, 150]


def test_p3_to_p5_pennies_worked_scores_with_the_replayers_scoring():
    """§5.5: the replayer's own scoring (the Pennies `Spec`, `side_score`, `foot_cost`)."""
    natural, mixed = ["KS"] * 7, ["QS"] * 4 + ["2S"] * 3
    wild, sevens = ["JK"] * 2 + ["2H"] * 5, ["7S"] * 7
    foot = ["3H", "AS", "AS", "KS", "QS", "9S", "8S", "6S", "5S", "4S", "4S"]
    assert foot_cost(PENNIES, foot) == 200  # the red three -100 whatever the sevens canasta
    p3 = side_score(PENNIES, [("rank", natural), ("rank", mixed), ("wild", wild), ("rank", sevens)], 3, ["TS", "JS"],
                    PENNIES.going_out_bonus, -foot_cost(PENNIES, foot))
    assert (p3["melded"] + p3["canastas"], p3["red_threes"], p3["in_hand"], p3["total"]) == (3705, 300, -20, 3885)
    p4 = side_score(PENNIES, [("rank", ["JS"] * 7)], 2, ["AS", "TS", "9S", "5S"])  # no sevens canasta
    assert (p4["red_threes"], p4["total"]) == (-200, 325)
    assert side_score(PENNIES, [("rank", sevens)], 8, [])["red_threes"] == 1000  # P-5
    assert side_score(PENNIES, [("rank", natural)], 8, [])["red_threes"] == -1000
    assert [canasta_bonus(PENNIES, k, c) for k, c in (("rank", natural), ("rank", mixed), ("wild", wild),
                                                      ("rank", sevens), ("rank", sevens[:6]))] == [500, 300, 1000,
                                                                                                    1500, 0]


def test_rr1_to_rr3_railroad_worked_scores_with_the_replayers_scoring():
    """§5.6: red 500, black 300, wild 1000, seven 1500; red threes 100 each, never negative, no all-bonus (R-115);
    a kitty face down at card values, its red three 0; a going-out meld of black threes 5 each, no bonus (R-121)."""
    melds = [("rank", ["KH"] * 7), ("rank", ["QS"] * 5 + ["2S"] * 2), ("wild", ["JK"] * 3 + ["2H"] * 4),
             ("rank", ["7S"] * 7)]
    rr1 = side_score(RAILROAD, melds, 2, [], RAILROAD.going_out_bonus)
    assert rr1["total"] == 4025
    kitty = ["3D", "AS", "KS", "QS", "JS", "TS", "4S", "5S", "6S", "7S", "4H"]
    assert foot_cost(RAILROAD, kitty) == 85
    rr2 = side_score(RAILROAD, [("rank", ["9S"] * 3)], 1, ["TS", "9S", "KS"], 0, -foot_cost(RAILROAD, kitty))
    assert rr2["total"] == 15
    rr3 = side_score(RAILROAD, [("black3", ["3S", "3S", "3C", "3C", "3S"])], 0, [])
    assert (rr3["melded"], rr3["canastas"]) == (25, 0)
    assert side_score(RAILROAD, [], 4, [])["red_threes"] == 400  # without a meld, and no all-four bonus


@pytest.mark.parametrize("variant, kind, cards, check", [
    ("pennies-6p", "rank", ["9S"] * 4 + ["JK", "2S", "2H"], None),  # 4 naturals + 3 wilds: a mixed canasta
    ("pennies-6p", "rank", ["9S", "9S", "JK", "2S", "2H"], None),  # n >= 2, w <= 3
    ("pennies-6p", "rank", ["9S"] * 8, "r92_capped_meld"),
    ("pennies-6p", "rank", ["9S"] * 3 + ["JK"] * 4, "meld"),  # four wilds
    ("pennies-6p", "rank", ["7S"] * 6 + ["2S"], "r97_sevens"),
    ("railroad-3p", "rank", ["7S", "7S", "JK"], "r97_sevens"),
    ("pennies-6p", "wild", ["JK"] * 4 + ["2S"] * 3, None),
    ("pennies-6p", "wild", ["JK", "2S"], "r91_wild_meld"),
    ("pennies-6p", "wild", ["JK"] * 4 + ["2S"] * 4, "r92_capped_meld"),
    ("pennies-6p", "wild", ["JK", "JK", "9S"], "r91_wild_meld"),
    ("pennies-6p", "black3", ["3S"] * 4 + ["3C"] * 3, None),  # 3..7
    ("pennies-6p", "black3", ["3S"] * 4 + ["3C"] * 4, "meld"),
    ("railroad-3p", "black3", ["3S"] * 6 + ["3C"] * 6, None),  # any number
    ("railroad-3p", "black3", ["3S", "3C"], "meld"),
], ids=lambda x: x if isinstance(x, str) else None)
def test_r91_r92_r97_r121_r151_capped_meld_composition(variant, kind, cards, check):
    """§1.4 (Pennies, Railroad), on melds made up: the check named flags the meld, and a legal meld is clean."""
    r = copy.copy(replay(variant, *cases(variant)[0]))
    r.issues = defaultdict(list)
    r.check_meld(Meld(kind, cards, 0, 0))
    assert set(r.issues) == ({check} if check else set()), dict(r.issues)


# Found by this replayer: a player lays a black-three meld, then empties its hand by the discard on the turn its
# foot (kitty) is due, so it picks the foot up and is not out: black threes melded without going out (§3.8 turn
# step 4, §3.9 turn step 3, R-95, R-114, R-121, R-151). These are games that show it.
BLACK3_WITHOUT_GOING_OUT = {
    "pennies-6p": (("aggressive",), 3, 2),
    "railroad-2p": (("baseline", "random"), 1, 1),
    "railroad-3p": (("baseline", "random"), 1, 0),
    "railroad-4p": (("baseline", "random"), 1, 0),
    "railroad-6p": (("expert",), 1, 0),
}


@pytest.mark.parametrize("variant", list(BLACK3_WITHOUT_GOING_OUT))
def test_r121_r151_black_threes_are_melded_only_by_a_player_who_goes_out_not_one_who_picks_up_its_foot(variant):
    strategies, seed, game = BLACK3_WITHOUT_GOING_OUT[variant]
    r = replay(variant, strategies, seed, game)
    assert not r.issues.get("meld"), r.issues["meld"]


PENNIES_TAMPERED = ("pennies-6p", ("aggressive",), 1, 0)  # go-outs, feet after a discard that emptied the hand
RAILROAD_TAMPERED = ("railroad-2p", ("cautious", "random"), 2, 0)  # go-outs, black-three melds, M2 takes
PENNIES_EARLY_SEVEN = ("pennies-6p", ("baseline",), 3, 0)  # a seven drawn and a card discarded at once, early


def _add_an_eighth_card(evs):  # one more natural added to a meld just completed to 7
    k = next(i for i, e in enumerate(evs) if e["event"] == "meld" and e["kind"] == "rank" and len(e["whole"]) == 7)
    e = evs[k]
    c = next(c for c in e["whole"] if not is_wild(c))
    evs.insert(k + 1, {**e, "new": False, "cards": [c], "whole": [*e["whole"], c]})


def _discard_a_seven(evs):  # the first discard of the game, before any sevens canasta
    _first(evs, "discard")["card"] = "7S"


def _discard_a_seven_to_go_out(evs):
    evs[evs.index(_first(evs, "go_out")) - 1]["card"] = "7S"


def _take_by_natural_wild(evs):  # M2: never in Pennies
    _first(evs, "take_pile", method=lambda m: m == "pair")["method"] = "natural_wild"


def _take_a_frozen_or_unmelded_pile_by_natural_wild(evs):  # Railroad: M1 only
    r = Replay(evs[0]["variant"], list(evs))
    k = min(i for state in ("frozen", "pre-meld", "frozen and pre-meld") for i in r.at[f"take {state}"])
    evs[k]["method"] = "natural_wild"


def _pick_up_a_foot_without_a_canasta(evs):  # after the first discard of the game
    k = evs.index(_first(evs, "discard"))
    p = evs[k]["player"]
    evs.insert(k + 1, {"event": "foot", "player": p, "cards": list(_first(evs, "deal")["feet"][p])})


def _drop_a_foot_pickup(evs):
    k = evs.index(_first(evs, "foot"))
    p = evs[k]["player"]
    del evs[k]
    while evs[k]["event"] == "red_three" and evs[k]["player"] == p:
        del evs[k]


def _pick_up_the_foot_before_the_discard(evs):
    k = next(i for i, e in enumerate(evs) if e["event"] == "foot" and evs[i - 1]["event"] == "discard")
    evs[k - 1], evs[k] = evs[k], evs[k - 1]


def _change_a_foot_card(evs):
    e = _first(evs, "foot")
    e["cards"][0] = _other(e["cards"][0])


def _go_out_in_place_of_picking_up_the_foot(evs):  # a discard emptied the hand while the foot is due
    k = Replay(evs[0]["variant"], list(evs)).at["foot after emptying the hand"][0]
    p = evs[k]["player"]
    evs[k] = {"event": "go_out", "player": p, "concealed": False}
    while evs[k + 1]["event"] == "red_three" and evs[k + 1]["player"] == p:
        del evs[k + 1]


def _score_a_face_down_foot_as_picked_up(evs):
    end = _first(evs, "hand_end", scores=lambda ss: any(x["other"] for x in ss))
    x = next(x for x in end["scores"] if x["other"])
    x["total"] -= x["other"]
    x["other"] = 0


def _flip_the_sign_of_red_threes(evs, negative: bool) -> None:
    end = _first(evs, "hand_end", scores=lambda ss: any((x["red_threes"] < 0) == negative and x["red_threes"]
                                                        for x in ss))
    x = next(x for x in end["scores"] if (x["red_threes"] < 0) == negative and x["red_threes"])
    x["total"] -= 2 * x["red_threes"]
    x["red_threes"] = -x["red_threes"]


def _count_red_threes_positive_without_a_sevens_canasta(evs):  # Pennies §3.8 scoring 3
    _flip_the_sign_of_red_threes(evs, negative=True)


def _count_red_threes_negative(evs):  # Railroad: never negative
    _flip_the_sign_of_red_threes(evs, negative=False)


def _start_a_second_meld_of_an_open_rank(evs):  # an addition of one natural made a new meld of three
    k = next(i for i, e in enumerate(evs) if e["event"] == "meld" and e["kind"] == "rank" and not e["new"]
             and len(e["whole"]) < 7 and len(e["cards"]) == 1 and not is_wild(e["cards"][0])
             and evs[i - 1]["event"] != "take_pile")
    e = evs[k]
    n = len(Replay(evs[0]["variant"], evs[:k]).melds[e["side"]])
    evs[k] = {**e, "new": True, "meld": n, "cards": [e["cards"][0]] * 3, "whole": [e["cards"][0]] * 3}


def _meld_sevens_with_a_wild(evs):
    e = _first(evs, "meld", new=bool, kind=lambda k: k == "rank", cards=lambda c: c[0][0] == "7")
    e["cards"][2] = e["whole"][2] = "2S"


def _open_a_second_wild_meld(evs):  # right after the side's first wild meld of three
    k = evs.index(_first(evs, "meld", new=bool, kind=lambda k: k == "wild"))
    e = evs[k]
    evs.insert(k + 1, {**e, "meld": e["meld"] + 1, "cards": ["JK", "JK", "JK"], "whole": ["JK", "JK", "JK"]})


def _end_a_hand_by_sevens(evs):
    e = _first(evs, "hand_end")
    e["reason"], e["out_player"] = "sevens", None


def _go_out_without_a_wild_canasta(evs):  # the wild melds of the side going out written as rank melds
    k = evs.index(_first(evs, "go_out"))
    s = evs[k - 1]["side"] if "side" in evs[k - 1] else next(e["side"] for e in evs[k::-1] if e["event"] == "meld"
                                                               and e["player"] == evs[k]["player"])
    start = max(i for i in range(k) if evs[i]["event"] == "deal")
    for e in evs[start:k]:
        if e["event"] == "meld" and e["side"] == s and e["kind"] == "wild":
            e["kind"] = "rank"


@pytest.mark.parametrize("tamper, check", [
    (_add_an_eighth_card, "r92_capped_meld"), (_start_a_second_meld_of_an_open_rank, "r92_capped_meld"),
    (_open_a_second_wild_meld, "r91_wild_meld"), (_meld_sevens_with_a_wild, "r97_sevens"),
    (_discard_a_seven, "r97_sevens"), (_discard_a_seven_to_go_out, "r97_sevens"), (_take_by_natural_wild, "take"),
    (_pick_up_a_foot_without_a_canasta, "foot"), (_drop_a_foot_pickup, "foot"),
    (_pick_up_the_foot_before_the_discard, "foot"), (_change_a_foot_card, "foot"),
    (_go_out_in_place_of_picking_up_the_foot, "foot"), (_score_a_face_down_foot_as_picked_up, "r154_other"),
    (_count_red_threes_positive_without_a_sevens_canasta, "score"), (_end_a_hand_by_sevens, "sevens_end"),
    (_go_out_without_a_wild_canasta, "go_out_canastas"), (_flip_concealed, "go_out"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_pennies_transcript(tamper, check):
    assert_tamper_flagged(PENNIES_TAMPERED, tamper, check)


@pytest.mark.parametrize("tamper, check", [
    (_add_an_eighth_card, "r92_capped_meld"), (_start_a_second_meld_of_an_open_rank, "r92_capped_meld"),
    (_open_a_second_wild_meld, "r91_wild_meld"), (_meld_sevens_with_a_wild, "r97_sevens"),
    (_take_a_frozen_or_unmelded_pile_by_natural_wild, "take"), (_pick_up_a_foot_without_a_canasta, "foot"),
    (_drop_a_foot_pickup, "foot"), (_pick_up_the_foot_before_the_discard, "foot"),
    (_drop_the_final_discard, "r58_final_discard"), (_score_a_face_down_foot_as_picked_up, "r154_other"),
    (_count_red_threes_negative, "score"), (_end_a_hand_by_sevens, "sevens_end"),
    (_go_out_without_a_wild_canasta, "go_out_canastas"),
], ids=lambda x: getattr(x, "__name__", x))
def test_transcript_replay_flags_a_tampered_railroad_transcript(tamper, check):
    assert_tamper_flagged(RAILROAD_TAMPERED, tamper, check)


def _discard_a_seven_just_drawn(evs: list[dict[str, Any]]) -> int:
    """The first turn that draws a seven and discards at once discards that seven; returns the discard's index."""
    k = next(i for i, e in enumerate(evs) if e["event"] == "draw" and any(c[0] == "7" for c in e["cards"])
             and evs[i + 1]["event"] == "discard")
    evs[k + 1]["card"] = next(c for c in evs[k]["cards"] if c[0] == "7")
    return k + 1


@pytest.mark.parametrize("case, flagged", [(RAILROAD_TAMPERED, False), (PENNIES_EARLY_SEVEN, True)],
                         ids=["railroad", "pennies"])
def test_r97_r118_a_seven_discarded_before_both_sevens_canastas_is_flagged_only_in_pennies(case, flagged):
    """R-118: the Pennies ban on discarding sevens (R-97) is no Railroad rule; the same seven discard (a seven just
    drawn, in the game up to that discard) is clean in Railroad and flagged in Pennies."""
    variant, strategies, seed, game = case
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    k = _discard_a_seven_just_drawn(evs)
    r = Replay(variant, evs[:k + 1])
    assert not r.issues.get("hand")
    assert bool(r.issues.get("r97_sevens")) == flagged, dict(r.issues)


# Pennies §3.8 turn step 8: the defect of issue 24 (random, seed 77, games 59 and 32: a take left a hand of sevens
# only, and the hand ended by sevens). The engine no longer plays it, so these positions are staged: the first hand
# of a real game dealt anew so that the first players hold the hands below, then a few turns written out.

SEVENS16 = ("7S 7H 7D 7C " * 4).split()


def _stage(evs: list[dict[str, Any]], hands: dict[int, list[str]], pile: list[str],
           turns: list[tuple[Any, ...]]) -> None:
    """Deal the game's first hand anew: the seats `hands` names (0 the first player, 1 the next, ...) hold those 13
    cards and the pile is `pile` (its upcard last); the rest of the pack goes to the other hands, the feet and the
    stock, in pack order with red threes at the bottom of the stock, so that no other hand exposes one. Then only
    `turns` are played, (event, seat, ...) as written below, and the transcript stops there."""
    k = evs.index(_first(evs, "deal"))
    deal = evs[k]
    n = len(deal["hands"])
    first = (deal["dealer"] + 1) % n
    rest = Counter(c for part in (*deal["hands"], *deal["feet"], deal["stock"], deal["pile"]) for c in part)
    for cards in (*hands.values(), pile):
        rest.subtract(cards)
    assert min(rest.values()) >= 0, rest
    pool = sorted(rest.elements(), key=is_red3)
    seats = {(first + i) % n: list(cards) for i, cards in hands.items()}
    dealt = []
    for p in range(n):
        if p in seats:
            dealt.append(seats[p])
        else:
            dealt.append(pool[:13])
            pool = pool[13:]
    deal.update(hands=dealt, feet=[pool[11 * i:11 * (i + 1)] for i in range(n)], stock=pool[11 * n:], pile=list(pile))
    del evs[k + 1:]
    melds: dict[int, list[list[str]]] = defaultdict(list)
    for event, i, *args in turns:
        p = (first + i) % n
        side = next(x for x, members in enumerate(evs[0]["sides"]) if p in members)
        if event == "meld":
            row, cards = args
            new = row == len(melds[side])
            if new:
                melds[side].append([])
            melds[side][row] += cards
            evs.append({"event": "meld", "player": p, "side": side, "meld": row, "new": new, "kind": "rank",
                        "cards": list(cards), "whole": list(melds[side][row])})
        elif event == "take_pile":
            method, cards = args
            evs.append({"event": "take_pile", "player": p, "method": method, "cards": list(cards)})
        elif event == "red_three":
            evs.append({"event": "red_three", "player": p, "card": args[0], "replacement": None})
        else:
            evs.append({"event": "discard", "player": p, "card": args[0]})


def _sevens(n: int, kept: str | None) -> list[str]:
    """n sevens, or with `kept` in place of one of them (the legal twin of a staged position)."""
    return SEVENS16[:n] if kept is None else [kept, *SEVENS16[:n - 1]]


def _layoff_take_leaving_sevens(evs, kept=None):  # game 59: 7S 7S held, the one-card pile [QD] laid off
    _stage(evs, {0: "AS AH AD KS KH KD QS QH JS JH 9S 9H 8S".split(),
                 1: "AS AH KC QC JC 9C 8C 6C 6D 5C 5D 4C 4D".split(), 2: _sevens(13, kept)}, ["AC"], [
        ("take_pile", 0, "pair", ["AC"]), ("meld", 0, 0, ["AC", "AS", "AH"]), ("meld", 0, 1, ["KS", "KH", "KD"]),
        ("discard", 0, "AD"),
        ("take_pile", 1, "pair", ["AD"]), ("meld", 1, 0, ["AD", "AS", "AH"]), ("discard", 1, "KC"),
        ("take_pile", 2, "layoff", ["KC"]), ("meld", 2, 1, ["KC"])])


def _pair_take_leaving_sevens(evs, kept=None):  # game 32: 7H 7H 9C 9C held, [9H] taken with the pair
    _stage(evs, {0: ["AS", "AH", *_sevens(11, kept)]}, ["AD"], [
        ("take_pile", 0, "pair", ["AD"]), ("meld", 0, 0, ["AD", "AS", "AH"])])


def _meld_after_a_take_leaving_sevens(evs, kept=None):
    _stage(evs, {0: ["AS", "AH", "KS", "KH", "KD", *_sevens(8, kept)]}, ["AD"], [
        ("take_pile", 0, "pair", ["AD"]), ("meld", 0, 0, ["AD", "AS", "AH"]), ("meld", 0, 1, ["KS", "KH", "KD"])])


def _opening_meld_of_a_pending_take_leaving_sevens(evs, kept=None):  # T's meld (30) short of 50: KKK completes it
    _stage(evs, {0: ["9S", "9H", "KS", "KH", "KD", *_sevens(8, kept)]}, ["3H", "9D"], [
        ("take_pile", 0, "pair", ["3H", "9D"]), ("meld", 0, 0, ["9D", "9S", "9H"]), ("meld", 0, 1, ["KS", "KH", "KD"]),
        ("red_three", 0, "3H")])


@pytest.mark.parametrize("stage", [_layoff_take_leaving_sevens, _pair_take_leaving_sevens,
                                   _meld_after_a_take_leaving_sevens, _opening_meld_of_a_pending_take_leaving_sevens],
                         ids=lambda f: f.__name__.strip("_"))
def test_pennies_take_or_meld_that_leaves_only_sevens_is_flagged(stage):
    """The replayer refuses a Pennies take (by a lay-off or a pair) or a meld (after a take, or the opening meld of a
    take pending its minimum, the rest of the pile counted) that leaves a hand of sevens only while no seven may be
    discarded (§3.8 turn step 8, R-97), and nothing else in the staged game: its twin, the same play with one card
    other than a seven kept, replays clean in every check."""
    variant, strategies, seed, game = PENNIES_TAMPERED
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    twin = copy.deepcopy(evs)
    stage(twin, kept="5C")
    assert not dict(Replay(variant, twin).issues)
    stage(evs)
    issues = Replay(variant, evs).issues
    assert set(issues) == {"sevens_left"} and len(issues["sevens_left"]) == 1, dict(issues)


# Found by replaying 2,000 random Pennies-6p games (seed 77): a draw of two red threes whose first card's replacement
# is a copy of the second card. The stock reads card 1, its replacement(s), card 2 (§1.2 "immediately", §1.5 "drawn
# one by one and EXPOSE-R3 is applied to each"; docs/transcript.md), so each drawn card leaves the stock from where it
# lay, not as the first copy of its kind.
TWO_RED_THREES_DRAWN_TOGETHER = (("random",), 77, (428, 446, 642))


def test_s1_5_two_red_threes_drawn_together_are_replaced_card_by_card_in_stock_order():
    """A staged Pennies draw of 3H and 3D from a stock reading 3H 3D X 3D Y: 3H is replaced by the 3D under it, that
    3D by X, then the drawn 3D by Y. It replays clean in every check; with X and Y swapped it is flagged."""
    variant, strategies, seed, game = PENNIES_TAMPERED
    evs = [copy.deepcopy(e) for e in transcript(variant, strategies, seed, game)]
    _stage(evs, {}, ["8D"], [])
    deal = evs[-1]
    stock = list(deal["stock"])
    for c in ("3H", "3D", "3D"):
        stock.remove(c)
    x = stock.pop(0)
    y = stock.pop(next(k for k, c in enumerate(stock) if c != x))  # the pack lies in order: copies are adjacent
    rest = stock
    assert not is_red3(x) and not is_red3(y)
    deal["stock"] = ["3H", "3D", x, "3D", y, *rest]
    p = (deal["dealer"] + 1) % len(deal["hands"])
    out = next(c for c in deal["hands"][p] if c[0] not in "237" and c != "JK")
    evs += [{"event": "draw", "player": p, "cards": ["3H", "3D"]},
            {"event": "red_three", "player": p, "card": "3H", "replacement": "3D"},
            {"event": "red_three", "player": p, "card": "3D", "replacement": x},
            {"event": "red_three", "player": p, "card": "3D", "replacement": y},
            {"event": "discard", "player": p, "card": out}]
    assert not dict(Replay(variant, evs).issues)
    evs[-3]["replacement"], evs[-2]["replacement"] = y, x  # X and Y swapped: not the stock order
    assert "replacement" in Replay(variant, evs).issues


@pytest.mark.parametrize("game", TWO_RED_THREES_DRAWN_TOGETHER[2])
def test_s1_5_found_games_with_two_red_threes_drawn_together_replay_clean(game):
    strategies, seed, _ = TWO_RED_THREES_DRAWN_TOGETHER
    r = replay("pennies-6p", strategies, seed, game)
    assert not dict(r.issues), dict(r.issues)
    evs = r.evs
    assert any(e["event"] == "draw" and sum(map(is_red3, e["cards"])) == 2
               and evs[i + 1]["event"] == "red_three" and is_red3(evs[i + 1]["replacement"] or "")
               for i, e in enumerate(evs))


# Found the same way: a turn that draws a red three as the last stock card ends without a discard, so the player
# is not going out and may not meld black threes (R-15, §3.8 turn step 4); the engine offered that meld.
BLACK3_AT_THE_LAST_RED_THREE = (("random",), 77, (500, 800))


@pytest.mark.parametrize("game", BLACK3_AT_THE_LAST_RED_THREE[2])
def test_r05_r15_no_black_three_meld_on_a_turn_ended_by_a_red_three_drawn_as_the_last_stock_card(game):
    strategies, seed, _ = BLACK3_AT_THE_LAST_RED_THREE
    r = replay("pennies-6p", strategies, seed, game)
    assert not dict(r.issues), dict(r.issues)
    assert any(e["event"] == "red_three" and e["replacement"] is None for e in r.evs)  # R-05 happens in it
