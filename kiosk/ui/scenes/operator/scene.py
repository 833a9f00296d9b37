"""The operator menu, behind the key switch or the open main door, and a PIN.

It opens with the key switch (the ``operator_key`` input; F12 in demo mode), with a
touch while the main door is open (it closes again when the door does), or in demo mode
with the hidden corner sequence.  Attendant, technician and manager see the same menu;
what a role may not do is shown disabled, and the controller refuses it anyway with a
reason that is shown as it comes.  Configuration changes (paytable, limits) are
confirmed first and refused by the controller with the door closed, credits on the
meter, a round or a payout in progress, or out of the approved bounds.  In demo mode the
screen says DEMO, and while the ledger's anchor is beside the database the menu says
what that leaves undetected.

While the PIN pad is locked by wrong PINs, the main door open with its key lets a manager
or technician and then a second person type their PINs to lift every lock (LIFT THE
LOCK: :class:`~kiosk.machine.commands.LiftLockout`, recorded with both people).

Each page (:mod:`kiosk.ui.scenes.operator.page`) owns its state; this scene owns the
PIN entry, the menu, the title bar and the result line, and is the pages' :class:`Desk`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

import pygame

from kiosk.config import role_at_least
from kiosk.machine.commands import Command, LiftLockout, OperatorLogin, OperatorLogout
from kiosk.station.operator_port import LocalOperations
from kiosk.ui import i18n, theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.machine_messages import GENERIC
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.scenes.operator.events import EventsPage
from kiosk.ui.scenes.operator.export import ExportPage
from kiosk.ui.scenes.operator.handpay import HandpayPage
from kiosk.ui.scenes.operator.hold import HoldPage
from kiosk.ui.scenes.operator.intents import Intent
from kiosk.ui.scenes.operator.limits import LimitsPage
from kiosk.ui.scenes.operator.machine_info import MachinePage, anchor_warning
from kiosk.ui.scenes.operator.menu_chrome import (
    draw_result,
    draw_title_bar,
    logout_button,
    page_buttons,
)
from kiosk.ui.scenes.operator.meters import MetersPage
from kiosk.ui.scenes.operator.page import ROW_H, ROW_Y, Page
from kiosk.ui.scenes.operator.paytables import PaytablePage
from kiosk.ui.scenes.operator.pin import LIFTED, Lift, Login, PinPad
from kiosk.ui.scenes.operator.ramclear import RamClearPage
from kiosk.ui.scenes.operator.rounds import RoundsPage
from kiosk.ui.scenes.operator.tilts import DevicesPage, TiltsPage
from kiosk.ui.scenes.operator.verify import VerifyPage
from kiosk.ui.widgets import Button

T = TypeVar("T")

#: page -> (title, least role), in the menu's order.
PAGES: dict[str, tuple[str, str]] = {
    "meters": (N_("Meters"), "attendant"),
    "events": (N_("Event log"), "attendant"),
    "handpay": (N_("Hand pays"), "attendant"),
    "tilts": (N_("Tilts"), "attendant"),
    "recall": (N_("Game recall"), "attendant"),
    "hold": (N_("Hold report"), "attendant"),
    "devices": (N_("Devices"), "attendant"),
    "audit": (N_("Audit"), "attendant"),
    "export": (N_("Export"), "technician"),
    "machine": (N_("Machine"), "technician"),
    "limits": (N_("Limits"), "technician"),
    "paytable": (N_("Paytable"), "technician"),
    "ramclear": (N_("RAM clear"), "manager"),
}
PAGE_TYPES: tuple[type[Page], ...] = (
    MetersPage,
    EventsPage,
    HandpayPage,
    TiltsPage,
    RoundsPage,
    DevicesPage,
    VerifyPage,
    ExportPage,
    MachinePage,
    LimitsPage,
    PaytablePage,
    RamClearPage,
    HoldPage,
)
ROLE_NAMES = {
    "attendant": N_("Attendant"),
    "technician": N_("Technician"),
    "manager": N_("Manager"),
}
#: Pages whose changes the controller allows with the main door open only.
DOOR_PAGES = ("limits", "paytable", "ramclear")
DOOR_HINT = N_("Open the main door: changes here need it.")
#: ... and how, on the demo cabinet.
DEMO_DOOR_HINT = N_("Open the main door (F9 on the demo): changes here need it.")


class OperatorScene(Scene):
    name = "operator"
    player = False
    draws_felt = False

    def __init__(self, app: SceneHost, operations: LocalOperations | None = None) -> None:
        super().__init__(app)
        #: The ledger's reads and the station's commands (in process): the wiring passes
        #: :class:`~kiosk.station.operator_local.TableOperations`; without it, the model's
        #: controller serves them itself (a lone cabinet's).
        self._operations = operations
        self.state = "pin"  # pin | menu | page
        self.page = ""
        self.pin = PinPad()  # the PIN being typed; lifting the PIN locks: the PINs so far
        self.result: tuple[str, bool] | None = None  # (text, ok) of the last action
        self.came_from = "attract"
        self.opened_by = "key"  # key | door | corners
        self.pages: dict[str, Page] = {cls.id: cls(self) for cls in PAGE_TYPES}
        self._reads: dict[tuple[Any, ...], Any] = {}
        self._reads_version = -1

    # -- life cycle -------------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        prev = self.app.previous
        if prev != "operator":
            self.came_from = prev if prev != "cashout" else "table"
        self.state = "menu" if self.snap.operator else "pin"
        self.pin.reset()
        self.result = None
        self.opened_by = str(kwargs.get("via", self.opened_by if prev == "operator" else "key"))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.opened_by == "door" and not self.snap.door_open:
            self.exit()  # opened because the door was open: it closes with the door

    def leave(self) -> None:
        self.pin.clear()

    def exit(self) -> None:
        if self.snap.operator:
            self.model.send(OperatorLogout())
        self.state = "pin"
        self.app.go(self.came_from if self.came_from in self.app.scenes else "attract")

    # -- what the pages use (the Desk) ------------------------------------------------------
    @property
    def role(self) -> str | None:
        return self.snap.operator

    @property
    def operations(self) -> LocalOperations:
        if self._operations is None:
            raise LookupError("the operator menu was handed no operations (App's operator_scene)")
        return self._operations

    def send(self, command: Command) -> Any:
        return self.model.send(command)

    def refusal(self) -> str:
        note = self.model.note
        if note is None:
            return _("Refused.")
        reason = note.reason.strip()
        if i18n.language() != "en":  # the controller's reason is English: the log keeps it
            return note.text
        if not reason or reason.lower().rstrip(".") in note.text.lower():
            return note.text
        sentence = (
            reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")
        )
        if note.text == _(GENERIC):  # the controller's own reason says it all
            return sentence
        return f"{note.text} {sentence}"  # two sentences, never one inside the other

    def report(self, text: str, ok: bool) -> None:
        self.result = (text, ok)

    def cached(self, key: tuple[Any, ...], load: Callable[[], T]) -> T:
        """Ledger reads once per snapshot version, not once per frame."""
        if self._reads_version != self.model.version:
            self._reads.clear()
            self._reads_version = self.model.version
        if key not in self._reads:
            self._reads[key] = load()
        return cast(T, self._reads[key])

    def money(self, cents: int, compact: bool = False) -> str:
        return fmt(self.app, cents, compact)

    def allowed(self, page: str) -> bool:
        return role_at_least(self.role, PAGES[page][1])

    @property
    def current(self) -> Page | None:
        """The page shown, if any."""
        return self.pages.get(self.page) if self.state == "page" else None

    # the RAM clear's steps, as the tests and the title read them
    @property
    def ram_code(self) -> str | None:
        return cast(RamClearPage, self.pages["ramclear"]).code

    @property
    def witness(self) -> str | None:
        return cast(RamClearPage, self.pages["ramclear"]).witness

    # -- input --------------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        if self.state == "pin" and key.text.isdigit():
            return self.on(Intent.DIGIT, key.text)
        if self.state == "pin" and key.name in ("return", "backspace"):
            return self.on(Intent.ENTER if key.name == "return" else Intent.CLEAR)
        page = self.current
        if key.name in ("f12", "f9"):
            return False  # the key switch and the door (demo mode): the app's
        if page is not None and (page.on_key(key) or page.modal()):
            return True
        if key.name == "escape":
            self.on(Intent.BACK)
        return True  # every other key is the operator's, not the player's

    def on_command(self, name: str, arg: object = None) -> bool:
        try:
            intent = Intent(name)
        except ValueError:  # a page's own command
            page = self.current
            return page is not None and page.on_command(name, arg)
        return self.on(intent, arg)

    def on(self, intent: Intent, arg: object = None) -> bool:
        """Carry out ``intent`` (a button's, a key's or the app's); what the menu does not
        use goes to the page shown.  True when used."""
        page = self.current
        match intent:
            case Intent.KEY_SWITCH | Intent.CANCEL | Intent.LOGOUT:
                self.exit()
            case Intent.BACK if not (page is not None and page.modal()):
                if self.state == "page":
                    self.state, self.result = "menu", None
                    self.app.forget_words()  # a page's words go with it (13 pages' would fill the caches)
                else:
                    self.exit()
            case Intent.OPEN:
                self.state, self.page, self.result = "page", str(arg), None
                self.app.forget_words()  # the menu's words: made again when it shows
                self.pages[self.page].open()
            case Intent.LIFT if self.state == "pin":
                self.pin.begin_lift()
                self.result = None
            case Intent.DIGIT if self.state == "pin":
                self.pin.digit(arg)
            case Intent.CLEAR if self.state == "pin":
                self.pin.clear()
            case Intent.ENTER if self.state == "pin":
                self._enter()
            case _:
                return page is not None and page.on_command(intent, arg)
        return True

    def _enter(self) -> None:
        """ENTER on the PIN pad: a login, or a lift with its second PIN."""
        typed = self.pin.enter()
        if isinstance(typed, Login):
            self._login(typed.pin)
        elif isinstance(typed, Lift):
            name = self.model.send(LiftLockout(typed.pin, typed.witness_pin))
            self.result = (_(LIFTED).format(name=name), True) if name else (self.refusal(), False)

    def _login(self, pin: str) -> None:
        if self.model.send(OperatorLogin(pin)):
            self.state, self.result = "menu", None
        else:
            self.result = (self.refusal(), False)

    # -- buttons ---------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        page = self.current
        if page is not None and page.modal():
            return page.buttons()  # a dialog: nothing else is touchable
        out = [logout_button(bool(self.role))]
        if self.state == "pin":
            return out + self.pin.buttons(self.snap.door_open)
        if self.state == "menu":
            pages = ((pid, _(title), self.allowed(pid)) for pid, (title, _role) in PAGES.items())
            return out + page_buttons(pages)
        out.append(
            Button(
                "menu", (16, ROW_Y, 200, ROW_H), _("MENU"), Intent.BACK, style="plain", hint="Esc"
            )
        )
        if page is not None:
            out += page.buttons()
        return out

    # -- drawing ------------------------------------------------------------------------------------
    def look(self) -> Hashable:
        page = self.current
        shown = page.look() if page is not None else ()
        if shown is None:
            return None
        return self.state, self.page, self.pin.look(), self.result, self.app.demo_mode, shown

    def title(self) -> str:
        """The title bar: the menu, the role, the page, and DEMO in demo mode."""
        title = _("OPERATOR MENU")
        if self.role:
            title += "  ·  " + _(ROLE_NAMES.get(self.role, self.role))
        if self.state == "page":
            title += "  ·  " + _(PAGES[self.page][0])
        return title + ("  ·  " + _("DEMO") if self.operations.config.demo else "")

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        draw_title_bar(ui, lay, surface, self.title())
        if self.state == "page" and self.page in DOOR_PAGES and not self.snap.door_open:
            hint = DEMO_DOOR_HINT if self.app.demo_mode else DOOR_HINT
            ui.fitted(surface, _(hint), 20, theme.LOSE, 1200, midleft=(40, 574))
        draw_result(ui, surface, self.result)
        warning = anchor_warning(self.snap.anchor_beside_db)
        if self.state == "menu" and warning is not None:
            ui.fitted(surface, warning, 22, theme.LOSE, 1200, bold=True, midleft=(40, 660))
        if self.state == "pin":
            self._draw_pin(surface)
        page = self.current
        if page is not None:
            page.draw(surface)
        self.draw_buttons(surface)

    def _draw_pin(self, surface: pygame.Surface) -> None:
        ui = self.ui
        self.pin.draw(ui, self.layout, surface)
        if self.operations.config.demo:
            ui.label(surface, _("DEMO"), 40, theme.LOSE, bold=True, center=(1040, 169))
