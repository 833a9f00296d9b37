"""The refusals of the cabinet controller: the :class:`MachineError` family.

Every refused operation raises one of these before any state changes.  ``reason`` is
English for operators and logs; ``code`` is a stable machine-readable name and
``params`` the values the message needs (amounts in cents): the screens turn
``(code, params)`` into a translated message (:mod:`kiosk.ui.machine_messages`).
"""

from __future__ import annotations

from typing import Any


class MachineError(ValueError):
    """An operation the machine refuses now.

    ``code`` is the class's own (e.g. ``insufficient_credits``) unless a more precise one
    is given (such as ``credit_limit`` or ``ticket_redeemed``).
    """

    code = "refused"

    def __init__(
        self, reason: str, *, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        if code:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})


class InsufficientCredits(MachineError):
    """Not enough credits for the bet or the Play, or nothing to cash out."""

    code = "insufficient_credits"


class BetOutOfLimits(MachineError):
    """A bet above the maximum, below the minimum or off the Ante step; ``params["rule"]``
    names the limit (``ante_max``, ``trips_max``, ``ante_step``, ``ante_min``,
    ``trips_min``, ``no_ante``) and ``params["cents"]`` its value."""

    code = "bet_out_of_limits"


class PlayDisabled(MachineError):
    """A tilt stands or the door is open: no play and no bill acceptance."""

    code = "play_disabled"


class NotAuthorised(MachineError):
    """Wrong PIN, no operator logged in, or a role without the right."""

    code = "not_authorised"


class WrongState(MachineError):
    """Not now: deal during a round, cash out during a round, paytable with credits..."""

    code = "wrong_state"


class ConfigurationError(MachineError):
    """A paytable or limits change that is invalid (bad file, RTP out of bounds...)."""

    code = "configuration_error"


class TicketRefused(MachineError):
    """A TITO ticket that cannot be redeemed here; ``code`` says why: ``ticket_unknown``,
    ``ticket_pending``, ``ticket_void``, ``ticket_redeemed``, ``ticket_expired``,
    ``ticket_altered`` (amount mismatch) or ``ticket_in_escrow``."""

    code = "ticket_refused"
