"""Change seen in pixels: light over the whole board changes no square, a tile changes its own; the tracker believes
a square anew only where its pixels changed, so a reader's doubt on a still square neither blocks nor moves."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tilecam.vision.moves.change import changed_squares, signature
from tilecam.vision.moves.reading import Reading
from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig
from tilecam.vision.warp import CELL_PX, MARGIN_PX, board_px

EMPTY = ["." * 15] * 15
CAT = EMPTY[:7] + [".......CAT....."] + EMPTY[8:]


def board_image(tiles=(), seed: int = 0) -> np.ndarray:
    """A rectified board: squares of a few colours with a little noise; ``tiles``: squares with a cream tile and a
    dark letter stroke on it."""
    rng = np.random.default_rng(seed)
    img = np.empty((board_px(), board_px(), 3), np.float32)
    img[:] = (60, 120, 70)
    for r in range(15):
        for c in range(15):
            y, x = MARGIN_PX + r * CELL_PX, MARGIN_PX + c * CELL_PX
            if (r + c) % 4 == 0:
                img[y:y + CELL_PX, x:x + CELL_PX] = (70, 70, 170)          # a premium square
            img[y:y + 1, x:x + CELL_PX] = img[y:y + CELL_PX, x:x + 1] = 200  # grid lines
    for r, c in tiles:
        y, x = MARGIN_PX + r * CELL_PX, MARGIN_PX + c * CELL_PX
        img[y + 2:y + CELL_PX - 2, x + 2:x + CELL_PX - 2] = (200, 225, 235)
        img[y + 8:y + 24, x + 12:x + 17] = (30, 30, 30)
    img += rng.normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def changed(a: np.ndarray, b: np.ndarray) -> list[tuple[int, int]]:
    return [tuple(map(int, rc)) for rc in np.argwhere(changed_squares(signature(a), signature(b)))]


def test_light_over_the_whole_board_changes_no_square():
    before = board_image([(7, 7), (7, 8)])
    lamp = np.clip(before * 0.55 + 4, 0, 255).astype(np.uint8)      # a lamp switched off (none driven to white)
    ramp = np.linspace(0.6, 1.3, board_px())[None, :, None]        # a broad shadow fading across the board
    shadow = np.clip(before * ramp, 0, 255).astype(np.uint8)
    assert changed(before, lamp) == [] and changed(before, shadow) == []
    assert changed(before, board_image([(7, 7), (7, 8)], seed=1)) == []        # camera noise


def test_a_tile_put_down_or_taken_away_changes_its_square_and_a_pixel_of_shift_does_not():
    before = board_image([(7, 7)])
    assert changed(before, board_image([(7, 7), (7, 8)])) == [(7, 8)]
    assert changed(before, board_image()) == [(7, 7)]
    assert changed(before, np.roll(before, 1, axis=1)) == []
    blank = before.copy()              # a bare tile the colour of its square: only its rim's shadow shows it
    y, x = MARGIN_PX + 3 * CELL_PX, MARGIN_PX + 3 * CELL_PX
    blank[y + 2:y + 30, x + 2:x + 4] = blank[y + 28:y + 30, x + 2:x + 30] = blank[y + 2, x + 2] * 0.6
    assert changed(before, blank) == [(3, 3)]


@dataclass
class Seen:
    """What the vision reader gives the tracker: a grid (with its confidences) and the rectified image."""

    grid: tuple[str, ...]
    confidence: np.ndarray
    occluded: np.ndarray
    warped: np.ndarray


def seen(rows, image, covered=()) -> Seen:
    reading = Reading.from_rows(rows, occluded=covered)
    return Seen(reading.grid, reading.confidence, reading.occluded, image)


def test_a_reader_doubting_a_few_bare_squares_does_not_keep_the_board_from_settling():
    """The empty board of the issue's videos: scattered bare squares read as covered, every frame; before pixels
    the board never settled and nothing was committed all game."""
    stray = [(2, 3), (11, 12), (13, 1)]
    frames = {0: seen(EMPTY, board_image(), stray), 1: seen(CAT, board_image([(7, 7), (7, 8), (7, 9)]), stray)}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0) == []
    assert [str(e) for e in tr.feed(np.ones((2, 2, 3), np.uint8), 1.0)] == ["play 8H CAT"]
    assert tr.stats.changed == [225, 3] and tr.stats.kept == 3


def _with_glare(image: np.ndarray) -> np.ndarray:
    """``image`` with a glare spot washing out a block of 4 x 5 squares (rows 2-5, columns 9-13)."""
    out = image.copy()
    out[MARGIN_PX + 2 * CELL_PX:MARGIN_PX + 6 * CELL_PX, MARGIN_PX + 9 * CELL_PX:MARGIN_PX + 14 * CELL_PX] = 250
    return out


GLARE = [(r, c) for r in range(2, 6) for c in range(9, 14)]


def test_a_glare_read_as_covered_from_the_first_frame_on_does_not_keep_the_board_from_ever_settling():
    """Issue 25's first symptom on a rendered game (seed 21800's first game, 0 of 20 plays): the empty board under a
    glare spot the reader reads as covered, 20 squares touching. Before the first settle every square is new, so the
    spot was a hand in every frame and the board never settled. A hand is what moves: the spot lies still."""
    tiles = [(7, 7), (7, 8), (7, 9)]
    frames = {0: seen(EMPTY, _with_glare(board_image()), GLARE),
              1: seen(EMPTY, _with_glare(board_image(seed=1)), GLARE),
              2: seen(CAT, _with_glare(board_image(tiles, seed=2)), GLARE)}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0) == [] and not tr.status.startswith("occluded")
    assert tr.feed(np.ones((2, 2, 3), np.uint8), 1.0) == [] and not tr.status.startswith("occluded")
    assert [str(e) for e in tr.feed(np.full((2, 2, 3), 2, np.uint8), 2.0)] == ["play 8H CAT"]


def test_a_hand_that_comes_over_the_board_before_it_first_settled_is_a_hand():
    """The same rule leaves a hand a hand: it was not there in the first frame (it moved), so it keeps the board
    unsettled while it stays, still or not, and the play under it is committed once it has gone."""
    tiles = [(7, 7), (7, 8), (7, 9)]
    hand = [(r, c) for r in range(6, 10) for c in range(6, 11)]
    over = board_image(tiles)
    over[MARGIN_PX + 6 * CELL_PX:MARGIN_PX + 10 * CELL_PX, MARGIN_PX + 6 * CELL_PX:MARGIN_PX + 11 * CELL_PX] = 20
    frames = {0: seen(EMPTY, board_image(), [(0, 0)]), 1: seen(EMPTY, over, hand), 2: seen(EMPTY, over, hand),
              3: seen(CAT, board_image(tiles, seed=3))}
    config = TrackerConfig(settle_readings=2)
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=config)
    assert tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0) == []
    for k in (1, 2):
        assert tr.feed(np.full((2, 2, 3), k, np.uint8), float(k)) == [] and tr.status.startswith("occluded")
    tr.feed(np.full((2, 2, 3), 3, np.uint8), 3.0)
    assert [str(e) for e in tr.feed(np.full((2, 2, 3), 3, np.uint8), 4.0)] == ["play 8H CAT"]


def test_a_hand_leaving_its_play_with_a_square_or_two_still_covered_beside_it_keeps_the_board_unsettled():
    """Seed 21904's YAK: the hand moving off its play, two squares still read covered over the K, fewer than a hand's
    count: they kept their belief (bare), the board settled, YA was committed and ..K then as the next player's play.
    Covered squares that changed since the last frame, beside a tile put down since the board settled, are the hand
    at the play, and the tracker asks the capture loop for the next frame."""
    cat = [(7, 7), (7, 8), (7, 9)]
    coat = cat + [(8, 7), (9, 7), (10, 7)]
    rows_coat = list(CAT)
    for r, ch in ((8, "O"), (9, "A"), (10, "T")):
        rows_coat[r] = rows_coat[r][:7] + ch + rows_coat[r][8:]
    leaving = list(rows_coat)
    for r in (10, 11):
        leaving[r] = leaving[r][:7] + "#" + leaving[r][8:]

    def with_hand(tiles, squares, skin):
        image = board_image(tiles)
        for r, c in squares:
            image[MARGIN_PX + r * CELL_PX:MARGIN_PX + (r + 1) * CELL_PX,
                  MARGIN_PX + c * CELL_PX:MARGIN_PX + (c + 1) * CELL_PX] = skin
        return image

    arm = [(r, c) for r in range(8, 12) for c in range(6, 9)]
    frames = {0: seen(CAT, board_image(cat)), 1: seen(CAT, with_hand(cat, arm, (90, 120, 180)), arm),
              2: seen(leaving, with_hand(coat, [(10, 7), (11, 7)], (60, 80, 120)), [(10, 7), (11, 7)]),
              3: seen(rows_coat, board_image(coat, seed=5))}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert [str(e) for e in tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0)] == ["play 8H CAT"]
    assert tr.feed(np.ones((2, 2, 3), np.uint8), 1.0) == [] and tr.status.startswith("occluded")
    assert not tr.wants_another_read                      # a hand by its count: the loop waits for stillness
    assert tr.feed(np.full((2, 2, 3), 2, np.uint8), 2.0) == [] and tr.status.startswith("occluded")
    assert tr.wants_another_read                          # the hand leaving its play: the next frame, please
    assert [str(e) for e in tr.feed(np.full((2, 2, 3), 3, np.uint8), 3.0)] == ["play H8 .OAT"]
    assert not tr.wants_another_read


def test_a_square_read_covered_beside_a_new_tile_that_lies_still_lets_the_board_settle_a_frame_later():
    """The same rule does not stall a game on a doubt: a square read covered beside the new tiles that does not change
    from one frame to the next (glare on the board) is no hand, and the board settles on the next frame."""
    cat = [(7, 7), (7, 8), (7, 9)]
    rows = list(CAT)
    rows[8] = rows[8][:7] + "O" + rows[8][8:]
    rows[9] = rows[9][:7] + "X" + rows[9][8:]
    glared = list(rows)
    glared[10] = glared[10][:7] + "#" + glared[10][8:]
    image = board_image(cat + [(8, 7), (9, 7)])
    image[MARGIN_PX + 10 * CELL_PX:MARGIN_PX + 11 * CELL_PX, MARGIN_PX + 7 * CELL_PX:MARGIN_PX + 8 * CELL_PX] = 250
    frames = {0: seen(CAT, board_image(cat)), 1: seen(glared, image, [(10, 7)]), 2: seen(glared, image, [(10, 7)])}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert [str(e) for e in tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0)] == ["play 8H CAT"]
    assert tr.feed(np.ones((2, 2, 3), np.uint8), 1.0) == [] and tr.wants_another_read
    assert [str(e) for e in tr.feed(np.full((2, 2, 3), 2, np.uint8), 2.0)] == ["play H8 .OX"]


def test_a_still_square_keeps_its_reading_and_a_hand_that_changed_the_pixels_keeps_the_board_unsettled():
    tiles = [(7, 7), (7, 8), (7, 9)]
    misread = CAT[:7] + [".......OAT....."] + CAT[8:]
    hand = [(r, c) for r in range(3, 6) for c in range(3, 6)]
    hand_image = board_image(tiles)
    hand_image[MARGIN_PX + 3 * CELL_PX:MARGIN_PX + 6 * CELL_PX, MARGIN_PX + 3 * CELL_PX:MARGIN_PX + 6 * CELL_PX] = 20
    frames = {0: seen(CAT, board_image(tiles)), 1: seen(misread, board_image(tiles, seed=2)),
              2: seen(CAT, hand_image, hand)}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert [str(e) for e in tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0)] == ["play 8H CAT"]
    assert tr.feed(np.ones((2, 2, 3), np.uint8), 1.0) == [] and tr.stats.changed[-1] == 0   # the C stays a C
    assert tr.feed(np.full((2, 2, 3), 2, np.uint8), 2.0) == [] and tr.status.startswith("occluded")
    assert tr.board.rows() == CAT


def test_a_hand_hovering_over_bare_squares_read_as_bare_keeps_a_play_in_progress_from_being_committed():
    """Rendered games split a play on the board's edge row in two (INDUCTEE as IN.U + CTEE): the hand hovered there
    still, one square of it read as covered, the others as the bare board. Squares whose pixels changed but that
    read bare as before join the covered one into a hand: no settle until it leaves. Without a covered square among
    them they are the light (or the board turned on the table)."""
    tiles = [(7, 7), (7, 8), (7, 9)]
    hovering = board_image(tiles)
    y, x = MARGIN_PX + 8 * CELL_PX, MARGIN_PX + 7 * CELL_PX
    hovering[y:y + 2 * CELL_PX, x:x + 3 * CELL_PX] = (150, 170, 210)          # a hand, no tile, under the word
    frames = {0: seen(EMPTY, board_image()), 1: seen(CAT, hovering, [(9, 8)]), 2: seen(CAT, board_image(tiles, seed=3)),
              3: seen(CAT, hovering)}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0) == []
    assert tr.feed(np.ones((2, 2, 3), np.uint8), 1.0) == [] and tr.status.startswith("occluded")
    assert [str(e) for e in tr.feed(np.full((2, 2, 3), 2, np.uint8), 2.0)] == ["play 8H CAT"]
    assert tr.feed(np.full((2, 2, 3), 3, np.uint8), 3.0) == [] and not tr.status.startswith("occluded")


def test_the_memory_wants_every_square_read_before_a_settle_and_then_only_the_changed_and_doubted_ones():
    from tilecam.vision.moves.belief import BoardMemory

    memory = BoardMemory()
    before = board_image([(7, 7), (7, 8), (7, 9)])
    assert memory.wanted(signature(before)).all()
    doubted = Reading.from_rows(CAT, uncertain={(0, 0): [(".", 0.6), ("?", 0.4)]})
    memory.settle(memory.look(doubted, before, Reading.from_rows(EMPTY)))
    after = board_image([(7, 7), (7, 8), (7, 9), (8, 7)])
    wanted = [tuple(map(int, rc)) for rc in np.argwhere(memory.wanted(signature(after)))]
    assert wanted == [(0, 0), (8, 7)]      # the doubted square and the new tile; the still ones are not read


def test_the_tracker_records_when_new_squares_first_changed_and_orders_two_plays_in_one_change_by_it():
    """The S of CATS put down while a hand is over the board, then OX down from the C, the hand still there: never
    settled in between, the two plays come in one change. The squares' first changes (none under the hand) say the
    S went down first, though the order taken when the frames do not tell puts the larger play (OX) first."""
    cat, ox, s = [(7, 7), (7, 8), (7, 9)], [(8, 7), (9, 7)], [(7, 10)]
    cats = CAT[:7] + [".......CATS...."] + CAT[8:]
    both = cats[:8] + [".......O......."] + [".......X......."] + cats[10:]
    hand = [(r, c) for r in range(3, 6) for c in range(3, 6)]

    def with_hand(tiles):
        image = board_image(tiles)
        image[MARGIN_PX + 3 * CELL_PX:MARGIN_PX + 6 * CELL_PX, MARGIN_PX + 3 * CELL_PX:MARGIN_PX + 6 * CELL_PX] = 20
        return image

    frames = {0: seen(CAT, board_image(cat)), 1: seen(cats, with_hand(cat + s), hand),
              2: seen(both, with_hand(cat + s + ox), hand), 3: seen(both, board_image(cat + s + ox, seed=4))}
    tr = MoveTracker("english", reader=lambda image: frames[int(image[0, 0, 0])], config=TrackerConfig(settle_readings=1))
    assert [str(e) for e in tr.feed(np.zeros((2, 2, 3), np.uint8), 0.0)] == ["play 8H CAT"]
    assert tr.first_changes.squares() == {}               # decided: the record starts again
    for k in (1, 2):
        assert tr.feed(np.full((2, 2, 3), k, np.uint8), float(k)) == [] and tr.status.startswith("occluded")
    assert tr.first_changes.squares() == {(7, 10): 1.0, (8, 7): 2.0, (9, 7): 2.0}    # the hand's squares: none
    events = tr.feed(np.full((2, 2, 3), 3, np.uint8), 3.0)
    assert [str(e) for e in events] == ["play 8H ...S", "play H8 .OX"]
    assert all("first seen" in e.note for e in events) and tr.first_changes.squares() == {}


def test_a_square_is_still_bare_while_its_picture_is_the_one_a_decided_board_read_bare():
    """``BareLooks``: a square's picture when a decided board read it bare. A tile put down there since changes it;
    a square that was a tile when decided (left out, a word still going down) has no bare look to be still; a tile
    put down elsewhere since (now committed) does not move the others' comparison; turned with the reader's turn."""
    from tilecam.vision.moves.belief import BareLooks

    looks = BareLooks()
    empty, cat = signature(board_image()), signature(board_image([(7, 7), (7, 8), (7, 9)], seed=1))
    looks.note(empty, np.ones((15, 15), bool), reader_turn=0)
    free = np.ones((15, 15), bool)
    assert looks.still(cat, free, 0).sum() == 225 - 3 and not looks.still(cat, free, 0)[7, 7:10].any()
    committed = free.copy()
    committed[7, 7:10] = False                  # CAT committed: its squares are not asked about
    more = signature(board_image([(7, 7), (7, 8), (7, 9), (8, 9)], seed=2))
    still = looks.still(more, committed, 0)
    assert not still[8, 9] and still.sum() == 225 - 4
    read_bare = committed & ~np.eye(15, dtype=bool)         # the diagonal read as tiles then, and the new tile
    read_bare[8, 9] = False
    looks.note(more, read_bare, reader_turn=0)
    assert looks.still(more, committed, 0)[0, 1] and looks.still(more, committed, 0)[1, 1]    # seen bare before
    turned_board = signature(np.ascontiguousarray(np.rot90(board_image([(7, 7), (7, 8), (7, 9), (8, 9)], seed=3))))
    assert looks.still(turned_board, np.rot90(committed), 1).sum() == 225 - 4      # the reader turned its picture
    looks.forget()
    assert not looks.still(more, committed, 0).any()


def test_a_signature_turned_is_the_signature_of_the_picture_turned():
    from tilecam.vision.moves.change import turned, with_squares

    image = board_image([(2, 3), (7, 7)], seed=4)
    for k in (1, 2, 3):
        a, b = turned(signature(image), k), signature(np.ascontiguousarray(np.rot90(image, k)))
        assert np.allclose(a.colour, b.colour, atol=1e-4) and np.allclose(a.pattern, b.pattern, atol=1e-3)
    mixed = with_squares(signature(board_image()), signature(image), np.eye(15, dtype=bool))
    assert np.allclose(mixed.colour[7, 7], signature(image).colour[7, 7])
    assert np.allclose(mixed.colour[2, 3], signature(board_image()).colour[2, 3])
