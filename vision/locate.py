"""Board localisation: the four corners of the playing grid in a camera frame, without markers.

Three stages, each cheap, each in a module of its own:

1. the board's outline (:mod:`tilecam.vision.outlines`) — the largest convex quadrilateral in an edge map of a
   downscaled frame (its brightness; where the grid found there is in doubt, the frame's long straight lines too: a
   board on a turntable; and its saturation: a white board on a pale table; the hull of its premium squares; the
   grid's own lines, rectified by their vanishing points (:mod:`tilecam.vision.gridlines`: a clear grid on a
   turntable, a corner out of the frame); where no grid is confirmed yet, the whole frame: every outline may be a
   piece of something else);
2. the grid inside it (:mod:`tilecam.vision.lattice`) — the outline is warped to a square, where the 16 grid lines
   of each axis are a regular lattice; a 1-D search over (first line, pitch) on the gradient profile of each axis
   finds them, once in the outline and once more on the grid found. Then each line is measured on its own in strips
   across the square and one homography is fitted to all the measurements (least squares, disagreeing ones
   dropped), twice: that takes out the turn, shear and perspective the outline left, which one lattice per axis
   cannot. The premium squares' centres (:mod:`tilecam.vision.premiums`) join the fit, and where the lattice score
   would keep a grid locked onto rows of tiles they decide (a glare can wash a board's faint lines out, never its
   coloured squares);
3. the premium squares (:mod:`tilecam.vision.layoutcheck`) — a lattice is periodic, so on a board whose frame looks
   like its squares the grid may be found one row or column off; the layout's premium colours put it back
   (:func:`snap_to_layout`).

This module runs them: which outlines are asked for and when, and which of the grids found in them is taken (the
lattice score, and the premium squares sitting on their cells, confirm one). The settings and the error every
stage shares are in :mod:`tilecam.vision.locate_config`; the names callers use are all importable from here.

The result carries its score (how much stronger the gradient is on the lattice than between its lines), so a
caller can see how sure the localisation is; a frame without a board raises :class:`BoardNotFound`.
``python -m tilecam.vision.locate IMAGE --debug OUT/`` draws what was found over the frame.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from tilecam.vision.gridlines import draw_lines
from tilecam.vision.lattice import lattice_in_outline, lattice_score, refine_axes, refine_grid
from tilecam.vision.layoutcheck import (LAYOUT_DOUBT, LAYOUT_OF_SIZE, premium_finder, premium_kinds, premiums_on_cells,
                                        premiums_outnumber, premiums_prefer, rescue_by_layout, snap_to_layout)
from tilecam.vision.layoutsearch import layout_fit
from tilecam.vision.locate_config import BoardNotFound, LocateConfig
from tilecam.vision.outlines import (downscaled, frame_outline, gridline_outlines, line_outlines, order_corners,
                                     outline_candidates, premium_outlines, saturation_outlines)
from tilecam.vision.warp import homography_to_rectified

__all__ = ["BoardLocation", "BoardNotFound", "LAYOUT_OF_SIZE", "LocateConfig", "draw_location", "lattice_score",
           "locate_board", "main", "order_corners", "premium_kinds", "snap_to_layout"]


#: Where no board covering ``LocateConfig.min_board_fraction`` of the frame is found, outlines down to this share
#: are tried: a travel board turned on the table covers 4-8 % of a 16:9 frame at a full-size board's camera height.
SMALL_BOARD_FRACTION = 0.04


@dataclass(frozen=True)
class BoardLocation:
    """Where the grid is: ``corners`` (4x2, image px, top-left, top-right, bottom-right, bottom-left)."""

    corners: np.ndarray
    homography: np.ndarray = field(repr=False)
    score: float
    method: str = "lattice"

    def to_json(self) -> list[list[float]]:
        return [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners]


def locate_board(image: np.ndarray, cfg: LocateConfig = LocateConfig(), hint: BoardLocation | None = None
                 ) -> BoardLocation:
    """Find the playing grid in ``image`` (BGR or gray). With ``hint``, reuse it when it still fits."""
    if image is None or image.size == 0:
        raise BoardNotFound("empty image")
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if hint is not None:
        score = lattice_score(gray, hint.corners, cfg)
        if score >= cfg.hint_min_score:
            return BoardLocation(hint.corners, hint.homography, score, "hint")
    premiums = premium_finder(image, cfg.size)
    found = _grid_in_outlines(image, gray, outline_candidates(gray, cfg), cfg, premiums)
    if not _confirmed(found, premiums, cfg):
        # A board on a turntable, or among things touching it, has no closed outline of its own; its frame's
        # straight edges are still there. Asked only when the grid found is in doubt (the Hough costs ~20 ms).
        other = _grid_in_outlines(image, gray, line_outlines(*downscaled(gray, cfg), cfg), cfg, premiums)
        if other is not None and (found is None or (found[0] < cfg.min_score and other[0] > found[0])
                                  or premiums_prefer(premiums, other[1], found[1], cfg.size)
                                  or (image.ndim == 3 and _stronger(image, other, found, cfg.size))):
            found = other
    if image.ndim == 3 and not _confirmed(found, premiums, cfg):
        # A white board on a pale table as bright as its frame has no outline in brightness; its saturation has
        # one. Asked only when the grid found is in doubt: on a board found well it moves nothing.
        other = _grid_in_outlines(image, gray, saturation_outlines(image, cfg), cfg, premiums)
        if other is not None and (found is None or (found[0] < cfg.min_score and other[0] > found[0])
                                  or premiums_prefer(premiums, other[1], found[1], cfg.size)
                                  or _stronger(image, other, found, cfg.size)):
            found = other
    if image.ndim == 3 and not _confirmed(found, premiums, cfg):
        # Glare over a white board on a white table: no outline in light or colour, faint grid lines — but its
        # coloured premium squares still outline the grid. Taken only where they then sit on their cells.
        other = _grid_in_outlines(image, gray, premium_outlines(image, cfg), cfg, premiums)
        if other is not None and premiums_on_cells(premiums, other[1], cfg.size) and (
                found is None or found[0] < cfg.min_score or premiums_prefer(premiums, other[1], found[1], cfg.size)
                or _stronger(image, other, found, cfg.size)):
            found = other
    if not _confirmed(found, premiums, cfg):
        # A clear grid on a turntable, or a board whose outline is cut or merged with what lies around it: the
        # grid's own lines, rectified by their vanishing points (``gridlines``), outline it. The slowest stage
        # (~0.3 s), asked last.
        other = _grid_in_outlines(image, gray, gridline_outlines(gray, cfg), cfg, premiums)
        if other is not None and _lines_grid_taken(image, other, found, premiums, cfg):
            found = other
    if (found is None or found[0] < cfg.min_score) and cfg.min_board_fraction > SMALL_BOARD_FRACTION:
        # No board of the usual size: a small one (a travel board in a wide frame) is looked for only now, as a
        # smaller outline admitted beside a board's own may win over it (a region inside the board).
        try:
            return locate_board(image, replace(cfg, min_board_fraction=SMALL_BOARD_FRACTION))
        except BoardNotFound:
            pass        # (that pass looked at the whole frame too)
    elif premiums is not None and not _confirmed(found, premiums, cfg):
        # Every outline found may be a piece of something else (of a turntable the board lies on): the whole
        # frame is the outline left. Looked at last, and its grid taken only where premiums confirm it.
        other = _grid_in_outlines(image, gray, [frame_outline(gray)], cfg, premiums)
        if other is not None and other[0] >= cfg.min_score and premiums_on_cells(premiums, other[1], cfg.size):
            found = other
    if found is None:
        raise BoardNotFound(f"no Scrabble grid found in the frame (no outline holds a {cfg.size}x{cfg.size} "
                            "lattice)")
    score, corners = found
    if score < cfg.min_score:
        raise BoardNotFound(f"no Scrabble grid found in the frame (best lattice score {score:.2f} < {cfg.min_score})")
    return BoardLocation(corners, homography_to_rectified(corners, cfg.size), score)


def _grid_in_outlines(image: np.ndarray, gray: np.ndarray, outlines: list[np.ndarray], cfg: LocateConfig,
                      premiums) -> tuple[float, np.ndarray] | None:
    """(lattice score, corners) of the best grid inside ``outlines``, refined and checked against the layout; None
    when no outline holds a lattice."""
    coarse: list[tuple[float, np.ndarray]] = []
    for quad in outlines:
        try:
            coarse.append(lattice_in_outline(gray, quad, cfg))
        except BoardNotFound:
            continue
    if not coarse:
        return None
    best: tuple[float, np.ndarray] | None = None
    for _, corners in sorted(coarse, key=lambda item: -item[0])[:2]:
        corners = refine_axes(gray, corners, cfg)
        score = lattice_score(gray, corners, cfg)
        for _ in range(cfg.refinements):   # each pass removes most of the perspective the last one left
            try:
                refined = refine_grid(gray, corners, cfg, premiums=premiums)
            except BoardNotFound:
                break
            refined_score = lattice_score(gray, refined, cfg)
            if refined_score < 0.9 * score and not premiums_prefer(premiums, refined, corners, cfg.size):
                break       # locked onto tile edges or the frame: keep the lattice fit
            corners, score = refined, refined_score
        if best is None or premiums_prefer(premiums, corners, best[1], cfg.size) or (
                score > best[0] and not premiums_prefer(premiums, best[1], corners, cfg.size)):
            best = (score, corners)
    score, corners = best
    if image.ndim == 3:
        corners = snap_to_layout(image, corners, cfg.size)
        rescued = rescue_by_layout(image, gray, corners, cfg, premiums)
        if rescued is not None:
            corners, score = rescued, lattice_score(gray, rescued, cfg)
    return score, corners


def _confirmed(found: tuple[float, np.ndarray] | None, premiums, cfg: LocateConfig) -> bool:
    """Whether a grid was found that scores as a lattice and on which the premium squares sit on their cells."""
    if found is None or found[0] < cfg.min_score:
        return False
    return premiums is None or premiums_on_cells(premiums, found[1], cfg.size)


def _stronger(image: np.ndarray, other: tuple[float, np.ndarray], found: tuple[float, np.ndarray], size: int
              ) -> bool:
    """Whether the grid ``other`` (lattice score, corners) beats ``found`` on both counts: its lines stand out more
    and its squares' colours follow the layout better (``layoutsearch.layout_fit``). Where neither grid is
    confirmed by its premium squares (a dense coloured board), the two measures agreeing is the evidence left."""
    kinds = premium_kinds(size)
    if kinds is None:
        return False
    return other[0] > found[0] and layout_fit(image, other[1], kinds) > layout_fit(image, found[1], kinds)


def _lines_grid_taken(image: np.ndarray, other: tuple[float, np.ndarray], found: tuple[float, np.ndarray] | None,
                      premiums, cfg: LocateConfig) -> bool:
    """Whether the grid the grid's own lines gave (``other``: lattice score, corners) replaces ``found``. Lines alone
    can be anything ruled (a page of coloured squares has its lattice too): it must score as a lattice and be
    confirmed by its premiums or have its squares' colours follow the layout; and it replaces a grid found that is
    no lattice, or that its premiums are clearly against (``premiums_prefer``, ``premiums_outnumber``)."""
    if other[0] < cfg.min_score:
        return False
    confirmed = _confirmed(other, premiums, cfg)
    if not confirmed and not (image.ndim == 3 and layout_fit(image, other[1], premium_kinds(cfg.size))
                              >= LAYOUT_DOUBT):
        return False
    return (found is None or found[0] < cfg.min_score or confirmed
            or premiums_prefer(premiums, other[1], found[1], cfg.size)
            or premiums_outnumber(premiums, other[1], found[1], cfg.size))


def draw_location(image: np.ndarray, location: BoardLocation, size: int = 15) -> np.ndarray:
    """The frame with the grid these corners imply drawn over it (for people to look at)."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, location.corners.astype(np.float32))
    for i in range(size + 1):
        t = i / size
        for a, b in (((t, 0), (t, 1)), ((0, t), (1, t))):
            pts = cv2.perspectiveTransform(np.array([[a, b]], np.float32), h).reshape(2, 2)
            cv2.line(out, tuple(np.round(pts[0]).astype(int)), tuple(np.round(pts[1]).astype(int)),
                     (0, 255, 255), 1, cv2.LINE_AA)
    for (x, y), name in zip(location.corners, ("TL", "TR", "BR", "BL")):
        cv2.circle(out, (round(float(x)), round(float(y))), 6, (0, 0, 255), 2)
        cv2.putText(out, name, (round(float(x)) + 8, round(float(y)) + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (0, 0, 255), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilecam.vision.locate", description=__doc__.splitlines()[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--debug", type=Path, help="folder for overlay pictures")
    parser.add_argument("--size", type=int, choices=sorted(LAYOUT_OF_SIZE), default=15,
                        help="squares a side: 15, or 21 for Super Scrabble (default 15)")
    args = parser.parse_args(argv)
    image = cv2.imread(str(args.image))
    if image is None:
        print(f"error: cannot read an image from {args.image}", file=sys.stderr)
        return 2
    if args.debug:      # what the grid's own lines give, drawn whether a board is found or not
        args.debug.mkdir(parents=True, exist_ok=True)
        out = args.debug / f"{args.image.stem}-lines.png"
        cv2.imwrite(str(out), draw_lines(image, args.size))
        print(f"line families and their lattices written to {out}")
    try:
        location = locate_board(image, LocateConfig(size=args.size))
    except BoardNotFound as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"corners {location.to_json()} score {location.score:.2f}")
    if args.debug:
        out = args.debug / f"{args.image.stem}-grid.png"
        cv2.imwrite(str(out), draw_location(image, location, args.size))
        print(f"overlay written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
