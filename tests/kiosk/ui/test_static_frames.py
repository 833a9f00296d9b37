"""A still screen is shown whole once: over one second of frames at the frame cap, the
attract screen, a static overlay (the tilt over the table or over the pays, the RAM
clear notice), the player's hand pay, the operator menu with its PIN pad, its pages and
the RAM clear's code, the pays, the help, the settings, the tournament's pages and the
table of a game joined on another cabinet repaint the whole screen once, on the first
frame; after it a frame shows only what moves (the overlay's flashing border, the fan),
or nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.cabinet import cash_out
from support.seat_link import GameLink
from test_ui import Kiosk

from devices.tcl import PrintOutcome
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from engine.rng import SeededRandomSource
from kiosk.friends.game import FriendsGame
from kiosk.game.commands import (
    SetDoor,
)
from kiosk.ui import i18n
from kiosk.ui.events import Command, Key
from kiosk.ui.scenes.table.compositor import merge

FPS = 60
SIZE = (1920, 1080)


@pytest.fixture
def kiosk(tmp_path):
    made: list[Kiosk] = []

    def make() -> Kiosk:
        k = Kiosk(tmp_path / f"k{len(made)}", SIZE)
        made.append(k)
        return k

    yield make
    for k in made:
        k.close()
    i18n.set_language("en")


def second_of_frames(k: Kiosk) -> list[list | None]:
    """The rectangles each frame of one second at the frame cap showed (None: all)."""
    shown = []
    for _ in range(FPS):
        k.app.step(1 / FPS)
        k.app.present()
        shown.append(k.app.dirty)
    return shown


def touch(k: Kiosk, bid: str) -> None:
    """Touch button ``bid`` of the current scene, wait for its pressed look to go, then
    feed a key the scene ignores: the next frame is drawn again whole."""
    k.touch(bid)
    k.run(0.3)
    k.app.feed(Key("f5"))


def operator(k: Kiosk, pin: str = "3333") -> None:
    """The operator menu opened with the key switch at the open door, logged in."""
    k.cabinet.station.execute(SetDoor(True))
    k.run(0.1)
    k.key("f12")
    for d in pin:
        k.key(d, d)
    k.key("return")
    assert k.scene.name == "operator" and k.scene.state == "menu"


def attract(k: Kiosk) -> None:
    assert k.scene.name == "attract"


def tilt_over_table(k: Kiosk) -> None:
    k.app.go("table")
    k.key("6")
    k.run(0.5)
    k.app.model.send(SetDoor(True))


def tilt_over_attract(k: Kiosk) -> None:
    k.app.model.send(SetDoor(True))


def tilt_over_pays(k: Kiosk) -> None:
    k.app.go("paytable")
    k.run(0.1)
    k.app.model.send(SetDoor(True))


def ram_clear_notice(k: Kiosk) -> None:
    k.app.go("table")
    k.run(0.1)
    k.app.model.ram_cleared = 2000  # what a RAM clear leaves for the player's screen to say


def hand_pay(k: Kiosk) -> None:
    k.key("6")
    k.run(0.2)
    request = cash_out(k.cabinet, k.payout.devices)
    k.payout.devices.pending.clear()  # the printer jams: the cash-out becomes a hand pay
    k.cabinet.link.report_print(request.transaction_id, PrintOutcome.UNKNOWN, "", "printer jammed", 1.0)
    k.run(0.2)
    assert k.scene.name == "cashout" and k.scene.method == "handpay"
    k.scene.invalidate()  # the next frame is drawn whole


def pin_pad(k: Kiosk) -> None:
    k.app.feed(Command("operator_key"))


def operator_menu(k: Kiosk) -> None:
    operator(k)
    k.app.feed(Key("f5"))  # an input the menu ignores: it is drawn again whole


def operator_page(page: str) -> Callable[[Kiosk], None]:
    def open_page(k: Kiosk) -> None:
        operator(k)
        touch(k, f"page_{page}")

    open_page.__name__ = f"operator_{page}"
    return open_page


def ram_clear_code(k: Kiosk) -> None:
    operator(k)
    k.touch("page_ramclear")
    for d in "2222":  # a second person's PIN countersigns the request
        k.key(d, d)
    k.key("return")
    touch(k, "ram_request")
    assert k.scene.ram_code


def joined_table(k: Kiosk) -> None:
    """A seat in a game another cabinet hosts, the table as the host sent it (the game
    waits for a computer player that nobody moves: nothing changes)."""
    seats = [SeatSpec("Ana", kind="human")] + [SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max")]
    game = FriendsGame(TournamentConfig("custom", tuple(seats), 600, 1, 3), rng=SeededRandomSource(3),
                       bot_samples=0)
    game.start()
    k.app.tournament.joined = GameLink(game, 0)  # type: ignore[assignment]
    k.app.go("tournament_remote")


def scene(name: str) -> Callable[[Kiosk], None]:
    def go(k: Kiosk) -> None:
        k.app.go(name)

    go.__name__ = name
    return go


PAGES = (
    "meters",
    "events",
    "handpay",
    "tilts",
    "recall",
    "hold",
    "devices",
    "audit",
    "machine",
    "limits",
    "paytable",
    "ramclear",
    "progressive",
)
TOURNAMENT = tuple(
    f"tournament_{s}"
    for s in ("setup", "tables", "guide", "history", "rankings", "records", "join")
)
STATES = [
    attract,
    tilt_over_table,
    tilt_over_attract,
    tilt_over_pays,
    ram_clear_notice,
    hand_pay,
    pin_pad,
    operator_menu,
    ram_clear_code,
    *(operator_page(p) for p in PAGES),
    *(scene(s) for s in ("paytable", "help", "settings", *TOURNAMENT)),
    joined_table,
]


@pytest.mark.parametrize("state", STATES, ids=lambda f: f.__name__)
def test_a_still_screen_is_shown_whole_once_in_a_second_of_frames(kiosk, state):
    k = kiosk()
    state(k)
    shown = second_of_frames(k)
    whole = sum(d is None for d in shown)
    assert shown[0] is None and whole == 1, f"{whole} full-screen repaints in a second"
    screen = SIZE[0] * SIZE[1]
    moving = [d for d in shown[1:] if d]
    assert all(sum(r.w * r.h for r in merge(d)) < screen // 3 for d in moving)
