"""The one path from frames to a stored game (``firmware/pipeline.py``): how a recording's detected events reach the
game, and what the tracker is told when the game refuses one."""

from __future__ import annotations

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.firmware.loop import DetectedMove
from tilecam.firmware.pipeline import ItemsSource, recording_settings, run_recording, temporary_game


class ScriptedTracker:
    """Gives the capture loop's first frame the events ``first`` (all at once, as one settled board may give a
    correction and a play), nothing after; keeps the boards it is synced to."""

    wants_every_frame = True

    def __init__(self, first):
        self.first, self.synced = list(first), []

    def feed(self, image, t):
        events, self.first = self.first, []
        return events

    def sync(self, board_rows):
        self.synced.append(list(board_rows))


def test_a_refused_event_syncs_the_tracker_after_the_events_that_came_with_it():
    """The first event is refused (off the centre star), the one after it recorded: the tracker is synced once, to
    the board with the recorded play on it (synced between the two, it lost that play and found its tiles new)."""
    tracker = ScriptedTracker([DetectedMove("play", Placement.from_gcg("1A", "ZOO")),
                               DetectedMove("play", Placement.from_gcg("8G", "CAT"))])
    with temporary_game(["Ann", "Ben"], "english") as service:
        report = run_recording(ItemsSource([Board().rows()] * 2), tracker, service)
        board = service.state()["board"]
    assert board[7] == "......CAT......" and len(report.refused) == 1 and "1A ZOO" in report.refused[0]
    assert tracker.synced == [board]


def test_a_recorded_games_settings_come_from_its_variant_then_the_classic_game():
    settings, rules = recording_settings("super")
    assert (settings.tileset, settings.layout, settings.lexicon, rules.board_layout.size) == \
        ("english-super", "super21", "enable1", 21)
    settings, rules = recording_settings(None, "german", "none")
    assert (settings.variant, settings.tileset, settings.layout, settings.lexicon) == \
        ("tournament", "german", "standard15", "none")
