"""The int8 tile model: the shipped one quantized with onnxruntime's static quantization reads as the float one."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("onnx")


def test_the_int8_model_reads_a_board_as_the_float_model_does(tmp_path):
    from tilecam.models import synth
    from tilecam.models.dataset import crops_and_labels
    from tilecam.models.quantize import board_batches, quantize
    from tilecam.vision.classify import TileClassifier, packaged_model
    from tilecam.vision.context import references_from_board

    rows = ["." * 15] * 6 + [".....JAB.......", ".......OXEN....", ".......TIZ....."] + ["." * 15] * 6
    boards = [crops_and_labels(r.image, r.corners, rows)[0]
              for r in (synth.render_board(rows, seed=s, styles=synth.HELDOUT_STYLES) for s in (900_010, 900_011))]
    floats = TileClassifier.load(threads=1)
    out = quantize(packaged_model(), tmp_path / "tiles.onnx", board_batches(floats, boards[:1]), "a render")
    ints = TileClassifier.load(out, threads=1)
    assert out.stat().st_size < 0.7 * packaged_model().stat().st_size
    assert json.loads(out.with_suffix(".json").read_text())["weights"].startswith("int8")
    crops = boards[1]                            # a board the ranges were not measured on
    refs = references_from_board(crops)
    read_float = floats.probabilities(crops, refs).argmax(axis=1)
    read_int = ints.probabilities(crops, refs).argmax(axis=1)
    assert (read_float == read_int).mean() >= 0.99
    assert "".join(ints.classes[i] for i in read_int[7 * 15 + 7:7 * 15 + 11]) == "OXEN"
