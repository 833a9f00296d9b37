"""What a web seat may send the host: one JSON text frame per message, strict models.

::

    {"type": "join", "name": "Mia", "lang": "en"}
    {"type": "resume", "token": "..."}
    {"type": "act", "hand": 7, "seq": 31, "action": "raise", "amount": 120}
    {"type": "next", "hand": 7}
    {"type": "leave"}

``hand`` is the hand number and ``seq`` the decision point (the length of the hand's
history) that the move answers, both as sent in the last state; a move for any other is
stale and refused.  ``amount`` is the round total ("raise to"), in chips, for bet and
raise only.  Frames over :data:`MAX_FRAME_BYTES` are refused before parsing.  Every model
forbids unknown fields and coerces nothing.

The host answers with JSON objects whose ``type`` is ``welcome``, ``state``,
``refused`` or ``closed`` (see :mod:`kiosk.friends.views`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.holdem.actions import MAX_SEATS, Action, ActionKind

#: The largest frame a web seat may send, in bytes.
MAX_FRAME_BYTES = 2048
LANGS = ("en", "ja", "th", "fr")


class Refusal(Exception):
    """A message refused: ``code`` is stable (``frame.malformed``, ``move.turn``...),
    ``detail`` the sentence shown to that player only."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Join(_Model):
    """Take a computer player's seat (``seat``: a wish, 0-based; else the first free)."""

    type: Literal["join"]
    name: Annotated[str, Field(max_length=64)]
    lang: Literal["en", "ja", "th", "fr"] = "en"
    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS)] | None = None


class Resume(_Model):
    """Take back the seat that ``token`` was given."""

    type: Literal["resume"]
    token: Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class Act(_Model):
    """A move at decision point ``seq`` of hand ``hand``."""

    type: Literal["act"]
    hand: Annotated[int, Field(ge=1)]
    seq: Annotated[int, Field(ge=0)]
    action: Literal["fold", "check", "call", "bet", "raise", "allin"]
    amount: Annotated[int, Field(ge=0)] | None = None


class NextHand(_Model):
    """"Next hand" after hand ``hand``."""

    type: Literal["next"]
    hand: Annotated[int, Field(ge=1)]


class Leave(_Model):
    """Leave the game: the computer plays the seat for good."""

    type: Literal["leave"]


class SetLang(_Model):
    """The language the player reads (names of hands are shown in it)."""

    type: Literal["lang"]
    lang: Literal["en", "ja", "th", "fr"]


ClientMessage = Annotated[Join | Resume | Act | NextHand | Leave | SetLang, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Join | Resume | Act | NextHand | Leave | SetLang] = TypeAdapter(ClientMessage)


def decode(frame: str | bytes) -> Join | Resume | Act | NextHand | Leave | SetLang:
    """The message in ``frame``, or :class:`Refusal` (``frame.large``, ``frame.binary``,
    ``frame.malformed``)."""
    size = len(frame.encode("utf-8")) if isinstance(frame, str) else len(frame)
    if size > MAX_FRAME_BYTES:
        raise Refusal("frame.large", f"a message has at most {MAX_FRAME_BYTES} bytes")
    if isinstance(frame, bytes):
        raise Refusal("frame.binary", "messages are JSON text")
    try:
        return _ADAPTER.validate_json(frame)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        raise Refusal("frame.malformed", f"{where}: {first['msg']}") from None


def to_action(msg: Act) -> Action:
    """The engine's action for ``msg``, or :class:`Refusal` (``move.amount``) when its
    amount does not fit the action."""
    kind = ActionKind(msg.action)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        if msg.amount is None:
            raise Refusal("move.amount", f"{kind.value} needs an amount")
        return Action(kind, msg.amount)
    if msg.amount is not None:
        raise Refusal("move.amount", f"{kind.value} takes no amount")
    return Action(kind)
