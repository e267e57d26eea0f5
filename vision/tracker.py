"""Moved to :mod:`tilecam.vision.moves`; these names stay importable from here for modules not yet changed."""

from tilecam.vision.moves.events import DetectedEvent, TrackerError
from tilecam.vision.moves.reader import _one_line, default_reader
from tilecam.vision.moves.replay import External, GameRecorder, replay_frames
from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig, TrackerStats, make_tracker

__all__ = ["DetectedEvent", "External", "GameRecorder", "MoveTracker", "TrackerConfig", "TrackerError", "TrackerStats",
           "_one_line", "default_reader", "make_tracker", "replay_frames"]
