"""Run the docstring examples of every engine module (pytest's --doctest-modules only collects under tests/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tilecam.engine as engine

MODULES = sorted(m.name for m in pkgutil.iter_modules(engine.__path__))


def test_engine_modules_are_found():
    assert {"board", "gcg", "game", "scoring", "legality"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"tilecam.engine.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
