"""Tournament persistence: the game in progress and the player's records.

The tables live in the cabinet's SQLite file (the ledger's, ``var/uth.db``) but are the
tournament's own -- the ledger never reads them and this module never touches the
ledger's.  Tournament chips are points: nothing here is money, nothing here moves a
meter.  The connection uses WAL and ``synchronous=FULL``, like the ledger, so a commit
is on disk when it returns: after a power cut the game resumes at the last action.

Tables
------
``tournament_meta``   schema version.
``tournament_save``   at most one row: the game in progress (``Tournament.to_dict()``
                      without its hand log, the hand being played with its deck), the
                      session's own state (human seat, AI speed, play time...), a
                      sequence number bumped by every save.
``tournament_hands``  the finished hands of the saved game (public history, one row per
                      hand, appended as hands finish), so a save writes only what changed;
                      and the hands of the latest :data:`KEEP_HAND_GAMES` finished games.
``tournament_kept``   one row per finished game whose hands are kept (for export): its
                      table setup (``config``), the local player's seat and own cards.
``tournament_games``  one row per finished game (the Records screen): the player's name
                      (records belong to it), place, hands played and won, biggest pot,
                      best hand, VPIP hands, play time, the table and the computer
                      players' strengths.  The latest :data:`KEEP_GAMES` are kept.

Every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``): a save replaces the
state row and appends the new hands together; finishing a game records it, keeps its
hands (pruning the oldest kept game's) and deletes the save together, so a game is never both lost and recorded, or recorded twice (rows are
keyed by the game's id).

The store only opens an existing database file (the ledger creates it): a missing file is
:class:`TournamentStoreError`, never silently a new database beside a lost ledger.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.holdem.stats import GameSummary, PlayerRecords
from kiosk.ledger.sqlite import WalModeError, close, connect, immediate

SCHEMA_VERSION = 3
#: Finished games kept on the cabinet (seed 000: "This device keeps your latest 60 games").
KEEP_GAMES = 60
#: Finished games whose every hand is kept for export; the oldest beyond this are pruned.
KEEP_HAND_GAMES = 20

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_save (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    game_id  TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    saved_at TEXT NOT NULL,
    state    TEXT NOT NULL,
    session  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_hands (
    game_id TEXT NOT NULL,
    hand    INTEGER NOT NULL,
    record  TEXT NOT NULL,
    PRIMARY KEY (game_id, hand)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      TEXT NOT NULL UNIQUE,
    finished_at  TEXT NOT NULL,
    table_key    TEXT NOT NULL,
    players      INTEGER NOT NULL,
    place        INTEGER NOT NULL,
    hands_played INTEGER NOT NULL,
    hands_won    INTEGER NOT NULL,
    vpip_hands   INTEGER NOT NULL,
    biggest_pot  INTEGER NOT NULL,
    best_hand    INTEGER,
    ai_strengths TEXT NOT NULL,
    duration_s   REAL NOT NULL,
    online       INTEGER NOT NULL,
    summary      TEXT NOT NULL,
    player       TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS tournament_kept (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id  TEXT NOT NULL UNIQUE,
    player   TEXT NOT NULL,
    config   TEXT NOT NULL,
    my_seat  INTEGER,
    my_holes TEXT NOT NULL
);
"""
#: Hands that belong to no game: neither the saved one nor a kept finished one.
_DROP_LOOSE_HANDS = (
    "DELETE FROM tournament_hands WHERE game_id NOT IN (SELECT game_id FROM tournament_kept) "
    "AND game_id NOT IN (SELECT game_id FROM tournament_save)"
)
#: Schema 1 -> 2: the player's name on every recorded game.
_ADD_PLAYER = "ALTER TABLE tournament_games ADD COLUMN player TEXT NOT NULL DEFAULT ''"


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A finished game whose hands are kept: its id, the local player's name and how many
    hands it has."""

    game_id: str
    player: str
    hands: int


class TournamentStoreError(Exception):
    """The tournament tables cannot be used; ``reason`` says why (for logs, in English)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _stamp(moment: float | None = None) -> str:
    t = datetime.fromtimestamp(time.time() if moment is None else moment, UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


class TournamentStore:
    """The tournament's tables in one SQLite file.  Not thread-safe: one owner (the UI loop)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._hands_saved: dict[str, int] = {}  # game id -> hands already in tournament_hands
        self.saves = 0  # saves made through this object (tests, benchmark)

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path, *, create: bool = False) -> TournamentStore:
        """Open the tournament tables in the SQLite file ``path`` (creating the tables).

        The file must exist unless ``create`` (tests, a cabinet-less tool)."""
        path = Path(path)
        if not create and not path.exists():
            raise TournamentStoreError(f"{path} does not exist (the ledger creates it)")
        try:
            conn = connect(path, "rwc" if create else "rw")
        except WalModeError as exc:
            raise TournamentStoreError(exc.reason) from None
        except sqlite3.Error as exc:
            raise TournamentStoreError(f"{path}: {exc}") from None
        store = cls(conn, path)
        try:
            store._create_tables()
        except (sqlite3.DatabaseError, TournamentStoreError) as exc:
            conn.close()
            if isinstance(exc, TournamentStoreError):
                raise
            raise TournamentStoreError(f"{path}: {exc}") from None
        return store

    def _create_tables(self) -> None:
        """Create the tournament tables if missing and record or check their schema version."""
        with self._transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            row = self.conn.execute(
                "SELECT value FROM tournament_meta WHERE key = 'schema'"
            ).fetchone()
            if row is not None and int(row[0]) > SCHEMA_VERSION:
                raise TournamentStoreError(
                    f"{self.path}: tournament tables are schema {row[0]}, newer than this "
                    f"program's {SCHEMA_VERSION}"
                )
            columns = {r[1] for r in self.conn.execute("PRAGMA table_info(tournament_games)")}
            if "player" not in columns:
                self.conn.execute(_ADD_PLAYER)
            self.conn.execute(
                "INSERT OR REPLACE INTO tournament_meta (key, value) VALUES ('schema', ?)",
                (str(SCHEMA_VERSION),),
            )

    def close(self) -> None:
        close(self.conn)

    def _transaction(self) -> AbstractContextManager[None]:
        """One write transaction (:func:`kiosk.ledger.sqlite.immediate`)."""
        return immediate(self.conn)

    # -- the game in progress -----------------------------------------------------------
    def save(self, game_id: str, state: dict[str, Any], session: dict[str, Any]) -> int:
        """Save the game in progress (one transaction); returns the save's sequence number.

        ``state`` is :meth:`engine.holdem.tournament.Tournament.to_dict`; its ``hand_log`` is
        stored a hand per row, only the hands not stored yet being written."""
        state = dict(state)
        log: list[dict[str, Any]] = state.pop("hand_log", [])
        try:
            with self._transaction():
                row = self.conn.execute("SELECT game_id, seq FROM tournament_save WHERE id = 1").fetchone()
                if row is not None and row[0] != game_id:  # a new game replaces the old one
                    self.conn.execute("DELETE FROM tournament_hands WHERE game_id = ? AND game_id NOT IN "
                                      "(SELECT game_id FROM tournament_kept)", (row[0],))
                    self._hands_saved.pop(row[0], None)
                seq = (row[1] + 1) if row is not None and row[0] == game_id else 1
                have = self._hands_saved.get(game_id)
                if have is None:
                    have = self.conn.execute("SELECT COUNT(*) FROM tournament_hands WHERE game_id = ?",
                                             (game_id,)).fetchone()[0]
                if have > len(log):  # cannot happen in play; keep the rows consistent anyway
                    self.conn.execute("DELETE FROM tournament_hands WHERE game_id = ?", (game_id,))
                    have = 0
                self.conn.executemany(
                    "INSERT INTO tournament_hands (game_id, hand, record) VALUES (?, ?, ?)",
                    [(game_id, i, _dumps(entry)) for i, entry in enumerate(log[have:], start=have)])
                self.conn.execute(
                    "INSERT OR REPLACE INTO tournament_save (id, game_id, seq, saved_at, state, session) "
                    "VALUES (1, ?, ?, ?, ?, ?)",
                    (game_id, seq, _stamp(), _dumps(state), _dumps(session)))
        except sqlite3.Error as exc:
            self._hands_saved.pop(game_id, None)
            raise TournamentStoreError(f"saving the tournament failed: {exc}") from None
        self._hands_saved[game_id] = len(log)
        self.saves += 1
        return seq

    def load(self) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
        """The saved game: ``(game_id, tournament state, session state)``, or ``None``."""
        try:
            row = self.conn.execute("SELECT game_id, state, session FROM tournament_save WHERE id = 1").fetchone()
            if row is None:
                return None
            game_id = row[0]
            state = json.loads(row[1])
            hands = [json.loads(r[0]) for r in self.conn.execute(
                "SELECT record FROM tournament_hands WHERE game_id = ? ORDER BY hand", (game_id,))]
        except (sqlite3.Error, ValueError) as exc:
            raise TournamentStoreError(f"reading the saved tournament failed: {exc}") from None
        state["hand_log"] = hands
        self._hands_saved[game_id] = len(hands)
        return game_id, state, json.loads(row[2])

    def has_saved_game(self) -> bool:
        try:
            return self.conn.execute("SELECT 1 FROM tournament_save WHERE id = 1").fetchone() is not None
        except sqlite3.Error:
            return False

    def saved_summary(self) -> dict[str, Any] | None:
        """A little about the saved game for the title screen: hand number, players,
        players left, and whose game it is (``name``, ``icon`` of the local player's seat)."""
        loaded = self.load()
        if loaded is None:
            return None
        _gid, state, session = loaded
        seats = state.get("config", {}).get("seats", [])
        human = int(session.get("human_seat", 0))
        mine = seats[human] if 0 <= human < len(seats) else {}
        return {"hand": state.get("hand_number", 0),
                "players": len(seats),
                "left": sum(1 for s in state.get("stacks", []) if s > 0),
                "name": str(mine.get("name", "")), "icon": mine.get("icon")}

    def discard(self) -> None:
        """Abandon the saved game: deleted, not recorded."""
        with self._transaction():
            self.conn.execute("DELETE FROM tournament_save")
            self.conn.execute(_DROP_LOOSE_HANDS)
        self._hands_saved.clear()

    # -- records ----------------------------------------------------------------------------
    def finish(self, game_id: str, summary: GameSummary, *, player: str = "",
               state: dict[str, Any] | None = None, session: dict[str, Any] | None = None) -> bool:
        """Record a finished game of ``player`` (the local player's name), keep its hands
        and delete its save, together.  False if it was recorded already (a second call
        after a power cut is harmless).

        ``state`` and ``session`` are the game's last :meth:`save` arguments; without them
        the saved game's are used.  The hands of the latest :data:`KEEP_HAND_GAMES`
        finished games are kept."""
        d = asdict(summary)
        with self._transaction():
            self._keep_hands(game_id, player, state, session)
            if self.conn.execute("SELECT 1 FROM tournament_games WHERE game_id = ?", (game_id,)).fetchone():
                added = False
            else:
                self.conn.execute(
                    "INSERT INTO tournament_games (game_id, finished_at, table_key, players, place, hands_played, "
                    "hands_won, vpip_hands, biggest_pot, best_hand, ai_strengths, duration_s, online, summary, "
                    "player) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, _stamp(summary.finished_at or None), summary.table, summary.players, summary.place,
                     summary.hands_played, summary.hands_won, summary.vpip_hands, summary.biggest_pot,
                     summary.best_hand, _dumps(list(summary.ai_strengths)), float(summary.duration_s),
                     int(summary.online), _dumps(d), player))
                added = True
            self.conn.execute(
                "DELETE FROM tournament_games WHERE id NOT IN "
                "(SELECT id FROM tournament_games ORDER BY id DESC LIMIT ?)", (KEEP_GAMES,))
            self.conn.execute("DELETE FROM tournament_save WHERE game_id = ?", (game_id,))
            self.conn.execute(
                "DELETE FROM tournament_kept WHERE id NOT IN "
                "(SELECT id FROM tournament_kept ORDER BY id DESC LIMIT ?)", (KEEP_HAND_GAMES,))
            self.conn.execute(_DROP_LOOSE_HANDS)
        self._hands_saved.pop(game_id, None)
        return added

    def _keep_hands(self, game_id: str, player: str, state: dict[str, Any] | None,
                    session: dict[str, Any] | None) -> None:
        """Inside :meth:`finish`'s transaction: keep the game's setup and every hand."""
        if state is None:
            row = self.conn.execute("SELECT state, session FROM tournament_save WHERE game_id = ?",
                                    (game_id,)).fetchone()
            if row is None:
                return
            state, session = json.loads(row[0]), json.loads(row[1])
        log = state.get("hand_log")
        if log is not None:
            self.conn.executemany(
                "INSERT OR IGNORE INTO tournament_hands (game_id, hand, record) VALUES (?, ?, ?)",
                [(game_id, i, _dumps(entry)) for i, entry in enumerate(log)])
        session = session or {}
        seat = session.get("human_seat")
        self.conn.execute(
            "INSERT OR IGNORE INTO tournament_kept (game_id, player, config, my_seat, my_holes) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, player, _dumps(state.get("config", {})), None if seat is None else int(seat),
             _dumps(session.get("my_holes", {}))))

    def kept_games(self, player: str | None = None) -> list[KeptGame]:
        """The finished games whose hands are kept, newest first; only ``player``'s when given."""
        sql = ("SELECT k.game_id, k.player, (SELECT COUNT(*) FROM tournament_hands h WHERE h.game_id = k.game_id) "
               "FROM tournament_kept k")
        args: tuple[str, ...] = ()
        if player is not None:
            sql, args = sql + " WHERE k.player = ?", (player,)
        try:
            rows = self.conn.execute(sql + " ORDER BY k.id DESC", args).fetchall()
        except sqlite3.Error as exc:
            raise TournamentStoreError(f"reading the kept games failed: {exc}") from None
        return [KeptGame(r[0], r[1], int(r[2])) for r in rows]

    def finished_game(self, game_id: str) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
        """A kept finished game as :meth:`load` gives the saved one: ``(game_id, state with
        its config and hand log, session with the local player's seat and own cards)``;
        ``None`` if its hands are not kept."""
        try:
            row = self.conn.execute("SELECT config, my_seat, my_holes FROM tournament_kept WHERE game_id = ?",
                                    (game_id,)).fetchone()
            if row is None:
                return None
            hands = [json.loads(r[0]) for r in self.conn.execute(
                "SELECT record FROM tournament_hands WHERE game_id = ? ORDER BY hand", (game_id,))]
            state = {"config": json.loads(row[0]), "hand_log": hands}
            session = {"human_seat": row[1], "my_holes": json.loads(row[2])}
        except (sqlite3.Error, ValueError) as exc:
            raise TournamentStoreError(f"reading the finished game failed: {exc}") from None
        return game_id, state, session

    def games(self, player: str | None = None) -> list[tuple[str, GameSummary]]:
        """Finished games kept, oldest first: ``(finished_at stamp, summary)``; only
        ``player``'s when given."""
        sql = "SELECT finished_at, summary FROM tournament_games"
        args: tuple[str, ...] = ()
        if player is not None:
            sql, args = sql + " WHERE player = ?", (player,)
        out = []
        for stamp, summary in self.conn.execute(sql + " ORDER BY id", args):
            out.append((stamp, GameSummary(**json.loads(summary))))
        return out

    def records(self, player: str | None = None) -> PlayerRecords:
        """The Records screen's numbers (:class:`engine.holdem.tournament.PlayerRecords`),
        of ``player`` when given, else of every game kept."""
        return PlayerRecords((g for _s, g in self.games(player)), keep=KEEP_GAMES)

    def export_json(self, player: str | None = None) -> str:
        """Everything kept (every game and the totals; ``player``'s only when given), as JSON text."""
        recs = self.records(player)
        data = json.loads(recs.export_json())
        data["exported_at"] = _stamp()
        data["finished_at"] = [s for s, _g in self.games(player)]
        if player is not None:
            data["player"] = player
        return json.dumps(data, indent=2, ensure_ascii=False)

    def export_to(self, directory: str | Path | None = None, player: str | None = None) -> Path:
        """Write :meth:`export_json` to ``directory`` (default: beside the database)."""
        folder = Path(directory) if directory is not None else self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        name = "tournament-records-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + ".json"
        out = folder / name
        tmp = out.with_suffix(".json.tmp")
        tmp.write_text(self.export_json(player), encoding="utf-8")
        tmp.replace(out)
        return out

    def delete_all(self, player: str | None = None) -> int:
        """Delete every recorded game and its kept hands (``player``'s only when given;
        cannot be undone); returns how many games were deleted.  The game in progress, if
        any, is kept."""
        with self._transaction():
            if player is None:
                n = self.conn.execute("DELETE FROM tournament_games").rowcount
                self.conn.execute("DELETE FROM tournament_kept")
            else:
                n = self.conn.execute("DELETE FROM tournament_games WHERE player = ?", (player,)).rowcount
                self.conn.execute("DELETE FROM tournament_kept WHERE player = ?", (player,))
            self.conn.execute(_DROP_LOOSE_HANDS)
        return int(n)
