"""The refusals of the cabinet controller: the :class:`MachineError` family.

Every refused operation raises one of these before any state changes.  ``reason`` is
English for operators and logs; ``code`` is a stable machine-readable name and
``params`` the values the message needs (amounts in cents): the screens turn
``(code, params)`` into a translated message (:mod:`kiosk.ui.machine_messages`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.game.error_codes import ErrorCode


class MachineError(ValueError):
    """An operation the machine refuses now.

    ``code`` is the class's own (e.g. ``insufficient_credits``) unless a more precise one
    is given (such as ``credit_limit`` or ``ticket_redeemed``).  A code is an
    :class:`ErrorCode`: a string that is not one raises :class:`ValueError` at once, so a
    misspelt code fails where it is raised, not on a screen.
    """

    code: ErrorCode = ErrorCode.REFUSED

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.code = ErrorCode(cls.code)  # a subclass's own code is a member too

    def __init__(
        self,
        reason: str,
        *,
        code: ErrorCode | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = ErrorCode(code)
        self.params: dict[str, object] = dict(params or {})


class InsufficientCredits(MachineError):
    """Not enough credits for the bet or the Play, or nothing to cash out."""

    code = ErrorCode.INSUFFICIENT_CREDITS


class BetOutOfLimits(MachineError):
    """A bet above the maximum, below the minimum or off the Ante step; ``params["rule"]``
    names the limit (a :class:`~kiosk.game.error_codes.BetRule`: ``ante_max``,
    ``trips_max``, ``ante_step``, ``ante_min``, ``trips_min``, ``no_ante``) and
    ``params["cents"]`` its value."""

    code = ErrorCode.BET_OUT_OF_LIMITS


class PlayDisabled(MachineError):
    """A tilt stands or the door is open: no play and no bill acceptance."""

    code = ErrorCode.PLAY_DISABLED


class NotAuthorised(MachineError):
    """Wrong PIN, no operator logged in, or a role without the right."""

    code = ErrorCode.NOT_AUTHORISED


class WrongState(MachineError):
    """Not now: deal during a round, cash out during a round, paytable with credits..."""

    code = ErrorCode.WRONG_STATE


class ConfigurationError(MachineError):
    """A paytable or limits change that is invalid (bad file, RTP out of bounds...)."""

    code = ErrorCode.CONFIGURATION_ERROR


class TicketRefused(MachineError):
    """A TITO ticket that cannot be redeemed here; ``code`` says why: ``ticket_unknown``,
    ``ticket_pending``, ``ticket_void``, ``ticket_redeemed``, ``ticket_expired``,
    ``ticket_altered`` (amount mismatch) or ``ticket_in_escrow``."""

    code = ErrorCode.TICKET_REFUSED
