"""Shared test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only shared data folder beside the checkout; tests that need it skip (and say so) without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present beside the checkout")
    return SHARED


@pytest.fixture
def tracker():
    """The device's tracker with the shipped tile model on an empty English board (skips without the model)."""
    from tilecam.vision.classify import ModelError
    from tilecam.vision.moves.reader import default_reader
    from tilecam.vision.moves.tracker import make_tracker

    try:
        reader = default_reader("english", threads=1)
    except (ImportError, OSError, ModelError) as exc:
        pytest.skip(f"no tile model: {exc}")
    return make_tracker(["." * 15] * 15, "english", reader=reader)


@pytest.fixture
def tiles_drawn_flat(monkeypatch):
    """Renders drawn with flat tiles, as before they stood up (``synth.TILE_THICKNESS``): a test about one seed's
    picture (a locator's fallback, a tie between two turns) keeps the picture it was written for. Patched where
    ``sample_scene`` looks it up."""
    from tilecam.models import synth_scene

    monkeypatch.setattr(synth_scene, "TILE_THICKNESS", 0.0)
