"""The table: bets, the deal, decisions, the reveal and the result.

Everything shown comes from the controller's snapshot; the scene only adds timing
(:mod:`.animation`): cards fly from the shoe and turn over a moment after the controller
has dealt them, and the result (hand names, highlights, per-spot payouts, the win meter)
waits for the last card.  Until then the credit meter shows the credits before the
round's returns (:mod:`.meters`), so the result is never given away early.  A touch on
the felt during an animation skips it.

Input is typed: each button carries a request record (:mod:`.intents`), shortcuts are
turned into one, and :data:`HANDLERS` maps each record type to the method that handles
it; the methods send :mod:`kiosk.game.commands` commands through ``model.send``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from kiosk.game.commands import (
    CashOut,
    ClearBets,
    Deal,
    Decide,
    PlaceChip,
    RepeatBets,
    TakeProgressive,
)
from kiosk.game.errors import MachineError
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.ui import i18n, theme
from kiosk.ui.events import Command, InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.meter_ticker import MeterTicker
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import draw_top_bar, fmt, top_buttons, top_command, top_intent
from kiosk.ui.scenes.intents import TopBar
from kiosk.ui.scenes.table import controls, credit, drawing
from kiosk.ui.scenes.table.animation import DealAnimation, shown_result
from kiosk.ui.scenes.table.compositor import Compositor, Recorder
from kiosk.ui.scenes.table.felt import FeltLayer
from kiosk.ui.scenes.table.geometry import CARD_W, spot_at
from kiosk.ui.scenes.table.intents import (
    AskCashOut,
    BetOn,
    Choose,
    ChooseLanguage,
    ClearChips,
    ClosePopup,
    ConfirmCashOut,
    DealRound,
    PickChip,
    RepeatChips,
    StepChip,
    ToggleLanguages,
    from_command,
)
from kiosk.ui.scenes.table.meters import meter_readings, shown_amounts
from kiosk.ui.scenes.table.settle import SettlementShow, draw_coach
from kiosk.ui.station import strip as station_strip
from kiosk.ui.widgets import Button, DamageSurface

#: Seconds the banner of a progressive hit stays up: at the winner's station, elsewhere.
HIT_HERE_S, HIT_S = 10.0, 6.0
#: Phases in which chips may be placed (a round is not in progress nor being paid out).
BETTING_PHASES = (MachinePhase.IDLE, MachinePhase.BETTING, MachinePhase.RESULT)


class TableScene(Scene):
    name = "table"
    draws_felt = False  # its own layer is painted on a felt of its own

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.chip_index = 0
        self.popup: str | None = None  # "language" | "cashout" | None
        self.anim = DealAnimation(lambda: self.app.prefs.time_scale)
        self.show = SettlementShow(
            lambda: self.app.prefs.time_scale, lambda: self.app.prefs.speed != "fast"
        )
        self.felt = FeltLayer(app)
        self.meter = MeterTicker()  # the progressive meter, counting up when it grows
        hit = app.model.snap.progressive_hit
        self._hit_seen = hit.round_id if hit is not None else None  # celebrated already
        self._hit_until = 0.0  # the hit banner shows until then (app seconds)
        self.compositor = Compositor()
        self._epoch = app.model.felt_epoch
        self._cleared: int | None = None  # the round taken off the felt (its session ended)

    # -- what the round looks like now ---------------------------------------------------------
    @property
    def busy(self) -> bool:
        """An animation is running (a touch on the felt skips it): cards, or the
        settlement show (chips swept and paid, the win counting up, a celebration)."""
        return self.anim.busy or self.show.busy(self.anim.clock)

    def skip(self) -> None:
        """Finish every animation now."""
        self.anim.skip()
        self.show.skip(self.anim.clock)

    @property
    def revealed(self) -> bool:
        """The result of the round on show has been revealed."""
        return self.anim.revealed

    def view(self) -> MachineSnapshot:
        """The snapshot as the table shows it: the last round taken off the felt once its
        player's session ended (a cash-out, a ticket in, a paytable change, a RAM clear)."""
        snap = self.snap
        if (
            self._cleared is None
            or snap.round_id != self._cleared
            or snap.phase is MachinePhase.IN_ROUND
        ):
            return snap
        phase = snap.phase
        if phase is MachinePhase.RESULT:
            phase = (
                MachinePhase.BETTING
                if snap.credits or snap.bet_ante or snap.bet_trips or snap.bet_progressive
                else MachinePhase.IDLE
            )
        return replace(
            snap,
            phase=phase,
            hole=(),
            board=(),
            dealer=(),
            last_result=None,
            ante=0,
            blind=0,
            trips=0,
            play=0,
            progressive=0,
            offers=(),
            legal=(),
        )

    def _follow_sessions(self) -> None:
        """Clear the felt when the model says the session on show ended."""
        epoch = self.model.felt_epoch
        if epoch == self._epoch:
            return
        self._epoch = epoch
        if self.snap.phase is not MachinePhase.IN_ROUND:
            self._cleared = self.snap.round_id
            self.anim.reset()
            self.show.reset()

    def result(self) -> Any:
        """The settlement of the last round while the machine shows it, else ``None``."""
        return shown_result(self.view())

    def _revealed_result(self) -> Any:
        return self.result() if self.revealed else None

    def chips(self) -> tuple[int, ...]:
        """The chip denominations on the rail (cents)."""
        return tuple(self.snap.limits.chips)[:6]

    def default_chip(self) -> int:
        """The smallest chip that makes a whole minimum Ante on its own."""
        lim = self.snap.limits
        return next((i for i, c in enumerate(self.chips()) if c >= lim.ante_min), 0)

    def clamp_chip(self) -> None:
        self.chip_index = max(0, min(self.chip_index, len(self.chips()) - 1))

    def betting(self) -> bool:
        """Chips may be placed now (not during a round, nor while its result is coming)."""
        return self.view().phase in BETTING_PHASES and not self.anim.revealing

    def outcome_text(self, seat: Any) -> tuple[str, tuple[int, int, int]]:
        return drawing.outcome_text(self.app, seat)

    # -- the scene verbs ----------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        self.popup = None
        self._follow_sessions()
        self.invalidate()
        if self.app.previous == "attract" or self.chip_index >= len(self.chips()):
            self.chip_index = self.default_chip()
        self.clamp_chip()

    def leave(self) -> None:
        self.popup = None
        self.compositor.release()  # 8 MB at 1920x1080 while another scene shows

    def modal(self) -> bool:
        """The language picker or the cash-out confirmation is open."""
        return self.popup is not None

    def handle(self, event: InputEvent) -> bool:
        if self.popup is None:
            return super().handle(event)
        self._dialog_input(event)
        return True

    def _dialog_input(self, event: InputEvent) -> None:
        """The open dialog's own controls, by touch, key or button; nothing else acts."""
        allowed = DIALOG_REQUESTS[self.popup or ""]
        intent: object = None
        if isinstance(event, Touch):
            b = self.ui.hit(self.layout, self.buttons(), event.pos)
            if b is not None and b.enabled:
                self.pressed = (b.id, self.app.now + 0.15)
                self.app.sounds_play("click")
                intent = b.command
        else:
            command = (
                event.command
                if isinstance(event, Key)
                else event
                if isinstance(event, Command)
                else None
            )
            if command is not None:
                intent = from_command(command.name, command.arg)
        if type(intent) in allowed:
            self.on_intent(intent)

    def update(self, dt: float) -> None:
        self._follow_sessions()
        for event in self.anim.advance(dt, self.view()):
            if event != "reveal":
                self.app.sounds_play(event)
                continue
            res = self.result()
            if res is None or not res.seats:
                continue
            seat = res.seat(1)
            self.show.start(seat, self.anim.clock, seed=self.snap.round_id or 0)
            if seat.net > 0:
                big = self.show.level >= 2 or seat.net >= 20 * max(1, seat.ante)
                self.app.sounds_play("bigwin" if big else "win")
        if self.result() is None and self.show.seat is not None:
            self.show.reset()
        self._follow_hits()
        for sound in self.show.sounds(self.anim.clock):
            self.app.sounds_play(sound)

    def _follow_hits(self) -> None:
        """Celebrate a new hit of the progressive meter once the cards that made it have
        shown: a banner at every station of the table, longer and louder at the winner's."""
        hit = self.snap.progressive_hit
        if hit is None or hit.round_id == self._hit_seen or self.busy:
            return
        self._hit_seen = hit.round_id
        here = self.snap.progressive_hit_here
        self._hit_until = self.app.now + (HIT_HERE_S if here else HIT_S)
        self.app.sounds_play("bigwin" if here else "win")

    def hit_shown(self) -> bool:
        """The banner of the last progressive hit is up."""
        return self.app.now < self._hit_until and self.snap.progressive_hit is not None

    def on_touch(self, pos: tuple[int, int]) -> bool:
        spot = spot_at(self.layout.to_design(pos), progressive=self.view().progressive_wager > 0)
        if spot is not None:
            self._bet_on(BetOn(spot))
            return True
        if self.busy:
            self.skip()
            return True
        return False

    def on_command(self, name: str, arg: object = None) -> bool:
        """A shortcut by name: the table's own requests, else the top bar's."""
        intent = from_command(name, arg)
        if intent is not None:
            return self.on_intent(intent)
        return top_command(self.app, name)

    def on_intent(self, intent: object) -> bool:
        if intent is TopBar.LANGUAGE:  # the table's language is its picker
            intent = ToggleLanguages()
        elif isinstance(intent, TopBar):
            return top_intent(self.app, intent)
        handler = HANDLERS.get(type(intent))
        if handler is None:
            return False
        handler(self, intent)
        return True

    # -- the handlers (one per request type) ---------------------------------------------------
    def _toggle_languages(self, _intent: ToggleLanguages) -> None:
        self.popup = None if self.popup == "language" else "language"

    def _choose_language(self, intent: ChooseLanguage) -> None:
        i18n.set_language(intent.language)
        self.popup = None

    def _close_popup(self, _intent: ClosePopup) -> None:
        self.popup = None

    def _pick_chip(self, intent: PickChip) -> None:
        self.chip_index = intent.index

    def _step_chip(self, intent: StepChip) -> None:
        self.chip_index = (self.chip_index + intent.step) % len(self.chips())

    def _bet_on(self, intent: BetOn) -> None:
        snap = self.view()
        progressive = intent.spot == "progressive"
        if not self.betting() or (
            progressive and not (snap.progressive_wager or snap.bet_progressive)
        ):
            return  # not between rounds, or no progressive spot on the felt now
        self.skip()
        self.clamp_chip()
        command: PlaceChip | TakeProgressive = PlaceChip(intent.spot, self.chips()[self.chip_index])
        if progressive:  # one touch: the exact wager on, or off again
            command = (
                TakeProgressive()
                if snap.bet_progressive
                else PlaceChip("progressive", snap.progressive_wager)
            )
        if self.model.send(
            command, explain=lambda exc: credit.refusal_text(snap, exc, self._money)
        ):
            self.app.sounds_play("chip")

    def _clear(self, _intent: ClearChips) -> None:
        if self.betting():
            self.model.send(ClearBets())

    def _repeat(self, _intent: RepeatChips) -> None:
        if self.betting():
            self.skip()
            if self.model.send(RepeatBets(), explain=self._rebet_refusal):
                self.app.sounds_play("chip")

    def _deal(self, _intent: DealRound) -> None:
        snap = self.view()
        if self.busy:
            self.skip()
            return
        if not self.betting():
            return
        if snap.bet_ante <= 0 and snap.phase is MachinePhase.RESULT:
            if not self.model.send(RepeatBets(), explain=self._rebet_refusal):
                return
        self.model.send(Deal())

    def _rebet_refusal(self, exc: MachineError) -> str | None:
        return credit.refusal_text(self.view(), exc, self._money, rebet=True)

    def _ask_cash_out(self, _intent: AskCashOut) -> None:
        """The confirmation, between rounds only (never while a round or its result is
        coming) and with credits to pay."""
        if not self.betting() or self.snap.credits <= 0 or self.snap.cashout is not None:
            return
        self.skip()
        self.popup = "cashout"

    def _confirm_cash_out(self, _intent: ConfirmCashOut) -> None:
        if self.popup != "cashout":
            return  # a cash-out is confirmed on its confirmation only
        self.popup = None
        self.model.send(CashOut())

    def _choose(self, intent: Choose) -> None:
        if self.busy:
            self.skip()
            return
        legal = tuple(self.snap.legal)
        action = next((a for a in intent.actions if a in legal), None)
        if action is not None:
            self.model.send(Decide(action))

    # -- buttons -----------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        out = self._buttons()
        if self.app.tilted:  # play is suspended: nothing on the table is lit under the overlay
            return [b if b.id.startswith("top_") else replace(b, enabled=False) for b in out]
        return out

    def _buttons(self) -> list[Button]:
        if self.popup == "language":
            return controls.language_buttons()
        if self.popup == "cashout":
            return controls.cashout_buttons()
        hints = self.model.demo
        out = top_buttons(hints=hints)
        snap = self.view()
        money = self._money
        dealing = self.busy and snap.hole and not self.revealed
        if snap.phase is MachinePhase.IN_ROUND or (
            dealing and snap.phase is not MachinePhase.RESULT
        ):
            return out + controls.decision_buttons(
                credit.decisions(snap) if not self.busy else (), money, hints
            )
        if dealing:
            return out  # the reveal is running: nothing to press (a touch skips it)
        return out + controls.betting_buttons(
            snap, self.chips(), self.chip_index, self.betting(), money, hints
        )

    def _money(self, cents: int, compact: bool = False) -> str:
        return fmt(self.app, cents, compact=compact)

    # -- drawing -------------------------------------------------------------------------------
    def static_layer(self) -> pygame.Surface:
        if self.felt.stale(self.snap):  # the frames drawn on the old layer let it go first
            self.compositor.invalidate()
        return self.felt.surface(self.snap)

    def warm_up(self) -> None:
        """Render the table layer, its labels, buttons and meters as they are now, and the
        card back and shadow now (a face is made when a card is first shown, about 3 ms:
        the whole deck would hold 5.5 MB at 1920x1080 for the few cards a round shows)."""
        self.static_layer()
        self._paint_base(Recorder(self.layout.size))  # type: ignore[arg-type]
        w = self.layout.px(CARD_W)
        self.app.cards.back(w)
        self.app.cards.shadow(w)

    def invalidate(self) -> None:
        """Repaint the whole screen next frame (after an overlay, on entering the scene)."""
        self.compositor.invalidate()

    def _signature(self) -> tuple[Any, ...]:
        """Everything the base layer shows; the base is redrawn only when this changes."""
        note = self.model.current_note()
        blink = self._ring_lit()
        anim = self.anim
        settled = tuple(sorted(k for k, sp in anim.sprites.items() if anim.settled(sp)))
        return (
            self.model.version,
            i18n.generation(),
            self.popup,
            self.pressed_id(),
            self.chip_index,
            self.revealed,
            self.busy,
            note.text if note else None,
            blink,
            self.app.prefs.four_colour,
            settled,
            anim.round_key,
            self.layout.size,
            self._cleared,
            self.show.stage(anim.clock),
            station_strip.signature(self.app),
            self._progressive_reading(),
            self.hit_shown()
            and (int(self.app.now * 3) % 2 == 0 or not self.snap.progressive_hit_here),
            self.hit_shown(),
        )

    def _progressive_reading(self) -> tuple[int | None, bool] | None:
        """The progressive meter as shown now (cents, counting up), None when the
        paytable in force has no progressive."""
        snap = self.snap
        if snap.paytable.progressive is None:
            return None
        return self.meter.reading(snap.progressive_meter, self.app.now)

    def draw(self, surface: pygame.Surface) -> None:
        """The base (the cached table plus everything that is not moving) is redrawn only
        when something in it changes; every frame redraws the cards in flight or turning."""
        self.compositor.compose(
            surface, self.static_layer(), self._signature(), self._paint_base, self._paint_moving
        )
        self.dirty = self.compositor.dirty

    def draw_whole(self, surface: pygame.Surface) -> None:
        """The current frame painted from nothing on ``surface``, every layer and
        rectangle, leaving this scene's compositor alone: what :meth:`draw`'s partial
        frames must look like."""
        Compositor().compose(
            surface, self.static_layer(), self._signature(), self._paint_base, self._paint_moving
        )

    def _readings(self) -> tuple[int, int, int]:
        """(credit, bet, win) cents as the meters show them now: while the win counts up,
        the credit meter counts with it."""
        snap = self.view()
        credits, bet, win = meter_readings(snap, self.result(), self.revealed)
        seat = self.show.seat
        if self.revealed and seat is not None:
            counted = self.show.counted(self.anim.clock)
            credits, win = credits - seat.returned + counted, counted
        return credits, bet, win

    def _ring_lit(self) -> bool:
        """The Ante spot's ring is on this frame (it blinks while chips may be placed on an
        empty Ante)."""
        snap = self.view()
        return (
            shown_amounts(snap).get("ante", 0) == 0
            and self.betting()
            and not self.busy
            and snap.credits > 0
            and int(self.app.now * 1.6) % 2 == 0
        )

    def _paint_base(self, d: DamageSurface) -> None:
        snap = self.view()
        res = self._revealed_result()
        clock = self.anim.clock
        draw_top_bar(self.app, d, background=False)
        blink = self._ring_lit()
        seat = res.seat(1) if res is not None and res.seats else None
        if seat is not None:
            drawing.draw_pay_lines(self.app, d, snap, seat)
        drawing.draw_spots(
            self.app, d, shown_amounts(snap), seat, self.chips(), blink, self.show, clock
        )
        if seat is not None:
            drawing.draw_progressive_result(self.app, d, snap)
        drawing.draw_cards(self.app, d, self.anim, res, moving=False)
        drawing.draw_names(self.app, d, self.anim, snap, res)
        draw_coach(self.app, d, snap, self.show, clock)
        counting = self.show.counting(clock)
        drawing.draw_meters(self.app, d, self._readings(), which=(1,) if counting else (0, 1, 2))
        reading = self._progressive_reading()
        if reading is not None:
            drawing.draw_progressive_meter(self.app, d, *reading)
        drawing.draw_message(self.app, d, *self.prompt())
        station_strip.draw(self.app, d)  # a player station's: the other seats, the timers
        hit = self.snap.progressive_hit
        if hit is not None and self.hit_shown():
            here = self.snap.progressive_hit_here
            drawing.draw_hit_banner(self.app, d, hit, here, int(self.app.now * 3) % 2 == 0)
        if self.popup:
            drawing.draw_popup(self.app, d, self.popup, snap.credits)
            self.draw_buttons(d)
        else:
            self.draw_buttons(d, [b for b in self.buttons() if not b.id.startswith("top_")])

    def _paint_moving(self, d: DamageSurface) -> None:
        drawing.draw_cards(self.app, d, self.anim, self._revealed_result(), moving=True)
        if self.show.seat is not None and not self.popup:
            drawing.draw_show(
                self.app, d, self.show, self.chips(), self.anim.clock, self._readings()
            )

    def prompt(self) -> tuple[str, tuple[int, int, int]]:
        """The one line telling the player what happens next (and what a bet needs)."""
        snap = self.view()
        if self.app.tilted:  # the overlay says why; nothing here asks for a bet
            return _("Play is suspended. Your credits are safe."), theme.MUTED
        note = self.model.current_note()
        if note is not None:
            return note.text, (theme.LOSE if note.level == "error" else theme.CREAM)
        phase = snap.phase
        if phase is MachinePhase.IN_ROUND:
            if self.busy:
                return _("Good luck!"), theme.CREAM
            # a seat that has decided at a shared table waits for the others' decisions
            return credit.decision_prompt(snap) or _("Waiting for the other seats"), theme.CREAM
        if phase is MachinePhase.RESULT and self.busy and not self.revealed:
            return _("Good luck!"), theme.CREAM
        if snap.credits <= 0 and phase in BETTING_PHASES:
            if self.app.demo_mode:
                return _("Insert bills to play (demo: keys 1 to 6)."), theme.WIN
            return _("Insert bills to play."), theme.WIN
        self.clamp_chip()
        chips = self.chips()
        chip = chips[self.chip_index] if chips else 0
        return credit.betting_prompt(snap, chip, self._money), theme.CREAM


#: Request type -> the method that handles it: the one way from a touch to the controller.
HANDLERS: dict[type, Callable[[TableScene, Any], None]] = {
    ToggleLanguages: TableScene._toggle_languages,
    ChooseLanguage: TableScene._choose_language,
    ClosePopup: TableScene._close_popup,
    PickChip: TableScene._pick_chip,
    StepChip: TableScene._step_chip,
    BetOn: TableScene._bet_on,
    ClearChips: TableScene._clear,
    RepeatChips: TableScene._repeat,
    DealRound: TableScene._deal,
    AskCashOut: TableScene._ask_cash_out,
    ConfirmCashOut: TableScene._confirm_cash_out,
    Choose: TableScene._choose,
}

#: The requests each dialog answers; while it is open every other request is ignored.
DIALOG_REQUESTS: dict[str, tuple[type, ...]] = {
    "language": (ChooseLanguage, ToggleLanguages, ClosePopup),
    "cashout": (ConfirmCashOut, ClosePopup),
}
