"""Learning the user's board: the last layer refitted on the board's own squares, in numpy."""

from __future__ import annotations

import numpy as np

from tilecam.vision.adapt import BoardProfile, head_of


def _model(rng):
    w = rng.normal(size=(5, 8))
    b = rng.normal(size=5)
    return w, b


def test_the_last_layer_is_recovered_exactly_from_one_boards_readings():
    rng = np.random.default_rng(0)
    w, b = _model(rng)
    e = rng.normal(size=(225, 8))
    w2, b2 = head_of(e, e @ w.T + b)
    np.testing.assert_allclose(w2, w, atol=1e-8)
    np.testing.assert_allclose(b2, b, atol=1e-8)


def test_a_board_whose_tiles_look_shifted_is_read_right_after_learning_sixty_of_its_squares():
    """A new tile make or light moves this board's squares in the model's embedding: the model misreads many; the
    layer refitted on 60 squares the game confirmed reads the board's other squares right."""
    rng = np.random.default_rng(1)
    w, b = _model(rng)
    truth = rng.integers(0, 5, 400)
    means = np.linalg.pinv(w) @ (np.eye(5) * 6 - b[:, None]).T       # class centres the model reads right
    seen = means.T[truth] + 0.5 * rng.normal(size=(400, 8)) + 1.5 * rng.normal(size=8)   # … shifted here
    logits = seen @ w.T + b
    assert (logits.argmax(axis=1) == truth).mean() < 0.8
    profile = BoardProfile()
    assert profile.adapter() is None
    confirmed = np.where(np.arange(225) < 60, truth[:225], -1)           # -1: not confirmed by the game
    profile.learn(seen[:225], confirmed, logits[:225])
    adapt = profile.adapter()
    assert (adapt(seen[225:], None).argmax(axis=1) == truth[225:]).mean() > 0.95
    again = BoardProfile.from_json(profile.to_json())
    np.testing.assert_allclose(again.adapter()(seen[225:], None), adapt(seen[225:], None), atol=1e-2)
