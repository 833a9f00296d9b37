"""What a touch, a key or the app asks of an operator menu: typed intents.

The menus (the cabinet's :mod:`kiosk.ui.scenes.operator.scene`, a station's
:mod:`kiosk.ui.station.operator_scene` and its configuration pages,
:mod:`kiosk.ui.station.operator_config`) dispatch on an :class:`Intent` in one
``match``; the values are the command names the app, the keypad and the buttons send
(``key_switch``, ``digit``, ``enter``, ...), so a name becomes an intent once, where it
enters.  A command no intent names is a page's own (the cabinet's pages).
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
    OPEN = "open"  # a page of the menu (arg: its :class:`PageId`)
    REFRESH = "refresh"
    CLEAR_TILT = "clear_tilt"  # arg: (station, tilt code)
    HANDPAY_PAID = "handpay_reset"  # arg: the station
    LIMIT = "limit"  # a limit a step up or down (arg: (field, +1 or -1))
    APPLY_LIMITS = "apply_limits"  # the limits' change, for confirmation
    SELECT_TABLE = "select_table"  # a paytable, for confirmation (arg: its SHA-256)
    SCROLL_TABLES = "scroll_tables"  # arg: +1 or -1
    CANCEL_CONFIG = "cancel_config"
    CONFIRM_LIMITS = "confirm_limits"
    CONFIRM_PAYTABLE = "confirm_paytable"


class PageId(StrEnum):
    """A station's menu's pages (a button ``page_<id>`` opens one)."""

    STATUS = "status"
    METERS = "meters"
    RECALL = "recall"
    LIMITS = "limits"
    PAYTABLES = "paytables"
