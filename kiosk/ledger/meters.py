"""The meters: their names, the meter effects of a round row (an event's are declared
with its kind, :mod:`kiosk.ledger.kinds`), and the balance of where the money went (all
amounts in cents)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any, Literal

from kiosk.ledger.errors import LedgerError
from kiosk.ledger.kinds import CREDITS, event_effects  # noqa: F401 (re-exported)

#: Lifetime meters (never decrease) and what they count.  ``bill.<cents>`` meters
#: (count of bills of that denomination) are created on first use.
METERS: dict[str, str] = {
    "coin_in": "total wagered, cents",
    "coin_out": "total returned to the credit meter by games (stakes and wins), cents",
    "jackpot": "game wins paid by an attendant (jackpot handpay), cents",
    "jackpot_count": "jackpot handpays",
    "games_played": "rounds settled",
    "games_won": "settled rounds that returned more than was staked",
    "games_lost": "settled rounds that returned less than was staked",
    "games_pushed": "settled rounds that returned exactly the stake",
    "games_voided": "rounds voided (stakes refunded) by a RAM clear",
    "bills_in": "bills stacked, cents",
    "bills_in_count": "bills stacked",
    "test_credits_in": "test credits of a technician's burn-in session, cents",
    "test_credits_in_count": "test credits of a burn-in session, insertions",
    "tickets_in": "tickets redeemed, cents",
    "tickets_in_count": "tickets redeemed",
    "system_tickets_in": "tickets of other machines redeemed through the casino's system, cents",
    "system_tickets_in_count": "tickets of other machines redeemed through the casino's system",
    "tickets_out": "tickets printed, cents",
    "tickets_out_count": "tickets printed",
    "handpay": "cancelled credits paid by an attendant, cents",
    "handpay_count": "cancelled-credit handpays",
    "cashout_started": "credits taken off the meter for a payout, cents",
    "cashout_failed": "payouts that failed and went back to the credit meter, cents",
    "ram_clear_credits": "credits removed by RAM clears, cents",
    "ram_clears": "RAM clears",
}
#: Meters added after ledgers were already in service: a ledger created before them
#: has no row until first use (then it counts from zero like every meter).
LATER_METERS = frozenset(
    {"test_credits_in", "test_credits_in_count", "system_tickets_in", "system_tickets_in_count"}
)

#: The progressive's lifetime meters (cents, but for the counts), created on first use
#: like the ``bill.<cents>`` meters.  Their event kinds are in :mod:`kiosk.ledger.kinds`.
PROGRESSIVE_METERS: dict[str, str] = {
    "progressive_wagered": "progressive wagers taken (also in coin_in), cents",
    "progressive_wagers": "progressive wagers taken",
    "progressive_refunded": "progressive wagers refunded by a voided round (also in coin_out), cents",
    "progressive_contributed": "wagers' contributions to the progressive meter, cents",
    "progressive_reserved": "wagers' contributions to the hidden reserve (and overflow above the ceiling), cents",
    "progressive_hit": "taken off the progressive meter by awards on it (paid and breakage), cents",
    "progressive_hits": "award lines on the progressive meter settled",
    "progressive_breakage": "cents of a shared meter award left over after equal shares, cents",
    "progressive_reset": "put on the progressive meter by resets (its seed), cents",
    "progressive_resets": "resets of the progressive meter",
    "progressive_reserve_drawn": "taken from the reserve to fund resets, cents",
    "progressive_paid": "progressive awards won, meter and fixed, credited or hand-paid, cents",
    "progressive_awards": "progressive awards won",
    "progressive_hand_paid": "progressive awards paid by hand at the jackpot limit (also in progressive_paid), cents",
    "progressive_link_contributed": "wagers' contributions to the casino controller's linked level, cents",
    "progressive_link_won": "awards on the casino controller's linked level (also in progressive_paid), cents",
    "progressive_link_wins": "awards on the casino controller's linked level",
    "progressive_adjusted_up": "put on the progressive meter by managers' countersigned adjustments, cents",
    "progressive_adjusted_down": "taken off the progressive meter by managers' countersigned adjustments, cents",
    "progressive_adjustments": "managers' countersigned adjustments of the progressive meter",
}


def progressive_levels(meters: Mapping[str, int]) -> tuple[int, int]:
    """The progressive meter and the hidden reserve (cents) the lifetime meters hold:

    meter = contributed + reset - hit + adjusted up - adjusted down,
    reserve = reserved - reserve drawn.

    Only a ``progressive_hit`` (an award on the meter) and a manager's countersigned
    adjustment down take anything off the meter."""
    m = {k: meters.get(k, 0) for k in PROGRESSIVE_METERS}
    meter = (
        m["progressive_contributed"]
        + m["progressive_reset"]
        - m["progressive_hit"]
        + m["progressive_adjusted_up"]
        - m["progressive_adjusted_down"]
    )
    reserve = m["progressive_reserved"] - m["progressive_reserve_drawn"]
    return meter, reserve


#: A settled round's result, judged on everything it staked (Ante, Blind, Play and
#: Trips) against everything it paid back (jackpots included): see :func:`round_result`.
RoundResult = Literal["won", "lost", "pushed"]


def round_result(staked: int, paid: int, jackpot: int = 0) -> RoundResult:
    """The one definition of a settled round's result, read by the ``games_won`` /
    ``games_lost`` / ``games_pushed`` meters and by game recall: ``won`` when the round
    paid back (``paid`` plus ``jackpot``, cents) more than it ``staked`` (cents, all
    bets), ``lost`` when less, ``pushed`` when exactly as much.  A fold is judged the
    same way (lost, unless the Trips paid more than was staked); the main bets' own
    outcome (win, loss, push, fold) is a different fact, kept in the round's row."""
    net = paid + jackpot - staked
    return "won" if net > 0 else "lost" if net < 0 else "pushed"


def round_effects(row: Mapping[str, Any]) -> dict[str, int]:
    """Meter totals implied by one round row as it stands (open, settled or voided)."""
    staked = row["ante"] + row["blind"] + row["play"] + row["trips"]
    paid = row["paid"] or 0
    jackpot = row["jackpot"] or 0
    out = {"coin_in": staked, "coin_out": paid, CREDITS: paid - staked}
    if jackpot:
        out["jackpot"] = jackpot
        out["jackpot_count"] = 1
    if row["state"] == "settled":
        out["games_played"] = 1
        out[f"games_{round_result(staked, paid, jackpot)}"] = 1
    elif row["state"] == "voided":
        out["games_voided"] = 1
    return out


def balance(meters: Mapping[str, int]) -> dict[str, Any]:
    """Where the money went, from the meters (cents).  ``balanced`` when

    credits in = credits out + credits on the meter + pending payout + RAM-cleared
    + house net win,

    with credits in = bills + tickets in (this machine's, and other machines' redeemed
    through the casino's system) + test credits (a burn-in session's, never counted as
    bills in), credits out = handpays + tickets out + jackpots,
    and house net win = coin in - coin out - jackpots.
    """
    m = {k: meters.get(k, 0) for k in (*METERS, CREDITS)}
    out = {
        "credits_in": m["bills_in"]
        + m["tickets_in"]
        + m["system_tickets_in"]
        + m["test_credits_in"],
        "credits_out": m["handpay"] + m["tickets_out"] + m["jackpot"],
        "credits": m[CREDITS],
        "payout_pending": m["cashout_started"]
        - m["cashout_failed"]
        - m["handpay"]
        - m["tickets_out"],
        "ram_cleared": m["ram_clear_credits"],
        "house_net_win": m["coin_in"] - m["coin_out"] - m["jackpot"],
    }
    out["balanced"] = out["credits_in"] == (
        out["credits_out"]
        + out["credits"]
        + out["payout_pending"]
        + out["ram_cleared"]
        + out["house_net_win"]
    )
    return out


def apply_meters(
    conn: sqlite3.Connection, meters: dict[str, int], deltas: Mapping[str, int]
) -> None:
    """Add ``deltas`` to the ``meters`` table and to ``meters`` (its copy in memory),
    inside the caller's transaction; raises :class:`LedgerError` if one would go
    negative (the caller's rollback undoes the rows already changed)."""
    for name, delta in deltas.items():
        if not delta:
            continue
        value = meters.get(name, 0) + delta
        if value < 0:
            raise LedgerError(f"meter {name} would go negative")
        if name in meters:
            conn.execute("UPDATE meters SET value = ? WHERE name = ?", (value, name))
        else:
            conn.execute("INSERT INTO meters (name, value) VALUES (?, ?)", (name, value))
        meters[name] = value


def _sub(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) - v
    return {k: v for k, v in out.items() if v}
