"""Denomination tables: ID-003 escrow codes <-> note values in cents.

An ID-003 validator reports a note in escrow by a code 0x61.. whose meaning depends on its
currency assignment; the 0xC0 command inhibits codes by bit (bit 0 = code 0x61).  A
:class:`DenominationTable` says which codes the cabinet accepts and what each is worth.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FIRST_CODE = 0x61
LAST_CODE = 0x70  # 16 codes, the two bytes of the 0xC0 inhibit mask


@dataclass(frozen=True, slots=True)
class Denomination:
    """One note: its escrow code and its value in cents."""

    escrow_code: int
    cents: int

    def __post_init__(self) -> None:
        if not FIRST_CODE <= self.escrow_code <= LAST_CODE:
            raise ValueError(f"escrow code 0x{self.escrow_code:02X} outside 0x61..0x70")
        if isinstance(self.cents, bool) or not isinstance(self.cents, int) or self.cents <= 0:
            raise ValueError(f"denomination must be positive integer cents: {self.cents!r}")

    @property
    def bit(self) -> int:
        """Bit index of this code in the 16-bit 0xC0 inhibit mask."""
        return self.escrow_code - FIRST_CODE


@dataclass(frozen=True, slots=True)
class DenominationTable:
    """The notes a cabinet accepts, keyed by escrow code."""

    denominations: tuple[Denomination, ...]

    def __post_init__(self) -> None:
        codes = [d.escrow_code for d in self.denominations]
        if len(set(codes)) != len(codes):
            raise ValueError(f"duplicate escrow codes in {codes}")

    @classmethod
    def from_mapping(cls, codes_to_cents: Mapping[int, int]) -> DenominationTable:
        """Build from ``{escrow_code: cents}``."""
        return cls(tuple(Denomination(c, v) for c, v in sorted(codes_to_cents.items())))

    def cents_for(self, escrow_code: int) -> int | None:
        """Value in cents of ``escrow_code``, or None if this table does not accept it."""
        for d in self.denominations:
            if d.escrow_code == escrow_code:
                return d.cents
        return None

    def code_for(self, cents: int) -> int | None:
        """Escrow code of the note worth ``cents``, or None."""
        for d in self.denominations:
            if d.cents == cents:
                return d.escrow_code
        return None

    def only(self, cents: Iterable[int]) -> DenominationTable:
        """The sub-table of the given values; raises ValueError for a value not in the table."""
        wanted = set(cents)
        missing = wanted - {d.cents for d in self.denominations}
        if missing:
            raise ValueError(f"not in table: {sorted(missing)} cents")
        return DenominationTable(tuple(d for d in self.denominations if d.cents in wanted))

    def inhibit_mask(self) -> bytes:
        """0xC0 data: two bytes, low first, a set bit inhibits that code."""
        enabled = 0
        for d in self.denominations:
            enabled |= 1 << d.bit
        mask = ~enabled & 0xFFFF
        return bytes((mask & 0xFF, mask >> 8))


def enabled_codes(inhibit_mask: bytes) -> frozenset[int]:
    """Escrow codes left enabled by a 0xC0 data field (the inverse of ``inhibit_mask``)."""
    mask = inhibit_mask[0] | (inhibit_mask[1] << 8) if len(inhibit_mask) >= 2 else 0xFFFF
    return frozenset(FIRST_CODE + bit for bit in range(16) if not mask & (1 << bit))


#: JCM's USD currency assignment: $1, $2, $5, $10, $20, $50, $100.
USD_ASSIGNMENT = DenominationTable.from_mapping(
    {0x61: 100, 0x62: 200, 0x63: 500, 0x64: 1000, 0x65: 2000, 0x66: 5000, 0x67: 10000}
)

#: What the cabinet accepts by default: USD $1, $5, $10, $20, $50, $100 (no $2).
DEFAULT_USD = USD_ASSIGNMENT.only([100, 500, 1000, 2000, 5000, 10000])
