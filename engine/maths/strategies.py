"""Every playing strategy by name: ``optimal``, ``simple`` and ``cautious``.

:func:`get_strategy` binds a strategy to a paytable (and a reduced deck, for
verification); the rule strategies are the same whatever the paytable.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.maths.optimal import OptimalStrategy
from engine.maths.strategy import RULE_STRATEGIES, Strategy
from engine.uth.paytable import PAYTABLE_DIR, Paytable, load_paytable

STRATEGIES: dict[str, Strategy] = {"optimal": OptimalStrategy(), **RULE_STRATEGIES}


def get_strategy(
    name: str, table: Paytable | None = None, deck: Sequence[int] | None = None
) -> Strategy:
    """The strategy ``name`` for ``table`` (and a reduced ``deck``, for verification)."""
    try:
        base = STRATEGIES[name]
    except KeyError:
        raise ValueError(
            f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}"
        ) from None
    if table is None and deck is None:
        return base
    if table is None:
        table = load_paytable(PAYTABLE_DIR / "standard.toml")
    return base.for_paytable(table, deck)
