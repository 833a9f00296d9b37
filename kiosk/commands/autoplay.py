"""``uth autoplay``: a burn-in / soak session for technicians.

Opens the cabinet on ``--db`` (resuming an unfinished round first, as after a power
cut), inserts simulated bills, plays ``--rounds`` rounds through the controller exactly
as the screens do (chips, deal, decisions), and cashes out by handpay (logging the
attendant in with the configured PIN to key it off).  ``--strategy simple`` (or any
name) comes from :data:`engine.maths.strategies.STRATEGIES`; ``plain`` is a local policy.

On an installed cabinet (a configuration that is not demo mode) it refuses to run unless
given ``--burn-in`` and a technician's PIN (``--pin``); its credits are then test credits
(the ``test_credits_in`` meter, keyed in by that technician), never bills in.  Demo
ledgers take simulated bills.

Also runnable as ``python -m kiosk.commands.autoplay`` (no other command is imported:
the crash test restarts it hundreds of times).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import cast

from engine.maths.strategies import STRATEGIES
from engine.money import format_cents as money
from engine.rng import SeededRandomSource, SystemRandomSource
from engine.uth.round import LEGAL_BY_PHASE, PLAY_MULTIPLE, Action, SeatView
from kiosk.config import CabinetConfig, ConfigError, load_config, role_at_least
from kiosk.game import commands as cmd
from kiosk.game.errors import MachineError
from kiosk.game.rules.betting import deal_cost
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.game.vocabulary import JACKPOT_TILT, Bets
from kiosk.station.credits import insert_credits
from kiosk.wiring.lone_cabinet import LoneCabinet

Strategy = Callable[[SeatView], Action]


def plain_policy(view: SeatView) -> Action:
    """A plain policy needing no maths: 4x with a pair or an ace in hand,
    2x with a pair on the flop, otherwise check, and play 1x at the river."""
    ranks = [c >> 2 for c in (*view.hole, *view.board)]
    hole = [c >> 2 for c in view.hole]
    paired = any(ranks.count(r) >= 2 for r in hole)
    if Action.PLAY_4X in view.legal and (paired or 12 in hole):
        return Action.PLAY_4X
    if Action.PLAY_2X in view.legal and paired:
        return Action.PLAY_2X
    if Action.PLAY_1X in view.legal:
        return Action.PLAY_1X
    return Action.CHECK


def random_policy(seed: int | None) -> Strategy:
    """Uniformly random among the legal decisions (for crash and soak tests)."""
    rng = random.Random(seed)
    return lambda view: rng.choice(view.legal)


def affordable_choice(choice: Action, legal: Sequence[Action]) -> Action:
    """The action to take when a strategy chose ``choice`` and ``legal`` are the legal,
    affordable decisions now: ``choice`` itself if it is among them, else the largest
    legal Play below it, else check, else fold."""
    if choice in legal:
        return choice
    ceiling = PLAY_MULTIPLE.get(choice, 0)
    plays = [a for a in legal if 0 < PLAY_MULTIPLE.get(a, 0) < ceiling]
    if plays:
        return max(plays, key=lambda a: PLAY_MULTIPLE[a])
    for fallback in (Action.CHECK, Action.FOLD):
        if fallback in legal:
            return fallback
    return legal[0]


def load_strategy(name: str, seed: int | None = None) -> Strategy:
    """``random``, ``plain``, or :data:`engine.maths.strategies.STRATEGIES` ``[name]`` (its
    ``decide``); ``simple`` is :func:`plain_policy` when that table has none."""
    if name == "random":
        return random_policy(seed)
    if name == "plain":
        return plain_policy
    found = STRATEGIES.get(name)
    if found is not None:
        decide = getattr(found, "decide", found)
        if callable(decide):
            return cast(Strategy, decide)
    if name == "simple":
        return plain_policy
    raise ValueError(f"unknown strategy {name!r}")


def seat_view(snap: MachineSnapshot) -> SeatView:
    """What a strategy sees, built from the screen's snapshot.  Its ``legal`` are the
    decisions the rules allow in this phase, affordable or not (a maths strategy refuses
    a view that excludes its choice); :class:`Session` then takes
    :func:`affordable_choice` among the snapshot's legal, affordable ones."""
    assert snap.game_phase is not None
    return SeatView(
        seat=1,
        phase=snap.game_phase,
        hole=snap.hole,
        board=snap.board,
        ante=snap.ante,
        trips=snap.trips,
        play=snap.play,
        folded=False,
        legal=LEGAL_BY_PHASE.get(snap.game_phase, snap.legal),
    )


@dataclass
class SessionReport:
    rounds: int = 0
    resumed: int = 0
    bills: int = 0
    bills_cents: int = 0
    cashouts: int = 0
    cashout_cents: int = 0
    stopped: str = ""


class Session:
    """Drives a lone cabinet's station as a patron (and, for handpays and jackpots, an
    attendant) would."""

    def __init__(
        self,
        cabinet: LoneCabinet,
        strategy: Strategy,
        *,
        ante: int,
        trips: int,
        bill: int,
        pin: str | None,
        test_credits: bool = False,
    ) -> None:
        """``bill``: cents per simulated bill; ``test_credits``: credit them as test
        credits (``CreditSource.TEST``, keyed in by the operator of ``pin``) instead."""
        self.cabinet, self.station, self.strategy = cabinet, cabinet.station, strategy
        self.ante, self.trips, self.bill, self.pin = ante, trips, bill, pin
        self.test_credits = test_credits
        self.report = SessionReport()

    def attendant(self, job: Callable[[], object]) -> None:
        if self.pin is None:
            raise SystemExit("an attendant PIN is needed (--pin): the configured PINs are hashed")
        self.station.execute(cmd.OperatorLogin(self.pin))
        try:
            job()
        finally:
            self.station.execute(cmd.OperatorLogout())

    def credit(self, source: cmd.CreditSource) -> None:
        """One simulated bill of :attr:`bill` cents (``TEST``: test credits)."""
        insert_credits(self.cabinet.link, cmd.InsertCredits(self.bill, source))

    def settle_up(self) -> None:
        """Finish what a crash left: the open round, a pending handpay, a jackpot tilt."""
        snap = self.station.snapshot()
        if snap.cashout is not None:
            self.attendant(lambda: self.station.execute(cmd.HandpayReset()))
        if snap.phase == MachinePhase.IN_ROUND:
            self.report.resumed += 1
            self.finish_round()
        self.clear_jackpot()

    def clear_jackpot(self) -> None:
        if any(t.code == JACKPOT_TILT for t in self.station.snapshot().tilts):
            self.attendant(lambda: self.station.execute(cmd.ClearTilt(JACKPOT_TILT)))

    def finish_round(self) -> None:
        snap = self.station.snapshot()
        while snap.phase == MachinePhase.IN_ROUND:
            action = affordable_choice(self.strategy(seat_view(snap)), snap.legal)
            self.station.execute(cmd.Decide(action))
            snap = self.station.snapshot()
        self.report.rounds += 1

    def play_round(self) -> None:
        need = deal_cost(Bets(self.ante, self.trips))
        while self.station.snapshot().available < need:
            if self.test_credits:
                self.attendant(lambda: self.credit(cmd.CreditSource.TEST))
            else:
                self.credit(cmd.CreditSource.NOTE)
            self.report.bills += 1
            self.report.bills_cents += self.bill
        try:
            self.station.execute(cmd.RepeatBets())
        except MachineError:  # first round, or the limits changed
            pass
        snap = self.station.snapshot()
        if (snap.bet_ante, snap.bet_trips) != (self.ante, self.trips):
            self.station.execute(cmd.ClearBets())
            self.station.execute(cmd.PlaceChip("ante", self.ante))
            if self.trips:
                self.station.execute(cmd.PlaceChip("trips", self.trips))
        self.station.execute(cmd.Deal())
        self.finish_round()
        self.clear_jackpot()

    def cash_out(self) -> None:
        if self.station.snapshot().credits:
            self.station.execute(cmd.CashOut())
            req = self.station.snapshot().cashout
            assert req is not None
            self.report.cashouts += 1
            self.report.cashout_cents += req.amount
            self.attendant(lambda: self.station.execute(cmd.HandpayReset()))

    def run(self, rounds: int, cashout_every: int = 0) -> SessionReport:
        self.settle_up()
        for i in range(rounds):
            if not self.station.snapshot().playable:
                self.report.stopped = "; ".join(
                    f"{t.code}: {t.message}" for t in self.station.snapshot().tilts
                )
                break
            self.play_round()
            if cashout_every and (i + 1) % cashout_every == 0:
                self.cash_out()
        self.cash_out()
        return self.report


def default_pin(cabinet: LoneCabinet) -> str | None:
    pin = cabinet.config.operator_pins.get("attendant")
    return None if pin is None or pin.startswith("sha256:") else pin


def installed(config: CabinetConfig) -> bool:
    """Whether ``config`` runs an installed cabinet (not demo mode): its ledger, once
    created, carries the install marker ``config.marker_path``."""
    return not config.demo


def burn_in_refusal(config: CabinetConfig, burn_in: bool, pin: str | None) -> str | None:
    """Why autoplay may not run on ``config`` (None when it may): an installed cabinet
    needs ``--burn-in`` and the PIN of a technician (or manager) account."""
    if not installed(config):
        return None
    where = f"the ledger {config.db_path} is installed (marker {config.marker_path})"
    if not config.marker_path.exists():
        where = f"{config.db_path} is the ledger of an installed cabinet (not demo mode)"
    if not burn_in:
        return f"{where}: autoplay runs there only with --burn-in and a technician's --pin"
    if not pin:
        return f"{where}: --burn-in needs a technician's --pin"
    accounts = config.accounts_for_pin(pin)
    if len(accounts) != 1 or not role_at_least(accounts[0].role, "technician"):
        return f"{where}: --pin is not the PIN of a technician"
    return None


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, db_path=args.db, paytable=args.paytable)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    refusal = burn_in_refusal(config, args.burn_in, args.pin)
    if refusal is not None:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    rng = SeededRandomSource(args.seed) if args.seed is not None else SystemRandomSource()
    machine = LoneCabinet.open(config, rng=rng)
    machine.table.burn_in = bool(args.burn_in)  # a technician's session: test credits allowed
    snap = machine.station.snapshot()
    if any(t.code == "ledger" for t in snap.tilts):
        print(f"error: {snap.message or snap.tilts[0].message}", file=sys.stderr)
        return 3
    try:
        strategy = load_strategy(args.strategy, args.seed)
        session = Session(
            machine,
            strategy,
            ante=args.ante,
            trips=args.trips,
            bill=args.bill,
            pin=args.pin or default_pin(machine),
            test_credits=installed(config),
        )
        report = session.run(args.rounds, args.cashout_every)
    finally:
        machine.close()
    if args.json:
        print(json.dumps(asdict(report)))
    elif not args.quiet:
        print(
            f"{report.rounds} rounds ({report.resumed} resumed after a power failure); "
            f"{'test credits' if installed(config) else 'bills'} {report.bills} for "
            f"{money(report.bills_cents)}; "
            f"cashed out {report.cashouts}x for {money(report.cashout_cents)}"
        )
        if report.stopped:
            print(f"stopped: {report.stopped}")
    return 1 if report.stopped else 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", help="ledger database (default: the configuration's db_path)")
    p.add_argument("--config", help="cabinet configuration TOML (default $UTH_CONFIG)")
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument(
        "--seed", type=int, help="reproducible shuffles and decisions (default: cryptographic)"
    )
    p.add_argument("--strategy", default="simple", help="simple (engine.maths.strategy), plain or random")
    p.add_argument("--paytable", help="paytable for a new ledger (default: the configuration's)")
    p.add_argument("--ante", type=int, default=500, help="Ante in cents (default 500)")
    p.add_argument(
        "--trips", type=int, default=100, help="Trips in cents, 0 for none (default 100)"
    )
    p.add_argument(
        "--bill", type=int, default=10000, help="simulated bill in cents (default 10000)"
    )
    p.add_argument(
        "--cashout-every",
        type=int,
        default=0,
        metavar="N",
        help="cash out (handpay) every N rounds as well as at the end",
    )
    p.add_argument(
        "--pin",
        help="attendant PIN for handpay resets (default: from the configuration); "
        "a technician's PIN with --burn-in",
    )
    p.add_argument(
        "--burn-in",
        action="store_true",
        help="run on an installed cabinet (needs a technician's --pin): test credits only",
    )
    p.add_argument("--json", action="store_true", help="print the session report as JSON")
    p.add_argument("--quiet", action="store_true")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("autoplay", help="burn-in session: play N rounds through the controller")
    add_arguments(p)
    p.set_defaults(func=run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="uth autoplay", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
