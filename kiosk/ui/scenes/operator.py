"""The operator menu, behind the key switch or the open main door, and a PIN.

It opens with the key switch (the ``operator_key`` input; F12 in demo mode), with a
touch while the main door is open (it closes again when the door does), or in demo mode
with the hidden corner sequence.  Attendant, technician and manager see the same menu;
what a role may not do is shown disabled, and the controller refuses it anyway with a
reason that is shown as it comes.  Configuration changes (paytable, limits) are refused
by the controller with the door closed, credits on the meter, a round or a payout in
progress, or out of the approved bounds.  A RAM clear (door open) takes three steps: a
second operator types their PIN, the manager requests the clear, then types the
confirmation code back on the keypad.  In demo mode the screen says DEMO.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, cast

import pygame

from engine.cards import format_cards
from engine.uth.paytable import PaytableError, load_paytable, shipped_paytables
from kiosk.config import role_at_least
from kiosk.ledger.meters import METERS, balance
from kiosk.machine.commands import (
    ClearTilt,
    HandpayReset,
    OperatorLogin,
    OperatorLogout,
    RamClear,
    RamClearRequest,
    RamClearWitness,
    SetDoor,
    SetLimits,
    SetPaytable,
)
from kiosk.machine.controller import Machine
from kiosk.machine.errors import MachineError
from kiosk.pins import PIN_MAX
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import fmt, tilt_text
from kiosk.ui.scenes.keypad import keypad_buttons
from kiosk.ui.scenes.paytable import rtp_figures
from kiosk.ui.widgets import Button

#: page -> (title, least role)
PAGES: dict[str, tuple[str, str]] = {
    "meters": (N_("Meters"), "attendant"),
    "events": (N_("Event log"), "attendant"),
    "recall": (N_("Game recall"), "attendant"),
    "tilts": (N_("Tilts and hand pays"), "attendant"),
    "devices": (N_("Devices"), "attendant"),
    "audit": (N_("Audit"), "attendant"),
    "export": (N_("Export"), "technician"),
    "machine": (N_("Machine"), "technician"),
    "limits": (N_("Limits"), "technician"),
    "paytable": (N_("Paytable"), "technician"),
    "ramclear": (N_("RAM clear"), "manager"),
}
ROLE_NAMES = {"attendant": N_("Attendant"), "technician": N_("Technician"), "manager": N_("Manager")}
#: Pages whose changes the controller allows with the main door open only.
DOOR_PAGES = ("limits", "paytable", "ramclear")
#: Operator-only texts (English, like the controller's reasons shown beside refusals).
WITNESS_STEP = "Step 1: a second operator types their PIN on the keypad."
WITNESSED = "Countersigned by {name}."
DOOR_HINT = "Open the main door: changes here need it."


class OperatorScene(Scene):
    name = "operator"
    player = False

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.state = "pin"  # pin | menu | page
        self.page = ""
        self.entry = ""
        self.result: tuple[str, bool] | None = None  # (text, ok) of the last action
        self.came_from = "attract"
        self.event_offset = 0
        self.selected_table: Path | None = None
        self.ram_code: str | None = None
        self.limits_draft: dict[str, int] = {}
        self.export_path = ""
        self.verify_report: Any = None
        self.opened_by = "key"  # key | door | corners
        self.witness: str | None = None  # the second operator of a RAM clear

    # -- life cycle -------------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        prev = self.app.previous
        if prev != "operator":
            self.came_from = prev if prev != "cashout" else "table"
        self.state = "menu" if self.snap.operator else "pin"
        self.entry = ""
        self.result = None
        self.opened_by = str(kwargs.get("via", self.opened_by if prev == "operator" else "key"))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.opened_by == "door" and not self.snap.door_open:
            self.exit()  # opened because the door was open: it closes with the door

    def leave(self) -> None:
        self.entry = ""

    def exit(self) -> None:
        if self.snap.operator:
            self.model.send(OperatorLogout())
        self.state = "pin"
        self.app.go(self.came_from if self.came_from in self.app.scenes else "attract")

    @property
    def role(self) -> str | None:
        return self.snap.operator

    @property
    def machine(self) -> Machine:
        return cast(Machine, self.model.machine)

    def allowed(self, page: str) -> bool:
        return role_at_least(self.role, PAGES[page][1])

    # -- input --------------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool:
        typing = self.state == "pin" or (self.state == "page" and self.page == "ramclear"
                                          and bool(self.ram_code or not self.witness))
        if typing and key.text.isdigit():
            self.on_command("digit", key.text)
            return True
        if typing and key.name in ("return", "backspace"):
            self.on_command("enter" if key.name == "return" else "clear")
            return True
        if self.state == "page" and self.page == "export" and key.name not in ("escape", "f12"):
            if key.name == "backspace":
                self.export_path = self.export_path[:-1]
            elif key.name == "return":
                self.on_command("export")
            elif key.text and key.text.isprintable():
                self.export_path += key.text
            return True
        if key.name == "escape":
            self.on_command("back")
            return True
        return key.name != "f12"  # every other key is the operator's, not the player's

    def on_command(self, name: str, arg: object = None) -> bool:
        m = self.model
        if name == "key_switch":
            self.exit()
        elif name == "digit":
            if len(self.entry) < PIN_MAX:
                self.entry += str(arg)
        elif name == "clear":
            self.entry = ""
        elif name == "enter":
            if self.state == "pin":
                role = m.send(OperatorLogin(self.entry))
                self.entry = ""
                if role:
                    self.state = "menu"
                    self.result = None
                else:
                    self.result = (self._reason(), False)
            elif self.page == "ramclear" and self.ram_code:
                ok = m.send(RamClear(self.entry))
                self.entry, self.ram_code = "", None
                if ok:
                    self.witness = None
                self.result = (_("RAM clear done."), True) if ok else (self._reason(), False)
            elif self.page == "ramclear" and not self.witness:
                name = m.send(RamClearWitness(self.entry))
                self.entry = ""
                self.witness = str(name) if name else None
                self.result = (WITNESSED.format(name=name), True) if name else (self._reason(), False)
        elif name == "cancel":
            self.exit()
        elif name == "logout":
            self.exit()
        elif name == "back":
            if self.state == "page":
                self.state, self.result = "menu", None
            else:
                self.exit()
        elif name == "open":
            self.state, self.page, self.result = "page", str(arg), None
            self._open_page()
        elif name == "clear_tilt":
            ok = m.send(ClearTilt(str(arg)))
            self.result = (_("Tilt cleared."), True) if ok else (self._reason(), False)
        elif name == "handpay_reset":
            ok = m.send(HandpayReset())
            self.result = (_("Hand pay recorded."), True) if ok else (self._reason(), False)
        elif name == "door" and self.app.demo_mode:  # the door switch, simulated
            m.send(SetDoor(not self.snap.door_open))
        elif name == "verify":
            self._verify(replay=bool(arg))
        elif name == "events_older":
            self.event_offset += 12
        elif name == "events_newer":
            self.event_offset = max(0, self.event_offset - 12)
        elif name == "select_table":
            self.selected_table = Path(str(arg))
        elif name == "apply_table":
            if self.selected_table is not None:
                ok = m.send(SetPaytable(str(self.selected_table)))
                self.result = (_("Paytable changed."), True) if ok else (self._reason(), False)
        elif name == "limit":
            field, sign = cast(tuple[str, int], arg)
            step = self._limit_step(field)
            self.limits_draft[field] = max(step, self.limits_draft[field] + sign * step)
        elif name == "apply_limits":
            ok = m.send(SetLimits(**self.limits_draft))
            self.result = (_("Limits changed."), True) if ok else (self._reason(), False)
            self._open_page()
        elif name == "ram_request":
            code = m.send(RamClearRequest())
            if code:
                self.ram_code, self.entry = str(code), ""
                self.result = None
            else:
                self.result = (self._reason(), False)
        elif name == "ram_cancel":
            self.ram_code, self.entry = None, ""
        elif name == "export":
            self._export()
        elif name == "export_default":
            self.export_path = self._default_export_path()
        else:
            return False
        return True

    def _cached(self, key: tuple, load: Any) -> Any:
        """Ledger reads once per snapshot version, not once per frame."""
        full = (key, self.model.version)
        cache = self.__dict__.setdefault("_read_cache", {})
        if full not in cache:
            cache.clear()
            cache[full] = load()
        return cache[full]

    def _reason(self) -> str:
        note = self.model.note
        if note is None:
            return _("Refused.")
        return f"{note.text} ({note.reason})" if note.reason else note.text

    # -- pages ----------------------------------------------------------------------------------
    def _open_page(self) -> None:
        if self.page == "limits":
            lim = self.snap.limits
            self.limits_draft = {"ante_min": lim.ante_min, "ante_max": lim.ante_max,
                                 "trips_min": lim.trips_min, "trips_max": lim.trips_max}
        elif self.page == "paytable":
            self.selected_table = None
        elif self.page == "events":
            self.event_offset = 0
        elif self.page == "export" and not self.export_path:
            self.export_path = self._default_export_path()
        elif self.page == "audit":
            self.verify_report = None
        elif self.page == "ramclear":
            self.ram_code, self.entry, self.witness = None, "", None

    def _limit_step(self, field: str) -> int:
        lim = self.snap.paytable.limits
        return lim.ante_step if field.startswith("ante") else min(lim.chips)

    def _default_export_path(self) -> str:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
        base = self.machine.config.db_path.parent
        return str(base / "exports" / f"uth-ledger-{stamp}.json")

    def _verify(self, replay: bool) -> None:
        report = self.machine.verify_ledger(replay)
        if report is None:
            self.result = (_("The ledger is not available."), False)
            return
        self.verify_report = report
        if report.ok:
            self.result = (_("Ledger verified: {rounds} rounds, {events} events.").format(
                rounds=report.rounds, events=report.events), True)
        else:
            self.result = (_("Ledger problem: {problem}").format(problem=report.problem), False)

    def _export(self) -> None:
        if not self.export_path:
            self.result = (_("Nothing to export."), False)
            return
        try:
            out = self.machine.export_ledger(Path(self.export_path))
        except OSError as exc:
            self.result = (_("Export failed: {reason}").format(reason=exc.strerror or str(exc)), False)
            return
        except MachineError as exc:
            self.result = (_("Export failed: {reason}").format(reason=exc.reason), False)
            return
        self.result = (_("Exported to {path}").format(path=str(out)), True)

    # -- buttons ---------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        out = [Button("logout", (1064, 6, 200, 86), _("LOG OUT") if self.role else _("CANCEL"), "logout",
                      style="fold", size=24)]
        if self.state == "pin":
            return out + keypad_buttons((448, 200), (132, 100), (120, 90), _("ENTER"), "primary", 24)
        if self.state == "menu":
            for i, (page, (title, _role)) in enumerate(PAGES.items()):
                col, row = i % 4, i // 4
                out.append(Button(f"page_{page}", (40 + col * 302, 120 + row * 124, 290, 110), _(title), "open", page,
                                  style="dark", enabled=self.allowed(page), size=28))
            return out
        out.append(Button("menu", (16, 622, 200, 90), _("MENU"), "back", style="plain", hint="Esc"))
        out += getattr(self, f"_buttons_{self.page}", lambda: [])()
        return out

    def _buttons_tilts(self) -> list[Button]:
        out = []
        for i, t in enumerate(self.snap.tilts[:4]):
            out.append(Button(f"clear_{t.code}", (1000, 170 + i * 100, 240, 90), _("CLEAR"), "clear_tilt", t.code,
                              style="primary", enabled=t.code != "ledger"))
        c = self.snap.cashout
        out.append(Button("handpay", (240, 622, 300, 90), _("HAND PAY PAID"), "handpay_reset", style="primary",
                          enabled=c is not None and c.method == "handpay"))
        return out

    def _buttons_devices(self) -> list[Button]:
        return [Button("door", (240, 622, 300, 90), _("CLOSE DOOR") if self.snap.door_open else _("OPEN DOOR"),
                       "door", style="plain", enabled=self.app.demo_mode)]

    def _buttons_events(self) -> list[Button]:
        return [Button("older", (240, 622, 200, 90), _("OLDER"), "events_older", style="plain"),
                Button("newer", (450, 622, 200, 90), _("NEWER"), "events_newer", style="plain",
                       enabled=self.event_offset > 0)]

    def _buttons_audit(self) -> list[Button]:
        return [Button("verify", (240, 622, 300, 90), _("VERIFY"), "verify", False, style="primary"),
                Button("replay", (560, 622, 360, 90), _("VERIFY AND REPLAY"), "verify", True, style="plain")]

    def _buttons_export(self) -> list[Button]:
        return [Button("export", (240, 622, 300, 90), _("EXPORT"), "export", style="primary"),
                Button("export_default", (560, 622, 300, 90), _("DEFAULT PATH"), "export_default", style="plain")]

    def _buttons_limits(self) -> list[Button]:
        out = []
        for i, f in enumerate(("ante_min", "ante_max", "trips_min", "trips_max")):
            y = 170 + i * 100
            out.append(Button(f"{f}_minus", (700, y, 110, 90), "−", "limit", (f, -1), style="plain", size=40))
            out.append(Button(f"{f}_plus", (1000, y, 110, 90), "+", "limit", (f, 1), style="plain", size=40))
        out.append(Button("apply_limits", (240, 622, 300, 90), _("APPLY"), "apply_limits", style="primary"))
        return out

    def _buttons_paytable(self) -> list[Button]:
        out = []
        for i, path in enumerate(shipped_paytables()[:4]):
            sel = self.selected_table == path
            out.append(Button(f"table_{path.stem}", (40, 160 + i * 108, 200, 96), _("SELECT"), "select_table",
                              str(path), style="selected" if sel else "plain"))
        out.append(Button("apply_table", (240, 622, 300, 90), _("APPLY"), "apply_table", style="primary",
                          enabled=self.selected_table is not None))
        return out

    def _buttons_ramclear(self) -> list[Button]:
        request = Button("ram_request", (240, 622, 400, 90), _("REQUEST RAM CLEAR"), "ram_request", style="fold",
                         enabled=bool(self.witness))
        if self.witness and not self.ram_code:
            return [request]
        out = [] if self.ram_code else [request]
        out += keypad_buttons((820, 130), (140, 98), (128, 88), _("CONFIRM"), "fold", 22)
        out.append(Button("ram_cancel", (240, 622, 300, 90), _("CANCEL"), "ram_cancel", style="plain"))
        return out

    # -- drawing ------------------------------------------------------------------------------------
    def title(self) -> str:
        """The title bar: the menu, the role, the page, and DEMO in demo mode."""
        title = _("OPERATOR MENU")
        if self.role:
            title += "  ·  " + _(ROLE_NAMES.get(self.role, self.role))
        if self.state == "page":
            title += "  ·  " + _(PAGES[self.page][0])
        return title + ("  ·  DEMO" if self.machine.config.demo else "")

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.fill((16, 20, 26))
        bar = pygame.Rect(0, 0, lay.size[0], lay.rect(0, 0, 10, 98).bottom)
        surface.fill((40, 30, 12), bar)
        ui.fitted(surface, self.title(), 32, theme.GOLD, 1000, bold=True, midleft=(24, 48))
        if self.state == "page" and self.page in DOOR_PAGES and not self.snap.door_open:
            ui.fitted(surface, DOOR_HINT, 20, theme.LOSE, 1200, midleft=(40, 574))
        if self.state == "pin":
            self._draw_pin(surface)
        elif self.state == "page":
            getattr(self, f"_draw_{self.page}")(surface)
        if self.result is not None:
            text, ok = self.result
            ui.fitted(surface, text, 20, theme.WIN if ok else theme.LOSE, 1200, midleft=(40, 604))
        self.draw_buttons(surface)

    def _draw_pin(self, surface: pygame.Surface) -> None:
        ui = self.ui
        ui.fitted(surface, _("Enter your PIN"), 30, theme.CREAM, 600, center=(640, 126))
        box = self.layout.rect(448, 146, 384, 46)
        pygame.draw.rect(surface, (0, 0, 0), box, border_radius=self.layout.px(8))
        ui.label(surface, "●" * len(self.entry) if self.entry else "", 28, theme.WHITE, center=(640, 169))
        if self.machine.config.demo:
            ui.label(surface, "DEMO", 40, theme.LOSE, bold=True, center=(1040, 169))

    def _lines(self, surface: pygame.Surface, lines: list[tuple[str, str]], x: float = 40, y: float = 120,
               col_w: float = 580, rows: int = 15, size: float = 20) -> None:
        ui = self.ui
        for i, (a, b) in enumerate(lines):
            col, row = divmod(i, rows)
            cx, cy = x + col * (col_w + 20), y + row * (size * 1.6)
            ui.fitted(surface, a, size, theme.CREAM, col_w * 0.6, topleft=(cx, cy))
            ui.fitted(surface, b, size, theme.WHITE, col_w * 0.4, bold=True, topright=(cx + col_w, cy))

    def _draw_meters(self, surface: pygame.Surface) -> None:
        meters = self._cached(("meters",), self.machine.meter_readings)
        if meters is None:
            self.ui.label(surface, _("The ledger is not available."), 24, theme.LOSE, topleft=(40, 130))
            return
        lines = []
        for name in sorted(meters):
            value = meters[name]
            cents = name == "credits" or "cents" in METERS.get(name, "")
            if name.startswith("bill."):
                label = _("Bills of {amount}").format(amount=fmt(self.app, int(name[5:]), True))
            else:
                label = name
            lines.append((label, fmt(self.app, value) if cents else f"{value:,}"))
        bal = balance(meters)
        lines.append((_("Balanced"), _("yes") if bal.get("balanced") else _("NO")))
        self._lines(surface, lines, rows=16, size=19)

    def _draw_events(self, surface: pygame.Surface) -> None:
        evs = self._cached(("events", self.event_offset),
                           lambda: self.machine.ledger_events(last=12 + self.event_offset))
        evs = evs[: max(0, len(evs) - self.event_offset)]
        y = 120
        for ev in reversed(evs[-12:]):
            detail = ", ".join(f"{k}={v}" for k, v in list(ev.detail.items())[:3])
            amount = fmt(self.app, ev.amount) if ev.amount else ""
            self.ui.fitted(surface, f"#{ev.id}  {ev.at.replace('T', ' ')[:19]}  {ev.kind}  {amount}  {detail}", 18,
                           theme.CREAM, 1200, topleft=(40, y))
            y += 38

    def _draw_recall(self, surface: pygame.Surface) -> None:
        y = 120
        for r in self._cached(("recall",), lambda: self.machine.recall(10)):
            text = (f"#{r.id} {r.state} {(r.settled_at or r.started_at)[:19].replace('T', ' ')}  "
                    f"{_('Ante')} {fmt(self.app, r.ante)} {_('Trips')} {fmt(self.app, r.trips)} "
                    f"{_('Play')} {fmt(self.app, r.play)}  {format_cards(r.player_hole)} | {format_cards(r.board)} | "
                    f"{format_cards(r.dealer_hole)}  {r.outcome or ''}  {_('Paid {amount}').format(amount=fmt(self.app, r.paid + r.jackpot))}")
            self.ui.fitted(surface, text, 18, theme.CREAM, 1200, topleft=(40, y))
            y += 46

    def _draw_tilts(self, surface: pygame.Surface) -> None:
        ui = self.ui
        tilts = self.snap.tilts
        if not tilts and not self.snap.door_open:
            ui.label(surface, _("No tilt stands."), 26, theme.WIN, topleft=(40, 130))
        for i, t in enumerate(tilts[:4]):
            y = 170 + i * 100
            ui.fitted(surface, f"{t.code}: {tilt_text(t.code)}", 22, theme.WHITE, 920, bold=True, topleft=(40, y + 8))
            ui.fitted(surface, t.message, 18, theme.MUTED, 920, topleft=(40, y + 48))
        c = self.snap.cashout
        if c is not None:
            ui.fitted(surface, _("Payout pending: {amount} ({method})").format(
                amount=fmt(self.app, c.amount), method=c.method), 22, theme.WIN, 1200, topleft=(40, 560))

    def _draw_devices(self, surface: pygame.Surface) -> None:
        snap = self.snap
        lines = [(_("Door"), _("open") if snap.door_open else _("closed"))]
        dev_tilts = [t for t in snap.tilts if t.code.startswith("device:")]
        for t in dev_tilts:
            lines.append((t.code, t.message))
        if not dev_tilts:
            lines.append((_("Device faults"), _("none")))
        demo = self.app.demo
        if demo is not None:
            lines.append((_("Bill validator"), _("simulated (demo)")))
            lines.append((_("Ticket printer"), _("simulated (demo)")))
        for ev in self._cached(("devices",), lambda: self.machine.ledger_events(("device",), last=8)):
            lines.append((f"{ev.at[:19].replace('T', ' ')} {ev.detail.get('device', '')}",
                          str(ev.detail.get("kind", ""))))
        self._lines(surface, lines, rows=14, col_w=1180)

    def _draw_audit(self, surface: pygame.Surface) -> None:
        ui = self.ui
        ui.paragraph(surface, _("Verify walks both hash chains, checks every dealt deck against its commitment and "
                                "adds the meters up again. Replay also settles every round again."), 22, theme.CREAM,
                     40, 130, 1180)
        r = self.verify_report
        if r is not None:
            ui.fitted(surface, _("Result") + ": " + (_("OK") if r.ok else _("PROBLEM")), 30,
                      theme.WIN if r.ok else theme.LOSE, 1180, bold=True, topleft=(40, 260))
            ui.fitted(surface, f"rounds {r.rounds}  events {r.events}  {r.problem}", 22, theme.CREAM, 1180,
                      topleft=(40, 310))

    def _draw_export(self, surface: pygame.Surface) -> None:
        ui = self.ui
        ui.paragraph(surface, _("Exports the rounds, events and meters, with their hashes, as JSON. Type a path "
                                "(for example a USB stick) or keep the default."), 22, theme.CREAM, 40, 130, 1180)
        box = self.layout.rect(40, 230, 1200, 60)
        pygame.draw.rect(surface, (0, 0, 0), box, border_radius=self.layout.px(8))
        ui.fitted(surface, self.export_path + ("_" if int(self.app.now * 2) % 2 == 0 else ""), 24, theme.WHITE,
                  1170, midleft=(56, 260))

    def _draw_machine(self, surface: pygame.Surface) -> None:
        config = self.machine.config
        ledger_id = self._cached(("ledger_id",), self.machine.ledger_id)
        lines = [
            (_("Machine number"), config.machine_number),
            (_("Casino"), config.casino_name),
            (_("Ledger"), str(config.db_path)),
            (_("Ledger id"), ledger_id if ledger_id is not None else "—"),
            (_("Paytable"), f"{self.snap.paytable.name} {self.snap.paytable.version}"),
            (_("Paytable SHA-256"), self.snap.paytable.sha256[:32] + "…"),
        ]
        self._lines(surface, lines, rows=10, col_w=1180, size=22)
        self.ui.paragraph(surface, _("The machine number and the casino name are set in the cabinet configuration "
                                     "file and recorded in the ledger when it is created."), 20, theme.MUTED, 40, 420,
                          1180)

    def _draw_limits(self, surface: pygame.Surface) -> None:
        ui = self.ui
        base = self.snap.paytable.limits
        names = {"ante_min": _("Ante minimum"), "ante_max": _("Ante maximum"),
                 "trips_min": _("Trips minimum"), "trips_max": _("Trips maximum")}
        for i, (f, label) in enumerate(names.items()):
            y = 170 + i * 100
            ui.fitted(surface, label, 24, theme.CREAM, 400, midleft=(40, y + 45))
            ui.fitted(surface, _("paytable: {amount}").format(amount=fmt(self.app, getattr(base, f))), 18,
                      theme.MUTED, 240, midleft=(440, y + 45))
            ui.label(surface, fmt(self.app, self.limits_draft.get(f, 0)), 30, theme.WHITE, bold=True,
                     center=(905, y + 45))

    def _draw_paytable(self, surface: pygame.Surface) -> None:
        ui = self.ui
        current = self.snap.paytable.sha256
        cache: dict[str, Any] = getattr(self, "_rtp_cache", {})
        self._rtp_cache = cache
        for i, path in enumerate(shipped_paytables()[:4]):
            y = 160 + i * 108
            try:
                table = load_paytable(path)
            except PaytableError as exc:
                ui.fitted(surface, f"{path.name}: {exc}", 20, theme.LOSE, 980, topleft=(260, y + 10))
                continue
            if table.sha256 not in cache:
                cache[table.sha256] = rtp_figures(table)
            rtp = cache[table.sha256]
            mark = "  ✓ " + _("in force") if table.sha256 == current else ""
            ui.fitted(surface, f"{table.name} {table.version}{mark}", 24, theme.WHITE, 980, bold=True,
                      topleft=(260, y + 6))
            if rtp:
                text = "  ".join(f"{k}: {v:.3f}%" for k, v in rtp.items())
            else:
                text = _("RTP not available (maths module absent)")
            ui.fitted(surface, f"{path.name}   {text}", 18, theme.MUTED, 980, topleft=(260, y + 48))

    def _draw_ramclear(self, surface: pygame.Surface) -> None:
        ui = self.ui
        credits = self.snap.credits
        ui.paragraph(surface, _("A RAM clear voids a round in progress (stakes refunded), cancels a pending payout, "
                                "removes the credits and clears every tilt. The history and the lifetime meters "
                                "stay."), 22, theme.CREAM, 40, 120, 740)
        ui.fitted(surface, _("Credits now: {amount}").format(amount=fmt(self.app, credits)), 26, theme.WIN, 740,
                  bold=True, topleft=(40, 290))
        if self.ram_code or not self.witness:
            text = (_("Step 2: type this code to confirm: {code}").format(code=self.ram_code) if self.ram_code
                    else WITNESS_STEP)
            ui.fitted(surface, text, 26, theme.LOSE, 740, bold=True, topleft=(40, 360))
            box = self.layout.rect(40, 410, 380, 56)
            pygame.draw.rect(surface, (0, 0, 0), box, border_radius=self.layout.px(8))
            shown = self.entry if self.ram_code else "●" * len(self.entry)
            ui.label(surface, shown, 30, theme.WHITE, bold=True, midleft=(56, 438))
        else:
            ui.fitted(surface, _("Step 1: request a confirmation code."), 24, theme.CREAM, 740, topleft=(40, 360))
