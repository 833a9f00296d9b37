"""The value types of a Hold'em hand: streets, dealer jobs and a player's action.

Chips are whole numbers (tournament points, never credits).  An :class:`Action`'s
``amount`` is the seat's total for the betting round ("raise to"), never an increment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum
from typing import Any

MIN_SEATS = 2
MAX_SEATS = 6

Evaluate = Callable[[Sequence[int]], int]
"""Maps seven cards to a strength; a higher strength wins."""


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class DealerJob(Enum):
    """Work for the dealer; each has ``verify_/can_/`` methods of the same name."""

    POST_BLINDS = "post_blinds"
    DEAL_HOLE = "deal_hole"
    BURN_CARD = "burn_card"
    DEAL_BOARD = "deal_board"
    SHOW_HANDS = "show_hands"
    PUSH_CHIPS = "push_chips"


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "allin"


@dataclass(frozen=True, slots=True)
class Action:
    """A player's decision; ``amount`` is the total for the round ("to"), bet/raise only."""

    kind: ActionKind
    amount: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)

    def to_list(self) -> list[Any]:
        """JSON form used by replay files: ``["raise", 60]`` or ``["call"]``."""
        return [self.kind.value] if self.amount is None else [self.kind.value, self.amount]

    @classmethod
    def from_list(cls, item: Any) -> Action:
        """Parse ``["raise", 60]`` / ``["fold"]``; raises ``ValueError`` if malformed."""
        if isinstance(item, str):
            item = [item]
        if not isinstance(item, list | tuple) or not item or not isinstance(item[0], str):
            raise ValueError(f'an action is a list like ["call"] or ["raise", 60], not {item!r}')
        try:
            kind = ActionKind(item[0].lower())
        except ValueError:
            names = ", ".join(k.value for k in ActionKind)
            raise ValueError(f"unknown action {item[0]!r} (one of {names})") from None
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if len(item) != 2 or type(item[1]) is not int:
                raise ValueError(f'{kind.value} needs a whole-number amount: ["{kind.value}", 60]')
            return cls(kind, item[1])
        if len(item) != 1:
            raise ValueError(f"{kind.value} takes no amount")
        return cls(kind)
