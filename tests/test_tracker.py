"""The move tracker over synthetic reading streams: settling, occlusion, phantom-move immunity, withdrawals, the
clock commit policy, board rotation, and the daemon-facing interface."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.engine.lexicon import Lexicon
from tilecam.engine.move import Placement
from tilecam.vision.moves.reading import Reading
from tilecam.vision.moves.events import DetectedEvent, TrackerError
from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig, make_tracker

from boards import EMPTY, rows_with


def hand_over(rows: list[str], squares=((6, 6), (6, 7), (7, 6), (8, 8))) -> Reading:
    return Reading.from_rows(rows, occluded=squares)


def run(tracker: MoveTracker, readings, t0: float = 0.0) -> list[DetectedEvent]:
    events = []
    for i, reading in enumerate(readings):
        events += tracker.feed(reading, t0 + i * 0.1)
    return events


CAT = rows_with(("8H", "CAT"))


def test_agreeing_readings_commit_once_and_a_hand_over_the_board_commits_nothing():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=3))
    # the hand places the tiles: every frame with the hand is ignored, even showing the full word
    assert run(tr, [hand_over(rows_with(("8H", "C"))), hand_over(CAT), hand_over(CAT)]) == []
    assert tr.status.startswith("occluded")
    # two agreeing readings are not yet settled; a hand in between starts the count again
    assert run(tr, [Reading.from_rows(CAT), Reading.from_rows(CAT), hand_over(CAT), Reading.from_rows(CAT),
                    Reading.from_rows(CAT)]) == []
    events = run(tr, [Reading.from_rows(CAT)])
    assert [str(e) for e in events] == ["play 8H CAT"]
    assert run(tr, [Reading.from_rows(CAT)] * 5) == []        # the same settled board again: nothing more
    assert tr.board.rows() == CAT and tr.stats.commits == 1


def test_readings_that_disagree_never_settle():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=2))
    half = rows_with(("8H", "CA"))
    assert run(tr, [Reading.from_rows(CAT), Reading.from_rows(half)] * 4) == []


def test_a_doubtful_letter_that_flickers_still_settles():
    tr = MoveTracker("english", lexicon=Lexicon.from_words(["CAT"]), config=TrackerConfig(settle_readings=3))
    a = Reading.from_rows(CAT, uncertain={(7, 7): [("C", 0.6), ("G", 0.4)]})
    b = Reading.from_rows(CAT, uncertain={(7, 7): [("G", 0.5), ("C", 0.45)]})
    events = run(tr, [a, b, a])
    assert [str(e) for e in events] == ["play 8H CAT"]


def test_shifted_and_lifted_tiles_and_a_bumped_board_make_no_move():
    tr = MoveTracker("english", board_rows=CAT, config=TrackerConfig(settle_readings=2))
    shifted = rows_with(("8H", "CA"), ("8K", "T"))
    lifted = rows_with(("8H", "CA"))
    noisy = Reading.from_rows(CAT, confidence=0.7)        # a bump blurs the frame: letters less sure, same board
    readings = [Reading.from_rows(shifted)] * 3 + [hand_over(CAT)] + [Reading.from_rows(lifted)] * 3 \
        + [hand_over(CAT)] + [Reading.from_rows(CAT)] * 3 + [noisy] * 3
    assert run(tr, readings) == []
    assert tr.board.rows() == CAT and tr.stats.disturbed >= 2


def test_picked_up_and_put_back_is_no_move():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=2))
    assert len(run(tr, [Reading.from_rows(CAT)] * 2)) == 1
    # a tile of the last play lifted and put back while the hand stays over the board
    readings = [hand_over(CAT), hand_over(rows_with(("8H", "CA"))), hand_over(CAT)] + [Reading.from_rows(CAT)] * 3
    assert run(tr, readings) == []


def test_withdrawn_phony_then_next_play():
    lex = Lexicon.from_words(["CAT", "CATS"])
    tr = MoveTracker("english", lexicon=lex, config=TrackerConfig(settle_readings=2))
    run(tr, [Reading.from_rows(CAT)] * 2)
    phony = rows_with(("H9", "XQ"), base=CAT)
    events = run(tr, [Reading.from_rows(phony)] * 2)
    assert [e.kind for e in events] == ["play"] and events[0].phony == ("CXQ",)
    events = run(tr, [hand_over(phony), Reading.from_rows(CAT), Reading.from_rows(CAT)])
    assert [str(e) for e in events] == ["withdraw H8 .XQ"]
    assert tr.board.rows() == CAT
    events = run(tr, [Reading.from_rows(rows_with(("8K", "S"), base=CAT))] * 2)
    assert [str(e) for e in events] == ["play 8H ...S"] and not events[0].phony


def test_clock_policy_commits_only_on_a_press_and_an_unchanged_board_is_a_scoreless_turn():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1, commit="clock"))
    assert run(tr, [Reading.from_rows(CAT)] * 3) == []          # settled, but nobody pressed a clock
    assert tr.status.startswith("settled")
    tr.clock(1.0, player=0)
    events = tr.feed(Reading.from_rows(CAT), 1.1)
    assert [(e.kind, e.player) for e in events] == [("play", 0)]
    tr.clock(2.0, player=1)
    events = tr.feed(Reading.from_rows(CAT), 2.1)
    assert [(e.kind, e.player) for e in events] == [("pass", 1)]
    # a press while the board is disturbed waits for a board that makes sense
    tr.clock(3.0, player=0)
    assert tr.feed(Reading.from_rows(rows_with(("8H", "CA"))), 3.1) == []
    events = tr.feed(Reading.from_rows(rows_with(("I9", "O"), base=CAT)), 3.2)
    assert [(e.kind, e.player, str(e.placement)) for e in events] == [("play", 0, "I8 .O")]


def test_turned_board_is_recognised():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    run(tr, [Reading.from_rows(CAT)])
    turned = Reading.from_rows(CAT).rotated(1)
    assert run(tr, [turned] * 2) == []
    assert tr.rotation == 3
    plus = Reading.from_rows(rows_with(("8K", "S"), base=CAT)).rotated(1)
    assert [str(e) for e in run(tr, [plus])] == ["play 8H ...S"]


def test_sync_replaces_the_committed_board_and_forgets_the_last_play():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    run(tr, [Reading.from_rows(CAT)])
    tr.sync(EMPTY)                  # the players undid the move on the web
    assert tr.last_play is None and tr.board.is_empty()
    # the camera still sees CAT: not played again (that would undo the undo) until the board changes
    assert run(tr, [Reading.from_rows(CAT)] * 3) == []
    cats = rows_with(("8K", "S"), base=CAT)
    assert [str(e) for e in run(tr, [Reading.from_rows(cats)])] == ["play 8H CATS"]
    with pytest.raises(ValueError):
        tr.sync(["..."])


def test_unreadable_frames_count_as_occluded_and_images_go_to_the_reader():
    seen = []

    def reader(image):
        seen.append(image.shape)
        if image.mean() > 100:
            raise ValueError("board not found")
        return Reading.from_rows(CAT)

    tr = MoveTracker("english", reader=reader, config=TrackerConfig(settle_readings=2))
    dark, bright = np.zeros((8, 8, 3), np.uint8), np.full((8, 8, 3), 200, np.uint8)
    assert run(tr, [dark, bright, dark]) == []
    assert [str(e) for e in run(tr, [dark])] == ["play 8H CAT"]
    assert tr.stats.unreadable == 1 and len(seen) == 4 and len(tr.stats.read_s) == 4


def test_make_tracker_is_what_the_daemon_replay_and_the_bench_plug_in():
    words = Lexicon.from_words(["CATS"])
    tr = make_tracker(CAT, "english", lexicon=words)
    assert tr.wants_every_frame is False and tr.config.settle_readings == 1 and tr.lexicon is words
    stills = make_tracker(EMPTY, "german", stills=True)
    assert stills.wants_every_frame and stills.config.commit == "clock" and stills.lexicon is None
    assert [e.kind for e in stills.feed(Reading.from_rows(EMPTY), 0.0)] == ["pass"]   # each still is a turn
    assert tr.board.rows() == CAT
    events = tr.feed(Reading.from_rows(rows_with(("8K", "S"), base=CAT)), 0.0)
    assert events[0].kind == "play" and events[0].placement == Placement.from_gcg("8H", "...S")
    assert tr.external("exchange", 1.0, player=1, count=3)[0].kind == "exchange"
    with pytest.raises(TrackerError):
        TrackerConfig(commit="sometimes")


def test_many_unsure_squares_count_as_a_hand_the_reader_did_not_flag():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=2))
    half = rows_with(("8H", "CA"))
    shadowed = Reading.from_rows(half, uncertain={(6 + i // 4, 5 + i % 4): [(".", 0.4), ("A", 0.3)] for i in range(8)})
    assert run(tr, [shadowed] * 4) == [] and tr.status.startswith("occluded")
    assert [str(e) for e in run(tr, [Reading.from_rows(CAT)] * 2)] == ["play 8H CAT"]


def test_stills_take_an_occluded_square_as_unchanged():
    tr = MoveTracker("english", config=TrackerConfig.for_stills())
    tr.clock(0.0)
    glare = Reading.from_rows(rows_with(("8H", "CAT")), occluded=[(0, 0), (14, 14)])
    assert [str(e) for e in tr.feed(glare, 0.0)] == ["play 8H CAT"]


def test_photos_that_read_a_committed_tile_bare_twice_take_it_out_and_the_game_goes_on():
    """The Romanian stills of game 3 (a model that never saw the board): a bare square beside a play read as a blank
    and committed with it; every later photo then missed a tile there beside the new ones, and the game stalled with
    9 moves to go. Two photos in a row that read it bare take it out (a "correct" to "."), and the plays since are
    found. On live video a tile read bare is waited for (lifted and held, or slid aside), however long — until the
    players go on past it (below)."""
    tr = MoveTracker("english", config=TrackerConfig.for_stills())
    photos = [rows_with(("8G", "?CAT")),                                  # G8 bare, read as a blank
              rows_with(("8G", "?CAT"), ("I8", ".X")),
              rows_with(("8H", "CAT"), ("I8", ".X"), ("H8", ".O")),        # G8 bare beside the new O: waited for
              rows_with(("8H", "CATS"), ("I8", ".X"), ("H8", ".O"))]
    events = [[str(e) for e in tr.feed(Reading.from_rows(rows), float(t))] for t, rows in enumerate(photos)]
    assert events[:3] == [["play 8G ?CAT"], ["play I8 .X"], []]
    assert events[3][0] == "correct G8 to bare" and sorted(events[3][1:]) == ["play 8H ...S", "play 9H O."]
    assert tr.board.rows() == photos[3]
    from tilecam.engine.rules import Rules
    from tilecam.vision.moves.replay import GameRecorder

    recorder = GameRecorder(["Ann", "Bob"], Rules(max_scoreless_turns=None))      # the game the events make
    tr2 = MoveTracker("english", config=TrackerConfig.for_stills())
    for t, rows in enumerate(photos):
        for e in tr2.feed(Reading.from_rows(rows), float(t)):
            assert recorder.apply(e), recorder.problems
    assert [(m.position, m.word) for m in recorder.game.history] == [("8H", "CAT"), ("I8", ".X"), ("8H", "...S"),
                                                                     ("9H", "O.")]
    live = MoveTracker("english", board_rows=CAT, config=TrackerConfig(settle_readings=1))
    lifted = rows_with(("8H", "CA"))
    assert all(live.feed(Reading.from_rows(lifted), float(t)) == [] for t in range(6)) and live.board.rows() == CAT


def test_on_video_a_committed_tile_read_bare_is_taken_out_once_the_players_go_on_past_it():
    """Seed 25703 at 45 degrees: the bare square beyond FLABS's S read surely as an S and committed as FLABSS; a
    whole read two plays later showed it bare, and "tiles missing" stalled the rest of the game. A tile read bare is
    waited for (it may be lifted and held); once more tiles went down since, away from it, it was never there: a
    "correct" to bare, and the plays since are decided."""
    live = MoveTracker("english", board_rows=CAT, config=TrackerConfig(settle_readings=1))
    phantom = rows_with(("K8", "S"), base=CAT)                  # K8 bare, read as an S
    ox = rows_with(("H9", "OX"), base=phantom)
    assert [str(e) for e in live.feed(Reading.from_rows(phantom), 0.0)] == ["play 8H ...S"]
    assert [str(e) for e in live.feed(Reading.from_rows(ox), 1.0)] == ["play H8 .OX"]
    bare = rows_with(("H9", "OX"), ("10F", "AA"), base=CAT)     # K8 read bare now, and AA before the X
    assert all(live.feed(Reading.from_rows(bare), 2.0 + t) == [] for t in range(3))
    assert live.status.startswith("disturbed") and live.board[7, 10] is not None
    then = rows_with(("I9", "E"), base=bare)                   # an E beside the X: the players went on
    events = [str(e) for e in live.feed(Reading.from_rows(then), 6.0)]
    assert events[0] == "correct K8 to bare" and len(events) == 3 and all(e.startswith("play") for e in events[1:])
    assert live.board.rows() == then
    # beside a new tile it may be a tile slid a square aside: still waited for
    slid = MoveTracker("english", board_rows=CAT, config=TrackerConfig(settle_readings=1))
    slid.feed(Reading.from_rows(phantom), 0.0)
    slid.feed(Reading.from_rows(ox), 1.0)
    beside = rows_with(("H9", "OX"), ("L8", "S"), base=CAT)
    assert all(slid.feed(Reading.from_rows(rows), float(t)) == []
               for t, rows in enumerate([beside, beside, rows_with(("10F", "AA"), base=beside)], 2))


def test_a_tile_swapped_in_place_under_a_hand_is_looked_at_again():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=2))
    run(tr, [Reading.from_rows(CAT)] * 2)
    phony = rows_with(("H9", "X"), base=CAT)           # CX
    assert [str(e) for e in run(tr, [Reading.from_rows(phony)] * 2)] == ["play H8 .X"]
    tr.sync(CAT)                                        # refused (or undone) by the players
    assert run(tr, [Reading.from_rows(phony)] * 3) == []
    swapped = rows_with(("H9", "O"), base=CAT)         # the X swapped for an O, same square, under a hand
    events = run(tr, [hand_over(phony), Reading.from_rows(swapped), Reading.from_rows(swapped)])
    assert [str(e) for e in events] == ["play H8 .O"]


def test_a_play_read_short_is_amended_and_the_recorder_replays_it_for_the_same_player():
    from tilecam.engine.rules import Rules
    from tilecam.vision.moves.replay import GameRecorder

    tr = MoveTracker("english", lexicon=Lexicon.load(), config=TrackerConfig(settle_readings=1))
    recorder = GameRecorder(["Ann", "Bob"], Rules(max_scoreless_turns=None))
    seen = []
    for rows in (rows_with(("8D", "DJINN")), rows_with(("8D", "DJINN"), ("I7", "WITHY")),
                 rows_with(("8D", "DJINN"), ("I7", "WITHY"), ("J2", "CRIEVE")),        # its S read as empty
                 rows_with(("8D", "DJINN"), ("I7", "WITHY"), ("J1", "SCRIEVE"), ("1H", "MA.TERLY"))):
        for event in run(tr, [hand_over(rows), Reading.from_rows(rows)]):
            seen.append(str(event))
            assert recorder.apply(event), recorder.problems
    assert seen[-2:] == ["amend the last play to J1 SCRIEVE", "play 1H MA.TERLY"]
    history = recorder.game.history
    assert [(m.player, m.position, m.word) for m in history if m.kind == "play"] == [
        (0, "8D", "DJINN"), (1, "I7", "WITHY"), (0, "J1", "SCRIEVE"), (1, "1H", "MA.TERLY")]


def test_a_tile_misread_when_committed_is_corrected_once_later_boards_show_it_clearly():
    from tilecam.engine.game import Game
    from tilecam.engine.rules import Rules
    from tilecam.vision.moves.replay import GameRecorder

    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    recorder = GameRecorder(["Ann", "Bob"], Rules(max_scoreless_turns=None))
    boards = [rows_with(("8G", "CAT")), rows_with(("8G", "CAT"), ("G9", "OX")),
              rows_with(("8G", "CAT"), ("G9", "OX"), ("10F", "A.E"))]
    # CAT was committed as CZT (the A read doubtfully as Z); on the boards after it the A reads clearly
    first = Reading.from_rows(rows_with(("8G", "CZT")), uncertain={(7, 7): [("Z", 0.6), ("A", 0.4)]})
    seen = []
    for reading in [first] + [Reading.from_rows(rows) for rows in boards[1:] + boards[-1:]]:
        for event in run(tr, [hand_over(list(reading.grid)), reading]):
            seen.append(str(event))
            assert recorder.apply(event), recorder.problems
    # CZT was still the last play on the next board, so the clear A's count from the one after
    assert seen == ["play 8G CZT", "play G8 .OX", "play 10F A.E", "correct H8 to A"]
    assert tr.board.rows() == boards[-1]
    truth = Game(["Ann", "Bob"], Rules(max_scoreless_turns=None))
    for coord, word in (("8G", "CAT"), ("G8", ".OX"), ("10F", "A.E")):
        truth.play(Placement.from_gcg(coord, word))
    assert [(m.position, m.word, m.score) for m in recorder.game.history] == \
        [(m.position, m.word, m.score) for m in truth.history]
    assert recorder.game.scores == truth.scores


def test_a_letter_committed_as_a_blank_is_corrected_when_later_boards_show_its_letter():
    from tilecam.engine.rules import Rules
    from tilecam.vision.moves.replay import GameRecorder

    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    recorder = GameRecorder(["Ann", "Bob"], Rules(max_scoreless_turns=None))
    # CAT's A read as a bare (blank) tile when committed; the players named it A
    seen = run(tr, [hand_over(CAT), Reading.from_rows(rows_with(("8H", "C?T")))])
    assert [str(e) for e in seen] == ["play 8H C?T"] and seen[0].pending_blanks
    assert recorder.apply(seen[0])
    from tilecam.engine.board import Tile

    recorder.game.board[7, 8] = Tile("A", True)          # as the web's answer sets it
    tr.set_named_blank(7, 8, "A")
    assert tr.board[7, 8].is_blank
    boards = [rows_with(("8H", "CAT"), ("J9", "AX")), rows_with(("8H", "CAT"), ("J9", "AX"), ("K10", "I"))]
    for rows in boards + boards[-1:]:
        for event in run(tr, [hand_over(rows), Reading.from_rows(rows)]):
            seen.append(event)
            recorder.apply(event)
    assert [str(e) for e in seen][1:] == ["play J8 .AX", "play 10J .I", "correct I8 to A"]
    assert "a blank" in seen[-1].note
    assert not tr.board[7, 8].is_blank and tr.board.rows() == boards[-1]
    cat = recorder.game.history[0]
    assert cat.word == "CAT" and cat.score == 10          # the A counts its point now (a blank: 8)


def test_a_letter_the_model_hardly_believed_is_corrected_by_the_next_clear_board_before_the_next_play():
    tr = MoveTracker("english", board_rows=rows_with(("8H", "CA")), config=TrackerConfig(settle_readings=1))
    # TAX down from the A's right, its T read as V at 0.2 (no better letter): committed as VAX
    cav = Reading.from_rows(rows_with(("8H", "CAT"), ("J9", "AX")), uncertain={(7, 9): [("V", 0.2), ("Y", 0.08)]})
    assert [str(e) for e in run(tr, [hand_over(list(cav.grid)), cav])] == ["play J8 VAX"]
    # the next board reads the T clearly once: corrected at once, though it is the last play's, before the next play
    later = rows_with(("8H", "CAT"), ("J9", "AX"), ("K10", "I"))
    assert [str(e) for e in run(tr, [hand_over(later), Reading.from_rows(later)])] == ["correct J8 to T", "play 10J .I"]
    assert tr.board.rows() == later


def test_a_letter_read_differently_once_or_in_the_last_play_is_not_corrected():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    run(tr, [hand_over(CAT), Reading.from_rows(CAT)])
    cot = rows_with(("8H", "COT"))
    assert run(tr, [hand_over(cot), Reading.from_rows(cot)] * 3) == []      # the last play: interpret's business
    run(tr, [hand_over(CAT), Reading.from_rows(rows_with(("8H", "CAT"), ("J9", "AX")))])
    once = rows_with(("8H", "COT"), ("J9", "AX"))
    assert run(tr, [hand_over(once), Reading.from_rows(once)]) == []       # once is not enough
    assert tr.board.rows() == rows_with(("8H", "CAT"), ("J9", "AX"))


def test_a_sync_restarts_the_count_of_a_letter_read_differently():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    cat_ax = rows_with(("8H", "CAT"), ("J9", "AX"))
    run(tr, [hand_over(CAT), Reading.from_rows(CAT), hand_over(cat_ax), Reading.from_rows(cat_ax)])
    cot_ax = rows_with(("8H", "COT"), ("J9", "AX"))
    assert run(tr, [hand_over(cot_ax), Reading.from_rows(cot_ax)]) == []          # once: counted
    tr.sync(rows_with(("8H", "CAT"), ("J9", "AX"), ("K10", "I")))                  # the players changed the game
    after = rows_with(("8H", "COT"), ("J9", "AX"), ("K10", "I"))
    assert run(tr, [hand_over(after), Reading.from_rows(after)]) == []             # counted afresh: once again
    assert [str(e) for e in run(tr, [hand_over(after), Reading.from_rows(after)])] == ["correct I8 to O"]


def test_a_play_made_as_a_tile_is_corrected_is_judged_with_the_corrected_letter():
    lex = Lexicon.from_words(["CAT", "COX", "AXE", "ATE", "OT"])
    tr = MoveTracker("english", lexicon=lex, config=TrackerConfig(settle_readings=1))
    boards = [rows_with(("8G", "CZT")),                                    # the A misread clearly as Z
              rows_with(("8G", "CAT"), ("G9", "OX")),
              rows_with(("8G", "CAT"), ("G9", "OX"), ("10F", "A.E")),
              rows_with(("8G", "CAT"), ("G9", "OX"), ("10F", "A.E"), ("H9", "T"))]   # ATE down through it
    seen = []
    for rows in boards:
        seen += run(tr, [hand_over(rows), Reading.from_rows(rows)])
    assert [str(e) for e in seen][-2:] == ["correct H8 to A", "play H8 .T."]
    assert seen[-1].phony == ()          # judged as ATE / OT, not ZTE


def test_a_bare_square_read_as_a_blank_beside_a_play_stays_empty_on_later_boards():
    lex = Lexicon.from_words(["CAT", "AT", "TA", "TE"])
    tr = MoveTracker("english", lexicon=lex, config=TrackerConfig(settle_readings=2))
    # CAT with a "blank" just before it (a white square beside the C): no letter makes a word there
    doubtful = {(7, 6): [("?", 0.90), (".", 0.07)]}
    board = Reading.from_rows(rows_with(("8G", "?CAT")), uncertain=doubtful)
    assert [str(e) for e in run(tr, [board] * 2)] == ["play 8H CAT"]
    # The next play (E down from the T) comes with the same "blank": it is the same bare square, not a tile.
    later = rows_with(("8G", "?CAT"), ("J9", "E"))
    events = run(tr, [Reading.from_rows(later, uncertain=doubtful)] * 2, t0=5)
    assert [str(e) for e in events] == ["play J8 .E"]
    assert tr.board[7, 6] is None
    # A real tile put there later is read afresh: a letter is taken.
    scat = rows_with(("8G", "SCAT"), ("J9", "E"))
    events = run(tr, [hand_over(scat)] + [Reading.from_rows(scat)] * 2, t0=10)
    assert [str(e) for e in events] == ["play 8G S... (phony? SCAT)"]


def test_a_committed_tile_read_as_a_letter_the_set_has_no_more_of_is_not_corrected_to_it():
    tr = MoveTracker("english", config=TrackerConfig(settle_readings=1))
    plays = (("8G", "JOT"), ("H9", "X"), ("10H", "U"))
    boards = [rows_with(*plays[:k]) for k in (1, 2, 3)]
    events = run(tr, [r for rows in boards for r in (hand_over(rows), Reading.from_rows(rows))])
    assert [e.kind for e in events] == ["play"] * 3
    # later boards read the X (no longer the last play's) clearly as J: the set's one J lies at G8, so that reading
    # is the misread one, and the game would refuse the correction
    as_j = Reading.from_rows(rows_with(plays[0], ("H9", "J"), plays[2]))
    assert [str(e) for e in run(tr, [hand_over(list(as_j.grid)), as_j] * 4)] == []
    assert tr.board.rows() == boards[-1]
    # read as K as clearly, as often (each a board settled anew), it is corrected: the set has a K to spare
    as_k = Reading.from_rows(rows_with(plays[0], ("H9", "K"), plays[2]))
    assert [str(e) for e in run(tr, [hand_over(list(as_k.grid)), as_k] * 2)] == ["correct H9 to K"]


def test_a_blank_read_surely_bare_is_found_once_the_players_go_on_past_the_unclear_board():
    lex = Lexicon.from_words(["CAT", "ARC", "TO", "CATS"])
    bare = rows_with(("H6", "A"), base=CAT)      # ARC down column H, its blank R (H7) read as the bare board
    tr = MoveTracker("english", lexicon=lex, board_rows=CAT, config=TrackerConfig(settle_readings=2))
    # a gap may be a play not finished yet: the board waits, however long it stays so
    assert run(tr, [Reading.from_rows(bare)] * 6) == []
    assert tr.status.startswith("unclear")
    # the next player lays TO through the T: the first play was finished, its gap a blank read bare
    went_on = rows_with(("J9", "O"), base=bare)
    events = run(tr, [Reading.from_rows(went_on)] * 2, t0=1.0)
    assert [str(e) for e in events] == ["play H6 Ar.", "play J8 .O"]
    assert tr.board[6, 7].is_blank and tr.board[6, 7].letter == "R"
    # the blank reads bare on every board after: it is no tile gone missing, and the game goes on
    cats = rows_with(("K8", "S"), base=went_on)
    events = run(tr, [Reading.from_rows(cats)] * 2, t0=2.0)
    assert [str(e) for e in events] == ["play 8H ...S"] and tr.board[6, 7].is_blank


def test_two_plays_left_unclear_by_their_blanks_are_decided_first_when_a_third_goes_down():
    """Two players' words down in one change (no settled frame between them, as a steep camera's few frames gave),
    each with its blank read as the bare board: the board is unclear, the players go on, and the third play makes
    more plays than one change holds. The board they went on past is decided first, then the third play on it
    (seed 20603, steep camera: the rest of the game was lost before)."""
    lex = Lexicon.from_words(["CAT", "ARC", "TOE", "CATS"])
    # ARC down column H (its blank r at H7 read bare) and TOE down column J (its blank o at J9 read bare)
    both = rows_with(("H6", "A"), ("J10", "E"), base=CAT)
    tr = MoveTracker("english", lexicon=lex, board_rows=CAT, config=TrackerConfig(settle_readings=2))
    assert run(tr, [Reading.from_rows(both)] * 4) == []
    assert tr.status.startswith("unclear")
    third = rows_with(("K8", "S"), base=both)
    events = run(tr, [Reading.from_rows(third)] * 2, t0=1.0)
    assert [str(e) for e in events] == ["play H6 Ar.", "play J8 .oE", "play 8H ...S"]
    assert all("went on past" in e.note for e in events)
    assert tr.board[6, 7].is_blank and tr.board[8, 9].is_blank


def test_a_tile_put_in_a_gap_after_a_pause_is_the_word_still_going_down_not_the_players_going_on():
    """MASTERLY through the S of SCRIEVE, laid with pauses (seed 24100, josh): A, T, R and Y first — two gaps, the
    board unclear —, then the E into one of them. Taken as the players going on past the board, its other gap was
    filled with a letter read bare that the words chose (ASTERIY's I here, ASTERIA's there), and the rest of the word
    then came as the next player's play. A tile in a gap of the unclear word is that word still going down: the board
    waits, and MASTERLY is one play."""
    lex = Lexicon.from_words(["SCRIEVE", "MASTERLY", "ASTERIY"])
    base = rows_with(("J1", "SCRIEVE"))
    tr = MoveTracker("english", lexicon=lex, board_rows=base, config=TrackerConfig(settle_readings=2))
    first = rows_with(("I1", "A"), ("K1", "T"), ("M1", "R"), ("O1", "Y"), base=base)
    assert run(tr, [Reading.from_rows(first)] * 3) == [] and tr.status.startswith("unclear")
    gap_filled = rows_with(("L1", "E"), base=first)
    assert run(tr, [Reading.from_rows(gap_filled)] * 3, t0=1.0) == [] and tr.status.startswith("unclear")
    whole = rows_with(("1H", "MA.TERLY"), base=base)
    events = run(tr, [Reading.from_rows(whole)] * 2, t0=2.0)
    assert [str(e) for e in events] == ["play 1H MA.TERLY"]


def test_a_letter_read_surely_bare_is_found_once_the_players_go_on_and_kept_after():
    """As the blank above, with no blank left: the R of ARC read bare beyond doubt (a shadow over it as its play
    settled) is found by its words once the next play is down, and it reads bare on every board after."""
    lex = Lexicon.from_words(["CAT", "ARC", "TO", "CATS", "AB"])
    base = rows_with(("D4", "ab"), base=CAT)                    # both blanks down
    bare = rows_with(("H6", "A"), base=base)
    tr = MoveTracker("english", lexicon=lex, board_rows=base, config=TrackerConfig(settle_readings=2))
    def seen(rows: list[str]) -> Reading:      # a blank reads as an unprinted tile
        return Reading.from_rows(["".join("?" if ch.islower() else ch for ch in row) for row in rows])

    assert run(tr, [seen(bare)] * 4) == [] and tr.status.startswith("unclear")
    went_on = rows_with(("J9", "O"), base=bare)
    events = run(tr, [seen(went_on)] * 2, t0=1.0)
    assert [str(e) for e in events] == ["play H6 AR.", "play J8 .O"]
    assert tr.board[6, 7].letter == "R" and not tr.board[6, 7].is_blank
    events = run(tr, [seen(rows_with(("K8", "S"), base=went_on))] * 2, t0=2.0)
    assert [str(e) for e in events] == ["play 8H ...S"] and tr.board[6, 7].letter == "R"


def test_a_stray_read_on_and_off_does_not_hide_the_players_going_on():
    """Glare reads an edge square as a tile in one frame and another in the next: those strays (no play can reach
    them, ``moves.reach``) are no tiles taken away, so the blank read bare is still found once the next play is down."""
    lex = Lexicon.from_words(["CAT", "ARC", "TO", "CATS"])
    bare = rows_with(("H6", "A"), base=CAT)
    tr = MoveTracker("english", lexicon=lex, board_rows=CAT, config=TrackerConfig(settle_readings=2))
    assert run(tr, [Reading.from_rows(rows_with(("1A", "?"), base=bare))] * 2) == []
    went_on = rows_with(("J9", "O"), ("15A", "O"), base=bare)      # and a coin by the corner, read as an O
    events = run(tr, [Reading.from_rows(went_on)] * 2, t0=1.0)
    assert [str(e) for e in events] == ["play H6 Ar.", "play J8 .O"]
    assert "where no play can reach" in tr.status and tr.stats.unreachable >= 1
    # the coin still lies there: left out at once, no wait for another play
    events = run(tr, [Reading.from_rows(rows_with(("K8", "S"), base=went_on))] * 2, t0=2.0)
    assert [str(e) for e in events] == ["play 8H ...S"]


def test_a_clock_press_says_a_play_with_a_gap_is_finished():
    lex = Lexicon.from_words(["CAT", "ARC"])
    bare = rows_with(("H6", "A"), base=CAT)
    tr = MoveTracker("english", lexicon=lex, board_rows=CAT, config=TrackerConfig(settle_readings=1, commit="clock"))
    assert run(tr, [Reading.from_rows(bare)] * 2) == []
    tr.clock(1.0, player=1)
    events = tr.feed(Reading.from_rows(bare), 1.1)
    assert [(str(e), e.player) for e in events] == [("play H6 Ar.", 1)]


def test_tiles_lifted_from_an_unclear_board_are_not_the_players_going_on():
    lex = Lexicon.from_words(["CAT", "ARC", "TO", "ARCTO"])
    tr = MoveTracker("english", lexicon=lex, board_rows=CAT, config=TrackerConfig(settle_readings=1))
    two = rows_with(("H6", "A"), ("J9", "O"), base=CAT)       # A with a gap, and O below the T
    one = rows_with(("H6", "A"), base=CAT)
    # the O taken away again: the new squares shrank, nobody went on past the board with the gap
    assert run(tr, [Reading.from_rows(two), Reading.from_rows(one), Reading.from_rows(one)]) == []
    assert tr.status.startswith("unclear")


@pytest.mark.parametrize("words, amended, pending", [(["FA", "FIQH"], "8G FiQH", ()),
                                                     (["FA"], "8G F?QH", ((7, 7),))])
def test_a_blank_named_from_a_play_read_short_is_named_again_from_the_whole_play(words, amended, pending):
    """FiQH paused after its F and blank (seed 25505, whitley): the short play F? was named Fa, FA being the one word
    of the list it makes; the amendment kept that name, FaQH. The whole play's words name it again: i where FIQH is
    a word of the list, else no letter fits and the players are asked."""
    from tilecam.engine.board import Tile
    from tilecam.vision.moves.interpret import Interpretation
    from tilecam.vision.moves.resolve import Candidate

    tr = MoveTracker("english", lexicon=Lexicon.from_words(words), config=TrackerConfig(settle_readings=1))
    short = [str(e) for e in tr.feed(Reading.from_rows(rows_with(("8G", "F?"))), 0.0)]
    assert short == ["play 8G Fa"]
    before = tr.board.copy()
    before[7, 6] = before[7, 7] = None
    whole = Placement.from_squares(before, [(7, 6, Tile("F")), (7, 7, Tile("A", True)), (7, 8, Tile("Q")),
                                            (7, 9, Tile("H"))])
    event = tr._amend(Interpretation("amend", amended=Candidate(whole, ("FAQH",)), withdrawn=tr.last_play), 1.0)
    assert str(event) == f"amend the last play to {amended}" and event.pending_blanks == pending


def test_a_blank_the_players_named_is_not_named_again_when_its_play_is_amended():
    from tilecam.engine.board import Tile
    from tilecam.vision.moves.interpret import Interpretation
    from tilecam.vision.moves.resolve import Candidate

    tr = MoveTracker("english", lexicon=Lexicon.from_words(["FA", "FIQH"]), config=TrackerConfig(settle_readings=1))
    tr.feed(Reading.from_rows(rows_with(("8G", "F?"))), 0.0)
    tr.set_named_blank(7, 7, "e")                               # the players' answer, whatever the words say
    before = tr.board.copy()
    before[7, 6] = before[7, 7] = None
    whole = Placement.from_squares(before, [(7, 6, Tile("F")), (7, 7, Tile("E", True)), (7, 8, Tile("Q")),
                                            (7, 9, Tile("H"))])
    event = tr._amend(Interpretation("amend", amended=Candidate(whole, ("FEQH",)), withdrawn=tr.last_play), 1.0)
    assert str(event) == "amend the last play to 8G FeQH"
