"""The registry of the variants, tile sets and layouts a new game can start with (``data/variants/registry.toml``).

:func:`rules_for` turns a choice (variant, tile set, Finish Line level) into :class:`~tilecam.engine.rules.Rules`;
:func:`registry` is the same data as plain JSON for the web's new-game page.

>>> rules_for("super").layout, rules_for("tournament", "german").passes_to_end
('super21', 4)
>>> rules_for("finish-line", players=3, level="expert").target_score
180
>>> magical_word_bonus("harry-potter", 5), magical_word_bonus("harry-potter", 14)
(10, 50)
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from typing import Any

from .datafiles import DATA_ROOT, read_data_file
from .errors import DataFileError, RulesError
from .rules import Rules

REGISTRY_PATH = DATA_ROOT / "variants" / "registry.toml"
FINISH_LINE_PATH = DATA_ROOT / "variants" / "finish-line.tsv"
BONUS_DIR = DATA_ROOT / "bonuses"
LEVELS = ("beginner", "intermediate", "expert")
DEFAULT_LEVEL = "intermediate"  # the Finish Line level when a game names none: the table's middle column
# Rules fields that end a game: a variant that sets any of them keeps its own ending over the tile set's.
END_KEYS = ("max_scoreless_turns", "passes_to_end", "end_on_passes")
# TOML has no null: 0 stands for None in these fields.
NULLABLE = ("max_scoreless_turns", "passes_to_end", "target_score")


@dataclass(frozen=True, slots=True)
class Variant:
    """One rules variant: ``rules`` are the Rules fields it lays over the classic defaults."""

    name: str
    title: str
    source: str = ""
    gcg_game_type: str = "classic"
    gcg_note: str = ""
    needs_target: bool = False
    rules: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class TileSetInfo:
    """A tile set's registry entry: title, GCG ``#tile-distribution`` name, bundled lexicon, end-of-game rules."""

    name: str
    title: str
    gcg: str
    lexicon: str = ""
    gcg_note: str = ""
    end: dict[str, Any] = field(default_factory=dict, hash=False)


def _rules_fields(table: dict[str, Any], where: str) -> dict[str, Any]:
    known = set(Rules.__dataclass_fields__)
    unknown = set(table) - known
    if unknown:
        raise DataFileError(f"{where}: unknown Rules fields {', '.join(sorted(unknown))}")
    out = dict(table)
    for key in NULLABLE:
        if out.get(key) == 0:
            out[key] = None
    if "bingo_sizes" in out:
        out["bingo_sizes"] = tuple(out["bingo_sizes"])
    return out


@functools.lru_cache(maxsize=None)
def _registry() -> dict[str, Any]:
    try:
        data = tomllib.loads(REGISTRY_PATH.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"variant registry {REGISTRY_PATH}: {exc}") from exc
    variants = {name: Variant(name, rules=_rules_fields(v.pop("rules", {}), f"variant {name!r}"), **v)
                for name, v in data.get("variants", {}).items()}
    tilesets = {name: TileSetInfo(name, end=_rules_fields(t.pop("end", {}), f"tile set {name!r}"), **t)
                for name, t in data.get("tilesets", {}).items()}
    return {"variants": variants, "tilesets": tilesets, "layouts": data.get("layouts", {})}


def variants() -> list[Variant]:
    """Every registered variant, in the registry's order."""
    return list(_registry()["variants"].values())


def tilesets() -> list[TileSetInfo]:
    """Every registered tile set, in the registry's order."""
    return list(_registry()["tilesets"].values())


def variant(name: str) -> Variant:
    """A variant by name; ``RulesError`` naming the known ones for anything else."""
    known = _registry()["variants"]
    if name not in known:
        raise RulesError(f"unknown variant {name!r}; one of {', '.join(known)}")
    return known[name]


def tileset_info(name: str) -> TileSetInfo:
    """A registered tile set by name; ``RulesError`` naming the known ones for anything else."""
    known = _registry()["tilesets"]
    if name not in known:
        raise RulesError(f"unknown tile set {name!r}; one of {', '.join(known)}")
    return known[name]


def layout_gcg_name(layout: str) -> str:
    """The ``#board-layout`` name of a bundled layout (``super21`` → ``SuperCrosswordGame``)."""
    entry = _registry()["layouts"].get(layout)
    if entry is None:
        raise RulesError(f"layout {layout!r} has no registry entry")
    return entry["gcg"]


@functools.lru_cache(maxsize=None)
def _finish_line() -> dict[tuple[str, int], int]:
    table = {}
    for n, line in enumerate(FINISH_LINE_PATH.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            level, players, target = line.split()
            table[(level, int(players))] = int(target)
    return table


def finish_line_target(level: str, players: int) -> int:
    """The Finish Line target for a level and a number of players (material 003's table, ``finish-line.tsv``)."""
    try:
        return _finish_line()[(level, players)]
    except KeyError:
        raise RulesError(f"no Finish Line target for level {level!r} and {players} players "
                         f"(levels {', '.join(LEVELS)}; 2 to 4 players)") from None


@functools.lru_cache(maxsize=None)
def _bonus_table(name: str) -> tuple[tuple[int, int], ...]:
    text, stem = read_data_file(name, BONUS_DIR, ".tsv", "bonus table")
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            parts = line.split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise DataFileError(f"bonus table {stem!r} line {n}: expected 'length bonus', got {line!r}")
            rows.append((int(parts[0]), int(parts[1])))
    if not rows:
        raise DataFileError(f"bonus table {stem!r}: no rows")
    return tuple(sorted(rows))


def magical_word_bonus(table: str, length: int) -> int:
    """The bonus for a Magical Word of ``length`` letters: the row of that length, or of the longest length
    below it (0 below the first row). ``table`` names ``engine/data/bonuses/NAME.tsv`` or is a path."""
    bonus = 0
    for row_length, row_bonus in _bonus_table(table):
        if row_length <= length:
            bonus = row_bonus
    return bonus


def rules_for(variant_name: str = "tournament", tileset: str | None = None, *, players: int = 2,
              level: str | None = None, **changes: Any) -> Rules:
    """The rules of a new game: the variant's fields, the tile set's end-of-game fields (unless the variant sets
    its own ending), a Finish Line target from ``level`` and ``players`` (or ``target_score=``), then ``changes``.

    ``tileset`` None keeps the variant's tile set (English unless it names one). A tile set given by path (a
    user's ``.tsv``) has no registry entry and keeps the classic ending.
    """
    v = variant(variant_name)
    fields = dict(v.rules)
    name = tileset or fields.get("tileset", "english")
    info = _registry()["tilesets"].get(name)
    end = info.end if info is not None else {}
    if not any(key in fields for key in END_KEYS):
        fields = {**end, **fields}
    fields["tileset"] = name
    if v.needs_target and "target_score" not in changes:
        fields["target_score"] = finish_line_target(level or DEFAULT_LEVEL, players)
    elif level is not None:
        raise RulesError(f"variant {variant_name!r} has no target level")
    return Rules(**{**fields, **changes})


def registry() -> dict[str, Any]:
    """The registry as plain JSON-ready data (what the new-game page lists)."""
    reg = _registry()
    return {
        "variants": [{"name": v.name, "title": v.title, "source": v.source, "needs_target": v.needs_target,
                      "rules": {k: list(x) if isinstance(x, tuple) else x for k, x in v.rules.items()}}
                     for v in reg["variants"].values()],
        "tilesets": [{"name": t.name, "title": t.title, "lexicon": t.lexicon} for t in reg["tilesets"].values()],
        "finish_line": {"levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
                        "targets": [{"level": lv, "players": p, "target": t}
                                    for (lv, p), t in _finish_line().items()]},
    }
