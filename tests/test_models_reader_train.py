"""Training the tile reader: its examples, its draw, its calibration, and a model onnxruntime runs."""

from __future__ import annotations

import json
import warnings

import cv2
import numpy as np
import pytest

from tilecam.models.dataset import CLASS_INDEX, CLASSES
from tilecam.models.reader_data import MIN_LABEL_FIT, Examples, label_turn, tile_crop_examples
from tilecam.models.reader_train import (EMPTY_CAP, RARE_FLOOR, build_model, draw_weights, export, softened,
                                         fit_temperature, init_from_crops_model, logits_of, train)
from tilecam.vision.classify import TileClassifier, soften
from tilecam.vision.context import kind_of_square
from tilecam.vision.warp import CROP_PX

torch = pytest.importorskip("torch")      # the [train] extra; the runtime never needs it


def test_rare_letters_are_drawn_more_and_bare_squares_at_most_their_cap():
    y = np.array([CLASS_INDEX["."]] * 9000 + [CLASS_INDEX["E"]] * 900 + [CLASS_INDEX["A"]] * 500
                 + [CLASS_INDEX["Q"]] * 10)
    w, shares = draw_weights(y)
    assert abs(w.sum() - 1) < 1e-9
    assert shares[CLASS_INDEX["."]] == pytest.approx(EMPTY_CAP, abs=1e-6)
    letters_mean = (900 + 500 + 10) / 3
    assert shares[CLASS_INDEX["Q"]] / shares[CLASS_INDEX["A"]] == pytest.approx(RARE_FLOOR * letters_mean / 500)


def test_the_calibration_finds_the_temperature_that_made_the_labels():
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 3, (6000, 5))
    z = logits / 2.0
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(5, p=row) for row in p])
    assert fit_temperature(logits, y) == pytest.approx(2.0, rel=0.1)


def _board_with_tiles(rng, tiles):
    """Flat bare squares by premium kind, and light tiles with a dark letter on ``tiles``."""
    kinds = kind_of_square(15)
    crops = np.empty((225, CROP_PX, CROP_PX, 3), np.uint8)
    for i, k in enumerate(kinds):
        crops[i] = (40 + 25 * int(k), 120, 90)
    crops += rng.integers(0, 6, crops.shape, dtype=np.uint8)
    for i in tiles:
        crops[i] = (220, 225, 230)
        crops[i, 12:28, 15:25] = 30
    return crops


def test_a_label_is_laid_on_the_grid_in_the_turn_that_fits_and_a_grid_that_fits_no_turn_is_told():
    rng = np.random.default_rng(1)
    label = np.full((15, 15), CLASS_INDEX["."])
    label[7, 3:9] = CLASS_INDEX["W"]
    label[2:7, 8] = CLASS_INDEX["O"]
    crops = _board_with_tiles(rng, np.flatnonzero(label.reshape(-1) != CLASS_INDEX["."]))
    for k in range(4):
        turned_back = np.rot90(label, -k).reshape(-1)       # the label as a photo turned k times would give it
        found, fit = label_turn(crops, turned_back)
        assert found == k and fit > 0.95
    elsewhere = _board_with_tiles(rng, rng.choice(225, 11, replace=False))
    assert label_turn(elsewhere, label.reshape(-1))[1] < MIN_LABEL_FIT


def test_tile_crops_of_letters_and_blanks_are_taken_and_rack_crops_and_noise_are_not(tmp_path):
    for name, shape in (("A", (60, 60)), ("BLANK", (60, 60)), ("NOISE", (60, 60)), ("B", (46, 30))):
        (tmp_path / name).mkdir()
        cv2.imwrite(str(tmp_path / name / "x.png"), np.full(shape + (3,), 200, np.uint8))
    bare = np.zeros((5, CROP_PX, CROP_PX, 3), np.uint8)
    ex = tile_crop_examples(tmp_path, bare, np.random.default_rng(0))
    assert sorted(CLASSES[i] for i in ex.y) == ["?", "A"]
    assert ex.x.shape == (2, CROP_PX, CROP_PX, 3) and ex.ref.shape == ex.x.shape


def test_a_short_run_exports_a_calibrated_model_of_crops_and_references_that_onnxruntime_reads(tmp_path):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 256, (64, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    data = Examples(x, x[::-1].copy(), rng.integers(0, len(CLASSES), 64), np.zeros(64, np.int32))
    model = train(data, epochs=8, seed=0, batch=32)
    shift = np.zeros(len(CLASSES))
    shift[0] = 0.5
    path = export(model, tmp_path, {"seed": 0}, temperature=1.7, log_prior_shift=shift)
    reader = TileClassifier.load(path, threads=1)
    spec = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert spec["calibration"]["temperature"] == 1.7 and reader.uses_references
    logits, embedding = reader.run(x[:5], x[:5])
    np.testing.assert_allclose(logits, logits_of(model, x[:5], x[:5]), atol=0.05)     # weights stored half
    assert embedding.shape == (5, 96)
    z = logits / 1.7 + shift
    expected = np.exp(z - z.max(axis=1, keepdims=True))
    np.testing.assert_allclose(reader.probabilities(x[:5], x[:5]), expected / expected.sum(axis=1, keepdims=True),
                               atol=1e-5)


def test_a_model_trained_on_softened_crops_softens_every_crop_it_reads_alike(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, (48, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    data = softened(Examples(x, x[::-1].copy(), rng.integers(0, len(CLASSES), 48), np.zeros(48, np.int32)), 0.8)
    assert (data.x == soften(x, 0.8)).all() and (data.ref == soften(x[::-1], 0.8)).all()
    model = train(data, epochs=2, seed=0, batch=16)
    path = export(model, tmp_path, {"seed": 0}, temperature=1.0, log_prior_shift=np.zeros(len(CLASSES)), soften=0.8)
    reader = TileClassifier.load(path, threads=1)
    assert reader.spec.soften == 0.8
    logits, _ = reader.run(x[:5], x[::-1][:5])        # as cut: the reader softens them as training did
    np.testing.assert_allclose(logits, logits_of(model, data.x[:5], data.ref[:5]), atol=0.05)


def test_softening_blurs_each_crop_alone_and_keeps_a_flat_one_as_it_is():
    crops = np.full((3, CROP_PX, CROP_PX, 3), 90, np.uint8)
    crops[1, :, :20] = 250                          # an edge: softened across, not beyond its crop
    out = soften(crops, 0.8)
    assert out.shape == crops.shape and out.dtype == np.uint8
    assert (out[0] == 90).all() and (out[2] == 90).all()
    assert out[1, 10, 18, 0] < 250 and out[1, 10, 21, 0] > 90 and (out[1, :, :16] == 250).all()
    assert (soften(crops, 0) == crops).all()


def test_the_reader_starts_out_reading_as_the_crops_model_it_grows_from(tmp_path):
    from tilecam.models.crops_model import build_crops_model

    old = build_crops_model().eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(old, torch.zeros(1, 3, CROP_PX, CROP_PX), str(tmp_path / "old.onnx"),
                          input_names=["crops"], output_names=["logits"], opset_version=17, dynamo=False,
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    x = np.random.default_rng(3).integers(0, 256, (16, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    reader = build_model()
    init_from_crops_model(reader, tmp_path / "old.onnx", x)
    with torch.no_grad():
        from tilecam.models.reader_train import to_float

        expected = old(to_float(x)).numpy()
    np.testing.assert_allclose(logits_of(reader, x, x[::-1]), expected, atol=1e-3)


def test_an_older_model_of_32_classes_starts_the_readers_rows_by_class_name_and_new_letters_start_fresh(tmp_path):
    from tilecam.models.crops_model import build_crops_model
    from tilecam.models.dataset import FIRST_CLASSES, LATER_LETTERS
    from tilecam.models.reader_train import to_float

    old = build_crops_model(outputs=len(FIRST_CLASSES)).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(old, torch.zeros(1, 3, CROP_PX, CROP_PX), str(tmp_path / "m23.onnx"),
                          input_names=["crops"], output_names=["logits"], opset_version=17, dynamo=False,
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    # the file's outputs in another order than ours, named by its .json: rows go by name, not by place
    order = list(FIRST_CLASSES[::-1])
    (tmp_path / "m23.json").write_text(json.dumps({"classes": order}), encoding="utf-8")
    x = np.random.default_rng(4).integers(0, 256, (16, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    torch.manual_seed(0)
    reader = build_model()
    fresh = reader.head[1].weight.detach().clone()
    init_from_crops_model(reader, tmp_path / "m23.onnx", x)
    with torch.no_grad():
        expected = old(to_float(x)).numpy()
    got = logits_of(reader, x, x[::-1])
    assert got.shape == (16, len(CLASSES))
    for j, name in enumerate(order):
        np.testing.assert_allclose(got[:, CLASS_INDEX[name]], expected[:, j], atol=1e-3)
    new = [CLASS_INDEX[c] for c in LATER_LETTERS]
    assert torch.equal(reader.head[1].weight[new], fresh[new])          # the letters m23 lacks start fresh


def test_a_wider_reader_exports_its_own_embedding_and_a_start_from_the_crops_model_needs_the_standard_widths(
        tmp_path, capsys):
    from tilecam.models.reader_train import main

    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, (32, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    data = Examples(x, x[::-1].copy(), rng.integers(0, len(CLASSES), 32), np.zeros(32, np.int32))
    model = train(data, epochs=2, seed=0, batch=16, widths=(8, 16, 24, 40))
    path = export(model, tmp_path, {"seed": 0}, temperature=1.0, log_prior_shift=np.zeros(len(CLASSES)))
    _, embedding = TileClassifier.load(path, threads=1).run(x[:3], x[:3])
    assert embedding.shape == (3, 40)
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path), "--widths", "32,64,128,192", "--init", str(path)])
    assert "--init starts from a model of widths" in capsys.readouterr().err


def test_an_exported_reader_teaches_as_it_reads_and_a_narrower_student_learns_from_it(tmp_path):
    from tilecam.models.distill import distill_loss, soft_targets, teacher_from_onnx

    rng = np.random.default_rng(4)
    x = rng.integers(0, 256, (48, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    data = Examples(x, x[::-1].copy(), rng.integers(0, len(CLASSES), 48), np.zeros(48, np.int32))
    teacher_path = export(train(data, epochs=4, seed=0, batch=16), tmp_path / "teacher", {"seed": 0},
                          temperature=1.0, log_prior_shift=np.zeros(len(CLASSES)))
    teacher = teacher_from_onnx(teacher_path)
    logits, _ = TileClassifier.load(teacher_path, threads=1).run(x[:4], x[:4])
    np.testing.assert_allclose(logits_of(teacher, x[:4], x[:4]), logits, atol=1e-4)
    assert not any(p.requires_grad for p in teacher.parameters())

    student = train(data, epochs=4, seed=1, batch=16, widths=(8, 16, 32, 48), teachers=[teacher_path])
    untaught = train(data, epochs=4, seed=1, batch=16, widths=(8, 16, 32, 48))
    crops, refs = (torch.from_numpy(a.transpose(0, 3, 1, 2)[:, ::-1].copy()).float() / 255 for a in (x, x[::-1]))
    target = soft_targets([teacher], crops, refs)
    with torch.no_grad():
        assert distill_loss(student(crops, refs)[0], target) < distill_loss(untaught(crops, refs)[0], target)


def test_a_shadow_falls_on_the_crop_alone():
    from tilecam.models.reader_train import augment

    flat = torch.full((64, 3, CROP_PX, CROP_PX), 0.5)      # flat squares: the blur and the shift change nothing
    for shade, lit_apart in ((0.0, False), (1.0, True)):
        x, r = augment(flat.clone(), flat.clone(), torch.Generator().manual_seed(2), shade=shade)
        gain = (x / r).flatten(1)
        apart = (gain - 1).abs().amax(1) > 0.18              # more than the noise and the light drawn apart
        assert (apart.float().mean() > 0.5) == lit_apart
        assert gain.min() > 0.1 and gain.max() < 2.0         # a shadow's or a lamp's gain (and the noise)


def test_a_glare_washes_the_crop_alone_towards_white():
    from tilecam.models.reader_train import augment

    flat = torch.full((64, 3, CROP_PX, CROP_PX), 0.4)
    x, r = augment(flat.clone(), flat.clone(), torch.Generator().manual_seed(3), glare=1.0)
    lift = (x - r).flatten(1).amax(1)
    assert (lift > 0.15).float().mean() > 0.5              # most crops brighter than their reference somewhere …
    assert ((x - r).flatten(1).amin(1) > -0.2).all()       # … and nowhere much darker (noise and light aside)
    assert x.max() <= 1


def test_a_steep_render_teaches_each_tile_on_the_plane_of_its_face_as_well_as_on_the_board():
    from tilecam.models import synth
    from tilecam.models.reader_data import _render_examples

    seed = int(synth.TRAIN_SEEDS[3])
    steep = _render_examples((seed, 0, 0.0, 0.0, 1.0, True))     # no bare square kept: tiles (and covered) only
    tiles = np.flatnonzero((steep.y != CLASS_INDEX["."]) & (steep.y != CLASS_INDEX["#"]))
    on_board, on_faces = tiles[:len(tiles) // 2], tiles[len(tiles) // 2:]
    assert (on_faces == np.arange(len(steep) - len(on_faces), len(steep))).all()      # the faces' cuts come last
    assert len(on_faces) and (steep.y[on_faces] == steep.y[on_board]).all()    # each tile twice, same label
    # the faces' cut is another picture of the tile: up the picture from its square, the camera tilted 35-50 degrees
    moved = np.abs(steep.x[on_faces].astype(int) - steep.x[on_board].astype(int)).mean(axis=(1, 2, 3))
    assert np.median(moved) > 5
    assert (steep.ref[on_faces] == steep.ref[on_board]).all()     # read beside the board's plane's reference
