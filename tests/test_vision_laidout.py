"""Learning the user's tiles from a photo of the set laid out in order (``tilecam calibrate --laid-out``)."""

from __future__ import annotations

import logging

import cv2
import numpy as np
import pytest

from tilecam.vision.laidout import (LOOKS_NAME, LayoutError, laid_out_labels, load_tile_looks, model_digest,
                                    order_of)

ROMANIAN = "ABCDEFGHIJLMNOPRSTUVXZ?"


def _rows(*lines: str) -> list[str]:
    rows = ["." * 15] * 15
    for i, line in enumerate(lines):
        rows[5 + i] = line.ljust(15, ".")
    return rows


def test_the_order_is_the_sets_letters_then_the_blank():
    assert "".join(order_of("romanian")) == ROMANIAN
    assert order_of("spanish")[3] == "Ç" and order_of("english")[-2:] == ["Z", "?"]


def test_each_tile_is_labelled_by_its_place_in_the_order_whatever_it_was_read_as():
    """The Romanian board's letters photo (litere_1.jpg) as a model that never saw the board reads it: its blank, a
    smiley printed on it, read O. Its place says blank."""
    grid = _rows(".....ABCDE", ".....FGHIJ", ".....LMNOP", ".....RSTUV", ".....XZO")
    labels = laid_out_labels(grid, "romanian")
    assert labels[9, 7] == "?" and labels[5, 5] == "A" and labels[9, 6] == "Z"
    assert "".join(ch for ch in labels.reshape(-1) if ch != ".") == ROMANIAN
    assert (labels == ".").sum() == 225 - len(ROMANIAN)


def test_a_layout_not_of_the_set_or_not_in_order_or_under_a_hand_is_refused_and_says_what_to_lay():
    with pytest.raises(LayoutError, match="22 tiles read where the set has 22 letters and a blank.*A B C"):
        laid_out_labels(_rows("...A.B.C.D.E", "...F.G.H.I.J", "...L.M.N.O.P", "...R.S.T.U.V", "...X.Z"), "romanian")
    with pytest.raises(LayoutError, match="only 1 of 23"):
        laid_out_labels(_rows(".....ZXVUT", ".....SRPON", ".....MLJIH", ".....GFEDC", ".....BA?"), "romanian")
    with pytest.raises(LayoutError, match="covers 2 squares"):
        laid_out_labels(_rows(".....ABCDE##"), "romanian")


@pytest.fixture(scope="module")
def laid_out_photo(tmp_path_factory):
    from tilecam.models import synth

    rows = _rows("....ABCDEFG", "....HIJKLMN", "....OPQRSTU", "....VWXYZ?")
    path = tmp_path_factory.mktemp("laidout") / "laid-out.png"
    cv2.imwrite(str(path), np.asarray(synth.render_board(tuple(rows), seed=900_011,
                                                         styles=synth.TRAINING_STYLES).image))
    return path


def test_the_command_learns_the_tiles_laid_out_and_the_scorekeepers_reader_reads_with_them(
        tmp_path, laid_out_photo, capsys, caplog):
    from tilecam.firmware.cli import main
    from tilecam.firmware.daemon import _calibrated_reader
    from tilecam.vision.classify import packaged_model
    from tilecam.vision.moves.reader import default_reader

    data = tmp_path / "data"
    assert main(["calibrate", "--laid-out", str(laid_out_photo), "--tiles", "english", "--data-dir", str(data)]) == 0
    assert "27 tiles learnt" in capsys.readouterr().out
    looks = load_tile_looks(data)
    assert looks.tiles == 27 and looks.model == model_digest(packaged_model())
    assert sorted(label for label in looks.labels if label != ".") == sorted(order_of("english"))
    reader = _calibrated_reader("english", data)          # no board profile: the tiles alone make a reader
    assert reader is not None and reader.profile is None and reader.adapter is not None
    assert reader.taught.labels and reader.learn(["." * 15] * 15) == 0      # a game's learning keeps the taught
    # learnt with another model: left out, and the log says so
    other = type(looks)(looks.embeddings, looks.labels, looks.head, "0" * 16)
    with caplog.at_level(logging.WARNING):
        assert default_reader("english", looks=other).adapter is None
    assert "another tile model" in caplog.text
    # the wrong tile set laid out: refused, nothing written
    assert main(["calibrate", "--laid-out", str(laid_out_photo), "--tiles", "romanian",
                 "--data-dir", str(tmp_path / "other")]) == 1
    assert "is not the romanian set laid out" in capsys.readouterr().err
    assert not (tmp_path / "other" / LOOKS_NAME).exists()
