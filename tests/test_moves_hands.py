"""A pause mid-word without a clock: the side of the board a hand reaches in from tells one player going on from the
next player's turn (``vision/moves/hands.py``, ``Weights.hand_side_odds``)."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.engine.lexicon import Lexicon
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.hands import SEAT_PLAYS, SIDES, HandSides, entry_side, touched_edges
from tilecam.vision.moves.interpret import interpret
from tilecam.vision.moves.reading import Reading
from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig

from boards import committed, rows_with

EN = TileSet.load("english")
LEX = Lexicon.from_words(["CAT", "CATS", "AT"])


def arm(side: str, to: tuple[int, int], n: int = 15) -> list[tuple[int, int]]:
    """The squares an arm from ``side`` covers on its way to the square ``to`` (one square wide)."""
    r, c = to
    return {"bottom": [(k, c) for k in range(r, n)], "top": [(k, c) for k in range(r + 1)],
            "left": [(r, k) for k in range(c + 1)], "right": [(r, k) for k in range(c, n)]}[side]


def mask(squares, n: int = 15) -> np.ndarray:
    m = np.zeros((n, n), bool)
    for s in squares:
        m[s] = True
    return m


@pytest.mark.parametrize("side, to", [("bottom", (7, 7)), ("top", (13, 7)), ("left", (7, 12)), ("right", (2, 3)),
                                      ("top", (4, 14)), ("right", (14, 4))])
def test_an_arm_is_told_to_come_from_the_edge_farther_from_its_hand(side, to):
    # ("top", (4, 14)): down the right edge from the top; ("right", (14, 4)): along the bottom edge from the right
    hands = HandSides()
    hands.note(mask(arm(side, to)))
    assert SIDES[hands.side([to])] == side


def test_a_hand_in_a_corner_or_touching_no_edge_tells_nothing():
    assert entry_side(touched_edges(mask([(14, 14), (14, 13), (13, 14)])), (14.0, 14.0), 15) is None
    assert entry_side(touched_edges(mask([(6, 6), (7, 7)])), (7.0, 7.0), 15) is None
    hands = HandSides()
    assert hands.side([(7, 7)]) is None                  # no hand seen
    hands.note(mask(arm("bottom", (7, 7))))
    assert hands.side([]) is None                        # nothing put down
    hands.note(mask(arm("top", (7, 7))))
    assert hands.side([(7, 7)]) is None                  # one frame each way: a tie
    hands.note(mask(arm("top", (6, 7))))
    assert SIDES[hands.side([(7, 7)])] == "top"
    hands.forget()
    assert hands.side([(7, 7)]) is None


def test_two_plays_arms_are_each_judged_by_the_tiles_they_put_down():
    """A word laid at the top of column N by an arm reaching up from the bottom edge (the arm spans the board), and a
    word along row 14 by an arm from the top: judged by the middle of all new tiles (row 8.5) the long arm would have
    come from the top as well, and the change would be one player's; judged by the tiles under it, two sides."""
    sides = HandSides()
    up = np.zeros((15, 15), bool)
    up[:, 13] = True                                  # bottom edge to row 1, over column N
    down = np.zeros((15, 15), bool)
    down[:14, 3] = True                               # top edge down to row 14, over column D
    for _ in range(5):
        sides.note(up)
        sides.note(down)
    new = [(0, 13), (1, 13), (2, 13), (13, 1), (13, 2), (13, 3), (13, 4), (13, 5)]
    assert dict(sides.votes(new)) == {0: 5, 1: 5} and not sides.one_side(new)


def test_where_the_players_sit_an_arm_from_a_side_nobody_sits_at_or_a_corner_is_told_by_the_seats():
    """Players at the bottom and the top: an arm to row 2 by the right edge that crosses the right edge (beside the
    top player's seat) does not outvote one from the top, and a hand in the top right corner is the top player's;
    before the seats are known the same arms tell nothing."""
    hands = HandSides()
    hands.note(mask(arm("right", (1, 12))))
    hands.note(mask(arm("top", (1, 12))))
    corner = mask([(0, 13), (0, 14), (1, 13), (1, 14)])        # top and right edges, a hand at N2 as far from both
    assert hands.side([(1, 12)]) is None                        # a tie
    assert entry_side(touched_edges(corner), (1.0, 13.0), 15) is None
    for seat in ("bottom", "top") * SEAT_PLAYS:
        hands.seated(SIDES.index(seat))
    assert SIDES[hands.side([(1, 12)])] == "top"
    hands.forget()                                               # the seats are kept from change to change
    hands.note(corner)
    assert SIDES[hands.side([(1, 13)])] == "top" and hands.one_side([(1, 13)])


def test_an_arm_by_a_corner_told_from_where_nobody_sits_came_in_across_the_seats_edge_it_touched():
    """YAK along the top edge row by the top left corner, YA then its K after a pause: the small arm over YA touches the
    top and the left edge, its hand farther from the left (nobody sits there); the K's is in the corner. Both are the
    top player's, so the K goes on with YA; before the seats are known the first is told from the left."""
    ya = mask([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)])
    before = HandSides()
    before.note(ya)
    assert SIDES[before.side([(0, 1), (0, 2)])] == "left"
    hands = HandSides()
    for seat in ("bottom", "top") * SEAT_PLAYS:
        hands.seated(SIDES.index(seat))
    hands.note(ya)
    assert SIDES[hands.side([(0, 1), (0, 2)])] == "top"
    hands.forget()
    hands.note(mask([(0, 0), (0, 1)]))
    assert SIDES[hands.side([(0, 0)])] == "top"
    # an arm that touches no seat's edge is still told from where it came
    hands.forget()
    hands.note(mask(arm("left", (7, 3))))
    assert SIDES[hands.side([(7, 3)])] == "left"
    # what spans the board (here a change of light along every edge) is not given to the seat whose edge it touches
    one_seat = HandSides()
    for _ in range(SEAT_PLAYS):
        one_seat.seated(SIDES.index("bottom"))
    one_seat.note(mask([(r, c) for r in range(15) for c in range(15) if min(r, c, 14 - r, 14 - c) < 1]))
    assert one_seat.side([(8, 4)]) != SIDES.index("bottom")


def test_of_two_plays_in_one_change_the_later_ones_side_is_the_arm_over_its_tiles():
    """KNIFED down column C from the bottom, then the next player's G at G3 from the top, one change: judged by all
    frames the bottom wins (it covered more frames); the arm over G3 is the top's."""
    hands = HandSides()
    for row in range(2, 8):
        for _ in range(3):
            hands.note(mask(arm("bottom", (row, 2))))
    for _ in range(4):
        hands.note(mask(arm("top", (2, 6))))
    play = [(2, 6)]
    assert SIDES[hands.side([(r, 2) for r in range(2, 8)] + play)] == "bottom"
    assert SIDES[hands.side_of_play(play)] == "top"
    assert hands.side_of_play([(10, 10)]) is None               # no arm covered it


def test_an_arm_that_passed_over_a_plays_tiles_on_its_way_farther_in_did_not_put_them_down():
    """LIMP down column D from the top (the arm over row 0 on its way to rows 6-9), INSIDERS' first tiles along row
    0 by an arm from the bottom that spans the board, one change: the arms over INSID's squares that reach far beyond
    them are LIMP's; INSID's own is the bottom's."""
    hands = HandSides()
    for row in range(6, 10):
        for _ in range(4):       # wide: the hand over column 3, the forearm over columns 2-4 and row 0's squares
            hands.note(mask([(r, c) for r in range(row + 1) for c in (2, 3, 4)]))
    insid = [(0, c) for c in range(3, 7)]
    for c in range(3, 7):
        hands.note(mask(arm("bottom", (0, c))))
    assert SIDES[hands.side_of_play(insid)] == "bottom"
    assert SIDES[hands.side_of_play([(r, 3) for r in range(6, 10)])] == "top"
    # a play along the arm's way (a word down the column the hand reaches the end of) is the arm's
    down = HandSides()
    for row in range(3, 8):
        down.note(mask(arm("top", (row, 5))))
    assert SIDES[down.side_of_play([(r, 5) for r in range(3, 8)])] == "top"


def test_the_modules_examples_hold():
    import doctest

    from tilecam.vision.moves import decide, hands

    for module in (hands, decide):
        assert doctest.testmod(module).failed == 0


def test_an_extension_of_the_last_play_is_its_players_when_the_same_side_put_it_down():
    board, cat = committed(("8H", "CAT"))
    reading = Reading.from_rows(rows_with(("8H", "CATS")))
    same = interpret(board, reading, EN, LEX, last_play=cat, same_hand=True)
    assert same.kind == "amend" and str(same.amended.placement) == "8H CATS" and same.candidate is None
    assert same.note.startswith("its player went on after a pause")
    for hand in (False, None):              # another side, or a hand not seen: the next player's hook
        other = interpret(board, reading, EN, LEX, last_play=cat, same_hand=hand)
        assert other.kind == "play" and str(other.candidate.placement) == "8H ...S"


def test_a_tile_of_the_last_play_that_never_changed_in_pixels_is_no_hand_evidence():
    # CAT's T was there all along, read as an empty square (its pixels did not change); the S is new: the hand
    # seen put down only the S, so whose hand it was weighs nothing for the amendment
    board, ca = committed(("8H", "CA"))
    reading = Reading.from_rows(rows_with(("8H", "CATS")))
    seen_now = {(7, 10): 5.0}
    for hand in (True, False):
        result = interpret(board, reading, EN, LEX, last_play=ca, first_changed=seen_now, same_hand=hand)
        assert result.kind == "play"        # CA + T as before: the T is not put down now, so no amendment prior


def test_a_change_whose_arms_came_from_one_side_is_never_two_plays():
    # CAT down; then the S of CATS and OX down from the C: two plays, unless one player's arm put them all down —
    # then it is no move yet (one player's tiles that make no one play: the rest is still to come)
    board, cat = committed(("8H", "CAT"))
    reading = Reading.from_rows(rows_with(("8H", "CATS"), ("H9", "OX")))
    lex = Lexicon.from_words(["CAT", "CATS", "COX", "OX"])
    two = interpret(board, reading, EN, lex, last_play=cat)
    assert two.kind == "play" and len(two.earlier) == 1
    one = interpret(board, reading, EN, lex, last_play=cat, one_player=True)
    assert one.kind == "unclear"


def placed(tracker: MoveTracker, rows: list[str], side: str, to: tuple[int, int], t: float) -> list:
    """A hand from ``side`` puts the tiles of ``rows`` down (two covered frames), then the board is still."""
    events = []
    for k in range(2):
        events += tracker.feed(Reading.from_rows(rows, occluded=arm(side, to)), t + 0.1 * k)
    for k in range(3):
        events += tracker.feed(Reading.from_rows(rows), t + 0.2 + 0.1 * k)
    return [str(e) for e in events]


def test_a_pause_mid_word_is_one_play_and_the_next_players_hook_is_a_play():
    cats = rows_with(("8H", "CATS"))
    tr = MoveTracker("english", lexicon=LEX, config=TrackerConfig(settle_readings=3))
    assert placed(tr, rows_with(("8H", "CAT")), "bottom", (7, 8), 0.0) == ["play 8H CAT"]
    assert placed(tr, cats, "bottom", (7, 10), 5.0) == ["amend the last play to 8H CATS"]
    # the player across the board adds the S: a play of its own
    tr = MoveTracker("english", lexicon=LEX, config=TrackerConfig(settle_readings=3))
    placed(tr, rows_with(("8H", "CAT")), "bottom", (7, 8), 0.0)
    assert placed(tr, cats, "top", (7, 10), 5.0) == ["play 8H ...S"]
    # the same side after the other player passed: a turn went by, it is a play too
    tr = MoveTracker("english", lexicon=LEX, config=TrackerConfig(settle_readings=3))
    placed(tr, rows_with(("8H", "CAT")), "bottom", (7, 8), 0.0)
    tr.external("pass", 3.0)
    assert placed(tr, cats, "bottom", (7, 10), 5.0) == ["play 8H ...S"]


def test_a_tile_put_down_soon_after_a_play_with_no_hand_seen_is_its_player_going_on():
    """Frames too sparse to show a hand (seed 21900: FEA.E committed as FEA. and then ....E as the next player's):
    new tiles in the last play's line that first changed within a second of its commit are its player's; seconds
    later they are the next player's play, as before; after a pass, the next player's whatever the time."""
    cats = rows_with(("8H", "CATS"))

    def s_after(seconds: float, passed: bool = False) -> list[str]:
        tr = MoveTracker("english", lexicon=LEX, config=TrackerConfig(settle_readings=3))
        assert placed(tr, rows_with(("8H", "CAT")), "bottom", (7, 8), 0.0) == ["play 8H CAT"]   # committed at 0.4
        if passed:
            tr.external("pass", 0.45)
        # the frames' pixels show the S first changed then (a stream of readings has no pixels to say it)
        tr.first_changes.squares = lambda rotation=0: {(7, 10): 0.4 + seconds}
        return [str(e) for k in range(3) for e in tr.feed(Reading.from_rows(cats), 0.4 + seconds + 0.1 * k)]

    assert s_after(0.5) == ["amend the last play to 8H CATS"]
    assert s_after(3.0) == ["play 8H ...S"]
    assert s_after(0.5, passed=True) == ["play 8H ...S"]


def test_a_scripted_game_paused_mid_word_in_every_play_is_scored_as_played(shared_dir, monkeypatch):
    """Every play of a scripted game paused part-way (the simulated reader: arms from the players' sides): every
    placement right — the rest of a word put down in a corner of the board too, its side told by where the players
    sit; with the hands' sides not weighed, the parts that are words are committed as plays of their own."""
    from tilecam.firmware import bench_moves
    from tilecam.firmware.pipeline import recording_settings

    chosen = recording_settings()
    path = bench_moves.synthetic_records(1, chosen[1])[0]

    def right() -> tuple[int, int]:
        counts, _, _ = bench_moves.run_synthetic(path, 21203, "simulated", None, Lexicon.load(), game=chosen,
                                                 pauses=1.0)
        return counts["plays_right"], counts["plays"]

    with_sides = right()
    monkeypatch.setattr(HandSides, "side", lambda self, new: None)          # no side ever told
    monkeypatch.setattr(HandSides, "one_side", lambda self, new: False)
    without = right()
    assert with_sides == (20, 20)      # 14H .STASIAS: its AS put down by the bottom right corner, a seat's
    assert without == (10, 20)


def arm_polygon(side: str, row: int, col: int) -> list[tuple[float, float]]:
    """An arm (grid units: x a column, y a row) reaching from ``side`` of the board to the square (row, col)."""
    x, y = col + 0.5, row + 0.5
    if side == "bottom":
        return [(x - 0.6, 21.0), (x - 0.7, y), (x, y - 0.7), (x + 0.7, y), (x + 0.6, 21.0)]
    return [(x - 0.6, -6.0), (x - 0.7, y), (x, y + 0.7), (x + 0.7, y), (x + 0.6, -6.0)]


@pytest.mark.parametrize("second_side, events", [
    ("bottom", ["play 8H CAT", "amend the last play to 8H CATS"]),
    ("top", ["play 8H CAT", "play 8H ...S"]),
])
def test_the_capture_loop_tells_the_tracker_whose_arm_put_the_tiles_down(tracker, second_side, events):
    """Rendered frames through the device's capture loop: CAT put down from the bottom, the board still long enough
    to settle, then the S — from the bottom (its player went on) or from the top (the other player's hook). The
    still frames the tracker reads show no arm: the loop's motion tells it."""
    synth = pytest.importorskip("tilecam.models.synth")
    from tilecam.firmware.loop import CaptureLoop
    from tilecam.firmware.pipeline import ItemsSource

    scene = synth.sample_scene(np.random.default_rng(4242), "english")

    def frame(rows, hand=None):
        return np.asarray(synth.render_board(list(rows), seed=4242, scene=scene, hand=hand).image)

    tracker.lexicon = Lexicon.load()
    frames = [frame(rows_with())] * 6
    for k, col in enumerate((7, 8, 9)):
        before = rows_with(("8H", "CAT"[:k])) if k else rows_with()
        frames += [frame(before, arm_polygon("bottom", 7, col)),
                   frame(rows_with(("8H", "CAT"[:k + 1])), arm_polygon("bottom", 7, col))]
    frames += [frame(rows_with(("8H", "CAT")))] * 8
    frames += [frame(rows_with(("8H", "CAT")), arm_polygon(second_side, 7, 10)),
               frame(rows_with(("8H", "CATS")), arm_polygon(second_side, 7, 10))]
    frames += [frame(rows_with(("8H", "CATS")))] * 8
    seen: list[str] = []
    CaptureLoop(ItemsSource(frames), tracker, lambda got, _frame: seen.extend(str(e) for e in got)).run()
    assert seen == events


def test_a_hand_in_a_corner_came_from_the_side_its_arm_lies_towards():
    """EX's E in the top left corner, put down by the player on the right: the arm lies along the top rows nearly to
    the right edge (its last square not seen moving), touching the top and the left edge as far from the hand — the
    left player's seat by the corner rule alone."""
    hands = HandSides()
    for seat in ("left", "right") * SEAT_PLAYS:
        hands.seated(SIDES.index(seat))
    along_the_top = mask([(r, c) for r in range(2) for c in range(14)])
    hands.note(along_the_top)
    assert SIDES[hands.side([(0, 0)])] == "right"
    # a hand in the corner from over the near edge (the arm mostly off the board) is the seat's, as before
    hands.forget()
    hands.note(mask([(0, 0), (0, 1), (1, 0), (1, 1)]))
    assert SIDES[hands.side([(0, 0)])] == "left"


def test_the_arms_body_is_told_from_where_its_hand_is_over_the_play_not_from_the_plays_middle():
    """CTEE down the right edge (rows 3-6), its C put down by a hand from the right at row 3: the covered squares lie
    above the play's middle, but that is the hand, not an arm lying towards the top."""
    hands = HandSides()
    hands.note(mask([(r, c) for r in range(1, 4) for c in (13, 14)]))
    assert SIDES[hands.side([(r, 14) for r in range(2, 6)])] == "right"
