"""A cabinet (a real lone cabinet on its own ledger) with its SAS link on a
pseudo-terminal, and the project's host on the other end."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from support.cabinet import credits, insert_note, play_round

from devices.sas.host import SasHost
from devices.sas.line import PtyLine, PtyPair
from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig, load_config
from kiosk.sas.game_port import TablePort
from kiosk.sas.service import SasService
from kiosk.wiring.lone_cabinet import LoneCabinet


def wait_for(cond: Callable[[], object], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return bool(cond())


def link_read_everything(service: SasService) -> None:
    """Wake the service's link and wait for two whole passes: every change of the game
    made before the call has been read."""
    before = service.link.passes
    service.link.shared.wake.set()
    assert wait_for(lambda: service.link.passes >= before + 2)


@dataclass
class Rig:
    config: CabinetConfig
    machine: LoneCabinet  # the cabinet's parts
    pair: PtyPair
    service: SasService
    host: SasHost

    def settle(self) -> None:
        """Wait until the link has read every change of the game."""
        link_read_everything(self.service)

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
        if credits(self.machine) < 6 * ante:
            insert_note(self.machine, 10_000)
        play_round(self.machine, ante)  # each decision the last legal one

    def stop(self) -> None:
        self.service.stop()
        if self.machine.table.ledger is not None:
            self.machine.close()
        self.pair.close()


def start_rig(db: Path, signer: Callable[[int], int] = lambda seed: 0xBEEF, **kw: object) -> Rig:
    config = load_config(db_path=db)
    machine = LoneCabinet.open(config, rng=SeededRandomSource(7))
    pair = PtyPair()
    service = SasService(
        TablePort(machine.table), config.db_path, lambda: PtyLine.open(pair.port), 1,
        signer=signer, **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    service.start()
    host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
    rig = Rig(config, machine, pair, service, host)
    rig.settle()
    return rig


def storm(line: object, seed: int, *, frames: int | None = None, seconds: float | None = None) -> int:
    """Send random frames to the line: random bytes, random wakeup bits, random lengths,
    now and then a well-formed long poll of a random command with a good CRC (a read or
    a request, never one that can move money at the cabinet).  Returns how many frames."""
    import random

    from devices.sas.frames import long_poll
    from devices.sas.marks import encode

    rng = random.Random(seed)
    sent = 0
    end = None if seconds is None else time.monotonic() + seconds
    while (frames is None or sent < frames) and (end is None or time.monotonic() < end):
        kind = rng.random()
        if kind < 0.15:
            cmd = rng.choice((0x0F, 0x19, 0x1A, 0x1C, 0x1F, 0x21, 0x2F, 0x4D, 0x54, 0x57, 0x58,
                              0x6F, 0x70, 0x71, 0x7B, 0x7E, 0x8A, 0x72, 0xA0, 0x0E))  # fmt: skip
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12)))
            raw = encode([(b, i == 0) for i, b in enumerate(long_poll(rng.randrange(0, 4), cmd, data, crc=True))])
        else:
            n = rng.randrange(1, 40)
            raw = encode((rng.randrange(256), rng.random() < 0.1) for _ in range(n))
        line.write_raw(raw)  # type: ignore[attr-defined]
        sent += 1
        # drain what comes back so the pty never fills
        while line.receive(0):  # type: ignore[attr-defined]
            pass
    return sent
