"""The SVG board: well-formed XML, premium squares labelled, tiles with values, blanks marked, last move outlined."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.engine.svg import render_svg

NS = "{http://www.w3.org/2000/svg}"


def test_svg_is_well_formed_and_labels_premiums():
    root = ET.fromstring(render_svg(Board()))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert texts.count("TW") == 8 and texts.count("DW") == 16 and texts.count("★") == 1
    assert texts.count("TL") == 12 and texts.count("DL") == 24
    assert len([r for r in root.iter(f"{NS}rect") if r.get("class") == "square"]) == 225


def test_tiles_values_blanks_and_last_move():
    b = Board()
    first = Placement.from_gcg("8D", "QUAnT")
    for r, c, t in first.new_tiles():
        b[r, c] = t
    root = ET.fromstring(render_svg(b, last_move=first))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Q" in texts and "10" in texts and "★" not in texts  # the star is covered
    tiles = [r for r in root.iter(f"{NS}rect") if (r.get("class") or "").startswith("tile")]
    assert len(tiles) == 5 and sum(r.get("class") == "tile blank" for r in tiles) == 1
    letters = {t.text: t.get("fill") for t in root.iter(f"{NS}text") if t.get("font-weight") == "bold"}
    assert letters["N"] != letters["Q"]  # the blank's letter in another colour
    assert len([r for r in root.iter(f"{NS}rect") if r.get("class") == "last"]) == 5


def test_german_values_and_escaping():
    b = Board.from_rows(["." * 15] * 7 + [".......ÄS......"] + ["." * 15] * 7)
    svg = render_svg(b, tileset="german")
    ET.fromstring(svg)
    assert ">Ä<" in svg and ">6<" in svg
