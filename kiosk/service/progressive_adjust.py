"""A manager's adjustment of the table's standalone progressive meter, countersigned.

A manager logged in at a station, its main door open, sets the meter to a new amount
(cents, up or down) with a second person's PIN (another account: the RAM clear's
countersignature, :meth:`kiosk.service.operators.Operators.second_person`).  Refused
when the paytable in force offers no progressive, when the table's progressive is linked
(the casino's controller keeps that meter: :mod:`kiosk.service.progressive_link`), while
a round is in play, and for an amount below 0 or above the paytable's ``ceiling``.

The adjustment is one event in one transaction, ``progressive_adjusted_up`` or
``progressive_adjusted_down`` with the amount moved (cents) and, in its detail, the
manager, the witness, the meter before and after and the reason; the lifetime meters of
those kinds enter the meter (:func:`kiosk.ledger.meters.progressive_levels`), so the
ledger's verify adds them up from the events like every other.  The reserve is not
touched.  Nothing is recorded when the meter already stands at the amount.
"""

from __future__ import annotations

from engine.money import format_cents as money
from kiosk.game.commands import AdjustReason
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError, NotAuthorised, WrongState
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.kinds import EventKind
from kiosk.service.operators import Operators
from kiosk.service.progressive import levels
from kiosk.service.state import TableState

#: What the door's refusal names.
WHAT = "a progressive meter adjustment"


def adjust_meter(
    st: TableState,
    ops: Operators,
    n: int,
    cents: int,
    witness_pin: str,
    reason: AdjustReason,
) -> int:
    """The manager logged in at station ``n`` sets the progressive meter to ``cents``,
    countersigned by ``witness_pin`` (see the module); returns the meter before (cents).
    Every refusal is raised before anything is written; a wrong witness PIN is recorded
    and counted as every wrong PIN is."""
    ledger = st.require_ledger()
    manager = st.require_role(n, "manager")
    st.require_door_open(n, WHAT)
    table = st.paytable.progressive
    if table is None:
        raise WrongState(f"{st.paytable.name} offers no progressive", code=ErrorCode.NO_PROGRESSIVE)
    if st.config.progressive_link is not None:
        raise WrongState(
            "the progressive is linked: its meter is the casino's controller's",
            code=ErrorCode.PROGRESSIVE_LINKED,
        )
    if st.round_open:
        raise WrongState(f"{WHAT} only between rounds", code=ErrorCode.ROUND_IN_PROGRESS)
    if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents <= table.ceiling:
        raise ConfigurationError(
            f"the progressive meter is set from {money(0)} to {money(table.ceiling)}",
            code=ErrorCode.METER_OUT_OF_RANGE,
            params={"cents": table.ceiling},
        )
    if not witness_pin:
        raise NotAuthorised(
            f"{WHAT} needs a second operator's PIN", code=ErrorCode.WITNESS_REQUIRED
        )
    witness = ops.second_person(n, witness_pin, manager, "progressive_adjust")
    before = levels(ledger).meter
    if cents == before:
        return before
    session = st.station(n).operator
    detail = {
        "operator": manager,
        "role": session.role if session is not None else None,
        "witness": witness.name,
        "witness_role": witness.role,
        "before": before,
        "after": cents,
        "reason": AdjustReason(reason).value,
        "paytable": st.paytable.sha256,
        **st.at(n),
    }
    kind = (
        EventKind.PROGRESSIVE_ADJUSTED_UP if cents > before else EventKind.PROGRESSIVE_ADJUSTED_DOWN
    )
    with ledger.transaction():
        st.event(kind, detail, n, amount=abs(cents - before))
        if levels(ledger).meter != cents:
            raise LedgerError(f"the progressive would stand at {levels(ledger).meter}, not {cents}")
    return before
