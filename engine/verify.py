r"""Verifying a GCG record: every recorded score and cumulative total against the ones the rules give.

A mismatch says why where it can: the word-by-word breakdown of a play, a blank the record scored at face value,
a total that does not add up in the record itself, or a difference carried from an earlier line.

>>> from tilecam.engine.gcg import read_gcg
>>> report = read_gcg("#player1 a A\n#player2 b B\n>a: QUANTXY 8D QUANT +50 50\n").verify()
>>> report.ok, str(report.mismatches[0])
(False, 'line 3: score recorded +50, computed +48: QUANT 48 = 48')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Board, Tile
from .errors import GcgReplayError
from .game import Event
from .gcg import GcgGame, _pair_events
from .move import Placement
from .rules import Rules
from .scoring import score


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One recorded number that differs from the recomputed one (``field`` ``"score"`` or ``"total"``), or a
    record the replay could not go past (``field`` ``"replay"``)."""

    line_no: int
    line: str
    field: str
    recorded: int | None
    computed: int | None
    reason: str

    def describe(self) -> str:
        """The mismatch without its line number."""
        if self.field == "replay":
            return f"cannot replay: {self.reason}"
        rec = f"{self.recorded:+d}" if self.field == "score" else str(self.recorded)
        com = f"{self.computed:+d}" if self.field == "score" else str(self.computed)
        return f"{self.field} recorded {rec}, computed {com}: {self.reason}"

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.describe()}"


@dataclass(slots=True)
class VerifyReport:
    events: int
    checked: int
    mismatches: list[Mismatch]
    final_scores: list[int]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _naturalised(placement: Placement) -> Placement:
    tiles = tuple(None if t is None else Tile(t.letter) for t in placement.tiles)
    return replace(placement, tiles=tiles)


def verify(gcg: GcgGame, rules: Rules | None = None) -> VerifyReport:
    """Replay ``gcg`` and compare every recorded score and cumulative total with the recomputed ones."""
    rules = rules or Rules()
    mismatches: list[Mismatch] = []
    checked = 0
    drift_from: dict[int, int] = {}  # player -> line where their totals began to differ
    recorded_before: dict[int, int] = {}  # player -> their recorded total so far

    def on_event(i: int, computed: list[Event], board_before: Board) -> None:
        nonlocal checked
        for j, new in _pair_events(gcg.events, i, computed):
            rec = gcg.events[j]
            line_no, line = gcg.event_lines[j]
            checked += 1
            if rec.score != new.score:
                reason = new.breakdown or _event_reason(new, rules)
                if rec.kind == "play":
                    alt = score(board_before, _naturalised(new.placement), rules).score
                    if alt == rec.score and alt != new.score:
                        reason = f"the record scores the blank as a natural tile (a blank scores 0); {reason}"
                mismatches.append(Mismatch(line_no, line, "score", rec.score, new.score, reason))
            before = recorded_before.get(rec.player, 0)
            recorded_before[rec.player] = rec.total
            if rec.total != new.total:
                first = drift_from.setdefault(rec.player, line_no)
                if before + rec.score != rec.total:
                    why = f"the record does not add up: {before} {rec.score:+d} is {before + rec.score}"
                elif rec.score != new.score:
                    why = "follows from the score difference"
                else:
                    why = f"carried from line {first}"
                mismatches.append(Mismatch(line_no, line, "total", rec.total, new.total, why))
            else:
                drift_from.pop(rec.player, None)

    try:
        game = gcg.replay(rules, on_event=on_event)
        final = game.scores
    except GcgReplayError as exc:
        mismatches.append(Mismatch(exc.line_no, "", "replay", None, None, exc.message))
        final = []
    return VerifyReport(len(gcg.events), checked, mismatches, final)


def _event_reason(new: Event, rules: Rules) -> str:
    if new.kind == "withdraw":
        return f"takes back a play the rules score {-new.score:+d}"
    if new.kind == "end_rack":
        factor = 2 if rules.end_scoring == "tournament" else 1
        return f"{'twice ' if factor == 2 else ''}the face value of {new.letters} ({rules.tiles.name} tiles)"
    if new.kind == "end_penalty":
        return f"minus the face value of {new.letters} ({rules.tiles.name} tiles)"
    if new.kind == "challenge_bonus":
        return f"the rules give {rules.challenge_points} points for a wrong challenge"
    return f"{new.kind} scores {new.score}"
