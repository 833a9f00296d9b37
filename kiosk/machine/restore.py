"""The cabinet state rebuilt from a verified ledger: paytable and limits in force,
tilts, the door, a pending payout, and the open round replayed from its records (or
the last settled one, for display)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from engine.uth.replay import replay
from kiosk.config import CabinetConfig
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.ledger import Ledger
from kiosk.machine.round_book import reopen
from kiosk.machine.snapshot import PayoutRequest
from kiosk.machine.state import (
    DEVICE_TILT_PREFIX,
    RESTORED_DEVICE_KINDS,
    SEAT,
    Bets,
    CabinetState,
)


def restore(config: CabinetConfig, ledger: Ledger, clock: Callable[[], datetime]) -> CabinetState:
    """The state the ledger records.  Raises :class:`LedgerCorruptError` when the open
    round does not replay to its stored row."""
    paytable, limits = ledger.table_in_force()
    st = CabinetState(config=config, ledger=ledger, clock=clock, paytable=paytable, limits=limits)
    _restore_tilts(st, ledger)
    door = ledger.last_event("door_open", "door_closed")
    st.door_open = door is not None and door.kind == "door_open"
    pay = ledger.last_event("cashout", "handpay", "ticket_out", "cashout_failed")
    if pay is not None and pay.kind == "cashout":
        method = pay.detail["method"]
        if pay.txn and ledger.has_txn(pay.txn, "cashout_handpay"):
            method = "handpay"  # the ticket could not be printed: an attendant pays
        st.cashout = PayoutRequest(pay.txn or "", pay.amount, method, pay.at)
    _restore_round(st, ledger)
    return st


def restored_tilt(code: str) -> bool:
    """Whether a tilt with ``code`` stands again at power-up: every machine tilt and the
    one-shot money tilts of devices (:data:`RESTORED_DEVICE_KINDS`); a device's standing
    condition is re-reported by the device while it stands."""
    if not code.startswith(DEVICE_TILT_PREFIX):
        return True
    return code.rsplit(":", 1)[-1] in RESTORED_DEVICE_KINDS


def _restore_tilts(st: CabinetState, ledger: Ledger) -> None:
    """Tilts stand until cleared (see :func:`restored_tilt`)."""
    for ev in ledger.events(("tilt", "tilt_cleared", "ram_clear")):
        code = ev.detail.get("code", "")
        if ev.kind == "ram_clear":
            st.tilts.clear()
        elif ev.kind == "tilt" and restored_tilt(code):
            st.tilts[code] = ev.detail.get("message", "")
        elif ev.kind == "tilt_cleared":
            st.tilts.pop(code, None)


def _restore_round(st: CabinetState, ledger: Ledger) -> None:
    """The open round, replayed from its records (:func:`reopen`, seat 1's alone), or
    the last one for display."""
    found = reopen(ledger)
    if found is not None:
        if set(found.row_ids) != {SEAT}:
            raise LedgerCorruptError(
                f"the open round is dealt to seats {sorted(found.row_ids)}, not seat {SEAT} alone",
                f"rounds {found.first_id}",
            )
        st.round, st.round_id, st.round_open = found.round, found.row_ids[SEAT], True
        st.commitment = found.commitment
        st.last_bets = found.bets[SEAT]
        return
    last = ledger.last_settled()
    if last is None:
        return
    st.last_bets = Bets(last.ante, last.trips)
    st.round_id, st.commitment, st.jackpot = last.id, last.commitment, last.jackpot
    if last.state == "settled":
        st.round = replay(ledger.paytable(last.paytable_sha256), last.deck, last.inputs())
