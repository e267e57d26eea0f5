"""Hard cases of a real room, on rendered camera frames read by the vision pipeline through the one tracker: a lamp
switched on mid-game, a long shadow of a leaning player, the board bumped a few millimetres, a tile nudged by a
sleeve, and two plays in one settled change (ordered by the frames in which their tiles first appeared, a guess where
they appeared together). None of them is a move but the plays; only changed squares are read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from boards import EMPTY, rows_with

SEED = 4242          # one scene (board design, camera, light) for every frame of a test


CAT = rows_with(("8H", "CAT"))
COX = rows_with(("8H", "CAT"), ("H9", "OX"))


@pytest.fixture(scope="module")
def render():
    synth = pytest.importorskip("tilecam.models.synth")
    scene = synth.sample_scene(np.random.default_rng(SEED), "english")

    def frame(rows, hand=None):
        return np.asarray(synth.render_board(list(rows), seed=SEED, scene=scene, hand=hand).image)

    return frame


def feed(tracker, frames, t0=0.0):
    events = []
    for i, f in enumerate(frames):
        events += tracker.feed(f, t0 + i)
    return [str(e) for e in events]


def start(tracker, render):
    """An empty board, then CAT: the game under way, its reader's turn learnt."""
    assert feed(tracker, [render(EMPTY), render(CAT)]) == ["play 8H CAT"]


def lamp(image, gain=1.45):
    """A lamp switched on beside the board: brighter, more so on one side."""
    h, w = image.shape[:2]
    ramp = np.linspace(gain, gain * 0.8, w, dtype=np.float32)[None, :, None]
    return np.clip(image.astype(np.float32) * ramp, 0, 255).astype(np.uint8)


def shadow(image, strength=0.65):
    """A leaning player's long shadow: a dark band with sharp edges across the board (its edges change squares)."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    band = (np.abs((xx - 0.6 * yy) - 0.3 * w) < 0.12 * w).astype(np.float32)
    gain = 1 - strength * cv2.GaussianBlur(band, (0, 0), 3)[:, :, None]
    return (image.astype(np.float32) * gain).astype(np.uint8)


def bump(image, dx=4.0, dy=3.0, angle=0.6):
    """The board knocked a few millimetres (a square is ~19 mm) and turned a little on the table."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (dx, dy)
    return cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def test_a_lamp_switched_on_mid_game_is_no_move_and_reads_few_squares(tracker, render):
    start(tracker, render)
    lit = lamp(render(CAT))
    assert feed(tracker, [lit, lit], t0=10) == []
    assert tracker.reader.squares_read[-1] < 20          # the light changed no square's content
    assert feed(tracker, [lamp(render(COX))], t0=20) == ["play H8 .OX"]


def test_a_long_shadow_lying_across_the_board_is_no_move(tracker, render):
    start(tracker, render)
    dark = shadow(render(CAT))
    assert feed(tracker, [dark] * 5, t0=10) == []       # many seconds of it: still no move
    assert feed(tracker, [render(CAT), render(COX)], t0=20) == ["play H8 .OX"]


def test_a_board_bumped_a_few_millimetres_is_no_move(tracker, render):
    start(tracker, render)
    assert feed(tracker, [bump(render(CAT))] * 2, t0=10) == []
    assert feed(tracker, [bump(render(COX))], t0=20) == ["play H8 .OX"]


def test_a_tile_nudged_by_a_sleeve_is_no_move(tracker, render):
    from tilecam.vision.warp import CELL_PX, MARGIN_PX

    start(tracker, render)
    image = render(CAT)
    # the A of CAT pushed a quarter of a square to the right, in the camera's picture
    inv = np.linalg.inv(tracker.reader.last.homography)
    centre = cv2.perspectiveTransform(np.float32([[[MARGIN_PX + 8.5 * CELL_PX, MARGIN_PX + 7.5 * CELL_PX]]]), inv)
    edge = cv2.perspectiveTransform(np.float32([[[MARGIN_PX + 9.0 * CELL_PX, MARGIN_PX + 7.5 * CELL_PX]]]), inv)
    x, y = centre[0, 0]
    half = float(np.linalg.norm(edge[0, 0] - centre[0, 0]))
    x0, x1, y0, y1 = int(x - half), int(x + half), int(y - half), int(y + half)
    nudged = image.copy()
    shift = int(round(half / 2))
    nudged[y0:y1, x0 + shift:x1 + shift] = image[y0:y1, x0:x1]
    assert feed(tracker, [nudged] * 2, t0=10) == []
    assert [str(t) for t in (tracker.board[7, 7], tracker.board[7, 8], tracker.board[7, 9])] == ["C", "A", "T"]


def test_two_plays_in_one_settled_change_are_both_recorded_and_the_order_said_to_be_a_guess(tracker, render):
    start(tracker, render)
    both = rows_with(("8H", "CATS"), ("H9", "OX"))      # CATS (S at K8) and COX: neither seen settled alone
    events = tracker.feed(render(both), 10.0)
    assert sorted(str(e) for e in events) == ["play 8H ...S", "play H8 .OX"]
    assert "guess" in tracker.status or any("guess" in e.note for e in events)


CATS = rows_with(("8H", "CATS"))
BOTH = rows_with(("8H", "CATS"), ("H9", "OX"))
# Arms in grid units (x a column, y a row), reaching in over an edge of the board: over the frame they are in, a hand
# is over the board (no settle), so the board between the two plays is never seen settled.
NEAR_ARM = [(3.0, 21.0), (4.5, 11.6), (5.2, 10.3), (6.0, 11.6), (5.5, 21.0)]     # from the near edge, by F11
FAR_ARM = [(10.0, -6.0), (11.0, 4.6), (11.6, 3.4), (12.4, 4.6), (12.5, -6.0)]    # from the far edge, by L4
ON_X = [(4.0, 21.0), (6.6, 10.2), (7.4, 9.0), (8.2, 10.2), (6.5, 21.0)]          # fingers on the X at H10
ON_S = [(9.5, -6.0), (9.8, 6.6), (10.5, 7.6), (11.2, 6.6), (12.0, -6.0)]         # fingers on the S at K8


@pytest.mark.parametrize("frames, order", [
    # OX first (the order taken by default too), then the S while the first player's arm is still over the board
    ([(COX, NEAR_ARM), (BOTH, FAR_ARM)], ["play H8 .OX", "play 8H ...S"]),
    # the S first: the default would have put OX first
    ([(CATS, FAR_ARM), (BOTH, NEAR_ARM)], ["play 8H ...S", "play H8 .OX"]),
    # each play's own hand over its tiles as they go down, the other's arm still over the board
    ([(CATS, ON_S), (CATS, NEAR_ARM), (BOTH, ON_X)], ["play 8H ...S", "play H8 .OX"]),
    ([(COX, ON_X), (COX, FAR_ARM), (BOTH, ON_S), (BOTH, FAR_ARM)], ["play H8 .OX", "play 8H ...S"]),
], ids=["OX-then-S", "S-then-OX", "S-then-OX-hands-on-tiles", "OX-then-S-hands-on-tiles"])
def test_two_plays_put_down_one_after_the_other_are_recorded_in_the_order_their_tiles_appeared(
        tracker, render, frames, order):
    start(tracker, render)
    assert feed(tracker, [render(rows, hand=arm) for rows, arm in frames], t0=10) == []     # a hand over the board
    events = tracker.feed(render(BOTH), 20.0)
    assert [str(e) for e in events] == order
    assert all("first seen" in e.note and "guess" not in e.note for e in events)


def test_two_plays_that_first_appear_in_the_same_frame_are_still_in_a_guessed_order(tracker, render):
    start(tracker, render)
    frames = [render(CAT, hand=NEAR_ARM), render(BOTH, hand=FAR_ARM)]     # nothing new, then both at once
    assert feed(tracker, frames, t0=10) == []
    events = tracker.feed(render(BOTH), 20.0)
    assert sorted(str(e) for e in events) == ["play 8H ...S", "play H8 .OX"]
    assert all("their order is a guess" in e.note for e in events)



def test_a_glare_lying_still_read_as_a_tile_beside_a_play_is_no_tile_of_it(tracker, render, monkeypatch):
    """A lamp's glare on the board, there from the first frame: the reader reads its square doubtfully, bare on the
    empty board and as an S beside CAT from then on (so each frame believes it anew). Its picture never changed
    since a decided board read it bare, so it is still bare: CAT is the play, not CATS, and the status says what was
    left out. Where no legal reading holds without it, it would be read as a tile (test_moves_missed_change)."""
    from tilecam.vision.moves.reader import default_reader
    from tilecam.vision.moves.reading import Reading
    from tilecam.vision.moves.tracker import MoveTracker

    told = default_reader("english", threads=1)
    told(render(CAT))
    tracker.reader.rotation = told.rotation        # row 1 known from the start: the readings in the board's squares
    glare, real, frames = (7, 10), MoveTracker._read_changed, []

    def glaring(self, frame):
        reading, sig = real(self, frame)
        label = "." if not frames else "S"
        frames.append(frame)
        grid = [list(row) for row in reading.grid]
        grid[glare[0]][glare[1]] = label
        confidence = reading.confidence.copy()
        confidence[glare] = 0.8
        alternatives = dict(reading.alternatives)
        alternatives[glare] = ((label, 0.8), ("S" if label == "." else ".", 0.2))
        return Reading(tuple("".join(row) for row in grid), confidence, reading.occluded, alternatives), sig

    monkeypatch.setattr(MoveTracker, "_read_changed", glaring)
    assert feed(tracker, [render(EMPTY), render(EMPTY), render(CAT), render(CAT)]) == ["play 8H CAT"]
    assert "K8, whose picture did not change" in tracker.status and tracker.stats.still >= 1


def test_a_grid_found_far_from_the_last_one_is_taken_only_when_the_next_frame_finds_it_too(render, monkeypatch):
    """Under a fixed camera an arm over the board's edge can make the locator take part of the board for all of it
    (seed 26702 at 45°: the rest of the game read on a grid a third too narrow). A grid found more than a square from
    the last one is read on the last grid once, and taken when the next frame finds it there too (a board moved)."""
    import tilecam.vision.locate as locate
    from tilecam.vision.moves.reader import default_reader
    from tilecam.vision.warp import square_px

    reader = default_reader("english", threads=1)
    frame = render(CAT)
    reader(frame)
    last = reader.hint
    shift = 3 * square_px(np.asarray(last.corners, np.float64))
    far = locate.BoardLocation(last.corners + np.float32([shift, 0]), last.homography, last.score, "lattice")
    monkeypatch.setattr(locate, "locate_board", lambda image, cfg, hint=None: far)
    reader.read_changed(frame, lambda sig, doubted=True: np.zeros((sig.size, sig.size), bool))
    assert np.allclose(reader.hint.corners, last.corners)            # read on the last grid
    reader.read_changed(frame, lambda sig, doubted=True: np.zeros((sig.size, sig.size), bool))
    assert np.allclose(reader.hint.corners, far.corners)             # found there twice: the board was moved
