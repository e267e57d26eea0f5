"""The rectified board: the grid where it belongs, and a photo of many pixels a square shrunk, not sampled."""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.vision.warp import CELL_PX, MARGIN_PX, halvings, homography_to_rectified, square_px, warp_board


def _photo(px: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """A board of ``px`` pixels a square (grain-like noise on grey, dark grid lines), slightly turned, with a table
    around it."""
    side = 15 * px + 4 * px
    photo = (rng.random((side, side, 1)) * 80 + 90).astype(np.uint8).repeat(3, axis=2)
    for i in range(16):
        v = 2 * px + px * i
        photo[2 * px - 2:17 * px + 2, v - 2:v + 2] = 20
        photo[v - 2:v + 2, 2 * px - 2:17 * px + 2] = 20
    corners = np.float32([[2 * px, 2 * px], [17 * px, 2 * px], [17 * px, 17 * px], [2 * px, 17 * px]])
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), 7, 1.0)
    photo = cv2.warpAffine(photo, turn, (side, side), borderMode=cv2.BORDER_REPLICATE)
    corners = cv2.transform(corners[None], turn)[0].astype(np.float32)
    return photo, corners


def _grid_lines_where_they_belong(warped: np.ndarray) -> None:
    profile = warped[:, :, 0].astype(float).mean(axis=0)
    for x in [MARGIN_PX + CELL_PX * i for i in range(1, 15)]:
        assert profile[x - 1:x + 2].min() < profile[x + CELL_PX // 2] - 20, x


def test_a_photo_of_many_pixels_a_square_is_halved_first_so_its_grain_does_not_fold_into_speckle():
    rng = np.random.default_rng(0)
    photo, corners = _photo(130, rng)
    assert 3.5 < square_px(corners) / CELL_PX < 4.5 and halvings(corners) == 2
    warped = warp_board(photo, corners)
    sampled = cv2.warpPerspective(photo, homography_to_rectified(corners), warped.shape[:2][::-1],
                                  flags=cv2.INTER_LINEAR)
    inner = (slice(MARGIN_PX + 8, MARGIN_PX + CELL_PX - 8),) * 2        # inside the first square, off its lines
    assert warped[inner].std() < sampled[inner].std() / 2
    assert abs(warped[inner].mean() - sampled[inner].mean()) < 5          # the same light, only smoother
    _grid_lines_where_they_belong(warped)


def test_halving_only_the_part_the_board_shows_gives_the_board_the_whole_photo_gives():
    rng = np.random.default_rng(2)
    photo, corners = _photo(80, rng)
    big = cv2.copyMakeBorder(photo, 300, 200, 400, 100, cv2.BORDER_CONSTANT, value=(90, 140, 200))
    moved = corners + np.float32([400, 300])
    assert halvings(moved) == 1
    a, b = warp_board(photo, corners), warp_board(big, moved)
    assert np.abs(a.astype(int) - b).mean() < 1.5          # only the halving's pixel phase differs
    _grid_lines_where_they_belong(b)


def test_a_photo_at_the_boards_own_scale_is_warped_as_it_is():
    rng = np.random.default_rng(1)
    photo, corners = _photo(CELL_PX + 10, rng)
    assert halvings(corners) == 0
    warped = warp_board(photo, corners)
    direct = cv2.warpPerspective(photo, homography_to_rectified(corners), warped.shape[:2][::-1],
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert (warped == direct).all()
    _grid_lines_where_they_belong(warped)


def test_a_few_squares_warped_alone_are_the_crops_the_whole_board_gives():
    from tilecam.vision.warp import CROP_BY_CROP_UP_TO, cells_of, cut_cells

    rng = np.random.default_rng(3)
    for px in (CELL_PX + 10, 80):                   # warped as it is, and halved first
        photo, corners = _photo(px, rng)
        whole = cut_cells(warp_board(photo, corners))
        few = [0, 14, 112, 210, 224]
        alone = cells_of(photo, corners, few)
        assert alone.shape == whole[few].shape
        assert np.abs(alone.astype(int) - whole[few]).max() <= 1     # bilinear weights rounded alike but for a level
        many = list(range(CROP_BY_CROP_UP_TO + 1))
        assert (cells_of(photo, corners, many) == whole[many]).all()
