"""What the player asks of the table: one small frozen record per kind of request.

The table's buttons carry these records; keyboard shortcuts (named
:class:`kiosk.ui.events.Command`) become one through :func:`from_command`.  The table
scene handles each type with one method (its handler map), and that method sends the
controller a :mod:`kiosk.game.commands` command when the request is one for the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from engine.uth.round import Action
from kiosk.game.vocabulary import Spot
from kiosk.ui.scenes.intents import ChooseLanguage


@dataclass(frozen=True)
class BetOn:
    """Put the selected chip on ``spot``."""

    spot: Spot


@dataclass(frozen=True)
class PickChip:
    """Select the chip at ``index`` of the chip rail."""

    index: int


@dataclass(frozen=True)
class StepChip:
    """Select the next (``step`` 1) or previous (-1) chip, wrapping round."""

    step: int


@dataclass(frozen=True)
class ClearChips:
    """Take back the chips placed since the last round."""


@dataclass(frozen=True)
class RepeatChips:
    """Place the previous round's bets again."""


@dataclass(frozen=True)
class DealRound:
    """Deal (after the previous round: rebet and deal when nothing is placed)."""


@dataclass(frozen=True)
class Choose:
    """Take the first of ``actions`` that is legal now (``PLAY MAX``: 4x, else 2x, else 1x)."""

    actions: tuple[Action, ...]


@dataclass(frozen=True)
class AskCashOut:
    """Show the cash-out confirmation."""


@dataclass(frozen=True)
class ConfirmCashOut:
    """Cash out every credit."""


@dataclass(frozen=True)
class ToggleLanguages:
    """Open (or close) the language picker."""


@dataclass(frozen=True)
class ClosePopup:
    """Close the picker or the confirmation (Esc, CLOSE, CANCEL)."""


TableIntent = (
    BetOn | PickChip | StepChip | ClearChips | RepeatChips | DealRound | Choose | AskCashOut | ConfirmCashOut
    | ToggleLanguages | ChooseLanguage | ClosePopup
)

PLAY_MAX = Choose((Action.PLAY_4X, Action.PLAY_2X, Action.PLAY_1X))

#: Shortcut command name -> the request it stands for (see :data:`kiosk.ui.input.SHORTCUTS`).
_FROM_COMMAND: dict[str, Callable[[object], TableIntent]] = {
    "language": lambda _arg: ToggleLanguages(),
    "set_language": lambda arg: ChooseLanguage(str(arg)),
    "close_popup": lambda _arg: ClosePopup(),
    "back": lambda _arg: ClosePopup(),
    "chip_select": lambda arg: PickChip(int(str(arg))),
    "chip_prev": lambda _arg: StepChip(-1),
    "chip_next": lambda _arg: StepChip(1),
    "chip": lambda arg: BetOn(cast(Spot, str(arg))),
    "clear": lambda _arg: ClearChips(),
    "repeat": lambda _arg: RepeatChips(),
    "deal": lambda _arg: DealRound(),
    "cashout": lambda _arg: AskCashOut(),
    "confirm_cashout": lambda _arg: ConfirmCashOut(),
    "decide": lambda arg: Choose((Action(str(arg)),)),
    "play_max": lambda _arg: PLAY_MAX,
    "play_3x": lambda _arg: Choose((Action.PLAY_3X,)),
    "check": lambda _arg: Choose((Action.CHECK,)),
    "fold": lambda _arg: Choose((Action.FOLD,)),
}


def from_command(name: str, arg: object = None) -> TableIntent | None:
    """The request a named command stands for on the table, or ``None`` (not the table's)."""
    make = _FROM_COMMAND.get(name)
    return make(arg) if make is not None else None
