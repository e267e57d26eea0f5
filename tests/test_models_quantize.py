"""The int8 tile model: a float model quantized with onnxruntime's static quantization reads as the float one, and
its embedding keeps the resolution that learning a user's board needs."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("torch")


def test_a_float_model_quantized_gives_the_float_models_logits_and_is_refused_twice(tmp_path):
    import torch

    from tilecam.models import synth
    from tilecam.models.dataset import crops_and_labels
    from tilecam.models.quantize import board_batches, quantize
    from tilecam.models.reader_train import build_model, export
    from tilecam.vision.adapt import head_of
    from tilecam.vision.classify import TileClassifier, packaged_model
    from tilecam.vision.context import references_from_board

    torch.manual_seed(0)
    path = export(build_model().eval(), tmp_path / "float", {"seed": 0}, 1.0, np.zeros(1))
    rows = ["." * 15] * 6 + [".....JAB.......", ".......OXEN....", ".......TIZ....."] + ["." * 15] * 6
    boards = [crops_and_labels(r.image, r.corners, rows)[0]
              for r in (synth.render_board(rows, seed=s, styles=synth.HELDOUT_STYLES) for s in (900_010, 900_011))]
    floats = TileClassifier.load(path, threads=1)
    out = quantize(path, tmp_path / "int8" / "tiles.onnx", board_batches(floats, boards[:1]), "a render")
    ints = TileClassifier.load(out, threads=1)
    assert out.stat().st_size < 0.7 * path.stat().st_size
    assert json.loads(out.with_suffix(".json").read_text())["weights"].startswith("8-bit")
    crops = boards[1]                            # a board the ranges were not measured on
    refs = references_from_board(crops)
    (z_float, _), (z_int, embedding) = floats.run(crops, refs), ints.run(crops, refs)
    assert np.corrcoef(z_float.ravel(), z_int.ravel())[0, 1] > 0.99
    # the embedding and the last layer stay in float: a user's board is learnt on the embedding (vision.adapt)
    w, b = head_of(embedding, z_int)
    assert len(np.unique(embedding)) > 500 and np.abs(embedding @ w.T + b - z_int).max() < 1e-3
    with pytest.raises(ValueError, match="quantized already"):
        quantize(out, tmp_path / "twice.onnx", board_batches(floats, boards[:1]), "a render")
    shipped = json.loads(packaged_model().with_suffix(".json").read_text(encoding="utf-8"))
    assert shipped["weights"].startswith("8-bit") and shipped["input"]["dtype"] == "uint8"


def test_the_int8_model_fed_the_crops_as_cut_gives_the_same_logits_as_fed_float_planes(tmp_path):
    import torch

    from tilecam.models import synth
    from tilecam.models.bytes_in import NotByteExact, convert
    from tilecam.models.dataset import crops_and_labels
    from tilecam.models.quantize import board_batches, quantize
    from tilecam.models.reader_train import build_model, export
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.context import references_from_board

    torch.manual_seed(1)
    path = export(build_model().eval(), tmp_path / "float", {"seed": 0}, 1.0, np.zeros(1))
    rows = ["." * 15] * 7 + [".....QUIZ......"[:15]] + ["." * 15] * 7
    render = synth.render_board(rows, seed=900_012, styles=synth.HELDOUT_STYLES)
    crops = crops_and_labels(render.image, render.corners, rows)[0]
    planes = quantize(path, tmp_path / "planes" / "tiles.onnx",
                      board_batches(TileClassifier.load(path, threads=1), [crops]), "a render", fed_bytes=False)
    fed = convert(planes, tmp_path / "bytes" / "tiles.onnx")
    a, b = TileClassifier.load(planes, threads=1), TileClassifier.load(fed, threads=1)
    assert a.spec.dtype == "float32" and b.spec.dtype == "uint8" and b.spec.color == "BGR"
    refs = references_from_board(crops)
    (za, ea), (zb, eb) = a.run(crops, refs), b.run(crops, refs)
    assert np.array_equal(za, zb) and np.array_equal(ea, eb)
    with pytest.raises(NotByteExact):
        convert(fed, tmp_path / "again" / "tiles.onnx")


def test_the_weights_are_stored_as_uint8_around_128_the_same_numbers_that_x86_without_vnni_does_not_saturate():
    """onnxruntime multiplies uint8 activations by int8 weights with a 16-bit saturating instruction on x86 CPUs
    without VNNI (an AVX2-only AMD EPYC read a rendered R as K with the int8 weights): the shipped model's weights
    are uint8 around a zero point of 128, and moving int8 weights there keeps every weight's value."""
    import onnx
    from onnx import helper, numpy_helper

    from tilecam.models.quantize import unsigned_weights
    from tilecam.vision.classify import packaged_model

    shipped = onnx.load(str(packaged_model()))
    inits = {t.name: numpy_helper.to_array(t) for t in shipped.graph.initializer}
    convs = [n for n in shipped.graph.node if n.op_type == "QLinearConv"]
    assert convs and all(inits[n.input[3]].dtype == np.uint8 and (inits[n.input[5]] == 128).all() for n in convs)

    rng = np.random.default_rng(0)
    weights = rng.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    tensors = [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(np.zeros(4, np.int8), "w_zero")]
    node = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "w_zero", "ys", "yz"], ["y"])
    graph = helper.make_graph([node], "g", [], [], tensors)
    moved = {t.name: numpy_helper.to_array(t) for t in unsigned_weights(helper.make_model(graph)).graph.initializer}
    assert moved["w"].dtype == np.uint8 and (moved["w_zero"] == 128).all()
    assert np.array_equal(moved["w"].astype(int) - moved["w_zero"][:, None, None, None], weights.astype(int))
