"""The table's configuration pages of a station's operator menu (technician): Limits
and Paytable, each change confirmed before it is sent to the host.

* **Limits**: the table's limits, a step at a time on the cabinet's ladder within the
  paytable's (:mod:`kiosk.ui.scenes.operator.limits`); APPLY shows the change (each limit
  in force and asked for) for confirmation.
* **Paytable**: the paytables the host may switch to (its paytables folder), each with
  its RTP per bet and the one in force marked; SELECT shows what would change (name and
  version, RTP, Ante limits, SHA-256) for confirmation.

The host refuses a change without the door of this station open, with a round open or
credits at any station, or (a paytable) with its RTP not proven on the table; the reason
is shown on the result line and the draft or the choice stays.  Amounts are cents;
geometry in design units (1280 x 720).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, cast

import pygame

from kiosk.station.operator_port import (
    Done,
    OperatorPort,
    PaytableChoice,
    Paytables,
    TableLimits,
    TableStatus,
)
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.scenes.operator import confirm
from kiosk.ui.scenes.operator.confirm import Change, Confirmation
from kiosk.ui.scenes.operator.intents import Intent, PageId
from kiosk.ui.scenes.operator.limits import FIELDS, NAMES, step
from kiosk.ui.scenes.operator.machine_info import sha_lines
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Desk
from kiosk.ui.scenes.operator.paytables import RTP_NAMES
from kiosk.ui.widgets import Button, Painter

#: The pages of this module.
PAGES = (PageId.LIMITS, PageId.PAYTABLES)
LIMITS_RULE = N_(
    "A change needs the door of this station open, no round open and every station at zero credits."
)
NOT_PROVEN = N_("not proven on this table")
#: Paytable rows shown at once; more scroll.
SHOWN = 4
ROW = 104


class Heard(Protocol):
    """The host's last answers these pages read (None: not yet)."""

    @property
    def status(self) -> TableStatus | None: ...

    @property
    def paytables(self) -> Paytables | None: ...


class Menu(Protocol):
    """The station's operator menu, as these pages see it."""

    result: tuple[str, bool] | None

    @property
    def port(self) -> OperatorPort: ...

    @property
    def data(self) -> Heard:
        """The host's last answers."""
        ...

    @property
    def app(self) -> SceneHost: ...

    @property
    def ui(self) -> Painter: ...

    def act(self, request: Callable[[Done[TableStatus]], bool], page: PageId) -> None: ...


class ConfigPages:
    """The Limits and Paytable pages of ``scene`` (see module): the limits draft, the
    chosen paytable and whether a confirmation is open."""

    def __init__(self, scene: Menu) -> None:
        self.scene = scene
        self.draft: dict[str, int] = {}
        self.chosen: str | None = None  # the SHA-256 of the paytable selected
        self.confirming = False
        self.offset = 0

    def open(self, page: PageId) -> None:
        self.confirming, self.chosen, self.offset = False, None, 0
        if page is PageId.LIMITS:
            self.draft = dict(self.limits())

    # -- the host's data --------------------------------------------------------------
    def limits(self) -> dict[str, int]:
        """The table's limits in force (cents), as the host last sent them."""
        status = self.scene.data.status
        got = (status.limits if status is not None else None) or self.scene.port.limits()
        return got.as_dict() if got is not None else {}

    def tables(self) -> tuple[PaytableChoice, ...]:
        found = self.scene.data.paytables
        return found.tables if found is not None else ()

    def bounds(self, field: str) -> tuple[int, int, int]:
        """``(lo, hi, multiple)`` for ``field``: the paytable's range, cut at the draft's
        other end of the same range."""
        approved = self.scene.port.limit_bounds()
        kind, end = field.split("_")
        if approved is None:
            value = self.draft.get(field, 0)
            return value, value, 1
        base, ante_step = approved
        lo, hi = getattr(base, f"{kind}_min"), getattr(base, f"{kind}_max")
        if end == "min":
            hi = min(hi, self.draft.get(f"{kind}_max", hi))
        else:
            lo = max(lo, self.draft.get(f"{kind}_min", lo))
        return lo, hi, ante_step if kind == "ante" else 1

    def answered(self, page: PageId) -> None:
        """The host answered ``page`` (the status page fills an empty limits draft)."""
        if page is PageId.STATUS and not self.draft:
            self.draft = dict(self.limits())

    # -- confirmations ----------------------------------------------------------------
    def confirmation(self, page: PageId) -> Confirmation | None:
        money = self._money
        if page is PageId.LIMITS:
            old = self.limits()
            changes = tuple(
                Change(_(NAMES[f]), money(old.get(f, 0)), money(self.draft.get(f, 0)))
                for f in FIELDS
            )
            return Confirmation(
                _("Change the table limits?"),
                changes,
                Intent.CONFIRM_LIMITS,
                Intent.CANCEL_CONFIG,
                _(LIMITS_RULE),
            )
        asked = next((t for t in self.tables() if t.sha256 == self.chosen), None)
        now = next((t for t in self.tables() if t.in_force), None)
        if asked is None or now is None:
            return None
        lines = [
            Change(_("Paytable"), now.title, asked.title),
            Change(_("RTP"), self.rtp_text(now), self.rtp_text(asked)),
            Change(_("Ante limits"), _ante(now, money), _ante(asked, money)),
        ]
        shas = zip(sha_lines(now.sha256, 16, 16), sha_lines(asked.sha256, 16, 16), strict=True)
        lines += [Change(_("SHA-256") if i == 0 else "", a, b) for i, (a, b) in enumerate(shas)]
        return Confirmation(
            _("Put this paytable in force?"),
            tuple(lines),
            Intent.CONFIRM_PAYTABLE,
            Intent.CANCEL_CONFIG,
            _(LIMITS_RULE),
        )

    def rtp_text(self, t: PaytableChoice) -> str:
        figures = t.rtp or {}
        if not figures:
            return _("RTP not known yet")
        text = "  ·  ".join(
            f"{_(name)} {float(figures[key]):.3f}%"
            for key, name in RTP_NAMES.items()
            if key in figures
        )
        return text if t.proven else f"{text}  ({_(NOT_PROVEN)})"

    def _money(self, cents: int) -> str:
        return fmt(self.scene.app, int(cents), True)

    # -- input ------------------------------------------------------------------------
    def on(self, intent: Intent, arg: object) -> bool:
        """Carry out one of these pages' intents; True when used."""
        scene = self.scene
        match intent:
            case Intent.LIMIT if isinstance(arg, tuple):
                field = str(arg[0])
                lo, hi, mult = self.bounds(field)
                self.draft[field] = step(self.draft[field], int(arg[1]), lo, hi, mult)
            case Intent.APPLY_LIMITS:
                self.confirming = True
            case Intent.SELECT_TABLE:
                self.chosen, self.confirming = str(arg), True
            case Intent.SCROLL_TABLES:
                last = max(0, len(self.tables()) - SHOWN)
                self.offset = min(max(0, self.offset + int(str(arg))), last)
            case Intent.CANCEL_CONFIG:
                self.confirming = False
            case Intent.CONFIRM_LIMITS:
                self.confirming = False
                asked = TableLimits.of(self.draft)
                scene.act(lambda done: scene.port.set_limits(asked, done), PageId.STATUS)
            case Intent.CONFIRM_PAYTABLE if self.chosen is not None:
                self.confirming = False
                sha = self.chosen
                scene.act(lambda done: scene.port.set_paytable(sha, done), PageId.PAYTABLES)
            case _:
                return False
        return True

    # -- buttons ----------------------------------------------------------------------
    def buttons(self, page: PageId, busy: bool) -> list[Button]:
        """The page's buttons; while a confirmation is open, only its own."""
        c = self.confirmation(page) if self.confirming else None
        if c is not None:
            return [replace_enabled(b, not busy) for b in confirm.buttons(c)]
        return self._limit_buttons(busy) if page is PageId.LIMITS else self._table_buttons(busy)

    def _limit_buttons(self, busy: bool) -> list[Button]:
        out = []
        for i, f in enumerate(FIELDS):
            y = TOP + 20 + i * 100
            value = self.draft.get(f, 0)
            lo, hi, mult = self.bounds(f)
            for sign, x, label in ((-1, 700, "−"), (1, 1000, "+")):
                out.append(
                    Button(
                        f"{f}_{'minus' if sign < 0 else 'plus'}",
                        (x, y, 110, 90),
                        label,
                        Intent.LIMIT,
                        (f, sign),
                        size=40,
                        enabled=step(value, sign, lo, hi, mult) != value,
                    )
                )
        changed = bool(self.draft) and self.draft != self.limits()
        out.append(
            Button(
                "apply_limits",
                (520, ROW_Y, 300, ROW_H),
                _("APPLY"),
                Intent.APPLY_LIMITS,
                style="primary",
                enabled=changed and not busy,
            )
        )
        return out

    def _table_buttons(self, busy: bool) -> list[Button]:
        out = []
        tables = self.tables()
        for i, t in enumerate(tables[self.offset : self.offset + SHOWN]):
            usable = t.readable and not t.in_force
            out.append(
                Button(
                    f"table_{(t.file or str(i)).removesuffix('.toml')}",
                    (40, TOP + 4 + i * ROW, 180, 92),
                    _("SELECT"),
                    Intent.SELECT_TABLE,
                    t.sha256,
                    style="plain",
                    enabled=usable and not busy,
                )
            )
        out.append(
            Button(
                "scroll_up",
                (860, ROW_Y, 190, ROW_H),
                "▲",
                Intent.SCROLL_TABLES,
                -1,
                style="plain",
                size=32,
                enabled=self.offset > 0,
            )
        )
        out.append(
            Button(
                "scroll_down",
                (1070, ROW_Y, 190, ROW_H),
                "▼",
                Intent.SCROLL_TABLES,
                1,
                style="plain",
                size=32,
                enabled=self.offset + SHOWN < len(tables),
            )
        )
        return out

    # -- drawing ----------------------------------------------------------------------
    def draw(self, page: PageId, surface: pygame.Surface) -> None:
        if page is PageId.LIMITS:
            self._draw_limits(surface)
        else:
            self._draw_tables(surface)
        c = self.confirmation(page) if self.confirming else None
        if c is not None:  # the dialog reads only the scene's painter and layout
            confirm.draw(cast(Desk, self.scene), surface, c)

    def _draw_limits(self, surface: pygame.Surface) -> None:
        ui = self.scene.ui
        old = self.limits()
        for i, f in enumerate(FIELDS):
            y = TOP + 20 + i * 100
            ui.fitted(surface, _(NAMES[f]), 24, theme.CREAM, 600, midleft=(LEFT, y + 45))
            value = self.draft.get(f, 0)
            colour = theme.WIN if value != old.get(f) else theme.WHITE
            ui.fitted(surface, self._money(value), 30, colour, 170, bold=True, center=(905, y + 45))
        if self.scene.result is None:
            ui.fitted(surface, _(LIMITS_RULE), 20, theme.MUTED, 1200, midleft=(LEFT, 604))

    def _draw_tables(self, surface: pygame.Surface) -> None:
        ui = self.scene.ui
        tables = self.tables()
        if self.scene.data.paytables is None:
            ui.label(
                surface, _("Waiting for the table host…"), 24, theme.MUTED, topleft=(LEFT, TOP + 10)
            )
            return
        x, width = 240, WIDTH - 240
        for i, t in enumerate(tables[self.offset : self.offset + SHOWN]):
            y = TOP + 4 + i * ROW
            if not t.readable:
                text = f"{t.file}: {t.error}"
                ui.fitted(surface, text, 20, theme.LOSE, width, topleft=(x, y + 10))
                continue
            mark = "  ✓ " + _("in force") if t.in_force else ""
            title = f"{t.title}{mark}"
            ui.fitted(surface, title, 24, theme.WHITE, width, bold=True, topleft=(x, y))
            ui.fitted(surface, self.rtp_text(t), 20, theme.CREAM, width, topleft=(x, y + 32))
            info = f"{t.file}  ·  {t.sha256[:12]}…  ·  {_ante(t, self._money)}"
            ui.fitted(surface, info, 20, theme.MUTED, width, topleft=(x, y + 58))


def replace_enabled(button: Button, enabled: bool) -> Button:
    return replace(button, enabled=button.enabled and enabled)


def _ante(t: PaytableChoice, money: Callable[[int], str]) -> str:
    if t.ante_min is None or t.ante_max is None:
        return "—"
    return f"{money(t.ante_min)}–{money(t.ante_max)}"
