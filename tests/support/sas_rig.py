"""A cabinet (a real :class:`Machine` on its own ledger) with its SAS link on a
pseudo-terminal, and the project's host on the other end."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from devices.sas.host import SasHost
from devices.sas.line import PtyLine, PtyPair
from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig, load_config
from kiosk.machine.controller import Machine, MachinePhase
from kiosk.sas.machine_port import MachinePort
from kiosk.sas.service import SasService


def wait_for(cond: Callable[[], object], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return bool(cond())


@dataclass
class Rig:
    config: CabinetConfig
    machine: Machine
    pair: PtyPair
    service: SasService
    host: SasHost

    def settle(self) -> None:
        """Wait until the link has read every change of the game."""
        before = self.service.link.passes
        self.service.link.shared.wake.set()
        assert wait_for(lambda: self.service.link.passes >= before + 2)

    def exceptions(self, address: int = 1, limit: int = 60) -> list[int]:
        """General polls until 00, each exception acknowledged."""
        self.settle()
        out = []
        for _ in range(limit):
            ex = self.host.general_poll(address)
            assert ex.kind in ("exception", "event"), ex
            code = ex.code if ex.kind == "exception" else ex.answer[2]
            self.host.acknowledge()
            if code == 0:
                return out
            out.append(code)
        raise AssertionError(f"no end to the exceptions: {out}")

    def play_round(self, ante: int = 500) -> None:
        m = self.machine
        if m.credits < 6 * ante:
            m.insert_credits(10_000, "bill:10000")
        m.add_chip("ante", ante)
        m.deal()
        while m.snapshot().phase == MachinePhase.IN_ROUND:
            m.decide(m.snapshot().legal[-1])

    def stop(self) -> None:
        self.service.stop()
        if self.machine.ledger is not None:
            self.machine.close()
        self.pair.close()


def start_rig(db: Path, signer: Callable[[int], int] = lambda seed: 0xBEEF, **kw: object) -> Rig:
    config = load_config(db_path=db)
    machine = Machine.open(config, rng=SeededRandomSource(7))
    pair = PtyPair()
    service = SasService(
        MachinePort(machine), config.db_path, lambda: PtyLine.open(pair.port), 1,
        signer=signer, **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    service.start()
    host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
    rig = Rig(config, machine, pair, service, host)
    rig.settle()
    return rig
