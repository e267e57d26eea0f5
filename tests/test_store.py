"""The SQLite game store: schema, durability settings, event seq, derived rows, threads, migrations."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from tilecam.core import store as store_mod
from tilecam.core.store import (
    FINISHED,
    GameSettings,
    GameStore,
    MoveRecord,
    SchemaTooNew,
    StoreError,
    UnknownGame,
)


@pytest.fixture()
def store(tmp_path):
    s = GameStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def test_new_store_has_current_schema_wal_and_full_sync(store):
    assert store.schema_version() == store_mod.SCHEMA_VERSION >= 1
    conn = store._conn()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "players", "settings", "moves", "events", "snapshots"} <= tables


def test_directory_path_gets_the_default_file_name(tmp_path):
    with GameStore(tmp_path) as s:
        assert s.path == tmp_path / store_mod.DB_FILENAME
        assert s.path.exists()
    with GameStore(tmp_path / "new-data") as s:                 # a folder still to be made
        assert s.path == tmp_path / "new-data" / store_mod.DB_FILENAME
    with GameStore(tmp_path / "games.db") as s:                 # a file name
        assert s.path == tmp_path / "games.db"


def test_create_game_stores_players_settings_and_a_first_event(store):
    settings = GameSettings(tileset="german", layout="super21", challenge_rule="points", challenge_points=10,
                            clock_seconds=1500)
    gid, ev = store.create_game(["Ann", "Bob"], settings, actor="web")
    g = store.game(gid)
    assert g.players == ("Ann", "Bob")
    assert g.settings == settings
    assert g.status == "active"
    assert ev.kind == "game_started" and ev.game_id == gid and ev.actor == "web"
    assert ev.payload["players"] == ["Ann", "Bob"]
    assert g.last_seq == ev.seq
    assert store.unfinished_game().id == gid


def test_seq_is_global_and_increasing_across_games(store):
    g1, e1 = store.create_game(["A", "B"])
    g2, e2 = store.create_game(["C", "D"])
    e3 = store.append_event(g1, "pass", {"player": 0}, "camera")
    e4 = store.append_event(g2, "pass", {"player": 0}, "camera")
    assert e1.seq < e2.seq < e3.seq < e4.seq
    assert [e.seq for e in store.events()] == [e1.seq, e2.seq, e3.seq, e4.seq]
    assert [e.seq for e in store.events(g1)] == [e1.seq, e3.seq]
    assert [e.seq for e in store.events(after_seq=e2.seq)] == [e3.seq, e4.seq]
    assert store.last_seq() == e4.seq


def test_payload_round_trips_unicode_json(store):
    gid, _ = store.create_game(["Jürgen", "Ödön"])
    ev = store.append_event(gid, "play", {"position": "8D", "word": "ÄRGER", "nested": {"x": [1, 2]}}, "camera")
    again = store.events(gid, after_seq=ev.seq - 1)[0]
    assert again == ev
    assert again.payload["word"] == "ÄRGER"


def test_derived_moves_replace_in_the_same_transaction(store):
    gid, _ = store.create_game(["A", "B"])
    m0 = MoveRecord(index=0, player=0, kind="play", position="8D", word="CAT",
                    words=({"word": "CAT", "score": 10, "breakdown": "C3 A1 T1 x2"},), score=10, cumulative=10)
    ev = store.append_event(gid, "play", {}, "camera", moves=[m0], snapshot=b"\xff\xd8jpeg", snapshot_move=0)
    got = store.moves(gid)
    assert got == [MoveRecord(**{**m0.to_dict(), "words": m0.words, "flags": (), "seq": ev.seq})]
    assert store.snapshot(gid, 0) == b"\xff\xd8jpeg"
    assert store.snapshot_at(ev.seq) == b"\xff\xd8jpeg"
    # A correction recomputes the list: the old row is replaced, not duplicated.
    m0b = MoveRecord(index=0, player=0, kind="play", position="8D", word="COT", score=12, cumulative=12,
                     flags=("corrected",))
    store.append_event(gid, "correct_tile", {}, "web", moves=[m0b])
    assert [(m.word, m.score, m.flags) for m in store.moves(gid)] == [("COT", 12, ("corrected",))]


def test_failed_transaction_stores_nothing(store):
    gid, _ = store.create_game(["A", "B"])
    before = store.last_seq()
    bad = MoveRecord(index=0, player=0, kind="play", words=({"not json": object()},))
    with pytest.raises(TypeError):
        store.append_event(gid, "play", {}, "camera", moves=[bad])
    assert store.last_seq() == before
    assert store.moves(gid) == []


def test_status_finished_stamps_time_and_leaves_no_unfinished_game(store):
    gid, _ = store.create_game(["A", "B"])
    store.append_event(gid, "end", {}, "web", status=FINISHED, now=1234.5)
    g = store.game(gid)
    assert g.status == "finished" and g.finished == 1234.5
    assert store.unfinished_game() is None


def test_bad_input_raises_specific_errors(store):
    with pytest.raises(StoreError, match="2 to 4 players"):
        store.create_game(["Solo"])
    with pytest.raises(StoreError, match="blank"):
        store.create_game(["A", " "])
    with pytest.raises(StoreError, match="challenge_rule"):
        GameSettings(challenge_rule="")
    with pytest.raises(StoreError, match="challenge_points"):
        GameSettings(challenge_points=-1)
    with pytest.raises(StoreError, match="clock_seconds"):
        GameSettings(clock_seconds=-5)
    with pytest.raises(UnknownGame):
        store.game(99)
    with pytest.raises(UnknownGame):
        store.append_event(99, "pass")
    gid, _ = store.create_game(["A", "B"])
    with pytest.raises(StoreError, match="status"):
        store.append_event(gid, "x", status="sleeping")


def test_reopening_keeps_everything(tmp_path):
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as s:
        gid, _ = s.create_game(["A", "B"])
        s.append_event(gid, "pass", {"player": 0}, "camera")
        seq = s.last_seq()
    with GameStore(path) as s:
        assert s.last_seq() == seq
        assert s.unfinished_game().id == gid
        assert [e.kind for e in s.events(gid)] == ["game_started", "pass"]


def test_many_threads_write_and_read_without_losing_or_repeating_a_seq(store):
    gid, _ = store.create_game(["A", "B"])
    errors: list[BaseException] = []
    seqs: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        try:
            for i in range(20):
                ev = store.append_event(gid, "note", {"writer": n, "i": i}, f"t{n}")
                with lock:
                    seqs.append(ev.seq)
                store.events(gid, after_seq=ev.seq - 1)
        except BaseException as exc:  # collected and re-raised in the test thread
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(seqs) == len(set(seqs)) == 120
    assert [e.seq for e in store.events(gid)][1:] == sorted(seqs)


def test_schema_newer_than_the_program_is_refused(tmp_path):
    path = tmp_path / "future.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {store_mod.SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaTooNew, match="upgrade tilecam"):
        GameStore(path)


def test_migrations_run_in_order_from_an_old_version(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite3"
    with GameStore(path) as s:
        gid, _ = s.create_game(["A", "B"])
    extra = "CREATE TABLE notes (game_id INTEGER, text TEXT)"
    monkeypatch.setattr(store_mod, "MIGRATIONS", [*store_mod.MIGRATIONS, extra])
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", len(store_mod.MIGRATIONS))
    with GameStore(path) as s:
        assert s.schema_version() == store_mod.SCHEMA_VERSION
        assert s.game(gid).players == ("A", "B")
        s._conn().execute("INSERT INTO notes VALUES (1, 'kept')")


def test_default_path_is_under_the_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store_mod.default_path() == tmp_path / "tilecam" / store_mod.DB_FILENAME


def test_ids_beyond_sqlite_integers_name_nothing(tmp_path):
    with GameStore(tmp_path) as store:
        with pytest.raises(UnknownGame):
            store.game(2**70)
        assert store.moves(2**70) == [] and store.events(2**70) == [] and store.events(after_seq=2**64) == []
        assert store.snapshot(1, 2**64) is None and store.snapshot_at(-2**64) is None
