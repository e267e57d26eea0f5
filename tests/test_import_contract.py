"""The import contract of the whole project (docs/ARCHITECTURE.md): engine ← vision ← core ← firmware / web.

Every module of every package is parsed (not imported: a lazy import inside a function counts as much as one at the
top, and ``importlib.import_module("tilecam.…")`` with a literal name too), and its imports of other packages must
follow the rules below; the packages' graph must have no cycle. The checker is also run on made-up graphs holding
the cycles issue 24 found (web ↔ firmware, vision ↔ models), to show that it would catch them.
"""

from __future__ import annotations

import ast
import graphlib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "core", "firmware", "web", "models")

#: The project's packages each package may import. ``firmware`` may start the web server (firmware → web), never
#: the other way; ``models`` (training, evaluation, synthetic data) may import anything.
ALLOWED: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "vision": frozenset({"engine"}),
    "core": frozenset({"engine", "vision"}),
    "web": frozenset({"engine", "vision", "core"}),
    "firmware": frozenset({"engine", "vision", "core", "web", "models"}),
    "models": frozenset({"engine", "vision", "core", "firmware", "web"}),
}

#: The only modules outside models/ that may import it: the commands that run the evaluation, benches and the
#: synthetic renderer, and the script that renders the bundled demo clip.
MODELS_IMPORTERS = frozenset({
    "tilecam.firmware.cmd_vision",          # tilecam eval-vision
    "tilecam.firmware.cmd_bench",           # tilecam bench …
    "tilecam.firmware.cmd_replay",          # tilecam render-game (synthetic frames of a GCG game)
    "tilecam.firmware.bench_moves",         # tilecam bench moves (renders games to replay)
    "tilecam.firmware.data.make_demo_clip",  # renders firmware/data/demo_game.zip
})

#: Edges that break the contract today and are known, each with why it is allowed for now: (module, package).
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["tilecam", *parts])


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """The absolute names of the ``tilecam.*`` modules that ``path`` imports anywhere in its body."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - (node.level - 1)])
                if node.module:
                    found.add(f"{base}.{node.module}")
                else:
                    found.update(f"{base}.{alias.name}" for alias in node.names)
            elif node.module:
                found.add(node.module)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) ==
              "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return {name for name in found if name.startswith("tilecam.")}


def project_edges() -> dict[tuple[str, str], set[str]]:
    """(from package, to package) → the modules of the first that import the second."""
    edges: dict[tuple[str, str], set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in imported_modules(path):
                target = name.split(".")[1]
                if target != package:
                    edges[(package, target)].add(module_name(path))
    return edges


def problems(edges: dict[tuple[str, str], set[str]],
             exceptions: dict[tuple[str, str], str] | None = None) -> list[str]:
    """Every import that breaks the contract, and every cycle between packages, as sentences."""
    exceptions = KNOWN_EXCEPTIONS if exceptions is None else exceptions
    found: list[str] = []
    graph: dict[str, set[str]] = defaultdict(set)
    for (source, target), modules in sorted(edges.items()):
        modules = {m for m in modules if (m, target) not in exceptions}
        if not modules:
            continue
        graph[source].add(target)
        if target not in ALLOWED.get(source, frozenset()):
            found.append(f"{source} must not import {target}: {', '.join(sorted(modules))}")
        elif target == "models" and source != "models":
            for m in sorted(modules - MODELS_IMPORTERS):
                found.append(f"only the evaluation and bench commands import models, not {m}")
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        found.append(f"import cycle: {' → '.join(exc.args[1])}")
    return found


def test_the_project_keeps_the_import_contract():
    assert problems(project_edges()) == []


def test_every_known_exception_is_still_there():
    """An exception that has been fixed comes off the list (so the list never hides a new edge)."""
    edges = project_edges()
    stale = [key for key in KNOWN_EXCEPTIONS if key[0] not in edges.get((key[0].split(".")[1], key[1]), set())]
    assert stale == []


def test_the_checker_finds_web_importing_firmware():
    edges = {("firmware", "web"): {"tilecam.firmware.daemon"}, ("web", "firmware"): {"tilecam.web.data"}}
    found = problems(edges)
    assert any("web must not import firmware: tilecam.web.data" in p for p in found)
    assert any(p.startswith("import cycle") and "web" in p and "firmware" in p for p in found)


def test_the_checker_finds_vision_and_models_importing_each_other():
    edges = {("models", "vision"): {"tilecam.models.train"}, ("vision", "models"): {"tilecam.vision.read"}}
    found = problems(edges)
    assert any("vision must not import models" in p for p in found)
    assert any(p.startswith("import cycle") for p in found)
    # a known exception covers only its own module
    allowed = {("tilecam.vision.bench", "models"): "a bench that renders"}
    assert problems({("vision", "models"): {"tilecam.vision.bench"}}, exceptions=allowed) == []
    assert problems({("vision", "models"): {"tilecam.vision.read"}}, exceptions=allowed) != []


def test_the_checker_finds_a_wrong_direction_and_a_stray_models_import():
    assert problems({("engine", "vision"): {"tilecam.engine.game"}}) == [
        "engine must not import vision: tilecam.engine.game"]
    assert problems({("core", "firmware"): {"tilecam.core.service"}}) == [
        "core must not import firmware: tilecam.core.service"]
    assert problems({("firmware", "models"): {"tilecam.firmware.daemon"}}) == [
        "only the evaluation and bench commands import models, not tilecam.firmware.daemon"]
    assert problems({("firmware", "models"): {"tilecam.firmware.cmd_bench"}}) == []


def test_lazy_relative_and_string_imports_are_seen(tmp_path):
    (tmp_path / "web").mkdir()
    source = tmp_path / "web" / "page.py"
    source.write_text("import importlib\nfrom . import api\n\n\ndef later():\n"
                      "    from tilecam.firmware.daemon import Daemon\n"
                      "    return importlib.import_module('tilecam.firmware.config')\n", encoding="utf-8")
    assert imported_modules(source, tmp_path) == {"tilecam.web.api", "tilecam.firmware.daemon",
                                                  "tilecam.firmware.config"}
