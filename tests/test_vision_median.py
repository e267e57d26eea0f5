"""The sorting median and the distinct values are numpy's, value for value and type for type, on the shapes the
locator gives them."""

import numpy as np
import pytest

from tilecam.vision.median import distinct, median


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


@pytest.mark.parametrize("values", [np.array([["TW", ""], ["DL", ""], ["TW", "DW"]]), np.array([3, 1, 3, -2], np.int32),
                                    np.array([[5.0, -0.5], [5.0, 2.25]]), np.array([7], np.uint8)])
def test_the_distinct_values_are_numpys_unique_value_for_value_and_type_for_type(values):
    mine, theirs = distinct(values), np.unique(values)
    assert mine.dtype == theirs.dtype and mine.tolist() == theirs.tolist()
