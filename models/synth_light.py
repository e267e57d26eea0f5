"""The scene's light on the picture: a colour temperature, a brightness gradient, a shadow band and a glare spot
(maps drawn once for a scene and frame size), then the sensor's noise.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tilecam.models.synth_scene import Scene


@functools.lru_cache(maxsize=8)
def _light_maps(scene: Scene, w: int, h: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Colour temperature, a brightness gradient, a shadow band and a glare spot: a gain map (H x W x 3) and a grey
    additive one (H x W, None without glare), float32, drawn small and scaled up, the same for every frame."""
    sh, sw = h // 8, w // 8
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    yy /= sh
    xx /= sw
    angle, strength, base = scene.gradient
    gain = base * (1 + strength * ((xx - 0.5) * np.cos(angle) + (yy - 0.5) * np.sin(angle)))
    sa, spos, sdark = scene.shadow
    if sdark:
        v = (xx - 0.5) * np.cos(sa) + (yy - 0.5) * np.sin(sa) - spos
        gain *= 1 - sdark * np.clip(0.5 - v * 8, 0, 1) * np.clip(0.5 + (v + 0.15) * 8, 0, 1)
    gx, gy, gr, gs = scene.glare
    add = np.zeros_like(gain)
    if gs:
        add = gs * 255 * np.exp(-((xx - gx) ** 2 * (w / h) ** 2 + (yy - gy) ** 2) / (2 * (gr * w / h) ** 2))
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)[..., None] * np.asarray(scene.light, np.float32)
    add = cv2.resize(add.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR) if gs else None
    return gain.astype(np.float32), add


def light_and_noise(img: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """The scene's light, then sensor noise (grey, per pixel, from ``rng``)."""
    h, w = img.shape[:2]
    gain, add = _light_maps(scene, w, h)
    out = cv2.multiply(img.astype(np.float32), gain)
    grey = rng.standard_normal((h, w), dtype=np.float32) * np.float32(scene.noise)
    if add is not None:
        grey += add
    out = cv2.add(out, cv2.merge([grey, grey, grey]))
    return cv2.convertScaleAbs(out)      # saturates to 0..255 (nothing is negative but the noise)
