"""What a touch, a key or the app asks of a station's operator menu: typed intents.

Every button of the menu (:mod:`kiosk.ui.station.operator_scene` and its configuration
pages, :mod:`kiosk.ui.station.operator_config`) carries an :class:`Intent` as its
command, and the scene dispatches on it in one ``match``; the values are the command
names the app and the keypad send (``key_switch``, ``digit``, ``enter``, ...).
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
    """The menu's pages (a button ``page_<id>`` opens one)."""

    STATUS = "status"
    METERS = "meters"
    RECALL = "recall"
    LIMITS = "limits"
    PAYTABLES = "paytables"
