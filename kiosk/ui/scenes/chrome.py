"""Pieces every player screen shares: the top bar, the meters, the tilt overlay and the
RAM-clear notice."""

from __future__ import annotations

import pygame

from kiosk.ui import i18n, theme
from kiosk.ui.events import Command, InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _, money, pgettext
from kiosk.ui.scenes.intents import TOP_COMMANDS, Nav, TopBar
from kiosk.ui.widgets import Button, Canvas

TOP_H = 94
TITLE = N_("ULTIMATE TEXAS HOLD'EM")

#: Tilt codes (device events and controller tilts) -> what the player reads.
TILT_MESSAGES: dict[str, str] = {
    "door": N_("The cabinet door is open."),
    "ledger": N_("The game records need attention."),
    "comm_error": N_("A device is not responding."),
    "host_error": N_("A device reported an error."),
    "power_up_bill_in_stacker": N_("A bill needs to be checked."),
    "stacker_full": N_("The bill box is full."),
    "stacker_open": N_("The bill box is open."),
    "acceptor_jam": N_("A bill is jammed."),
    "stacker_jam": N_("A bill is jammed."),
    "cheated": N_("The bill validator detected tampering."),
    "failure": N_("The bill validator has failed."),
    "config_rejected": N_("A device needs setting up."),
    "vend_unmatched": N_("A bill needs to be checked."),
    "paper_out": N_("The ticket printer is out of paper."),
    "head_up": N_("The ticket printer is open."),
    "paper_jam": N_("The ticket printer is jammed."),
    "chassis_open": N_("The ticket printer is open."),
    "printer_failure": N_("The ticket printer has failed."),
    "layout_rejected": N_("A device needs setting up."),
    "handpay": N_("Hand pay: an attendant will pay you."),
    "jackpot": N_("Jackpot! An attendant will pay you."),
    "host_link": N_("The table host cannot be reached."),
    "rtp": N_("The paytable's return to player is being computed."),
}
GENERIC_TILT = N_("The machine needs attention.")
#: Stops that are a state of the power-up, not a fault: the overlay asks the player to
#: wait instead of calling an attendant (the paytable's return computing).
WAIT_TILTS = frozenset({"rtp"})


def tilt_text(code: str) -> str:
    key = code.split(":")[-1].lower()  # "device:validator:acceptor_jam" -> "acceptor_jam"
    return _(TILT_MESSAGES.get(key, GENERIC_TILT))


def top_buttons(active: str = "", hints: bool = True) -> list[Button]:
    """The top bar's buttons (right side); ``active`` is the scene shown now; ``hints``
    draws their keyboard shortcuts (demo mode only: a cabinet has no keyboard)."""
    items = [
        (TopBar.LANGUAGE, i18n.native_name(i18n.language()), "L"),
        (TopBar.SETTINGS, _("Settings"), "E"),
        (TopBar.RECALL, _("History"), "G"),
        (TopBar.PAYTABLE, _("Pays"), "Y"),
        (TopBar.HELP, _("Rules"), "H"),
    ]
    w, gap, right = 124, 6, 1276
    x = right - len(items) * (w + gap) + gap
    out = []
    for intent, label, hint in items:
        bid = intent.value
        style = "selected" if bid == active else "dark"
        out.append(Button(f"top_{bid}", (x, 4, w, 86), label, intent, style=style, size=24, hint=hint if hints else ""))
        x += w + gap
    return out


def draw_top_background(app: SceneHost, surface: pygame.Surface) -> None:
    """The bar, the title and the cabinet's identity (static: cached by the table)."""
    ui, lay = app.painter, app.layout
    bar = pygame.Rect(0, 0, lay.size[0], lay.rect(0, 0, 1280, TOP_H).bottom)
    ui.box(surface, bar, theme.RAIL, 235, radius=0)
    pygame.draw.line(surface, theme.GOLD_DARK, (0, bar.bottom - 1), (lay.size[0], bar.bottom - 1),
                     max(1, lay.px(2)))
    title_w = top_buttons()[0].rect[0] - 40
    ui.fitted(surface, _(TITLE), 34, theme.GOLD, title_w, bold=True, topleft=(22, 10))
    snap = app.model.snap
    casino = app.casino_name
    info = "  ·  ".join(x for x in (casino, machine_words(app), snap.paytable.name) if x)
    x = 24.0
    if app.model.demo:  # a demo cabinet says so on every player screen
        tag = ui.fitted(surface, _("DEMO"), 18, theme.LOSE, 80, bold=True, topleft=(x, 58))
        x += tag.width / lay.scale + 12
    ui.fitted(surface, info, 18, theme.MUTED, title_w - (x - 24), topleft=(x, 58))


def machine_words(app: SceneHost) -> str:
    """"Machine 0001", with a station's number "Machine 0001 · Station 3", in the current
    language ("" with no machine number)."""
    number = app.machine_number
    if not number:
        return ""
    words = _("Machine {number}").format(number=number)
    return words + " · " + _("Station {n}").format(n=app.station) if app.station else words


def draw_top_bar(app: SceneHost, surface: Canvas, active: str = "", background: bool = True) -> list[Button]:
    """The top bar; ``background=False`` when the caller's cached layer already has it."""
    if background:
        assert isinstance(surface, pygame.Surface), "the bar's background is drawn on a real surface"
        draw_top_background(app, surface)
    buttons = top_buttons(active, hints=app.model.demo)
    app.painter.draw_buttons(surface, buttons, app.scene.pressed_id())
    return buttons


#: The top bar's buttons that open a screen, and the scene each opens.
TOP_SCREENS: dict[TopBar, str] = {
    TopBar.SETTINGS: "settings",
    TopBar.RECALL: "recall",
    TopBar.PAYTABLE: "paytable",
    TopBar.HELP: "help",
}


def top_intent(app: SceneHost, intent: TopBar) -> bool:
    """The top bar's requests, the same from every player screen (the language is the
    scene's own: False)."""
    screen = TOP_SCREENS.get(intent)
    if screen is not None:
        app.go(screen)
        return True
    match intent:
        case TopBar.DECK:
            app.prefs.four_colour = not app.prefs.four_colour
        case TopBar.SPEED:
            app.prefs.next_speed()
        case TopBar.SOUND:
            app.prefs.sound = not app.prefs.sound
        case _:
            return False
    return True


def top_command(app: SceneHost, name: str) -> bool:
    """A top-bar shortcut by its command name (:data:`kiosk.ui.shortcuts.SHORTCUTS`)."""
    intent = TOP_COMMANDS.get(name)
    return intent is not None and top_intent(app, intent)


def meter_frame(app: SceneHost, surface: pygame.Surface, rect: tuple[float, float, float, float], title: str) -> None:
    """A meter's panel and title (static)."""
    ui, lay = app.painter, app.layout
    r = lay.rect(*rect)
    ui.box(surface, r, theme.METER_BG, 230, radius=10, border=theme.GOLD_DARK, border_w=2)
    x, y, w, h = rect
    ui.fitted(surface, title, 17, theme.MUTED, w - 20, bold=True, midleft=(x + 12, y + h / 2))


def meter_value(app: SceneHost, surface: Canvas, rect: tuple[float, float, float, float], title: str,
                value: str, colour=theme.METER_TEXT) -> None:
    """A meter's value, right-aligned beside its title."""
    ui, lay = app.painter, app.layout
    x, y, w, h = rect
    tw = app.text.size(title, app.text.fit_px(title, lay.px(17), lay.px(w - 20), True), True)[0] / lay.scale
    ui.fitted(surface, value, 30, colour, w - tw - 34, bold=True, midright=(x + w - 12, y + h / 2 + 1))


def meter(app: SceneHost, surface: pygame.Surface, rect: tuple[float, float, float, float], title: str,
          value: str, colour=theme.METER_TEXT) -> None:
    meter_frame(app, surface, rect, title)
    meter_value(app, surface, rect, title, value, colour)


def currency(app: SceneHost) -> str:
    return app.model.snap.paytable.currency


def fmt(app: SceneHost, cents: int, compact: bool = False) -> str:
    return money(cents, currency(app), compact=compact)


class TiltOverlay:
    """Dims the screen and asks for an attendant while a tilt stands or the door is open."""

    def __init__(self, app: SceneHost) -> None:
        self.app = app

    def lines(self) -> list[str]:
        snap = self.app.model.snap
        out = []
        if snap.door_open:
            out.append(_(TILT_MESSAGES["door"]))
        for t in snap.tilts:
            text = tilt_text(t.code)
            if text not in out:
                out.append(text)
        return out

    def draw(self, surface: pygame.Surface) -> None:
        app, ui, lay = self.app, self.app.painter, self.app.layout
        ui.shade(surface, 170)
        box = (240, 170, 800, 380)
        r = lay.rect(*box)
        flash = int(app.now * 2) % 2 == 0
        ui.box(surface, r, theme.RED_DARK, 245, radius=24, border=theme.GOLD if flash else theme.WHITE, border_w=5)
        snap = app.model.snap
        waiting = not snap.door_open and snap.tilts and all(t.code in WAIT_TILTS for t in snap.tilts)
        title = _("PLEASE WAIT") if waiting else _("CALL ATTENDANT")
        ui.fitted(surface, title, 62, theme.WHITE, 740, bold=True, center=(640, 250))
        y = 320
        for line in self.lines()[:4]:
            ui.fitted(surface, line, 30, theme.CREAM, 740, center=(640, y))
            y += 44
        ui.fitted(surface, _("Play is suspended. Your credits are safe."), 24, theme.GOLD, 740,
                  center=(640, 510))

    def signature(self) -> tuple:
        """What :meth:`draw` shows (it is laid out again only when this changes)."""
        return tuple(self.lines()), int(self.app.now * 2) % 2, i18n.language(), self.app.layout.size


#: The keys and the shortcut that dismiss the RAM-clear notice, as its OK button does.
NOTICE_KEYS: dict[str, Nav] = {"return": Nav.BACK, "escape": Nav.BACK}
NOTICE_COMMANDS: dict[str, Nav] = {"back": Nav.BACK}


class RamClearNotice:
    """Tells the player, over any player screen, that a RAM clear removed their credits
    (:attr:`kiosk.ui.model.Model.ram_cleared`, cents).  Modal: only its OK button (or
    Enter, Esc) does anything while it shows."""

    def __init__(self, app: SceneHost) -> None:
        self.app = app

    @property
    def showing(self) -> bool:
        return self.app.model.ram_cleared > 0

    def buttons(self) -> list[Button]:
        return [Button("notice_ok", (520, 470, 240, 90), pgettext("button", "OK"), Nav.BACK, style="primary")]

    def handle(self, event: InputEvent) -> None:
        """Dismiss on OK, Enter or Esc; ignore everything else."""
        ok = False
        if isinstance(event, Touch):
            ok = self.app.painter.hit(self.app.layout, self.buttons(), event.pos) is not None
        elif isinstance(event, Key):
            ok = NOTICE_KEYS.get(event.name) is Nav.BACK
        elif isinstance(event, Command):
            ok = NOTICE_COMMANDS.get(event.name) is Nav.BACK
        if ok:
            self.app.sounds_play("click")
            self.app.model.acknowledge_ram_clear()

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.app.painter, self.app.layout
        ui.shade(surface, 170)
        r = lay.rect(240, 150, 800, 440)
        ui.box(surface, r, theme.PANEL, 245, radius=24, border=theme.GOLD, border_w=4)
        ui.fitted(surface, _("RAM CLEAR"), 52, theme.GOLD, 740, bold=True, center=(640, 215))
        amount = fmt(self.app, self.app.model.ram_cleared)
        ui.fitted(surface, amount, 64, theme.WHITE, 740, bold=True, center=(640, 305))
        ui.paragraph(surface, _("An attendant cleared the machine's memory. These credits were removed "
                                "from the meter; the attendant will settle them with you."), 24, theme.CREAM,
                     280, 360, 720)
        ui.draw_buttons(surface, self.buttons())

    def signature(self) -> tuple:
        """What :meth:`draw` shows (it is laid out again only when this changes)."""
        return self.app.model.ram_cleared, currency(self.app), i18n.language(), self.app.layout.size
