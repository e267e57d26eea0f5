"""Run the docstring examples of every vision module, move inference's included (pytest's --doctest-modules only
collects under tests/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tilecam.vision as vision

MODULES = sorted(m.name for m in pkgutil.walk_packages(vision.__path__, "tilecam.vision."))


def test_vision_modules_are_found():
    assert {"tilecam.vision.read", "tilecam.vision.moves.decide", "tilecam.vision.moves.order"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
