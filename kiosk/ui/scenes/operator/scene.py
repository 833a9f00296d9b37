"""The operator menu, behind the key switch or the open main door, and a PIN: one menu
for a lone cabinet and for a player station at a shared table.

It opens with the key switch (the ``operator_key`` input; F12 in demo mode), with a
touch while the main door is open (it closes again when the door does), or in demo mode
with the hidden corner sequence.  Attendant, technician and manager see the same menu;
what a role may not do is shown disabled, and the service refuses it anyway with a
reason that is shown with the refusal's message (one rule everywhere:
:meth:`OperatorScene.refusal_text`).  Configuration changes (paytable, limits) are
confirmed first and refused by the service with the door closed, credits on the meter,
a round or a payout in progress, or out of the approved bounds.  In demo mode the
screen says DEMO; at a station of a shared table the title names the station; while
the ledger's anchor is beside the database the menu says what that leaves undetected.

The menu reaches the table through its :class:`~kiosk.station.operator_port.
OperatorPort` alone (the PIN, the lift, the table status, meters, recall, limits,
paytables and the progressive), whichever adapter serves it: the service in the same process (a lone
cabinet) or the table host across the link (a station).  A page is offered where the
port offers its :class:`~kiosk.station.operator_port.Capability`; the pages of the
ledger's own machine (event log, hand pays, tilts, devices, hold report, audit, export,
machine, RAM clear, the paytable editor) also read :class:`~kiosk.station.
operator_port.LocalOperations`, which only the cabinet's wiring gives.

While the PIN pad is locked by wrong PINs, the main door open with its key lets a manager
or technician and then a second person type their PINs to lift every lock (LIFT THE
LOCK, recorded with both people).

Each page (:mod:`kiosk.ui.scenes.operator.page`) owns its state; this scene owns the
PIN entry, the menu, the title bar and the result line, and is the pages' :class:`Desk`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

import pygame

from kiosk.config import role_at_least
from kiosk.station.operator_port import (
    Capability,
    Done,
    LocalOperations,
    OperatorPort,
    Person,
    Refused,
)
from kiosk.ui import i18n, theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.machine_messages import GENERIC, message
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.scenes.operator.events import EventsPage
from kiosk.ui.scenes.operator.export import ExportPage
from kiosk.ui.scenes.operator.handpay import HandpayPage
from kiosk.ui.scenes.operator.hold import HoldPage
from kiosk.ui.scenes.operator.intents import PAD_KEYS, Digit, Intent
from kiosk.ui.scenes.operator.limits import LimitsPage
from kiosk.ui.scenes.operator.machine_info import MachinePage, anchor_warning
from kiosk.ui.scenes.operator.menu_chrome import (
    draw_result,
    draw_title_bar,
    logout_button,
    page_buttons,
)
from kiosk.ui.scenes.operator.meters import MetersPage
from kiosk.ui.scenes.operator.page import ROW_H, ROW_Y, Page, escape
from kiosk.ui.scenes.operator.paytables import PaytablePage
from kiosk.ui.scenes.operator.pin import LIFTED, Lift, Login, PinPad
from kiosk.ui.scenes.operator.progressive import ProgressivePage
from kiosk.ui.scenes.operator.ramclear import RamClearPage
from kiosk.ui.scenes.operator.rounds import RoundsPage
from kiosk.ui.scenes.operator.status import StatusPage
from kiosk.ui.scenes.operator.tilts import DevicesPage, TiltsPage
from kiosk.ui.scenes.operator.verify import VerifyPage
from kiosk.ui.widgets import Button

T = TypeVar("T")

#: page -> (title, least role, what the port must offer), in the menu's order.
PAGES: dict[str, tuple[str, str, Capability]] = {
    "status": (N_("Table status"), "attendant", Capability.TABLE_STATUS),
    "meters": (N_("Meters"), "attendant", Capability.METERS),
    "events": (N_("Event log"), "attendant", Capability.EVENTS),
    "handpay": (N_("Hand pays"), "attendant", Capability.HAND_PAYS),
    "tilts": (N_("Tilts"), "attendant", Capability.TILTS),
    "recall": (N_("Game recall"), "attendant", Capability.RECALL),
    "hold": (N_("Hold report"), "attendant", Capability.HOLD),
    "devices": (N_("Devices"), "attendant", Capability.DEVICES),
    "audit": (N_("Audit"), "attendant", Capability.AUDIT),
    "export": (N_("Export"), "technician", Capability.EXPORT),
    "machine": (N_("Machine"), "technician", Capability.MACHINE),
    "limits": (N_("Limits"), "technician", Capability.LIMITS),
    "paytable": (N_("Paytable"), "technician", Capability.PAYTABLES),
    "ramclear": (N_("RAM clear"), "manager", Capability.RAM_CLEAR),
    "progressive": (N_("Progressive"), "attendant", Capability.PROGRESSIVE),
}
PAGE_TYPES: tuple[type[Page], ...] = (
    StatusPage,
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
    ProgressivePage,
)
ROLE_NAMES = {
    "attendant": N_("Attendant"),
    "technician": N_("Technician"),
    "manager": N_("Manager"),
}
#: Pages whose changes the service allows with the main door open only.
DOOR_PAGES = ("limits", "paytable", "ramclear", "progressive")
DOOR_HINT = N_("Open the main door: changes here need it.")
#: ... and how, on the demo cabinet.
DEMO_DOOR_HINT = N_("Open the main door (F9 on the demo): changes here need it.")
#: The keys that stand for the key switch and the door switch (demo mode): the app's.
APP_KEYS = frozenset({"f12", "f9"})
#: No answer came through the port (the table host could not be reached in time).
NO_HOST = N_("The table host did not answer.")


class NoPort:
    """The port of a menu built without one (an app not wired to a table): it offers
    nothing and answers nothing."""

    station = 0
    busy = False

    def offers(self, capability: Capability) -> bool:
        return False

    def poll(self) -> None:
        pass

    def login(self, pin: str, done: Done[Person]) -> bool:
        done(None)
        return True

    def logout(self) -> None:
        pass

    def lift_lockout(self, pin: str, witness_pin: str, done: Done[str]) -> bool:
        done(None)
        return True

    def _none(self, *args: Any) -> bool:
        args[-1](None)
        return True

    table_status = meters = recall = paytables = _none
    clear_tilt = handpay_paid = set_limits = set_paytable = _none
    progressive = adjust_progressive = _none

    def limits(self) -> None:
        return None

    def limit_bounds(self) -> None:
        return None


class OperatorScene(Scene):
    name = "operator"
    player = False
    draws_felt = False

    def __init__(
        self,
        app: SceneHost,
        port: OperatorPort | None = None,
        operations: LocalOperations | None = None,
    ) -> None:
        super().__init__(app)
        #: The menu's one way to the table (see module).
        self.port: OperatorPort = port if port is not None else cast(OperatorPort, NoPort())
        #: The ledger's reads and the station's commands, in process (the ledger's own
        #: machine only: :class:`~kiosk.station.operator_local.TableOperations`).
        self._operations = operations
        self.state = "pin"  # pin | menu | page
        self.page = ""
        self.pin = PinPad()  # the PIN being typed; lifting the PIN locks: the PINs so far
        self.person: tuple[str, str] | None = None  # (name, role) logged in by this menu
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
        self.state = "menu" if self.role else "pin"
        self.pin.reset()
        self.result = None
        self.opened_by = str(kwargs.get("via", self.opened_by if prev == "operator" else "key"))

    def update(self, dt: float) -> None:
        super().update(dt)
        self.port.poll()
        page = self.current
        if page is not None:
            page.update(dt)
        if self.opened_by == "door" and not self.snap.door_open:
            self.exit()  # opened because the door was open: it closes with the door

    def leave(self) -> None:
        self.pin.clear()

    def exit(self) -> None:
        if self.role:
            self.port.logout()
            self.model.refresh(force=True)
        self.person, self.state = None, "pin"
        self.app.go(self.came_from if self.came_from in self.app.scenes else "attract")

    # -- what the pages use (the Desk) ------------------------------------------------------
    @property
    def role(self) -> str | None:
        """The role logged in at this station (by this menu, or as the snapshot says)."""
        return self.person[1] if self.person is not None else self.snap.operator

    @property
    def operations(self) -> LocalOperations:
        if self._operations is None:  # only pages the port offers with them are shown
            raise LookupError("this menu has no ledger of its own")
        return self._operations

    def offered(self, page: str) -> bool:
        """Whether the port (and, for the ledger's own pages, the menu) serves ``page``."""
        return self.port.offers(PAGES[page][2])

    def send(self, command: Any) -> Any:
        return self.model.send(command)

    def refusal(self) -> str:
        note = self.model.note
        if note is None:
            return _("Refused.")
        return self.refusal_text(note.text, note.reason)

    @staticmethod
    def refusal_text(text: str, reason: str) -> str:
        """A refusal in words: its message (``text``, translated) and the service's
        ``reason`` (English; shown in English only, the log keeps it)."""
        reason = reason.strip()
        if i18n.language() != "en":
            return text
        if not reason or reason.lower().rstrip(".") in text.lower():
            return text
        sentence = (
            reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")
        )
        if text == _(GENERIC):  # the service's own reason says it all
            return sentence
        return f"{text} {sentence}"  # two sentences, never one inside the other

    def refused(self, answer: Refused) -> str:
        """The port's refusal ``answer`` in words (the same rule as :meth:`refusal`)."""
        return self.refusal_text(message(answer.code), answer.reason)

    def request(
        self,
        ask: Callable[[Done[T]], bool],
        keep: Callable[[T], None],
        done_text: str | None = None,
        *,
        acts: bool = False,
    ) -> bool:
        """Ask the port (``ask(done)``); its record goes to ``keep`` (and ``done_text`` to
        the result line), a refusal or no answer to the result line.  ``acts``: the
        request changes the table (the screen's snapshot is read again after it; an
        action answered with ``done_text`` always does).  False when the port is busy
        (nothing asked)."""

        def answered(answer: T | Refused | None) -> None:
            if answer is None:
                self.report(_(NO_HOST), False)
            elif isinstance(answer, Refused):
                if answer.session_ended:  # the service ended the session
                    self.person, self.state = None, "pin"
                self.report(self.refused(answer), False)
            else:
                keep(answer)
                if done_text is not None:
                    self.report(done_text, True)
            if acts or done_text is not None:
                self.model.refresh(force=True)

        return ask(answered)

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
        return role_at_least(self.role, PAGES[page][1]) and self.offered(page)

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
        pad = PAD_KEYS.get(key.name)
        if self.state == "pin" and key.text.isdigit():
            return self.on(Intent.DIGIT, key.text)
        if self.state == "pin" and pad is not None:
            return self.on(pad)
        page = self.current
        if key.name in APP_KEYS:
            return False  # the key switch and the door (demo mode): the app's
        if page is not None and (page.on_key(key) or page.modal()):
            return True
        if escape(key):
            self.on(Intent.BACK)
        return True  # every other key is the operator's, not the player's

    def on_command(self, name: str, arg: object = None) -> bool:
        """A command by name (the app's, the keypad's, the menu's buttons): the menu's
        when an :class:`Intent` names it, else nobody's."""
        try:
            intent = Intent(name)
        except ValueError:
            return False
        return self.on(intent, arg)

    def on_intent(self, intent: object) -> bool:
        """A button's intent: the menu's, or the page's (:meth:`Page.on_intent`)."""
        if isinstance(intent, Intent):
            return self.on(intent)
        page = self.current
        return page is not None and page.on_intent(intent)

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
                    self.app.forget_words()  # a page's words go with it (14 pages' would fill the caches)
                else:
                    self.exit()
            case Intent.OPEN if str(arg) in PAGES and self.offered(str(arg)):
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
            case Intent.DIGIT:
                return page is not None and page.on_intent(Digit(str(arg)))
            case _:
                return page is not None and page.on_intent(intent)
        return True

    def _enter(self) -> None:
        """ENTER on the PIN pad: a login, or a lift with its second PIN, through the port."""
        typed = self.pin.enter()
        if isinstance(typed, Login):
            self.request(lambda done: self.port.login(typed.pin, done), self._logged_in, acts=True)
        elif isinstance(typed, Lift):
            first, second = typed.pin, typed.witness_pin
            self.request(
                lambda done: self.port.lift_lockout(first, second, done), self._lifted, acts=True
            )

    def _lifted(self, name: str) -> None:
        self.report(_(LIFTED).format(name=name), True)

    def _logged_in(self, person: Person) -> None:
        self.person, self.state, self.result = (person.name, person.role), "menu", None

    # -- buttons ---------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        page = self.current
        if page is not None and page.modal():
            return page.buttons()  # a dialog: nothing else is touchable
        out = [logout_button(bool(self.role))]
        if self.state == "pin":
            return out + self.pin.buttons(self.snap.door_open, ready=not self.port.busy)
        if self.state == "menu":
            pages = ((pid, _(title), self.allowed(pid)) for pid, (title, _r, _c) in PAGES.items())
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
        if shown is None or self.port.busy:
            return None
        return (
            self.state,
            self.page,
            self.pin.look(),
            self.result,
            self.person,
            self.app.demo_mode,
            shown,
        )

    @property
    def demo(self) -> bool:
        ops = self._operations
        return self.app.demo_mode or (ops is not None and ops.config.demo)

    def title(self) -> str:
        """The title bar: the menu, the station at a shared table, the person and the
        role, the page, and DEMO in demo mode."""
        title = _("OPERATOR MENU")
        if self.app.station:
            title += "  ·  " + _("Station {n}").format(n=self.app.station)
        if self.person is not None and self.state != "pin":
            title += "  ·  " + self.person[0]  # the person this menu logged in
        if self.role:
            title += "  ·  " + _(ROLE_NAMES.get(self.role, self.role))
        if self.state == "page":
            title += "  ·  " + _(PAGES[self.page][0])
        return title + ("  ·  " + _("DEMO") if self.demo else "")

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
        if self.demo:
            ui.label(surface, _("DEMO"), 40, theme.LOSE, bold=True, center=(1040, 169))
