"""The table as a player meets it: credit rules said before they bite, results that say
what was paid and won, the felt cleared when a session ends, the settlement show, and
production mode (no keyboard hints, no demo badge, no silent headless screen)."""

from __future__ import annotations

import pygame
from test_ui import STRAIGHT, WIN, Kiosk, start_round

from engine.uth.round import Action
from kiosk.config import load_config
from kiosk.ui.scenes.table.chips import stack_of
from kiosk.ui.scenes.table.settle import celebration_level
from kiosk.ui.screen_options import NO_DISPLAY, ScreenOptions
from kiosk.wiring.cabinet import run_cabinet


def test_the_prompt_says_what_a_bet_needs_before_the_deal(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("3", "3")  # $10
    assert k.scene.prompt()[0] == "The smallest bet needs $15.00: Ante, Blind and the 1x Play."
    k.key("3", "3")  # $20
    k.touch("chip_2500")
    text, _c = k.scene.prompt()
    assert text == "A $25.00 Ante needs $75.00: Ante, Blind and the 1x Play. Choose a smaller chip."
    k.touch("chip_500")
    k.key("a")
    assert k.snap.bet_ante == 500
    assert k.scene.prompt()[0] == "Touch DEAL. This bet needs $15.00: Ante, Blind and the 1x Play."
    assert k.button("deal").style == "primary"


def test_an_ante_below_the_minimum_does_not_light_deal(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("4", "4")  # $20
    k.touch("chip_100")
    k.key("a")  # $1 Ante: under the $5 minimum
    assert k.snap.bet_ante == 100
    deal = k.button("deal")
    assert deal.style == "unlit"
    assert k.scene.prompt()[0] == "The Ante minimum is $5.00: add chips to ANTE."
    k.touch("deal")  # a touch tells why, and deals nothing
    assert str(k.snap.phase) != "in_round" and k.app.model.current_note().error == "BetOutOfLimits"
    for _ in range(4):
        k.key("a")
    assert k.button("deal").style == "primary"


def test_unaffordable_plays_are_shown_disabled_and_the_prompt_names_what_can_be_done(kiosks):
    k = kiosks(WIN)
    k.app.go("table")
    k.key("2", "2")
    k.key("2", "2")  # $10
    k.key("2", "2")  # $15
    k.touch("chip_500")
    k.key("a")
    k.touch("deal")
    k.settle()
    assert k.snap.offers and {o.action for o in k.snap.offers} == {Action.CHECK}
    four, three, check = (k.button(f"act_{a}") for a in ("play_4x", "play_3x", "check"))
    assert not four.enabled and not three.enabled and check.enabled
    assert "too few credits" in four.sublabel and four.sublabel.startswith("$20.00")
    assert k.scene.prompt()[0] == "Check: your credits do not cover a Play bet now."
    k.key("p")  # PLAY MAX is not affordable: nothing happens
    assert k.snap.play == 0 and str(k.snap.game_phase) == "preflop"


def test_a_win_says_what_was_paid_and_what_was_won(kiosks):
    k = kiosks(WIN)
    start_round(k)
    k.key("p")
    k.settle()
    seat = k.snap.last_result.seat(1)
    text, _c = k.scene.outcome_text(seat)
    assert seat.net > 0 and seat.returned > seat.net
    assert text == f"PAID ${seat.returned / 100:,.2f} · +${seat.net / 100:,.2f}"


def test_the_felt_is_cleared_after_a_cash_out_and_a_ticket(kiosks):
    k = kiosks(WIN)
    start_round(k)
    k.key("p")
    k.settle()
    table = k.scene
    assert table.result() is not None
    k.key("o")
    k.touch("confirm_cashout")
    k.run(0.8)
    assert k.snap.cashout is None
    k.key("t")  # the ticket goes back in: a new session
    k.run(0.2)
    assert k.scene is table and k.snap.credits > 0
    assert table.result() is None and not table.anim.sprites and table.view().hole == ()
    assert table.prompt()[0] == "Choose a chip, then touch ANTE."


def test_chip_stacks_are_built_from_the_denominations():
    chips = (100, 500, 2500, 10000)
    assert stack_of(4000, chips) == [2500, 500, 500, 500]
    assert stack_of(700, chips) == [500, 100, 100]
    assert stack_of(0, chips) == []
    assert len(stack_of(99900, chips)) == 10


def test_the_settlement_show_sweeps_counts_and_celebrates(kiosks):
    k = kiosks(STRAIGHT)
    start_round(k, trips=True)
    k.touch("act_play_3x")
    table = k.scene
    for _ in range(600):
        k.app.step(1 / 60, draw=False)
        if table.revealed:
            break
    seat = k.snap.last_result.seat(1)
    assert celebration_level(seat) == 1 and table.show.level == 1
    k.run(0.2)
    assert table.busy and table.show.stage(table.anim.clock) == 1  # chips moving
    for _ in range(300):
        k.app.step(1 / 60, draw=False)
        if table.show.counting(table.anim.clock):
            break
    credits, _bet, win = table._readings()
    assert 0 <= win < seat.returned and credits == k.snap.credits - seat.returned + win
    k.app.step(1 / 60)
    assert "tick" in k.app.sounds.played
    k.settle()
    assert table._readings()[2] == seat.returned and not table.busy
    # the fast speed turns the show off: the result is settled at once
    k.app.prefs.speed = "fast"
    k.touch("deal")
    k.settle()
    k.key("p")
    for _ in range(600):
        k.app.step(1 / 60, draw=False)
        if table.revealed:
            break
    assert not table.show.on and table.show.counted(table.anim.clock) == k.snap.last_result.seat(1).returned


def production_kiosk(tmp_path) -> Kiosk:
    from kiosk.pins import hash_pin

    k = Kiosk.__new__(Kiosk)
    from kiosk.station.paperless import PaperlessDevices
    from kiosk.ui.demo import DemoTicketPayout
    from kiosk.wiring.cabinet import cabinet_app
    from kiosk.wiring.lone_cabinet import LoneCabinet

    ops = [{"name": "Ann", "role": "manager", "pin": hash_pin("483920", iterations=50000)},
           {"name": "Bob", "role": "attendant", "pin": hash_pin("739104", iterations=50000)}]
    config = load_config(None, db_path=str(tmp_path / "prod.db"), demo=False, operators=ops)
    k.cabinet = LoneCabinet.open(config)
    k.payout = DemoTicketPayout(PaperlessDevices(delay=0.5).attach(k.cabinet.link))
    k.app = cabinet_app(k.cabinet, (800, 480), payout=k.payout, demo=True)
    k.size = (800, 480)
    k.shots = []
    return k


def test_production_mode_shows_no_keyboard_hints_and_no_demo_badge(tmp_path):
    k = production_kiosk(tmp_path)
    try:
        k.app.go("table")
        k.key("4", "4")
        assert not k.app.model.demo
        assert all(b.hint == "" for b in k.scene.buttons()), [b.hint for b in k.scene.buttons()]
        k.shot("table_production")
    finally:
        k.close()


def test_the_kiosk_refuses_an_invisible_video_driver_unless_asked(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("UTH_HEADLESS", raising=False)
    config = load_config(None, db_path=str(tmp_path / "k.db"))
    options = ScreenOptions(size=(800, 480), sound=False)
    assert run_cabinet(config, options, max_frames=2) == NO_DISPLAY
    err = capsys.readouterr().err
    assert f"{pygame.display.get_driver() if pygame.display.get_init() else 'dummy'}" in err
    assert "UTH_HEADLESS=1" in err and not (tmp_path / "k.db").exists()
    assert run_cabinet(config, ScreenOptions(size=(800, 480), sound=False, headless=True), max_frames=2) == 0
    monkeypatch.setenv("UTH_HEADLESS", "1")
    assert run_cabinet(config, options, max_frames=2) == 0
