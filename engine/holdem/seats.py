"""Who sits in a tournament seat, and the controllers that decide for each seat.

A :class:`SeatController` is given only its own seat's :class:`PlayerView`:
:class:`BotSeat` (a bot), :class:`HumanSeat` (the local touch screen) and
:class:`RemoteSeat` (an interface for online play; the transport is not written yet).
Controllers are not part of a tournament's saved state: they are rebuilt from the
:class:`SeatSpec` of each seat.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import ClassVar, Protocol

from engine.holdem.actions import Action
from engine.holdem.bots import PERSONALITIES, Bot, Difficulty
from engine.holdem.views import PlayerView


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: ``kind`` is "human", "bot" or "remote" (a remote seat falls back
    to a bot of ``difficulty`` while away)."""

    name: str
    kind: str = "bot"
    difficulty: str = Difficulty.NORMAL.value
    personality: str | None = None  # a PERSONALITIES key; None: a random one per game
    icon: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("human", "bot", "remote"):
            raise ValueError(f"unknown seat kind {self.kind!r}")
        Difficulty(self.difficulty)
        if self.personality is not None and self.personality not in PERSONALITIES:
            raise ValueError(f"unknown personality {self.personality!r}")


class SeatController(Protocol):
    """Drives one seat.  ``decide`` returns an action, or ``None`` while waiting for input
    (a person); it is only ever given the seat's own :class:`PlayerView`."""

    kind: ClassVar[str]

    def decide(self, view: PlayerView) -> Action | None: ...


class BotSeat:
    kind: ClassVar[str] = "bot"

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def decide(self, view: PlayerView) -> Action | None:
        return self.bot.decide(view)


class HumanSeat:
    """The local player: the screen calls :meth:`submit`; the table picks it up."""

    kind: ClassVar[str] = "human"

    def __init__(self) -> None:
        self.pending: Action | None = None

    def submit(self, action: Action) -> None:
        self.pending = action

    def decide(self, view: PlayerView) -> Action | None:
        action, self.pending = self.pending, None
        return action


class RemoteSeat:
    """A seat played from another device (interface only).

    The network layer calls :meth:`deliver` with the player's actions and
    :meth:`set_connected`; while the player is away (seed 000: ~45 s) the ``fallback`` bot
    plays the seat.  Still to do: the transport, authentication of the sender, sending
    each seat its own :class:`PlayerView`, the away timer and the "Next hand" vote.
    """

    kind: ClassVar[str] = "remote"

    def __init__(self, fallback: Bot) -> None:
        self.fallback = fallback
        self.connected = True
        self.inbox: deque[Action] = deque()

    def deliver(self, action: Action) -> None:
        self.inbox.append(action)

    def set_connected(self, connected: bool) -> None:
        self.connected = connected

    def decide(self, view: PlayerView) -> Action | None:
        if self.inbox:
            return self.inbox.popleft()
        if not self.connected:
            return self.fallback.decide(view)
        return None
