"""The game core's errors: a command the game refuses, split by cause.

Every refusal is a :class:`CommandRefused` (a ``ValueError``) carrying the reason a person is shown; a refused
command stores nothing. They live here, apart from :mod:`tilecam.core.service` that raises most of them, because
the settings, placement and fold modules raise them too.
"""

from __future__ import annotations


class CommandRefused(ValueError):
    """A command the game does not allow now; ``reason`` says why (shown to the person or logged)."""

    def __init__(self, reason: str, command: str = "") -> None:
        self.reason = reason
        self.command = command
        super().__init__(f"{command}: {reason}" if command else reason)


class NoGame(CommandRefused):
    """A command that needs a game in progress, while there is none."""
