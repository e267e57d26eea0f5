"""The live page and the review page name every kind of move the engine records, and no kind it never records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tilecam.engine.game import EVENT_KINDS

JS = Path(__file__).resolve().parents[1] / "web" / "static" / "js"


def labelled_kinds(script: str, function: str) -> set[str]:
    """The ``case "kind":`` labels of one switch-returning function of a script."""
    text = (JS / script).read_text(encoding="utf-8")
    body = text[text.index(f"function {function}("):]
    body = body[: body.index("default:")]
    return set(re.findall(r'case "([a-z_]+)"', body))


@pytest.mark.parametrize(("script", "function"), [("live.js", "moveText"), ("review.js", "describe")])
def test_every_engine_move_kind_has_a_label(script, function):
    assert labelled_kinds(script, function) == set(EVENT_KINDS)
