"""A storm of random frames never stops the link nor moves money (``bench/sas.py``
sends 10^5)."""

from __future__ import annotations

import time

from kiosk.ledger.meters import balance
from tests.support.sas_rig import storm, wait_for


def test_random_frames_never_crash_the_link_nor_move_money(rig):
    rig.play_round()
    rig.settle()
    before = rig.machine.table.read(lambda a: a.meters())
    sent = storm(rig.pair.line, seed=25, seconds=2.5)
    time.sleep(0.1)
    rig.pair.line.receive(0.05)
    assert sent > 200
    responder = rig.service.responder
    assert responder._thread is not None and responder._thread.is_alive()
    assert rig.service.link._thread is not None and rig.service.link._thread.is_alive()
    assert rig.service.link.errors == 0
    stats = responder.stats
    assert stats.bad_crc + stats.truncated + stats.ignored + stats.others > 100
    rig.settle()
    assert rig.machine.table.read(lambda a: a.meters()) == before
    report = rig.machine.table.read(lambda a: a.verify(False))
    assert report is not None and report.ok and balance(report.meters)["balanced"]
    # and the link still answers, from the ledger as it is
    rig.host.acknowledge()
    assert wait_for(lambda: rig.host.long_poll(1, 0x1A).kind == "data")
