"""A board as a pure SVG string: premium squares coloured and labelled, tiles with letter and value, blanks in
red without a value, the last move's new tiles outlined. Used by the web scoreboard. Any layout's size is drawn
(Super Scrabble's 21x21); a two-letter tile (Spanish CH, LL, RR) shows its face, not the engine's one-character
symbol.

>>> from tilecam.engine.move import Placement
>>> b = Board()
>>> p = Placement.from_gcg("8D", "QUAnT")
>>> for r, c, t in p.new_tiles(): b[r, c] = t
>>> svg = render_svg(b, last_move=p)
>>> svg.startswith("<svg") and svg.count('class="tile') == 5 and svg.count('class="tile blank') == 1
True
>>> svg.count('class="last"')
5
>>> es = Board(); es[7, 7] = Tile("Ç")
>>> ">CH<" in render_svg(es, tileset="spanish"), "Ç" in render_svg(es, tileset="spanish")
(True, False)
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .board import Board, Tile
from .coords import LETTERS
from .layout import Layout
from .move import Placement
from .tiles import TileSet

CELL = 40
MARGIN = 22
COLOURS = {  # premium -> (fill, label colour); the classic tournament board colours
    "TW": ("#d9534f", "#ffffff"),
    "DW": ("#f5b7b1", "#7b241c"),
    "TL": ("#2e86c1", "#ffffff"),
    "DL": ("#aed6f1", "#1b4f72"),
    "QW": ("#8e44ad", "#ffffff"),
    "QL": ("#16a085", "#ffffff"),
    "": ("#e9e4cc", "#000000"),
}
TILE_FILL = "#f6e3b4"
LETTER_COLOUR = "#222222"
BLANK_COLOUR = "#c0392b"
LAST_COLOUR = "#27ae60"
LETTER_SIZE = 0.55  # a one-letter tile's letter height, as a share of the square
FACE_SIZE = 0.36    # a two-letter tile's face (CH, LL, RR): smaller, so both letters fit the square


def render_svg(board: Board, last_move: Placement | None = None, layout: Layout | None = None,
               tileset: TileSet | str = "english", cell: int = CELL) -> str:
    """The board as SVG text (``viewBox`` sized, so it scales); ``last_move``'s new tiles are outlined."""
    layout = layout or board.layout
    tiles = TileSet.load(tileset) if isinstance(tileset, str) else tileset
    n = board.size
    side = MARGIN + n * cell + 2
    last = {(r, c) for r, c, _ in last_move.new_tiles()} if last_move is not None else set()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{side}" height="{side}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" role="img" aria-label="Scrabble board">',
        f'<rect x="0" y="0" width="{side}" height="{side}" fill="#ffffff"/>',
    ]
    for i in range(n):
        x = MARGIN + i * cell + cell / 2
        out.append(f'<text x="{x:.0f}" y="{MARGIN - 7}" font-size="12" text-anchor="middle" '
                   f'fill="#555">{LETTERS[i]}</text>')
        out.append(f'<text x="{MARGIN - 5}" y="{MARGIN + i * cell + cell / 2 + 4:.0f}" font-size="12" '
                   f'text-anchor="end" fill="#555">{i + 1}</text>')
    for r in range(n):
        for c in range(n):
            x, y = MARGIN + c * cell, MARGIN + r * cell
            premium = layout.premium(r, c)
            fill, label_colour = COLOURS.get(premium, COLOURS[""])
            out.append(f'<rect class="square" x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                       f'stroke="#ffffff" stroke-width="1"/>')
            tile = board[r, c]
            if tile is None:
                label = "★" if (r, c) == layout.center else premium
                if label:
                    size = cell * 0.5 if label == "★" else cell * 0.3
                    out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + size / 3:.1f}" '
                               f'font-size="{size:.0f}" text-anchor="middle" fill="{label_colour}">{label}</text>')
                continue
            inset = 2
            kind = "tile blank" if tile.is_blank else "tile"
            out.append(f'<rect class="{kind}" x="{x + inset}" y="{y + inset}" width="{cell - 2 * inset}" '
                       f'height="{cell - 2 * inset}" rx="4" fill="{TILE_FILL}" stroke="#b9a36f"/>')
            colour = BLANK_COLOUR if tile.is_blank else LETTER_COLOUR
            face = tiles.face(tile.letter) if tile.letter in tiles.letters else tile.letter
            size = LETTER_SIZE if len(face) == 1 else FACE_SIZE
            out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.68:.1f}" font-size="{cell * size:.0f}" '
                       f'font-weight="bold" text-anchor="middle" fill="{colour}">{escape(face)}</text>')
            if not tile.is_blank and tile.letter in tiles.letters:
                out.append(f'<text x="{x + cell - 5:.1f}" y="{y + cell - 5:.1f}" font-size="{cell * 0.22:.0f}" '
                           f'text-anchor="end" fill="{LETTER_COLOUR}">{tiles.value(tile.letter)}</text>')
            if (r, c) in last:
                out.append(f'<rect class="last" x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" '
                           f'rx="4" fill="none" stroke="{LAST_COLOUR}" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)
