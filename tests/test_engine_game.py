"""Game state: turns, pass, exchange, challenges under each rule, withdrawal, the end, ties, undo/redo, unseen."""

from __future__ import annotations

import pytest

from tilecam.engine.errors import IllegalMove, PhonyWord
from tilecam.engine.game import Event, Game
from tilecam.engine.lexicon import Lexicon
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules

LEX = Lexicon.from_words(["QUANT", "ALIQUANT", "AT", "TA", "TAT", "QI"])


def P(coord: str, word: str) -> Placement:
    return Placement.from_gcg(coord, word)


def test_players_and_turn_order():
    with pytest.raises(IllegalMove, match="2 to 4"):
        Game(["solo"])
    with pytest.raises(IllegalMove):
        Game(["a", "b", "c", "d", "e"])
    g = Game(["a", "b", "c"])
    assert g.bag_count == 100 - 21 and g.rack_counts == [7, 7, 7]
    g.play(P("8D", "QUANT"))
    g.pass_turn()
    assert g.turn == 2
    with pytest.raises(IllegalMove, match="c's turn"):
        g.pass_turn(player=0)
    g.pass_turn(player=2)
    assert g.turn == 0 and g.scores == [48, 0, 0]
    assert g.bag_count == 79 - 5 and g.rack_counts == [7, 7, 7]


def test_unseen_pool_is_bag_plus_racks_for_an_observer():
    g = Game(["a", "b"])
    assert sum(g.unseen().values()) == 100
    g.play(P("8D", "QUAnT"))
    unseen = g.unseen()
    assert unseen["Q"] == 0 and unseen["?"] == 1 and unseen["N"] == 6 and sum(unseen.values()) == 95
    with pytest.raises(IllegalMove, match="no Q left"):
        g.play(P("D8", ".Q"))  # the only Q is already on the board


def test_exchange_needs_enough_tiles_in_the_bag():
    g = Game(["a", "b"])
    assert g.exchange("QV").count == 2 and g.turn == 1
    assert g.exchange(7).letters == ""
    strict = Game(["a", "b"], Rules(exchange_min_bag=87))
    with pytest.raises(IllegalMove, match="87 tiles in the bag; 86 left"):
        strict.exchange(1)
    with pytest.raises(IllegalMove, match="cannot exchange 8"):
        g.exchange(8)


def test_void_rule_refuses_phonies_at_once():
    g = Game(["a", "b"], Rules(challenge="void"), lexicon=LEX)
    with pytest.raises(PhonyWord, match="QUANTS"):
        g.play(P("8D", "QUANTS"))
    assert g.board.is_empty() and g.history == [] and g.turn == 0
    assert g.play(P("8D", "QUANT")).score == 48


def test_successful_challenge_withdraws_the_phony_and_the_turn_is_lost():
    g = Game(["a", "b"], lexicon=LEX)
    g.play(P("8D", "QUANTS"))
    bag = g.bag_count
    event = g.challenge()  # the lexicon judges
    assert event.kind == "withdraw" and event.score == -g.history[0].score
    assert g.board.is_empty() and g.scores == [0, 0] and g.turn == 1
    assert g.bag_count == bag + 6 and g.rack_counts == [7, 7]
    assert g.scoreless_turns == 1


def test_double_challenge_wrong_challenger_loses_next_turn():
    g = Game(["a", "b"], Rules(challenge="double"), lexicon=LEX)
    g.play(P("8D", "QUANT"))
    event = g.challenge()
    assert event.kind == "lose_turn" and event.player == 1
    assert g.turn == 0  # b's turn skipped


def test_double_challenge_in_a_three_player_game_skips_the_challenger_later():
    g = Game(["a", "b", "c"], Rules(challenge="double"))
    g.play(P("8D", "QUANT"))
    g.challenge(valid=True, challenger=2)
    assert g.turn == 1
    g.pass_turn()
    assert g.turn == 0  # c's turn was lost


def test_points_rule_gives_the_challenged_player_a_bonus_per_word():
    g = Game(["a", "b"], Rules(challenge="points", challenge_points=5))
    g.play(P("8D", "QUANT"))
    assert g.challenge(valid=True).score == 5 and g.scores == [53, 0] and g.turn == 1
    g2 = Game(["a", "b"], Rules(challenge="points", challenge_points=10))
    g2.play(P("8D", "QUANT"))
    with pytest.raises(IllegalMove, match="formed 1"):
        g2.challenge(valid=True, words=2)


def test_single_challenge_costs_nothing():
    g = Game(["a", "b"], Rules(challenge="single"))
    g.play(P("8D", "QUANT"))
    assert g.challenge(valid=True) is None and g.scores == [48, 0] and g.turn == 1


def test_challenge_needs_a_play_and_a_judge():
    g = Game(["a", "b"])
    with pytest.raises(IllegalMove, match="no play"):
        g.challenge(valid=False)
    g.play(P("8D", "QUANT"))
    with pytest.raises(IllegalMove, match="no lexicon"):
        g.challenge()


def tiny_rules(**kw) -> Rules:
    return Rules(tileset=str(TINY), rack_size=2, bingo_bonus=0, **kw)


TINY = None


@pytest.fixture(autouse=True)
def tiny_tileset(tmp_path):
    global TINY
    TINY = tmp_path / "tiny.tsv"
    TINY.write_text("A\t3\t1\nT\t3\t2\n", encoding="utf-8")  # 6 tiles: racks of 2 leave 2 in the bag


def play_out(g: Game) -> None:
    g.play(P("8H", "AT"))     # a: 1 + 2 = 3, x2 = 6; draws the last 2
    g.play(P("H7", "T."))     # b: TA = 3, b keeps one tile
    g.play(P("9H", "TA"))     # a goes out: TA 3 + TAT 5 + TA 3
    assert g.bag_count == 0 and g.rack_counts == [0, 1] and g.finished_reason == "out"


def test_going_out_tournament_rule_earns_twice_the_rack():
    g = Game(["a", "b"], tiny_rules())
    play_out(g)
    assert sorted(g.unseen().elements()) == ["A"]
    before = g.scores
    events = g.end()  # b's rack is inferred from the unseen pool
    assert [(e.kind, e.player, e.score, e.letters) for e in events] == [("end_rack", 0, 2, "A")]
    assert g.scores == [before[0] + 2, before[1]] and g.is_over
    with pytest.raises(IllegalMove, match="over"):
        g.pass_turn()


def test_going_out_casual_rule_adds_and_subtracts():
    g = Game(["a", "b"], tiny_rules(end_scoring="casual"))
    play_out(g)
    before = g.scores
    events = g.end()
    assert [(e.kind, e.player, e.score) for e in events] == [("end_rack", 0, 1), ("end_penalty", 1, -1)]
    assert g.scores == [before[0] + 1, before[1] - 1]


def test_six_scoreless_turns_end_and_each_rack_is_deducted():
    g = Game(["a", "b"])
    for _ in range(5):
        g.pass_turn()
        assert g.finished_reason is None
    g.pass_turn()
    assert g.finished_reason == "scoreless"
    with pytest.raises(IllegalMove, match="racks of a, b are needed"):
        g.end()
    events = g.end(racks={0: "QI", 1: "?E"})
    assert [(e.player, e.score) for e in events] == [(0, -11), (1, -1)]
    assert g.scores == [-11, -1] and g.winners() == [1]


def test_home_rule_all_players_pass_twice():
    g = Game(["a", "b"], Rules.casual())
    for _ in range(3):
        g.pass_turn()
    assert g.finished_reason is None
    g.pass_turn()
    assert g.finished_reason == "passes"


def test_ties_have_several_winners():
    g = Game(["a", "b"])
    g.play(P("8G", "AT"))
    g.play(P("H7", "T."))  # 1 + 1 = 2 ... not a tie yet
    assert g.winners() == [0]
    g.time_penalty(0, g.scores[0] - g.scores[1])
    assert g.winners() == [0, 1]


def test_undo_and_redo():
    g = Game(["a", "b"])
    g.play(P("8D", "QUANT"))
    rows, state = g.board.rows(), (g.scores, g.turn, g.bag_count, g.rack_counts)
    g.play(P("8A", "ALI....."))
    g.undo()
    assert g.board.rows() == rows and (g.scores, g.turn, g.bag_count, g.rack_counts) == state
    g.redo()
    assert g.scores == [48, 51]
    g.undo()
    g.pass_turn()
    with pytest.raises(IllegalMove, match="nothing to redo"):
        g.redo()
    g.undo()
    g.undo()
    assert g.board.is_empty() and g.history == []
    with pytest.raises(IllegalMove, match="nothing to undo"):
        g.undo()


def test_event_dict_round_trip():
    g = Game(["a", "b"])
    e = g.play(P("8D", "QUAnT"), rack="QUA?TXY")
    d = e.to_dict()
    assert d["words"] == ["QUAnT"] and d["position"] == "8D" and d["word"] == "QUAnT"
    assert Event.from_dict(d) == e and e.placement == P("8D", "QUAnT")
    with pytest.raises(IllegalMove):
        Event.from_dict({**d, "colour": "red"})
    with pytest.raises(IllegalMove):
        Event.from_dict({**d, "kind": "teleport"})


def test_no_turns_after_the_end_is_reached_but_the_last_play_can_still_be_challenged():
    g = Game(["a", "b"], tiny_rules())
    play_out(g)
    with pytest.raises(IllegalMove, match=r"reached its end \(out\)"):
        g.pass_turn()
    g.challenge(valid=False)  # the going-out play was a phony: back to the game
    assert g.finished_reason is None and g.rack_counts == [2, 1]
    g.pass_turn()


def test_unnamed_blank_is_scored_and_judged_by_any_letter():
    g = Game(["a", "b"], Rules(challenge="void"), lexicon=LEX)
    event = g.play(P("8D", "QUA?T"))
    assert event.score == (20 + 1 + 1 + 0 + 1) * 2 and event.word == "QUA?T" and event.words == ("QUA?T",)
    with pytest.raises(PhonyWord):
        g.play(P("9D", "?Z"))  # Q? can be QI, but no letter makes ?Z a word, and UZ is none
    assert g.is_word("Q?") and not g.is_word("?Z") and g.is_word("??")


def test_copy_is_independent():
    g = Game(["a", "b"])
    g.play(P("8D", "QUANT"))
    c = g.copy()
    c.pass_turn()
    c.undo()
    c.undo()
    assert c.board.is_empty() and not g.board.is_empty() and g.scores == [48, 0] and g.can_undo
