"""The plane of the tiles' faces from the board's grid alone: the camera a homography implies, and the grid lifted."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.vision.raised import Camera, camera_of, faces_corners

FRAME = (1080, 1920)
BOARD = np.float64([[0, 0, 0], [15, 0, 0], [15, 15, 0], [0, 15, 0]])     # CORNER_ORDER, in squares


def camera(tilt: float, roll: float = 0.0, f: float = 1400.0, distance: float = 40.0) -> Camera:
    """A camera ``distance`` squares from the board's centre, tilted ``tilt`` degrees from straight above it."""
    a, b = np.radians(tilt), np.radians(roll)
    tilt_m = np.array([[1, 0, 0], [0, np.cos(a), np.sin(a)], [0, -np.sin(a), np.cos(a)]])
    roll_m = np.array([[np.cos(b), -np.sin(b), 0], [np.sin(b), np.cos(b), 0], [0, 0, 1]])
    r = roll_m @ tilt_m
    t = np.array([0, 0, distance]) - r @ np.array([7.5, 7.5, 0])
    up = -r[:, 2] if r[:, 2] @ t > 0 else r[:, 2]
    return Camera(f, np.float64([FRAME[1] / 2, FRAME[0] / 2]), r[:, 0], r[:, 1], up, t)


@pytest.mark.parametrize("tilt, roll", [(45, 0), (30, 10), (60, -20), (20, 95)])
def test_the_camera_and_the_plane_of_the_faces_follow_from_the_grid(tilt, roll):
    true = camera(tilt, roll)
    corners = true.project(BOARD)
    found = camera_of(corners, FRAME)
    assert found is not None and found.f == pytest.approx(1400.0, rel=1e-6)
    lifted = faces_corners(corners, FRAME, height=0.2)
    assert np.abs(lifted - true.project(BOARD + [0, 0, 0.2])).max() < 1e-3
    # a low camera sees the faces well up the picture from the board: a few pixels here, more than a tenth of a square
    assert np.abs(lifted - corners).max() > 3


def test_a_view_from_straight_above_keeps_the_grid():
    corners = camera(0).project(BOARD)
    assert camera_of(corners, FRAME) is None
    assert faces_corners(corners, FRAME) is None


def test_a_fit_that_is_no_real_cameras_lens_keeps_the_grid():
    # a camera of 0.3 of the picture's side (a 10 mm lens) close over the board: no phone's, webcam's or Pi's
    wide = camera(20, f=0.3 * FRAME[1], distance=18)
    corners = wide.project(BOARD)
    assert camera_of(corners, FRAME) is None
    assert faces_corners(corners, FRAME) is None
    # the same view through a phone's main camera from farther away is told
    phone = camera(20, f=0.75 * FRAME[1], distance=45)
    assert camera_of(phone.project(BOARD), FRAME).f == pytest.approx(0.75 * FRAME[1], rel=1e-6)


def test_the_lift_does_not_depend_on_which_corner_is_row_1():
    corners = camera(45, 10).project(BOARD)
    lifted = faces_corners(corners, FRAME)
    for k in range(1, 4):
        assert np.abs(faces_corners(np.roll(corners, -k, axis=0), FRAME) - np.roll(lifted, -k, axis=0)).max() < 1e-3


def test_height_zero_is_the_board():
    corners = camera(45).project(BOARD)
    assert faces_corners(corners, FRAME, height=0.0) is None


def test_whether_a_tile_lies_there_is_the_boards_plane_and_which_tile_the_faces():
    from tilecam.vision.raised import which_tile_from_faces

    classes = (".", "#", "A", "B", "?")
    board = np.array([[0.1, 0.0, 0.2, 0.7, 0.0],       # a tile (the board's plane shows the face of the one below)
                      [0.9, 0.1, 0.0, 0.0, 0.0]])      # bare
    faces = np.array([[0.0, 0.2, 0.8, 0.0, 0.0],       # the face: an A (and the margin beyond, read covered)
                      [0.0, 0.6, 0.2, 0.0, 0.2]])      # beyond the far edge: the board's margin, read covered
    out = which_tile_from_faces(board, faces, classes)
    assert out[0] == pytest.approx([0.1, 0.0, 0.9, 0.0, 0.0])
    assert out[1] == pytest.approx(board[1])           # nothing of a tile to share out: as read on the board
    assert out.sum(axis=1) == pytest.approx([1, 1])


def test_only_the_squares_asked_for_that_may_hold_a_tile_are_read_on_the_faces():
    """The tracker reads again only the squares that changed: those of them not surely bare are read on the faces'
    plane, every other square keeps its probabilities; with no height nothing is read."""
    from tilecam.vision.read import tiles_read_on_their_faces

    class Stub:                      # reads every face as a B, counting the squares it was given
        classes = (".", "#", "A", "B")
        seen: list[int] = []

        def bare_or_covered(self, probs):
            return probs[:, :2].sum(axis=1)

        def run(self, crops, refs):
            self.seen.append(len(crops))
            return np.tile([0.0, 0.0, 0.0, 9.0], (len(crops), 1)), None

        def in_views(self, crops, refs, logits, embedding):
            return logits, embedding

        def calibrated(self, logits, letters=None):
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            return z / z.sum(axis=1, keepdims=True)

    corners = camera(45).project(BOARD)
    image = np.zeros(FRAME + (3,), np.uint8)
    probs = np.tile([1.0, 0.0, 0.0, 0.0], (225, 1))
    probs[[5, 6, 7]] = [0.1, 0.0, 0.9, 0.0]                   # three squares read as an A on the board's plane
    refs = np.zeros((225, 40, 40, 3), np.uint8)
    stub = Stub()
    out = tiles_read_on_their_faces(image, corners, 15, probs, refs, stub, None, 0.2, rows=[5, 6, 100])
    assert stub.seen == [2]                                    # 5 and 6: asked for and maybe a tile; 100 bare
    assert out[5] == pytest.approx([0.1, 0.0, 0.0, 0.9], abs=1e-3) and (out[7] == probs[7]).all()
    assert (tiles_read_on_their_faces(image, corners, 15, probs, refs, stub, None, 0.0) == probs).all()
    assert stub.seen == [2]


def test_the_board_learnt_reads_the_faces_too():
    """A board profile's adaptation (``VisionReader.learn``) is applied to the faces' reading as to the board's:
    which tile comes from the faces, and what the game taught of this board's tiles counts there."""
    from tilecam.vision.read import tiles_read_on_their_faces

    class Stub:                      # reads every face as a B, with an embedding
        classes = (".", "#", "A", "B")

        def bare_or_covered(self, probs):
            return probs[:, :2].sum(axis=1)

        def run(self, crops, refs):
            return np.tile([0.0, 0.0, 0.0, 9.0], (len(crops), 1)), np.ones((len(crops), 4))

        def in_views(self, crops, refs, logits, embedding):
            return logits, embedding

        def calibrated(self, logits, letters=None):
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            return z / z.sum(axis=1, keepdims=True)

    def learnt(embedding, logits):   # this board's B's and A's look alike to the model; the game said A
        return logits + [0.0, 0.0, 18.0, 0.0]

    corners = camera(45).project(BOARD)
    image = np.zeros(FRAME + (3,), np.uint8)
    probs = np.tile([1.0, 0.0, 0.0, 0.0], (225, 1))
    probs[5] = [0.1, 0.0, 0.9, 0.0]
    refs = np.zeros((225, 40, 40, 3), np.uint8)
    out = tiles_read_on_their_faces(image, corners, 15, probs, refs, Stub(), None, 0.2, adapter=learnt)
    assert out[5] == pytest.approx([0.1, 0.0, 0.9, 0.0], abs=1e-3)
    unlearnt = tiles_read_on_their_faces(image, corners, 15, probs, refs, Stub(), None, 0.2)
    assert unlearnt[5][3] == pytest.approx(0.9, abs=1e-3)


def test_the_lifted_corners_are_the_same_for_the_same_grid_and_each_call_gets_its_own():
    """A fixed camera's frames share their grid: the camera is told once for it, and what a caller does with the
    corners it was given does not reach the next caller."""
    corners = camera(45, 10).project(BOARD)
    first = faces_corners(corners, FRAME)
    first += 100.0
    again = faces_corners(corners.copy(), FRAME)
    assert np.abs(again - (first - 100.0)).max() < 1e-6
    assert faces_corners(corners, FRAME, height=0.4) is not None
    assert np.abs(faces_corners(corners, FRAME, height=0.4) - corners).max() > np.abs(again - corners).max()
