"""A rollback of the whole ledger folder: the attacker copies the database and its
``-wal``, lets the patron redeem an $84 ticket, and puts the copy back.  With the anchor
and the install marker on another medium (an installed cabinet) the copy is seen to be
behind its anchor; an installed cabinet whose anchor shares the database's filesystem
refuses to load or start, with the fix in words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.cabinet import credits, insert_note
from support.signed_paytables import signed

from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.cli import main as uth
from kiosk.config import CabinetConfig, ConfigError, load_config
from kiosk.game.commands import CashOut
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.startup import open_or_create
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.lone_cabinet import LoneCabinet

TICKET = 8400  # $84

#: The cabinet's people (an installed cabinet without any is tilted).
OPERATORS = "".join(
    f'[[operators]]\nname = "{n}"\nrole = "{r}"\npin = "{p}"\n'
    for n, r, p in (("Ann Smith", "attendant", "246810"), ("Cy Young", "manager", "975310"))
)


def InstantPrinter() -> PaperlessPrinter:
    """A ticket printer at the cabinet's station that reports each ticket printed at once."""
    return PaperlessPrinter()


def installed_config(tmp_path: Path, witness: Path) -> CabinetConfig:
    text = (
        "installed = true\n"
        f'db_path = "{tmp_path / "var" / "uth.db"}"\n'
        f'ledger_key_path = "{tmp_path / "key" / "ledger.key"}"\n'
        f'anchor_path = "{witness / "uth.anchor"}"\n'
        f'install_marker = "{witness / "uth.install"}"\n' + OPERATORS
    )
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return load_config(path)


def opened(config: CabinetConfig, printer: PaperlessPrinter | None = None) -> LoneCabinet:
    cabinet = LoneCabinet.open(config, rng=SeededRandomSource(5))
    if printer is not None:
        printer.attach(cabinet.link)
    return cabinet


def ledger_tilt(m: LoneCabinet) -> str:
    return next((t.message for t in m.station.snapshot().tilts if t.code == "ledger"), "")


def test_a_rollback_of_the_whole_folder_is_seen_by_the_anchor_on_another_medium(
    tmp_path, other_medium, capsys, monkeypatch
):
    config = installed_config(tmp_path, other_medium)
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    signed(CabinetKey.create(config.key_path), PAYTABLE_DIR / "standard.toml")  # the installer
    printer = InstantPrinter()
    m = opened(config, printer)
    assert ledger_tilt(m) == ""
    for bill in (5000, 2000, 1000, 100, 100, 100, 100):
        insert_note(m, bill)
    m.station.execute(CashOut())
    printer.serve()  # the service's print order, printed
    (number,) = printer.numbers
    assert m.table.ledger.ticket(number).amount == TICKET and credits(m) == 0
    m.close()
    folder = config.db_path.parent
    saved = tmp_path / "attacker"
    shutil.copytree(folder, saved)  # the database, its -wal: the whole folder
    m = opened(config)
    assert m.notes.ticket_escrow(number, "tx1") == TICKET
    m.notes.ticket_credited(number, TICKET, "tx1")
    assert credits(m) == TICKET
    m.close()
    shutil.rmtree(folder)
    shutil.copytree(saved, folder)  # the copy put back: the ticket is unredeemed in it
    m = opened(config)
    try:
        assert "behind its anchor" in ledger_tilt(m)
        assert m.table.ledger is None  # nothing can be redeemed again
    finally:
        m.close()
    code = uth(["audit", "verify", "--config", str(tmp_path / "cabinet.toml")])
    assert code == 1 and "behind its anchor" in capsys.readouterr().out


def test_an_installed_cabinet_with_its_anchor_beside_the_database_is_refused_at_load(tmp_path):
    """The layout the installer made before: no anchor_path, so the anchor and the
    marker sit beside the database."""
    path = tmp_path / "cabinet.toml"
    path.write_text(f'installed = true\ndb_path = "{tmp_path / "uth.db"}"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.field == "anchor_path"
    assert "same filesystem" in err.value.reason and "another medium" in err.value.reason


def test_an_installed_cabinet_is_never_in_demo_mode(tmp_path, other_medium):
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'demo = true\ninstalled = true\ndb_path = "{tmp_path / "uth.db"}"\n'
        f'anchor_path = "{other_medium / "a"}"\ninstall_marker = "{other_medium / "m"}"\n'
    )
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.field == "installed"


def test_power_up_refuses_a_witness_on_the_database_filesystem(tmp_path, other_medium):
    """The start-up check: a witness medium that is not mounted leaves its folder (the
    mount point) on the database's filesystem; the cabinet refuses to start, names both
    devices, and creates nothing."""
    db, witness = tmp_path / "var" / "uth.db", tmp_path / "boot"
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    witness.mkdir()
    with pytest.raises(LedgerError, match="anchor_path: the witness .* the same filesystem"):
        open_or_create(
            db, witness / "uth.install", paytable=lambda: table,
            anchor_path=witness / "uth.anchor", installed=True,
        )  # fmt: skip
    assert not db.exists() and not (witness / "uth.anchor").exists()
    ledger, created = open_or_create(
        db, other_medium / "uth.install", paytable=lambda: table,
        anchor_path=other_medium / "uth.anchor", installed=True,
    )  # fmt: skip
    assert created
    ledger.close()
