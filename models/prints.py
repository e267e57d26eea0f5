"""Prints of premium squares no render draws, for the tile reader's training.

Boards print on their premium squares what a camera can take for a tile: badges (stars, rosettes, diamonds) in a
colour of their own with the premium spelt out inside, big labels ("TW", "2L"), rings. The renders draw a few of
these designs; real boards draw many more. What tells such a square from a tile is not its print but the board's
other squares of its kind, which carry the same print (the reader's reference crop). A training square of a bare
board gets a random print on its crop and on its reference alike; a tile's square gets it on the reference only (the
tile hides its square's print). So the reader learns "the same as its reference: bare", whatever the print.

``print_bank`` draws the prints once (numpy and OpenCV, seeded); ``stamp`` puts them onto float crops in training.
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.vision.warp import CELL_PX, CONTEXT_PX, CROP_PX

#: Distinct prints drawn for a training run: each is used on many squares, in every light the augmentation gives.
PRINT_BANK = 512
#: Prints are drawn this many times larger than the crop, then shrunk: smooth edges, as a camera sees print.
SUPERSAMPLE = 4
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LABELS = ("TW", "DW", "TL", "DL", "2W", "3W", "2L", "3L", "x2", "x3", "*")


def _star(points: int, inner: float, radius: float, centre: float, turn: float) -> np.ndarray:
    angles = turn + np.linspace(0, 2 * np.pi, 2 * points, endpoint=False)
    radii = np.where(np.arange(2 * points) % 2 == 0, radius, radius * inner)
    return np.stack([centre + radii * np.cos(angles), centre + radii * np.sin(angles)], 1).round().astype(np.int32)


def _words(canvas: np.ndarray, rng: np.random.Generator, lines: int, height: float) -> None:
    """``lines`` lines of random capitals, together about ``height`` of the square high, centred, on the
    ``SUPERSAMPLE`` canvas (one channel, uint8: 255 where inked)."""
    side = canvas.shape[0]
    cell = CELL_PX * SUPERSAMPLE
    line_px = height * cell / lines
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(4, int(line_px * 0.75)), 1)
    stroke = max(1, int(round(scale * rng.uniform(1.5, 3.5))))
    top = side / 2 - line_px * lines / 2
    for k in range(lines):
        text = "".join(rng.choice(list(_LETTERS), int(rng.integers(2, 9))))
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
        if w > 0.95 * cell:         # too wide for the square: squeezed as a board prints it
            scale *= 0.95 * cell / w
            (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
        at = (int(side / 2 - w / 2), int(top + line_px * (k + 0.5) + h / 2))
        cv2.putText(canvas, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, stroke, cv2.LINE_AA)


def _one_print(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One print: its colours (CROP_PX, CROP_PX, 3, RGB 0..1) and how much it covers each pixel (CROP_PX, CROP_PX)."""
    side = CROP_PX * SUPERSAMPLE
    cell = CELL_PX * SUPERSAMPLE
    centre = side / 2 + rng.normal(0, 0.03 * cell)
    shape = np.zeros((side, side), np.uint8)          # where the badge is (255)
    ink = np.zeros((side, side), np.uint8)            # where the print on it is (255)
    kind = rng.choice(["badge", "badge", "words", "label", "ring"])
    if kind in ("badge", "ring"):
        radius = rng.uniform(0.25, 0.5) * cell
        form = rng.choice(["star", "circle", "diamond", "square"])
        if form == "star":
            poly = _star(int(rng.integers(4, 13)), rng.uniform(0.45, 0.9), radius, centre, rng.uniform(0, np.pi))
        elif form == "diamond":
            poly = _star(2, 1.0, radius, centre, 0.0)
        elif form == "square":
            poly = _star(2, 1.0, radius * 1.3, centre, np.pi / 4)
        else:
            poly = None
        thickness = -1 if kind == "badge" else int(rng.uniform(0.04, 0.12) * cell)
        if poly is None:
            cv2.circle(shape, (int(centre), int(centre)), int(radius), 255, thickness, cv2.LINE_AA)
        elif thickness < 0:
            cv2.fillPoly(shape, [poly], 255, cv2.LINE_AA)
        else:
            cv2.polylines(shape, [poly], True, 255, thickness, cv2.LINE_AA)
        if kind == "badge" and rng.random() < 0.7:
            _words(ink, rng, int(rng.integers(1, 4)), rng.uniform(0.3, 0.6))
    elif kind == "words":
        _words(ink, rng, int(rng.integers(1, 4)), rng.uniform(0.4, 0.8))
    else:
        label = str(rng.choice(_LABELS))
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, int(rng.uniform(0.3, 0.55) * cell), 1)
        stroke = max(1, int(round(scale * rng.uniform(2, 5))))
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
        cv2.putText(ink, label, (int(centre - w / 2), int(centre + h / 2)), cv2.FONT_HERSHEY_SIMPLEX, scale, 255,
                    stroke, cv2.LINE_AA)
    badge_colour, ink_colour = rng.uniform(0, 1, 3), rng.uniform(0, 1, 3)
    if rng.random() < 0.5:      # the print's letters white or black, as most boards print them
        ink_colour[:] = float(rng.random() < 0.5)
    shape = cv2.resize(shape, (CROP_PX, CROP_PX), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ink = cv2.resize(ink, (CROP_PX, CROP_PX), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    opacity = rng.uniform(0.6, 1.0)
    colour = (badge_colour[None, None] * shape[..., None] * (1 - ink[..., None])
              + ink_colour[None, None] * ink[..., None])
    cover = np.clip(shape + ink - shape * ink, 0, 1)
    colour = np.divide(colour, cover[..., None], out=np.zeros_like(colour), where=cover[..., None] > 0)
    # the print stays on its square: the grid line and the neighbours in the crop's margin are not printed on
    inside = np.zeros((CROP_PX, CROP_PX), np.float32)
    inside[CONTEXT_PX + 1:CONTEXT_PX + CELL_PX - 1, CONTEXT_PX + 1:CONTEXT_PX + CELL_PX - 1] = 1
    return colour.astype(np.float32), (cover * opacity * inside).astype(np.float32)


def print_bank(rng: np.random.Generator, n: int = PRINT_BANK) -> tuple[np.ndarray, np.ndarray]:
    """``n`` prints drawn from ``rng``: colours (n, 3, CROP_PX, CROP_PX) RGB 0..1 and cover (n, 1, CROP_PX,
    CROP_PX) 0..1, NCHW as the training's crops."""
    drawn = [_one_print(rng) for _ in range(n)]
    colours = np.stack([c for c, _ in drawn]).transpose(0, 3, 1, 2)
    covers = np.stack([a for _, a in drawn])[:, None]
    return np.ascontiguousarray(colours), np.ascontiguousarray(covers)


def stamp(x, r, bare, bank, share: float, g):
    """Float NCHW crops ``x`` and references ``r`` (torch, 0..1) with prints of ``bank`` (torch tensors on their
    device) laid on a ``share`` of the squares: on crop and reference alike where ``bare`` (a bool tensor: the
    square has nothing on it), on the reference alone where a tile or a hand is. Draws from the generator ``g``."""
    import torch

    colours, covers = bank
    n, on = x.shape[0], x.device
    chosen = torch.nonzero(torch.rand(n, generator=g, device=on) < share).flatten()
    if not len(chosen):
        return x, r
    k = torch.randint(0, len(colours), (len(chosen),), generator=g, device=on)
    colour, cover = colours[k], covers[k]
    x, r = x.clone(), r.clone()
    r[chosen] = r[chosen] * (1 - cover) + colour * cover
    on_bare = bare[chosen]
    if on_bare.any():
        i = chosen[on_bare]
        x[i] = x[i] * (1 - cover[on_bare]) + colour[on_bare] * cover[on_bare]
    return x, r
