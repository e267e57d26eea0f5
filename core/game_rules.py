"""A game's settings and the engine rules they stand for: what a new game is checked against before it is stored.

:func:`settings_for` fills a caller's choice (the web form, the API) from the variant, and :func:`rules_for` turns
stored settings into ``tilecam.engine`` rules; both refuse what names no variant, tile set or rule with
:class:`~tilecam.core.errors.CommandRefused`. The game service calls them for a new game and for every game it
rebuilds from the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tilecam.engine.errors import EngineError
from tilecam.engine.rules import Rules
from tilecam.engine import variants
from tilecam.core.errors import CommandRefused
from tilecam.core.store import GameSettings, StoreError


def rules_for(settings: GameSettings, players: int = 2) -> Rules:
    """The engine rules for stored settings: the engine registry's variant
    (:func:`tilecam.engine.variants.rules_for`) with the settings' tile set, board and challenge rule, and for
    Finish Line the target of ``level`` and ``players`` (or ``target``). Raises :class:`CommandRefused` for an
    unknown variant, tile set or rule, and for a level or target given to a variant that has none."""
    try:
        needs_target = variants.variant(settings.variant).needs_target
        if not needs_target and (settings.level is not None or settings.target is not None):
            raise CommandRefused(f"variant {settings.variant!r} has no target score (only finish-line has)",
                                 "new_game")
        changes: dict[str, Any] = {"layout": settings.layout, "challenge": settings.challenge_rule,
                                   "challenge_points": settings.challenge_points}
        if settings.target is not None:
            changes["target_score"] = settings.target
        rules = variants.rules_for(settings.variant, settings.tileset, players=players,
                                   level=settings.level if needs_target else None, **changes)
        rules.tiles, rules.board_layout  # load the data files now: a missing tile set is refused here, not later
    except EngineError as exc:
        raise CommandRefused(str(exc), "new_game") from exc
    return rules


def settings_for(data: Mapping[str, Any]) -> GameSettings:
    """Settings of a new game from what the caller chose (the web form, the API); what it left out comes from the
    variant: its board, tile set and challenge rule (Super Scrabble brings ``super21`` and ``english-super``),
    then the store's defaults. A tile set chosen without a board keeps the variant's board."""
    chosen = {k: v for k, v in data.items() if v is not None}
    try:
        fields = variants.variant(str(chosen.get("variant", GameSettings.variant))).rules
    except EngineError:
        fields = {}  # an unknown variant: refused by rules_for with the list of known ones
    for setting, field_name in (("tileset", "tileset"), ("layout", "layout"), ("challenge_rule", "challenge")):
        if setting not in chosen and field_name in fields:
            chosen[setting] = fields[field_name]
    try:
        return GameSettings.from_dict(chosen)
    except (StoreError, TypeError) as exc:
        raise CommandRefused(str(exc), "new_game") from exc
