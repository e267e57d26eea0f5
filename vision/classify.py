"""The tile classifier: the shipped ONNX model over a batch of cell crops, run with onnxruntime.

The model folder holds ``tiles.onnx`` and ``tiles.json`` (its classes and the preprocessing it was trained with);
``tilecam.models.train`` writes both. The description may name other models beside it (``second_opinion``: one
file name or a list), trained apart (other fonts, other draws, other crops), whose readings are averaged in where
the first hesitates (``classify_again``). Runtime never imports torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Iterable

import numpy as np

EMPTY, BLANK, OCCLUDED = ".", "?", "#"


def letter_mask(classes: Iterable[str]) -> np.ndarray:
    """Which of ``classes`` are letters (A–Z, Ä Ö Ü …), as a boolean array: not empty, blank or occluded."""
    return np.array([len(c) == 1 and c.isalpha() for c in classes])


class ModelError(ValueError):
    """The tile model or its description cannot be used."""


def packaged_model() -> Path:
    """Path of the model shipped in ``tilecam.models``."""
    return Path(str(resources.files("tilecam.models").joinpath("tiles.onnx")))


def _file_names(value) -> tuple[str, ...]:
    """``second_opinion`` as written in a description: absent, one file name, or a list of them."""
    if value is None:
        return ()
    names = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"second_opinion must name model files, got {value!r}")
    return names


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
    second_opinion: tuple[str, ...] = ()   # file names of models beside this one, asked on doubtful squares

    @classmethod
    def load(cls, path: Path) -> "ModelSpec":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            inp = data["input"]
            return cls(tuple(data["classes"]), inp["name"], data["output"]["name"], int(inp["size"]),
                       inp.get("color", "RGB"), float(inp.get("scale", 1 / 255)),
                       tuple(inp.get("mean", (0.0, 0.0, 0.0))), tuple(inp.get("std", (1.0, 1.0, 1.0))),
                       _file_names(data.get("second_opinion")))
        except (OSError, KeyError, TypeError, ValueError) as exc:   # ValueError: bad JSON too
            raise ModelError(f"cannot read the model description {path}: {exc}") from exc


class TileClassifier:
    """``classify(crops)`` → the label and class probabilities of every crop, in one onnxruntime call."""

    def __init__(self, session, spec: ModelSpec, path: Path, others: Iterable["TileClassifier"] = ()):
        self.session = session
        self.spec = spec
        self.path = path
        self.classes = spec.classes
        self.others = tuple(others)      # the second opinions, each a classifier of the same classes
        self._letter_index = letter_mask(spec.classes)

    @classmethod
    def load(cls, path: str | Path | None = None, threads: int = 2, second: bool = True) -> "TileClassifier":
        """The model at ``path`` (default the shipped one) and, with ``second``, the other models it names."""
        import onnxruntime as ort

        model = Path(path) if path else packaged_model()
        if not model.is_file():
            raise ModelError(f"no tile model at {model}")
        spec = ModelSpec.load(model.with_suffix(".json"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, int(threads))
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # Idle threads sleep instead of spinning: with the second opinions each a session of its own, a spinning
        # pool left behind by one model's run takes the cores from the next (a warm read 73 ms instead of 24 here).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for a broken file
            raise ModelError(f"onnxruntime cannot load {model}: {exc}") from exc
        others = []
        for name in spec.second_opinion if second else ():
            other = cls.load(model.parent / name, threads, second=False)
            if other.classes != spec.classes:
                raise ModelError(f"the second opinion {other.path} has other classes than {model}")
            others.append(other)
        return cls(session, spec, model, others)

    def preprocess(self, crops: np.ndarray) -> np.ndarray:
        """BGR uint8 crops (N, S, S, 3) → the model's float NCHW input."""
        x = np.asarray(crops)
        if x.ndim != 4 or x.shape[1] != self.spec.size or x.shape[2] != self.spec.size or x.shape[3] != 3:
            raise ModelError(f"expected crops of shape (N, {self.spec.size}, {self.spec.size}, 3), got {x.shape}")
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

    def logits(self, crops: np.ndarray) -> np.ndarray:
        return self.session.run([self.spec.output_name], {self.spec.input_name: self.preprocess(crops)})[0]

    def classify(self, crops: np.ndarray, letters: Iterable[str] | None = None) -> tuple[list[str], np.ndarray]:
        """Labels and probabilities (N, classes); with ``letters``, other letters are ruled out (a tile set)."""
        z = self.logits(crops).astype(np.float64)
        if letters is not None:
            allowed = set(letters)
            banned = np.array([is_letter and c not in allowed
                               for c, is_letter in zip(self.classes, self._letter_index)])
            z[:, banned] = -np.inf
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        labels = [self.classes[i] for i in p.argmax(axis=1)]
        return labels, p.astype(np.float32)

    def classify_again(self, crops: np.ndarray, letters: Iterable[str] | None = None) -> np.ndarray:
        """Probabilities of crops read a second time: the mean of this model's and its second opinions', or this
        model's alone when it names none. Models trained apart (other fonts, other draws) seldom hesitate between
        the same two letters the same way, and their mean takes out what each run's chance put in."""
        probs = self.classify(crops, letters)[1]
        for other in self.others:
            probs = probs + other.classify(crops, letters)[1]
        return probs / (1 + len(self.others))
