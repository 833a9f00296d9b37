"""What a touch, a key or the app asks of an operator menu: typed intents.

The operator menu (:mod:`kiosk.ui.scenes.operator.scene`, at a cabinet and at a
station) dispatches on an :class:`Intent` in one ``match``; the values are the command
names the app, the keypad and the buttons send (``key_switch``, ``digit``, ``enter``,
...), so a name becomes an intent once, where it enters.  What the menu does not use goes
to the page shown (:meth:`kiosk.ui.scenes.operator.page.Page.on_intent`), with the
pages' own requests below: frozen records and enums that the pages' buttons carry, each
page handling them in one ``match`` (the shared :class:`~kiosk.ui.scenes.intents.Nav`,
:class:`~kiosk.ui.scenes.intents.TypeKey` and :class:`~kiosk.ui.scenes.intents.Edit`
too).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class Intent(StrEnum):
    """What the operator asks for."""

    KEY_SWITCH = "key_switch"  # the operator key (the app's)
    CANCEL = "cancel"
    LOGOUT = "logout"  # LOG OUT or CANCEL: close the menu
    BACK = "back"  # MENU or Esc: a dialog, then the page, then the menu
    DIGIT = "digit"  # the keypad (arg: the digit; a page gets a :class:`Digit`)
    CLEAR = "clear"
    ENTER = "enter"
    LIFT = "lift"  # LIFT THE LOCK: two PINs follow
    OPEN = "open"  # a page of the menu (arg: its id, a key of the menu's PAGES)
    REFRESH = "refresh"  # a page's list read again (the table status, the export media)


#: A real keyboard's keys that press the keypad's: Enter and Backspace (CLEAR).
PAD_KEYS: dict[str, Intent] = {"return": Intent.ENTER, "backspace": Intent.CLEAR}


@dataclass(frozen=True)
class Digit:
    """A keypad's digit, as a page gets it (the RAM clear's witness PIN and code, the
    progressive meter's new amount and its witness PIN)."""

    digit: str


class Dialog(Enum):
    """A change reviewed before it is made (:mod:`kiosk.ui.scenes.operator.confirm`),
    and the paytable editor's question before a draft is dropped."""

    REVIEW = "review"  # APPLY, PUT IN FORCE: show what will change
    CONFIRM = "confirm"
    CANCEL = "cancel"
    UNDO = "undo"  # the draft back to what is in force
    LEAVE = "leave"  # drop the draft
    STAY = "stay"


class Act(Enum):
    """A page's one-off actions."""

    DOOR = "door"  # the main door switch, simulated (demo mode)
    RENAME = "rename"  # the export's file name on the on-screen keyboard
    EXPORT = "export"
    COMPUTE = "compute"  # the draft paytable's exact RTP
    REQUEST_RAM_CLEAR = "request_ram_clear"
    ADJUST_METER = "adjust_meter"  # the progressive meter's adjustment: the keypad up
    ADJUST_REASON = "adjust_reason"  # the next reason for the adjustment


@dataclass(frozen=True)
class ClearTiltAt:
    """Clear the tilt ``code`` at ``station`` (None: at this cabinet)."""

    code: str
    station: int | None = None


@dataclass(frozen=True)
class HandpayPaidAt:
    """The hand pay pending at ``station`` (None: at this cabinet) was paid."""

    station: int | None = None


@dataclass(frozen=True)
class ShowMeters:
    """The meters of ``scope`` (a key of the meters page's ``SCOPES``)."""

    scope: str


@dataclass(frozen=True)
class SetCoach:
    """Turn the strategy coach ``on`` or off."""

    on: bool


@dataclass(frozen=True)
class Verify:
    """Check the ledger's hash chain (``replay``: and replay every round)."""

    replay: bool


@dataclass(frozen=True)
class ChooseMedium:
    """Export to ``folder`` (a USB stick's, or the cabinet's own)."""

    folder: str


@dataclass(frozen=True)
class Step:
    """Move ``field`` of a draft (limits, paytable) one step up (``sign`` 1) or down (-1)."""

    field: str
    sign: int


@dataclass(frozen=True)
class ShowTab:
    """The paytable editor's tab ``tab``."""

    tab: str


class FileAction(Enum):
    """What to do with a paytable of the folder."""

    SELECT = "select"  # and review it
    COPY = "copy"  # NEW FROM…: the editor, from this table
    EXPORT = "export"  # EXPORT…: its TOML and PAR sheet


@dataclass(frozen=True)
class PaytableFile:
    """A paytable of the folder, by ``file`` name, and what to do with it."""

    file: str
    action: FileAction
