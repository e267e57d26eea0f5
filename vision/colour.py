"""8-bit CIE Lab, as OpenCV's ``COLOR_BGR2LAB`` writes it, in numpy: for the small pictures the locator measures
colours in.

OpenCV builds lookup tables on its first Lab conversion in a process (~100 ms on a Raspberry Pi-class core), which a
cold ``tilecam read`` pays once per photo; the locator converts only pictures of a few hundred pixels a side, which
numpy does in about a millisecond. Same formulas (sRGB, D65 white), same scaling: L in 0-255 for 0-100, a and b
offset by 128.
"""

from __future__ import annotations

import numpy as np

#: sRGB → linear light for each 8-bit level.
_LINEAR = np.where(np.arange(256) / 255 <= 0.04045, np.arange(256) / 255 / 12.92,
                   ((np.arange(256) / 255 + 0.055) / 1.055) ** 2.4).astype(np.float32)
#: linear BGR → XYZ with X and Z already divided by the D65 white's.
_BGR_TO_XYZ = (np.array([[0.412453, 0.357580, 0.180423],
                         [0.212671, 0.715160, 0.072169],
                         [0.019334, 0.119193, 0.950227]]) / np.array([[0.950456], [1.0], [1.088754]]))[:, ::-1]
_EPSILON = 0.008856


def _f(t: np.ndarray) -> np.ndarray:
    return np.where(t > _EPSILON, np.cbrt(t), 7.787 * t + 16 / 116)


def bgr_to_lab8(bgr: np.ndarray) -> np.ndarray:
    """``bgr`` (H x W x 3, uint8) in 8-bit Lab (uint8), within a level or two of OpenCV's ``COLOR_BGR2LAB``."""
    xyz = _LINEAR[bgr] @ _BGR_TO_XYZ.T.astype(np.float32)
    fx, fy, fz = (_f(xyz[..., i]) for i in range(3))
    y = xyz[..., 1]
    lightness = np.where(y > _EPSILON, 116 * fy - 16, 903.3 * y)
    lab = np.stack([lightness * 255 / 100, 500 * (fx - fy) + 128, 200 * (fy - fz) + 128], axis=-1)
    return np.clip(np.rint(lab), 0, 255).astype(np.uint8)
