"""What the tournament table's buttons and keys ask for, as values: a decision or the
raise panel's (:class:`Move`, :class:`Preset`), the pages and pop-ups around the table
(:class:`Chrome`), the decision buttons both ends of the seat port show, and the
scene as what surrounds the table sees it (:class:`TableScreen`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine.holdem.views import LegalActions
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.raise_range import PresetKey, RaiseRange
from kiosk.ui.scenes.intents import TOP_COMMANDS, TopBar
from kiosk.ui.scenes.tournament.common import chips
from kiosk.ui.scenes.tournament.table_layout import RIGHT_X, ROW2, ROW_H
from kiosk.ui.widgets import Button, Canvas


class TableScreen(Protocol):
    """The table scene as what surrounds it sees it: its host, its pop-up (``menu``,
    ``abandon``, ``leave``), the raise panel and its amount, the passing note."""

    app: SceneHost
    popup: str | None
    panel: bool
    amount: int

    def show_note(self, words: Callable[[], str], seconds: float = 3.5) -> None: ...

    def note_text(self) -> str | None: ...

    def raise_range(self) -> RaiseRange | None: ...

    def draw_buttons(self, surface: Canvas, buttons: list[Button] | None = None) -> None: ...


class Move(Enum):
    """A decision, the raise panel's controls, the next hand, back."""

    FOLD = "fold"
    CHECK_OR_CALL = "check_or_call"
    RAISE = "raise"  # open the raise panel (or, open, confirm it)
    CONFIRM_RAISE = "confirm_raise"
    CANCEL_RAISE = "cancel_raise"
    MORE = "more"  # one big blind more
    LESS = "less"
    NEXT_HAND = "next_hand"
    BACK = "back"  # close the panel, else open the table's back pop-up


@dataclass(frozen=True)
class Preset:
    """A raise panel's preset."""

    key: PresetKey


class Chrome(Enum):
    """What lies around the table: pages, the menu and its settings, leaving."""

    SOUND = "sound"
    LANGUAGE = "language"
    HISTORY = "history"
    RANKINGS = "rankings"
    GUIDE = "guide"
    RESULTS = "results"
    MENU = "menu"
    CLOSE = "close"  # close the pop-up
    SPEED = "speed"
    EQUITY = "equity"
    DECK = "deck"
    SAVE_AND_LEAVE = "save_and_leave"
    ABANDON = "abandon"
    CONFIRM_ABANDON = "confirm_abandon"
    LEAVE = "leave"  # leave a game joined on another cabinet (asks first)
    CONFIRM_LEAVE = "confirm_leave"
    DONE = "done"  # back to the title when a joined game is over


#: The table's keys, at both ends: F fold, C (or K) check or call, R (or B) raise,
#: ↑ → / ↓ ← one big blind more / less, Space the next hand, Esc back; Enter confirms the
#: open raise panel, else deals the next hand (the scene reads it so with the panel closed).
KEYS: dict[str, Move] = {
    "return": Move.CONFIRM_RAISE,
    "f": Move.FOLD,
    "c": Move.CHECK_OR_CALL,
    "k": Move.CHECK_OR_CALL,
    "r": Move.RAISE,
    "b": Move.RAISE,
    "up": Move.MORE,
    "right": Move.MORE,
    "down": Move.LESS,
    "left": Move.LESS,
    "space": Move.NEXT_HAND,
    "escape": Move.BACK,
}

#: Keys a pop-up over the table lets through to the cabinet: L the language, F12 the
#: attendant key, F9 the door (and the digits, the demo's bills).
POPUP_PASS_KEYS = frozenset({"l", "f12", "f9"})

#: The top bar's requests that mean something at the table (the language, the sound).
TOP: dict[TopBar, Chrome] = {TopBar.LANGUAGE: Chrome.LANGUAGE, TopBar.SOUND: Chrome.SOUND}
#: The cabinet's shortcuts (:data:`kiosk.ui.shortcuts.SHORTCUTS`) that reach the table.
COMMANDS: dict[str, Chrome] = {name: TOP[t] for name, t in TOP_COMMANDS.items() if t in TOP}


def decision_buttons(la: LegalActions, rr: RaiseRange | None) -> list[Button]:
    """Fold, Check or Call (all in, or the chips to call), Bet or Raise (enabled when
    this seat may bet or raise: ``rr``)."""
    w = 262
    x = RIGHT_X + 12
    out = [
        Button(
            "fold",
            (x, ROW2, w, ROW_H),
            _("FOLD"),
            Move.FOLD,
            style="fold",
            hint="F",
            size=30,
            enabled=la.can_fold,
        )
    ]
    if la.can_check:
        call_label, call_sub = _("CHECK"), ""
    else:
        call_label = _("CALL")
        call_sub = _("All in") if la.call_amount >= la.stack else chips(la.call_amount)
    out.append(
        Button(
            "call",
            (x + w + 10, ROW2, w, ROW_H),
            call_label,
            Move.CHECK_OR_CALL,
            style="check",
            hint="C",
            size=30,
            sublabel=call_sub,
        )
    )
    label = _("BET") if la.can_bet else _("RAISE")
    out.append(
        Button(
            "raise",
            (x + 2 * (w + 10), ROW2, w, ROW_H),
            label,
            Move.RAISE,
            style="play",
            hint="R",
            size=30,
            enabled=rr is not None,
        )
    )
    return out
