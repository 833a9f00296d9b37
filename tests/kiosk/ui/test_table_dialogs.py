"""Every dialog and overlay is modal: with it open, every shortcut key, every cabinet
button (the same commands fed directly) and touches all over the screen outside it
change nothing behind it (credits, bets, the round, the screen, the preferences); only
the dialog's own controls work.  The cabinet's key switch and door switch stay live."""

from __future__ import annotations

from dataclasses import astuple

from test_ui import LOSE, WIN, Kiosk, start_round

from kiosk.game.commands import (
    OperatorLogin,
    RamClear,
    RamClearRequest,
    RamClearWitness,
    SetDoor,
)
from kiosk.game.vocabulary import SEAT
from kiosk.ui import i18n
from kiosk.ui.events import Command, Key, Touch
from kiosk.ui.shortcuts import SHORTCUTS

SWITCH_KEYS = {"f12", "f9"}




def state(k: Kiosk) -> tuple:
    s = k.snap
    return (s.credits, s.bet_ante, s.bet_trips, s.phase, s.round_id, s.game_phase, s.play, s.cashout,
            s.operator, s.door_open, k.scene.name, i18n.language(), astuple(k.app.prefs))


def own_rects(k: Kiosk, buttons) -> list:
    return [k.app.layout.rect(*b.rect).inflate(8, 8) for b in buttons]


def outside_points(k: Kiosk, keep_out: list) -> list[tuple[int, int]]:
    """A grid over the whole screen (away from the hidden corners), minus ``keep_out``."""
    w, h = k.size
    pts = [(x, y) for y in range(50, h - 49, 37) for x in range(50, w - 49, 41)]
    return [p for p in pts if not any(r.collidepoint(p) for r in keep_out)]


def hammer(k: Kiosk, skip: set[str], still_open, own: tuple[str, ...] = ()) -> None:
    """Every shortcut key but ``skip``, then every cabinet command (and the table's
    commands without a key) but the dialog's ``own``, each checked alone."""
    before = state(k)
    for name in SHORTCUTS:
        if name in skip:
            continue
        k.key(name, name if len(name) == 1 else "")
        assert state(k) == before, f"key {name!r} acted behind the dialog"
        assert still_open(), f"key {name!r} closed the dialog"
    for name, (command, arg) in SHORTCUTS.items():
        if name in skip:
            continue
        k.app.feed(Command(command, arg))
        k.run(0.05)
        assert state(k) == before, f"button {command!r} acted behind the dialog"
        assert still_open(), f"button {command!r} closed the dialog"
    for extra in ("confirm_cashout", "decide", "set_language", "chip_select"):
        if extra in own:
            continue
        arg = {"decide": "play_4x", "set_language": "fr", "chip_select": 0}.get(extra)
        k.app.feed(Command(extra, arg))
        k.run(0.05)
        assert state(k) == before, f"button {extra!r} acted behind the dialog"


def poke_outside(k: Kiosk, keep_out: list, still_open) -> None:
    before = state(k)
    for p in outside_points(k, keep_out):
        k.app.feed(Touch(p))
    k.run(0.05)
    assert state(k) == before and still_open()


def test_cash_out_confirmation_is_modal_after_a_round(kiosks):
    k = kiosks(WIN, LOSE)
    start_round(k)
    k.key("p")
    k.settle()
    assert str(k.snap.phase) == "result"
    table = k.scene
    k.key("o")
    assert table.popup == "cashout"
    amount = k.snap.credits

    def still_open():
        return k.scene is table and table.popup == "cashout"

    hammer(k, SWITCH_KEYS | {"escape"}, still_open, own=("confirm_cashout",))
    poke_outside(k, own_rects(k, table.buttons()), still_open)
    assert k.snap.credits == amount and k.snap.round_id == 1  # Enter and Space dealt no rebet
    k.key("escape")  # its own control: CANCEL
    assert table.popup is None
    k.key("o")
    k.touch("confirm_cashout")
    assert k.scene.name == "cashout" and k.snap.cashout.amount == amount


def test_cash_out_is_not_offered_while_a_round_is_in_play(kiosks):
    k = kiosks(WIN)
    start_round(k)
    assert str(k.snap.phase) == "in_round"
    table = k.scene
    assert "cashout" not in [b.id for b in table.buttons()]
    k.key("o")
    assert table.popup is None
    k.app.feed(Command("cashout"))
    k.app.feed(Command("confirm_cashout"))
    k.run(0.05)
    assert table.popup is None and k.snap.cashout is None and str(k.snap.phase) == "in_round"
    k.key("p")  # the round goes on
    assert k.snap.play > 0


def test_language_picker_is_modal_mid_round(kiosks):
    k = kiosks(WIN)
    start_round(k)
    table = k.scene
    k.key("l")
    assert table.popup == "language"

    def still_open():
        return k.scene is table and table.popup == "language"

    hammer(k, SWITCH_KEYS | {"escape", "l"}, still_open, own=("set_language",))
    poke_outside(k, own_rects(k, table.buttons()), still_open)
    assert k.snap.play == 0 and str(k.snap.phase) == "in_round"  # O then P bet nothing behind it
    k.touch("lang_fr")
    assert i18n.language() == "fr" and table.popup is None
    k.key("l")
    k.key("escape")
    assert table.popup is None
    k.key("l")
    k.key("l")
    assert table.popup is None


def test_operator_pin_pad_takes_no_money_or_bets(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("4", "4")
    k.key("a")
    k.key("f12")
    assert k.scene.name == "operator" and k.scene.state == "pin"
    pad = k.scene
    before = state(k)
    for name in SHORTCUTS:
        if name in SWITCH_KEYS | {"return", "escape", "backspace"} or name.isdigit():
            continue  # the pad's own keys (digits, enter, correction) and the switches
        k.key(name, name if len(name) == 1 else "")
        assert state(k) == before, f"key {name!r} acted behind the PIN pad"
        assert k.scene is pad and pad.state == "pin"
    for command, arg in SHORTCUTS.values():
        if command in ("operator_key", "door", "back"):
            continue
        k.app.feed(Command(command, arg))
        k.run(0.05)
        assert state(k) == before, f"button {command!r} acted behind the PIN pad"
    k.key("f12")  # the key switch takes the attendant out again
    assert k.scene.name == "table" and k.snap.bet_ante == 500


def test_tilt_overlays_take_every_key_button_and_touch(kiosks):
    k = kiosks(WIN)
    start_round(k)
    table = k.scene
    k.cabinet.table.tilt(SEAT, "stacker_full", "the bill box is full")
    k.run(0.05)
    assert k.app.tilted

    def still_tilted():
        return k.app.tilted and k.scene is table

    hammer(k, SWITCH_KEYS, still_tilted)
    poke_outside(k, [], still_tilted)
    assert k.snap.play == 0


def test_the_door_overlay_takes_keys_and_buttons_a_touch_calls_the_attendant(kiosks):
    k = kiosks(WIN)
    start_round(k)
    table = k.scene
    k.key("f9")
    assert k.snap.door_open

    def still_tilted():
        return k.app.tilted and k.scene is table

    hammer(k, SWITCH_KEYS, still_tilted)
    k.app.feed(Touch((k.size[0] // 2, k.size[1] // 2)))
    assert k.scene.name == "operator"


def test_ram_clear_notice_on_the_player_screen(kiosks):
    k = kiosks(WIN)
    start_round(k)
    k.key("p")
    k.settle()
    credits = k.snap.credits
    assert credits > 0
    m = k.app.model
    for command in (SetDoor(True), OperatorLogin("3333"), RamClearWitness("1111")):
        assert m.send(command), m.note
    code = m.send(RamClearRequest())
    assert m.send(RamClear(code)) and k.snap.credits == 0
    m.send(SetDoor(False))
    k.run(0.05)
    notice = k.app.notice
    assert notice.showing and m.ram_cleared == credits
    table = k.app.scenes["table"]
    assert not table.result() and not table.anim.sprites  # the felt is cleared
    k.shot("ram_clear_notice")

    def still_showing():
        return notice.showing

    hammer(k, SWITCH_KEYS | {"return", "escape"}, still_showing)
    poke_outside(k, own_rects(k, notice.buttons()), still_showing)
    ok = notice.buttons()[0]
    k.app.feed(Touch(k.app.layout.rect(*ok.rect).center))
    assert not notice.showing


def test_dialog_keys_do_not_leak_as_typed_text(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("4", "4")
    k.key("o")
    before = state(k)
    k.app.feed(Key("space", " "))
    k.app.feed(Key("return", ""))
    k.run(0.05)
    assert state(k) == before and k.scene.popup == "cashout"
