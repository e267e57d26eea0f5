"""``tilecam bench moves``: its game options. The runs here use the simulated reader (readings, no pixels: a game in
about a second); the rendered games through vision are the benchmark's own (docs/BENCHMARKS.md, Move inference)."""

from __future__ import annotations

import pytest

from tilecam.firmware import bench_moves

FAST = ["--games", "1", "--reader", "simulated", "--skip-real"]


def test_a_super_game_is_played_on_the_21x21_board_and_scored_there(shared_dir, capsys):
    """``--variant super``: a 15x15 record in the middle of the Super board, the tracker and the game at 21x21,
    every play found with the Super board's score."""
    assert bench_moves.main([*FAST, "--variant", "super"]) == 0
    out = capsys.readouterr().out
    assert "variant super, english-super tiles on super21" in out
    assert "| **all** | 545 | **20/20** | **0** | **1/1** |" in out, out


def test_the_classic_game_is_the_default_and_says_no_variant(shared_dir, capsys):
    assert bench_moves.main(FAST) == 0
    out = capsys.readouterr().out
    assert "variant" not in out and "| **all** |" in out
    assert "what the run said" not in out          # said only of a game with plays missed


@pytest.mark.parametrize("options, said", [
    (["--tiles", "polish"], "no record of ../shared/data/gcg replays with polish tiles on standard15"),
    (["--variant", "super", "--renderer", "photos"], "the photo compositor has only the classic board, not super21"),
    (["--renderer", "photos", "--camera", "steep"],
     "the photo compositor has only its photos' camera, not --camera steep"),
])
def test_what_cannot_be_measured_is_refused_with_the_reason(shared_dir, capsys, options, said):
    assert bench_moves.main([*FAST, *options]) == 2
    assert said in capsys.readouterr().err


def test_an_unknown_variant_is_refused_by_its_name(capsys):
    with pytest.raises(SystemExit) as exc:
        bench_moves.main([*FAST, "--variant", "chess"])
    assert exc.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err


def test_the_tracker_takes_the_variants_rack(shared_dir, monkeypatch):
    """Nine-tile racks: the tracker takes plays of up to nine tiles, as the device's (``daemon``) does."""
    from tilecam.firmware.pipeline import recording_settings
    from tilecam.vision.moves import tracker as tracker_module

    seen = []
    original = tracker_module.MoveTracker.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        seen.append(self.config.resolve.rack_size)

    monkeypatch.setattr(tracker_module.MoveTracker, "__init__", spy)
    chosen = recording_settings("nine-tile")
    path = bench_moves.synthetic_records(1, chosen[1])[0]
    counts, _, _ = bench_moves.run_synthetic(path, 4100, "simulated", None, None, game=chosen)
    assert seen == [9] and counts["plays_right"] == counts["plays"] > 0


def test_the_sides_told_are_counted_against_each_players_own():
    truth = [{"kind": "play", "player": 0, "position": "8H", "word": "CAT"},
             {"kind": "play", "player": 1, "position": "H9", "word": "OX"},
             {"kind": "play", "player": 0, "position": "10G", "word": "A."}]
    # CAT and A. from the bottom (0), OX told from the bottom too (its player's only play: its own side), the
    # amendment of CAT's first two tiles not told
    sides = [(((7, 7), (7, 8), (7, 9)), 0), (((8, 7), (9, 7)), 0), (((9, 6),), 0), (((7, 7), (7, 8)), None)]
    assert bench_moves.sides_told(truth, sides) == {"sides_own": 3, "sides_none": 1}
    sides[1] = (((8, 7), (9, 7)), 1)
    sides.append((((9, 6),), 1))                       # A. told from the top: not its player's own side
    assert bench_moves.sides_told(truth, sides) == {"sides_own": 3, "sides_other": 1, "sides_none": 1}
