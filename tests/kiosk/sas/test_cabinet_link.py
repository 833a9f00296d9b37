"""A lone cabinet on the SAS line: its identity, meters and exceptions, answered at its
address over the pty transport to the project's host."""

from __future__ import annotations

import json
import time

import pytest
from support.cabinet import insert_note

from devices.sas.frames import with_length
from devices.sas.host import decode
from kiosk.cli import main
from kiosk.game.commands import (
    CashOut,
    Deal,
    Decide,
    OperatorLogin,
    OperatorLogout,
    PlaceChip,
    SetDoor,
    SetLimits,
)
from kiosk.game.errors import PlayDisabled
from kiosk.game.paytables.rtp_record import rtp_record
from kiosk.integrity import program_crc16
from kiosk.sas.exceptions import HOST_SHUTDOWN_TILT
from tests.support.sas_rig import start_rig, wait_for


def _audit_meters(capsys, db) -> dict:
    capsys.readouterr()
    assert main(["audit", "meters", "--db", str(db), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["meters"]


def test_identity_version_features_and_clock(rig):
    h = rig.host
    info = decode(0x1F, h.long_poll(1, 0x1F).answer)
    assert info["game_id"] == "UT" and info["denomination"] == 1 and info["max_bet"] == 255
    assert decode(0x54, h.long_poll(1, 0x54).answer) == {"version": "602", "serial": "0001"}
    features = decode(0xA0, h.long_poll(1, 0xA0, b"\x00\x00").answer)["features"]
    assert features[0] & 0x06 == 0  # no legacy bonus, no AFT bonus
    assert features[1] & 0x40 == 0  # no AFT
    # 7F sets the machine's clock for the link; 7E reads it back
    assert h.long_poll(1, 0x7F, bytes.fromhex("01022030101112")).kind == "ack"
    assert decode(0x7E, h.long_poll(1, 0x7E).answer) == {"date": "01022030", "time": "101112"}


def test_base_percent_is_the_paytables_proven_record_on_a_cold_cache(rig):
    """1F's base % (hundredths of a percent, 4 digits) is the record the Pays page reads,
    on a cabinet whose PAR cache is empty (the test's own)."""
    record = rtp_record(rig.machine.station.snapshot().paytable, rig.machine.table.ledger.key)
    info = decode(0x1F, rig.host.long_poll(1, 0x1F).answer)
    assert info["base_pct"] == f"{record.base_pct:04d}" == "9947"


def test_meters_equal_the_ledger_and_uth_audit_meters(rig, capsys):
    for _ in range(3):
        rig.play_round()
    insert_note(rig.machine, 2000)
    rig.settle()
    h, ledger = rig.host, rig.machine.table.read(lambda a: a.meters())
    audit = _audit_meters(capsys, rig.config.db_path)
    for meters in (ledger, audit):
        m0f = decode(0x0F, h.long_poll(1, 0x0F).answer)
        assert m0f["coin_in"] == meters["coin_in"] > 0
        assert m0f["coin_out"] == meters["coin_out"]
        assert m0f["games_played"] == meters["games_played"] == 3
        assert m0f["drop"] == meters["bills_in"] + meters["tickets_in"] == 12_000
        assert m0f["cancelled_credits"] == meters["handpay"] + meters["tickets_out"]
        assert decode(0x1A, h.long_poll(1, 0x1A).answer)["credits"] == meters["credits"]
        m1c = decode(0x1C, h.long_poll(1, 0x1C).answer)
        assert m1c["games_won"] == meters["games_won"]
    sel = h.send_poll(
        1, with_length(1, 0x2F, bytes((0, 0, 0x00, 0x01, 0x05, 0x06, 0x07, 0x0C, 0x44, 0x47, 0x99)))
    )
    got = decode(0x2F, sel.answer)["meters"]
    assert got == {0x00: ledger["coin_in"], 0x01: ledger["coin_out"], 0x05: 3,
                   0x06: ledger["games_won"], 0x07: ledger["games_lost"], 0x0C: ledger["credits"],
                   0x44: 1, 0x47: 1}  # fmt: skip
    ext = h.send_poll(1, with_length(1, 0x6F, bytes((0, 0, 0x00, 0x00, 0x0C, 0x00, 0xFF, 0x00))))
    assert decode(0x6F, ext.answer)["meters"] == {
        0x00: ledger["coin_in"],
        0x0C: ledger["credits"],
        0xFF: 0,
    }


def test_each_exception_is_raised_by_its_event(rig):
    m = rig.machine
    assert rig.exceptions() == []
    m.station.execute(OperatorLogin("2222"))
    m.station.execute(SetDoor(True))
    m.station.execute(SetLimits(ante_min=m.station.snapshot().limits.ante_min + 100))
    m.station.execute(SetDoor(False))
    m.station.execute(OperatorLogout())
    insert_note(m, 10_000)
    rig.play_round(ante=1000)
    assert rig.exceptions() == [0x11, 0x3C, 0x12, 0x4F, 0x7E, 0x7F]


def test_implied_nack_repeats_and_implied_ack_moves_on(rig):
    rig.machine.station.execute(SetDoor(True))
    rig.settle()
    h = rig.host
    assert h.general_poll(1).code == 0x11
    assert h.general_poll(1).code == 0x11  # the same poll again: NACK, the same answer
    assert rig.service.responder.stats.repeats == 1
    h.long_poll(1, 0x1A)  # another poll to this machine: the implied ACK
    assert h.general_poll(1).code == 0x00


def test_a_power_cut_loses_no_exception_and_raises_power_lost(tmp_path):
    rig = start_rig(tmp_path / "uth.db")
    rig.machine.station.execute(SetDoor(True))
    rig.machine.station.execute(SetDoor(False))
    rig.settle()
    assert rig.host.general_poll(1).code == 0x11  # sent, never acknowledged
    # the power goes: nothing is closed in order (no power down, no acknowledgement)
    rig.service.responder.stop()
    rig.service.link._stop.set()
    rig.service.link._thread.join()
    rig.machine.table.ledger.close()
    rig.pair.close()
    again = start_rig(tmp_path / "uth.db")
    try:
        assert again.exceptions() == [0x11, 0x12, 0x18, 0x17]
    finally:
        again.stop()


def test_the_queue_overflows_to_exception_70_and_keeps_the_newest(rig):
    for _ in range(25):
        rig.machine.station.execute(SetDoor(True))
        rig.machine.station.execute(SetDoor(False))
    got = rig.exceptions(limit=80)
    assert got[0] == 0x70
    assert len(got) == 1 + 32 and got[-2:] == [0x11, 0x12]


def test_bad_crc_truncated_frames_and_other_addresses_are_not_answered(rig):
    h, stats = rig.host, rig.service.responder.stats
    h.retries, h.answer_timeout = 0, 0.1
    rig.machine.station.execute(SetDoor(True))
    rig.settle()
    before = rig.machine.table.read(lambda a: a.meters())
    bad = bytearray(b"\x01\x01" + b"\x00\x00")
    ex = h.send_poll(1, bytes(bad))
    assert ex.kind == "none" and stats.bad_crc >= 1
    assert not any(t.code == HOST_SHUTDOWN_TILT for t in rig.machine.station.snapshot().tilts)
    rig.pair.line.send(b"\x01\x2f\x05\x00", wakeup_first=True)  # cut short: the host vanished
    assert wait_for(lambda: stats.truncated >= 1)
    assert h.long_poll(2, 0x1A).kind == "none"  # another machine's address
    assert h.general_poll(1).code == 0x11  # nothing was lost meanwhile
    assert rig.machine.table.read(lambda a: a.meters()) == before


def test_shutdown_and_startup(rig):
    h, m = rig.host, rig.machine
    insert_note(m, 5000)
    assert h.long_poll(1, 0x01).kind == "ack"
    assert wait_for(lambda: any(t.code == HOST_SHUTDOWN_TILT for t in m.station.snapshot().tilts))
    with pytest.raises(PlayDisabled):
        m.station.execute(PlaceChip("ante", 500))
    assert h.long_poll(1, 0x02).kind == "ack"  # the system lets play resume: no attendant
    assert wait_for(
        lambda: not any(t.code == HOST_SHUTDOWN_TILT for t in m.station.snapshot().tilts)
    )
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())  # a round in progress when the system stops play finishes
    assert h.long_poll(1, 0x01).kind == "ack"
    assert wait_for(lambda: HOST_SHUTDOWN_TILT in m.table.station_tilts(1))
    assert (
        not m.station.snapshot().tilts and m.station.snapshot().legal
    )  # not shown stopped mid-round
    while m.station.snapshot().legal:
        m.station.execute(Decide(m.station.snapshot().legal[-1]))
    assert any(t.code == HOST_SHUTDOWN_TILT for t in m.station.snapshot().tilts)  # now it is
    with pytest.raises(PlayDisabled):
        m.station.execute(PlaceChip("ante", 500))
    assert m.station.snapshot().cashout is None
    m.station.execute(CashOut())  # cash-out still allowed
    assert m.station.snapshot().cashout.amount > 0
    events = [
        e
        for e in m.table.ledger.events(("tilt", "tilt_cleared"))
        if e.detail["code"] == HOST_SHUTDOWN_TILT
    ]
    assert [e.kind for e in events] == ["tilt", "tilt_cleared", "tilt"]


def test_legacy_bonus_and_aft_are_refused_cleanly(rig):
    h, stats = rig.host, rig.service.responder.stats
    h.retries, h.answer_timeout = 0, 0.1
    for cmd, data in ((0x8A, b"\x00\x00\x10\x00\x00"), (0x74, b"\x00\x00\x00\x00")):
        assert h.long_poll(1, cmd, data).kind == "none"
    assert h.send_poll(1, with_length(1, 0x72, bytes(20))).kind == "none"
    assert stats.ignored >= 3
    assert h.general_poll(1).kind == "exception"  # the link goes on


def test_rom_signature_is_computed_off_the_poll_thread(tmp_path):
    rig = start_rig(tmp_path / "uth.db", signer=lambda seed: time.sleep(1.0) or seed ^ 0x5A5A)
    try:
        h = rig.host
        h.retries, h.answer_timeout = 0, 0.05
        assert h.long_poll(1, 0x21, b"\x34\x12").kind == "none"  # nothing said now
        polls = 0
        while True:
            ex = h.general_poll(1)
            polls += 1
            if ex.kind == "data":
                break
            assert ex.code == 0x00 and ex.start_s is not None
        assert polls > 3  # polls kept being answered meanwhile
        assert decode(0x21, ex.answer)["signature"] == 0x1234 ^ 0x5A5A
        h.acknowledge()
        assert h.general_poll(1).code == 0x00
    finally:
        rig.stop()


@pytest.mark.heavy
def test_rom_signature_is_the_programs_crc(tmp_path):
    from kiosk.sas.link import program_signature

    assert program_signature(0xABCD) == program_crc16(0xABCD)


def test_chirps_when_nobody_polls(tmp_path):
    rig = start_rig(tmp_path / "uth.db", chirp_after=0.2)
    try:
        got = []
        assert wait_for(lambda: got.extend(rig.pair.line.receive(0.05)) or len(got) >= 2, 3)
        assert got[:2] == [(0x01, True), (0x01, True)]
        assert rig.host.general_poll(1).kind == "exception"
    finally:
        rig.stop()


def test_ticket_out_raises_3d_and_4d_reads_it(tmp_path):
    from devices.sas.host import SasHost
    from devices.sas.line import PtyLine, PtyPair
    from kiosk.config import load_config
    from kiosk.sas.game_port import TablePort
    from kiosk.sas.service import SasService
    from tests.support.tito_helpers import boot

    cab = boot(load_config(db_path=tmp_path / "uth.db"))
    pair = PtyPair()
    svc = SasService(
        TablePort(cab.parts.table),
        tmp_path / "uth.db",
        lambda: PtyLine.open(pair.port),
        1,
        signer=lambda s: 0,
    )
    svc.start()
    try:
        host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
        insert_note(cab.parts, 2000)
        cab.cash_out()
        ticket = cab.parts.table.ledger.events(("ticket_out",))[-1]
        svc.link.shared.wake.set()
        assert wait_for(lambda: svc.link.shared.queue.depth(1) >= 2)  # the note, the ticket
        codes = []
        for _ in range(10):
            c = host.general_poll(1).code
            host.acknowledge()
            if not c:
                break
            codes.append(c)
        assert 0x3D in codes
        rec = decode(0x4D, host.long_poll(1, 0x4D, b"\x00").answer)
        assert rec["validation"] == ticket.detail["reference"][2:]
        assert rec["amount"] == 2000 and rec["system_id"] == int(ticket.detail["reference"][:2])
        host.long_poll(1, 0x1A)  # ACK: the record is read
        assert decode(0x4D, host.long_poll(1, 0x4D, b"\x00").answer)["amount"] == 0
        assert (
            decode(0x4D, host.long_poll(1, 0x4D, bytes((rec["index"],))).answer)["amount"] == 2000
        )
    finally:
        svc.stop()
        cab.close()
        pair.close()
