"""The tracker's configuration and its counters: what the device, ``tilecam replay`` and ``tilecam bench moves``
set (:func:`device_config`, the one configuration) and what they read back (:class:`TrackerStats`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tilecam.engine.layout import Layout
from tilecam.vision.moves.decide import ResolvePolicy
from tilecam.vision.moves.events import TrackerError

COMMIT_POLICIES = ("settle", "clock")


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """``settle_readings``: agreeing unoccluded readings needed (1 when the capture loop has already waited for
    stillness); ``commit``: ``settle`` or ``clock``; ``resolve``: how sure is sure; ``rotations``: look for a board
    turned on the table."""

    settle_readings: int = 3
    commit: str = "settle"
    resolve: ResolvePolicy = field(default_factory=ResolvePolicy)
    rotations: bool = True
    wants_every_frame: bool = False
    stills: bool = False               # every frame is a turn of its own: a clock press comes with it (given all)
    unsure_squares: int = 6            # this many squares read below ``unsure_below`` count as something over the
    unsure_below: float = 0.5          # board (a hand the reader did not flag): no settle; 0 = never
    occlusion_blocks: bool = True      # an occluded square stops the settle (False: it only counts as unchanged)
    correct_above: float = 0.95        # a committed tile (not of the last play) read as another letter this surely …
    correct_after: int = 2             # … on this many settled boards in a row was misread when committed; 0 = never
    # A committed tile (not of the last play) read bare as surely on this many settled boards in a row was a bare
    # square misread as a tile: it is taken out (a "correct" to "."), so the game does not stall on a tile
    # "missing" from then on. 0 = never, on live video: a tile lifted and held, or slid a square aside, reads bare
    # for as long as the players take. Photos one a turn (``for_stills``): two turns without it.
    remove_after: int = 0
    # The reader learns the board from the committed tiles at each settle. Off by default: on the five Romanian
    # games (`tilecam bench stills`, a model that never saw that board) it gave 70/100 moves right against 82
    # without (the shipped recipe, A13j; 62 against 63 with an older one) — a misread tile, once committed, is
    # learnt too — and ~50 ms more a settle. Learning from labelled moves does help (`tilecam bench adapt`: 1.19 %
    # → 0.33 % squares wrong after move 10): what is missing is moves known right.
    learn: bool = False

    @classmethod
    def for_stills(cls, rack_size: int = 7, **changes: Any) -> "TrackerConfig":
        """One photo per turn, each already a settled board (a clock-button rig): every photo is looked at as it is;
        an occluded square in one (a glare) is taken as unchanged, and so are up to two committed tiles read empty
        away from the new ones (waiting for a later photo to show them again would stall the game), and one read bare
        on two photos in a row is taken out (``remove_after``)."""
        base = {"settle_readings": 1, "commit": "clock", "unsure_squares": 0, "occlusion_blocks": False, "stills": True,
                "resolve": ResolvePolicy(tolerate_missing=2, rack_size=rack_size), "remove_after": 2}
        return cls(**{**base, **changes})

    def __post_init__(self) -> None:
        if self.commit not in COMMIT_POLICIES:
            raise TrackerError(f"unknown commit policy {self.commit!r}; one of {', '.join(COMMIT_POLICIES)}")
        if self.settle_readings < 1:
            raise TrackerError("settle_readings must be at least 1")


@dataclass
class TrackerStats:
    """Counters and timings (seconds) for the benchmark and the device panel."""

    frames: int = 0
    occluded: int = 0                  # frames with something over the board (not settled)
    unreadable: int = 0                # frames the reader found no board in
    unreadable_why: dict[str, int] = field(default_factory=dict)   # … by the reader's reason
    kept: int = 0                      # squares read as covered, not a hand, that kept their belief
    changed: list[int] = field(default_factory=list)         # per image: squares whose pixels changed (read anew)
    settles: int = 0
    commits: int = 0
    disturbed: int = 0
    turns: int = 0                     # times the board was seen turned on the table
    unreachable: int = 0               # settles that left out tiles read where no play could reach (moves.reach)
    misread: int = 0                   # settles that took squares read as tiles for bare ones (decide: misread)
    still: int = 0                     # settles that read squares as decided before: their picture did not change
    read_s: list[float] = field(default_factory=list)        # image -> reading, per frame
    track_s: list[float] = field(default_factory=list)       # reading -> events, per frame
    commit_s: list[float] = field(default_factory=list)      # settled reading -> committed events
    latency_s: list[float] = field(default_factory=list)     # settling frame in -> its events out (read included)
    frame_s: list[float] = field(default_factory=list)       # every frame in -> out (gate, read, track)
    # per committed play (or amendment): its new squares and the side of the board its hand was told to come from
    # (None: not told, or two players' hands in the change)
    sides: list[tuple[tuple[tuple[int, int], ...], int | None]] = field(default_factory=list)


def board_layout(layout: Layout | str | None, board_rows: Sequence[str] | None = None) -> Layout:
    """The layout of the tracker's board: ``layout`` itself or loaded by name; None: the layout the locator reads
    a board of ``board_rows``' size with (``locate.LAYOUT_OF_SIZE``; the classic board without rows). Another
    15x15 layout than the classic one differs only in premiums, which the tracker does not score (the game does).
    Raises ``TrackerError`` for rows of a size no board has."""
    from tilecam.vision.locate import LAYOUT_OF_SIZE

    if isinstance(layout, Layout):
        return layout
    if layout is not None:
        return Layout.load(layout)
    size = 15 if board_rows is None else len(board_rows)
    if size not in LAYOUT_OF_SIZE:
        raise TrackerError(f"a {size}x{size} board: no layout of that size ({', '.join(map(str, LAYOUT_OF_SIZE))})")
    return Layout.load(LAYOUT_OF_SIZE[size])


def device_config(*, stills: bool = False, commit: str | None = None, rack_size: int = 7) -> TrackerConfig:
    """The one tracker configuration of the device, ``tilecam replay`` and ``tilecam bench moves``: fed by the
    capture loop, which has waited for the board to be still, so one reading is a settled board; ``stills``: one
    photo per turn (a clock-button rig), each looked at as it is. ``rack_size``: the rules' (9 in the nine-tile
    variant); ``commit``: ``settle``, or ``clock`` (tournament style; the default for stills)."""
    if stills:
        return TrackerConfig.for_stills(rack_size, commit=commit or "clock")
    return TrackerConfig(settle_readings=1, commit=commit or "settle", resolve=ResolvePolicy(rack_size=rack_size))


__all__ = ["COMMIT_POLICIES", "TrackerConfig", "TrackerStats", "board_layout", "device_config"]
