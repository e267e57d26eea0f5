"""The premium prints the reader's training lays on squares (models/prints.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.models.prints import print_bank, stamp
from tilecam.vision.warp import CELL_PX, CONTEXT_PX, CROP_PX

torch = pytest.importorskip("torch")      # the [train] extra; the runtime never needs it


def test_a_bank_of_prints_is_drawn_from_its_seed_and_stays_on_its_square():
    colours, covers = print_bank(np.random.default_rng(3), 40)
    again, _ = print_bank(np.random.default_rng(3), 40)
    assert colours.shape == (40, 3, CROP_PX, CROP_PX) and covers.shape == (40, 1, CROP_PX, CROP_PX)
    np.testing.assert_array_equal(colours, again)
    assert 0 <= colours.min() and colours.max() <= 1 and 0 <= covers.min() and covers.max() <= 1
    inner = slice(CONTEXT_PX + 1, CONTEXT_PX + CELL_PX - 1)
    margin = covers.copy()
    margin[:, :, inner, inner] = 0
    assert margin.max() == 0                            # the grid line and the neighbours are never printed on
    inked = covers[:, 0, inner, inner].reshape(40, -1)
    assert (inked.max(axis=1) > 0.5).all()              # every print shows
    assert 0.02 < inked.mean(axis=1).min() and inked.mean(axis=1).max() < 0.95      # and leaves some square bare


def test_a_bare_square_gets_its_print_on_crop_and_reference_alike_and_a_tile_on_its_reference_alone():
    bank = tuple(torch.from_numpy(a) for a in print_bank(np.random.default_rng(4), 8))
    n = 400
    square = torch.full((n, 3, CROP_PX, CROP_PX), 0.5)
    bare = torch.arange(n) % 2 == 0
    g = torch.Generator().manual_seed(0)
    x, r = stamp(square.clone(), square.clone(), bare, bank, 0.5, g)
    printed = (r - square).abs().flatten(1).amax(1) > 0
    assert 0.4 < printed.float().mean() < 0.6           # about the share asked for
    assert torch.equal(x[bare], r[bare])                # the same print where nothing is on the square
    assert torch.equal(x[~bare], square[~bare])         # a tile hides its square's print: the crop is as it was
    assert printed[~bare].any()                         # … and its reference shows the print
    untouched, _ = stamp(square, square, bare, bank, 0.0, torch.Generator().manual_seed(0))
    assert torch.equal(untouched, square)


def test_training_with_prints_draws_the_rest_as_without_them():
    from tilecam.models.reader_train import augment

    rng = np.random.default_rng(5)
    x = torch.from_numpy(rng.random((16, 3, CROP_PX, CROP_PX), np.float32))
    plain = augment(x.clone(), x.clone(), torch.Generator().manual_seed(1))
    none = augment(x.clone(), x.clone(), torch.Generator().manual_seed(1), bare=torch.ones(16, dtype=torch.bool),
                   prints=None, print_share=0.0)
    assert all(torch.equal(a, b) for a, b in zip(plain, none))
