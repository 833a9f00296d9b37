"""The keyboard: which key stands for which named command.

A table, so that the help screen can list the shortcuts and tests can check every
listed key does something.  Key names are pygame's (``"space"``, ``"f12"``, ``"a"``).
"""

from __future__ import annotations

#: Demo-mode bill keys: key name -> note in cents (the simulated validator's notes).
BILL_KEYS: dict[str, int] = {
    "1": 100, "2": 500, "3": 1000, "4": 2000, "5": 5000, "6": 10000,
}

#: Shortcut commands that stand for the cabinet's switches (the operator key switch, the
#: main door switch): from the keyboard they work in demo mode only; the switches
#: themselves send the same commands as input events.
DEMO_ONLY_COMMANDS = frozenset({"operator_key", "door"})

#: Ctrl+Shift+Q: the technician's way out of the fullscreen demo kiosk (an installed
#: cabinet ignores it: its service manager stops it).
EXIT_CHORD = "ctrl+shift+q"
EXIT_COMMAND = "exit"

#: Key name -> (command, argument).  Shown on the help screen in this order.
SHORTCUTS: dict[str, tuple[str, object]] = {
    "space": ("deal", None),
    "return": ("deal", None),
    "a": ("chip", "ante"),
    "s": ("chip", "trips"),
    "left": ("chip_prev", None),
    "right": ("chip_next", None),
    "c": ("clear", None),
    "backspace": ("clear", None),
    "r": ("repeat", None),
    "p": ("play_max", None),
    "m": ("play_3x", None),
    "k": ("check", None),
    "f": ("fold", None),
    "h": ("help", None),
    "f1": ("help", None),
    "y": ("paytable", None),
    "g": ("recall", None),
    "l": ("language", None),
    "e": ("settings", None),
    "o": ("cashout", None),
    "d": ("deck", None),
    "u": ("speed", None),
    "v": ("sound", None),
    "escape": ("back", None),
    "f12": ("operator_key", None),
    "f9": ("door", None),
    "t": ("ticket", None),
    **{k: ("bill", cents) for k, cents in BILL_KEYS.items()},
}
