"""The tile classifier: the shipped ONNX model over a batch of cell crops, run with onnxruntime.

The model folder holds ``tiles.onnx`` and ``tiles.json`` (its classes, the preprocessing it was trained with and
its calibration); ``tilecam.models.reader_train`` writes both. The model reads each crop beside a reference crop,
the bare look of that square's kind on the same board (``tilecam.vision.context``), and gives logits and an
embedding. ``probabilities`` turns the logits into calibrated class probabilities in one place: the temperature
and the class priors fitted on held-back real boards, and the tile set's letters. Runtime never imports torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable

import numpy as np

EMPTY, BLANK, OCCLUDED = ".", "?", "#"

#: A square read bare (or covered) at least this surely is not read in the board's other turns (``orient``): it
#: reads alike whichever way; bare squares are three quarters of most boards.
SURELY_BARE = 0.999
#: A square read surely — one class at this probability or more, or bare and covered together (nothing on it to
#: read either way) — is not read again in moved views: five reads would say the same (on every real set the same
#: squares wrong as reading every square not surely bare in five views, the whole-board classify cheaper on dense
#: boards).
SURELY_READ = 0.999
#: Each square not read surely is read again with its crop moved this many pixels up, down, left and right (the
#: crop's edge pixels repeated), and its logits are the mean of the five reads: a grid found a pixel or two off, or a
#: tile lying off its square's centre, moves the letter in the crop, and a letter read alike in five places is a
#: letter read surely. Two pixels of a 40-pixel crop; chosen before it was measured, the gain checked on one fold of
#: the real sets and confirmed on the other (BENCHMARKS: board-disjoint).
VIEW_SHIFT_PX = 2


def letter_mask(classes: Iterable[str]) -> np.ndarray:
    """Which of ``classes`` are letters (A–Z, Ä Ö Ü, Ñ, Ł …, a two-letter tile by its symbol: ``Ç`` for CH), as a
    boolean array: not empty, blank or occluded."""
    return np.array([len(c) == 1 and c.isalpha() for c in classes])


def moved_views(crops: np.ndarray, px: int) -> np.ndarray:
    """The crops (N, S, S, C) moved ``px`` pixels down, up, right and left, their edge pixels repeated: (4N, S, S, C),
    the four moves one after another."""
    s = crops.shape[1]
    padded = np.pad(crops, ((0, 0), (px, px), (px, px), (0, 0)), mode="edge")
    return np.concatenate([padded[:, px - dy:px - dy + s, px - dx:px - dx + s]
                           for dy, dx in ((px, 0), (-px, 0), (0, px), (0, -px))])


def soften(crops: np.ndarray, sigma: float) -> np.ndarray:
    """The crops (N, S, S, C, uint8) each blurred by a Gaussian of ``sigma`` pixels (5 × 5, edges repeated): a model
    trained so reads every square at no more detail than a soft camera gives (``ModelSpec.soften``)."""
    import cv2

    n, h, w, ch = crops.shape
    if not n or sigma <= 0:
        return crops
    # One blur over the crops laid side by side, each padded with its own edge so that none bleeds into the next.
    padded = np.pad(crops, ((0, 0), (2, 2), (2, 2), (0, 0)), mode="edge")
    strip = np.ascontiguousarray(padded.transpose(1, 0, 2, 3)).reshape(h + 4, n * (w + 4), ch)
    strip = cv2.GaussianBlur(strip, (5, 5), sigma, borderType=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(strip.reshape(h + 4, n, w + 4, ch).transpose(1, 0, 2, 3)[:, 2:-2, 2:-2])


class ModelError(ValueError):
    """The tile model or its description cannot be used."""


def packaged_model() -> Path:
    """Path of the model shipped in ``tilecam.models``."""
    return Path(str(resources.files("tilecam.models").joinpath("tiles.onnx")))


@dataclass(frozen=True)
class ModelSpec:
    classes: tuple[str, ...]
    input_name: str
    output_name: str
    size: int
    color: str          # channel order the model expects: "RGB" or "BGR"
    scale: float
    mean: tuple[float, float, float]
    std: tuple[float, float, float]
    reference_name: str | None = None       # the reference crops' input (None: a model of crops alone)
    embedding_name: str | None = None       # the embedding output, where the model gives one
    temperature: float = 1.0                # logits are divided by it (fitted on held-back real boards)
    log_prior_shift: tuple[float, ...] = ()  # added to the logits after that: run-time priors over training's
    trained: dict = field(default_factory=dict, compare=False)   # what the model was trained on, as written
    dtype: str = "float32"                  # "uint8": the crops fed as cut, bytes in rows of BGR (``models.bytes_in``)
    soften: float = 0.0                     # crops and references blurred by this sigma first (``soften``); 0: none

    @classmethod
    def load(cls, path: Path) -> "ModelSpec":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            inp = data["input"]
            calibration = data.get("calibration", {})
            return cls(tuple(data["classes"]), inp["name"], data["output"]["name"], int(inp["size"]),
                       inp.get("color", "RGB"), float(inp.get("scale", 1 / 255)),
                       tuple(inp.get("mean", (0.0, 0.0, 0.0))), tuple(inp.get("std", (1.0, 1.0, 1.0))),
                       inp.get("reference"),
                       data["output"].get("embedding"), float(calibration.get("temperature", 1.0)),
                       tuple(float(v) for v in calibration.get("log_prior_shift", ())), data.get("trained", {}),
                       inp.get("dtype", "float32"), float(inp.get("soften", 0.0)))
        except (OSError, KeyError, TypeError, ValueError) as exc:   # ValueError: bad JSON too
            raise ModelError(f"cannot read the model description {path}: {exc}") from exc


class TileClassifier:
    """``classify(crops)`` → the label and class probabilities of every crop, in one onnxruntime call."""

    def __init__(self, session, spec: ModelSpec, path: Path):
        self.session = session
        self.spec = spec
        self.path = path
        self.classes = spec.classes
        self._letter_index = letter_mask(spec.classes)
        self.view_shift_px = VIEW_SHIFT_PX     # 0: each square read once (``in_views``)

    @classmethod
    def load(cls, path: str | Path | None = None, threads: int = 2) -> "TileClassifier":
        """The model at ``path`` (default the shipped one)."""
        import onnxruntime as ort

        model = Path(path) if path else packaged_model()
        if not model.is_file():
            raise ModelError(f"no tile model at {model}")
        spec = ModelSpec.load(model.with_suffix(".json"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, int(threads))
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # Idle threads sleep instead of spinning: a spinning pool left behind by one run takes the cores from the
        # capture loop and the web (a warm read took 73 ms instead of 24 here with several sessions spinning).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for a broken file
            raise ModelError(f"onnxruntime cannot load {model}: {exc}") from exc
        return cls(session, spec, model)

    def preprocess(self, crops: np.ndarray) -> np.ndarray:
        """BGR uint8 crops (N, S, S, 3) → the model's float NCHW input."""
        x = np.asarray(crops)
        if x.ndim != 4 or x.shape[1] != self.spec.size or x.shape[2] != self.spec.size or x.shape[3] != 3:
            raise ModelError(f"expected crops of shape (N, {self.spec.size}, {self.spec.size}, 3), got {x.shape}")
        if self.spec.soften:
            x = soften(np.asarray(x, np.uint8), self.spec.soften)
        if self.spec.dtype == "uint8":
            return np.ascontiguousarray(x, np.uint8)
        # Reorder while still one byte a value, then scale in one pass into the output: three float passes over
        # the batch (flip, scale, transpose) cost ~6 ms of a ~20 ms classify here.
        x = x.transpose(0, 3, 1, 2)
        if self.spec.color == "RGB":
            x = x[:, ::-1]
        out = np.empty(x.shape, np.float32)
        np.multiply(x, np.float32(self.spec.scale), out=out, dtype=np.float32)
        mean, std = np.asarray(self.spec.mean, np.float32), np.asarray(self.spec.std, np.float32)
        if mean.any() or (std != 1).any():
            out -= mean[:, None, None]
            out /= std[:, None, None]
        return out

    @property
    def uses_references(self) -> bool:
        return self.spec.reference_name is not None

    def run(self, crops: np.ndarray, references: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """The raw logits (N, classes) and the embedding (N, features; None where the model gives none)."""
        feeds = {self.spec.input_name: self.preprocess(crops)}
        if self.uses_references:
            if references is None or len(references) != len(crops):
                raise ModelError("this tile model reads each crop beside its reference crop: give both")
            feeds[self.spec.reference_name] = self.preprocess(references)
        names = [self.spec.output_name] + ([self.spec.embedding_name] if self.spec.embedding_name else [])
        out = self.session.run(names, feeds)
        return out[0], (out[1] if len(out) > 1 else None)

    def bare_or_covered(self, probs: np.ndarray) -> np.ndarray:
        """Per square (a row of ``probs``, calibrated), the probability that nothing readable lies on it: bare or
        covered."""
        return probs[:, [i for i, c in enumerate(self.classes) if c in (EMPTY, OCCLUDED)]].sum(axis=1)

    def in_views(self, crops: np.ndarray, references: np.ndarray | None, logits: np.ndarray,
                 embedding: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """``logits`` and ``embedding`` (of ``crops`` beside ``references``, as ``run`` gave them) with each square
        not read surely (``SURELY_READ``) read again moved ``VIEW_SHIFT_PX`` four ways (one batch), both averaged
        over the five reads: the last layer is linear, so the mean logits are still the layer of the mean embedding
        (``adapt``)."""
        px = self.view_shift_px
        if not px or not len(crops):
            return logits, embedding
        probs = self.calibrated(logits)
        ask = np.flatnonzero((probs.max(axis=1) < SURELY_READ) & (self.bare_or_covered(probs) < SURELY_READ))
        if not len(ask):
            return logits, embedding
        views = moved_views(np.asarray(crops)[ask], px)
        refs = None if references is None else np.concatenate([np.asarray(references)[ask]] * 4)
        z, e = self.run(views, refs)
        out = np.array(logits, np.float32, copy=True)
        out[ask] = (out[ask] + z.reshape(4, len(ask), -1).sum(axis=0)) / 5
        if embedding is not None and e is not None:
            embedding = np.array(embedding, np.float32, copy=True)
            embedding[ask] = (embedding[ask] + e.reshape(4, len(ask), -1).sum(axis=0)) / 5
        return out, embedding

    def unreadable(self, letters: Iterable[str]) -> tuple[str, ...]:
        """The letters of ``letters`` (a tile set's) that this model has no class for: it never reads them (an
        older model of 32 classes and a Spanish Ñ); the rest of the set it reads as ever."""
        known = set(self.classes)
        return tuple(letter for letter in letters if letter not in known)

    def calibrated(self, logits: np.ndarray, letters: Iterable[str] | None = None) -> np.ndarray:
        """Class probabilities from logits: the temperature, the priors, the tile set's letters, in this one
        place. Letters of the set the model has no class for are left out (``unreadable``)."""
        z = np.asarray(logits, np.float64) / self.spec.temperature
        if self.spec.log_prior_shift:
            z = z + np.asarray(self.spec.log_prior_shift)
        if letters is not None:
            allowed = set(letters)
            z[:, [is_letter and c not in allowed for c, is_letter in zip(self.classes, self._letter_index)]] = -np.inf
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)

    def probabilities(self, crops: np.ndarray, references: np.ndarray | None = None,
                      letters: Iterable[str] | None = None) -> np.ndarray:
        """Calibrated class probabilities (N, classes) of crops beside their references."""
        return self.calibrated(self.run(crops, references)[0], letters)

    def classify(self, crops: np.ndarray, letters: Iterable[str] | None = None,
                 references: np.ndarray | None = None) -> tuple[list[str], np.ndarray]:
        """Labels and calibrated probabilities (N, classes); with ``letters``, other letters are ruled out (a tile
        set). A model that reads references is given them, or, for a whole board's crops, its own
        (``context.references_from_board``)."""
        if self.uses_references and references is None:
            from tilecam.vision.context import references_from_board

            if round(len(crops) ** 0.5) ** 2 != len(crops):
                raise ModelError("give the references of these crops: they are not a whole board's squares")
            references = references_from_board(np.asarray(crops))
        p = self.probabilities(crops, references, letters)
        return [self.classes[i] for i in p.argmax(axis=1)], p
