"""The median along an axis, equal to ``numpy.median``'s, by sorting; and the distinct values, as ``numpy.unique``.

The locator takes about two hundred medians of short axes a frame (a strip of a board's gradients, a premium
kind's squares): ``numpy.median`` partitions, about five times slower on them than sorting the short axis (a third of
the locator's time went to it). Same values and types (the mean of the two middle values of an even count, integers
in float64, as numpy gives them); no NaN handling: image data has none. ``numpy.unique``'s first call imports
``numpy.ma`` (10–15 ms of a cold read, for a check of masked arrays the reader never has): ``distinct`` gives its
values without it.

>>> import numpy as np
>>> a = np.array([[3, 1], [1, 5], [2, 9], [7, 0]], np.uint8)
>>> median(a, axis=0).tolist(), np.median(a, axis=0).tolist()
([2.5, 3.0], [2.5, 3.0])
>>> float(median(np.array([4.0, 1.0, 9.0])))
4.0
>>> distinct(np.array([["TW", ""], ["DL", ""]])).tolist(), distinct(np.array([3, 1, 3])).tolist()
(['', 'DL', 'TW'], [1, 3])
"""

from __future__ import annotations

import numpy as np


def median(a: np.ndarray, axis: int | None = None) -> np.ndarray:
    """``numpy.median(a, axis)`` (no ``out``, no NaN): the middle of ``a`` sorted along ``axis`` (None: flattened)."""
    a = np.asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    n = a.shape[axis]
    if n == 0:
        raise ValueError("the median of no values")
    s = np.sort(a, axis=axis)
    lo = np.take(s, (n - 1) // 2, axis=axis)
    hi = np.take(s, n // 2, axis=axis)
    if not np.issubdtype(s.dtype, np.inexact):
        lo, hi = lo.astype(np.float64), hi.astype(np.float64)
    return lo if n % 2 else (lo + hi) / 2


def distinct(a: np.ndarray) -> np.ndarray:
    """``numpy.unique(a)`` (no options): the distinct values of ``a`` flattened, sorted, in ``a``'s dtype."""
    a = np.asarray(a)
    return np.array(sorted(set(a.ravel().tolist())), dtype=a.dtype)
