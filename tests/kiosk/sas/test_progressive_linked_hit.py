"""A win on the linked progressive, end to end over real ptys: the technician's
controller (:mod:`devices.sas.controller`) broadcasts the level to two cabinets on two
lines, reads each machine's contribution meter (extended meters 6F), and learns of a
win from the machine that paid it: exception 54 and long poll 84 when it was credited,
51 and long poll 1B when it is hand-paid.  The controller takes the win off its level
(back to the reset), and at every step its meter is seed + contributions - awards, the
contributions being exactly what the machines' ledgers say their wagers fed it and the
awards exactly what their ledgers say they paid on it.  A power cut of the controller
between the win and its reading, and one of a cabinet between the deal and the river,
lose and double nothing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from support.decks import DeckSource, deck_with
from support.sas_rig import link_read_everything, wait_for
from support.signed_paytables import signed
from support.table_money import credit
from test_sas_progressive_link import EXAMPLE, GROUP, Linked

from devices.sas.controller import ControllerLine, ControllerStore, ProgressiveController
from devices.sas.host import SasHost
from devices.sas.line import PtyLine, PtyPair
from devices.sas.progressive import HANDPAY_INFO, decode_handpay_info
from engine.rng import SeededRandomSource
from engine.uth.round import Action
from kiosk.config import ProgressiveLink, load_config
from kiosk.game.commands import Deal, Decide, OperatorLogin, PlaceChip, SetDoor, SetPaytable
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.sas.codes import Exc
from kiosk.sas.game_port import TablePort
from kiosk.sas.service import SasService
from kiosk.service.device_commands import SystemProgressiveLevels
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock

LEVEL_RESET = 1_000_000  # the example paytable's reset, the controller's level seed
BIG = {"jackpot_limit_cents": 100_000_000, "credit_limit_cents": 200_000_000}


def controller_of(path: Path, *rigs: Linked) -> tuple[ControllerStore, ProgressiveController]:
    store = ControllerStore(path, GROUP, {1: LEVEL_RESET})
    lines = [
        ControllerLine(f"line{i}", SasHost(r.pair.line, answer_timeout=0.5, silence=0.02), [1])
        for i, r in enumerate(rigs)
    ]
    return store, ProgressiveController(store, lines)


def play_round(rig: Linked, *, fold: bool = True) -> None:
    table = rig.table
    prog = table.paytable.progressive
    assert prog is not None
    table.execute(1, PlaceChip("ante", 500))
    table.execute(1, PlaceChip("progressive", prog.wager))
    table.execute(1, Deal())
    for action in (Action.CHECK, Action.CHECK, Action.FOLD if fold else Action.CHECK):
        table.execute(1, Decide(action))


def machine_sums(*rigs: Linked) -> tuple[int, int]:
    """What the machines' ledgers say they fed the level and won off it, cents."""
    fed = won = 0
    for rig in rigs:
        ledger = rig.table.ledger
        fed += sum(e.amount for e in ledger.events((EventKind.PROGRESSIVE_LINK_CONTRIBUTION,)))
        won += sum(e.amount for e in ledger.events((EventKind.PROGRESSIVE_LINK_WIN,)))
    return fed, won


def check_identity(store: ControllerStore, *rigs: Linked) -> int:
    """The controller's meter is seed + contributions - awards, each the machines' own."""
    seeded, contributed, awarded = store.totals(1)
    fed, won = machine_sums(*rigs)
    assert (contributed, awarded) == (fed, won)
    assert sum(cents for *_, cents in store.awards()) == awarded
    meter = store.levels()[1]
    assert meter == seeded + contributed - awarded
    for rig in rigs:
        report = Ledger.verify(rig.table.ledger)
        assert report.ok, report.problem
    return meter


def test_a_credited_win_on_one_cabinet_resets_the_level_on_both(tmp_path):
    deck = DeckSource()
    first = Linked(tmp_path / "a", rng=deck, **BIG)
    second = Linked(tmp_path / "b", **BIG)
    try:
        store, controller = controller_of(tmp_path / "controller.db", first, second)
        controller.cycle()
        assert wait_for(lambda: first.meter() == second.meter() == LEVEL_RESET)
        credit(first.table, 1, 100_000)
        credit(second.table, 1, 100_000)
        prog = first.table.paytable.progressive
        assert prog is not None
        share = prog.wager * prog.contribution_bp // 10_000
        for _ in range(3):  # plain rounds on both: the level grows by their contributions
            play_round(first)
            play_round(second)
            first.settle()  # each link has read its ledger: its meters are the ledger's
            second.settle()
            controller.cycle()
            check_identity(store, first, second)
        assert store.levels()[1] == LEVEL_RESET + 6 * share
        controller.cycle()  # the grown level broadcast
        assert wait_for(lambda: first.meter() == second.meter() == LEVEL_RESET + 6 * share)

        deck.stack(deck_with({1: "As Ks"}, flop="Qs Js Ts"))
        before = first.table.credits(1)
        play_round(first)
        (win,) = first.table.ledger.events((EventKind.PROGRESSIVE_LINK_WIN,))
        assert win.amount == LEVEL_RESET + 7 * share  # the level shown, and its own wager's
        assert first.table.credits(1) == before - 1000 - prog.wager + win.amount
        first.settle()
        made = controller.cycle()  # 54, its contribution read, then 84
        assert [(line, w.level, w.cents) for line, _, w in made] == [("line0", 1, win.amount)]
        assert (Exc.PROGRESSIVE_WIN) in [code for _, code in controller.lines[0].seen]
        assert check_identity(store, first, second) == LEVEL_RESET
        controller.cycle()
        assert wait_for(lambda: first.meter() == second.meter() == LEVEL_RESET)
        assert controller.cycle() == [] and controller.refused == []
        store.close()
    finally:
        first.stop()
        second.stop()


def test_a_hand_paid_win_is_read_with_1b_and_a_controller_cut_loses_nothing(tmp_path):
    deck = DeckSource()
    rig = Linked(tmp_path / "a", rng=deck, jackpot_limit_cents=500_000)
    try:
        path = tmp_path / "controller.db"
        store, controller = controller_of(path, rig)
        controller.cycle()
        assert wait_for(lambda: rig.meter() == LEVEL_RESET)
        credit(rig.table, 1, 100_000)
        deck.stack(deck_with({1: "Ah Kh"}, flop="Qh Jh Th"))
        play_round(rig)
        (win,) = rig.table.ledger.events((EventKind.PROGRESSIVE_LINK_WIN,))
        assert win.detail["hand_paid"] is True
        rig.settle()
        # the host of the line reads the handpay before the controller polls: 1B tells it
        answer = rig.host.long_poll(1, HANDPAY_INFO)
        found = decode_handpay_info(answer.answer[2:-2])
        assert found is not None and (found.group, found.level, found.cents) == (
            GROUP,
            1,
            win.amount,
        )
        # the controller sees the 51 and acknowledges it, then its power is cut
        controller._exceptions(controller.lines[0], 1)
        assert (1, Exc.HANDPAY_PENDING) in controller.lines[0].seen
        store.close()
        store, controller = controller_of(path, rig)
        made = controller.cycle()  # the reading left to do: the contribution, then 1B
        assert [w.cents for *_, w in made] == [win.amount]
        assert check_identity(store, rig) == LEVEL_RESET
        store.close()  # cut again after the award: nothing is read twice
        store, controller = controller_of(path, rig)
        assert controller.cycle() == []
        assert check_identity(store, rig) == LEVEL_RESET
        assert len(store.awards()) == 1
        store.close()
    finally:
        rig.stop()


def play_table(rig: Linked, stations: tuple[int, ...]) -> None:
    """One round at every station of ``rig``'s table, each with the progressive; every
    seat checks to the river and folds."""
    table = rig.table
    prog = table.paytable.progressive
    assert prog is not None
    for n in stations:
        table.execute(n, PlaceChip("ante", 500))
        table.execute(n, PlaceChip("progressive", prog.wager))
        table.execute(n, Deal())
    for action in (Action.CHECK, Action.CHECK, Action.FOLD):
        for n in stations:
            table.execute(n, Decide(action))


def test_a_seven_station_table_and_a_cabinet_feed_one_level_and_share_a_hit(tmp_path):
    """Seven stations of one table on one line (addresses 1..7) and a lone cabinet on
    another: every wager feeds the controller's one level; two straight flushes at one
    table in one round share the line (each station reports its own share); the
    controller's meter stays seed + contributions - awards, the machines' own."""
    seats = tuple(range(1, 8))
    deck = DeckSource()
    table = Linked(tmp_path / "t", stations=seats, rng=deck, **BIG)
    lone = Linked(tmp_path / "c", **BIG)
    try:
        store = ControllerStore(tmp_path / "controller.db", GROUP, {1: LEVEL_RESET})
        hosts = [SasHost(r.pair.line, answer_timeout=0.5, silence=0.02) for r in (table, lone)]
        controller = ProgressiveController(
            store,
            [
                ControllerLine("table", hosts[0], list(seats)),
                ControllerLine("cabinet", hosts[1], [1]),
            ],
        )
        controller.cycle()
        assert wait_for(lambda: all(table.meter(n) == LEVEL_RESET for n in seats))
        for n in seats:
            credit(table.table, n, 100_000)
        credit(lone.table, 1, 100_000)
        prog = table.table.paytable.progressive
        assert prog is not None
        share = prog.wager * prog.contribution_bp // 10_000
        play_table(table, seats)
        play_round(lone)
        table.settle()
        lone.settle()
        controller.cycle()
        assert check_identity(store, table, lone) == LEVEL_RESET + 8 * share
        controller.cycle()
        shown = LEVEL_RESET + 8 * share
        assert wait_for(lambda: all(table.meter(n) == shown for n in seats))
        assert wait_for(lambda: lone.meter() == shown)

        deck.stack(deck_with({3: "Js Ts", 6: "6s 5s"}, flop="9s 8s 7s"))
        play_table(table, seats)
        line = (shown + 7 * share) * 1_000 // 10_000  # 10% of the level, after the round's wagers
        wins = {
            e.station: e.amount
            for e in table.table.ledger.events((EventKind.PROGRESSIVE_LINK_WIN,))
        }
        assert wins == {3: line // 2, 6: line // 2}
        table.settle()
        made = controller.cycle()
        assert sorted((line_name, address, w.cents) for line_name, address, w in made) == [
            ("table", 3, line // 2),
            ("table", 6, line // 2),
        ]
        meter = check_identity(store, table, lone)
        assert meter >= LEVEL_RESET  # a level never stands below its reset
        assert controller.refused == []
        store.close()
    finally:
        table.stop()
        lone.stop()


def test_a_power_cut_of_the_cabinet_mid_round_loses_and_doubles_nothing(tmp_path):
    """The cabinet's process (its game service and its SAS link, on the line's pty) is
    killed between the deal and the river of a round holding a royal flush, the
    controller alive on the other end: at the power-up the round resumes, is settled
    on the controller's level as broadcast since, and the win reaches the controller
    once, by its 54 and 84."""
    pair = PtyPair()
    config = load_config(
        db_path=tmp_path / "var" / "uth.db",
        sas_port=pair.port,
        progressive_link=ProgressiveLink(group=GROUP, level=1),
        **BIG,
    )

    def cabinet(rng) -> tuple[Table, SasService]:
        table = Table.open(config, (1,), rng=rng, clock=ManualClock())
        service = SasService(
            TablePort(table), config.db_path, lambda: PtyLine.open(pair.port), 1,
            signer=lambda seed: 0xBEEF,
        )  # fmt: skip
        service.start()
        return table, service

    table = Table.open(config, (1,), rng=SeededRandomSource(1), clock=ManualClock())
    paytable = tmp_path / "progressive-example.toml"
    shutil.copy(EXAMPLE, paytable)
    signed(table.ledger.key, paytable)
    table.execute(1, SetDoor(True))
    table.execute(1, OperatorLogin("2222"))
    table.execute(1, SetPaytable(str(paytable)))
    table.execute(1, SetDoor(False))
    credit(table, 1, 100_000)
    table.close()
    store = ControllerStore(tmp_path / "controller.db", GROUP, {1: LEVEL_RESET})
    host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
    controller = ProgressiveController(store, [ControllerLine("line", host, [1])])
    shown = LEVEL_RESET + 3_300
    store.contribute(1, 3_300)  # other machines' wagers
    pid = os.fork()
    if pid == 0:  # the cabinet's process: takes the wager on the level it heard, then dies
        try:
            deck = DeckSource()
            deck.stack(deck_with({1: "Ah Kh"}, flop="Qh Jh Th"))
            child, service = cabinet(deck)
            child.execute(1, SystemProgressiveLevels(GROUP, ((1, shown),), "test"))
            prog = child.paytable.progressive
            child.execute(1, PlaceChip("ante", 500))
            child.execute(1, PlaceChip("progressive", prog.wager))
            child.execute(1, Deal())
            link_read_everything(service)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    try:
        table, service = cabinet(SeededRandomSource(2))
        assert table.snapshot(1).round_open
        store.contribute(1, 1_000)  # the level grew while the cabinet was down
        controller.cycle()  # the broadcast reaches the cabinet again
        assert wait_for(lambda: table.snapshot(1).progressive_meter == shown + 1_000)
        for action in (Action.CHECK, Action.CHECK, Action.FOLD):
            table.execute(1, Decide(action))
        prog = table.paytable.progressive
        own = prog.wager * prog.contribution_bp // 10_000
        (win,) = table.ledger.events((EventKind.PROGRESSIVE_LINK_WIN,))
        assert win.amount == shown + 1_000 + own
        link_read_everything(service)
        made = controller.cycle()
        assert [w.cents for *_, w in made] == [win.amount]
        seeded, contributed, awarded = store.totals(1)
        assert contributed == 3_300 + 1_000 + own and awarded == win.amount
        assert store.levels()[1] == seeded + contributed - awarded == LEVEL_RESET
        assert controller.cycle() == []  # nothing read twice
        assert len(table.ledger.events((EventKind.PROGRESSIVE_AWARD,))) == 1
        report = Ledger.verify(table.ledger)
        assert report.ok, report.problem
        service.stop()
        table.close()
    finally:
        store.close()
        pair.close()
