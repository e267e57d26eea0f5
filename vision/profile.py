"""A user's board profile: what ``tilecam calibrate`` learnt from a photo of the empty board.

Each square's own bare look (its reference crop, ``tilecam.vision.context``) and the grid's corners, kept as one
``.npz`` file in the data folder. The reader then judges "a tile is here" against the square itself, its print and
its light, instead of against the other squares of its kind. A game's learnt squares (``vision.adapt``) are kept
beside it by the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tilecam.vision.context import references_from_empty_board
from tilecam.vision.locate import BoardLocation, LocateConfig, locate_board
from tilecam.vision.warp import cut_cells, homography_to_rectified, warp_board

PROFILE_NAME = "board-profile.npz"


class ProfileError(ValueError):
    """A board profile that cannot be used: not there, of another grid, or not a profile."""


@dataclass(frozen=True, eq=False)
class BoardProfileFile:
    references: np.ndarray     # (225, crop, crop, 3) uint8 (441 on a 21x21 board): each square's bare look, rotation 0
    corners: np.ndarray        # (4, 2): the grid in the calibration photo

    @property
    def size(self) -> int:
        """Squares a side of the board profiled."""
        from tilecam.vision.read import squares_a_side

        return squares_a_side(self.references)

    def fitting(self, size: int) -> "BoardProfileFile":
        """The profile, for a board of ``size`` squares a side; ``ProfileError`` where it is of another size."""
        if self.size != size:
            raise ProfileError(f"the board profile is of a {self.size}x{self.size} board, not {size}x{size}")
        return self

    def location(self) -> BoardLocation:
        return BoardLocation(self.corners, homography_to_rectified(self.corners, self.size), 0.0, "calibration")

    def references_turned(self, rotation: int) -> np.ndarray:
        """The references as the reader cuts the board turned ``rotation`` quarter turns."""
        from tilecam.vision.read import turn_squares

        return turn_squares(self.references, rotation) if rotation % 4 else self.references


def calibrate(image: np.ndarray, size: int = 15) -> BoardProfileFile:
    """The profile of the empty board in ``image``, ``size`` squares a side (21: a Super Scrabble board);
    ``BoardNotFound`` when there is no such board in it."""
    location = locate_board(image, LocateConfig(size=size))
    crops = cut_cells(warp_board(image, location.corners, size), size)
    return BoardProfileFile(references_from_empty_board(crops), np.asarray(location.corners, np.float32))


def save_profile(profile: BoardProfileFile, folder: Path) -> Path:
    return save_npz(folder, PROFILE_NAME, references=profile.references, corners=profile.corners)


def save_npz(folder: Path, name: str, **arrays: np.ndarray) -> Path:
    """``arrays`` written to ``folder/name`` (compressed), replacing the file at once: a reader never finds half of
    it (the data folder's calibration files: the board profile, the tile looks)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)
    return path


def load_profile(folder: Path) -> BoardProfileFile | None:
    """The profile kept in ``folder``, or None when there is none."""
    path = Path(folder) / PROFILE_NAME
    if not path.is_file():
        return None
    try:
        with np.load(path) as data:
            refs, corners = data["references"], data["corners"]
    except (OSError, KeyError, ValueError) as exc:
        raise ProfileError(f"{path} is not a board profile: {exc}") from exc
    if refs.ndim != 4 or round(len(refs) ** 0.5) ** 2 != len(refs) or corners.shape != (4, 2):
        raise ProfileError(f"{path}: references {refs.shape}, corners {corners.shape} are not a board's")
    return BoardProfileFile(refs, corners)
