"""The game service: commands → engine → store → notifications; refusals store nothing; replay is exact."""

from __future__ import annotations

import threading
import time

import pytest

from tilecam.core.service import CommandRefused, GameService, NoGame
from tilecam.core.store import GameSettings, GameStore


class FakeClock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t


@pytest.fixture()
def store(tmp_path):
    s = GameStore(tmp_path / "g.sqlite3")
    yield s
    s.close()


@pytest.fixture()
def svc(store):
    service = GameService(store)
    service.new_game(["Ann", "Ben"])
    return service


def comparable(state):
    """A state without the parts that depend on wall time or the live device."""
    return {k: v for k, v in state.items() if k not in ("clocks", "device")}


def test_play_scores_stores_and_reports_state(svc, store):
    ev = svc.play("8D QUANT", actor="camera", snapshot_jpeg=b"\xff\xd8one")
    assert ev.kind == "play" and ev.payload["score"] == 48 and ev.payload["player"] == 0
    svc.play(("D8", ".AT"), actor="camera")
    s = svc.state()
    assert [p["score"] for p in s["players"]] == [48, 12]
    assert s["turn"] == 0 and s["board"][7] == "...QUANT......." and len(s["board"]) == 15
    assert s["bag"] == 100 - 14 - 5 - 2 and s["unseen"]["Q"] == 0
    first, second = s["moves"]
    assert first["position"] == "8D" and first["word"] == "QUANT" and first["cumulative"] == 48
    assert first["words"] == [{"word": "QUANT", "score": 48, "breakdown": "Q10×2 + U1 + A1 + N1 + T1 = 24; ×2 = 48"}]
    assert second["player"] == 1 and second["position"] == "D8" and second["words"][0]["word"] == "QAT"
    assert s["last_move"]["squares"] == [[8, 3], [9, 3]]
    assert s["seq"] == store.last_seq()
    # Derived rows in the store match, with the snapshot filed under the move it shows.
    assert [(m.word, m.score, m.cumulative) for m in store.moves(s["game_id"])] == [("QUANT", 48, 48), (".AT", 12, 12)]
    assert store.snapshot(s["game_id"], 0) == b"\xff\xd8one"


def test_refused_commands_store_nothing(svc, store):
    svc.play("8G CAT", actor="camera")
    before = store.last_seq()
    with pytest.raises(CommandRefused, match="turn"):
        svc.play("D8 .AT", actor="web", player=0)           # not Ann's turn
    with pytest.raises(CommandRefused):
        svc.play("1A ZOO", actor="camera")                   # not connected to anything
    with pytest.raises(CommandRefused):
        svc.play("8Q CAT", actor="camera")                   # not a coordinate
    with pytest.raises(CommandRefused, match="blank"):
        svc.set_blank(7, 6, "x", actor="web")                # C is not a blank
    with pytest.raises(CommandRefused, match="no tile"):
        svc.correct_tile(0, 0, "A", actor="web")
    with pytest.raises(CommandRefused, match="lexicon"):
        svc.challenge(actor="web")                           # no lexicon and no verdict
    assert store.last_seq() == before
    assert svc.state()["players"][0]["score"] == 10


def test_no_game_is_a_typed_refusal(store):
    svc = GameService(store)
    assert svc.resume() is None
    with pytest.raises(NoGame):
        svc.pass_turn(actor="button")
    assert svc.state()["game_id"] is None


def test_bad_settings_are_refused(store):
    svc = GameService(store)
    with pytest.raises(CommandRefused, match="variant"):
        svc.new_game(["A", "B"], {"variant": "speed"})
    with pytest.raises(CommandRefused, match="challenge"):
        svc.new_game(["A", "B"], {"challenge_rule": "maybe"})
    with pytest.raises(CommandRefused):
        svc.new_game(["A", "B"], {"tileset": "klingon"})
    with pytest.raises(CommandRefused, match="players"):
        svc.new_game(["A"])
    assert store.last_seq() == 0


def test_resume_replays_to_the_same_state(svc, store):
    svc.play("8D QUANT", actor="camera")
    svc.pass_turn(actor="button")
    svc.play("D8 .AT", actor="camera", player=0)
    svc.challenge(actor="web", valid=True)                   # double challenge: Ben loses his turn
    svc.play("H8 .O", actor="camera")
    expected = comparable(svc.state())
    again = GameService(store)
    assert again.resume() == expected["game_id"]
    assert comparable(again.state()) == expected


def test_undo_takes_back_the_last_action(svc):
    svc.play("8D QUANT", actor="camera")
    svc.pass_turn(actor="button")
    svc.undo(actor="button")
    s = svc.state()
    assert s["turn"] == 1 and [m["kind"] for m in s["moves"]] == ["play"]
    svc.undo(actor="button")
    assert svc.state()["board"][7] == "." * 15
    with pytest.raises(CommandRefused, match="nothing to undo"):
        svc.undo(actor="button")


def test_unknown_blank_is_a_pending_question_until_named(svc):
    svc.play("8G C?T", actor="camera")
    s = svc.state()
    assert s["pending"][0]["kind"] == "blank" and s["pending"][0]["square"] == "8H"
    assert "blank-pending" in s["moves"][0]["flags"]
    svc.set_blank(7, 7, "A", actor="web")
    s = svc.state()
    assert s["pending"] == [] and s["moves"][0]["word"] == "CaT" and s["board"][7][6:9] == "CaT"
    assert s["players"][0]["score"] == 8                      # C3 + a0 + T1 = 4, doubled on the star
    with pytest.raises(CommandRefused, match="one letter"):
        svc.set_blank(7, 7, "ab", actor="web")


def test_correcting_a_misread_tile_rescores_that_play_and_later_ones(svc):
    svc.play("8G COT", actor="camera")                        # the camera read an A as an O
    svc.play("G8 .AT", actor="camera")                        # COT's C down: CAT
    svc.correct_tile(7, 7, "A", actor="web")
    s = svc.state()
    assert s["board"][7][6:9] == "CAT"
    assert [m["word"] for m in s["moves"]] == ["CAT", ".AT"]
    assert "corrected" in s["moves"][0]["flags"] and "corrected" not in s["moves"][1]["flags"]
    # A correction of the down word's tile changes the later play's score.
    svc.correct_tile(8, 6, "Z", actor="web")
    assert svc.state()["moves"][1]["word"] == ".ZT"
    assert svc.state()["players"][1]["score"] == 3 + 10 * 2 + 1  # Z on a double letter


def test_a_tile_a_play_never_put_down_is_taken_out_and_the_scores_follow(svc, store):
    """A bare square read as a tile when its play was committed (a blank on a white square): the play loses it."""
    svc.play("8G CAT", actor="camera")
    svc.play("I7 ?.ED", actor="camera")                      # Ben's TED, a phantom blank on I7 above the T
    with pytest.raises(CommandRefused, match="inside the word"):
        svc.remove_tile(8, 8, actor="camera")                # E of ?.ED: would split the play
    with pytest.raises(CommandRefused, match="no tile"):
        svc.remove_tile(3, 3, actor="camera")
    svc.correct_tile(6, 8, ".", actor="web")                   # as the control page says it: "." = no tile
    s = svc.state()
    assert [(m["position"], m["word"]) for m in s["moves"]] == [("8G", "CAT"), ("I8", ".ED")]
    assert s["board"][6] == "." * 15 and s["players"][1]["score"] == 1 + 1 * 2 + 2     # T, E on a double letter, D
    assert "corrected" in s["moves"][1]["flags"]
    again = GameService(store)                                 # a restart replays the correction from the events
    again.resume()
    assert again.state()["board"] == s["board"]
    svc.play("10I .S", actor="camera")                         # one tile beside the D
    with pytest.raises(CommandRefused, match="no tile of the play would be left"):
        svc.remove_tile(9, 9, actor="camera")


def test_challenge_with_a_lexicon_withdraws_a_phony(store):
    svc = GameService(store, lexicon={"CAT", "AT", "TA"})
    svc.new_game(["Ann", "Ben"])
    svc.play("8G CAX", actor="camera")
    assert "phony" in svc.state()["moves"][0]["flags"]
    svc.challenge(actor="web")
    s = svc.state()
    assert s["players"][0]["score"] == 0 and s["board"][7] == "." * 15 and s["turn"] == 1
    assert [m["kind"] for m in s["moves"]] == ["play", "withdraw"]
    assert "withdrawn" in s["moves"][0]["flags"]
    svc.play("8G CAT", actor="camera")
    svc.challenge(actor="web")                                # a good play: Ann loses her turn (double)
    s = svc.state()
    assert s["moves"][-1]["kind"] == "lose_turn" and s["turn"] == 1


def test_end_game_finishes_in_the_store_and_undo_reopens(svc, store):
    svc.play("8D QUANT", actor="camera")
    ev = svc.end_game({0: "EE", 1: "ZAX"}, actor="web")
    s = svc.state()
    assert s["is_over"] and s["turn"] is None and s["status"] == "finished"
    assert ev.payload["scores"] == [p["score"] for p in s["players"]] == [48 - 2, -(10 + 1 + 8)]  # nobody went out
    assert store.game(s["game_id"]).status == "finished" and store.unfinished_game() is None
    with pytest.raises(CommandRefused, match="over"):
        svc.pass_turn(actor="button")
    svc.undo(actor="web")
    assert not svc.state()["is_over"] and store.game(s["game_id"]).status == "active"


def test_new_game_abandons_the_unfinished_one(svc, store):
    first = svc.game_id
    second = svc.new_game(["C", "D", "E"])
    assert store.game(first).status == "abandoned"
    assert store.unfinished_game().id == second and svc.state()["players"][2]["name"] == "E"


def test_clocks_run_for_the_player_to_move_pause_and_penalise_overtime(store):
    clock = FakeClock()
    svc = GameService(store, now=clock)
    svc.new_game(["Ann", "Ben"], GameSettings(clock_seconds=60, overtime_penalty=10))
    clock.t += 30
    svc.play("8G CAT", actor="camera")
    clock.t += 50
    svc.pause(actor="web")
    clock.t += 1000                                            # paused: nobody's clock runs
    with pytest.raises(CommandRefused, match="already paused"):
        svc.pause(actor="web")
    svc.pause(actor="web", paused=False)
    clock.t += 75                                              # Ben: 50 + 75 = 125 s, 65 s over → 2 minutes
    c = svc.state()["clocks"]
    assert c["used"] == [30.0, 125.0] and c["remaining"] == [30.0, -65.0] and c["running"] == 1
    svc.end_game({0: "", 1: ""}, actor="web")
    s = svc.state()
    assert s["players"][1]["score"] == -20
    assert [(m["kind"], m["player"], m["score"]) for m in s["moves"] if m["kind"] == "time_penalty"] == [
        ("time_penalty", 1, -20)]
    # Resuming from the store gives the same clocks (they are derived from event times).
    again = GameService(store, now=clock)
    again.load(s["game_id"])
    assert again.state()["clocks"] == svc.state()["clocks"]


def test_wait_for_event_wakes_within_milliseconds_of_a_commit(svc, store):
    after = store.last_seq()
    woke: list[tuple[float, list]] = []

    def listener():
        events = svc.wait_for_event(after, timeout=5)
        woke.append((time.monotonic(), events))

    t = threading.Thread(target=listener)
    t.start()
    time.sleep(0.1)
    sent = time.monotonic()
    ev = svc.play("8G CAT", actor="camera")
    t.join(5)
    at, events = woke[0]
    assert [e.seq for e in events] == [ev.seq]
    assert at - sent < 0.2
    assert svc.wait_for_event(ev.seq, timeout=0.05) == []


def test_a_second_service_on_the_same_store_sees_the_first_ones_commits(svc, store):
    web = GameService(store, poll_interval_s=0.02)            # the web server in another process, say
    web.resume()
    after = store.last_seq()
    svc.play("8G CAT", actor="camera")
    assert [e.kind for e in web.wait_for_event(after, timeout=1)] == ["play"]
    assert web.state()["players"][0]["score"] == 10
    web.pass_turn(actor="web")                                # …and the daemon's service sees the web's pass
    assert svc.state()["turn"] == 0


def test_exchange_and_pass(svc):
    svc.exchange(3, actor="button")
    svc.exchange("QZ", actor="button")
    svc.pass_turn(actor="button")
    s = svc.state()
    assert [m["kind"] for m in s["moves"]] == ["exchange", "exchange", "pass"]
    with pytest.raises(CommandRefused, match="count or the letters"):
        svc.exchange(2.5, actor="button")


def test_a_woken_listener_finds_the_event_already_on_disk(svc, store, tmp_path):
    after = store.last_seq()
    seen: list[list[str]] = []

    def listener():
        events = svc.wait_for_event(after, timeout=5)
        with GameStore(store.path) as other:                 # a fresh connection, as another process would have
            seen.append([e.kind for e in other.events(after_seq=after)])
        seen.append([e.kind for e in events])

    t = threading.Thread(target=listener)
    t.start()
    time.sleep(0.05)
    svc.play("8G CAT", actor="camera")
    t.join(5)
    assert seen == [["play"], ["play"]]


def test_commands_and_reads_from_many_threads_keep_one_consistent_game(svc, store):
    errors: list[BaseException] = []
    done = threading.Event()

    def reader():
        try:
            while not done.is_set():
                s = svc.state()
                assert sum(p["score"] for p in s["players"]) == sum(
                    m["score"] for m in s["moves"]), "scores and move list out of step"
        except BaseException as exc:  # re-raised in the test thread
            errors.append(exc)

    readers = [threading.Thread(target=reader) for _ in range(4)]
    for t in readers:
        t.start()
    refused = 0
    writers = []

    def writer(n):
        nonlocal refused
        for _ in range(5):
            try:
                svc.pass_turn(actor=f"w{n}")
            except CommandRefused:
                refused += 1

    for n in range(3):
        writers.append(threading.Thread(target=writer, args=(n,)))
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    done.set()
    for t in readers:
        t.join()
    assert not errors
    moves = svc.state()["moves"]
    # Six scoreless turns end a tournament game: the rest are refused, and nothing else is lost or doubled.
    assert len(moves) + refused == 15 and len(moves) == 6
    assert [m["player"] for m in moves] == [0, 1, 0, 1, 0, 1]
    assert len(store.events(svc.game_id)) == 1 + len(moves)


def test_the_camera_can_withdraw_the_last_play(svc):
    svc.play("8G CAT", actor="camera")
    svc.withdraw(actor="camera")
    s = svc.state()
    assert s["board"][7] == "." * 15 and s["players"][0]["score"] == 0 and s["turn"] == 1
    with pytest.raises(CommandRefused, match="no play"):
        svc.withdraw(actor="camera")


def test_a_service_without_a_game_takes_up_one_started_by_another_process(store):
    web = GameService(store)
    assert web.resume() is None and web.state()["game_id"] is None
    daemon = GameService(store)
    first = daemon.new_game(["Ann", "Ben"])
    assert web.state()["game_id"] == first
    second = web.new_game(["Cy", "Di"])                     # a new game from the web page
    daemon.play("8G CAT", actor="camera")                   # the daemon's next move goes to the new game
    assert daemon.game_id == second and web.state()["moves"][0]["word"] == "CAT"


def test_gcg_style_letters_over_existing_tiles_are_played_through(svc):
    svc.play("8G CAT", actor="web")
    ev = svc.play("G8 COAT", actor="web")                   # C written out, as GCG files do
    assert ev.payload["word"] == ".OAT"


def test_a_real_game_replayed_through_the_service_matches_its_record(store, shared_dir):
    from tilecam.engine.gcg import read_gcg

    record = read_gcg((shared_dir / "data" / "gcg" / "liwords_omgwords_vs_josh.gcg").read_text())
    svc = GameService(store)
    svc.new_game(["Cesar", "Josh"])
    checked = 0
    for e in record.events:
        if e.kind == "play":
            svc.play((e.position, e.word), actor="test")
        elif e.kind == "pass":
            svc.pass_turn(actor="test")
        elif e.kind == "exchange":
            svc.exchange(e.letters or e.count, actor="test")
        elif e.kind == "withdraw":
            svc.withdraw(actor="test")
        else:
            continue
        last = svc.state()["moves"][-1]
        assert (last["kind"], last["player"], last["score"], last["cumulative"]) == (e.kind, e.player, e.score,
                                                                                    e.total)
        checked += 1
    assert checked >= 20
    again = GameService(store)
    again.resume()
    assert comparable(again.state()) == comparable(svc.state())


def test_a_play_the_camera_calls_phony_is_flagged_without_a_lexicon_until_corrected(svc, store):
    """The tracker's lexicon said the word is not one (the model read it clearly): the stored move says so."""
    svc.play("8G COT", actor="camera", phony=["cot"])           # svc has no lexicon of its own
    svc.play("G8 .AT", actor="camera")
    moves = svc.state()["moves"]
    assert moves[0]["flags"] == ["phony"] and "phony" not in moves[1]["flags"]
    assert store.events(1)[-2].payload["phony"] == ["COT"]
    assert store.moves(1)[0].flags == ("phony",)               # the stored move list the web reads
    again = GameService(store)                                  # a restart replays it from the events
    again.resume()
    assert again.state()["moves"][0]["flags"] == ["phony"]
    svc.correct_tile(7, 7, "A", actor="web")                    # the players put it right: no more "phony?"
    assert "phony" not in svc.state()["moves"][0]["flags"]


def test_the_camera_amends_a_play_it_read_short_for_the_same_player(svc, store):
    svc.play("8G CAT", actor="camera")
    svc.play("G8 .O", actor="camera")                       # Ben's COT, its T read as an empty square
    ev = svc.amend_last_play("G8 .OT", actor="camera")
    s = svc.state()
    assert ev.payload["player"] == 1 and ev.payload["word"] == ".OT" and s["turn"] == 0
    assert [(m["player"], m["word"]) for m in s["moves"]] == [(0, "CAT"), (1, ".OT")]
    again = GameService(store)                                # the undo + play replay to the same game
    again.resume()
    assert comparable(again.state()) == comparable(s)
    svc.pass_turn(actor="button")
    with pytest.raises(CommandRefused, match="not a play"):
        svc.amend_last_play("G8 .OTE", actor="camera")


def test_an_amendment_the_game_refuses_stores_nothing(svc, store):
    svc.play("8G CAT", actor="camera")
    svc.play("G8 .O", actor="camera")
    before = store.last_seq()
    with pytest.raises(CommandRefused):
        svc.amend_last_play("G8 .OX.", actor="camera")       # a gap: not a legal placement
    assert store.last_seq() == before and [m["word"] for m in svc.state()["moves"]] == ["CAT", ".O"]
