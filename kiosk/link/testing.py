"""A fault-injecting TCP proxy for testing the link on loopback.

:class:`FaultProxy` listens on 127.0.0.1 and forwards each accepted connection to a
target port, chunk by chunk, and by a seeded random draw per chunk may:

* **cut** the connection (both sides aborted);
* **delay** the chunk (order kept);
* **duplicate** it (the same bytes written twice);
* **reorder** it (held back and written after the next chunk, if one comes soon);
* **replay** a chunk recorded from an earlier connection into this one.

:meth:`FaultProxy.blackhole_all` turns the open connections into black holes (bytes are
swallowed both ways, nothing is closed), as a pulled cable or a powered-off peer does.

Under TLS every change to the byte stream other than a delay breaks the connection,
which is the point: the link must then reconnect and lose, duplicate and reorder nothing.
:attr:`FaultProxy.counts` says what was tried.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from dataclasses import dataclass

from kiosk.link.runtime import LoopThread

CHUNK = 4096
#: How long a chunk held back for reordering waits for the next one, in seconds.
REORDER_WAIT_S = 0.05


@dataclass(frozen=True)
class Faults:
    """Probabilities per forwarded chunk (0..1), and the longest delay in seconds."""

    cut: float = 0.0
    delay: float = 0.0
    max_delay_s: float = 0.02
    duplicate: float = 0.0
    reorder: float = 0.0
    replay: float = 0.0


class FaultProxy:
    """Forwards 127.0.0.1:``port`` to 127.0.0.1:``target`` with :class:`Faults`."""

    def __init__(self, target: int, faults: Faults, seed: int = 0) -> None:
        self.target = target
        self.faults = faults
        self.counts: Counter[str] = Counter()
        self._random = random.Random(seed)
        self._recorded: list[bytes] = []
        self._runtime = LoopThread("fault-proxy")
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._holes: set[asyncio.StreamWriter] = set()
        self.port = 0
        self.enabled = True

    def start(self) -> int:
        self._runtime.start()
        self.port = self._runtime.submit(self._listen()).result(10)
        return self.port

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._runtime.submit(self._close()).result(10)
        self._runtime.stop()

    def cut_all(self) -> None:
        """Abort every connection now."""
        self._runtime.call(self._abort_all)

    def blackhole_all(self) -> None:
        """Swallow every byte of the connections open now, closing none of them
        (connections accepted later are forwarded normally)."""
        self._runtime.call(lambda: self._holes.update(self._writers))

    def __enter__(self) -> FaultProxy:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _close(self) -> None:
        assert self._server is not None
        self._server.close()
        self._abort_all()

    def _abort_all(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.counts["connections"] += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        both = (writer, up_writer)
        await asyncio.gather(
            self._forward(reader, up_writer, both), self._forward(up_reader, writer, both)
        )
        self._writers -= {writer, up_writer}
        self._holes -= {writer, up_writer}

    async def _forward(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        both: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
    ) -> None:
        try:
            while True:
                chunk = await reader.read(CHUNK)
                if not chunk:
                    break
                if writer.transport.is_closing():
                    break
                if writer in self._holes:
                    self.counts["swallowed"] += 1
                    continue
                self.counts["chunks"] += 1
                if len(self._recorded) < 256:
                    self._recorded.append(chunk)
                if self.enabled and self._draw(self.faults.cut):
                    self.counts["cut"] += 1
                    for w in both:
                        w.transport.abort()
                    return
                if self.enabled and self._draw(self.faults.delay):
                    self.counts["delay"] += 1
                    await asyncio.sleep(self._random.uniform(0, self.faults.max_delay_s))
                if self.enabled and self._draw(self.faults.replay) and self._recorded:
                    self.counts["replay"] += 1
                    writer.write(self._random.choice(self._recorded))
                if self.enabled and self._draw(self.faults.reorder):
                    with contextlib.suppress(TimeoutError):
                        later = await asyncio.wait_for(reader.read(CHUNK), REORDER_WAIT_S)
                        if later:
                            self.counts["reorder"] += 1
                            writer.write(later)
                writer.write(chunk)
                if self.enabled and self._draw(self.faults.duplicate):
                    self.counts["duplicate"] += 1
                    writer.write(chunk)
                await writer.drain()
        except (OSError, ConnectionError):
            pass
        finally:
            for w in both:
                with contextlib.suppress(Exception):
                    w.close()

    @property
    def injected(self) -> int:
        """Faults that changed a byte stream or cut it (delays excluded)."""
        return sum(self.counts[k] for k in ("cut", "duplicate", "reorder", "replay"))

    def _draw(self, probability: float) -> bool:
        return probability > 0 and self._random.random() < probability
