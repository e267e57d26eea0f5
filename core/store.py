"""The durable game store: one SQLite file, event-sourced.

The ``events`` table is the truth. Every command that changes a game appends one event; each event gets a global,
monotonically increasing ``seq`` (the web's Server-Sent Events ``id:``). The other tables (``moves``, ``snapshots``,
the ``status`` of ``games``) are derived rows, written in the same transaction as the event that changed them, so a
reader never sees an event without its derived rows or the other way round.

Durability: WAL journal with ``synchronous=FULL``, so a ``COMMIT`` has reached the disk when :meth:`GameStore.append_event`
returns; the game service announces an event to listeners only after that. A process killed at any point loses at
most the command it was in the middle of, never a committed one.

Threads: each thread gets its own connection (a web server answers from many threads); writes within one process are
serialised by a lock, and ``BEGIN IMMEDIATE`` plus a busy timeout serialise them across processes.

The store knows nothing about Scrabble rules: it stores what the game service gives it. Replaying a game's events into
an engine ``Game`` is the service's job (:mod:`tilecam.core.service`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

DB_FILENAME = "tilecam.sqlite3"

# Game status values kept in games.status (derived from the events).
ACTIVE, PAUSED, FINISHED, ABANDONED = "active", "paused", "finished", "abandoned"
STATUSES = (ACTIVE, PAUSED, FINISHED, ABANDONED)
UNFINISHED = (ACTIVE, PAUSED)


class StoreError(ValueError):
    """The store cannot do what was asked (unknown game, bad value, a database newer than this program)."""


class UnknownGame(StoreError):
    """No game with that id in the store."""


class SchemaTooNew(StoreError):
    """The database was written by a newer tilecam (its schema version is higher than the one known here)."""


# --------------------------------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class GameSettings:
    """How a game is played; stored once per game in the ``settings`` table.

    ``variant`` names a rules preset of the engine (``tournament``, ``casual``, ``nine-tile``); ``challenge_rule``
    one of the engine's (``double``, ``single``, ``void``, ``points``). The store checks only that the values are
    well-formed; the game service checks them against the engine's rules when a game is created.
    ``clock_seconds`` is each player's total thinking time (None: no clock); ``overtime_penalty`` the points lost per
    started minute over it (the NASPA convention is 10). ``level`` and ``target`` are a Finish Line game's: the
    level of the engine's targets table, or the target score itself (None: the variant's default).
    """

    variant: str = "tournament"
    tileset: str = "english"
    layout: str = "standard15"
    lexicon: str = "enable1"
    challenge_rule: str = "double"
    challenge_points: int = 5
    clock_seconds: int | None = None
    overtime_penalty: int = 10
    level: str | None = None
    target: int | None = None

    def __post_init__(self) -> None:
        if self.level is not None and (not isinstance(self.level, str) or not self.level):
            raise StoreError(f"setting level must be a non-empty string or left out, got {self.level!r}")
        if self.target is not None and (isinstance(self.target, bool) or not isinstance(self.target, int)
                                        or self.target <= 0):
            raise StoreError(f"setting target must be a positive whole score or left out, got {self.target!r}")
        if self.clock_seconds is not None and (not isinstance(self.clock_seconds, int) or self.clock_seconds <= 0):
            raise StoreError(f"clock_seconds must be a positive whole number of seconds, got {self.clock_seconds!r}")
        for name in ("variant", "tileset", "layout", "lexicon", "challenge_rule"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise StoreError(f"setting {name} must be a non-empty string, got {value!r}")
        for name in ("challenge_points", "overtime_penalty"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise StoreError(f"setting {name} must be a whole number >= 0, got {value!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "GameSettings":
        """Build settings from a dict, ignoring keys this version does not know (a newer web form, say)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (data or {}).items() if k in known})


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One committed event. ``payload`` is whatever JSON the service stored for that ``kind``."""

    seq: int
    game_id: int
    kind: str
    payload: dict[str, Any]
    actor: str
    time: float

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "game_id": self.game_id, "kind": self.kind, "payload": self.payload,
                "actor": self.actor, "time": self.time}


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One row of the derived ``moves`` table: a turn as the scoreboard shows it.

    ``kind`` is ``play``, ``pass``, ``exchange``, ``challenge`` (a lost challenge / penalty), ``end`` (end-of-game
    adjustment) or ``time`` (overtime penalty). ``words`` is a list of ``{"word", "score", "breakdown"}`` dicts;
    ``flags`` names conditions such as ``phony``, ``withdrawn``, ``blank-pending``, ``corrected``.
    """

    index: int
    player: int
    kind: str
    position: str = ""
    word: str = ""
    words: tuple[dict[str, Any], ...] = ()
    score: int = 0
    cumulative: int = 0
    flags: tuple[str, ...] = ()
    seq: int = 0  # the event that made this move (0 when unknown)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["words"] = list(self.words)
        d["flags"] = list(self.flags)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "MoveRecord":
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in data.items() if k in known}
        d["words"] = tuple(d.get("words", ()))
        d["flags"] = tuple(d.get("flags", ()))
        return cls(**d)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's row plus its players and settings."""

    id: int
    status: str
    created: float
    finished: float | None
    players: tuple[str, ...]
    settings: GameSettings
    last_seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "created": self.created, "finished": self.finished,
                "players": list(self.players), "settings": self.settings.to_dict(), "last_seq": self.last_seq}


# --------------------------------------------------------------------------------------------------- schema

# MIGRATIONS[i] takes the schema from version i to version i + 1 (PRAGMA user_version). Append; never edit one that
# has shipped.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        status    TEXT NOT NULL DEFAULT 'active',
        created   REAL NOT NULL,
        finished  REAL
    );
    CREATE TABLE players (
        game_id   INTEGER NOT NULL REFERENCES games(id),
        seat      INTEGER NOT NULL,
        name      TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE settings (
        game_id         INTEGER PRIMARY KEY REFERENCES games(id),
        variant         TEXT NOT NULL,
        tileset         TEXT NOT NULL,
        lexicon         TEXT NOT NULL,
        challenge_rule  TEXT NOT NULL,
        clock_seconds   INTEGER,
        extra           TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE events (
        seq       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id   INTEGER NOT NULL REFERENCES games(id),
        kind      TEXT NOT NULL,
        payload   TEXT NOT NULL,
        actor     TEXT NOT NULL,
        time      REAL NOT NULL
    );
    CREATE INDEX events_game ON events (game_id, seq);
    CREATE TABLE moves (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        idx         INTEGER NOT NULL,
        player      INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        position    TEXT NOT NULL,
        word        TEXT NOT NULL,
        words       TEXT NOT NULL,
        score       INTEGER NOT NULL,
        cumulative  INTEGER NOT NULL,
        flags       TEXT NOT NULL,
        seq         INTEGER NOT NULL,
        PRIMARY KEY (game_id, idx)
    );
    CREATE TABLE snapshots (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        seq         INTEGER NOT NULL REFERENCES events(seq),
        move_idx    INTEGER,
        jpeg        BLOB NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """``<user data dir>/tilecam/tilecam.sqlite3`` (platformdirs), e.g. ``~/.local/share/tilecam`` on Linux."""
    import platformdirs

    return Path(platformdirs.user_data_dir("tilecam", appauthor=False)) / DB_FILENAME


#: The largest integer SQLite stores: an id, index or sequence number beyond it names nothing (and SQLite would
#: raise OverflowError on it).
SQLITE_MAX_INT = 2**63 - 1


def _fits(*numbers: int) -> bool:
    return all(-SQLITE_MAX_INT - 1 <= n <= SQLITE_MAX_INT for n in numbers)


# --------------------------------------------------------------------------------------------------- the store


class GameStore:
    """The SQLite game store. ``GameStore(path)``; ``path=None`` uses :func:`default_path`; a folder (an existing
    one, or a new name without a suffix such as ``data``) gets ``tilecam.sqlite3`` inside it. Safe to share between
    threads."""

    def __init__(self, path: str | Path | None = None, *, busy_timeout_s: float = 10.0) -> None:
        p = Path(path) if path is not None else default_path()
        if p.is_dir() or (not p.exists() and not p.suffix):
            p = p / DB_FILENAME  # a data folder (existing, or to be made: a name without a file suffix)
        p.parent.mkdir(parents=True, exist_ok=True)
        self.path = p
        self._busy_ms = int(busy_timeout_s * 1000)
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self._closed = False
        self._migrate()

    # -- connections

    def _conn(self) -> sqlite3.Connection:
        if self._closed:
            self._close_own()
            raise StoreError(f"the store {self.path} is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is exactly what we say.
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=self._busy_ms / 1000,
                                   check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {self._busy_ms}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close the store: a later call on it raises :class:`StoreError`. Each connection is closed by its own
        thread — this one's now, another's at its next call or when that thread ends — never from another thread:
        closing a connection while its thread is inside a query crashes the process (a web thread polling for
        events while the daemon shuts down)."""
        self._closed = True
        self._close_own()

    def _close_own(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            return
        self._local.conn = None
        conn.close()

    def __enter__(self) -> "GameStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE … COMMIT (durable on return), ROLLBACK on any error."""
        with self._write_lock:
            conn = self._conn()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _migrate(self) -> None:
        with self._write() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(f"{self.path} has schema version {version}; this tilecam knows up to "
                                   f"{SCHEMA_VERSION} — upgrade tilecam or point --data-dir elsewhere")
            for target in range(version, SCHEMA_VERSION):
                # executescript would COMMIT our transaction; run the statements one by one instead.
                for statement in _split_sql(MIGRATIONS[target]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target + 1}")

    def schema_version(self) -> int:
        return int(self._conn().execute("PRAGMA user_version").fetchone()[0])

    # -- writing

    def create_game(self, players: Sequence[str], settings: GameSettings | None = None, *, actor: str = "system",
                    now: float | None = None) -> tuple[int, StoredEvent]:
        """Create a game with its players and settings and its first event (``game_started``), in one transaction.

        Returns ``(game_id, event)``. Raises :class:`StoreError` for fewer than two or more than four players or a
        blank name.
        """
        names = [str(n).strip() for n in players]
        if not 2 <= len(names) <= 4:
            raise StoreError(f"a game needs 2 to 4 players, got {len(names)}")
        if any(not n for n in names):
            raise StoreError("a player's name cannot be blank")
        settings = settings or GameSettings()
        t = time.time() if now is None else now
        with self._write() as conn:
            game_id = conn.execute("INSERT INTO games (status, created) VALUES (?, ?)", (ACTIVE, t)).lastrowid
            conn.executemany("INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                             [(game_id, seat, name) for seat, name in enumerate(names)])
            conn.execute(
                "INSERT INTO settings (game_id, variant, tileset, lexicon, challenge_rule, clock_seconds, extra) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, settings.variant, settings.tileset, settings.lexicon, settings.challenge_rule,
                 settings.clock_seconds, json.dumps({"layout": settings.layout, "challenge_points": settings.challenge_points,
                            "overtime_penalty": settings.overtime_penalty, "level": settings.level,
                            "target": settings.target})))
            payload = {"players": names, "settings": settings.to_dict()}
            event = self._insert_event(conn, game_id, "game_started", payload, actor, t)
        return game_id, event

    def append_event(self, game_id: int, kind: str, payload: dict[str, Any] | None = None, actor: str = "system", *,
                     moves: Sequence[MoveRecord] | None = None, snapshot: bytes | None = None,
                     snapshot_move: int | None = None, status: str | None = None,
                     now: float | None = None) -> StoredEvent:
        """Append one event and its derived rows in one durable transaction; returns the stored event with its seq.

        ``moves`` (when given) replaces the game's whole derived move list (a correction can change an earlier
        move's score, so the service recomputes the list from the engine). ``snapshot`` is a JPEG of the settled frame,
        filed under this event (and ``snapshot_move``, the move index it shows). ``status`` changes the game's status
        (``finished`` also stamps the finishing time).
        """
        if not kind or not isinstance(kind, str):
            raise StoreError(f"an event needs a kind, got {kind!r}")
        if status is not None and status not in STATUSES:
            raise StoreError(f"status {status!r} is not one of {', '.join(STATUSES)}")
        t = time.time() if now is None else now
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise UnknownGame(f"no game {game_id} in {self.path}")
            event = self._insert_event(conn, game_id, kind, payload or {}, actor, t)
            if moves is not None:
                conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
                conn.executemany(
                    "INSERT INTO moves (game_id, idx, player, kind, position, word, words, score, cumulative, flags,"
                    " seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, m.index, m.player, m.kind, m.position, m.word, json.dumps(list(m.words)), m.score,
                      m.cumulative, json.dumps(list(m.flags)), m.seq or event.seq) for m in moves])
            if snapshot is not None:
                conn.execute("INSERT INTO snapshots (game_id, seq, move_idx, jpeg) VALUES (?, ?, ?, ?)",
                             (game_id, event.seq, snapshot_move, sqlite3.Binary(snapshot)))
            if status is not None:
                conn.execute("UPDATE games SET status = ?, finished = ? WHERE id = ?",
                             (status, t if status == FINISHED else None, game_id))
        return event

    @staticmethod
    def _insert_event(conn: sqlite3.Connection, game_id: int, kind: str, payload: dict[str, Any], actor: str,
                      t: float) -> StoredEvent:
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True)
        seq = conn.execute("INSERT INTO events (game_id, kind, payload, actor, time) VALUES (?, ?, ?, ?, ?)",
                           (game_id, kind, text, str(actor), t)).lastrowid
        return StoredEvent(seq, game_id, kind, json.loads(text), str(actor), t)

    # -- reading

    def last_seq(self) -> int:
        """The seq of the newest event in the store (0 when empty)."""
        row = self._conn().execute("SELECT MAX(seq) FROM events").fetchone()
        return int(row[0] or 0)

    def events(self, game_id: int | None = None, *, after_seq: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with ``seq > after_seq`` in seq order, of one game or of all games."""
        if not _fits(after_seq, 0 if game_id is None else game_id):
            return []
        sql = "SELECT * FROM events WHERE seq > ?"
        args: list[Any] = [after_seq]
        if game_id is not None:
            sql += " AND game_id = ?"
            args.append(game_id)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [_event(row) for row in self._conn().execute(sql, args)]

    def game(self, game_id: int) -> GameRecord:
        if not _fits(game_id):
            raise UnknownGame(f"no game {game_id} in {self.path}")
        conn = self._conn()
        row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id} in {self.path}")
        return self._game_record(conn, row)

    def games(self, status: str | Sequence[str] | None = None) -> list[GameRecord]:
        """All games, newest first; ``status`` filters (one status or several)."""
        conn = self._conn()
        if status is None:
            rows = conn.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        else:
            wanted = [status] if isinstance(status, str) else list(status)
            marks = ", ".join("?" * len(wanted))
            rows = conn.execute(f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id DESC", wanted).fetchall()
        return [self._game_record(conn, row) for row in rows]

    def unfinished_game(self) -> GameRecord | None:
        """The newest game that is active or paused (the one to resume on start), or None."""
        found = self.games(UNFINISHED)
        return found[0] if found else None

    def moves(self, game_id: int) -> list[MoveRecord]:
        if not _fits(game_id):
            return []
        rows = self._conn().execute("SELECT * FROM moves WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
        return [MoveRecord(index=r["idx"], player=r["player"], kind=r["kind"], position=r["position"], word=r["word"],
                           words=tuple(json.loads(r["words"])), score=r["score"], cumulative=r["cumulative"],
                           flags=tuple(json.loads(r["flags"])), seq=r["seq"]) for r in rows]

    def snapshot(self, game_id: int, move_index: int) -> bytes | None:
        """The newest JPEG stored for that move of that game, or None."""
        if not _fits(game_id, move_index):
            return None
        row = self._conn().execute(
            "SELECT jpeg FROM snapshots WHERE game_id = ? AND move_idx = ? ORDER BY seq DESC LIMIT 1",
            (game_id, move_index)).fetchone()
        return bytes(row[0]) if row else None

    def snapshot_at(self, seq: int) -> bytes | None:
        """The JPEG stored with event ``seq``, or None."""
        if not _fits(seq):
            return None
        row = self._conn().execute("SELECT jpeg FROM snapshots WHERE seq = ?", (seq,)).fetchone()
        return bytes(row[0]) if row else None

    def _game_record(self, conn: sqlite3.Connection, row: sqlite3.Row) -> GameRecord:
        gid = row["id"]
        names = tuple(r["name"] for r in conn.execute("SELECT name FROM players WHERE game_id = ? ORDER BY seat",
                                                      (gid,)))
        s = conn.execute("SELECT * FROM settings WHERE game_id = ?", (gid,)).fetchone()
        extra = json.loads(s["extra"]) if s else {}
        settings = GameSettings.from_dict({
            "variant": s["variant"], "tileset": s["tileset"], "lexicon": s["lexicon"],
            "challenge_rule": s["challenge_rule"], "clock_seconds": s["clock_seconds"], **extra,
        }) if s else GameSettings()
        last = conn.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (gid,)).fetchone()[0] or 0
        return GameRecord(id=gid, status=row["status"], created=row["created"], finished=row["finished"],
                          players=names, settings=settings, last_seq=int(last))


def _event(row: sqlite3.Row) -> StoredEvent:
    return StoredEvent(seq=row["seq"], game_id=row["game_id"], kind=row["kind"], payload=json.loads(row["payload"]),
                       actor=row["actor"], time=row["time"])


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (ours contain no semicolons inside strings or triggers)."""
    return [s.strip() for s in script.split(";") if s.strip()]
