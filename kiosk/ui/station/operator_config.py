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
from typing import Any, Protocol, cast

import pygame

from kiosk.station.operator_link import OperatorLink
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.chrome import fmt
from kiosk.ui.scenes.operator import confirm
from kiosk.ui.scenes.operator.confirm import Change, Confirmation
from kiosk.ui.scenes.operator.limits import FIELDS, NAMES, step
from kiosk.ui.scenes.operator.machine_info import sha_lines
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Desk
from kiosk.ui.scenes.operator.paytables import RTP_NAMES
from kiosk.ui.widgets import Button, Painter

#: The pages of this module.
PAGES = ("limits", "paytables")
LIMITS_RULE = N_(
    "A change needs the door of this station open, no round open and every station at zero credits."
)
NOT_PROVEN = N_("not proven on this table")
#: Paytable rows shown at once; more scroll.
SHOWN = 4
ROW = 104


class Menu(Protocol):
    """The station's operator menu, as these pages see it."""

    link: OperatorLink
    data: dict[str, dict[str, Any]]  # page -> the host's last answer
    result: tuple[str, bool] | None

    @property
    def app(self) -> SceneHost: ...

    @property
    def ui(self) -> Painter: ...

    def act(self, action: str, station: int, page: str = "status", **kw: Any) -> None: ...


class ConfigPages:
    """The Limits and Paytable pages of ``scene`` (see module): the limits draft, the
    chosen paytable and whether a confirmation is open."""

    def __init__(self, scene: Menu) -> None:
        self.scene = scene
        self.draft: dict[str, int] = {}
        self.chosen: str | None = None  # the SHA-256 of the paytable selected
        self.confirming = False
        self.offset = 0

    def open(self, page: str) -> None:
        self.confirming, self.chosen, self.offset = False, None, 0
        if page == "limits":
            self.draft = dict(self.limits())

    # -- the host's data --------------------------------------------------------------
    def limits(self) -> dict[str, int]:
        """The table's limits in force (cents), as the host last sent them."""
        known = self.scene.link.remote.limits
        got = self.scene.data.get("status", {}).get("limits") or (
            known.model_dump() if known else {}
        )
        return {f: int(got[f]) for f in FIELDS if f in got}

    def tables(self) -> list[dict[str, Any]]:
        found = self.scene.data.get("paytables", {}).get("paytables", [])
        return [t for t in found if isinstance(t, dict)]

    def bounds(self, field: str) -> tuple[int, int, int]:
        """``(lo, hi, multiple)`` for ``field``: the paytable's range, cut at the draft's
        other end of the same range."""
        paytable = self.scene.link.remote.paytable
        kind, end = field.split("_")
        if paytable is None:
            value = self.draft.get(field, 0)
            return value, value, 1
        base = paytable.limits
        lo, hi = getattr(base, f"{kind}_min"), getattr(base, f"{kind}_max")
        if end == "min":
            hi = min(hi, self.draft.get(f"{kind}_max", hi))
        else:
            lo = max(lo, self.draft.get(f"{kind}_min", lo))
        return lo, hi, base.ante_step if kind == "ante" else 1

    def answered(self, page: str) -> None:
        """The host answered ``page`` (the status page fills an empty limits draft)."""
        if page == "status" and not self.draft:
            self.draft = dict(self.limits())

    # -- confirmations ----------------------------------------------------------------
    def confirmation(self, page: str) -> Confirmation | None:
        money = self._money
        if page == "limits":
            old = self.limits()
            changes = tuple(
                Change(_(NAMES[f]), money(old.get(f, 0)), money(self.draft.get(f, 0)))
                for f in FIELDS
            )
            return Confirmation(
                _("Change the table limits?"),
                changes,
                "confirm_limits",
                "cancel_config",
                _(LIMITS_RULE),
            )
        asked = next((t for t in self.tables() if t.get("sha256") == self.chosen), None)
        now = next((t for t in self.tables() if t.get("in_force")), None)
        if asked is None or now is None:
            return None
        lines = [
            Change(_("Paytable"), _title(now), _title(asked)),
            Change(_("RTP"), self.rtp_text(now), self.rtp_text(asked)),
            Change(_("Ante limits"), _ante(now, money), _ante(asked, money)),
        ]
        shas = zip(
            sha_lines(now["sha256"], 16, 16), sha_lines(asked["sha256"], 16, 16), strict=True
        )
        lines += [Change(_("SHA-256") if i == 0 else "", a, b) for i, (a, b) in enumerate(shas)]
        return Confirmation(
            _("Put this paytable in force?"),
            tuple(lines),
            "confirm_paytable",
            "cancel_config",
            _(LIMITS_RULE),
        )

    def rtp_text(self, t: dict[str, Any]) -> str:
        figures = t.get("rtp") or {}
        if not figures:
            return _("RTP not known yet")
        text = "  ·  ".join(
            f"{_(name)} {float(figures[key]):.3f}%"
            for key, name in RTP_NAMES.items()
            if key in figures
        )
        return text if t.get("proven") else f"{text}  ({_(NOT_PROVEN)})"

    def _money(self, cents: int) -> str:
        return fmt(self.scene.app, int(cents), True)

    # -- input ------------------------------------------------------------------------
    def on_command(self, name: str, arg: object) -> bool:
        scene = self.scene
        if name == "limit" and isinstance(arg, tuple):
            lo, hi, mult = self.bounds(str(arg[0]))
            self.draft[str(arg[0])] = step(self.draft[str(arg[0])], int(arg[1]), lo, hi, mult)
        elif name == "apply_limits":
            self.confirming = True
        elif name == "select_table":
            self.chosen, self.confirming = str(arg), True
        elif name == "scroll_tables":
            last = max(0, len(self.tables()) - SHOWN)
            self.offset = min(max(0, self.offset + int(str(arg))), last)
        elif name == "cancel_config":
            self.confirming = False
        elif name == "confirm_limits":
            self.confirming = False
            scene.act("set_limits", scene.link.station, page="status", **self.draft)
        elif name == "confirm_paytable" and self.chosen is not None:
            self.confirming = False
            scene.act("set_paytable", scene.link.station, page="paytables", sha256=self.chosen)
        else:
            return False
        return True

    # -- buttons ----------------------------------------------------------------------
    def buttons(self, page: str, busy: bool) -> list[Button]:
        """The page's buttons; while a confirmation is open, only its own."""
        c = self.confirmation(page) if self.confirming else None
        if c is not None:
            return [replace_enabled(b, not busy) for b in confirm.buttons(c)]
        return self._limit_buttons(busy) if page == "limits" else self._table_buttons(busy)

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
                        "limit",
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
                "apply_limits",
                style="primary",
                enabled=changed and not busy,
            )
        )
        return out

    def _table_buttons(self, busy: bool) -> list[Button]:
        out = []
        tables = self.tables()
        for i, t in enumerate(tables[self.offset : self.offset + SHOWN]):
            usable = "sha256" in t and not t.get("in_force")
            out.append(
                Button(
                    f"table_{str(t.get('file', i)).removesuffix('.toml')}",
                    (40, TOP + 4 + i * ROW, 180, 92),
                    _("SELECT"),
                    "select_table",
                    t.get("sha256", ""),
                    style="plain",
                    enabled=usable and not busy,
                )
            )
        out.append(
            Button(
                "scroll_up",
                (860, ROW_Y, 190, ROW_H),
                "▲",
                "scroll_tables",
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
                "scroll_tables",
                1,
                style="plain",
                size=32,
                enabled=self.offset + SHOWN < len(tables),
            )
        )
        return out

    # -- drawing ----------------------------------------------------------------------
    def draw(self, page: str, surface: pygame.Surface) -> None:
        if page == "limits":
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
        if "paytables" not in self.scene.data:
            ui.label(
                surface, _("Waiting for the table host…"), 24, theme.MUTED, topleft=(LEFT, TOP + 10)
            )
            return
        x, width = 240, WIDTH - 240
        for i, t in enumerate(tables[self.offset : self.offset + SHOWN]):
            y = TOP + 4 + i * ROW
            if "sha256" not in t:
                text = f"{t.get('file')}: {t.get('error', '')}"
                ui.fitted(surface, text, 20, theme.LOSE, width, topleft=(x, y + 10))
                continue
            mark = "  ✓ " + _("in force") if t.get("in_force") else ""
            title = f"{_title(t)}{mark}"
            ui.fitted(surface, title, 24, theme.WHITE, width, bold=True, topleft=(x, y))
            ui.fitted(surface, self.rtp_text(t), 20, theme.CREAM, width, topleft=(x, y + 32))
            info = f"{t.get('file')}  ·  {str(t['sha256'])[:12]}…  ·  {_ante(t, self._money)}"
            ui.fitted(surface, info, 20, theme.MUTED, width, topleft=(x, y + 58))


def replace_enabled(button: Button, enabled: bool) -> Button:
    return replace(button, enabled=button.enabled and enabled)


def _title(t: dict[str, Any]) -> str:
    return f"{t.get('name', '')} {t.get('version', '')}".strip()


def _ante(t: dict[str, Any], money: Callable[[int], str]) -> str:
    if "ante_min" not in t:
        return "—"
    return f"{money(int(t['ante_min']))}–{money(int(t['ante_max']))}"
