"""The table host's pairing lock lives in its ledger: wrong pairing codes are chained,
MAC'd rows, so deleting or editing any file of the host's pairing folder (the old
``pairing.json`` among them) neither reopens pairing nor resets the count; only a
technician's PIN at the host reopens it, recorded with the person; an edited row stops
the table (the ``ledger`` tilt) and pairing stays locked.  A real :class:`Table` on a
SQLite file, its :class:`HostPairing` and the link's own pairing proof."""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from pathlib import Path

import pytest
from support.operator_screens import PEOPLE, cabinet_config

from engine.rng import SeededRandomSource
from kiosk.game.errors import NotAuthorised
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS
from kiosk.link import auth
from kiosk.link.errors import PairingRefused
from kiosk.link.pairing import MAX_PAIRING_MISSES, HostPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.tablehost.pairing_book import LedgerMissBook

ANN, TED, CY = PEOPLE


def open_host(config, folder: Path, *, stop: bool = False) -> tuple[Table, HostPairing]:
    opener = Table.open_or_stop if stop else Table.open
    table = opener(config, (1, 2), rng=SeededRandomSource(5), timing=TableTiming(60, 60))
    return table, HostPairing(folder, LedgerMissBook(table, "stations"))


def guess(pairing: HostPairing, code: str = "00000000") -> str:
    """One pairing attempt with ``code`` (a window opened when none is); the refusal."""
    if not pairing.window_open:
        pairing.open_window()
    nonce, client_nonce = secrets.token_bytes(16), secrets.token_bytes(16)
    proof = auth.pairing_proof(code, nonce, client_nonce, pairing.fingerprint, "thief", 1)
    with pytest.raises(PairingRefused) as refused:
        pairing.grant("thief", 1, nonce, client_nonce, proof)
    return refused.value.reason


def lock_pairing(pairing: HostPairing) -> None:
    reasons = [guess(pairing) for _ in range(MAX_PAIRING_MISSES)]
    assert reasons == ["bad-code"] * MAX_PAIRING_MISSES
    assert pairing.locked
    with pytest.raises(PairingRefused) as refused:
        pairing.open_window()
    assert refused.value.reason == "locked"


def test_no_file_of_the_pairing_folder_reopens_pairing_only_a_technicians_pin(tmp_path):
    config = cabinet_config(tmp_path)
    folder = tmp_path / "link-host"
    table, pairing = open_host(config, folder)
    lock_pairing(pairing)
    table.close()
    # the host switched off: every file of its pairing folder deleted, a zero count put back
    shutil.rmtree(folder)
    folder.mkdir()
    (folder / "pairing.json").write_text(json.dumps({"misses": 0, "limit": MAX_PAIRING_MISSES}))
    table, pairing = open_host(config, folder)
    assert pairing.misses == MAX_PAIRING_MISSES and pairing.locked
    with pytest.raises(PairingRefused):
        pairing.open_window()
    book = pairing.book
    assert isinstance(book, LedgerMissBook)
    with pytest.raises(NotAuthorised) as wrong:
        book.reopen("111111")
    assert wrong.value.code == "wrong_pin"
    with pytest.raises(NotAuthorised) as low:
        book.reopen(ANN[2])  # an attendant's
    assert low.value.code == "role_required"
    assert pairing.locked
    assert book.reopen(TED[2]) == TED[0]
    assert not pairing.locked
    pairing.open_window()
    (reopened,) = table.ledger.events(("pairing_reopened",))
    assert reopened.detail["operator"] == TED[0] and reopened.detail["role"] == "technician"
    assert reopened.detail["misses"] == MAX_PAIRING_MISSES
    assert len(table.ledger.events(("pairing_code_wrong",))) == MAX_PAIRING_MISSES
    assert len(table.ledger.events(("pairing_locked",))) == 1
    failed = table.ledger.events(("operator_login_failed",))
    assert [e.detail["purpose"] for e in failed] == ["reopen_pairing"]  # the wrong PIN, counted
    table.close()


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE events SET kind = 'pairing_reopened' WHERE kind = 'pairing_locked'",
        "DELETE FROM events WHERE kind IN ('pairing_code_wrong', 'pairing_locked')",
    ],
    ids=["locked-row-made-a-reopening", "wrong-codes-deleted"],
)
def test_an_edited_pairing_row_tilts_the_table_and_pairing_stays_locked(tmp_path, edit):
    config = cabinet_config(tmp_path)
    folder = tmp_path / "link-host"
    table, pairing = open_host(config, folder)
    lock_pairing(pairing)
    table.close()
    conn = sqlite3.connect(config.db_path)
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute(edit)
    conn.commit()
    conn.close()
    table, pairing = open_host(config, folder, stop=True)
    assert LEDGER_TILT in table.tilt_texts(1)
    assert pairing.locked
    with pytest.raises(PairingRefused) as refused:
        pairing.open_window()
    assert refused.value.reason == "locked"
