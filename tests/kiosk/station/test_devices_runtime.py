"""The devices joined to the controller (:mod:`kiosk.station.devices`): configured ports,
ports that cannot be opened, the validator following the machine's state, and the demo
keys of the kiosk going through the simulators (:mod:`kiosk.ui.demo`)."""

from __future__ import annotations

import pytest
from support.cabinet import credits as credits_at
from support.tito_helpers import boot, cabinets, wait_for

from kiosk.cli import main as uth
from kiosk.config import ConfigError, load_config
from kiosk.game.commands import (
    CashOut,
    HandpayReset,
    OperatorLogin,
    SetDoor,
)
from kiosk.ui.demo import DemoDevices, DemoSimulators
from kiosk.ui.model import Model
from kiosk.wiring.cabinet import ticket as ticket_record


@pytest.fixture
def cabinet(tmp_path):
    yield from cabinets(tmp_path)


def test_the_configuration_names_the_ports(tmp_path):
    cfg = load_config(None)
    assert (cfg.validator_port, cfg.printer_port, cfg.simulated_devices) == ("sim", "sim", True)
    path = tmp_path / "cabinet.toml"
    path.write_text(
        'validator_port = "/dev/serial/by-id/usb-JCM_iVIZION-if00"\n'
        'printer_port = "sim"\ncasino_name = "Casino Royale"\nmachine_number = "0042"\n'
        'casino_address = "1 Ocean Drive"\nticket_expiry_days = 0\n'
    )
    cfg = load_config(path)
    assert cfg.validator_port.startswith("/dev/serial/by-id/") and not cfg.simulated_devices
    assert (cfg.casino_name, cfg.machine_number, cfg.ticket_expiry_days) == (
        "Casino Royale",
        "0042",
        0,
    )
    with pytest.raises(ConfigError, match="printer_port"):
        load_config(None, printer_port="COM3")
    with pytest.raises(ConfigError, match="ticket_expiry_days"):
        load_config(None, ticket_expiry_days=-1)


def test_ports_that_cannot_be_opened_tilt_the_cabinet_and_a_cash_out_is_a_handpay(tmp_path):
    sims = load_config(None, db_path=str(tmp_path / "uth.db"))
    cab = boot(sims)
    cab.insert_bill(2000)
    cab.close()
    real = sims.model_copy(
        update={
            "validator_port": "/dev/serial/by-id/usb-missing-validator",
            "printer_port": "/dev/serial/by-id/usb-missing-printer",
        }
    )
    cab = boot(real, start=False)
    cab.devices.start()
    m = cab.parts
    tilts = {t.code for t in m.station.snapshot().tilts}
    assert {"device:validator:comm_error", "device:printer:comm_error"} <= tilts
    cab.cash_out()  # the patron's money is never held: no printer, so an attendant pays
    cashout = m.station.snapshot().cashout
    assert cashout is not None and cashout.method == "handpay" and cashout.amount == 2000
    assert m.table.ledger.tickets() == []  # no ticket is written for a printer that is not there
    m.station.execute(OperatorLogin("1111"))
    m.station.execute(HandpayReset())
    assert credits_at(m) == 0 and m.table.ledger.meters["handpay"] == 2000
    cab.close()


def test_the_validator_is_enabled_only_when_the_machine_takes_money(cabinet):
    cab = cabinet()
    m = cab.parts
    assert wait_for(lambda: not cab.vsim.inhibited)
    m.station.execute(SetDoor(True))
    assert wait_for(lambda: cab.vsim.inhibited)
    cab.devices.insert_bill(500)  # refused by the validator itself: returned
    assert wait_for(lambda: cab.vsim.returned) and credits_at(m) == 0
    m.station.execute(SetDoor(False))
    assert wait_for(lambda: not cab.vsim.inhibited)
    cab.insert_bill(500)
    assert credits_at(m) == 500


def test_demo_keys_go_through_the_simulators(cabinet):
    cab = cabinet()
    model = Model(cab.parts.station)
    demo = DemoDevices(model, DemoSimulators(cab.devices, lambda v: ticket_record(cab.parts, v)))
    assert demo.insert_ticket() is False  # nothing printed yet
    assert demo.insert_bill(2000)  # into the ID-003 simulator, credited by the driver
    assert wait_for(lambda: credits_at(cab.parts) == 2000)
    assert wait_for(lambda: cab.vsim.cashbox) and cab.parts.table.ledger.meters["bill.2000"] == 1
    assert model.send(CashOut())
    assert wait_for(lambda: demo.poll() is not None)
    ticket = demo.last_ticket
    assert ticket.barcode == cab.devices.printed_barcodes()[-1] and ticket.amount == 2000
    assert wait_for(lambda: cab.snap().cashout is None and cab.accepting())
    assert demo.insert_ticket()  # T: the printed barcode goes back into the validator
    assert wait_for(lambda: credits_at(cab.parts) == 2000)
    assert ticket_record(cab.parts, ticket.barcode).status == "redeemed"
    model.close()


def test_the_kiosk_command_runs_on_the_simulators(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_HEADLESS", "1")  # the dummy SDL driver, on purpose
    db = tmp_path / "kiosk.db"
    code = uth(["kiosk", "--window", "800x480", "--frames", "5", "--no-sound", "--db", str(db)])
    assert code == 0
    from kiosk.ledger.ledger import Ledger

    ledger = Ledger.open(db, readonly=True)
    kinds = [e.kind for e in ledger.events()]
    ledger.close()
    assert kinds[-1] == "power_down" and "power_up" in kinds


def test_the_kiosk_bill_and_ticket_keys_reach_the_validator(cabinet):
    from kiosk.ui.events import Key
    from kiosk.wiring.cabinet import cabinet_app

    cab = cabinet()
    app = cabinet_app(
        cab.parts,
        (800, 480),
        payout=DemoSimulators(cab.devices, lambda v: ticket_record(cab.parts, v)),
        sound=False,
    )
    try:
        app.go("table")
        app.feed(Key("4", "4"))  # $20 into the simulated validator
        assert wait_for(lambda: (app.step(1 / 60, draw=False), app.model.snap.credits)[1] == 2000)
        app.feed(Key("t", "t"))  # no ticket printed yet: nothing happens
        assert credits_at(cab.parts) == 2000 and not cab.vsim.queue
    finally:
        app.model.close()
