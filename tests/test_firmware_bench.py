"""``tilecam bench device`` runs end to end (tiny and short here; the figures come from the real command)."""

from __future__ import annotations

from tilecam.firmware import bench


def test_device_bench_produces_a_row_per_phase(capsys):
    assert bench.main(["--seconds", "0.3", "--width", "320", "--height", "240"]) == 0
    out = capsys.readouterr().out
    table = [line for line in out.splitlines() if line.startswith("| ")]
    assert len(table) >= 1 + 5 and "idle, Pi-like" in out and "throughput" in out
    idle = table[1].split("|")
    assert int(idle[5]) == 1          # a still board is read once, however long it is watched
