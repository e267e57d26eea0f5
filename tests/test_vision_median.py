"""The sorting median is numpy's median, value for value and type for type, on the shapes the locator gives it."""

import numpy as np
import pytest

from tilecam.vision.median import median


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7,), (8,), (50, 480), (51, 33), (9, 40, 40, 3), (10, 40, 40, 3)])
def test_the_median_is_numpys_on_every_axis(dtype, shape):
    a = (np.random.default_rng(len(shape) * 7 + shape[0]).random(shape) * 255).astype(dtype)
    for axis in [None, *range(len(shape))]:
        got, want = median(a, axis), np.median(a, axis=axis)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        assert np.array_equal(got, want)


def test_the_median_of_nothing_is_refused():
    with pytest.raises(ValueError, match="no values"):
        median(np.zeros((0, 3)), axis=0)
