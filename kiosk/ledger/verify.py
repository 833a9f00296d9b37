"""Verification of a whole ledger: integrity check, both hash chains (and their MACs
under the cabinet key), round arithmetic, deck commitments, optional engine replay,
tickets and meters (the table's and each station's) re-added from the rows, the
protective triggers."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from engine.cards import format_cards, parse_cards
from engine.rng import deck_commitment
from engine.uth.paytable import Paytable
from kiosk.ledger.chain import GENESIS, HOME_STATION, UNHASHED
from kiosk.ledger.checkpoint import last_checkpoint, state_digest
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.meters import (
    CREDITS,
    LATER_METERS,
    METERS,
    balance,
    event_effects,
    round_effects,
)
from kiosk.ledger.records import _CARD_CODES, VerifyReport, replay_row
from kiosk.ledger.schema import EVENT_COLUMNS, PROTECTIVE_TRIGGERS, ROUND_COLUMNS
from kiosk.ledger.stations import check_station_meters, station_row_totals
from kiosk.ledger.tickets import TICKET_COLUMNS, _replay_tickets
from kiosk.ledger.view import LedgerView


class Verifier:
    """Verifies the ledger read through ``view`` whose ``ledger_created`` event must name
    ``ledger_id``; with ``key`` every row's MAC too (the report is then ``authenticated``).
    Reads only: the view may be read-only."""

    def __init__(self, view: LedgerView, ledger_id: str, key: CabinetKey | None = None) -> None:
        self.view = view
        self.conn = view.conn
        self.ledger_id = ledger_id
        self.key = key
        self._unsigned: dict[str, tuple[int, str | None]] = {}

    def run(self, decks: bool = True, replay: bool = False) -> VerifyReport:
        """Check the whole ledger; never raises for a bad ledger (see ``problem``).

        Always: SQLite's integrity check; both hash chains (ids contiguous, each hash
        recomputed from the row's canonical JSON, which SQLite renders with
        ``json_object``); only the last round may be open and its recovery deck must match
        its commitment; each closed round's arithmetic; every meter equal to what the rows
        add up to, and the balance; the stored paytables' SHA-256; the ``tickets`` table
        rebuilt from the ticket events, and the ticket meters against it.  With ``decks`` also
        every published deck against its commitment; with ``replay`` also every settled
        round re-played through the engine and its settlement compared.  Last, every
        protective trigger of :data:`~kiosk.ledger.schema.PROTECTIVE_TRIGGERS` must exist
        as the schema defines it.  With the key, each row's MAC is checked right after its
        hash.
        """
        rounds = events = 0
        try:
            qc = self.conn.execute("PRAGMA quick_check").fetchall()
            if qc != [("ok",)]:
                return VerifyReport(False, 0, 0, f"SQLite integrity check: {qc[0][0]}")
            problem = self.check_layout()
            if problem:
                return VerifyReport(False, 0, 0, problem)
            self.load_unsigned_prefix()
            problem, rounds, last_state = self.walk_chain("rounds", ROUND_COLUMNS)
            if problem:
                return VerifyReport(False, rounds, 0, problem)
            problem, events, _ = self.walk_chain("events", EVENT_COLUMNS)
            if problem:
                return VerifyReport(False, rounds, events, problem)

            def bad(problem: str) -> VerifyReport:
                return VerifyReport(False, rounds, events, problem)

            problem = (
                self.check_first_event()
                or self.check_rounds(0, rounds, last_state)
                or self.check_checkpoint()
                or (self.check_decks() if decks else "")
            )
            if problem:
                return bad(problem)
            if replay:
                replayer = _Replayer(self.view)
                for row in self.view.iter_round_rows("WHERE state = 'settled' ORDER BY id"):
                    problem = replayer.check(row)
                    if problem:
                        return bad(f"rounds {row['id']}: {problem}")
            problem, stored = self.check_meters(self.row_totals())
            if problem:
                return VerifyReport(False, rounds, events, problem, stored or None)
            problem = check_station_meters(self.conn, stored, station_row_totals(self.conn))
            if problem:
                return VerifyReport(False, rounds, events, problem, stored)
            problem = self.check_paytables()
            if problem:
                return bad(problem)
            problem, tickets = self._check_tickets(stored)
            if problem:
                return VerifyReport(False, rounds, events, problem, stored, tickets)
            problem = self.check_triggers()
            if problem:
                return VerifyReport(False, rounds, events, problem, stored, tickets)
        except sqlite3.DatabaseError as exc:
            return VerifyReport(False, rounds, events, f"SQLite: {exc} (damaged or truncated file)")
        except LedgerError as exc:
            return VerifyReport(False, rounds, events, exc.reason)
        except ValueError as exc:  # unreadable JSON or cards in a row
            return VerifyReport(False, rounds, events, f"unreadable value: {exc}")
        return VerifyReport(True, rounds, events, "", stored, tickets, self.key is not None)

    # -- the checks, each returning the first problem ("" when none) ---------------------------
    def check_layout(self) -> str:
        """The chained tables have exactly the schema's columns."""
        for table, columns in (("rounds", ROUND_COLUMNS), ("events", EVENT_COLUMNS)):
            names = [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]
            if names != list(columns):
                return f"{table}: unexpected columns {names}"
        return ""

    def check_first_event(self) -> str:
        """Event 1 is this ledger's ``ledger_created``."""
        first = self.conn.execute("SELECT kind, detail FROM events WHERE id = 1").fetchone()
        if (
            first is None
            or first[0] != EventKind.LEDGER_CREATED
            or json.loads(first[1]).get("ledger_id") != self.ledger_id
        ):
            return "events 1: not this ledger's ledger_created event"
        return ""

    def check_rounds(self, after: int, rounds: int, last_state: str | None) -> str:
        """The rounds after id ``after`` (of ``rounds`` in all; ``last_state``, the last
        row's state, is implied by the rows): known states; open rows only at the end of
        the chain, as the rows of one round (one commitment, distinct seats); each closed
        round's arithmetic; each open row's recovery deck against its commitment and no
        recovery deck for another."""
        last_closed = self.conn.execute(
            "SELECT COALESCE(MAX(id), 0) FROM rounds WHERE state <> 'open'"
        ).fetchone()[0]
        row = self.conn.execute(
            "SELECT id FROM rounds WHERE id > ? AND (state NOT IN ('open', 'settled', 'voided') "
            "OR (state = 'open' AND id < ?)) LIMIT 1",
            (after, last_closed),
        ).fetchone()
        if row:
            return f"rounds {row[0]}: unknown state, or open but not the last round"
        for sql, what in _ROUND_ARITHMETIC:
            row = self.conn.execute(
                f"SELECT id FROM rounds WHERE id > ? AND {sql} ORDER BY id LIMIT 1", (after,)
            ).fetchone()
            if row:
                return f"rounds {row[0]}: {what}"
        open_rows = self.conn.execute(
            "SELECT id, seat, commitment FROM rounds WHERE id > ? ORDER BY id", (last_closed,)
        ).fetchall()
        if len({c for _, _, c in open_rows}) > 1 or len({s for _, s, _ in open_rows}) != len(
            open_rows
        ):
            return f"rounds {open_rows[0][0]}: open rows of more than one round, or a seat twice"
        for open_id, _seat, commitment in open_rows:
            deck, salt = self.view.recovery_deck(open_id)
            if deck_commitment(deck, salt) != commitment:
                return f"recovery {open_id}: deck does not match the round's commitment"
        ids = [i for i, _, _ in open_rows]
        stray = self.conn.execute(
            f"SELECT round_id FROM recovery WHERE round_id NOT IN ({', '.join('?' * len(ids))})",
            ids,
        ).fetchone()
        if stray:
            return f"recovery {stray[0]}: deck kept for a closed round"
        return ""

    def check_checkpoint(self) -> str:
        """The latest checkpoint names the round hash the rounds chain has at its row."""
        cp = last_checkpoint(self.conn)
        if cp is None:
            return ""
        row = self.conn.execute("SELECT hash FROM rounds WHERE id = ?", (cp.rounds,)).fetchone()
        if (row[0] if row else GENESIS) != cp.round_head:
            return f"events {cp.event_id}: checkpoint does not match rounds {cp.rounds}"
        if cp.state is not None and state_digest(self.conn, cp.event_id) != cp.state:
            return f"events {cp.event_id}: checkpoint does not match the state events before it"
        return ""

    def check_decks(self) -> str:
        """Every published deck against the commitment made at its deal."""
        for rid, deck_text, salt, commitment in self.conn.execute(
            "SELECT id, deck, salt, commitment FROM rounds WHERE state <> 'open' ORDER BY id"
        ):
            published = _deck_bytes(deck_text or "")
            try:
                salt_bytes = bytes.fromhex(salt or "")
            except ValueError:
                published = None
            if published is None:
                return f"rounds {rid}: published deck or salt unreadable"
            if hashlib.sha256(salt_bytes + published).hexdigest() != commitment:
                return (
                    f"rounds {rid}: published deck does not match the commitment made at the deal"
                )
        return ""

    def check_meters(self, totals: Mapping[str, int]) -> tuple[str, dict[str, int]]:
        """Every stored meter equal to ``totals`` (what the rows add up to) and the
        balance; returns (problem, the stored meters)."""
        stored = dict(self.conn.execute("SELECT name, value FROM meters").fetchall())
        for name in (*METERS, CREDITS):
            if name not in stored and name not in LATER_METERS:
                return f"meter {name}: missing", {}
        for name in sorted(set(stored) | set(totals)):
            want, got = totals.get(name, 0), stored.get(name, 0)
            if got != want:
                return f"meter {name}: is {got}, the rows add up to {want}", stored
        bal = balance(stored)
        if not bal["balanced"] or bal["payout_pending"] < 0:
            return f"meters do not balance: {bal}", stored
        return "", stored

    def check_paytables(self) -> str:
        """Every stored paytable's text against its SHA-256."""
        for sha, text in self.conn.execute("SELECT sha256, toml FROM paytables"):
            if hashlib.sha256(text.encode()).hexdigest() != sha:
                return f"paytables {sha}: text does not match its SHA-256"
        return ""

    def check_triggers(self) -> str:
        """The first protective trigger that is missing or altered ("" if none)."""
        have = dict(self.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
        for name, sql in PROTECTIVE_TRIGGERS.items():
            if name not in have:
                return f"trigger {name}: missing (dropped)"
            if have[name] != sql:
                return f"trigger {name}: altered (is {have[name]!r})"
        return ""

    def load_unsigned_prefix(self) -> None:
        """Note the rows written before row MACs existed, per chain: (last such id, that
        row's hash as the migration recorded it).  They are authenticated through the hash of
        the first signed row after them; the migration event itself must be signed, so
        the events prefix ends before it."""
        found: dict[str, tuple[int, str | None]] = {}
        for eid, detail in self.conn.execute(
            "SELECT id, detail FROM events WHERE kind = ? ORDER BY id", (EventKind.SCHEMA_MIGRATED,)
        ):
            info = json.loads(detail)
            if "unsigned_events" in info and not found:
                found["events"] = (min(int(info["unsigned_events"]), eid - 1), None)
                found["rounds"] = (int(info["unsigned_rounds"]), str(info["round_head"]))
        self._unsigned = found

    def _check_tickets(self, meters: Mapping[str, int]) -> tuple[str, int]:
        """The ``tickets`` table against the ticket events, and the ticket meters against
        the table; returns (first problem, number of tickets)."""
        names = [r[1] for r in self.conn.execute("PRAGMA table_info(tickets)")]
        if sorted(names) != sorted(TICKET_COLUMNS):
            return f"tickets: unexpected columns {names}", 0
        want, problem = _replay_tickets(self.conn)
        if problem:
            return problem, len(want)
        cur = self.conn.execute("SELECT * FROM tickets ORDER BY sequence")
        cols = [d[0] for d in cur.description]
        have = {r[cols.index("validation")]: dict(zip(cols, r, strict=True)) for r in cur}
        for number, row in have.items():
            expect = want.get(number)
            if expect is None:
                return f"tickets {number}: no event issued this ticket", len(have)
            for col in TICKET_COLUMNS:
                if row[col] != expect[col]:
                    return (
                        f"tickets {number}: {col} is {row[col]!r}, the events say {expect[col]!r}",
                        len(have),
                    )
        for number in want:
            if number not in have:
                return f"tickets {number}: missing (its events are in the log)", len(have)
        printed = [r for r in have.values() if r["print_event"] is not None]
        redeemed = [r for r in have.values() if r["status"] == "redeemed"]
        for meter, value in (
            ("tickets_out", sum(r["amount"] for r in printed)),
            ("tickets_out_count", len(printed)),
            ("tickets_in", sum(r["amount"] for r in redeemed)),
            ("tickets_in_count", len(redeemed)),
        ):
            if meters.get(meter, 0) != value:
                return (
                    f"meter {meter}: is {meters.get(meter, 0)}, the tickets table adds up to {value}",
                    len(have),
                )
        return "", len(have)

    def walk_chain(
        self, table: str, columns: Mapping[str, type], first: int = 1, prev: str = GENESIS
    ) -> tuple[str, int, str | None]:
        """Recompute ``table``'s hash chain from row ``first``, whose predecessor's hash is
        ``prev`` (and, with the key, each row's MAC); returns (problem, last id walked,
        last row's state)."""
        fields = ", ".join(f"'{c}', {c}" for c in sorted(columns) if c not in UNHASHED)
        rendered = f"json_object({fields})"
        if "station" in columns:  # hashed unless it is the home station (see chain.canonical)
            home = ", ".join(
                f"'{c}', {c}" for c in sorted(columns) if c not in (*UNHASHED, "station")
            )
            rendered = (
                f"CASE WHEN station IS {HOME_STATION} THEN json_object({home}) ELSE {rendered} END"
            )
        state = "state" if "state" in columns else "NULL"
        cur = self.conn.execute(
            f"SELECT id, {rendered}, hash, mac, {state} FROM {table} WHERE id >= ? ORDER BY id",
            (first,),
        )
        expect, last_state = first, None
        sha256 = hashlib.sha256
        key = self.key
        unsigned_to, unsigned_hash = self._unsigned.get(table, (0, None))
        for rid, text, stored, mac, last_state in cur:
            if rid != expect:
                return f"{table} {expect}: missing (next row is {rid})", expect - 1, last_state
            if sha256((prev + text).encode()).hexdigest() != stored:
                return (
                    f"{table} {rid}: hash does not match the row (edited or reordered)",
                    expect - 1,
                    last_state,
                )
            if key is not None and not key.check(stored, mac):
                if mac is not None or rid > unsigned_to:
                    return (
                        f"{table} {rid}: MAC does not match: not written with this cabinet's "
                        "key (forged, or recomputed without the key)",
                        expect - 1,
                        last_state,
                    )
                if rid == unsigned_to and unsigned_hash is not None and stored != unsigned_hash:
                    return (
                        f"{table} {rid}: not the row the migration to signed rows recorded",
                        expect - 1,
                        last_state,
                    )
            prev = stored
            expect += 1
        return "", expect - 1, last_state

    def row_totals(
        self, events_after: int = 0, rounds_after: int = 0, base: Mapping[str, int] | None = None
    ) -> dict[str, int]:
        """The meters as the rows after ``events_after`` / ``rounds_after`` add them up
        (through :func:`round_effects` and :func:`event_effects`, applied once per
        distinct row shape) on top of ``base``."""
        totals: dict[str, int] = dict(base or {})

        def add(effects: Mapping[str, int], times: int) -> None:
            for k, v in effects.items():
                totals[k] = totals.get(k, 0) + v * times

        keys = ("state", "ante", "blind", "trips", "play", "paid", "jackpot")
        cols = ", ".join(keys)
        for *values, n in self.conn.execute(
            f"SELECT {cols}, COUNT(*) FROM rounds WHERE id > ? GROUP BY {cols}", (rounds_after,)
        ):
            add(round_effects(dict(zip(keys, values, strict=True))), n)
        for kind, amount, n in self.conn.execute(
            "SELECT kind, amount, COUNT(*) FROM events WHERE id > ? GROUP BY kind, amount",
            (events_after,),
        ):
            add(event_effects(kind, amount), n)
        return {k: v for k, v in totals.items() if v or k in METERS}


#: Arithmetic every closed round must satisfy: (SQL condition of a bad row, what is wrong).
_ROUND_ARITHMETIC = (
    (
        "state <> 'open' AND credits_after IS NOT credits_before - (ante + blind + trips + play) + paid",
        "credits after != credits before - staked + paid",
    ),
    (
        "state = 'settled' AND paid + jackpot IS NOT ante_return + blind_return + play_return + trips_return",
        "paid + jackpot != the sum of the returns",
    ),
    (
        "state = 'open' AND credits_after IS NOT credits_before - (ante + blind + trips + play)",
        "credits after != credits before - staked",
    ),
)


def _deck_bytes(text: str) -> bytes | None:
    """A stored deck (run-together notation) as one byte per card, None if malformed."""
    try:
        deck = bytes(_CARD_CODES[text[i : i + 2]] for i in range(0, len(text), 2))
    except KeyError:
        return None
    return deck if len(deck) == 52 == len(set(deck)) else None


class _Replayer:
    """Re-plays settled rounds through the engine (for ``run(replay=True)``), one
    parsed paytable per SHA-256."""

    def __init__(self, view: LedgerView) -> None:
        self.view = view
        self.tables: dict[str, Paytable] = {}

    def check(self, row: Mapping[str, Any]) -> str:
        """The first way the engine's replay of ``row`` differs from it ("" if none)."""
        sha = row["paytable_sha256"]
        if sha not in self.tables:
            self.tables[sha] = self.view.paytable(sha)
        try:
            rnd = replay_row(self.tables[sha], parse_cards(row["deck"]), row)
        except ValueError as exc:
            return f"replay refused: {exc}"
        result = rnd.outcome()
        if result is None:
            return "replay: the decisions do not finish the round"
        seat = result.seat(row["seat"])
        got = (
            seat.ante_return,
            seat.blind_return,
            seat.play_return,
            seat.trips_return,
            seat.breakage,
            seat.play,
            format_cards(seat.hole, ""),
            format_cards(result.board, ""),
        )
        want = (
            row["ante_return"],
            row["blind_return"],
            row["play_return"],
            row["trips_return"],
            row["breakage"],
            row["play"],
            row["player_hole"],
            row["board"],
        )
        if got != want:
            return f"replay settles differently: engine {got}, ledger {want}"
        return ""
