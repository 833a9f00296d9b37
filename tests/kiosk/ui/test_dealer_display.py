"""The dealer display drawn from a real table (real SQLite, injected clock) on a real
pygame surface: the countdown, every seat's status and bets, the dealer's backs during
the round, and every seat's hand and payout at settlement; no hole card before it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from support.table_money import credit

from engine.rng import SeededRandomSource
from engine.uth.round import Action
from kiosk.config import load_config
from kiosk.game.commands import Deal, Decide, PlaceChip, SetDoor
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock
from kiosk.ui.dealer_display import DealerDisplay, countdown, seat_state
from kiosk.ui.i18n import set_language

SHOTS = Path("/tmp/shots")


@pytest.fixture
def table(tmp_path):
    clock = ManualClock()
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    t = Table.open(config, (1, 2, 3), rng=SeededRandomSource(11), clock=clock)
    for n in (1, 2, 3):
        credit(t, n, 10_000)
    yield t, clock
    t.close()


def shot(display: DealerDisplay, snap, name: str, size) -> pygame.Surface:
    surface = pygame.Surface(size)
    display.draw(surface, snap)
    SHOTS.mkdir(exist_ok=True)
    pygame.image.save(surface, str(SHOTS / f"dealer-{name}-{size[0]}x{size[1]}.png"))
    return surface


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_display_follows_a_round_from_the_window_to_the_results(table, size):
    pygame.init()
    set_language("en")
    t, clock = table
    display = DealerDisplay(size)
    t.execute(1, PlaceChip("ante", 500))
    t.execute(2, PlaceChip("ante", 1000))
    t.execute(2, PlaceChip("trips", 500))
    t.execute(1, Deal())
    clock.advance(3)
    betting = t.display()
    assert countdown(betting) == "Bets close in 17 s"
    assert [seat_state(s, betting) for s in betting.seats] == ["Ready", "Betting", "Betting"]  # 3 has credits
    before = shot(display, betting, "betting", size)
    t.execute(3, SetDoor(True))  # station 3 stopped: only its panel says so
    t.execute(2, Deal())
    dealt = t.display()
    assert dealt.round_open and dealt.dealer == () and dealt.board == ()
    assert countdown(dealt) == "Decide within 20 s"
    assert [seat_state(s, dealt) for s in dealt.seats] == ["Deciding", "Deciding", "Stopped"]
    during = shot(display, dealt, "preflop", size)
    assert pygame.image.tobytes(before, "RGB") != pygame.image.tobytes(during, "RGB")
    t.execute(1, Decide(Action.PLAY_4X))
    assert [seat_state(s, t.display()) for s in t.display().seats][:2] == ["Decided", "Deciding"]
    t.execute(2, Decide(Action.CHECK))
    for _ in range(2):  # flop and river: seat 1 has played, seat 2 checks and folds
        t.execute(2, Decide(Action.CHECK if t.display().phase.value == "flop" else Action.FOLD))
    settled = t.display()
    assert not settled.round_open and len(settled.dealer) == 2 and len(settled.board) == 5
    assert {r.seat for r in settled.results} == {1, 2}
    shot(display, settled, "settled", size)


def test_a_stopped_table_says_so(table):
    t, _clock = table
    t.table_tilt("ledger_write", "the ledger cannot be written")
    assert countdown(t.display()) == "The table is stopped: call an attendant"


def test_settled_seats_say_their_outcome_and_net_and_the_dealer_hand_shows(table, monkeypatch):
    pygame.init()
    set_language("en")
    t, _clock = table
    display = DealerDisplay((1920, 1080))
    drawn: list[str] = []
    real = display.painter.fitted

    def record(surface, text, *args, **kwargs):
        drawn.append(text)
        return real(surface, text, *args, **kwargs)

    monkeypatch.setattr(display.painter, "fitted", record)
    t.execute(1, PlaceChip("ante", 500))
    t.execute(2, PlaceChip("ante", 500))
    t.execute(3, SetDoor(True))  # station 3 stands aside
    t.execute(1, Deal())
    t.execute(2, Deal())
    t.execute(1, Decide(Action.PLAY_4X))
    for _ in range(3):  # seat 2 checks, checks, folds
        t.execute(2, Decide(Action.CHECK if t.display().round_open and t.display().phase.value != "river"
                            else Action.FOLD))
    settled = t.display()
    assert settled.dealer_qualifies is not None
    shot(display, settled, "words", (1920, 1080))
    words = {"WIN": "Player won", "LOSS": "Dealer won", "PUSH": "Push", "FOLD": "Player folded"}
    for r in settled.results:
        assert words[r.outcome.name] in drawn
        net = r.net
        signed = "Push" if net == 0 else (f"+${net / 100:,.2f}" if net > 0 else f"\u2212${-net / 100:,.2f}")
        assert signed.replace(".00", "") in drawn or signed in drawn
        assert f"PAID ${r.returned / 100:,.0f}" in drawn or f"PAID ${r.returned / 100:,.2f}" in drawn
    assert any(d.startswith("Dealer") and "qualif" in d for d in drawn)
    assert not any(d.startswith("Paid ") for d in drawn)
