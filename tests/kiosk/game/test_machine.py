"""The controller: credits, bets, the round, payouts, tilts, operators, recovery."""

from __future__ import annotations

import sqlite3
import types
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.cabinet import cash_out, credits, insert_note, opened, redeem_ticket
from support.fast_devices import never, wait_for  # noqa: E402

from devices.tcl import PrintOutcome
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR
from engine.uth.round import Action, Phase
from kiosk.config import load_config
from kiosk.game.commands import (
    ClearBets,
    ClearTilt,
    Deal,
    Decide,
    HandpayReset,
    InsertCredits,
    OperatorLogin,
    OperatorLogout,
    PlaceChip,
    RamClear,
    RamClearRequest,
    RamClearWitness,
    RepeatBets,
    SetDoor,
    SetLimits,
    SetPaytable,
)
from kiosk.game.errors import (
    BetOutOfLimits,
    ConfigurationError,
    InsufficientCredits,
    NotAuthorised,
    PlayDisabled,
    WrongState,
)
from kiosk.game.rules import settings
from kiosk.game.snapshot import MachinePhase, PayoutRequest
from kiosk.game.vocabulary import JACKPOT_TILT, LEDGER_TILT, SEAT
from kiosk.ledger.ledger import Ledger, balance
from kiosk.service.table import Table
from kiosk.service.timing import CABINET_TIMING
from kiosk.station.credits import insert_credits
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.lone_cabinet import LoneCabinet

OTHER_TABLE = PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml"


@pytest.fixture
def config(tmp_path: Path):
    return load_config(db_path=tmp_path / "uth.db")


@pytest.fixture
def machine(config):
    m = opened(config, rng=SeededRandomSource(7))
    yield m
    m.close()


def bill_stacked(m: LoneCabinet, denomination_cents: int, transaction_id: str) -> bool:
    """VEND VALID for ``transaction_id``: True when credited now, False when it was
    credited already or matches no accepted escrow."""
    before = credits(m)
    m.notes.bill_credited(denomination_cents, transaction_id)
    return credits(m) > before


def funded(m: LoneCabinet, cents: int = 10000) -> LoneCabinet:
    insert_note(m, cents)
    return m


def play_out(m: LoneCabinet, choose=lambda legal: legal[-1]) -> None:
    while m.station.snapshot().phase == MachinePhase.IN_ROUND:
        m.station.execute(Decide(choose(m.station.snapshot().legal)))


def verified(m: LoneCabinet) -> None:
    report = m.table.ledger.verify(replay=True)
    assert report.ok, report.problem
    assert balance(report.meters)["balanced"]


def test_first_run_comes_up_idle_with_the_configured_paytable(machine, config):
    s = machine.station.snapshot()
    assert s.phase == MachinePhase.IDLE and s.credits == 0 and s.tilts == () and s.playable
    assert s.paytable.name == "Standard" and s.limits == s.paytable.limits
    assert config.marker_path.exists()
    kinds = [e.kind for e in machine.table.ledger.events()]
    assert kinds == ["ledger_created", "power_up"]


def test_a_round_from_chips_to_settlement(machine):
    funded(machine)
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(PlaceChip("trips", 500))
    s = machine.station.snapshot()
    assert (s.credits, s.available, s.bet_ante, s.bet_trips, s.phase) == (
        10000,
        8500,
        1000,
        500,
        "betting",
    )
    machine.station.execute(Deal())
    s = machine.station.snapshot()
    assert s.phase == MachinePhase.IN_ROUND and s.game_phase == Phase.PREFLOP
    assert s.credits == 10000 - 2500 and len(s.hole) == 2 and s.board == () and s.dealer == ()
    assert s.legal == (Action.PLAY_4X, Action.PLAY_3X, Action.CHECK)
    assert (
        s.commitment == machine.table.recall(station=SEAT, last=1)[0].commitment
        and machine.table.recall(station=SEAT, last=1)[0].deck == ()
    )
    machine.station.execute(Decide(Action.CHECK))
    assert (
        machine.station.snapshot().game_phase == Phase.FLOP
        and len(machine.station.snapshot().board) == 3
    )
    machine.station.execute(Decide(Action.PLAY_2X))
    s = machine.station.snapshot()
    assert s.phase == MachinePhase.RESULT and s.last_result is not None and len(s.dealer) == 2
    seat = s.last_result.seat(1)
    assert s.credits == 10000 - seat.staked + seat.returned
    rec = machine.table.recall(station=SEAT, last=1)[0]
    assert rec.state == "settled" and rec.commitment_ok() and rec.play == 2000
    assert [(d.phase, d.action) for d in rec.decisions] == [
        ("preflop", "check"),
        ("flop", "play_2x"),
    ]
    assert rec.credits_before == 10000 and rec.credits_after == s.credits
    assert rec.player_hole == s.hole and rec.dealer_hole == s.dealer and rec.board == s.board
    verified(machine)


def test_limits_and_credits_are_checked_before_anything_changes(machine):
    with pytest.raises(InsufficientCredits):
        machine.station.execute(PlaceChip("ante", 500))
    funded(machine, 2000)
    with pytest.raises(BetOutOfLimits, match="steps"):
        machine.station.execute(PlaceChip("ante", 550))
    with pytest.raises(BetOutOfLimits, match="maximum"):
        machine.station.execute(PlaceChip("trips", 30000))
    with pytest.raises(InsufficientCredits, match=r"\$21.00 needed"):
        machine.station.execute(PlaceChip("ante", 700))
    assert machine.station.snapshot().message.startswith("$21.00 needed")
    machine.station.execute(PlaceChip("ante", 100))
    with pytest.raises(BetOutOfLimits, match="minimum"):
        machine.station.execute(Deal())
    with pytest.raises(WrongState):
        machine.station.execute(Decide(Action.CHECK))
    s = machine.station.snapshot()
    assert (s.bet_ante, s.credits, s.round_id) == (100, 2000, None)
    assert [e.kind for e in machine.table.ledger.events()][-1] == "bill_in"


def test_unaffordable_plays_are_not_offered(machine):
    funded(machine, 2000)
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(Deal())  # 1000 staked, 1000 left: 1x and 2x affordable, not 3x / 4x
    assert machine.station.snapshot().legal == (Action.CHECK,)
    with pytest.raises(InsufficientCredits):
        machine.station.execute(Decide(Action.PLAY_4X))
    machine.station.execute(Decide(Action.CHECK))
    assert machine.station.snapshot().legal == (Action.PLAY_2X, Action.CHECK)


def test_repeat_and_clear_bets(machine):
    funded(machine)
    with pytest.raises(WrongState, match="no previous bet"):
        machine.station.execute(RepeatBets())
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(PlaceChip("trips", 100))
    machine.station.execute(Deal())
    with pytest.raises(WrongState):
        machine.station.execute(PlaceChip("ante", 500))
    play_out(machine)
    machine.station.execute(RepeatBets())
    assert (machine.station.snapshot().bet_ante, machine.station.snapshot().bet_trips) == (500, 100)
    machine.station.execute(ClearBets())
    assert (
        machine.station.snapshot().bet_ante == 0
        and machine.station.snapshot().phase == MachinePhase.BETTING
    )


def test_ledger_is_written_before_the_change_takes_effect(machine, monkeypatch):
    funded(machine)
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(Deal())
    before = machine.station.snapshot()

    def broken(*a, **k):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(machine.table.ledger, "update_rounds", broken)
    with pytest.raises(PlayDisabled, match="ledger write failed"):
        machine.station.execute(Decide(Action.CHECK))
    after = machine.station.snapshot()
    assert (after.game_phase, after.board, after.credits) == (
        before.game_phase,
        before.board,
        before.credits,
    )
    assert any(t.code == LEDGER_TILT for t in after.tilts)
    with pytest.raises(PlayDisabled):
        machine.station.execute(Decide(Action.CHECK))


def test_power_failure_mid_round_resumes_exactly(config):
    m = opened(config, rng=SeededRandomSource(3))
    funded(m)
    m.station.execute(PlaceChip("ante", 1000))
    m.station.execute(PlaceChip("trips", 200))
    m.station.execute(Deal())
    m.station.execute(Decide(Action.CHECK))
    s1 = m.station.snapshot()
    m.table.ledger.close()  # the power goes: no power_down, no cleanup
    m2 = opened(config, rng=SeededRandomSource(99))
    s2 = m2.station.snapshot()
    for field in (
        "phase",
        "game_phase",
        "round_id",
        "hole",
        "board",
        "ante",
        "trips",
        "play",
        "credits",
        "legal",
        "commitment",
    ):
        assert getattr(s2, field) == getattr(s1, field), field
    assert "power failure" in s2.message
    resumed = m2.table.ledger.events(("round_resumed",))
    assert [e.round_id for e in resumed] == [s1.round_id]
    power = m2.table.ledger.events(("power_up",))[-1]
    assert power.detail["clean_shutdown"] is False
    play_out(m2)
    assert (
        m2.table.recall(station=SEAT, last=1)[0].state == "settled"
        and m2.table.ledger.counts()[0] == 1
    )
    verified(m2)
    m2.close()
    m3 = opened(config)
    assert m3.table.ledger.events(("power_up",))[-1].detail["clean_shutdown"] is True
    assert m3.station.snapshot().last_result == m2.station.snapshot().last_result
    m3.close()


def test_cash_out_by_handpay(machine):
    funded(machine, 5000)
    with pytest.raises(NotAuthorised):
        machine.station.execute(HandpayReset())
    req = cash_out(machine)
    assert isinstance(req, PayoutRequest) and req.amount == 5000 and req.method == "handpay"
    s = machine.station.snapshot()
    assert s.phase == MachinePhase.CASHOUT and s.credits == 0 and s.cashout == req
    with pytest.raises(WrongState):
        insert_note(machine, 500)
    machine.station.execute(OperatorLogin("1111"))
    machine.station.execute(HandpayReset())
    machine.station.execute(OperatorLogout())
    m = machine.table.ledger.meters
    assert (m["handpay"], m["handpay_count"], m["credits"]) == (5000, 1, 0)
    assert machine.station.snapshot().phase == MachinePhase.IDLE
    with pytest.raises(InsufficientCredits):
        cash_out(machine)
    verified(machine)


def TicketPayout(fail: bool = False) -> PaperlessPrinter:
    """A printer at the cabinet's station: prints the ticket the service ordered, then
    reports it (or that it did not print)."""
    return PaperlessPrinter(PrintOutcome.NOT_PRINTED if fail else PrintOutcome.PRINTED, "paper out")


def test_tickets_go_through_the_stations_printer(config):
    printer = TicketPayout()
    m = opened(config, printer=printer)
    funded(m, 2000)
    cash_out(m, printer)
    assert (
        m.table.ledger.meters["tickets_out"],
        m.table.ledger.meters["tickets_out_count"],
        credits(m),
    ) == (
        2000,
        1,
        0,
    )
    printer = TicketPayout(fail=True).attach(m.link)
    funded(m, 1000)
    cash_out(m, printer)
    assert credits(m) == 1000 and m.table.ledger.meters["cashout_failed"] == 1000
    assert m.station.snapshot().cashout is None
    verified(m)
    m.close()


def test_tickets_printed_here_redeem_once(config):
    printer = TicketPayout()
    m = opened(config, printer=printer)
    funded(m, 2000)
    cash_out(m, printer)  # prints a ticket for $20.00
    (vn,) = [o.validation for o in printer.printed_orders]
    with pytest.raises(ValueError, match="not a \\$10.00 ticket"):
        redeem_ticket(m, 1000, vn)
    assert m.notes.ticket_escrow("999", "t0") is None
    assert m.notes.ticket_escrow(vn, "t1") == 2000
    m.notes.ticket_credited(vn, 2000, "t1")
    m.notes.ticket_credited(vn, 2000, "t1")  # repeated VEND VALID
    assert credits(m) == 2000 and m.table.ledger.meters["tickets_in_count"] == 1
    assert m.notes.ticket_escrow(vn, "t2") is None  # already redeemed
    with pytest.raises(ValueError, match="still to be redeemed"):
        redeem_ticket(m, 2000, vn)
    verified(m)
    m.close()


def test_pending_payout_survives_a_power_failure(config):
    m = opened(config)
    funded(m, 2000)
    req = cash_out(m)
    m.table.ledger.close()
    m2 = opened(config)
    assert (
        m2.station.snapshot().cashout == req and m2.station.snapshot().phase == MachinePhase.CASHOUT
    )
    m2.station.execute(OperatorLogin("1111"))
    m2.station.execute(HandpayReset())
    verified(m2)
    m2.close()


def test_bills_credit_once_per_transaction_and_not_when_disabled(machine):
    assert machine.notes.escrow_decision(2000, "tx1")
    assert bill_stacked(machine, 2000, "tx1") is True
    assert bill_stacked(machine, 2000, "tx1") is False  # repeated VEND VALID
    assert machine.notes.escrow_decision(500, "tx2")
    machine.notes.bill_credited(500, "tx2")
    assert credits(machine) == 2500 and machine.table.ledger.meters["bill.2000"] == 1
    assert not machine.notes.escrow_decision(300, "tx3")  # not an accepted denomination
    assert machine.notes.escrow_decision(2000, "tx4")
    machine.station.execute(SetDoor(True))
    bill_stacked(machine, 2000, "tx4")  # already in the box: credited even so
    assert credits(machine) == 4500
    assert not machine.notes.escrow_decision(2000, "tx6")
    with pytest.raises(PlayDisabled, match="door"):
        insert_note(machine, 2000)
    machine.notes.escrow_aborted("tx5", "returned")
    machine.station.execute(SetDoor(False))
    with pytest.raises(ValueError, match="unknown credit source"):
        insert_credits(machine.link, InsertCredits(100, "coins"))  # type: ignore[arg-type]
    verified(machine)


def test_tilts_stop_play_and_need_an_operator_to_clear(machine):
    funded(machine)
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(Deal())
    machine.table.tilt(SEAT, "reel", "hopper empty")
    s = machine.station.snapshot()
    assert s.tilts[0].code == "reel" and s.legal == () and not s.playable
    with pytest.raises(PlayDisabled, match="hopper empty"):
        machine.station.execute(Decide(Action.CHECK))
    with pytest.raises(NotAuthorised):
        machine.station.execute(ClearTilt("reel"))
    with pytest.raises(NotAuthorised, match="wrong PIN"):
        machine.station.execute(OperatorLogin("0000"))
    assert machine.station.execute(OperatorLogin("1111")) == "attendant"
    machine.station.execute(ClearTilt("reel"))
    with pytest.raises(NotAuthorised):
        machine.station.execute(ClearTilt(LEDGER_TILT))
    machine.station.execute(Decide(Action.CHECK))
    kinds = [e.kind for e in machine.table.ledger.events()]
    assert "operator_login_failed" in kinds and kinds.count("tilt_cleared") == 1


def test_tilts_and_door_persist_across_power_cycles_but_device_tilts_do_not(config):
    m = opened(config)
    m.table.tilt(SEAT, "custom", "call technician")
    m.station.execute(SetDoor(True))
    ev = types.SimpleNamespace(
        device="validator",
        kind="stacker_open",
        detail="stacker removed",
        tilt=True,
        active=True,
        code=None,
    )
    m.table.device_report(SEAT, ev)
    assert {t.code for t in m.station.snapshot().tilts} == {
        "custom",
        "device:validator:stacker_open",
    }
    m.table.device_report(SEAT, types.SimpleNamespace(**{**ev.__dict__, "active": False}))
    m.table.device_report(SEAT, ev)
    m.close()
    m2 = opened(config)
    s = m2.station.snapshot()
    assert [t.code for t in s.tilts] == ["custom"] and s.door_open
    m2.close()


def test_jackpot_is_hand_paid_and_tilts(tmp_path):
    config = load_config(db_path=tmp_path / "uth.db", jackpot_limit_cents=1500)
    m = opened(config, rng=SeededRandomSource(11))
    for _ in range(5):
        funded(m)
    for _ in range(40):
        m.station.execute(PlaceChip("ante", 500))
        m.station.execute(Deal())
        play_out(m, lambda legal: legal[0])  # 4x: a win returns at least 1500
        if m.station.snapshot().jackpot:
            break
    s = m.station.snapshot()
    assert (
        s.jackpot >= 1500
        and any(t.code == JACKPOT_TILT for t in s.tilts)
        and "JACKPOT" in s.message
    )
    rec = m.table.recall(station=SEAT, last=1)[0]
    assert (
        rec.jackpot == s.jackpot
        and rec.paid == 0
        and rec.credits_after == rec.credits_before - rec.staked
    )
    assert m.table.ledger.meters["jackpot"] == s.jackpot
    with pytest.raises(PlayDisabled):
        m.station.execute(PlaceChip("ante", 500))
    m.station.execute(OperatorLogin("1111"))
    m.station.execute(ClearTilt(JACKPOT_TILT))
    verified(m)
    m.close()


def _maths_unavailable(table):
    raise ImportError("engine.maths.cache")


def _proven_rtp(monkeypatch):
    """Stand-in for the PAR cache: every table proven at 99.47% / 96.50% (the maths is
    tested in tests/engine; here the controller's use of its answer is)."""
    fake = types.SimpleNamespace(cached_rtp=lambda table: {"main_total": 0.9947, "trips": 0.965})
    monkeypatch.setattr(settings, "cached_rtp", lambda table: fake.cached_rtp(table))
    monkeypatch.setattr(settings, "proof_of", lambda table, key: fake.cached_rtp(table))
    return fake


def test_paytable_change_rules_and_record(machine, monkeypatch):
    _proven_rtp(monkeypatch)
    with pytest.raises(NotAuthorised):
        machine.station.execute(SetPaytable(OTHER_TABLE))
    machine.station.execute(OperatorLogin("1111"))
    with pytest.raises(NotAuthorised, match="technician"):
        machine.station.execute(SetPaytable(OTHER_TABLE))
    machine.station.execute(OperatorLogin("2222"))
    funded(machine, 500)
    machine.station.execute(SetDoor(True))  # configuration changes need the main door open
    with pytest.raises(WrongState, match="zero credits"):
        machine.station.execute(SetPaytable(OTHER_TABLE))
    cash_out(machine)
    with pytest.raises(WrongState, match="payout"):
        machine.station.execute(SetPaytable(OTHER_TABLE))
    machine.station.execute(HandpayReset())
    with pytest.raises(ConfigurationError):
        machine.station.execute(SetPaytable(PAYTABLE_DIR / "missing.toml"))
    old = machine.station.snapshot().paytable
    machine.station.execute(SetPaytable(OTHER_TABLE))
    new = machine.station.snapshot().paytable
    assert new.sha256 != old.sha256
    ev = machine.table.ledger.last_event("paytable_changed")
    assert ev.detail["operator"] == "technician"
    assert ev.detail["old"]["sha256"] == old.sha256 and ev.detail["new"]["sha256"] == new.sha256
    config = machine.config
    machine.close()
    m2 = opened(config)
    assert m2.station.snapshot().paytable == new
    m2.close()


def test_rtp_bounds_from_the_maths_module(machine, monkeypatch):
    fake = types.SimpleNamespace(
        cached_rtp=lambda table: {"main_total": 0.978, "play": 1.2, "trips": 0.75}
    )
    monkeypatch.setattr(settings, "cached_rtp", lambda table: fake.cached_rtp(table))
    monkeypatch.setattr(settings, "proof_of", lambda table, key: fake.cached_rtp(table))
    machine.station.execute(OperatorLogin("3333"))
    machine.station.execute(SetDoor(True))  # configuration changes need the main door open
    with pytest.raises(
        ConfigurationError, match=r"trips RTP 75.000% is outside the approved 80.0%-100.0%"
    ):
        machine.station.execute(SetPaytable(OTHER_TABLE))
    fake.cached_rtp = lambda table: None  # not computed: the RTP is not proven
    with pytest.raises(ConfigurationError, match="is not known") as err:
        machine.station.execute(SetPaytable(PAYTABLE_DIR / "standard.toml"))
    assert err.value.code == "rtp_unknown"
    monkeypatch.setattr(settings, "cached_rtp", _maths_unavailable)  # refused too
    with pytest.raises(ConfigurationError, match="is not known"):
        machine.station.execute(SetPaytable(PAYTABLE_DIR / "standard.toml"))
    monkeypatch.setattr(settings, "cached_rtp", lambda table: fake.cached_rtp(table))
    fake.cached_rtp = lambda table: {"main_total": 0.978, "play": 1.2, "trips": 0.965}
    machine.station.execute(SetPaytable(OTHER_TABLE))
    rtp = machine.table.ledger.last_event("paytable_changed").detail["rtp"]
    assert rtp == {"main_total": 97.8, "play": 120.0, "trips": 96.5}


def test_limits_can_only_narrow_and_are_recorded(machine):
    machine.station.execute(OperatorLogin("2222"))
    machine.station.execute(SetDoor(True))  # configuration changes need the main door open
    with pytest.raises(ConfigurationError, match="within the paytable"):
        machine.station.execute(SetLimits(ante_max=100000))
    machine.station.execute(SetLimits(ante_min=1000, ante_max=5000))
    lim = machine.station.snapshot().limits
    assert (lim.ante_min, lim.ante_max) == (1000, 5000)
    ev = machine.table.ledger.last_event("limits_changed")
    assert ev.detail["old"]["ante_min"] == 500 and ev.detail["new"]["ante_min"] == 1000
    machine.station.execute(SetDoor(False))  # play needs the door closed
    funded(machine)
    with pytest.raises(BetOutOfLimits):
        machine.station.execute(PlaceChip("ante", 6000))
    config = machine.config
    cash_out(machine)
    machine.station.execute(HandpayReset())
    machine.close()
    m2 = opened(config)
    assert m2.station.snapshot().limits == lim
    m2.close()


def test_ram_clear_is_two_step_and_keeps_history(machine):
    funded(machine)
    machine.station.execute(PlaceChip("ante", 500))
    machine.station.execute(Deal())
    machine.table.tilt(SEAT, "x", "y")
    machine.station.execute(OperatorLogin("2222"))
    with pytest.raises(NotAuthorised):
        machine.station.execute(RamClearRequest())
    machine.station.execute(OperatorLogin("3333"))
    machine.station.execute(SetDoor(True))  # a RAM clear needs the main door open
    machine.station.execute(RamClearWitness("1111"))  # and a second operator's PIN
    with pytest.raises(WrongState):
        machine.station.execute(RamClear("000000"))
    code = machine.station.execute(RamClearRequest())
    with pytest.raises(NotAuthorised):
        machine.station.execute(RamClear("x" + code[1:]))
    code = machine.station.execute(RamClearRequest())
    lifetime = dict(machine.table.ledger.meters)
    machine.station.execute(RamClear(code))
    s = machine.station.snapshot()
    assert s.credits == 0 and s.tilts == () and s.phase == MachinePhase.IDLE
    rec = machine.table.recall(station=SEAT, last=1)[0]
    assert rec.state == "voided" and rec.paid == rec.staked and rec.commitment_ok()
    m = machine.table.ledger.meters
    assert all(m[k] >= v for k, v in lifetime.items() if k != "credits")
    assert (m["ram_clears"], m["ram_clear_credits"], m["games_voided"]) == (1, 10000, 1)
    verified(machine)


def test_subscribers_hear_every_change(machine):
    seen = []
    unsubscribe = machine.station.subscribe(seen.append)
    funded(machine)
    assert wait_for(lambda: seen and seen[-1].credits == 10000)
    with pytest.raises(InsufficientCredits):
        machine.station.execute(PlaceChip("ante", 5000))
    assert wait_for(lambda: seen[-1].message.endswith("credits $100.00"))
    assert {s.credits for s in seen} <= {0, 10000} and seen[-1].credits == 10000
    unsubscribe()
    heard = len(seen)
    funded(machine)
    assert never(lambda: len(seen) > heard, within=0.5)


def test_clock_is_injectable(config):
    fixed = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
    m = opened(config, clock=lambda: fixed)
    funded(m)
    assert m.table.ledger.last_event("bill_in").at == "2025-03-01T12:00:00.123Z"
    m.close()


def test_corrupt_ledger_comes_up_tilted_and_refuses_everything(config):
    m = opened(config)
    funded(m)
    m.close()
    conn = sqlite3.connect(config.db_path)
    (edited,) = conn.execute("SELECT id FROM events WHERE kind = 'bill_in'").fetchone()
    conn.execute("DROP TRIGGER events_frozen")
    conn.execute("UPDATE events SET amount = 99999 WHERE kind = 'bill_in'")
    conn.commit()
    conn.close()
    m = opened(config)
    s = m.station.snapshot()
    assert [t.code for t in s.tilts] == [LEDGER_TILT] and "LEDGER FAULT" in s.tilts[0].message
    assert f"events {edited}: hash" in s.tilts[0].message
    for call in (
        lambda: insert_note(m, 100),
        lambda: cash_out(m),
        lambda: m.station.execute(OperatorLogin("3333")),
    ):
        with pytest.raises(PlayDisabled):
            call()
    assert m.table.ledger is None


def test_missing_ledger_is_not_recreated(config):
    opened(config).close()
    config.db_path.unlink()
    m = opened(config)
    assert "missing" in m.station.snapshot().tilts[0].message
    assert not config.db_path.exists()


def test_machine_over_an_open_ledger(config):
    """``LoneCabinet.of(Table(config, ledger))`` rebuilds the state from a ledger opened elsewhere."""
    m = opened(config, rng=SeededRandomSource(1))
    funded(m)
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    hole = m.station.snapshot().hole
    m.table.ledger.close()
    m2 = LoneCabinet.of(
        Table(config, Ledger.open(config.db_path), (1,), timing=CABINET_TIMING)
    ).start()
    PaperlessPrinter(ready=False).attach(m2.link)
    assert (
        m2.station.snapshot().hole == hole and m2.station.snapshot().phase == MachinePhase.IN_ROUND
    )


def test_one_machine_per_ledger(config):
    m = opened(config)
    other = opened(config)
    assert "in use by another program" in other.station.snapshot().tilts[0].message
    m.close()
    opened(config).close()


def test_bills_from_a_driver_thread_while_playing(machine):
    """Device callbacks arrive on the driver's thread; every bill is credited exactly once."""
    import threading

    funded(machine)

    def driver(k: int) -> None:  # the validator's poll thread: one note at a time
        for i in range(30):
            while not machine.notes.escrow_decision(500, f"tx-{k}-{i}"):  # in the deal's instant
                pass
            machine.notes.bill_credited(500, f"tx-{k}-{i}")
            machine.notes.bill_credited(500, f"tx-{k}-{i}")  # a repeated VEND VALID

    threads = [threading.Thread(target=driver, args=(k,)) for k in range(1)]
    for t in threads:
        t.start()
    for _ in range(3):
        machine.station.execute(PlaceChip("ante", 500))
        machine.station.execute(Deal())
        play_out(machine)
    for t in threads:
        t.join()
    assert machine.table.ledger.meters["bills_in"] == 10000 + 30 * 500
    verified(machine)
