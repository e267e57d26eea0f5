"""Synthetic photos of Scrabble boards, seeded and deterministic, with their truth.

A frame is drawn in two steps: the flat board (squares, premiums, grid lines, frame, tiles with letters and values —
each standing ``TILE_THICKNESS`` tall, its face where the camera sees it, its sides between — and an optional arm) at
``CELL`` pixels a square, then ONE remap (perspective of a tilted camera and a mild radial lens
distortion together) onto a table with a rack and loose tiles beside the board, with lighting, blur, noise and JPEG
artefacts on top.

A ``Scene`` fixes all that stays the same over a video; the camera maps, light maps and the table are cached per
scene, and each square's tile draws its look and its small turn and shift from its own seeded stream, so frames of
one scene and seed differ only where tiles or the arm differ (and in the sensor noise). The truth comes with it: the playing grid's corners
in the image (``corners``, in grid order: row 1 / column A first), the grid text and the squares under the arm.

The board is the classic 15x15 unless ``render_board(layout="super21")`` asks for Super Scrabble's 21x21 (its
quadruple squares in deeper shades of the design's triple ones); the 15x15 renders are what they always were.

Tiles show their tile set's faces with its values: a two-letter tile (Spanish CH, LL, RR; a grid holds its
symbol, ``Ç``) prints both letters narrowed on one tile, as real Spanish tiles do; a letter a font lacks (``cm`` has
no Ä, Ñ, Ł …) is drawn in the font ``ASCII_ONLY`` names. The reader's training renders draw a share of their boards
in Spanish and Polish (``TRAINING_TILESET_MIX``), whatever tile set they ask for.

Styles combine a board design, a tile look and a font. Some combinations are held out of training
(``HELDOUT_STYLES``), as are the seeds in ``HELDOUT_SEEDS``, so evaluation runs on looks the model never saw.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

CELL = 40                       # flat board: pixels per square
SIZE = 15
FONT_DIR = Path(__file__).resolve().parent / "fonts"

# Board designs: plain square, TW, DW, TL, DL, grid line, frame colours (BGR).
BOARDS = {
    "classic": dict(plain=(170, 205, 222), TW=(50, 50, 200), DW=(150, 150, 235), TL=(140, 80, 30),
                    DL=(220, 200, 150), line=(235, 240, 240), frame=(40, 40, 110)),
    "mattel": dict(plain=(70, 120, 30), TW=(45, 45, 200), DW=(140, 135, 235), TL=(170, 100, 35),
                   DL=(215, 190, 130), line=(200, 225, 200), frame=(30, 70, 20)),
    "hasbro": dict(plain=(235, 238, 240), TW=(40, 110, 235), DW=(90, 90, 220), TL=(120, 170, 60),
                   DL=(210, 160, 80), line=(180, 185, 190), frame=(200, 205, 210)),
    "scrabscrap": dict(plain=(60, 125, 20), TW=(40, 40, 210), DW=(120, 120, 240), TL=(170, 90, 20),
                       DL=(220, 180, 120), line=(30, 70, 10), frame=(235, 240, 240)),
}
TILES = {   # face colour (BGR), letter colour, grain strength
    "ivory": ((200, 225, 238), (30, 30, 30), 0.0),
    "wood": ((130, 180, 215), (25, 25, 35), 0.10),
    "cream": ((185, 215, 232), (10, 10, 10), 0.03),
}
FONTS = {
    "sans": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif-Bold.ttf",
    "mono": "DejaVuSansMono-Bold.ttf",
    "sans-condensed": "DejaVuSansCondensed-Bold.ttf",
    "serif-condensed": "DejaVuSerifCondensed-Bold.ttf",
    "cm": "cmb10.ttf",          # Computer Modern bold (BaKoMa): thick and thin strokes, as serif tiles have
    "stix": "STIXGeneralBol.ttf",
}
#: Fonts without Ä Ö Ü (nor Ñ, Ł … : no letter outside ASCII): those letters are drawn in the font named here
#: instead. Every other font has every letter of the bundled tile sets (a test reads their character maps).
ASCII_ONLY = {"cm": "serif"}
#: A two-letter tile's face (CH) is drawn at this share of a single letter's height …
DIGRAPH_HEIGHT = 0.85
#: … its two letters this much narrower than the font sets them (real Spanish tiles print "CH" condensed) …
DIGRAPH_SQUEEZE = 0.7
#: … and at most this share of the tile's side wide, so that a wide pair (a bold serif "RR") stays on the face.
DIGRAPH_MAX_WIDTH = 0.8
ALL_STYLES = tuple(f"{b}/{t}/{f}" for b, t, f in itertools.product(BOARDS, TILES, FONTS))
#: Held out of training: a whole font, and one board/tile pairing in every font.
HELDOUT_STYLES = tuple(s for s in ALL_STYLES if s.endswith("/stix") or s.startswith("hasbro/wood/"))
TRAIN_STYLES = tuple(s for s in ALL_STYLES if s not in HELDOUT_STYLES)

#: Fonts only the training draws from (Liberation: Times-, Arial-, Arial Narrow- and Courier-like), added after
#: the styles above were fixed, so the held-out renders and the scenes of the demo and benchmark videos (drawn
#: from ``HELDOUT_STYLES`` and ``TRAIN_STYLES``) stay the same boards. The held-out board/tile pairing is kept out
#: in these fonts too.
EXTRA_TRAINING_FONTS = {
    "liberation-serif": "LiberationSerif-Bold.ttf",
    "liberation-sans": "LiberationSans-Bold.ttf",
    "liberation-narrow": "LiberationSansNarrow-Bold.ttf",
    "liberation-mono": "LiberationMono-Bold.ttf",
}
FONTS.update(EXTRA_TRAINING_FONTS)
TRAINING_STYLES = TRAIN_STYLES + tuple(
    f"{b}/{t}/{f}" for b, t, f in itertools.product(BOARDS, TILES, EXTRA_TRAINING_FONTS) if f"{b}/{t}" != "hasbro/wood")
#: Board designs and tile faces seen on the real photos of other people's boards (a Romanian yellow board, grey
#: 1998 Hasbro, vintage cream with black lines, club boards in yellow, teal and dark green; white plastic tiles and
#: coloured tournament tiles with light letters), drawn from only by the tile reader's training (``VARIETY_STYLES``):
#: variety for boards never seen, never a held-out target. Colours are BGR, as ``BOARDS`` and ``TILES``.
VARIETY_BOARDS = {
    "romanian": dict(plain=(40, 165, 205), TW=(45, 40, 150), DW=(190, 110, 185), TL=(150, 60, 20),
                     DL=(230, 180, 90), line=(200, 215, 225), frame=(30, 120, 170)),
    "grey1998": dict(plain=(175, 178, 176), TW=(50, 60, 190), DW=(150, 150, 230), TL=(160, 110, 40),
                     DL=(215, 195, 150), line=(210, 212, 210), frame=(90, 30, 40)),
    "vintage": dict(plain=(190, 215, 225), TW=(60, 70, 190), DW=(160, 160, 225), TL=(170, 120, 60),
                    DL=(215, 200, 165), line=(25, 25, 25), frame=(40, 50, 90)),
    "club-yellow": dict(plain=(80, 205, 225), TW=(70, 70, 215), DW=(170, 160, 240), TL=(190, 130, 60),
                        DL=(225, 205, 160), line=(235, 240, 240), frame=(40, 40, 40)),
    "teal": dict(plain=(140, 140, 40), TW=(60, 60, 210), DW=(160, 150, 235), TL=(150, 80, 20),
                 DL=(220, 200, 150), line=(190, 200, 190), frame=(90, 90, 30)),
    "green-dark": dict(plain=(50, 90, 30), TW=(50, 50, 190), DW=(150, 140, 230), TL=(160, 90, 30),
                       DL=(210, 190, 130), line=(190, 210, 190), frame=(20, 40, 15)),
}
VARIETY_TILES = {
    "white-plastic": ((235, 236, 236), (40, 40, 40), 0.0),
    "wood-light": ((150, 200, 225), (30, 30, 30), 0.08),
    "purple": ((110, 40, 80), (235, 235, 240), 0.0),
    "navy": ((95, 45, 25), (230, 230, 230), 0.0),
    "black": ((35, 35, 35), (225, 225, 225), 0.0),
    "maroon": ((45, 35, 120), (225, 230, 235), 0.0),
    "pink": ((175, 110, 225), (245, 245, 245), 0.0),
    "lime": ((60, 200, 150), (30, 30, 30), 0.0),
}
VARIETY_BOARDS["hasbro-worded"] = dict(BOARDS["hasbro"])
VARIETY_BOARDS["hasbro-bold-words"] = dict(BOARDS["hasbro"])
VARIETY_BOARDS["club-big-labels"] = dict(VARIETY_BOARDS["club-yellow"])
#: Variety boards whose premium squares spell their premium out ("DOUBLE / LETTER / SCORE"): printed text that is
#: not a tile, which a reader that has only seen "DL" takes for a letter.
WORDED_PREMIUMS = ("grey1998", "vintage", "club-yellow", "teal", "hasbro-worded", "hasbro-bold-words")
#: How a design prints on its premium squares, where not as the rest (text scale, stroke, ink as a share of the
#: square's colour): bold dark words, or big dark labels ("TW") — prints as letter-like as a tile's letter, which only
#: the square's reference (the same print on the bare squares of its kind) tells from one.
PREMIUM_PRINT = {"hasbro-bold-words": (0.3, 1, 0.2), "club-big-labels": (0.62, 2, 0.3)}
PREMIUM_WORDS = {"TW": ("TRIPLE", "WORD", "SCORE"), "DW": ("DOUBLE", "WORD", "SCORE"),
                 "TL": ("TRIPLE", "LETTER", "SCORE"), "DL": ("DOUBLE", "LETTER", "SCORE"),
                 "QW": ("QUADRUPLE", "WORD", "SCORE"), "QL": ("QUADRUPLE", "LETTER", "SCORE")}
#: Super Scrabble's quadruple squares, drawn in a design as its triple ones this much darker (the board's
#: "stronger" premium a deeper shade of the same colour); the designs' dicts stay as they were.
QUADRUPLE_OF = {"QW": "TW", "QL": "TL"}
QUADRUPLE_SHADE = 0.6
#: The most tiles a random position holds, by the board's size: a full bag of the board's game.
MOST_TILES = {15: 100, 21: 200}
BOARDS.update(VARIETY_BOARDS)
TILES.update(VARIETY_TILES)
VARIETY_STYLES = tuple(f"{b}/{t}/{f}" for b, t, f in itertools.product(BOARDS, TILES, FONTS)
                       if (b in VARIETY_BOARDS or t in VARIETY_TILES) and f != "stix")
#: The style pools only the reader's training draws from: their scenes take ``TRAINING_TILESET_MIX``.
_TRAINING_POOLS = frozenset({TRAINING_STYLES, VARIETY_STYLES})
TRAIN_SEEDS = range(0, 500_000)
#: Evaluation seeds. The bench reads the first 100; by the thirteenth session 900000–920999 had all been looked at
#: (docs/BENCHMARKS.md, Vision), so a figure on boards nobody has seen starts at 921000 (``--first-render 21000``).
#: No training command draws from it: training slices stay below 500000.
HELDOUT_SEEDS = range(900_000, 1_000_000)
#: The tile sets a training render (``sample_scene`` drawing from ``TRAINING_STYLES`` or ``VARIETY_STYLES``, as only
#: the reader's training does) is drawn in instead of the one it asks for, and the share of boards each takes: the
#: training asks for English and German boards, and the letters only these sets have (Spanish Ñ, CH, LL, RR;
#: Polish Ą … Ż) need boards of their own. Such a scene's tiles get their letters drawn anew (``Scene.reletter``).
TRAINING_TILESET_MIX = (("spanish", 1 / 8), ("polish", 1 / 8))
#: On such a board, this share of the tiles is drawn evenly among the set's own letters (those English lacks), the
#: rest from its bag: a bag holds one Ñ in a hundred tiles, which would give the rarest class a few dozen squares.
OWN_LETTERS_SHARE = 0.25
#: The seed stream (``default_rng([seed, RELETTER_STREAM])``) a render's letters are drawn anew from: its own, so
#: that a render's other draws stay what they were.
RELETTER_STREAM = 13

class SynthError(ValueError):
    """Bad arguments to the renderer."""


class GridError(SynthError):
    """A grid that is not 15 strings of 15 squares (21 of 21 on Super Scrabble's board) of ``.``, ``?`` and
    letters."""


SKIN = ((150, 180, 225), (120, 150, 205), (90, 120, 175), (60, 85, 130), (175, 195, 235))


@dataclass(frozen=True)
class Scene:
    """What stays the same over a video: the look, the camera and the light."""

    style: str
    tilt_deg: float             # camera tilt from looking straight down
    tilt_dir_deg: float         # which way the camera leans
    roll_deg: float             # the board's turn in the picture
    fill: float                 # board side / shorter image side
    offset: tuple[float, float]  # board centre offset, fraction of the image
    frame_frac: float           # board frame width in squares
    k1: float                   # radial lens distortion
    light: tuple[float, float, float]    # colour temperature gains (B, G, R)
    gradient: tuple[float, float, float]  # brightness gradient: angle, strength, base
    glare: tuple[float, float, float, float]   # x, y (fractions), radius (fraction), strength
    shadow: tuple[float, float, float]   # band angle, position, darkness
    table: tuple[int, int, int]
    blur: float
    noise: float
    jpeg: int
    tileset: str = "english"
    distractors: int = 3
    distance: float = 2.6       # camera height in board sides: nearer is stronger perspective
    reletter: bool = False      # the grid's tiles get letters of ``tileset`` when rendered (``TRAINING_TILESET_MIX``)
    tile_lock: bool = False     # a Tile Lock board: tiles in the recesses of a raised grid (``_raise_walls``)
    tile_height: float = 0.0    # a tile's thickness in squares (its face that far above the board: ``_lifted``)


@dataclass(frozen=True, eq=False)
class Render:
    image: np.ndarray = field(repr=False)
    corners: np.ndarray
    grid: tuple[str, ...]
    occluded: np.ndarray = field(repr=False)
    style: str
    #: Squares the arm covers in part (a little, up to ``occluded``): their content is still the truth, and a
    #: reader that calls them occluded (``#``, the unsure signal) is not wrong either.
    touched: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((SIZE, SIZE), bool))


#: How thick the drawn tiles are, in squares: their faces stand that far above the board (``_lifted``), as real
#: tiles' 4-5 mm do on squares of 19-22 mm, seen up the picture from their squares by a camera low over an edge.
#: The renders before 2026-11-27 evening drew them flat (0).
TILE_THICKNESS = 0.2


def sample_scene(rng: np.random.Generator, tileset: str = "english", styles=None) -> Scene:
    """A random scene in a style of ``styles`` (default ``TRAIN_STYLES``). A scene of the reader's training pools
    (``TRAINING_STYLES``, ``VARIETY_STYLES``) is drawn in Spanish or Polish instead of ``tileset`` for a share of
    its boards (``TRAINING_TILESET_MIX``), its grid's letters drawn anew when rendered; any other pool's scenes are
    what they always were."""
    pool = tuple(styles) if styles else TRAIN_STYLES
    scene = Scene(
        style=pool[int(rng.integers(len(pool)))],
        tilt_deg=float(rng.uniform(0, 35)), tilt_dir_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(0, 360)) if rng.random() < 0.5 else float(rng.normal(0, 6)),
        fill=float(rng.uniform(0.62, 0.92)), offset=(float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.05, 0.05))),
        frame_frac=float(rng.uniform(0.25, 0.9)), k1=float(rng.uniform(-0.015, 0.01)),
        light=tuple(float(v) for v in (rng.uniform(0.85, 1.1), 1.0, rng.uniform(0.9, 1.15))),
        gradient=(float(rng.uniform(0, 2 * np.pi)), float(rng.uniform(0, 0.35)), float(rng.uniform(0.8, 1.1))),
        glare=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.05, 0.2)),
               float(rng.uniform(0, 0.5)) if rng.random() < 0.5 else 0.0),
        shadow=(float(rng.uniform(0, np.pi)), float(rng.uniform(-0.5, 0.5)),
                float(rng.uniform(0.1, 0.4)) if rng.random() < 0.4 else 0.0),
        table=tuple(int(v) for v in rng.integers(30, 200, 3)),
        blur=float(rng.uniform(0, 1.1)), noise=float(rng.uniform(1, 6)), jpeg=int(rng.integers(60, 96)),
        tileset=tileset, distractors=int(rng.integers(0, 5)), distance=float(rng.uniform(1.6, 3.5)),
        tile_height=TILE_THICKNESS,
    )
    return training_tileset(scene, rng) if pool in _TRAINING_POOLS else scene


def training_tileset(scene: Scene, rng: np.random.Generator) -> Scene:
    """``scene`` drawn in one of ``TRAINING_TILESET_MIX``'s tile sets for its share of boards (letters drawn anew
    when rendered), else as it is; one draw from ``rng`` either way."""
    draw = rng.random()
    for tileset, share in TRAINING_TILESET_MIX:
        if draw < share:
            return replace(scene, tileset=tileset, reletter=True)
        draw -= share
    return scene


# --- glyphs and tiles ---------------------------------------------------------------------------------------------

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
def _cached_tile(face: str, blank: bool, value: int, tile_style: str, font: str, variant: int) -> np.ndarray:
    """One of ``TILE_VARIANTS`` looks of a tile showing ``face`` (``A``, ``CH``), drawn once (a board of 100 tiles
    then costs pastes only)."""
    rng = np.random.default_rng([variant, *map(ord, face), int(blank), value, len(tile_style), len(font)])
    patch = _tile_patch(face, blank, value, tile_style, font, rng)
    patch.flags.writeable = False
    return patch


def _tile_patch(face: str, blank: bool, value: int, tile_style: str, font: str, rng: np.random.Generator
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


# --- the flat board -----------------------------------------------------------------------------------------------

def premium_colour(design: str, premium: str) -> tuple[int, ...]:
    """The BGR colour of a square of ``premium`` ("plain", "TW", … "QW", "QL") on the board ``design``."""
    colours = BOARDS[design]
    if premium in QUADRUPLE_OF:
        return tuple(int(v * QUADRUPLE_SHADE) for v in colours[QUADRUPLE_OF[premium]])
    return colours[premium]


@functools.lru_cache(maxsize=16)
def _board_base(design: str, frame_px: int, layout_name: str = "standard15") -> np.ndarray:
    from tilecam.engine.layout import Layout

    colours = {**BOARDS[design], **{q: premium_colour(design, q) for q in QUADRUPLE_OF}}
    layout = Layout.load(layout_name)
    size = layout.size
    side = size * CELL + 2 * frame_px
    img = np.empty((side, side, 3), np.uint8)
    img[:] = colours["frame"]
    for r in range(size):
        for c in range(size):
            premium = layout.premium(r, c) or "plain"
            y, x = frame_px + r * CELL, frame_px + c * CELL
            img[y:y + CELL, x:x + CELL] = colours[premium]
            if premium != "plain" and design in WORDED_PREMIUMS:
                # the premium spelt out in three small lines, as on Hasbro and club boards
                scale, stroke, ink = PREMIUM_PRINT.get(design, (0.24, 1, 0.45))
                tint = tuple(int(v * ink) for v in colours[premium])
                for k, word in enumerate(PREMIUM_WORDS[premium]):
                    text, _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
                    cv2.putText(img, word, (x + (CELL - text[0]) // 2, y + 12 + 9 * k), cv2.FONT_HERSHEY_SIMPLEX,
                                scale, tint, stroke, cv2.LINE_AA)
            elif premium != "plain":
                label = premium
                scale, stroke, ink = PREMIUM_PRINT.get(design, (0.42, 1, 0.75))
                tint = tuple(int(v * ink) for v in colours[premium])
                text, _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
                at = (x + 9, y + 26) if design not in PREMIUM_PRINT else (x + (CELL - text[0]) // 2,
                                                                          y + (CELL + text[1]) // 2)
                cv2.putText(img, label, at, cv2.FONT_HERSHEY_SIMPLEX, scale, tint, stroke, cv2.LINE_AA)
    cy, cx = frame_px + (layout.center[0] + 0.5) * CELL, frame_px + (layout.center[1] + 0.5) * CELL
    star = np.array([[cx + 12 * np.cos(a) * (1 if i % 2 == 0 else 0.45), cy + 12 * np.sin(a) * (1 if i % 2 == 0 else 0.45)]
                     for i, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False))], np.int32)
    cv2.fillPoly(img, [star], (30, 30, 30), cv2.LINE_AA)
    for i in range(size + 1):
        p = frame_px + i * CELL
        cv2.line(img, (frame_px, p), (frame_px + size * CELL, p), colours["line"], 2)
        cv2.line(img, (p, frame_px), (p, frame_px + size * CELL), colours["line"], 2)
    return img


def _flat_board(scene: Scene, grid: tuple[str, ...], rng: np.random.Generator, hand,
                layout: str = "standard15") -> tuple[np.ndarray, int]:
    design, tile_style, font = scene.style.split("/")
    frame_px = _frame_px(scene)
    img = _board_base(design, frame_px, layout).copy()
    if scene.tile_lock:
        _raise_walls(img, frame_px, len(grid))
    values, faces = _values(scene.tileset), _faces(scene.tileset)
    seed = int(rng.integers(2**31))
    # a Tile Lock board's tiles sit in their recesses, their faces about level with the walls, drawn flat
    camera = None if scene.tile_lock or not scene.tile_height else _camera_over_board(scene, img.shape[0])
    for r, c in _far_to_near(len(grid), frame_px, camera):
        ch = grid[r][c]
        if ch in ".#":
            continue
        blank = ch == "?" or ch.islower()
        letter = ch.upper()
        # Each square's own stream: in a video (same scene and seed) a tile keeps its look and place
        # when other tiles come and go.
        square_rng = np.random.default_rng([seed, r, c, ord(letter)])
        variant = int(square_rng.integers(TILE_VARIANTS))
        patch = _cached_tile(faces.get(letter, letter), blank, values.get(letter, 1), tile_style, font, variant)
        angle = float(np.clip(square_rng.normal(0, 1.8), -4, 4))
        dx, dy = np.clip(square_rng.normal(0, 0.035 * CELL, 2), -0.08 * CELL, 0.08 * CELL)
        if scene.tile_lock:     # held by its recess: smaller than the square, barely turned or moved
            side = CELL - TILE_LOCK_WALL - 2
            patch = cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA)
            angle, dx, dy = angle / 4, dx / 4, dy / 4
        cx, cy = frame_px + (c + 0.5) * CELL + dx, frame_px + (r + 0.5) * CELL + dy
        _paste_rotated(img, patch, cx, cy, angle)
        if camera is not None:
            _lifted(img, patch, cx, cy, angle, camera, scene.tile_height * CELL)
    if hand:
        _draw_arm(img, hand, frame_px, rng)
    return img, frame_px


def _camera_over_board(scene: Scene, flat_side: int) -> tuple[np.ndarray, float]:
    """Where the scene's camera stands over the flat board (``_camera_homography``'s camera): the board point
    straight below it (flat-board pixels; may lie off the board) and its height above the board (pixels)."""
    rz, rt = _board_turns(scene)
    rotation = rt @ rz
    # the camera sits at depth 0, the board's centre at depth ``distance``: in the board's frame it is at
    # -distance times the rotation's last row (the board's +z points away from the camera)
    at = -scene.distance * flat_side * rotation[2]
    return at[:2] + flat_side / 2, float(-at[2])


def _far_to_near(size: int, frame_px: int, camera) -> list[tuple[int, int]]:
    """The squares in the order tiles are drawn: row by row on a flat board; farthest from the camera first where
    tiles stand up (``_lifted``), so that a nearer tile's sides hide the foot of the one behind it."""
    squares = [(r, c) for r in range(size) for c in range(size)]
    if camera is None:
        return squares
    below = camera[0]
    return sorted(squares, key=lambda rc: -np.hypot(frame_px + (rc[1] + 0.5) * CELL - below[0],
                                                     frame_px + (rc[0] + 0.5) * CELL - below[1]))


#: The share of the light a tile's sides get, against its face's (they face sideways, the light comes from above).
TILE_SIDE_SHADE = 0.72


def _lifted(img: np.ndarray, patch: np.ndarray, cx: float, cy: float, angle: float, camera, height: float) -> None:
    """Stand the tile whose foot is drawn at (``cx``, ``cy``) ``height`` pixels tall (in place): its face moved to
    where the camera sees it on the flat board (away from the point below the camera, by height / (camera height -
    height) of the distance from it), and its sides, swept from foot to face, in the tile's colour a little shaded."""
    below, above = camera
    grow = height / (above - height)
    fx, fy = cx + (cx - below[0]) * grow, cy + (cy - below[1]) * grow
    p = patch.shape[0]
    corners = cv2.boxPoints(((0.0, 0.0), (p, p), -angle))
    hull = cv2.convexHull(np.vstack([corners + (cx, cy), corners + (fx, fy)]).astype(np.float32))
    edge = np.concatenate([patch[0], patch[-1], patch[:, 0], patch[:, -1]]).astype(np.float32)
    side = tuple(float(v) for v in np.median(edge, axis=0) * TILE_SIDE_SHADE)
    cv2.fillConvexPoly(img, np.round(hull * 16).astype(np.int32), side, cv2.LINE_AA, 4)
    _paste_rotated(img, patch, fx, fy, angle)


#: A Tile Lock board's wall between two recesses, in pixels of a flat board's ``CELL``-pixel square (about 2 of a
#: square's 12 mm), and the shadow it casts into the recess on its far side from the light.
TILE_LOCK_WALL, TILE_LOCK_SHADOW = 7, 4


def _raise_walls(img: np.ndarray, frame_px: int, size: int) -> None:
    """Draw a Tile Lock board's raised grid over the flat board ``img`` (in place): walls of dark plastic, lit on
    their top and left faces, each casting a shadow into the recesses below and right of it (the light from the
    top left), the squares' prints at the bottom of the recesses."""
    wall, shade = TILE_LOCK_WALL, TILE_LOCK_SHADOW
    plastic = np.array((58, 58, 62), np.float32)
    for i in range(size + 1):
        p = frame_px + i * CELL
        lo, hi = max(p - wall // 2, 0), p + (wall + 1) // 2
        for axis in (0, 1):
            span = (slice(lo, hi), slice(frame_px - wall // 2, frame_px + size * CELL + wall // 2))
            box = span if axis == 0 else span[::-1]
            shadow = (slice(hi, hi + shade), span[1]) if axis == 0 else (span[1], slice(hi, hi + shade))
            img[shadow] = (img[shadow].astype(np.float32) * 0.55).astype(np.uint8)
            img[box] = plastic.astype(np.uint8)
            lit = (slice(lo, lo + 2), span[1]) if axis == 0 else (span[1], slice(lo, lo + 2))
            img[lit] = np.clip(plastic * 1.9, 0, 255).astype(np.uint8)


def _paste_rotated(img: np.ndarray, patch: np.ndarray, cx: float, cy: float, angle: float) -> None:
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


def _draw_arm(img: np.ndarray, hand, frame_px: int, rng: np.random.Generator) -> None:
    pts = np.array([[frame_px + x * CELL, frame_px + y * CELL] for x, y in hand], np.float32)
    colour = np.asarray(SKIN[int(rng.integers(len(SKIN)))], np.float32)
    # Only the arm's bounding box (plus its shadow's reach) is touched: a full-board pass costs ~30 ms.
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 40, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 40, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    layer = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(layer, [(pts - (x0, y0)).astype(np.int32)], 255, cv2.LINE_AA)
    cast = np.zeros_like(layer)
    cast[14:, 10:] = layer[:-14, :-10]     # the shadow falls to the bottom right
    shadow = cv2.GaussianBlur(cast, (31, 31), 0).astype(np.float32) / 255 * 0.45
    roi[:] = (roi * (1 - shadow[..., None])).astype(np.uint8)
    a = cv2.GaussianBlur(layer, (5, 5), 0).astype(np.float32)[..., None] / 255
    dist = cv2.distanceTransform(layer, cv2.DIST_L2, 5)
    shade = 0.75 + 0.35 * np.clip(dist / 24.0, 0, 1)
    roi[:] = np.clip(roi * (1 - a) + (colour * shade[..., None]) * a, 0, 255).astype(np.uint8)


def arm_cover(hand, size: int = SIZE) -> np.ndarray:
    """The share (0..1) of each square of a ``size`` x ``size`` grid that lies under the polygon ``hand`` (grid
    units)."""
    if not hand:
        return np.zeros((size, size), np.float32)
    k = 8
    layer = np.zeros((size * k, size * k), np.uint8)
    cv2.fillPoly(layer, [np.round(np.array(hand, np.float32) * k).astype(np.int32)], 1)
    return layer.reshape(size, k, size, k).mean(axis=(1, 3)).astype(np.float32)


OCCLUDED_COVER = 0.3      # a square more than this under the arm is occluded: its content is not scored
TOUCHED_COVER = 0.02      # a square more than this under the arm is touched: read as occluded, it is not wrong


@functools.lru_cache(maxsize=16)
def _values(tileset: str) -> dict[str, int]:
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    return {letter: ts.value(letter) for letter in ts.letters}


@functools.lru_cache(maxsize=16)
def _faces(tileset: str) -> dict[str, str]:
    """What each letter (symbol) of the tile set shows: itself, or a two-letter tile's face (``Ç`` → ``CH``)."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    return dict(zip(ts.letters, ts.faces))


def own_letters(tileset: str) -> tuple[str, ...]:
    """The letters of ``tileset`` that the English set lacks (Spanish ``Ç Ŀ Ñ Ř``, Polish ``Ą Ć`` …)."""
    from tilecam.engine.tiles import TileSet

    english = set(TileSet.load("english").letters)
    return tuple(letter for letter in TileSet.load(tileset).letters if letter not in english)


def reletter(grid, tileset: str, rng: np.random.Generator, favoured: tuple[str, ...] = (), share: float = 0.0,
             within_counts: bool = True) -> tuple[str, ...]:
    """``grid`` with each lettered tile's letter drawn anew in ``tileset``: with probability ``share`` evenly among
    the ``favoured`` letters, else from the set's bag; bare squares and blank tiles stay as they are. With
    ``within_counts`` the tiles come out of the bag (no more of a letter than the set holds, as on a real board;
    the favoured letters those it still holds); without, each is drawn from the whole bag again (a training board,
    whose squares are learnt one by one, can hold a set's one Ź many times)."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    full = [letter for letter in ts.letters for _ in range(ts.count(letter))]
    bag = list(full)
    rows = []
    for row in grid:
        squares = []
        for ch in row:
            if not ch.isalpha() or ch.islower():
                squares.append(ch)
                continue
            if not bag:
                raise ValueError(f"the grid holds more lettered tiles than the {tileset} set has")
            left = [letter for letter in favoured if letter in bag] if within_counts else list(favoured)
            if left and rng.random() < share:
                letter = left[int(rng.integers(len(left)))]
            else:
                letter = bag[int(rng.integers(len(bag)))]
            if within_counts:
                bag.remove(letter)
            squares.append(letter)
        rows.append("".join(squares))
    return tuple(rows)


# --- random positions ---------------------------------------------------------------------------------------------

def random_grid(rng: np.random.Generator, tileset: str = "english", tiles: int | None = None, size: int = SIZE
                ) -> tuple[str, ...]:
    """A plausible position on a ``size`` x ``size`` board: crossing runs of tiles drawn out of the tile set's bag
    (no more of a letter, or blanks, than the set holds), starting through the centre, every tile joined to the
    others as in a game."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    bag = [l for l in ts.letters for _ in range(ts.count(l))] + ["?"] * ts.blanks
    target = int(rng.integers(0, MOST_TILES[size] + 1)) if tiles is None else tiles
    board = [["."] * size for _ in range(size)]
    mid = size // 2
    placed = 0
    for attempt in range(400 * size // SIZE):     # tries in proportion to the board's side
        if placed >= target:
            break
        length = int(rng.integers(2, 9))
        across = bool(rng.integers(2))
        if placed == 0:   # the first word covers the centre star
            off = int(rng.integers(0, length))
            r, c = (mid, mid - off) if across else (mid - off, mid)
        else:
            cells = [(i, j) for i in range(size) for j in range(size) if board[i][j] != "."]
            ar, ac = cells[int(rng.integers(len(cells)))]
            off = int(rng.integers(0, length))
            r, c = (ar, ac - off) if across else (ar - off, ac)
        squares = [(r, c + k) if across else (r + k, c) for k in range(length)]
        if any(not (0 <= i < size and 0 <= j < size) for i, j in squares):
            continue
        for i, j in squares:
            if board[i][j] == "." and placed < target and bag:
                board[i][j] = bag.pop(int(rng.integers(len(bag))))
                placed += 1
    return _joined_to_centre(board)


def _joined_to_centre(board: list[list[str]]) -> tuple[str, ...]:
    """The rows of ``board`` with only the tiles joined to the centre square's: a run cut short by the target may
    stop before the tile it hangs on, and a game's tiles all hang together."""
    from tilecam.vision.connected import groups_of

    mid = len(board) // 2
    groups = groups_of(np.array([[ch != "." for ch in row] for row in board]))
    keep = groups == groups[mid, mid]
    return tuple("".join(ch if keep[r, c] else "." for c, ch in enumerate(row)) for r, row in enumerate(board))


def random_arm(rng: np.random.Generator, size: int = SIZE) -> list[tuple[float, float]]:
    """An arm reaching in over one edge of a ``size`` x ``size`` board towards a square (grid units)."""
    tx, ty = rng.uniform(1, size - 1, 2)
    side = int(rng.integers(4))
    ex, ey = [(tx, -6), (size + 6, ty), (tx, size + 6), (-6, ty)][side]
    d = np.array([tx - ex, ty - ey])
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    w_arm, w_hand = rng.uniform(0.9, 1.4), rng.uniform(1.0, 1.5)
    tip = np.array([tx, ty])
    pts = [np.array([ex, ey]) + n * w_arm, tip - d * 0.8 + n * w_hand, tip + d * 0.6, tip - d * 0.8 - n * w_hand,
           np.array([ex, ey]) - n * w_arm]
    return [(float(x), float(y)) for x, y in pts]


# --- the camera -----------------------------------------------------------------------------------------------------

def _board_turns(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """The board's turn in the picture (about the camera's axis) and the camera's tilt (about an axis in the board's
    plane, ``tilt_dir_deg`` round), as rotation matrices applied in that order."""
    roll = np.deg2rad(scene.roll_deg)
    rz = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]])
    tilt, direction = np.deg2rad(scene.tilt_deg), np.deg2rad(scene.tilt_dir_deg)
    axis = np.array([np.cos(direction), np.sin(direction), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return rz, np.eye(3) + np.sin(tilt) * k + (1 - np.cos(tilt)) * (k @ k)


def _camera_homography(scene: Scene, flat_side: int, size: tuple[int, int]) -> np.ndarray:
    """Flat board pixels → image pixels for a board on the table seen by the scene's camera."""
    w, h = size
    half = flat_side / 2
    pts = np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0], [-half, half, 0]], np.float64)
    rz, rt = _board_turns(scene)
    world = pts @ rz.T @ rt.T
    distance = scene.distance * flat_side
    z = world[:, 2] + distance
    proj = world[:, :2] / z[:, None]
    span = np.ptp(proj, axis=0).max()
    scale = scene.fill * min(w, h) / span
    centre = np.array([w / 2 + scene.offset[0] * w, h / 2 + scene.offset[1] * h])
    # The whole board stays in the picture: centre its bounding box, then pull it in where it would cross an edge.
    mid = (proj.min(axis=0) + proj.max(axis=0)) / 2
    half_extent = (proj.max(axis=0) - proj.min(axis=0)) / 2 * scale
    room = np.maximum(np.array([w / 2, h / 2]) - half_extent - 0.01 * min(w, h), 0)
    centre = np.clip(centre, np.array([w / 2, h / 2]) - room, np.array([w / 2, h / 2]) + room)
    img_pts = (proj - mid) * scale + centre
    src = np.array([[0, 0], [flat_side, 0], [flat_side, flat_side], [0, flat_side]], np.float32)
    return cv2.getPerspectiveTransform(src, img_pts.astype(np.float32))


TABLE_COLOURS = ((60, 90, 130), (40, 60, 95), (90, 130, 170), (120, 120, 120), (200, 205, 210), (50, 50, 55),
                 (70, 110, 90), (140, 160, 190))


def _table(scene: Scene, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Wood or cloth: a base colour with grain stripes and blotches, drawn small and scaled up."""
    w, h = size
    sw, sh = w // 4, h // 4
    base = np.asarray(TABLE_COLOURS[scene.table[0] % len(TABLE_COLOURS)], np.float32) * (0.8 + scene.table[1] / 500)
    yy = np.linspace(0, 1, sh, dtype=np.float32)[:, None]
    stripes = 1 + 0.08 * np.sin(yy * rng.uniform(20, 80) + np.linspace(0, rng.uniform(1, 6), sw)[None, :])
    low = cv2.resize(rng.normal(1, 0.08, (9, 12)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC)
    small = np.clip(base * (stripes * low)[..., None], 0, 255).astype(np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _clear_of(keep_out: np.ndarray | None, poly: np.ndarray) -> bool:
    """Whether the polygon (image px) lies inside the picture and off the ``keep_out`` mask."""
    if keep_out is None:
        return True
    h, w = keep_out.shape
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return False
    footprint = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(footprint, [(poly - (x0, y0)).astype(np.int32)], 1)
    return not (footprint.astype(bool) & keep_out[y0:y1, x0:x1]).any()


def _distractors(img: np.ndarray, scene: Scene, rng: np.random.Generator, keep_out: np.ndarray | None = None
                 ) -> None:
    """A rack with tiles and loose tiles on the table, beside the board (off ``keep_out``, the board's
    picture grown by a few pixels: a rack half under a board is not a real scene)."""
    h, w = img.shape[:2]
    _, tile_style, font = scene.style.split("/")
    values, faces = _values(scene.tileset), _faces(scene.tileset)
    letters = list(values)
    for _ in range(scene.distractors):
        rack = rng.random() < 0.4
        length, angle = rng.uniform(120, 260), rng.uniform(0, 180)
        s = int(rng.uniform(0.6, 1.2) * CELL)
        for _try in range(12):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if rack:
                box = cv2.boxPoints(((cx, cy), (length, 30), angle))
            else:
                box = np.array([[cx, cy], [cx + s, cy], [cx + s, cy + s], [cx, cy + s]], np.float32)
            if _clear_of(keep_out, box):
                break
        else:
            continue
        if rack:   # a dark bar with tiles standing on it, turned with it
            cv2.fillPoly(img, [box.astype(np.int32)], tuple(int(v) for v in rng.integers(20, 90, 3)))
            ux, uy = np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))
            n = int(length // (0.8 * CELL))
            for k in range(n):
                t = (k - (n - 1) / 2) * 0.8 * CELL
                letter = letters[int(rng.integers(len(letters)))]
                patch = cv2.resize(_tile_patch(faces[letter], False, values[letter], tile_style, font, rng),
                                   (int(0.7 * CELL), int(0.7 * CELL)))
                _paste_rotated(img, patch, cx + ux * t, cy + uy * t, -angle)
        else:
            letter = letters[int(rng.integers(len(letters)))]
            patch = cv2.resize(_tile_patch(faces[letter], False, values[letter], tile_style, font, rng), (s, s))
            x0, y0 = int(cx), int(cy)
            img[y0:y0 + s, x0:x0 + s] = patch


@functools.lru_cache(maxsize=8)
def _light_maps(scene: Scene, w: int, h: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Colour temperature, a brightness gradient, a shadow band and a glare spot: a gain map (H x W x 3) and a grey
    additive one (H x W, None without glare), float32, drawn small and scaled up, the same for every frame."""
    sh, sw = h // 8, w // 8
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    yy /= sh
    xx /= sw
    angle, strength, base = scene.gradient
    gain = base * (1 + strength * ((xx - 0.5) * np.cos(angle) + (yy - 0.5) * np.sin(angle)))
    sa, spos, sdark = scene.shadow
    if sdark:
        v = (xx - 0.5) * np.cos(sa) + (yy - 0.5) * np.sin(sa) - spos
        gain *= 1 - sdark * np.clip(0.5 - v * 8, 0, 1) * np.clip(0.5 + (v + 0.15) * 8, 0, 1)
    gx, gy, gr, gs = scene.glare
    add = np.zeros_like(gain)
    if gs:
        add = gs * 255 * np.exp(-((xx - gx) ** 2 * (w / h) ** 2 + (yy - gy) ** 2) / (2 * (gr * w / h) ** 2))
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)[..., None] * np.asarray(scene.light, np.float32)
    add = cv2.resize(add.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR) if gs else None
    return gain.astype(np.float32), add


def _light(img: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """The scene's light, then sensor noise (grey, per pixel, from ``rng``)."""
    h, w = img.shape[:2]
    gain, add = _light_maps(scene, w, h)
    out = cv2.multiply(img.astype(np.float32), gain)
    grey = rng.standard_normal((h, w), dtype=np.float32) * np.float32(scene.noise)
    if add is not None:
        grey += add
    out = cv2.add(out, cv2.merge([grey, grey, grey]))
    return cv2.convertScaleAbs(out)      # saturates to 0..255 (nothing is negative but the noise)


@functools.lru_cache(maxsize=8)
def _camera_maps(scene: Scene, flat_side: int, size: tuple[int, int], grid_size: int = SIZE
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For every image pixel, where it looks on the flat board (perspective and lens distortion in ONE remap), the
    mask of pixels that see the board, and the grid's corners in the image. The same for every frame of a scene."""
    w, h = size
    h_cam = _camera_homography(scene, flat_side, size)
    c = np.array([w / 2, h / 2], np.float32)
    norm = max(w, h) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - c[0]) / norm, (yy - c[1]) / norm
    factor = 1 + scene.k1 * (dx * dx + dy * dy)
    undistorted = np.stack([c[0] + dx * factor * norm, c[1] + dy * factor * norm], axis=-1)
    flat = cv2.perspectiveTransform(undistorted.reshape(-1, 1, 2), np.linalg.inv(h_cam)).reshape(h, w, 2)
    map1, map2 = cv2.convertMaps(flat[..., 0], flat[..., 1], cv2.CV_16SC2)
    mask = cv2.remap(np.full((flat_side, flat_side), 255, np.uint8), map1, map2, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return map1, map2, mask > 127, _grid_corners(scene, h_cam, size, grid_size)


def grid_corners(scene: Scene, size: tuple[int, int] = (960, 720), grid_size: int = SIZE) -> np.ndarray:
    """The playing grid's corners in a frame of ``size`` seen by the scene's camera, as ``Render.corners`` holds
    them (grid order: row 1 / column A first), without rendering anything."""
    return _grid_corners(scene, _camera_homography(scene, _flat_side(scene, grid_size), size), size, grid_size)


def _frame_px(scene: Scene) -> int:
    """The board's frame around the grid, in flat-board pixels."""
    return int(round(scene.frame_frac * CELL))


def _flat_side(scene: Scene, grid_size: int) -> int:
    """The flat board's side in pixels: the grid and the frame on both sides."""
    return grid_size * CELL + 2 * _frame_px(scene)


def _grid_corners(scene: Scene, h_cam: np.ndarray, size: tuple[int, int], grid_size: int) -> np.ndarray:
    frame_px = _frame_px(scene)
    g0, g1 = frame_px, frame_px + grid_size * CELL
    grid_flat = np.array([[g0, g0], [g1, g0], [g1, g1], [g0, g1]], np.float32)
    corners = cv2.perspectiveTransform(grid_flat.reshape(-1, 1, 2), h_cam).reshape(4, 2)
    return _distorted_corners(corners, scene.k1, size)


@functools.lru_cache(maxsize=8)
def _table_with_distractors(scene: Scene, size: tuple[int, int], seed: int, grid_size: int = SIZE) -> np.ndarray:
    """The table and what lies on it: the same for every frame of a scene with this seed."""
    rng = np.random.default_rng([seed, 1])
    table = _table(scene, size, rng)
    board = _camera_maps(scene, _flat_side(scene, grid_size), size, grid_size)[2].astype(np.uint8)
    keep_out = cv2.dilate(board, np.ones((25, 25), np.uint8)).astype(bool)
    _distractors(table, scene, rng, keep_out)
    return table


def _distorted_corners(corners: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where points of the undistorted picture land under the lens distortion of :func:`_camera_maps`."""
    if abs(k1) < 1e-4:
        return corners
    w, h = size
    c = np.array([w / 2, h / 2], np.float32)
    norm = max(w, h) / 2
    # Output point q shows source point q * (1 + k1 |q|^2): invert by fixed-point iteration.
    src = (corners - c) / norm
    q = src.copy()
    for _ in range(20):
        q = src / (1 + k1 * (q ** 2).sum(axis=1, keepdims=True))
    return (q * norm + c).astype(np.float32)


def render_board(grid=None, *, seed: int, styles=None, style: str | None = None, tileset: str = "english",
                 scene: Scene | None = None, hand=None, size: tuple[int, int] = (960, 720),
                 layout: str = "standard15") -> Render:
    """One synthetic camera frame and its truth. ``grid``: 15 strings (``.``, letters, ``?`` or a lower-case letter
    for a blank tile) or None for a random position; ``hand``: an arm polygon in grid units (x = column, y = row),
    or None (a random arm over some random boards). ``layout``: the board's premium layout (``engine`` data: the
    classic ``standard15``, Super Scrabble's ``super21`` with grids of 21 strings of 21). A scene with ``reletter``
    (a training scene drawn in Spanish or Polish) gives the grid's tiles letters of its tile set: the truth's
    ``grid`` holds them."""
    from tilecam.engine.layout import Layout

    grid_size = Layout.load(layout).size
    rng = np.random.default_rng(seed)
    if scene is None:
        scene = sample_scene(rng, tileset, styles)
    if style is not None:
        scene = Scene(**{**scene.__dict__, "style": style})
    if grid is None:
        grid = random_grid(rng, scene.tileset, size=grid_size)
        if hand is None and rng.random() < 0.3:
            hand = random_arm(rng, grid_size)
    grid = tuple(str(row) for row in grid)
    if scene.reletter:
        # (a training scene's: its rare letters as often as OWN_LETTERS_SHARE asks, beyond the set's counts)
        grid = reletter(grid, scene.tileset, np.random.default_rng([int(seed), RELETTER_STREAM]),
                        own_letters(scene.tileset), OWN_LETTERS_SHARE, within_counts=False)
    if len(grid) != grid_size or any(len(row) != grid_size for row in grid):
        raise GridError(f"a grid is {grid_size} strings of {grid_size} squares, got {[len(row) for row in grid]}")
    bad = sorted({ch for row in grid for ch in row if not (ch in ".?" or ch.isalpha())})
    if bad:
        raise GridError(f"unknown squares {bad} in the grid (want '.', '?' or letters)")
    size = (int(size[0]), int(size[1]))
    flat, frame_px = _flat_board(scene, grid, rng, hand, layout)
    map1, map2, mask, corners = _camera_maps(scene, flat.shape[0], size, grid_size)
    board = cv2.remap(flat, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    image = _table_with_distractors(scene, size, int(seed), grid_size).copy()
    np.copyto(image, board, where=mask[..., None])
    image = _light(image, scene, np.random.default_rng([int(seed), 3]))
    if scene.blur > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), scene.blur)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = tuple("".join("?" if (ch == "?" or ch.islower()) else ch for ch in row) for row in grid)
    cover = arm_cover(hand, grid_size)
    return Render(image, corners.astype(np.float32), truth, cover > OCCLUDED_COVER, scene.style,
                  cover > TOUCHED_COVER)
