"""Each exception reaches the host once: sent again until the host acknowledges it, never
again once it has, across power cuts (see also ``test_sas_power_cuts.py``, the cabinet in a
process of its own killed at every step)."""

from __future__ import annotations

from support.cabinet import insert_note

from kiosk.game.commands import SetDoor
from tests.support.sas_rig import start_rig


def _cut(rig) -> None:  # noqa: ANN001 - a Rig
    """The power goes: the threads stop, nothing is closed in order or flushed."""
    rig.service.responder.stop()
    rig.service.link._stop.set()
    rig.service.link._thread.join()
    rig.machine.table.ledger.close()
    rig.pair.close()


def test_an_exception_is_sent_again_until_the_host_acknowledges_it(rig):
    insert_note(rig.machine, 10_000)
    rig.play_round()
    rig.settle()
    h = rig.host
    got = [h.general_poll(1).code for _ in range(8)]  # no other poll between: no ACK
    assert got == [0x4F] * 8
    h.acknowledge()
    assert h.general_poll(1).code == 0x7E
    h.acknowledge()
    assert rig.exceptions() == [0x7F]


def test_an_acknowledged_exception_is_not_sent_again_after_a_power_cut(tmp_path):
    rig = start_rig(tmp_path / "uth.db")
    rig.machine.station.execute(SetDoor(True))
    rig.machine.station.execute(SetDoor(False))
    rig.settle()
    assert rig.host.general_poll(1).code == 0x11
    assert rig.host.long_poll(1, 0x1A).kind == "data"  # the implied ACK, answered
    _cut(rig)  # before the link's next pass
    again = start_rig(tmp_path / "uth.db")
    try:
        assert again.exceptions() == [0x12, 0x18, 0x17]
    finally:
        again.stop()
