"""The operator menu at a player station: the table host's menu, behind the key and a PIN.

The operator key (F12 in demo mode, the demo's corner sequence, a touch with the door
open) opens it; the key again, LOG OUT or CANCEL close it (logging the person out at the
host).  The PIN is typed on the cabinet's keypad and checked by the host
(:mod:`kiosk.table.operator_service`, the cabinet's rules and lockout); every page's
data comes from the host and every action is the host's, through the operator port
(:class:`~kiosk.station.operator_port.OperatorPort`: typed records, whichever adapter);
the host refuses what the role or the table's state does not allow, with the reason
shown on the result line.  A page the port does not offer is shown disabled.  Pages:

* **Table status**: every station's credits, tilts and devices' faults with their text,
  door, payout pending and link; CLEAR TILT and HANDPAY PAID per station (attendant);
  refreshed every :data:`REFRESH_S` seconds while shown;
* **Meters**: this station's and the table's;
* **Game recall**: this station's last 10 rounds (its seat and the dealer);
* **Limits** and **Paytable** (technician): the table's limits and the paytables the
  host may switch to, each change confirmed first (:mod:`kiosk.ui.station.operator_config`).

While wrong PINs lock the table's PIN pad, this station's main door open lets a manager or
technician and a second person lift every lock (LIFT THE LOCK: an
:class:`~kiosk.link.messages.OperatorLift`, recorded by the host with both people).

Geometry is in design units (1280 x 720), as the cabinet's operator scenes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import pygame

from engine.cards import format_cards
from kiosk.config import role_at_least
from kiosk.ledger.meters import CREDITS
from kiosk.station.operator_port import (
    Capability,
    Done,
    MeterReadings,
    OperatorPort,
    Paytables,
    Person,
    RecalledRound,
    Refused,
    StationStatus,
    TableStatus,
)
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.scenes.operator.intents import Intent, PageId
from kiosk.ui.scenes.operator.menu_chrome import (
    draw_result,
    draw_title_bar,
    logout_button,
    page_buttons,
)
from kiosk.ui.scenes.operator.meters import meter_groups
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH
from kiosk.ui.scenes.operator.pin import LIFTED, Lift, Login, PinPad
from kiosk.ui.scenes.operator.scene import ROLE_NAMES
from kiosk.ui.station.operator_config import PAGES as CONFIG_PAGES
from kiosk.ui.station.operator_config import ConfigPages
from kiosk.ui.widgets import Button

T = TypeVar("T")


#: page -> (title, least role, what the port must offer), in the menu's order.
PAGES: dict[PageId, tuple[str, str, Capability]] = {
    PageId.STATUS: (N_("Table status"), "attendant", Capability.TABLE_STATUS),
    PageId.METERS: (N_("Meters"), "attendant", Capability.METERS),
    PageId.RECALL: (N_("Game recall"), "attendant", Capability.RECALL),
    PageId.LIMITS: (N_("Limits"), "technician", Capability.LIMITS),
    PageId.PAYTABLES: (N_("Paytable"), "technician", Capability.PAYTABLES),
}
#: Seconds between two refreshes of the table status page.
REFRESH_S = 2.0
#: The meter groups a station's meters page shows (of :func:`meter_groups`).
METER_GROUPS = (0, 1)
GAME_LINES = ("Played", "Wagered", "Paid to credits", "House net win")
NO_HOST = N_("The table host did not answer.")


@dataclass
class Answers:
    """The host's last answer for each page (None: not asked, or not answered yet)."""

    status: TableStatus | None = None
    meters: MeterReadings | None = None
    recall: tuple[RecalledRound, ...] | None = None
    paytables: Paytables | None = None


class StationOperatorScene(Scene):
    """The station's operator menu over an :class:`OperatorPort` (see module)."""

    name = "operator"
    player = False

    def __init__(self, app: SceneHost, port: OperatorPort) -> None:
        super().__init__(app)
        self.port = port
        self.state = "pin"  # pin | menu | page
        self.page: PageId | None = None
        self.pin = PinPad()  # the PIN being typed; lifting the PIN locks: the PINs so far
        self.person: tuple[str, str] | None = None  # (name, role) logged in at the host
        self.result: tuple[str, bool] | None = None
        self.data = Answers()
        self.config = ConfigPages(self)  # the limits and paytable pages
        self.back = "table"
        self._since = 0.0  # seconds since the status page was last asked for

    @property
    def role(self) -> str | None:
        return self.person[1] if self.person is not None else None

    # -- life cycle -------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        if self.app.previous != "operator":
            self.back = self.app.previous if self.app.previous != "cashout" else "table"
        self.state, self.result = ("menu" if self.person else "pin"), None
        self.pin.reset()

    def leave(self) -> None:
        self.pin.clear()

    def exit(self) -> None:
        if self.person is not None:
            self.port.logout()
        self.person, self.state, self.data = None, "pin", Answers()
        self.app.go(self.back if self.back in self.app.scenes else "table")

    def update(self, dt: float) -> None:
        super().update(dt)
        self.port.poll()
        self._since += dt
        if self.state == "page" and self.page is PageId.STATUS and self._since >= REFRESH_S:
            self._ask(PageId.STATUS)

    # -- the host's answers -------------------------------------------------------------
    def _ask(self, page: PageId) -> None:
        port, data = self.port, self.data
        self._since = 0.0
        if page is PageId.METERS:
            port.meters(port.station, self._answered(page, lambda a: setattr(data, "meters", a)))
        elif page is PageId.RECALL:
            port.recall(port.station, self._answered(page, lambda a: setattr(data, "recall", a)))
        elif page is PageId.PAYTABLES:
            port.paytables(self._answered(page, lambda a: setattr(data, "paytables", a)))
        else:
            port.table_status(self._answered(PageId.STATUS, self._keep_status))

    def _keep_status(self, status: TableStatus) -> None:
        self.data.status = status

    def act(self, request: Callable[[Done[TableStatus]], bool], page: PageId) -> None:
        """Send an action (``request(done)``); its answer (the status page) is shown,
        then ``page`` asked for again (when it is not the status page)."""

        def done(answer: TableStatus | Refused | None) -> None:
            self._answered(PageId.STATUS, self._keep_status, _("Done."))(answer)
            if page is not PageId.STATUS and isinstance(answer, TableStatus):
                self._ask(page)

        request(done)

    def _answered(
        self, page: PageId, keep: Callable[[T], None], done: str | None = None
    ) -> Callable[[T | Refused | None], None]:
        """The callback of a request for ``page``: ``keep`` its record, or show why not."""

        def answered(answer: T | Refused | None) -> None:
            if answer is None:
                self.result = (_(NO_HOST), False)
                return
            if isinstance(answer, Refused):
                if answer.session_ended:  # the host ended the session
                    self.person, self.state = None, "pin"
                self.result = (answer.reason or _("Refused."), False)
                return
            keep(answer)
            if done is not None:
                self.result = (done, True)
            self.config.answered(page)

        return answered

    def _logged_in(self, answer: Person | Refused | None) -> None:
        if isinstance(answer, Person):
            self.person, self.state, self.result = (answer.name, answer.role), "menu", None
            self._ask(PageId.STATUS)
        elif isinstance(answer, Refused):
            self.result = (answer.reason or _("Refused."), False)
        else:
            self.result = (_(NO_HOST), False)

    def _lifted(self, answer: str | Refused | None) -> None:
        if isinstance(answer, Refused):
            self.result = (answer.reason or _("Refused."), False)
        elif answer is None:
            self.result = (_(NO_HOST), False)
        else:
            self.result = (_(LIFTED).format(name=answer), True)

    # -- input ------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        if self.state == "pin" and key.text.isdigit():
            return self.on_command(Intent.DIGIT, key.text)
        if self.state == "pin" and key.name in ("return", "backspace"):
            return self.on_command(Intent.ENTER if key.name == "return" else Intent.CLEAR)
        if key.name == "f12":
            return False  # the key switch (demo mode): the app's
        if key.name == "escape":
            self.on_command(Intent.BACK)
        return True  # every other key is the operator's, not the player's

    def on_command(self, name: str, arg: object = None) -> bool:
        try:
            intent = Intent(name)
        except ValueError:
            return False
        return self.on(intent, arg)

    def on(self, intent: Intent, arg: object = None) -> bool:
        """Carry out ``intent`` (a button's, a key's or the app's); True when used."""
        match intent:
            case Intent.KEY_SWITCH | Intent.CANCEL | Intent.LOGOUT:
                self.exit()
            case Intent.BACK if self.config.confirming:
                self.config.confirming = False
            case Intent.BACK if self.state == "page":
                self.state, self.result = "menu", None
            case Intent.BACK:
                self.exit()
            case Intent.DIGIT | Intent.CLEAR | Intent.ENTER if self.state == "pin":
                self._pin(intent, arg)
            case Intent.LIFT if self.state == "pin":
                self.pin.begin_lift()
                self.result = None
            case Intent.OPEN:
                self.page = PageId(str(arg))
                self.state, self.result = "page", None
                self.config.open(self.page)
                self._ask(PageId.STATUS if self.page is PageId.LIMITS else self.page)
            case Intent.REFRESH if self.page is not None:
                self._ask(self.page)
            case Intent.CLEAR_TILT if isinstance(arg, tuple):
                station, code = int(arg[0]), str(arg[1])
                self.act(lambda done: self.port.clear_tilt(station, code, done), PageId.STATUS)
            case Intent.HANDPAY_PAID:
                station = int(str(arg))
                self.act(lambda done: self.port.handpay_paid(station, done), PageId.STATUS)
            case _:
                return self.state == "page" and self.config.on(intent, arg)
        return True

    def _pin(self, intent: Intent, arg: object) -> None:
        if intent is Intent.DIGIT:
            self.pin.digit(arg)
        elif intent is Intent.CLEAR:
            self.pin.clear()
        else:
            typed = self.pin.enter()
            if isinstance(typed, Login):
                self.port.login(typed.pin, self._logged_in)
            elif isinstance(typed, Lift):
                self.port.lift_lockout(typed.pin, typed.witness_pin, self._lifted)

    # -- buttons ------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        out = [logout_button(self.person is not None)]
        busy = self.port.busy
        if self.state == "pin":
            return out + self.pin.buttons(self.snap.door_open, ready=not busy)
        if self.state == "menu":
            pages = (
                (str(pid), _(title), role_at_least(self.role, least) and self.port.offers(offered))
                for pid, (title, least, offered) in PAGES.items()
            )
            return out + page_buttons(pages)
        if self.page in CONFIG_PAGES and self.config.confirming:
            return self.config.buttons(self.page, busy)  # the dialog's own, only
        out.append(
            Button(
                "menu", (16, ROW_Y, 200, ROW_H), _("MENU"), Intent.BACK, style="plain", hint="Esc"
            )
        )
        out.append(
            Button(
                "refresh",
                (240, ROW_Y, 260, ROW_H),
                _("REFRESH"),
                Intent.REFRESH,
                style="plain",
                enabled=not busy and self.page is not PageId.LIMITS,
            )
        )
        if self.page is PageId.STATUS:
            out += self._status_buttons(busy)
        elif self.page in CONFIG_PAGES:
            out += self.config.buttons(self.page, busy)
        return out

    def _status_buttons(self, busy: bool) -> list[Button]:
        out = []
        for i, s in enumerate(self._stations()):
            rect = (1010, TOP + 6 + i * 66, 230, 56)
            if s.payout_pending:
                out.append(
                    Button(
                        f"handpay_{s.station}",
                        rect,
                        _("HANDPAY PAID"),
                        Intent.HANDPAY_PAID,
                        s.station,
                        style="primary",
                        size=20,
                        enabled=not busy,
                    )
                )
            elif s.tilts:
                out.append(
                    Button(
                        f"clear_{s.station}",
                        rect,
                        _("CLEAR TILT"),
                        Intent.CLEAR_TILT,
                        (s.station, s.tilts[0].code),
                        style="plain",
                        size=20,
                        enabled=not busy,
                    )
                )
        return out

    def _stations(self) -> tuple[StationStatus, ...]:
        return self.data.status.stations if self.data.status is not None else ()

    # -- drawing --------------------------------------------------------------------------
    def title(self) -> str:
        title = _("OPERATOR MENU") + "  ·  " + _("Station {n}").format(n=self.port.station)
        if self.role:
            title += "  ·  " + _(ROLE_NAMES.get(self.role, self.role))
        if self.state == "page" and self.page is not None:
            title += "  ·  " + _(PAGES[self.page][0])
        return title

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        draw_title_bar(ui, lay, surface, self.title())
        if self.state == "pin":
            self.pin.draw(ui, lay, surface)
        elif self.state == "menu" and self.person is not None:
            who = f"{self.person[0]}  ·  {_(ROLE_NAMES.get(self.person[1], self.person[1]))}"
            ui.fitted(surface, who, 26, theme.CREAM, 1200, midleft=(LEFT, 130))
        elif self.state == "page" and self.page in CONFIG_PAGES:
            self.config.draw(self.page, surface)
        elif self.state == "page" and self.page is PageId.STATUS:
            self._draw_status(surface)
        elif self.state == "page" and self.page is PageId.METERS:
            self._draw_meters(surface)
        elif self.state == "page" and self.page is PageId.RECALL:
            self._draw_recall(surface)
        if not self.config.confirming:
            draw_result(ui, surface, self.result)
        self.draw_buttons(surface)

    def _waiting(self, surface: pygame.Surface) -> None:
        self.ui.label(
            surface, _("Waiting for the table host…"), 24, theme.MUTED, topleft=(LEFT, TOP + 10)
        )

    def _draw_status(self, surface: pygame.Surface) -> None:
        ui = self.ui
        stations = self._stations()
        if not stations:
            self._waiting(surface)
            return
        for i, s in enumerate(stations):
            y = TOP + 6 + i * 66
            own = s.station == self.port.station
            name = _("Station {n}").format(n=s.station)
            ui.fitted(
                surface,
                name,
                24,
                theme.GOLD if own else theme.CREAM,
                180,
                bold=True,
                midleft=(LEFT, y + 28),
            )
            ui.fitted(
                surface,
                fmt(self.app, s.credits),
                24,
                theme.WHITE,
                170,
                bold=True,
                midleft=(230, y + 28),
            )
            text, ok = self._state_text(s)
            ui.fitted(
                surface, text, 20, theme.MUTED if ok else theme.LOSE, 590, midleft=(410, y + 28)
            )
            surface.fill(theme.RAIL_EDGE, self.layout.rect(LEFT, y + 62, WIDTH, 2))

    def _state_text(self, s: StationStatus) -> tuple[str, bool]:
        """A station's state in words (its tilts' and faults' own texts); ok when none."""
        parts = []
        if not s.connected:
            parts.append(_("Not connected"))
        for d in s.devices:
            parts.append(f"{d.device}: {d.text}")
        device_codes = {d.code for d in s.devices}
        for t in s.tilts:
            if t.code not in device_codes:
                parts.append(t.text or t.code)
        if s.door_open:
            parts.append(_("Door open"))
        if s.payout_pending:
            amount = fmt(self.app, s.payout_pending)
            parts.append(_("Handpay pending: {amount}").format(amount=amount))
        if parts:
            return "  ·  ".join(parts), False
        return (_("In the round") if s.in_round else _("Ready")), True

    def _draw_meters(self, surface: pygame.Surface) -> None:
        data = self.data.meters
        if data is None:
            self._waiting(surface)
            return
        columns = ((_("This station"), data.meters), (_("Table"), data.table))
        for col, (title, meters) in enumerate(columns):
            x, width = LEFT + col * 610, 590
            self.ui.fitted(surface, title, 26, theme.GOLD, width, bold=True, topleft=(x, TOP))
            y = TOP + 40.0
            groups = meter_groups(meters, lambda c: fmt(self.app, c, True))
            lines = [ln for g in METER_GROUPS for ln in groups[g].lines]
            lines += [ln for ln in groups[2].lines if ln.label in GAME_LINES]
            for ln in lines:
                value = fmt(self.app, ln.amount) if ln.amount is not None else f"{ln.count or 0:,}"
                if ln.amount is not None and ln.count is not None:
                    value += f"  ({ln.count:,})"
                self.ui.fitted(surface, _(ln.label), 20, theme.CREAM, width * 0.55, topleft=(x, y))
                self.ui.fitted(
                    surface,
                    value,
                    20,
                    theme.WHITE,
                    width * 0.45,
                    bold=True,
                    topright=(x + width, y),
                )
                y += 27
            credit = fmt(self.app, int(meters.get(CREDITS, 0)))
            self.ui.fitted(
                surface, _("Credit meter"), 20, theme.CREAM, width * 0.55, topleft=(x, y)
            )
            self.ui.fitted(
                surface, credit, 20, theme.WHITE, width * 0.45, bold=True, topright=(x + width, y)
            )

    def _draw_recall(self, surface: pygame.Surface) -> None:
        ui = self.ui
        rounds = self.data.recall
        if rounds is None:
            self._waiting(surface)
            return
        if not rounds:
            ui.label(surface, _("No rounds yet"), 24, theme.MUTED, topleft=(LEFT, TOP + 10))
        for i, r in enumerate(rounds[:10]):
            y = TOP + i * 46
            staked, paid = r.staked, r.returned
            when = r.started_at[5:16].replace("T", " ")
            cards = "{you} {a}  ·  {dealer} {b}  ·  {board} {c}".format(
                you=_("You"),
                a=format_cards(r.player_hole) or "—",
                dealer=_("Dealer"),
                b=format_cards(r.dealer_hole) or "—",
                board=_("Board"),
                c=format_cards(r.board) or "—",
            )
            ui.fitted(surface, f"#{r.id}  {when}", 20, theme.CREAM, 230, topleft=(LEFT, y))
            ui.fitted(surface, cards, 20, theme.WHITE, 640, topleft=(280, y))
            money = f"{fmt(self.app, staked, True)} → {fmt(self.app, paid, True)}"
            ui.fitted(
                surface,
                money,
                20,
                theme.WIN if paid > staked else theme.MUTED,
                300,
                bold=True,
                topright=(LEFT + WIDTH, y),
            )
