"""The words of money that a station, the link and the game service share, declared once.

* :class:`MoneyOutcome`: how the game service left a station's money command (a
  validator's report, a printer's, a burn-in's test credits, a validation number from the
  casino's system).  :meth:`Table.execute <kiosk.service.table.Table.execute>` returns it for
  those commands and an :class:`~kiosk.link.messages.EscrowAck` carries it back to the
  station.  Its values are the words the ledger, the logs and the casino's system have
  always read (a :class:`~enum.StrEnum`: ``MoneyOutcome.CREDITED == "credited"``).
* :class:`EscrowEnd`: how a station's validator ended an escrow (phase two), the word the
  station reports.

A printer's own words are :class:`devices.host.PrintOutcome`; a device's fault is a
:class:`devices.host.EventKind`.
"""

from __future__ import annotations

from enum import StrEnum


class MoneyOutcome(StrEnum):
    """How a station's money command left its escrow or its payout."""

    CREDITED = "credited"  # on the station's meter (a note, a ticket redeemed, test credits)
    REJECTED = "rejected"  # a stacked ticket that could not be redeemed: the station tilts
    RETURNED = "returned"  # back with the patron; a ticket not printed: credits back
    IN_DOUBT = "in_doubt"  # a fault ended the escrow: where the item went is unknown
    OPEN = "open"  # the validator's port was lost: its next report settles the escrow
    UNKNOWN = "unknown"  # no such escrow or payout of this station
    ISSUED = "issued"  # the cash-out's ticket printed
    HANDPAY = "handpay"  # the cash-out is paid by an attendant
    TICKET = "ticket"  # the casino's system numbered the cash-out's ticket: to print
    REFUSED = "refused"  # on the wire only: the service refused the report (see its reason)


#: The outcomes a station's report is accepted with (the item credited, the ticket out).
ACCEPTED: frozenset[MoneyOutcome] = frozenset({MoneyOutcome.CREDITED, MoneyOutcome.ISSUED})


class EscrowEnd(StrEnum):
    """How a station's validator ended an escrow, as the station reports it."""

    VEND_VALID = "vend_valid"  # VEND VALID: the item is in the box, credit it
    STACKED = "stacked"  # in the box without a VEND VALID (the reason says why)
    RETURNED = "returned"  # back with the patron (refused, rejected, superseded...)
    IN_DOUBT = "in_doubt"  # ended by a fault, or the port lost: where it went is unknown
