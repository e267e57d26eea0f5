"""Spanish and Polish boards: the model's classes and labels for their letters, their tiles rendered, the training's
share of them, the shipped model of 32 classes on them, and ``tilecam bench tilesets``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tilecam.engine.tiles import TileSet
from tilecam.models import synth, synth_tiles
from tilecam.models.dataset import CLASS_INDEX, CLASSES, FIRST_CLASSES, LATER_LETTERS, crops_and_labels, label_of
from tilecam.vision.classify import TileClassifier, letter_mask, packaged_model
from tilecam.vision.labelled import LabelError, read_label
from tilecam.vision.read import letters_of

SPANISH_LABEL = ["." * 15] * 6 + ["...[CH]AÑO" + "." * 8, "....Ŀ[ll]Ř" + "." * 8, "....[RR]" + "." * 10] \
    + ["." * 15] * 6
POLISH_LABEL = ["." * 15] * 7 + ["..ŁĄKAĆĘŃÓŚŹŻ.."] + ["." * 15] * 7


def test_one_model_has_a_class_for_every_letter_of_every_bundled_tile_set_and_the_first_32_keep_their_places():
    for name in TileSet.bundled():
        assert set(TileSet.load(name).letters) <= set(CLASSES), name
    assert CLASSES[:32] == FIRST_CLASSES and len(set(CLASSES)) == len(CLASSES)
    shipped = json.loads(packaged_model().with_suffix(".json").read_text(encoding="utf-8"))["classes"]
    assert tuple(shipped) == CLASSES                # the shipped model reads every letter of every tile set
    assert letter_mask(LATER_LETTERS).all() and not letter_mask((".", "?", "#")).any()
    assert all(CLASSES[CLASS_INDEX[c]] == c for c in CLASSES)


def test_spanish_and_polish_labels_parse_digraphs_by_symbol_or_bracketed_face(tmp_path):
    (tmp_path / "es.board.txt").write_text("\n".join(SPANISH_LABEL) + "\n", encoding="utf-8")
    (tmp_path / "pl.board.txt").write_text("\n".join(POLISH_LABEL) + "\n", encoding="utf-8")
    spanish, polish = read_label(tmp_path / "es.board.txt"), read_label(tmp_path / "pl.board.txt")
    assert spanish[6] == "...ÇAÑO" + "." * 8 and spanish[7] == "....Ŀ?Ř" + "." * 8 and spanish[8][4] == "Ř"
    assert polish[7] == POLISH_LABEL[7]
    labels = [CLASS_INDEX[label_of(ch)] for row in spanish + polish for ch in row]
    assert {CLASSES[i] for i in labels} >= {"Ç", "Ŀ", "Ř", "Ñ", "?", "Ł", "Ą", "Ż"}
    (tmp_path / "bad.board.txt").write_text("\n".join(["[XY]" + "." * 14] + ["." * 15] * 14), encoding="utf-8")
    with pytest.raises(LabelError, match=r"\[XY\]"):
        read_label(tmp_path / "bad.board.txt")


def _tile(face: str, font: str) -> np.ndarray:
    return synth_tiles.tile_patch(face, False, 5, "ivory", font, np.random.default_rng(0)).astype(np.int16)


def _pixels_apart(a: np.ndarray, b: np.ndarray) -> int:
    """Pixels of two tiles (same look, same draws) that differ clearly: ink in one, none in the other."""
    return int((np.abs(a - b).max(axis=2) > 40).sum())


@pytest.mark.parametrize("font", sorted(synth.FONTS))
def test_a_ch_tile_shows_both_letters_narrowed_and_an_l_with_a_stroke_is_not_an_l(font):
    ch, c, h = _tile("CH", font), _tile("C", font), _tile("H", font)
    assert _pixels_apart(ch, c) > 60 and _pixels_apart(ch, h) > 60
    ink = (ch.mean(axis=2) < 100)[: int(0.7 * len(ch))].any(axis=0)     # the letters' rows, above the value
    columns = np.flatnonzero(ink)
    assert columns.max() - columns.min() <= synth.DIGRAPH_MAX_WIDTH * ch.shape[1] + 2
    assert _pixels_apart(_tile("Ł", font), _tile("L", font)) >= 5       # the stroke: a few pixels at 38 a side
    assert _pixels_apart(_tile("Ñ", font), _tile("N", font)) > 20


def test_every_font_but_the_ascii_only_ones_has_every_letter_the_tile_sets_draw():
    ttlib = pytest.importorskip("fontTools.ttLib")
    faces = {face for name in TileSet.bundled() for face in TileSet.load(name).faces}
    chars = {ch for face in faces for ch in face} | set("0123456789")
    for name, file in synth.FONTS.items():
        cmap = ttlib.TTFont(str(synth.FONT_DIR / file)).getBestCmap()
        missing = sorted(ch for ch in chars if ord(ch) not in cmap and not (name in synth.ASCII_ONLY
                                                                            and not ch.isascii()))
        assert not missing, f"{name} lacks {missing}"


def test_a_spanish_board_is_drawn_with_its_tiles_faces_and_values():
    grid = ("." * 15,) * 7 + ("....ÇAÑOŘ......",) + ("." * 15,) * 7
    assert synth.render_board(grid, seed=5, tileset="spanish").grid == grid
    assert synth_tiles.tile_faces("spanish")["Ç"] == "CH" and synth_tiles.tile_values("spanish")["Ř"] == 8


def test_training_renders_draw_a_share_of_spanish_and_polish_boards_and_nothing_else_changes():
    drawn = [synth.sample_scene(np.random.default_rng(i), "english", synth.TRAINING_STYLES) for i in range(400)]
    shares = {ts: sum(s.tileset == ts for s in drawn) / len(drawn) for ts, _ in synth.TRAINING_TILESET_MIX}
    for tileset, share in synth.TRAINING_TILESET_MIX:
        assert abs(shares[tileset] - share) < 0.05
    assert all(s.reletter == (s.tileset != "english") for s in drawn)
    assert not any(synth.sample_scene(np.random.default_rng(i), "english", synth.HELDOUT_STYLES).reletter
                   for i in range(100))
    spanish = next(s for s in drawn if s.tileset == "spanish")
    english_grid = synth.random_grid(np.random.default_rng(1), "english")      # as the training draws its grids
    render = synth.render_board(english_grid, seed=7, scene=spanish)
    letters = {ch for row in render.grid for ch in row} - {".", "?"}
    assert letters <= set(TileSet.load("spanish").letters) and letters & set(synth.own_letters("spanish"))
    _, y = crops_and_labels(render.image, render.corners, list(render.grid))
    assert np.isin(y, [CLASS_INDEX[c] for c in LATER_LETTERS]).any()


@pytest.mark.skipif(not packaged_model().is_file(), reason="models/tiles.onnx is not there")
def test_a_model_of_32_classes_reads_a_spanish_board_and_never_a_letter_it_has_no_class_for():
    """An older model (the first 32 classes: A–Z and Ä Ö Ü) still reads a Spanish or Polish game's other letters;
    the shipped one has a class for every letter of every bundled tile set."""
    from dataclasses import replace

    shipped = TileClassifier.load(threads=1)
    assert all(shipped.unreadable(letters_of(name)) == () for name in TileSet.bundled())
    older = TileClassifier(shipped.session, replace(shipped.spec, classes=FIRST_CLASSES, log_prior_shift=()),
                           shipped.path)
    assert older.unreadable(letters_of("spanish")) == ("Ç", "Ŀ", "Ñ", "Ř")
    assert older.unreadable(letters_of("english")) == ()
    logits = np.random.default_rng(0).normal(0, 3, (20, len(older.classes)))
    p = older.calibrated(logits, letters_of("polish"))
    assert np.allclose(p.sum(axis=1), 1) and p[:, older.classes.index("Q")].max() == 0


@pytest.mark.skipif(not packaged_model().is_file(), reason="models/tiles.onnx is not there")
def test_the_tilesets_bench_reads_english_spanish_and_polish_boards_and_reports_the_letters_it_lacks(capsys):
    from tilecam.firmware.cli import main

    assert main(["bench", "tilesets", "--renders", "1", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "| measure | english | spanish | polish |" in out
    assert "two-letter tiles (CH LL RR) wrong" in out and "letters with diacritics (Ñ Ą … Ż) wrong" in out
    assert "no class for" not in out                # the shipped model reads them all
    assert "| spanish | CH |" in out or "| spanish | Ñ |" in out


def test_a_board_relettered_within_the_counts_holds_no_more_of_a_letter_than_the_set():
    from collections import Counter

    grid = synth.random_grid(np.random.default_rng(3), "polish", tiles=90)
    polish = TileSet.load("polish")
    within = Counter("".join(synth.reletter(grid, "polish", np.random.default_rng(4), polish.letters, 1.0)))
    assert all(n <= polish.count(ch) for ch, n in within.items() if ch not in ".?")
    # a training render's letters are drawn again for each tile: its rare letters beyond the set's one tile
    free = Counter("".join(synth.reletter(grid, "polish", np.random.default_rng(4), ("Ź",), 1.0, within_counts=False)))
    assert free["Ź"] > polish.count("Ź")
