"""The witness counter moves with the money: every note or ticket credited, cash-out,
ticket printed and handpay moves it, so a copy of both media (the ledger's folder and
the witness folder with the anchor and the marker) taken while the cabinet runs is
behind the counter once money has moved, and is refused when put back after a power
cut.  Each step of a move is cut by killing a real child process there; the next
power-up takes every cut back without a tilt.

The counter here is a file in a folder the attacker does not copy: it plays the TPM NV
counter of a cabinet, which no copy can hold."""

from __future__ import annotations

import os
import shutil
import signal
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cabinet import cash_out, credits, insert_note, opened

from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.config import load_config
from kiosk.game.errors import MachineError
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.witness import FileCounter, witness_power_up
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.lone_cabinet import LoneCabinet


def new_ledger(tmp_path: Path) -> Path:
    db = tmp_path / "uth.db"
    key = CabinetKey.create(tmp_path / "ledger.key")
    Ledger.create(db, paytable=load_paytable(PAYTABLE_DIR / "standard.toml"), key=key).close()
    return db


def open_ledger(db: Path) -> Ledger:
    return Ledger.open(db, key=CabinetKey.load(db.with_name("ledger.key")))


def witness_states(ledger: Ledger) -> list[tuple[int, str, str]]:
    return [
        (e.detail["value"], e.detail["state"], e.detail["on"])
        for e in ledger.events((EventKind.WITNESS,))
    ]


def test_the_counter_moves_with_each_note_ticket_and_cash_out(tmp_path, other_medium):
    db = new_ledger(tmp_path)
    counter = FileCounter(other_medium / "counter")
    ledger = open_ledger(db)
    witness_power_up(ledger, counter)
    assert counter.read() == 1
    ledger.event(EventKind.BILL_IN, amount=2000, detail={"bill": 2000})
    ledger.event(EventKind.TILT, detail={"code": "door"})  # no money: no move
    with ledger.transaction():  # one commit, one move
        ledger.event(EventKind.BILL_IN, amount=500, detail={"bill": 500})
        ledger.event(EventKind.BILL_IN, amount=500, detail={"bill": 500})
    ledger.event(EventKind.CASHOUT, amount=3000, txn="c1", detail={"method": "handpay"})
    ledger.event(EventKind.HANDPAY, amount=3000, txn="c1", detail={})
    assert counter.read() == 5
    assert witness_states(ledger)[-4:] == [
        (4, "pending", "cashout"), (4, "done", "cashout"),
        (5, "pending", "handpay"), (5, "done", "handpay"),
    ]  # fmt: skip
    ledger.close()
    ledger = open_ledger(db)
    witness_power_up(ledger, counter)  # the ledger and the counter agree
    assert counter.read() == 6
    ledger.close()


#: Where a move is cut: after the money's commit (its ``pending`` row) before the
#: increment; inside the counter's file replacement; after the increment before the
#: ``done`` row; after the ``done`` row.
CUTS = ("pending", "inside_increment", "incremented", "done")


def cut_child(db: Path, path: Path, cut: str) -> None:
    """In a forked child: power up, credit a note, and SIGKILL itself at ``cut``."""

    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    class Cut(FileCounter):
        def increment(self) -> None:
            if cut == "pending":
                die()
            super().increment()
            if cut == "incremented":
                die()

    ledger = open_ledger(db)
    witness_power_up(ledger, FileCounter(path))
    counter = Cut(path)
    ledger.witness.counter = counter  # type: ignore[union-attr]
    if cut == "inside_increment":
        replace = os.replace

        def cut_replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
            if Path(dst) == path:
                die()
            replace(src, dst)

        os.replace = cut_replace
    ledger.event(EventKind.BILL_IN, amount=2000, detail={"bill": 2000})
    die()  # the cut "done": after the whole move


def in_child(run: Callable[[], None]) -> int:
    """Run ``run`` in a forked child; its wait status."""
    pid = os.fork()
    if pid == 0:  # never return into pytest
        try:
            run()
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(3)
    return os.waitpid(pid, 0)[1]


@pytest.mark.parametrize("cut", CUTS)
def test_a_cut_at_each_step_of_a_move_is_taken_back_at_power_up(tmp_path, other_medium, cut):
    db = new_ledger(tmp_path)
    path = other_medium / "counter"
    status = in_child(lambda: cut_child(db, path, cut))
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    ledger = open_ledger(db)
    assert [e.amount for e in ledger.events(("bill_in",))] == [2000]  # the note stands
    last = witness_states(ledger)[-1]
    moved = 2 if cut in ("incremented", "done") else 1
    assert FileCounter(path).read() == moved
    assert last == (2, "done" if cut == "done" else "pending", "bill_in")
    witness_power_up(ledger, FileCounter(path))  # no refusal: the cut is taken back
    up = moved + 1
    assert FileCounter(path).read() == up and witness_states(ledger)[-1] == (up, "done", "power_up")
    ledger.event(EventKind.BILL_IN, amount=500, detail={"bill": 500})  # and it moves on with money
    assert FileCounter(path).read() == up + 1
    ledger.close()


def InstantPrinter() -> PaperlessPrinter:
    """A ticket printer at the cabinet's station, printed at once."""
    return PaperlessPrinter()


def ledger_tilt(m: LoneCabinet) -> str:
    return next((t.message for t in m.station.snapshot().tilts if t.code == "ledger"), "")


def test_a_copy_of_both_media_taken_while_running_is_refused_after_a_cash_out(
    tmp_path, other_medium
):
    """The cabinet runs in a child: notes in; the attacker copies the ledger's folder and
    the witness folder while it runs; the patron cashes out a ticket of 84.00; the power
    is cut (SIGKILL: no orderly power-down); the copies go back.  The counter moved at
    the cash-out and the ticket printed, so the copy is refused."""
    ledger_dir, witness_dir, tpm = tmp_path / "var", other_medium / "uth", tmp_path / "tpm"
    witness_dir.mkdir()
    tpm.mkdir()
    config = load_config(
        None,
        db_path=ledger_dir / "uth.db",
        anchor_path=witness_dir / "uth.anchor",
        install_marker=witness_dir / "uth.install",
        witness_counter=f"file:{tpm / 'counter'}",
    )
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()

    def cabinet() -> None:
        printer = InstantPrinter()
        m = opened(config, rng=SeededRandomSource(5), printer=printer)
        assert ledger_tilt(m) == ""
        for bill in (5000, 2000, 1000, 100, 100, 100, 100):
            insert_note(m, bill)
        os.write(from_child_w, b"r")  # running, 84.00 on the meter: copy now
        os.read(to_child_r, 1)
        cash_out(m, printer)
        assert credits(m) == 0
        os.write(from_child_w, b"p")  # the ticket is printed
        os.read(to_child_r, 1)  # the power cut comes here

    pid = os.fork()
    if pid == 0:
        try:
            cabinet()
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(3)
    try:
        assert os.read(from_child_r, 1) == b"r"
        shutil.copytree(ledger_dir, tmp_path / "copy-ledger")  # the database, its -wal
        shutil.copytree(witness_dir, tmp_path / "copy-witness")  # the anchor, the marker
        os.write(to_child_w, b"g")
        assert os.read(from_child_r, 1) == b"p"
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    for folder, copy in ((ledger_dir, "copy-ledger"), (witness_dir, "copy-witness")):
        shutil.rmtree(folder)
        shutil.copytree(tmp_path / copy, folder)
    m = opened(config)
    try:
        tilt = ledger_tilt(m)
        assert "counter ahead of the ledger" in tilt and str(tpm / "counter") in tilt
        assert m.table.ledger is None  # the ticket's 84.00 cannot be played or paid again
    finally:
        m.close()


def test_a_counter_that_cannot_move_with_the_money_stops_play(tmp_path, other_medium):
    """The counter's medium goes away while the cabinet runs: the note already stacked
    is credited (the money is never undone), then the cabinet tilts and refuses more."""
    counter = other_medium / "counter" / "uth.counter"
    counter.parent.mkdir()
    config = load_config(
        None, db_path=tmp_path / "var" / "uth.db", witness_counter=f"file:{counter}"
    )
    m = opened(config, rng=SeededRandomSource(5))
    try:
        insert_note(m, 2000)
        assert ledger_tilt(m) == "" and FileCounter(counter).read() == 2
        shutil.rmtree(counter.parent)  # the medium unplugged
        insert_note(m, 5000)
        assert credits(m) == 7000
        tilt = ledger_tilt(m)
        assert f"witness counter file:{counter} not moved with the money" in tilt
        assert "is missing" in tilt
        with pytest.raises(MachineError):
            insert_note(m, 100)
    finally:
        m.close()


def test_power_cuts_at_random_instants_of_the_money_never_tilt(tmp_path, other_medium):
    """Forty children credit notes as fast as they can and are SIGKILLed after a random
    few milliseconds; each next power-up accepts the ledger and the counter together,
    and every note committed is in the ledger."""
    import random
    import time

    db, path = new_ledger(tmp_path), other_medium / "counter"
    rng = random.Random(7)

    def credit_forever() -> None:
        ledger = open_ledger(db)
        witness_power_up(ledger, FileCounter(path))  # raises (exit 3) on a refusal
        os.write(ready_w, b"r")
        while True:
            ledger.event(EventKind.BILL_IN, amount=100, detail={"bill": 100})

    for _ in range(40):
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                credit_forever()
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(3)
        os.close(ready_w)
        assert os.read(ready_r, 1) == b"r", "power-up refused"
        os.close(ready_r)
        time.sleep(rng.uniform(0.001, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    ledger = open_ledger(db)
    witness_power_up(ledger, FileCounter(path))
    notes = len(ledger.events(("bill_in",)))
    done = [v for v, state, on in witness_states(ledger) if state == "done" and on == "bill_in"]
    assert notes > 40 and len(done) >= notes - 40  # at most one move cut short per power cut
    assert ledger.verify().ok
    ledger.close()
