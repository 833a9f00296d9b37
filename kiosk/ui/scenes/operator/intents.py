"""What a touch, a key or the app asks of an operator menu: typed intents.

The operator menu (:mod:`kiosk.ui.scenes.operator.scene`, at a cabinet and at a
station) dispatches on an :class:`Intent` in one ``match``; the values are the command
names the app, the keypad and the buttons send (``key_switch``, ``digit``, ``enter``,
...), so a name becomes an intent once, where it enters.  A command no intent names is
a page's own.
"""

from __future__ import annotations

from enum import StrEnum


class Intent(StrEnum):
    """What the operator asks for."""

    KEY_SWITCH = "key_switch"  # the operator key (the app's)
    CANCEL = "cancel"
    LOGOUT = "logout"  # LOG OUT or CANCEL: close the menu
    BACK = "back"  # MENU or Esc: a dialog, then the page, then the menu
    DIGIT = "digit"  # the PIN pad (arg: the digit)
    CLEAR = "clear"
    ENTER = "enter"
    LIFT = "lift"  # LIFT THE LOCK: two PINs follow
    OPEN = "open"  # a page of the menu (arg: its id, a key of the menu's PAGES)
    REFRESH = "refresh"
    CLEAR_TILT = "clear_tilt"  # arg: (station, tilt code)
    HANDPAY_PAID = "handpay_reset"  # arg: the station
