"""The operator menu at a player station: the table host's menu, behind the key and a PIN.

The operator key (F12 in demo mode, the demo's corner sequence, a touch with the door
open) opens it; the key again, LOG OUT or CANCEL close it (logging the person out at the
host).  The PIN is typed on the cabinet's keypad and checked by the host
(:mod:`kiosk.table.operator_service`, the cabinet's rules and lockout); every page's
data comes from the host and every action is the host's, which refuses what the role or
the table's state does not allow, with the reason shown on the result line.  Pages:

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

from dataclasses import replace
from typing import Any

import pygame

from engine.cards import format_cards
from kiosk.config import role_at_least
from kiosk.ledger.meters import CREDITS
from kiosk.link.messages import (
    OperatorAction,
    OperatorLift,
    OperatorLogin,
    OperatorLogout,
    OperatorQuery,
    OperatorReply,
    OperatorSession,
)
from kiosk.pins import PIN_MAX
from kiosk.station.operator_link import Answer, OperatorLink
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.scenes.keypad import keypad_buttons
from kiosk.ui.scenes.operator.meters import meter_groups
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH
from kiosk.ui.scenes.operator.scene import LIFT_BUTTON, LIFT_FIRST, LIFT_SECOND, LIFTED, ROLE_NAMES
from kiosk.ui.station.operator_config import PAGES as CONFIG_PAGES
from kiosk.ui.station.operator_config import ConfigPages
from kiosk.ui.widgets import Button

#: page -> (title, least role), in the menu's order.
PAGES: dict[str, tuple[str, str]] = {
    "status": (N_("Table status"), "attendant"),
    "meters": (N_("Meters"), "attendant"),
    "recall": (N_("Game recall"), "attendant"),
    "limits": (N_("Limits"), "technician"),
    "paytables": (N_("Paytable"), "technician"),
}
#: Seconds between two refreshes of the table status page.
REFRESH_S = 2.0
#: The meter groups a station's meters page shows (of :func:`meter_groups`).
METER_GROUPS = (0, 1)
GAME_LINES = ("Played", "Wagered", "Paid to credits", "House net win")
NO_HOST = N_("The table host did not answer.")


class StationOperatorScene(Scene):
    """The station's operator menu over an :class:`OperatorLink` (see module)."""

    name = "operator"
    player = False

    def __init__(self, app: SceneHost, link: OperatorLink) -> None:
        super().__init__(app)
        self.link = link
        self.state = "pin"  # pin | menu | page
        self.page = ""
        self.entry = ""
        self.lift: list[str] | None = None  # lifting the PIN locks: the PINs typed so far
        self.person: tuple[str, str] | None = None  # (name, role) logged in at the host
        self.result: tuple[str, bool] | None = None
        self.data: dict[str, dict[str, Any]] = {}  # page -> the host's last answer
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
        self.state, self.entry, self.result = ("menu" if self.person else "pin"), "", None
        self.lift = None

    def leave(self) -> None:
        self.entry = ""

    def exit(self) -> None:
        if self.person is not None:
            self.link.submit(lambda r: OperatorLogout(ref=r), lambda _a: None)
        self.person, self.state, self.data = None, "pin", {}
        self.app.go(self.back if self.back in self.app.scenes else "table")

    def update(self, dt: float) -> None:
        super().update(dt)
        self.link.poll()
        self._since += dt
        if self.state == "page" and self.page == "status" and self._since >= REFRESH_S:
            self._ask("status")

    # -- the host's answers -------------------------------------------------------------
    def _ask(self, page: str) -> None:
        station = self.link.station if page in ("meters", "recall") else None
        self._since = 0.0
        self.link.submit(
            lambda r: OperatorQuery(ref=r, page=page, station=station),  # type: ignore[arg-type]
            lambda a: self._answer(page, a),
        )

    def act(self, action: str, station: int, page: str = "status", **kw: Any) -> None:
        """Send an :class:`OperatorAction`; its answer (the status page) is shown, then
        ``page`` asked for again (when it is not the status page)."""

        def done(answer: Answer) -> None:
            self._answer("status", answer, done=_("Done."))
            if page != "status" and isinstance(answer, OperatorReply) and answer.ok:
                self._ask(page)

        self.link.submit(
            lambda r: OperatorAction(ref=r, action=action, station=station, **kw),  # type: ignore[arg-type]
            done,
        )

    def _answer(self, page: str, answer: Answer, done: str | None = None) -> None:
        if not isinstance(answer, OperatorReply):
            self.result = (_(NO_HOST), False)
            return
        if not answer.ok:
            if answer.code == "operator_required":  # the host ended the session
                self.person, self.state = None, "pin"
            self.result = (answer.detail or _("Refused."), False)
            return
        self.data[page] = dict(answer.data)
        if done is not None:
            self.result = (done, True)
        self.config.answered(page)

    def _logged_in(self, answer: Answer) -> None:
        if isinstance(answer, OperatorSession) and answer.accepted and answer.role:
            self.person, self.state, self.result = (answer.name, answer.role), "menu", None
            self._ask("status")
        elif isinstance(answer, OperatorSession):
            self.result = (answer.detail or _("Refused."), False)
        else:
            self.result = (_(NO_HOST), False)

    # -- input ------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        if self.state == "pin" and key.text.isdigit():
            return self.on_command("digit", key.text)
        if self.state == "pin" and key.name in ("return", "backspace"):
            return self.on_command("enter" if key.name == "return" else "clear")
        if key.name == "f12":
            return False  # the key switch (demo mode): the app's
        if key.name == "escape":
            self.on_command("back")
        return True  # every other key is the operator's, not the player's

    def on_command(self, name: str, arg: object = None) -> bool:
        if name in ("key_switch", "cancel", "logout"):
            self.exit()
        elif name == "back" and self.config.confirming:
            self.config.confirming = False
        elif name == "back":
            if self.state == "page":
                self.state, self.result = "menu", None
            else:
                self.exit()
        elif self.state == "pin" and name in ("digit", "clear", "enter"):
            self._pin(name, arg)
        elif self.state == "pin" and name == "lift":
            self.lift, self.entry, self.result = [], "", None
        elif name == "open":
            self.state, self.page, self.result = "page", str(arg), None
            self.config.open(self.page)
            self._ask("status" if self.page == "limits" else self.page)
        elif name == "refresh":
            self._ask(self.page)
        elif name == "clear_tilt" and isinstance(arg, tuple):
            self.act("clear_tilt", int(arg[0]), code=str(arg[1]))
        elif name == "handpay_reset":
            self.act("handpay_reset", int(str(arg)))
        else:
            return self.state == "page" and self.config.on_command(name, arg)
        return True

    def _pin(self, name: str, arg: object) -> None:
        if name == "digit":
            if len(self.entry) < PIN_MAX:
                self.entry += str(arg)
        elif name == "clear":
            self.entry = ""
        elif self.lift is not None:
            self.lift.append(self.entry)
            self.entry = ""
            if len(self.lift) == 2:
                first, second = self.lift
                self.lift = None
                self.link.submit(
                    lambda r: OperatorLift(ref=r, pin=first, witness_pin=second), self._lifted
                )
        else:
            pin, self.entry = self.entry, ""
            self.link.submit(lambda r: OperatorLogin(ref=r, pin=pin), self._logged_in)

    def _lifted(self, answer: Answer) -> None:
        if isinstance(answer, OperatorReply) and answer.ok:
            self.result = (_(LIFTED).format(name=answer.data.get("operator", "")), True)
        elif isinstance(answer, OperatorReply):
            self.result = (answer.detail or _("Refused."), False)
        else:
            self.result = (_(NO_HOST), False)

    # -- buttons ------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        out = [
            Button(
                "logout",
                (1064, 6, 200, 86),
                _("LOG OUT") if self.person else _("CANCEL"),
                "logout",
                style="fold",
                size=24,
            )
        ]
        busy = self.link.busy
        if self.state == "pin":
            keys = keypad_buttons((448, 200), (132, 100), (120, 90), _("ENTER"), "primary", 24)
            if self.snap.door_open and self.lift is None:
                out.append(
                    Button(
                        "lift", (40, 200, 360, 90), _(LIFT_BUTTON), "lift", style="fold", size=24
                    )
                )
            return out + [k if k.command != "enter" else replace(k, enabled=not busy) for k in keys]
        if self.state == "menu":
            for i, (pid, (title, least)) in enumerate(PAGES.items()):
                out.append(
                    Button(
                        f"page_{pid}",
                        (40 + (i % 3) * 402, 160 + (i // 3) * 160, 390, 140),
                        _(title),
                        "open",
                        pid,
                        style="dark",
                        enabled=role_at_least(self.role, least),
                        size=28,
                    )
                )
            return out
        if self.page in CONFIG_PAGES and self.config.confirming:
            return self.config.buttons(self.page, busy)  # the dialog's own, only
        out.append(
            Button("menu", (16, ROW_Y, 200, ROW_H), _("MENU"), "back", style="plain", hint="Esc")
        )
        out.append(
            Button(
                "refresh",
                (240, ROW_Y, 260, ROW_H),
                _("REFRESH"),
                "refresh",
                style="plain",
                enabled=not busy and self.page != "limits",
            )
        )
        if self.page == "status":
            out += self._status_buttons(busy)
        elif self.page in CONFIG_PAGES:
            out += self.config.buttons(self.page, busy)
        return out

    def _status_buttons(self, busy: bool) -> list[Button]:
        out = []
        for i, s in enumerate(self._stations()):
            rect = (1010, TOP + 6 + i * 66, 230, 56)
            if s.get("payout_pending"):
                out.append(
                    Button(
                        f"handpay_{s['station']}",
                        rect,
                        _("HANDPAY PAID"),
                        "handpay_reset",
                        s["station"],
                        style="primary",
                        size=20,
                        enabled=not busy,
                    )
                )
            elif s.get("tilts"):
                code = s["tilts"][0]["code"]
                out.append(
                    Button(
                        f"clear_{s['station']}",
                        rect,
                        _("CLEAR TILT"),
                        "clear_tilt",
                        (s["station"], code),
                        style="plain",
                        size=20,
                        enabled=not busy,
                    )
                )
        return out

    def _stations(self) -> list[dict[str, Any]]:
        found = self.data.get("status", {}).get("stations", [])
        return [s for s in found if isinstance(s, dict)]

    # -- drawing --------------------------------------------------------------------------
    def title(self) -> str:
        title = _("OPERATOR MENU") + "  ·  " + _("Station {n}").format(n=self.link.station)
        if self.role:
            title += "  ·  " + _(ROLE_NAMES.get(self.role, self.role))
        if self.state == "page":
            title += "  ·  " + _(PAGES[self.page][0])
        return title

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.fill((16, 20, 26))
        bar = pygame.Rect(0, 0, lay.size[0], lay.rect(0, 0, 10, 98).bottom)
        surface.fill((40, 30, 12), bar)
        ui.fitted(surface, self.title(), 32, theme.GOLD, 1000, bold=True, midleft=(24, 48))
        if self.state == "pin":
            lift = self.lift
            prompt = _("Enter your PIN") if lift is None else _(LIFT_SECOND if lift else LIFT_FIRST)
            ui.fitted(surface, prompt, 30, theme.CREAM, 1000, center=(640, 126))
            box = lay.rect(448, 146, 384, 46)
            pygame.draw.rect(surface, (0, 0, 0), box, border_radius=lay.px(8))
            ui.label(surface, "●" * len(self.entry), 28, theme.WHITE, center=(640, 169))
        elif self.state == "menu" and self.person is not None:
            who = f"{self.person[0]}  ·  {_(ROLE_NAMES.get(self.person[1], self.person[1]))}"
            ui.fitted(surface, who, 26, theme.CREAM, 1200, midleft=(LEFT, 130))
        elif self.state == "page" and self.page in CONFIG_PAGES:
            self.config.draw(self.page, surface)
        elif self.state == "page":
            draw = {
                "status": self._draw_status,
                "meters": self._draw_meters,
                "recall": self._draw_recall,
            }[self.page]
            draw(surface)
        if self.result is not None and not self.config.confirming:
            text, ok = self.result
            ui.fitted(surface, text, 22, theme.WIN if ok else theme.LOSE, 1220, midleft=(40, 604))
        self.draw_buttons(surface)

    def _draw_status(self, surface: pygame.Surface) -> None:
        ui = self.ui
        stations = self._stations()
        if not stations:
            ui.label(
                surface, _("Waiting for the table host…"), 24, theme.MUTED, topleft=(LEFT, TOP + 10)
            )
            return
        for i, s in enumerate(stations):
            y = TOP + 6 + i * 66
            own = s.get("station") == self.link.station
            name = _("Station {n}").format(n=s.get("station"))
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
                fmt(self.app, int(s.get("credits", 0))),
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

    def _state_text(self, s: dict[str, Any]) -> tuple[str, bool]:
        """A station's state in words (its tilts' and faults' own texts); ok when none."""
        parts = []
        if not s.get("connected"):
            parts.append(_("Not connected"))
        for d in s.get("devices", []):
            parts.append(f"{d.get('device')}: {d.get('text')}")
        device_codes = {f"device:{d.get('device')}:{d.get('kind')}" for d in s.get("devices", [])}
        for t in s.get("tilts", []):
            if t.get("code") not in device_codes:
                parts.append(t.get("text") or t.get("code", ""))
        if s.get("door_open"):
            parts.append(_("Door open"))
        if s.get("payout_pending"):
            amount = fmt(self.app, int(s["payout_pending"]))
            parts.append(_("Handpay pending: {amount}").format(amount=amount))
        if parts:
            return "  ·  ".join(str(p) for p in parts), False
        return (_("In the round") if s.get("in_round") else _("Ready")), True

    def _draw_meters(self, surface: pygame.Surface) -> None:
        data = self.data.get("meters")
        if not data:
            self.ui.label(
                surface, _("Waiting for the table host…"), 24, theme.MUTED, topleft=(LEFT, TOP + 10)
            )
            return
        columns = ((_("This station"), data.get("meters", {})), (_("Table"), data.get("table", {})))
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
        data = self.data.get("recall")
        if data is None:
            ui.label(
                surface, _("Waiting for the table host…"), 24, theme.MUTED, topleft=(LEFT, TOP + 10)
            )
            return
        rounds = [r for r in data.get("rounds", []) if isinstance(r, dict)]
        if not rounds:
            ui.label(surface, _("No rounds yet"), 24, theme.MUTED, topleft=(LEFT, TOP + 10))
        for i, r in enumerate(rounds[:10]):
            y = TOP + i * 46
            staked = sum(int(r.get(k, 0)) for k in ("ante", "blind", "trips", "play"))
            paid = int(r.get("paid", 0)) + int(r.get("jackpot", 0))
            when = str(r.get("started_at", ""))[5:16].replace("T", " ")
            cards = "{you} {a}  ·  {dealer} {b}  ·  {board} {c}".format(
                you=_("You"),
                a=format_cards(r.get("player_hole", [])) or "—",
                dealer=_("Dealer"),
                b=format_cards(r.get("dealer_hole", [])) or "—",
                board=_("Board"),
                c=format_cards(r.get("board", [])) or "—",
            )
            ui.fitted(surface, f"#{r.get('id')}  {when}", 20, theme.CREAM, 230, topleft=(LEFT, y))
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
