"""A turntable board turned a quarter or half turn between turns, under a fixed camera: the turn is no move, the
plays are. Rendered frames read by the vision pipeline through the one tracker, and the matching function
(:mod:`tilecam.vision.moves.turned`) on probabilities made by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tilecam.engine.lexicon import Lexicon
from tilecam.engine.rules import Rules
from tilecam.vision.moves.reading import Reading
from tilecam.vision.moves.replay import GameRecorder
from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig
from tilecam.vision.moves.turned import (FLOOR, MIN_TILES, TURNED_EVIDENCE, BoardTurn, TurnError, board_turn,
                                         could_be_turned, fit)

from boards import EMPTY, rows_with

SEED = 4242          # one scene (board design, camera, light) for every frame of a test


CAT = rows_with(("8H", "CAT"))
COX = rows_with(("8H", "CAT"), ("H9", "OX"))
COXA = rows_with(("8H", "CAT"), ("H9", "OX"), ("10G", "AXE"))


# ------------------------------------------------------------------------------------------ the matching function

CLASSES = (".", "A", "C", "T", "?", "#")


def probs_of(rows, sure=0.95):
    """Class probabilities (15 x 15 x CLASSES) of a board read as ``rows``, each square at ``sure``."""
    probs = np.full((15, 15, len(CLASSES)), (1 - sure) / (len(CLASSES) - 1))
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            probs[r, c, CLASSES.index(ch)] = sure
    return probs


def turned_probs(probs, k):
    """Probabilities of a board read ``k`` quarter turns (np.rot90) further round."""
    return np.rot90(probs, k, axes=(0, 1))


def turned_rows(rows, k):
    return ["".join(row) for row in np.rot90(np.array([list(r) for r in rows]), k)]


def test_the_board_read_in_its_true_turn_is_found_and_as_it_lies_is_not_a_turn():
    lying = probs_of(turned_rows(CAT, 3))   # the board turned on the table: a quarter turn more reads it again
    readings = [turned_probs(lying, k) for k in range(4)]
    turn = board_turn(CAT, readings, CLASSES)
    assert turn == BoardTurn(1, turn.fits, 3) and turn.turned and turn.describe() == "a quarter turn clockwise"
    assert turn.fits[1] == pytest.approx(np.log(0.95))
    # the centre tile stays put, the two others read bare: far below
    assert turn.fits[0] < turn.fits[1] - TURNED_EVIDENCE
    # not turned: the board as it is wins, and the cheap check says no turn could beat it
    still = [turned_probs(probs_of(CAT), k) for k in range(4)]
    assert board_turn(CAT, still, CLASSES).turn == 0
    assert not could_be_turned(CAT, still[0], CLASSES)
    assert could_be_turned(CAT, readings[0], CLASSES)


def test_a_half_turn_of_a_centred_word_is_told_by_its_letters_not_its_squares():
    tac = rows_with(("8G", "TAC"))          # CAT centred on H8 turned a half turn covers the same squares
    cat = rows_with(("8G", "CAT"))
    upside_down = probs_of(tac)             # what the upside-down letters would read as, in place
    upside_down[7, 6:9] = (0.02, 0.03, 0.02, 0.02, 0.6, 0.31)   # letters upside down read as no letter
    right = probs_of(cat)
    readings = [upside_down, probs_of(EMPTY), right, probs_of(EMPTY)]
    assert board_turn(cat, readings, CLASSES).turn == 2


def test_a_play_a_withdrawal_or_a_misread_letter_is_no_turn():
    # the last play taken back (two of three tiles gone) and a misread: nothing turned reads them better
    gone = probs_of(rows_with(("8H", "C")))
    assert board_turn(CAT, [turned_probs(gone, k) for k in range(4)], CLASSES).turn == 0
    misread = probs_of(rows_with(("8H", "CAA")))
    assert board_turn(CAT, [turned_probs(misread, k) for k in range(4)], CLASSES).turn == 0
    # a new tile beside the committed ones changes nothing of their fit
    assert fit(CAT, probs_of(rows_with(("8H", "CATA"))), CLASSES) == pytest.approx(np.log(0.95))


def test_the_fit_floors_a_letter_read_as_nothing_like_it_and_too_few_tiles_tell_nothing():
    nothing = np.zeros((15, 15, len(CLASSES)))
    assert fit(CAT, nothing, CLASSES) == pytest.approx(np.log(FLOOR))
    one = rows_with(("8H", "C"))
    assert MIN_TILES > 1 and board_turn(one, [nothing] * 4, CLASSES).turn == 0
    with pytest.raises(TurnError):
        board_turn(CAT, [nothing] * 3, CLASSES)
    with pytest.raises(TurnError):
        fit(CAT, np.zeros((15, 15, 2)), CLASSES)


def test_readings_turned_on_the_table_make_no_move_and_the_next_play_is_in_the_boards_squares():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    assert [str(e) for e in tr.feed(Reading.from_rows(CAT), 0.0)] == ["play 8H CAT"]
    assert tr.feed(Reading.from_rows(CAT).rotated(1), 1.0) == []
    assert tr.rotation == 3 and tr.stats.turns == 1 and "turned a quarter turn anticlockwise" in tr.status
    # a quarter turn further and a play put down before the board settled: the play only
    events = tr.feed(Reading.from_rows(COX).rotated(2), 2.0)
    assert [str(e) for e in events] == ["play H8 .OX"]
    assert [turn.turn for _, turn in tr.turns_seen] == [3, 3]


def test_squares_no_play_can_reach_do_not_choose_the_first_plays_turn():
    """UNION read upside down is NOINT (N, O, I look alike turned; its U read as T), a phony; read the right way it
    is UNION, but that reading also took two squares by the far edge for blanks, which the upside-down one read bare
    (seed 21301: the whole game then read upside down, 0/28). No play can reach those squares: they are left out of
    every turn's decision, and the words choose the turn."""
    from tilecam.vision.moves.interpret import interpret

    tr = MoveTracker("english", lexicon=Lexicon.from_words(["UNION"]), config=TrackerConfig(settle_readings=1))
    tr._reader = type("ToldByTiles", (), {"rotation_given": False})()
    upside = Reading.from_rows(rows_with(("8D", "NOINT")), uncertain={(7, 7): [("T", 0.86), ("Y", 0.12)]})
    edge = {(1, 0): [("?", 0.87), (".", 0.13)], (12, 0): [("?", 0.86), (".", 0.14)]}
    right = rows_with(("8H", "UNION"), ("A2", "?"), ("A13", "?"))
    readings = [upside, upside.rotated(1), Reading.from_rows(right, uncertain=edge), upside.rotated(3)]
    tr._read_turned = lambda reading: (readings, ["picture read"] * 4)
    taken = []
    tr._read_from_now_on = lambda k, reading, raws: taken.append(k)
    result = interpret(tr.board, upside, tr.tileset, tr.lexicon)
    assert str(result.candidate.placement) == "8D NOINT"         # the reader's turn alone
    _, chosen = tr._first_play_turn(upside, result)
    assert str(chosen.candidate.placement) == "8H UNION" and taken == [2]
    assert set(chosen.unreachable) == {(1, 0), (12, 0)}


def test_a_first_play_whose_turn_only_the_words_tell_against_its_letters_waits_for_the_next_play():
    """LOB's O and B put down first, a pause (seed 25103, peter): read the reader's way OB, both letters surely, a
    phony in ENABLE; upside down BO, a word, its B read 0.55. The words chose BO by more than the margin, and the
    whole game was then read upside down (0/25). The letters say the other turn: row 1 is not told yet, and the
    first play waits for the next one (then LOB)."""
    from tilecam.vision.moves.interpret import interpret

    tr = MoveTracker("english", lexicon=Lexicon.from_words(["BO", "LOB"]), config=TrackerConfig(settle_readings=1))
    tr._reader = type("ToldByTiles", (), {"rotation_given": False})()
    upright = Reading.from_rows(rows_with(("8H", "OB")))
    upside = Reading.from_rows(rows_with(("8G", "BO")), uncertain={(7, 6): [("B", 0.55), ("E", 0.45)]})
    readings = [upright, Reading.from_rows(EMPTY), upside, Reading.from_rows(EMPTY)]
    tr._read_turned = lambda reading: (readings, ["picture read"] * 4)
    taken = []
    tr._read_from_now_on = lambda k, reading, raws: taken.append(k)
    result = interpret(tr.board, upright, tr.tileset, tr.lexicon)
    assert str(result.candidate.placement) == "8H OB" and result.candidate.phony
    _, chosen = tr._first_play_turn(upright, result)
    assert chosen.kind == "unclear" and chosen.reason.startswith("row 1 not told yet") and taken == []


def test_every_turn_is_judged_on_the_same_squares_a_turn_that_reads_most_tiles_bare_pays_for_them():
    """LOB down first, then MEGARAD paused part-way (MEGAR, a phony as it stands), one change: the right turn reads
    two plays. Turned a quarter, three of GLOB's letters lying sideways read S F S and the other five tiles bare (as
    the model read them at seed 24003): one play of three tiles, more probable alone than two plays of eight — and
    taken, the game then read in the wrong turn (0/25). A square put down (its pixels changed) and read surely a tile
    in one turn is a tile: the turn that reads five of them bare pays for them."""
    from tilecam.vision.moves.interpret import interpret

    tr = MoveTracker("english", lexicon=Lexicon.from_words(["LOB", "GLOB", "MEGARAD"]),
                     config=TrackerConfig(settle_readings=1))
    tr._reader = type("ToldByTiles", (), {"rotation_given": False})()
    rows = rows_with(("8G", "LOB"), ("F6", "MEGAR"))
    right = Reading.from_rows(rows)
    turned = np.rot90(np.array([list(row) for row in rows]), 3)
    glob = [(int(r), int(c)) for r, c in np.argwhere(turned != ".") if c == 7]   # GLOB, now down column H
    rest = [(int(r), int(c)) for r, c in np.argwhere(turned != ".") if c != 7]
    grid = np.full((15, 15), ".")
    for (r, c), letter in zip(sorted(glob), "SFS"):
        grid[r, c] = letter
    sideways = Reading.from_rows(["".join(row) for row in grid], uncertain={s: [(".", 0.9), ("M", 0.1)] for s in rest})
    readings = [right, Reading.from_rows(EMPTY), Reading.from_rows(EMPTY), sideways]
    tr._read_turned = lambda reading: (readings, ["picture read"] * 4)
    put_down = {(int(r), int(c)): 1.0 for r, c in np.argwhere(np.array([list(row) for row in rows]) != ".")}
    tr.first_changes.squares = lambda rotation=0: put_down          # the eight squares changed in pixels
    taken = []
    tr._read_from_now_on = lambda k, reading, raws: taken.append(k)
    decided = [interpret(tr.board, r, tr.tileset, tr.lexicon) for r in (right, sideways)]
    assert [str(d.candidate.placement) for d in decided] == ["F6 MEGAR", "H6 SFS"]
    assert decided[1].score > decided[0].score + 0.5                      # alone, the sideways turn wins
    _, chosen = tr._first_play_turn(right, decided[0])
    assert [str(e.placement) for e in chosen.earlier] == ["8G LOB"] and str(chosen.candidate.placement) == "F6 MEGAR"
    assert taken == []


# ------------------------------------------------------------------------------------------ rendered frames


@pytest.fixture(scope="module")
def render():
    synth = pytest.importorskip("tilecam.models.synth")
    scene = synth.sample_scene(np.random.default_rng(SEED), "english")

    def frame(rows, turn=0):
        """The board as ``rows`` on the table turned ``turn`` quarter turns under the fixed camera."""
        turned = dataclasses.replace(scene, roll_deg=scene.roll_deg + 90 * turn)
        return np.asarray(synth.render_board(list(rows), seed=SEED, scene=turned).image)

    return frame


def scored(events):
    """The events recorded in a game: each play's position, word and score."""
    recorder = GameRecorder(["Ann", "Bob"], Rules(max_scoreless_turns=None))
    for event in events:
        assert recorder.apply(event), recorder.problems
    return [(m.position, m.word, m.score) for m in recorder.game.history]


def play(tracker, frames, t0):
    events = []
    for i, frame in enumerate(frames):
        events += tracker.feed(frame, t0 + i)
    return events


@pytest.mark.parametrize("turn", [1, 2], ids=["quarter", "half"])
def test_a_board_turned_between_two_plays_makes_no_move_and_the_plays_are_scored(tracker, render, turn):
    events = play(tracker, [render(EMPTY), render(CAT)], 0)
    before = tracker.reader.rotation
    assert play(tracker, [render(CAT, turn)] * 2, 10) == []          # turned, and still: no move
    [(_, seen)] = tracker.turns_seen
    assert seen.turn in ((1, 3) if turn == 1 else (2,)) and tracker.stats.turns == 1
    assert (tracker.reader.rotation - before) % 4 == seen.turn          # the reader reads it its new way
    assert f"the board was turned {seen.describe()}" in tracker.status
    assert tracker.reader.squares_read[-1] < 5      # the still board after the turn: next to nothing read again
    events += play(tracker, [render(COX, turn)], 20)
    assert [str(e) for e in events] == ["play 8H CAT", "play H8 .OX"]     # the board's own squares
    assert tracker.stats.turns == 1
    assert scored(events) == [("8H", "CAT", 10), ("H8", ".OX", 12)]      # CAT on the star (DW); C3 O1 X8


def test_a_board_turned_with_a_word_put_down_before_it_settled_finds_the_word(tracker, render):
    play(tracker, [render(EMPTY), render(CAT)], 0)
    events = play(tracker, [render(COX, 1)], 10)                  # a quarter turn, and OX played, then settled
    assert [str(e) for e in events] == ["play H8 .OX"]
    assert "turned a quarter turn" in tracker.status
    events = play(tracker, [render(COXA, 3)], 20)                 # a half turn on, and AXE through the X
    assert [str(e) for e in events] == ["play 10G A.E"]
    assert [t.turn for _, t in tracker.turns_seen] == [1, 2]


def test_the_runs_line_says_the_board_was_turned_and_that_no_move_came_of_it():
    """The summary a replay prints and the scoreboard's status line show, with the tracker's turn count."""
    from tilecam.firmware.loop import LoopStatus
    from tilecam.firmware.pipeline import RunReport
    from tilecam.vision.moves.tracker import TrackerStats

    stats = TrackerStats()
    stats.settles, stats.turns = 3, 2
    line = RunReport(LoopStatus(), recorded=["a play"], tracker_stats=stats).line()
    assert "3 settled boards, 1 events recorded; the board was turned on the table 2 times (no move made of it)" in line
    stats.turns = 0
    assert "turned" not in RunReport(LoopStatus(), tracker_stats=stats).line()


def _row_1(render) -> int:
    """Which edge of this scene's picture is row 1, as a reader of its own tells it from CAT."""
    from tilecam.vision.moves.reader import default_reader

    reader = default_reader("english", threads=1)
    reader(render(CAT))
    assert reader.rotation is not None
    return reader.rotation


def test_a_first_play_read_in_the_wrong_turn_is_read_again_in_the_turn_its_words_say(tracker, render):
    # The reader told row 1 from a first word's look (forced wrong here: DJINN's N, N and I read alike upside down);
    # read upside down it is NNITG, a phony; the first play's decision in each turn finds DJINN.
    upright = _row_1(render)
    tracker.reader.rotation = (upright + 2) % 4
    tracker.lexicon = Lexicon.from_words(["DJINN", "ANE"])
    events = play(tracker, [render(EMPTY)] + [render(rows_with(("8D", "DJINN")))] * 2, 0)
    assert [str(e) for e in events] == ["play 8D DJINN"]
    assert tracker.reader.rotation == upright and tracker.turns_seen == []   # read so from now on; no turn of the board
    events = play(tracker, [render(rows_with(("8D", "DJINN"), ("G7", "A"), ("G9", "E")))] * 2, 10)
    assert [str(e) for e in events] == ["play G7 A.E"]


def test_a_first_play_that_reads_as_a_word_in_two_turns_waits_for_the_next_play(tracker, render):
    """NO upside down reads ON as surely (N and O look alike turned), both words: the first play does not tell row 1.
    It waits, and the next play's words tell the turn of both (OAK read upside down is no word), split in the order
    the frames showed them (NO, then .AK: not OAK, then N. — the same letters)."""
    upright = _row_1(render)
    tracker.reader.rotation = (upright + 2) % 4
    tracker.lexicon = Lexicon.from_words(["NO", "ON", "OAK"])
    events = play(tracker, [render(EMPTY)] + [render(rows_with(("8G", "NO")))] * 2, 0)
    assert events == [] and tracker.status.startswith("unclear: row 1 not told yet")
    events = play(tracker, [render(rows_with(("8G", "NO"), ("H8", ".AK")))] * 2, 10)
    assert [str(e) for e in events] == ["play 8G NO", "play H8 .AK"]
    assert tracker.reader.rotation == upright


def test_a_first_play_is_not_turned_where_row_1_was_set_by_the_calibration(tracker, render):
    tracker.reader.rotation = (_row_1(render) + 2) % 4       # set wrong by hand: the tracker does not overrule it
    tracker.reader.rotation_given = True
    tracker.lexicon = Lexicon.from_words(["DJINN"])
    events = play(tracker, [render(EMPTY)] + [render(rows_with(("8D", "DJINN")))] * 2, 0)
    assert [str(e) for e in events] != ["play 8D DJINN"] and tracker.reader.rotation != _row_1(render)


def test_the_board_read_turned_reads_every_square_again_also_those_read_surely_bare(tracker, render):
    play(tracker, [render(EMPTY), render(CAT)], 0)
    reader = tracker.reader
    asked = []
    run = reader.classifier.run

    def counting(crops, refs):
        asked.append(len(crops))
        return run(crops, refs)

    reader.classifier.run = counting
    try:
        reader.turned(1)
    finally:
        reader.classifier.run = run
    # a letter lying sideways to the turn it was read in may have read surely bare: no square is taken as read
    assert asked[0] == 15 * 15
