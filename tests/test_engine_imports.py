"""The engine depends on the standard library only (and on nothing else of tilecam)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library():
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 12
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    offenders = {f.name: sorted(imported_modules(f) - allowed) for f in files}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_engine_folder_is_flat():
    assert not [p for p in ENGINE.iterdir() if p.is_dir() and p.name not in ("data", "__pycache__")]
