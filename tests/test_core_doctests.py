"""Run the docstring examples of every game-core module (pytest's --doctest-modules only collects under tests/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tilecam.core as core

MODULES = sorted(m.name for m in pkgutil.iter_modules(core.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"tilecam.core.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_the_core_has_examples():
    assert {"service", "store", "lexicons"} <= set(MODULES)
    assert doctest.DocTestFinder().find(importlib.import_module("tilecam.core.service"))[0].examples
