"""The paytable editor, shown over the paytable page: a copy of a table whose Blind and
Trips lines and limits are stepped within the jurisdiction's bounds, its exact RTP
computed on the cabinet with a progress bar, and PUT IN FORCE once every bet is inside
the bounds, confirmed first.  A copy of a table with a progressive keeps that bet as it
is; its tab shows the bet's exact return at the reset, at the break-even meter and at
the ceiling (:func:`kiosk.game.paytables.editor.return_curve`).

The session (:class:`kiosk.game.paytables.editor.PaytableEditor`) holds the draft and
the computation, which runs in a worker thread: the screens keep drawing and the
controller keeps answering.  A change the controller refuses keeps the draft on screen
with the reason.  Amounts are cents; geometry in design units.
"""

from __future__ import annotations

import pygame

from kiosk.game.errors import MachineError
from kiosk.game.paytables.draft import EditError, PaytableError
from kiosk.game.paytables.editor import EDITABLE_LIMITS, PaytableEditor, ReturnCurve, return_curve
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.layout import MIN_TOUCH
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.operator import confirm
from kiosk.ui.scenes.operator.confirm import Change, Confirmation
from kiosk.ui.scenes.operator.intents import Act, Dialog, ShowTab, Step
from kiosk.ui.scenes.operator.limits import CONDITIONS, step
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, Desk, escape, heading
from kiosk.ui.widgets import Button

TABS = {"blind": N_("Blind pays"), "trips": N_("Trips pays"), "limits": N_("Limits")}
#: The tab of a draft with a progressive (its return curve; nothing to edit).
PROGRESSIVE_TAB = {"progressive": N_("Progressive")}
LINES = {
    "royal_flush": N_("Royal flush"), "straight_flush": N_("Straight flush"),
    "four_of_a_kind": N_("Four of a kind"), "full_house": N_("Full house"), "flush": N_("Flush"),
    "straight": N_("Straight"), "three_of_a_kind": N_("Three of a kind"),
    "ante_min": N_("Ante minimum"), "ante_max": N_("Ante maximum"),
    "trips_min": N_("Trips minimum"), "trips_max": N_("Trips maximum"),
}
#: The bets shown with their exact RTP, as the PAR report names them.
BETS = {"main_total": N_("Main game"), "ante": N_("Ante"), "blind": N_("Blind"), "play": N_("Play"),
        "trips": N_("Trips")}
#: The tabs' and the steppers' height: a finger's target (:data:`kiosk.ui.layout.MIN_TOUCH`).
TAB_H = STEP = MIN_TOUCH
#: The lines in two columns of four rows (a Trips table has seven lines), each row a
#: name, its value and its -/+ steppers; design units.
ROW, ROW_TOP, ROWS = STEP + 8, TOP + TAB_H + 10, 4
COL_X, NAME_W, VALUE_W = (LEFT, LEFT + 468), 165, 110
PANEL_X, PANEL_W = 985, 265
#: The tabs' pitch, design units: room for four before the panel.
TAB_PITCH = {3: 240, 4: 232}
#: The return curve's columns: the point's name, its meter, the return; design units.
CURVE_X = (LEFT, LEFT + 360, LEFT + 900)


def row_at(i: int) -> tuple[float, float]:
    """The top-left corner of the ``i``-th line's row, design units (four rows a column)."""
    col, row = divmod(i, ROWS)
    return COL_X[col], ROW_TOP + row * ROW


class EditorView:
    """The editor over ``desk`` for the session ``session`` (already started)."""

    def __init__(self, desk: Desk, session: PaytableEditor) -> None:
        self.desk = desk
        self.session = session
        self.tab = "blind"
        self.confirming = False
        self.leaving = False  # asking before the draft is dropped
        self.started = session.table.sha256 if session.table is not None else ""  # the untouched copy

    # -- what is shown --------------------------------------------------------------------
    def tabs(self) -> dict[str, str]:
        """The tabs and their titles: the progressive's too when the draft has one."""
        table = self.session.table
        return {**TABS, **PROGRESSIVE_TAB} if table is not None and table.progressive else TABS

    def curve(self) -> ReturnCurve | None:
        """The draft's progressive return curve, None without a progressive."""
        table = self.session.table
        progressive = table.progressive if table is not None else None
        if table is None or progressive is None:
            return None
        return self.desk.cached(("return_curve", table.sha256), lambda: return_curve(progressive))

    def fields(self) -> list[str]:
        """The dotted fields of the tab shown (none on the progressive's)."""
        table = self.session.table
        if table is None or self.tab not in TABS:
            return []
        if self.tab == "limits":
            return [f"limits.{f}" for f in EDITABLE_LIMITS]
        return [f"{self.tab}.{name}" for name in type(getattr(table, self.tab)).model_fields]

    def value(self, field: str) -> str:
        section, _sep, name = field.partition(".")
        return str(getattr(getattr(self.session.table, section), name))

    def shown(self, field: str) -> str:
        if field.startswith("limits."):
            return self.desk.money(int(self.value(field)), True)
        num, _sep, den = self.value(field).partition(":")
        return _("{n} to {d}").format(n=num, d=den)

    def neighbour(self, field: str, sign: int) -> str | None:
        """The value one step below (``sign`` < 0) or above the current one, if any."""
        current = self.value(field)
        if field.startswith("limits."):
            lo, hi = self.session.limit_range(field.partition(".")[2])
            nxt = step(int(current), sign, lo, hi)
            return None if nxt == int(current) else str(nxt)
        values = self.session.choices(field)
        i = values.index(current) if current in values else -1
        j = i + sign
        return values[j] if i >= 0 and 0 <= j < len(values) else None

    def modal(self) -> bool:
        return self.confirming or self.leaving

    def dirty(self) -> bool:
        """Leaving would lose work: the draft was changed, or its RTP is computed or
        being computed."""
        s = self.session
        job = s.job
        changed = s.table is not None and s.table.sha256 != self.started
        return changed or s.rtps() is not None or (job is not None and job.running)

    def leave_question(self) -> Confirmation:
        return Confirmation(_("Leave the editor?"), (), "editor_leave", "editor_stay",
                            _("The draft and its computed RTP will be lost."), Dialog.LEAVE, Dialog.STAY)

    def confirmation(self) -> Confirmation:
        s, old = self.session, self.desk.snap.paytable
        new = s.table
        rtps = s.rtps() or {}
        changes = [Change(_("Paytable"), f"{old.name} {old.version}",
                          f"{new.name} {new.version}" if new else ""),
                   Change(_("SHA-256"), old.sha256[:16] + "…", (new.sha256[:16] + "…") if new else "")]
        changes += [Change(_(BETS[k]), "", f"{100 * v:.4f}%") for k, v in rtps.items() if k in BETS]
        return Confirmation(_("Put this paytable in force?"), tuple(changes), "editor_confirm", "editor_cancel",
                            _(CONDITIONS))

    # -- buttons and commands -------------------------------------------------------------
    def buttons(self) -> list[Button]:
        if self.leaving:
            return confirm.buttons(self.leave_question(), _("LEAVE"), _("STAY"))
        if self.confirming:
            return confirm.buttons(self.confirmation())
        tabs = self.tabs()
        pitch = TAB_PITCH[len(tabs)]
        out = [Button(f"tab_{t}", (LEFT + i * pitch, TOP, pitch - 10, TAB_H), _(title), ShowTab(t),
                      style="selected" if t == self.tab else "plain", size=22)
               for i, (t, title) in enumerate(tabs.items())]
        for i, f in enumerate(self.fields()):
            x, y = row_at(i)
            ident = f.replace(".", "_")
            x += NAME_W + VALUE_W + 8
            out.append(Button(f"{ident}_minus", (x, y, STEP, STEP), "−", Step(f, -1), style="plain",
                              size=32, enabled=self.neighbour(f, -1) is not None))
            out.append(Button(f"{ident}_plus", (x + STEP + 6, y, STEP, STEP), "+", Step(f, 1),
                              style="plain", size=32, enabled=self.neighbour(f, 1) is not None))
        job = self.session.job
        running = job is not None and job.running and self.session.table is not None \
            and job.table.sha256 == self.session.table.sha256
        out.append(Button("editor_back", (240, ROW_Y, 280, ROW_H), _("PAYTABLES"), Nav.BACK, style="plain"))
        out.append(Button("editor_compute", (540, ROW_Y, 340, ROW_H), _("COMPUTE RTP"), Act.COMPUTE,
                          style="dark", enabled=not running and self.session.rtps() is None))
        out.append(Button("editor_apply", (900, ROW_Y, 364, ROW_H), _("PUT IN FORCE"), Dialog.REVIEW,
                          style="primary", enabled=self.session.can_apply()))
        return out

    def on_key(self, key: Key) -> bool:
        if escape(key) and (self.confirming or self.leaving):
            self.confirming = self.leaving = False
            return True
        if escape(key) and self.dirty():
            self.leaving = True  # Esc would drop the draft: ask first
            return True
        return self.modal()

    def wants_to_leave(self) -> bool:
        """PAYTABLES (or Esc) was pressed: True when the editor may close now, else it
        asks first (:meth:`leave_question`)."""
        if self.leaving or not self.dirty():
            return True
        self.leaving = True
        return False

    def on_intent(self, intent: object) -> bool:
        """A button's intent; True when the editor used it (PAYTABLES, ``Nav.BACK``, and
        LEAVE are the paytable page's)."""
        desk = self.desk
        match intent:
            case ShowTab(tab=tab):
                self.tab = tab if tab in self.tabs() else self.tab
            case Step(field=field, sign=sign):
                value = self.neighbour(field, sign)
                if value is not None:
                    try:
                        self.session.set(field, value)
                    except (EditError, PaytableError) as exc:
                        desk.report(str(exc), False)
            case Act.COMPUTE:
                self.session.compute()
            case Dialog.REVIEW:
                self.confirming = self.session.can_apply()
            case Dialog.CANCEL:
                self.confirming = False
            case Dialog.STAY:
                self.leaving = False
            case Dialog.CONFIRM:
                self.confirming = False
                try:
                    path = self.session.apply()
                except MachineError as exc:
                    desk.report(_("Refused: {reason}").format(reason=exc.reason), False)
                else:
                    desk.report(_("Paytable {name} in force.").format(name=path.name), True)
            case _:
                return False
        return True

    # -- drawing --------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        desk, s = self.desk, self.session
        ui = desk.ui
        refused = {r.field for r in s.refusals()}
        for i, f in enumerate(self.fields()):
            x, y = row_at(i)
            name = f.partition(".")[2]
            bad = f in refused
            ui.fitted(surface, _(LINES.get(name, name)), 22, theme.LOSE if bad else theme.CREAM, NAME_W - 6,
                      max_h=STEP - 10, midleft=(x, y + STEP / 2))
            base = s.base
            changed = base is not None and str(getattr(getattr(base, f.partition(".")[0]), name)) != self.value(f)
            ui.fitted(surface, self.shown(f), 24, theme.LOSE if bad else theme.WIN if changed else theme.WHITE,
                      VALUE_W, bold=True, max_h=STEP - 10, center=(x + NAME_W + VALUE_W / 2, y + STEP / 2))
        curve = self.curve()
        if self.tab in PROGRESSIVE_TAB and curve is not None:
            self._draw_curve(surface, curve)
        self._draw_panel(surface, refused)
        if self.leaving:
            confirm.draw(desk, surface, self.leave_question())
        elif self.confirming:
            confirm.draw(desk, surface, self.confirmation())

    def _draw_curve(self, surface: pygame.Surface, curve: ReturnCurve) -> None:
        """The progressive's exact return at the reset, the break-even meter and the
        ceiling, one row each: the point, its meter, the return."""
        desk = self.desk
        ui = desk.ui
        width = PANEL_X - LEFT - 20
        y = ui.paragraph(surface, _("The progressive bet is copied unchanged. Its exact return for each meter:"),
                         22, theme.CREAM, LEFT, ROW_TOP, width) + 10
        ui.fitted(surface, _("METER"), 20, theme.MUTED, 300, bold=True, max_lines=1, topleft=(CURVE_X[1], y))
        ui.fitted(surface, _("RETURN"), 20, theme.MUTED, 200, bold=True, max_lines=1, topright=(CURVE_X[2], y))
        y += 34
        even = None if curve.break_even is None else desk.money(curve.break_even)
        rows = ((_("At the reset"), desk.money(curve.reset), curve.at_reset),
                (_("Break-even"), even or _("above the ceiling: never"), curve.at_break_even),
                (_("At the ceiling"), desk.money(curve.ceiling), curve.at_ceiling))
        for name, meter, back in rows:
            middle = y + STEP / 2
            ui.fitted(surface, name, 24, theme.CREAM, CURVE_X[1] - CURVE_X[0] - 10, max_lines=1,
                      midleft=(CURVE_X[0], middle))
            ui.fitted(surface, meter, 24, theme.WHITE, 300, bold=True, max_lines=1, midleft=(CURVE_X[1], middle))
            shown = "—" if back is None else f"{100 * float(back):.2f}%"
            colour = theme.WIN if back is not None and back >= 1 else theme.WHITE
            ui.fitted(surface, shown, 24, colour, 200, bold=True, max_lines=1, midright=(CURVE_X[2], middle))
            y += ROW

    def _draw_panel(self, surface: pygame.Surface, refused: set[str]) -> None:
        desk, s = self.desk, self.session
        ui, lay = desk.ui, desk.layout
        table = s.table
        title = f"{table.name} {table.version}" if table else ""
        y = heading(desk, surface, title, PANEL_X, TOP, PANEL_W, size=22)
        rtps = s.rtps()
        job = s.job
        current = job is not None and table is not None and job.table.sha256 == table.sha256
        if rtps is None and current and job is not None and job.running:
            ui.fitted(surface, _("Computing the exact RTP…"), 22, theme.CREAM, PANEL_W, topleft=(PANEL_X, y + 4))
            bar = lay.rect(PANEL_X, y + 44, PANEL_W, 30)
            pygame.draw.rect(surface, (0, 0, 0), bar, border_radius=lay.px(6))
            fill = lay.rect(PANEL_X, y + 44, PANEL_W * job.fraction, 30)
            pygame.draw.rect(surface, theme.GOLD, fill, border_radius=lay.px(6))
            ui.fitted(surface, f"{100 * job.fraction:.0f}%", 20, theme.WHITE, 120, bold=True,
                      center=(PANEL_X + PANEL_W / 2, y + 59))
            y += 90
        elif rtps is None:
            failed = current and job is not None and job.error
            text = _("The computation failed: {reason}").format(reason=job.error) if failed and job else \
                _("RTP not computed yet: press COMPUTE RTP.")
            y = ui.paragraph(surface, text, 20, theme.LOSE if failed else theme.MUTED, PANEL_X, y + 4, PANEL_W) + 6
        else:
            for key, name in BETS.items():
                if key not in rtps:
                    continue
                bad = f"rtp.{key}" in refused
                ui.fitted(surface, _(name), 22, theme.CREAM, PANEL_W / 2, topleft=(PANEL_X, y))
                ui.fitted(surface, f"{100 * rtps[key]:.4f}%", 22, theme.LOSE if bad else theme.WHITE, PANEL_W / 2,
                          bold=True, topright=(PANEL_X + PANEL_W, y))
                y += 32
        problems = s.refusals()
        if problems:
            ui.fitted(surface, _("Outside the bounds:"), 20, theme.LOSE, PANEL_W, bold=True, topleft=(PANEL_X, y + 6))
            y += 34
            for r in problems[:5]:
                ui.fitted(surface, str(r), 20, theme.LOSE, PANEL_W, topleft=(PANEL_X, y))
                y += 28
        elif rtps is not None:
            ui.fitted(surface, _("Every bet is inside the bounds."), 20, theme.WIN, PANEL_W, topleft=(PANEL_X, y + 6))
