"""A tampered station escrows notes that no validator reads (5,000.00, 7.77) over the
real TLS link, as a bare authenticated WebSocket (see test_table_escrow_forgery): the
host refuses every note outside the table's denomination table (``accepted_bills``),
credits nothing and stops that station after repeated forgeries; the honest station
plays on."""

from __future__ import annotations

import asyncio

from test_table_escrow_forgery import _forger, _note, _report, floor

from kiosk.service.money_in import FORGERY_LIMIT, FORGERY_TILT

__all__ = ["floor"]  # the fixture, imported


def test_notes_outside_the_denomination_table_are_refused_and_tilt_the_station(floor):
    table, port, pairing, honest = floor
    forged = [500_000, 777, 500_000, 1]
    assert FORGERY_LIMIT <= len(forged)

    async def scenario() -> None:
        me = await _forger(port, pairing)
        await me.until(lambda: bool(me.bodies), "the first snapshot")
        for i, cents in enumerate(forged[:FORGERY_LIMIT]):
            txn = f"s1-f{i}"
            await me.send(_note(cents, txn))
            await me.until(lambda t=txn: bool(me.answers(t)), "the escrow's answer")
            (ack,) = me.answers(txn)
            assert not ack.accepted and "denomination" in ack.reason, ack
        # and claims the last one stacked: no escrow of it, nothing credited
        await me.send(_report(f"s1-f{FORGERY_LIMIT - 1}"))
        await me.until(lambda: len(me.bodies) > 1, "an answer")

    asyncio.run(scenario())
    assert table.credits(1) == 0
    ledger = table.ledger
    assert ledger is not None
    assert [e.kind for e in ledger.events(("escrow_accepted", "bill_in"), station=1)] == []
    assert len(ledger.events(("note_refused",), station=1)) == FORGERY_LIMIT
    assert FORGERY_TILT in table.tilt_texts(1)
    assert table.credits(1) == 0
    assert table.tilt_texts(2) == {}
    ack = honest.escrow_note(2_000, "s2-ok", 10)  # station 2 is unaffected
    assert ack is not None and ack.accepted
