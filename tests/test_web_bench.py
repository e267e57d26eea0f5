"""The web benchmark's parts that decide its figures: the GCG replay through the service and the percentiles."""

from __future__ import annotations

from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.web.bench import _percentile, format_table, replay_gcg


def test_replay_gcg_through_the_service_reaches_the_recorded_final_scores(tmp_path, shared_dir):
    text = (shared_dir / "data" / "gcg" / "liwords_omgwords_vs_josh.gcg").read_text()
    store = GameStore(tmp_path)
    service = GameService(store)
    commits = []
    n = replay_gcg(service, text, on_commit=lambda seq, t: commits.append(seq))
    state = service.state()
    assert n == len(commits) == 25 and commits == sorted(commits)
    assert [p["score"] for p in state["players"]] == [457, 397] and state["is_over"]
    store.close()


def test_percentile_and_table():
    assert _percentile([5.0, 1.0, 3.0], 50) == 3.0 and _percentile([1.0, 2.0], 99) == 2.0
    result = {"viewers": 2, "events": 3, "commands": 3, "delivered": 6, "expected": 6, "latency_ms_p50": 1.0,
              "latency_ms_p99": 2.0, "latency_ms_max": 2.5, "server_cpu_s": 0.1, "replay_s": 1.0,
              "server_cpu_share": 0.1, "server_peak_rss_mib": 40.0, "viewer_errors": [], "gzip": True,
              "wire_kib_per_viewer": 9.0, "page_weight": {"/": (1000, 100)}, "page_weight_total": 1000,
              "page_weight_total_gzip": 100}
    from pathlib import Path

    table = format_table(result, Path("x.gcg"), 0.1)
    assert "| 2 | 6 / 6 | 1.0 ms | 2.0 ms |" in table and "**1,000**" in table
