"""The shipped tile model and the training command's pieces."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tilecam.models.dataset import CLASSES, CLASS_INDEX, label_of, real_crops, scrabscrap_grid_corners
from tilecam.vision.classify import TileClassifier, packaged_model
from tilecam.vision.warp import CROP_PX


def test_shipped_model_is_small_and_matches_its_description():
    model = packaged_model()
    assert model.is_file(), "models/tiles.onnx must be shipped"
    assert model.stat().st_size <= 1024 * 1024
    spec = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    assert tuple(spec["classes"]) == CLASSES
    # the second opinions it names are shipped beside it, and all of them together stay within the megabyte
    others = [model.parent / name for name in spec["second_opinion"]]
    assert all(other.is_file() for other in others)
    assert model.stat().st_size + sum(other.stat().st_size for other in others) <= 1024 * 1024
    classifier = TileClassifier.load(threads=1)
    logits = classifier.logits(np.zeros((5, CROP_PX, CROP_PX, 3), np.uint8))
    assert logits.shape == (5, len(CLASSES))
    # Runtime never needs torch: the reader's modules do not import it.
    import sys
    assert "torch" not in sys.modules or "tilecam.models.train" in sys.modules


def test_labels_of_the_real_label_files():
    assert [label_of(ch) for ch in ".AÄe"] == [".", "A", "Ä", "?"]
    assert set(CLASS_INDEX) == set(CLASSES) and len(CLASSES) == 32


def test_real_crops_are_cut_by_the_shared_warp(shared_dir):
    x, y = real_crops(shared_dir / "data" / "real-boards" / "scrabscrap", ("game01",))
    assert x.shape[1:] == (CROP_PX, CROP_PX, 3) and len(x) == len(y) == 27 * 225
    # Tiles (cream) are brighter than the green empty squares of this board.
    tiles, empties = x[y != CLASS_INDEX["."]], x[y == CLASS_INDEX["."]]
    assert tiles[:, 10:30, 10:30].mean() > empties[:, 10:30, 10:30].mean() + 40
    corners = scrabscrap_grid_corners()
    assert corners[0, 0] < corners[1, 0] and corners[0, 1] < corners[3, 1]


def test_training_smoke_run_exports_a_model_onnxruntime_runs(tmp_path):
    torch = pytest.importorskip("torch")
    from tilecam.models import train

    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (96, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    y = np.arange(96) % 4
    x[y == 1] //= 3                  # two classes that differ visibly
    model = train.train(x, y, minutes=0.03, seed=1)
    assert isinstance(model, torch.nn.Module)
    path = train.export(model, tmp_path, {"seed": 1}, name="smoke")
    classifier = TileClassifier.load(path, threads=1)
    labels, probs = classifier.classify(x[:7])
    assert len(labels) == 7 and probs.shape == (7, len(CLASSES))
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-4)


def test_exported_weights_are_stored_half_and_read_as_the_network_computes(tmp_path):
    torch = pytest.importorskip("torch")
    onnx = pytest.importorskip("onnx")
    from tilecam.models import train

    torch.manual_seed(0)
    model = train.build_model()
    path = train.export(model, tmp_path, {"seed": 0})
    stored = {t.data_type for t in onnx.load(str(path)).graph.initializer if len(t.dims) and np.prod(t.dims) > 16}
    assert stored == {onnx.TensorProto.FLOAT16}
    x = np.random.default_rng(5).integers(0, 255, (8, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    with torch.no_grad():
        ours = model.eval()(train.to_tensor(x)).numpy()
    # float16 weights: the logits move by thousandths, never enough to change a reading
    read = TileClassifier.load(path, threads=1).logits(x)
    np.testing.assert_allclose(read, ours, atol=0.02)
    assert (read.argmax(1) == ours.argmax(1)).all()
    assert json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))["weights"] == train.WEIGHTS_NOTE


def test_training_can_go_on_from_the_shipped_model():
    torch = pytest.importorskip("torch")
    from tilecam.models import train

    rng = np.random.default_rng(3)
    x = rng.integers(0, 255, (64, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    model = train.build_model()
    train.init_from_onnx(model, packaged_model(), x)
    model.eval()
    with torch.no_grad():
        ours = model(train.to_tensor(x)).numpy()
    shipped = TileClassifier.load(threads=1, second=False).logits(x)
    np.testing.assert_allclose(ours, shipped, atol=1e-3)       # the same network (float16 weights cast back)
    with pytest.raises(ValueError, match="convolutions"):
        train.init_from_onnx(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3)), packaged_model(), x)


def test_occluded_examples_cover_most_of_the_crop():
    from tilecam.models.train import occlude

    crops = np.full((20, CROP_PX, CROP_PX, 3), 255, np.uint8)
    covered = occlude(crops, np.random.default_rng(2))
    changed = (covered != 255).any(axis=3).mean(axis=(1, 2))
    assert changed.min() > 0.3


def test_augmentation_washes_out_a_share_of_the_batch(monkeypatch):
    torch = pytest.importorskip("torch")
    from tilecam.models import train

    x = torch.full((400, 3, CROP_PX, CROP_PX), 0.5)
    x[:, :, 15:25, 15:25] = 0.1                      # a dark letter on a mid-grey tile
    monkeypatch.setattr(train, "WASH_SHARE", 0.5)
    out = train.augment(x, torch.Generator().manual_seed(3))
    monkeypatch.setattr(train, "WASH_SHARE", 0.0)
    plain = train.augment(x, torch.Generator().manual_seed(3))      # the same draws, none washed
    washed = (out != plain).flatten(1).any(dim=1)                   # the draws differ only in the wash-out
    assert 0.4 < washed.float().mean() < 0.6
    assert (out >= plain - 1e-6).all() and out.max() <= 1.0        # light is only added, and saturates
    # The letter stays darker than the face: washed out, not wiped out.
    clearly = (out - plain).mean(dim=(1, 2, 3)) > 0.1
    assert clearly.sum() > 40
    letter = out[clearly][:, :, 15:25, 15:25].mean(dim=(1, 2, 3))
    face = out[clearly][:, :, :8, :8].mean(dim=(1, 2, 3))
    assert (letter < face - 0.1).all()


def test_mining_keeps_what_the_model_gets_wrong_and_a_share_of_the_rest():
    from tilecam.models import synth, train
    from tilecam.models.dataset import crops_and_labels

    render = synth.render_board(None, seed=int(synth.TRAIN_SEEDS[5]), styles=synth.TRAIN_STYLES)
    x, y = crops_and_labels(render.image, render.corners, list(render.grid))
    y = y.copy()
    empties = np.flatnonzero(y == CLASS_INDEX["."])[:12]
    y[empties] = CLASS_INDEX["Q"]                       # labels the model cannot agree with
    idx, hard = train.mine_hard(x, y, packaged_model(), sure=0.95, keep_easy=0.25, seed=1)
    p_true = TileClassifier.load(threads=1, second=False).classify(x)[1][np.arange(len(y)), y]
    assert set(empties) <= set(idx[hard])                # every mislabelled crop is a hard one
    assert set(idx[hard]) == set(np.flatnonzero(p_true < 0.95))
    easy_kept = len(idx) - int(hard.sum())
    easy = int((p_true >= 0.95).sum())
    assert 0.1 * easy < easy_kept < 0.45 * easy          # about a quarter of the rest
    assert list(idx) == sorted(idx)


def test_hard_crops_are_drawn_more_often_and_nothing_else_changes():
    from tilecam.models.train import sample_weights

    y = np.array([CLASS_INDEX[c] for c in "..AAE?#"])
    real = np.array([0, 0, 0, 1, 0, 0, 0], bool)
    hard = np.array([1, 0, 1, 1, 0, 0, 0], bool)
    plain = sample_weights(y, real)
    mined = sample_weights(y, real, hard=hard, hard_boost=3.0)
    np.testing.assert_allclose(mined, np.where(hard, 3.0, 1.0) * plain)


def test_sparse_boards_hold_a_few_tiles_and_show_the_centre_star():
    from tilecam.models import train

    assert train.sparse_boards(8, 0.25) == [False, False, False, True] * 2     # the share, spread evenly
    assert sum(train.sparse_boards(4000, 0.1)) == 400 and not any(train.sparse_boards(50, 0.0))
    centre = train.centre_square()
    assert centre == 7 * 15 + 7                                # H8, the star of the standard layout
    x, y = train._render_crops((120, 0, 1.0, True))           # every empty square kept; this one has no tile
    tiles = int((y != CLASS_INDEX["."]).sum())
    assert tiles <= train.SPARSE_TILES and not (y == CLASS_INDEX["#"]).any()    # no arm over a sparse board
    star_bare = y[centre] == CLASS_INDEX["."]
    assert star_bare and len(y) == 225 + train.STAR_COPIES
    assert (x[225:] == x[centre]).all() and (y[225:] == CLASS_INDEX["."]).all()    # over and over
    assert x[centre][8:32, 8:32].min() < 100            # the dark star printed there
    covered = train._render_crops((123, 0, 1.0, True))[1]     # a first word over the star: no copies
    assert covered[centre] != CLASS_INDEX["."] and len(covered) == 225
    dense = train._render_crops((120, 0, 1.0, False))[1]
    assert dense.tolist() != y.tolist()


def test_rendered_crops_are_cached_and_a_cache_of_other_boards_is_refused(tmp_path, monkeypatch):
    from tilecam.models import train

    calls = []

    def render(n_boards, seed, empties, workers, sparse):
        calls.append((n_boards, seed, sparse))
        return np.full((n_boards, CROP_PX, CROP_PX, 3), seed, np.uint8), np.arange(n_boards)

    monkeypatch.setattr(train, "synthetic_crops", render)
    cache = tmp_path / "crops.npz"
    x, y = train.cached_synthetic_crops(cache, 3, 5, 0.5, 1, 0.1)
    again_x, again_y = train.cached_synthetic_crops(cache, 3, 5, 0.5, 1, 0.1)
    assert calls == [(3, 5, 0.1)]                              # rendered once, read back the second time
    np.testing.assert_array_equal(again_x, x)
    np.testing.assert_array_equal(again_y, y)
    with pytest.raises(ValueError, match="holds the crops of"):
        train.cached_synthetic_crops(cache, 3, 6, 0.5, 1, 0.1)
    assert train.cached_synthetic_crops(None, 2, 6, 0.5, 1, 0.0)[0].shape[0] == 2 and len(calls) == 2
