"""TITO in the ledger and the controller, without devices: the ``tickets`` table and its
migration, tamper evidence, redemption rules, the machine's lock between threads, and
the error codes the screens translate."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from support.cabinet import cash_out, credits, insert_note, redeem_ticket
from support.cabinet import opened as open_cabinet
from support.tito_helpers import Clock

from devices.tcl import PrintOutcome
from engine.rng import SeededRandomSource
from kiosk.cli import main as uth
from kiosk.config import load_config
from kiosk.game.commands import (
    Deal,
    Decide,
    HandpayReset,
    OperatorLogin,
    PlaceChip,
)
from kiosk.game.errors import MachineError, PlayDisabled, TicketRefused
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import LEDGER_TILT, SEAT, TICKET_TILT
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import SCHEMA_VERSION, Ledger, balance
from kiosk.station.paperless import PaperlessPrinter
from kiosk.ui import i18n
from kiosk.ui.machine_messages import MESSAGES, describe, message
from kiosk.wiring.cabinet import ticket
from kiosk.wiring.lone_cabinet import LoneCabinet

ROOT = Path(__file__).resolve().parents[3]


def InstantPrinter(outcome: str = "printed") -> PaperlessPrinter:
    """A printer at the cabinet's station that reports each ticket at once as ``outcome``
    (``"hang"``: never, as if the power went mid-print)."""
    reasons = {"not_printed": "paper out", "unknown": "no answer"}
    return PaperlessPrinter(
        None if outcome == "hang" else PrintOutcome(outcome), reasons.get(outcome, "")
    )


@pytest.fixture
def config(tmp_path: Path):
    return load_config(db_path=tmp_path / "uth.db")


def opened(config, printer=None, clock=None) -> LoneCabinet:
    return open_cabinet(config, printer, rng=SeededRandomSource(5), clock=clock)


def ok(m: LoneCabinet) -> None:
    report = m.table.ledger.verify()
    assert report.ok, report.problem
    assert balance(report.meters)["balanced"]


def test_a_ticket_is_written_pending_before_printing_and_redeemed_once(config):
    clock = Clock()
    printer = InstantPrinter("hang")
    m = opened(config, printer, clock)
    insert_note(m, 2000)
    req = cash_out(m, printer)
    (vn,) = printer.numbers
    t = ticket(m, vn)
    assert (t.status, t.amount, t.sequence, t.cashout_txn) == (
        "pending",
        2000,
        1,
        req.transaction_id,
    )
    assert t.expires_on == "2025-04-13" and t.printed_at is None
    again = m.table.print_order(SEAT, resume=True)  # never a second number for the same cash-out
    assert again is not None and again.validation == vn
    assert m.notes.ticket_escrow(vn, "tx0") is None  # pending: not yet a ticket
    m.link.report_print(req.transaction_id, PrintOutcome.PRINTED, vn, "", 1.0)
    assert ticket(m, vn).status == "issued" and credits(m) == 0
    assert m.notes.ticket_escrow(vn, "tx1") == 2000
    assert m.notes.ticket_escrow(vn, "tx2") is None  # the same ticket is already in escrow
    m.notes.escrow_aborted("tx2", "refused")
    m.notes.ticket_credited(vn, 2000, "tx1")
    m.notes.ticket_credited(vn, 2000, "tx1")  # VEND VALID repeated
    assert credits(m) == 2000 and m.table.ledger.meters["tickets_in_count"] == 1
    assert ticket(m, vn).status == "redeemed" and ticket(m, vn).redeem_txn == "tx1"
    assert m.notes.ticket_escrow(vn, "tx3") is None
    reasons = [e.detail["reason"] for e in m.table.ledger.events(("ticket_rejected",))]
    assert reasons == ["pending", "in_escrow", "redeemed"]
    ok(m)
    m.close()


def test_a_ticket_stacked_but_not_redeemable_is_not_credited_and_tilts(config):
    printer = InstantPrinter()
    m = opened(config, printer)
    insert_note(m, 2000)
    cash_out(m, printer)
    vn = m.table.ledger.tickets()[0].validation
    assert m.notes.ticket_escrow(vn, "a") == 2000
    with pytest.raises(TicketRefused) as err:  # not twice at once, whatever the way in
        redeem_ticket(m, 2000, vn)
    assert err.value.code == "ticket_in_escrow"
    m.notes.ticket_credited(vn, 5000, "a")  # stacked, but reported for another amount
    assert credits(m) == 0 and m.table.ledger.meters["tickets_in_count"] == 0
    assert TICKET_TILT in {t.code for t in m.station.snapshot().tilts}
    (stacked,) = [e for e in m.table.ledger.events(("ticket_rejected",)) if e.detail.get("stacked")]
    assert stacked.detail["reason"] == "altered" and ticket(m, vn).status == "issued"
    ok(m)
    m.close()


def test_not_printed_voids_unknown_hands_pay(config):
    printer = InstantPrinter("not_printed")
    m = opened(config, printer)
    insert_note(m, 5000)
    cash_out(m, printer)
    assert credits(m) == 5000 and m.station.snapshot().cashout is None
    printer = InstantPrinter("unknown").attach(m.link)
    cash_out(m, printer)
    snap = m.station.snapshot()
    assert snap.phase == MachinePhase.CASHOUT and snap.cashout.method == "handpay"
    statuses = [(t.sequence, t.status) for t in m.table.ledger.tickets()]
    assert statuses == [(1, "void"), (2, "void")]
    m.table.ledger.close()  # a power cut while the attendant is on the way: still a handpay
    m2 = opened(config, InstantPrinter())
    assert m2.station.snapshot().cashout.method == "handpay"
    m2.station.execute(OperatorLogin("1111"))
    m2.station.execute(HandpayReset())
    assert m2.table.ledger.meters["handpay"] == 5000 and m2.table.ledger.meters["tickets_out"] == 0
    ok(m2)
    m2.close()


def test_power_cut_with_a_pending_ticket_and_no_printer_strategy(config):
    printer = InstantPrinter("hang")
    m = opened(config, printer)
    insert_note(m, 1000)
    cash_out(m, printer)
    m.table.ledger.close()
    m2 = opened(config)  # no printer: the pending ticket is voided anyway
    assert m2.station.snapshot().cashout.method == "handpay"
    assert m2.table.ledger.tickets()[0].status == "void"
    ok(m2)
    m2.close()


def test_schema_1_ledgers_are_migrated_and_their_tickets_kept(config):
    m = opened(config)
    for n in (1, 2):  # what a schema-1 cabinet recorded of a printed ticket: no ticket_issue
        insert_note(m, 2000)
        with m.table.lock, m.table.ledger.transaction():
            detail = {"method": "ticket"}
            m.table.ledger.event(EventKind.CASHOUT, amount=2000, txn=f"legacy-{n}", detail=detail)
            printed = {"reference": f"{n:018d}", "operator": None}
            m.table.ledger.event(
                EventKind.TICKET_OUT, amount=2000, txn=f"legacy-{n}", detail=printed
            )
    redeem_ticket(m, 2000, f"{1:018d}")
    m.close()
    # make it a schema-1 ledger again (the tickets table did not exist)
    conn = sqlite3.connect(config.db_path)
    conn.execute("DROP TABLE tickets")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    m = opened(config)
    assert m.table.ledger.meta["schema_version"] == str(SCHEMA_VERSION) == "2"
    assert m.table.ledger.last_event("schema_migrated", "power_up").kind == "power_up"
    assert m.table.ledger.events(("schema_migrated",))[0].detail == {"old": 1, "new": 2}
    tickets = [(t.sequence, t.validation[-1], t.status) for t in m.table.ledger.tickets()]
    assert tickets == [(1, "1", "redeemed"), (2, "2", "issued")]
    assert m.notes.ticket_escrow(f"{1:018d}", "x") is None
    assert m.notes.ticket_escrow(f"{2:018d}", "y") == 2000
    m.notes.ticket_credited(f"{2:018d}", 2000, "y")
    ok(m)
    m.close()


def tamper(db: Path, *sql: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER IF EXISTS tickets_fixed")
    for statement in sql:
        conn.execute(statement)
    conn.commit()
    conn.close()


def test_an_edited_ticket_row_is_caught(config, capsys):
    printer = InstantPrinter()
    m = opened(config, printer)
    insert_note(m, 1000)
    cash_out(m, printer)
    vn = m.table.ledger.tickets()[0].validation
    redeem_ticket(m, 1000, vn)
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        m.table.ledger.conn.execute("DELETE FROM tickets")
    with pytest.raises(sqlite3.IntegrityError, match="final"):
        m.table.ledger.conn.execute("UPDATE tickets SET status = 'issued'")
    # behind the running machine's back: redeemed -> issued, to be paid again
    tamper(config.db_path, "UPDATE tickets SET status = 'issued', close_event = NULL")
    with pytest.raises(PlayDisabled):
        m.notes.ticket_escrow(vn, "again")
    assert LEDGER_TILT in {t.code for t in m.station.snapshot().tilts} and credits(m) == 1000
    m.table.ledger.close()
    assert uth(["audit", "verify", "--db", str(config.db_path)]) == 1
    assert f"tickets {vn}: status is 'issued', the events say 'redeemed'" in capsys.readouterr().out
    assert opened(config).station.snapshot().tilts[0].code == LEDGER_TILT


@pytest.mark.parametrize(
    "sql, problem",
    [
        ("UPDATE tickets SET amount = 99900", "amount is 99900"),
        ("UPDATE tickets SET expires_on = '2099-01-01'", "expires_on is '2099-01-01'"),
        (
            "INSERT INTO tickets (validation, sequence, amount, status, issued_at, issue_event) "
            "VALUES ('123456789012345678', 9, 500, 'issued', 'x', 1)",
            "no event issued this ticket",
        ),
    ],
)
def test_forged_or_altered_tickets_fail_verification(config, sql, problem):
    printer = InstantPrinter()
    m = opened(config, printer)
    insert_note(m, 1000)
    cash_out(m, printer)
    m.close()
    tamper(config.db_path, sql)
    report = Ledger.open(config.db_path, readonly=True).verify()
    assert not report.ok and problem in report.problem


def test_the_machine_lock_serialises_device_threads(config):
    """Every controller entry point takes the machine's lock: a device thread calling in
    while the UI thread is inside an operation waits for it to finish."""
    m = opened(config)
    done = threading.Event()

    def validator_thread() -> None:
        assert m.notes.escrow_decision(2000, "txn-a")
        m.notes.bill_credited(2000, "txn-a")
        done.set()

    with m.table.lock:  # the UI thread is in the middle of an operation
        worker = threading.Thread(target=validator_thread)
        worker.start()
        time.sleep(0.2)
        assert not done.is_set() and m.table.ledger.meters["credits"] == 0
    worker.join(5)
    assert done.is_set() and credits(m) == 2000
    # and many threads at once (bills, printer events, a payout) against rounds being played
    printer = InstantPrinter().attach(m.link)
    errors: list[BaseException] = []

    def hammer(k: int) -> None:
        try:
            for i in range(15):
                if k == 0:  # the validator's thread: one note at a time
                    while not m.notes.escrow_decision(500, f"t{k}-{i}"):  # a deal's instant
                        pass
                    m.notes.bill_credited(500, f"t{k}-{i}")
                m.table.device_report(
                    SEAT,
                    type(
                        "E",
                        (),
                        {
                            "device": "printer",
                            "kind": "paper_low",
                            "detail": "low",
                            "tilt": False,
                            "active": True,
                            "code": None,
                        },
                    )(),
                )
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    played = 0
    while any(t.is_alive() for t in threads) or played < 5:
        m.station.execute(PlaceChip("ante", 500))
        m.station.execute(Deal())
        while m.station.snapshot().phase == MachinePhase.IN_ROUND:
            m.station.execute(Decide(m.station.snapshot().legal[-1]))
        played += 1
    for t in threads:
        t.join()
    assert not errors
    assert m.table.ledger.meters["bills_in_count"] == 1 + 15
    cash_out(m, printer)
    assert credits(m) == 0 and m.table.ledger.meters["tickets_out_count"] == 1
    ok(m)
    m.close()


# -- the screens' words for refusals ----------------------------------------------------
def test_every_machine_error_has_a_code_the_screens_translate():
    import kiosk.game.errors as machine

    classes = [
        c for c in vars(machine).values() if isinstance(c, type) and issubclass(c, MachineError)
    ]
    assert {c.code for c in classes} <= set(MESSAGES)
    used = {
        code
        for path in (ROOT / "kiosk" / "game").rglob("*.py")
        for code in re.findall(r"code=ErrorCode\.([A-Z_]+)", path.read_text())
    }
    assert used, "the controller's precise codes are found"
    used = {code.lower() for code in used}
    used |= {
        "ticket_unknown",
        "ticket_pending",
        "ticket_void",
        "ticket_redeemed",
        "ticket_expired",
        "ticket_altered",
        "ticket_in_escrow",
    }
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        for code in sorted(used):
            text = message(code, {"limit": 1_000_000, "validation": "1" * 18, "amount": 500})
            assert text and "{" not in text, (lang, code)
    i18n.set_language("fr")
    err = MachineError(
        "the credit limit is $10,000.00", code="credit_limit", params={"limit": 1_000_000}
    )
    assert describe(err) == "La limite de crédit est de 10\u202f000,00\u00a0$."
    i18n.set_language("ja")
    assert describe(TicketRefused("x", code="ticket_redeemed")) == MESSAGES_JA_REDEEMED
    with pytest.raises(ValueError):  # a code that is not an ErrorCode is refused at once
        PlayDisabled("x", code="no_such_code")  # type: ignore[arg-type]
    assert (  # one read off the link falls back to its class's message
        message("no_such_code", class_code=PlayDisabled.code)
        == "プレイは停止中です。係員をお呼びください。"
    )
    i18n.set_language("en")
    assert describe(ValueError("not a machine error")) == "That is not possible right now."


MESSAGES_JA_REDEEMED = "このチケットはすでに精算済みです。"
