"""The looks synthetic boards are drawn in, and which of them (and which seeds) training and evaluation may draw.

A style is ``design/tiles/font``: a board design of ``BOARDS`` (the colours of its squares, lines and frame, and how
it prints its premiums), a tile look of ``TILES`` (face colour, letter colour, grain) and a font of ``FONTS``. The
pools: ``TRAIN_STYLES`` (the demo and benchmark videos' scenes too), ``HELDOUT_STYLES`` (evaluation only),
``TRAINING_STYLES`` and ``VARIETY_STYLES`` (only the tile reader's training). The dicts grow in steps (fonts, then
designs and tiles added after the first pools were fixed): the order of the statements below keeps every pool the
boards it always was.
"""

from __future__ import annotations

import itertools
from pathlib import Path

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

BOARDS.update(VARIETY_BOARDS)
TILES.update(VARIETY_TILES)
VARIETY_STYLES = tuple(f"{b}/{t}/{f}" for b, t, f in itertools.product(BOARDS, TILES, FONTS)
                       if (b in VARIETY_BOARDS or t in VARIETY_TILES) and f != "stix")
#: The style pools only the reader's training draws from: their scenes take ``TRAINING_TILESET_MIX``.
TRAINING_POOLS = frozenset({TRAINING_STYLES, VARIETY_STYLES})
TRAIN_SEEDS = range(0, 500_000)
#: Evaluation seeds. The bench reads the first 100; by the thirteenth session 900000–920999 had all been looked at
#: (docs/BENCHMARKS.md, Vision), so a figure on boards nobody has seen starts at 921000 (``--first-render 21000``).
#: No training command draws from it: training slices stay below 500000.
HELDOUT_SEEDS = range(900_000, 1_000_000)
