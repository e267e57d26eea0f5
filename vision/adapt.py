"""Learning the user's board: the model's last layer refitted on this board's own tiles, on the device.

The model ends in one linear layer: logits = W · embedding + b. ``head_of`` recovers W and b from any reading (a
least-squares fit of the readings' logits on their embeddings; exact, as the layer is linear). Every move the
players did not correct gives labelled squares of *this* board (its tile make, its light, its print);
``BoardProfile.learn`` keeps their embeddings, and ``BoardProfile.adapter`` refits the layer on them with plain
numpy (softmax regression, a few hundred gradient steps, pulled towards the model's own weights so that a handful
of examples cannot undo what the model knows). No torch on the Pi.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Pull of the refit layer towards the model's own (L2 on the change): large enough that ten squares of one letter
#: do not make every other letter unreadable.
STAY_CLOSE = 0.05
#: Gradient steps in one refit (a few milliseconds for a game's worth of squares); the step size follows from the
#: features (the inverse of the loss's curvature bound), so no step size is tuned.
STEPS = 300
#: Bare squares kept per refit at most: a board is mostly bare, and its letters are what the model must learn.
MAX_BARE = 200


def head_of(embedding: np.ndarray, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(W, b) with logits = embedding @ W.T + b, from one board's readings (225 pairs; the layer is linear)."""
    e = np.hstack([embedding.astype(np.float64), np.ones((len(embedding), 1))])
    wb, *_ = np.linalg.lstsq(e, logits.astype(np.float64), rcond=None)
    return wb[:-1].T, wb[-1]


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


@dataclass
class BoardProfile:
    """One board's adaptation: the squares learnt from its committed moves (embeddings and class indices) and the
    layer refitted on them. ``to_json``/``from_json`` keep it with the game's board profile."""

    embeddings: list[np.ndarray] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    head: tuple[np.ndarray, np.ndarray] | None = None
    _fitted: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    def learn(self, embedding: np.ndarray, labels: np.ndarray, logits: np.ndarray | None = None,
              empty: int = 0) -> None:
        """Keep a settled board's squares whose labels the game confirmed (class indices; -1 = not known), and the
        model's layer the first time (from ``logits``)."""
        if self.head is None and logits is not None:
            self.head = head_of(embedding, logits)
        labels = np.asarray(labels)
        known = np.flatnonzero(labels >= 0)
        bare = known[labels[known] == empty]
        tiles = known[labels[known] != empty]
        held_bare = sum(1 for y in self.labels if y == empty)
        room = max(0, MAX_BARE - held_bare)
        for i in list(tiles) + list(bare[:room]):
            self.embeddings.append(np.asarray(embedding[i], np.float32))
            self.labels.append(int(labels[i]))
        self._fitted = None

    def refit(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The layer refitted on the squares learnt (None before any)."""
        if self.head is None or not self.labels:
            return self.head
        if self._fitted is not None:
            return self._fitted
        w0, b0 = self.head
        x = np.stack(self.embeddings).astype(np.float64)
        y = np.asarray(self.labels)
        onehot = np.eye(len(b0))[y]
        # every class learnt weighs the same: ten squares of this board's Q count as much as its bare squares
        counts = np.bincount(y, minlength=len(b0))
        weight = (1.0 / counts[y]) / np.count_nonzero(counts)
        xb = np.hstack([x, np.ones((len(x), 1))])
        step = 1.0 / (0.5 * np.linalg.norm(xb * np.sqrt(weight)[:, None], 2) ** 2 + STAY_CLOSE)
        w, b = w0.copy(), b0.copy()
        for _ in range(STEPS):
            g = (_softmax(x @ w.T + b) - onehot) * weight[:, None]
            w -= step * (g.T @ x + STAY_CLOSE * (w - w0))
            b -= step * (g.sum(axis=0) + STAY_CLOSE * (b - b0))
        self._fitted = (w, b)
        return self._fitted

    def adapter(self):
        """``(embedding, logits) → logits`` with the refitted layer, for ``read_board``; None before any square is
        learnt (the model's own logits stand)."""
        if self.head is None or not self.labels:
            return None
        w, b = self.refit()

        def adapt(embedding: np.ndarray, logits: np.ndarray) -> np.ndarray:
            return (embedding.astype(np.float64) @ w.T + b).astype(np.float32)

        return adapt

    def to_json(self) -> dict:
        return {"labels": self.labels, "embeddings": [e.round(4).tolist() for e in self.embeddings],
                "head": None if self.head is None else [self.head[0].tolist(), self.head[1].tolist()]}

    @classmethod
    def from_json(cls, data: dict) -> "BoardProfile":
        head = data.get("head")
        return cls([np.asarray(e, np.float32) for e in data.get("embeddings", [])], list(data.get("labels", [])),
                   None if head is None else (np.asarray(head[0]), np.asarray(head[1])))
