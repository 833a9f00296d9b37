"""Money as text.  Amounts are integer cents everywhere; this is the one formatter."""

from __future__ import annotations


def format_cents(cents: int) -> str:
    """``123456`` -> ``"$1,234.56"``; ``-250`` -> ``"-$2.50"``."""
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${dollars:,}.{rest:02d}"
