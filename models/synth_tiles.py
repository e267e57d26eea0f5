"""Tiles as the renderer draws them: what a tile set's tiles show and are worth, glyphs cut from the bundled fonts,
one tile seen from above (tone, grain, bevel, letter and value), and a tile pasted turned, with its soft shadow.

A two-letter tile (Spanish CH) prints both letters narrowed (``DIGRAPH_*``); a letter a font lacks is drawn in the
font ``synth_styles.ASCII_ONLY`` names. Each look of a tile is drawn once and cached (``TILE_VARIANTS`` a letter and
style), so a board of a hundred tiles costs pastes only.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tilecam.models.synth_scene import CELL
from tilecam.models.synth_styles import ASCII_ONLY, FONT_DIR, FONTS, TILES

#: A two-letter tile's face (CH) is drawn at this share of a single letter's height …
DIGRAPH_HEIGHT = 0.85
#: … its two letters this much narrower than the font sets them (real Spanish tiles print "CH" condensed) …
DIGRAPH_SQUEEZE = 0.7
#: … and at most this share of the tile's side wide, so that a wide pair (a bold serif "RR") stays on the face.
DIGRAPH_MAX_WIDTH = 0.8


@functools.lru_cache(maxsize=16)
def tile_values(tileset: str) -> dict[str, int]:
    """What each letter (symbol) of the tile set is worth."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    return {letter: ts.value(letter) for letter in ts.letters}


@functools.lru_cache(maxsize=16)
def tile_faces(tileset: str) -> dict[str, str]:
    """What each letter (symbol) of the tile set shows: itself, or a two-letter tile's face (``Ç`` → ``CH``)."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    return dict(zip(ts.letters, ts.faces))


@functools.lru_cache(maxsize=None)
def _font(name: str, px: int):
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_DIR / FONTS[name]), px)


@functools.lru_cache(maxsize=4096)
def _glyph(font: str, text: str, px: int) -> np.ndarray:
    """Coverage (0..1 float32) of ``text`` drawn in ``font``, cropped to its ink."""
    from PIL import Image, ImageDraw

    if font in ASCII_ONLY and not text.isascii():
        font = ASCII_ONLY[font]
    f = _font(font, px)
    box = f.getbbox(text)
    w, h = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    img = Image.new("L", (w + 2, h + 2), 0)
    ImageDraw.Draw(img).text((1 - box[0], 1 - box[1]), text, fill=255, font=f)
    return np.asarray(img, np.float32) / 255.0


def _reshape_glyph(glyph: np.ndarray, width: float, weight: float) -> np.ndarray:
    """The glyph made narrower or wider and its strokes thinner or bolder: more letter shapes than the fonts have."""
    h, w = glyph.shape
    g = cv2.resize(glyph, (max(1, int(round(w * width))), h), interpolation=cv2.INTER_LINEAR)
    g = np.pad(g, 1)
    g = cv2.GaussianBlur(g, (3, 3), 0.7)
    return np.clip((g - 0.5 + weight) * 1.6 + 0.5, 0, 1).astype(np.float32)


def _narrowed(glyph: np.ndarray, most: float) -> np.ndarray:
    """The glyph squeezed sideways to at most ``most`` pixels wide (its height kept)."""
    h, w = glyph.shape
    if w <= most:
        return glyph
    return cv2.resize(glyph, (max(1, int(most)), h), interpolation=cv2.INTER_AREA)


def _stamp(canvas: np.ndarray, glyph: np.ndarray, x: float, y: float, colour) -> None:
    """Blend ``glyph`` into ``canvas`` with its centre at (x, y)."""
    gh, gw = glyph.shape
    x0, y0 = int(round(x - gw / 2)), int(round(y - gh / 2))
    x1, y1 = x0 + gw, y0 + gh
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if cx0 >= cx1 or cy0 >= cy1:
        return
    a = glyph[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    roi = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    canvas[cy0:cy1, cx0:cx1] = (roi * (1 - a) + np.asarray(colour, np.float32) * a).astype(np.uint8)


TILE_VARIANTS = 8    # looks (tone, grain, letter size, width and weight) per letter and style, cached


@functools.lru_cache(maxsize=16384)
def cached_tile(face: str, blank: bool, value: int, tile_style: str, font: str, variant: int) -> np.ndarray:
    """One of ``TILE_VARIANTS`` looks of a tile showing ``face`` (``A``, ``CH``), drawn once (a board of 100 tiles
    then costs pastes only)."""
    rng = np.random.default_rng([variant, *map(ord, face), int(blank), value, len(tile_style), len(font)])
    patch = tile_patch(face, blank, value, tile_style, font, rng)
    patch.flags.writeable = False
    return patch


def tile_patch(face: str, blank: bool, value: int, tile_style: str, font: str, rng: np.random.Generator
               ) -> np.ndarray:
    """One tile seen from above, ``CELL`` square with a bevel (BGR uint8), showing ``face`` (one letter, or a
    two-letter tile's ``CH``, narrowed: ``DIGRAPH_*``) and its value."""
    colour, ink, grain = TILES[tile_style]
    p = CELL - 2
    tone = np.asarray(colour, np.float32) * rng.uniform(0.93, 1.05)
    patch = np.empty((p, p, 3), np.float32)
    patch[:] = tone
    if grain:
        yy = np.arange(p, dtype=np.float32)[:, None]
        phase, freq = rng.uniform(0, 6.3), rng.uniform(0.25, 0.6)
        stripes = 1 + grain * np.sin(yy * freq + phase + 2 * np.sin(np.arange(p)[None, :] * 0.05))
        patch *= stripes[..., None]
    bevel = max(2, p // 12)
    patch[:bevel] *= 1.1
    patch[:, :bevel] *= 1.06
    patch[-bevel:] *= 0.78
    patch[:, -bevel:] *= 0.84
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    if not blank:
        size = int(p * rng.uniform(0.58, 0.7))
        width, weight = rng.uniform(0.82, 1.18), rng.uniform(-0.18, 0.18)
        if len(face) == 1:
            glyph = _reshape_glyph(_glyph(font, face, size), width, weight)
        else:
            glyph = _reshape_glyph(_glyph(font, face, int(size * DIGRAPH_HEIGHT)), width * DIGRAPH_SQUEEZE, weight)
            glyph = _narrowed(glyph, DIGRAPH_MAX_WIDTH * p)
        _stamp(patch, glyph, p * 0.46, p * 0.46, ink)
        _stamp(patch, _glyph(font, str(value), max(7, int(p * 0.24))), p * 0.8, p * 0.8, ink)
    return patch


def paste_rotated(img: np.ndarray, patch: np.ndarray, cx: float, cy: float, angle: float) -> None:
    """Paste the tile ``patch`` onto ``img`` (in place) turned by ``angle`` degrees with its centre at (cx, cy)."""
    p = patch.shape[0]
    m = cv2.getRotationMatrix2D((p / 2, p / 2), angle, 1.0)
    m[:, 2] += (cx - p / 2, cy - p / 2)
    w = p + 12 + p // 8          # room for a turn of a few degrees and the shadow, no more (speed)
    x0, y0 = int(cx - w / 2), int(cy - w / 2)
    m[:, 2] -= (x0, y0)
    # (a standing tile's face by the board's edge may reach past the flat board: the part inside is drawn)
    top, left = max(-y0, 0), max(-x0, 0)
    roi = img[y0 + top:y0 + w, x0 + left:x0 + w]
    if not roi.size:
        return
    # The tile and its coverage in one warp (alpha as a fourth channel), then a soft shadow to the bottom right
    # (the coverage moved by 2 px and blurred) under it.
    warped = cv2.warpAffine(np.dstack([patch, np.full((p, p), 255, np.uint8)]), m, (w, w), flags=cv2.INTER_LINEAR)
    mask = warped[..., 3:].astype(np.float32) / 255
    shadow = np.zeros_like(mask)
    shadow[2:, 2:] = mask[:-2, :-2]
    shadow = cv2.GaussianBlur(shadow, (5, 5), 0)[..., None] * 0.35
    inside = (slice(top, top + roi.shape[0]), slice(left, left + roi.shape[1]))
    out = roi * (1 - shadow[inside]) * (1 - mask[inside]) + warped[..., :3][inside] * mask[inside]
    roi[:] = out.astype(np.uint8)
