"""A walk through every screen of the cabinet, in one language at one size.

:func:`cabinet_tour` drives a demo cabinet (:class:`test_ui.Kiosk`, scripted decks)
through its player screens (attract, the table from no credits to every kind of result,
its dialogs and refusals, pays, every rules page, History, settings, tilts, the RAM clear
notice, the cash-out) and the operator menu (PIN pad, menu, every page and the states
its buttons lead to).  :func:`tournament_tour` does the same for the tournament's
screens.  Each yields the name of the screen shown; the caller looks at it (a screenshot,
the text audit of :mod:`support.text_audit`) before asking for the next.

:func:`look` paints one whole frame of the current screen with the painter's record on
and returns it.

Run as a program it writes every screen of these tours as PNG files, with the text
audit's findings (:mod:`support.text_audit`) printed::

    PYTHONPATH=tests:tests/kiosk/ui .venv/bin/python -m screen_tour --out /tmp/screens \\
        [--languages en,ja] [--sizes 800x480]
"""

from __future__ import annotations

from collections.abc import Iterator

from test_tournament_ui import Cabinet, every_screen
from test_ui import LOSE, NO_QUALIFY, PUSH, STRAIGHT, WIN, Kiosk, deck

from kiosk.game.commands import (
    Deal,
    Decide,
    PlaceChip,
    SetDoor,
)
from kiosk.ui.events import Command, Key, Touch
from kiosk.ui.scenes.tournament.guide import PAGES as GUIDE_PAGES
from kiosk.ui.textlog import TextLog

#: Same category on both sides: a pair of queens each, the player's king kicker wins.
KICKER = deck("Qs Kd", "Qc 9h", "Qh 7s 5c 3d 2h")
#: The dealer does not qualify with a better hand than the player's (ace high vs king high).
NO_QUALIFY_BETTER = deck("Ks 9d", "Ac Jh", "8s 6c 4d 3h 2c")


def look(app) -> TextLog:
    """Paint the current screen whole, recording it: every panel, button and text."""
    log = app.painter.log
    if not isinstance(log, TextLog):
        log = app.painter.log = TextLog()
    table = app.scenes.get("table")
    if table is not None:
        table.felt._surface = None  # the printed felt's texts are recorded too
    app.scene.invalidate()
    log.begin()
    app.step(1 / 60)
    return log


def _settle(k: Kiosk) -> None:
    k.settle()
    k.run(0.1)


def _round(k: Kiosk, keys: str, *, trips: bool = False, chip: str = "chip_500") -> None:
    """Place the chip on the Ante (and Trips), deal, then press ``keys`` one decision each."""
    if k.snap.credits < 20_000:
        k.key("6", "6")
    k.touch(chip)
    k.key("a")
    if trips:
        k.key("s")
    k.touch("deal")
    _settle(k)
    for key in keys:
        k.key(key)
        _settle(k)


def cabinet_tour(k: Kiosk) -> Iterator[str]:
    """The player's screens, then the operator's (``k`` dealt WIN, LOSE, KICKER, NO_QUALIFY,
    PUSH, STRAIGHT, NO_QUALIFY_BETTER, then WIN, in that order)."""
    app = k.app
    k.run(0.3)
    yield "attract"
    app.feed(Touch((k.size[0] // 2, k.size[1] // 3)))
    k.run(0.1)
    yield "table-no-credits"
    k.touch("chip_100")
    k.key("a")
    yield "table-refusal-smallest-bet"
    k.key("2", "2")
    k.key("3", "3")  # $15
    k.run(0.6)
    k.touch("chip_500")
    k.key("a")
    k.touch("chip_100")
    k.key("s")
    yield "table-refusal-play-reserve"
    k.key("c")
    k.key("s")
    k.key("space")
    yield "table-refusal-no-ante"
    k.key("c")
    k.key("6", "6")
    k.run(0.6)
    k.touch("chip_500")
    k.key("a")
    k.key("s")
    yield "table-bets"
    k.touch("deal")
    _settle(k)
    yield "table-preflop"
    k.key("l")
    yield "table-language-picker"
    k.key("escape")
    k.key("k")
    _settle(k)
    yield "table-flop"
    k.key("k")
    _settle(k)
    yield "table-river"
    k.key("p")
    _settle(k)
    yield "table-result-win"  # WIN: two pair, the big-win show
    k.run(4.0)
    yield "table-result-win-after"
    _round(k, "kkp")
    yield "table-result-loss"  # LOSE
    _round(k, "p")
    yield "table-result-kicker"  # KICKER
    _round(k, "p")
    yield "table-result-no-qualify"  # NO_QUALIFY
    _round(k, "p")
    yield "table-result-push"  # PUSH
    _round(k, "p", trips=True)
    yield "table-result-straight"  # STRAIGHT
    _round(k, "kkf")
    yield "table-result-fold"  # NO_QUALIFY_BETTER, folded
    k.key("o")
    yield "table-cashout-confirm"
    k.key("escape")
    k.touch("deal")  # rebet and deal (WIN)
    _settle(k)
    app.go("recall")
    k.run(0.1)
    yield "history-mid-round"
    app.go("table")
    k.key("p")
    _settle(k)
    k.key("y")
    yield "pays"
    k.key("h")
    for page in range(app.scene.pages):
        yield f"rules-{page + 1}"
        k.key("right")
    k.key("g")
    yield "history"
    k.touch("older")
    yield "history-older"
    k.key("e")
    yield "settings"
    k.key("escape")
    app.go("table")
    k.run(0.1)
    k.key("f9")
    k.run(0.1)
    yield "tilt-door"
    k.key("f9")
    k.run(0.1)
    k.key("o")
    k.touch("confirm_cashout")
    yield "cashout-printing"
    k.run(0.8)
    yield "cashout-ticket"
    k.run(3.0)
    app.go("table")
    k.key("t", "t")  # the ticket back in
    k.run(1.0)
    k.key("t", "t")  # the same ticket again: refused, already paid
    k.run(1.0)
    yield "table-ticket-refused"
    k.key("o")
    k.touch("confirm_cashout")
    k.run(3.0)
    app.go("table")
    k.run(0.1)
    yield from operator_tour(k)


def operator_tour(k: Kiosk) -> Iterator[str]:
    """The operator's screens from the key switch on: PIN pad, menu, every page."""
    app = k.app
    k.key("f12")
    yield "operator-pin"
    for d in "9999":
        k.key(d, d)
    k.key("return")
    yield "operator-pin-refused"
    k.cabinet.station.execute(SetDoor(True))
    k.run(0.1)
    for d in "3333":
        k.key(d, d)
    k.key("return")
    yield "operator-menu"
    for page in ("meters", "events", "handpay", "tilts", "recall", "hold", "devices", "audit", "export",
                 "machine", "limits", "paytable", "ramclear"):
        k.touch(f"page_{page}")
        k.run(0.1)
        yield f"operator-{page}"
        yield from _page_states(k, page)
        app.feed(Key("escape"))
        k.run(0.05)
        if app.scene.name == "operator" and app.scene.state == "page":
            app.feed(Key("escape"))
            k.run(0.05)
    k.touch("logout")
    k.cabinet.station.execute(SetDoor(False))
    k.run(0.1)


def _buttons(k: Kiosk) -> dict[str, object]:
    return {b.id: b for b in k.scene.buttons()}


def _press(k: Kiosk, bid: str) -> bool:
    """Touch button ``bid`` when it is shown and lit; whether it was."""
    b = _buttons(k).get(bid)
    if b is None or not b.enabled:  # type: ignore[attr-defined]
        return False
    k.touch(bid)
    return True


def _page_states(k: Kiosk, page: str) -> Iterator[str]:
    """The states a page's own buttons lead to."""
    if page == "recall":
        if "older" in _buttons(k) and k.button("older").enabled:
            k.touch("older")
            yield "operator-recall-older"
    elif page == "verify":
        k.touch("verify")
        yield "operator-audit-verified"
    elif page == "export":
        if "rename" in _buttons(k):
            k.touch("rename")
            yield "operator-export-keyboard"
            k.key("escape")
    elif page == "limits":
        k.touch("ante_min_plus")
        yield "operator-limits-edited"
        k.touch("apply_limits")
        yield "operator-limits-confirm"
        k.key("escape")
        k.touch("reset_limits")
    elif page == "paytable":
        buttons = [b for b in k.scene.buttons() if b.id.startswith("table_")]
        if buttons:
            k.touch(buttons[-1].id)
            if "review_table" in _buttons(k):
                k.touch("review_table")
            yield "operator-paytable-review"
            k.key("escape")
        copies = [b for b in k.scene.buttons() if b.id.startswith("copy_")]
        if copies:
            k.touch(copies[0].id)
            yield "operator-editor"
            tabs = [b.id for b in k.scene.buttons() if b.id.startswith("tab_")]
            for tab in tabs:
                k.touch(tab)
                yield f"operator-editor-{tab[4:]}"
            if "editor_back" in _buttons(k):
                k.touch("editor_back")
                if k.scene.current is not None and k.scene.current.modal():
                    yield "operator-editor-leave"
                    k.key("escape")
        exports = [b for b in k.scene.buttons() if b.id.startswith("export_")]
        if exports:
            k.touch(exports[0].id)
            yield "operator-paytable-export"
    elif page == "ramclear":
        if _press(k, "ram_request"):
            yield "operator-ramclear-code"
            _press(k, "ram_cancel")
    elif page == "tilts":
        app = k.app
        app.feed(Command("door"))
        k.run(0.1)
        yield "operator-tilts-door"
        app.feed(Command("door"))
        k.run(0.1)


def tournament_tour(c: Cabinet) -> Iterator[str]:
    """The tournament's screens: tables, guide pages, setup and its keyboard, the table and
    its popups, history, rankings, records, invite, join, results."""
    app = c.app
    c.run(0.2)
    c.touch("tournament_tables")
    yield "tournament-tables"
    c.touch("next")
    yield "tournament-setup"
    c.touch("name")
    yield "tournament-keyboard"
    c.touch("kb_cancel")
    app.go("tournament_guide")
    c.run(0.05)
    for page in range(len(GUIDE_PAGES)):
        yield f"tournament-guide-{page + 1}"
        c.key("right")
    app.go("tournament_setup")
    c.run(0.05)
    for where, _buttons in every_screen(c):
        yield f"tournament-{where.replace('/', '-').replace('tournament_', '')}"
    app.go("tournament_join")
    c.run(0.05)
    yield "tournament-join"
    app.go("tournament_invite")
    c.run(0.3)
    yield "tournament-invite"
    app.go("tournament")
    c.run(0.05)
    c.play_to_end()
    c.run(0.2)
    yield "tournament-results"




def dealer_display_tour(table, display, size: tuple[int, int]) -> Iterator[tuple[str, object]]:
    """The dealer display over ``table`` (a :class:`kiosk.service.table.Table` of stations 1-3 with
    credits, dealt from a seeded deck): the betting window, a round being decided, the
    settled round; yields (name, the surface painted), ``display.painter.log`` on."""
    import pygame

    from engine.uth.round import Action
    from kiosk.game.commands import SetDoor

    display.painter.log = TextLog()

    def paint(name: str):
        display.painter.log.begin()
        surface = pygame.Surface(size)
        display.draw(surface, table.display())
        return name, surface

    table.execute(1, PlaceChip("ante", 500))
    table.execute(2, PlaceChip("ante", 2500))
    table.execute(2, PlaceChip("trips", 500))
    table.execute(1, Deal())
    yield paint("dealer-betting")
    table.execute(3, SetDoor(True))  # station 3 stopped
    table.execute(2, Deal())
    yield paint("dealer-deciding")
    table.execute(1, Decide(Action.PLAY_4X))
    for _ in range(3):  # seat 2 checks, checks, folds
        phase = table.display().phase
        table.execute(2, Decide(Action.FOLD if phase is not None and phase.value == "river" else Action.CHECK))
    yield paint("dealer-settled")


def station_tour(floor) -> Iterator[str]:
    """Station 1's table screen at a full table (``floor``: a
    :class:`support.station_floor.StationFloor` of stations 1-7): the strip during the
    betting window, while the seats decide, and at settlement."""
    from engine.uth.round import Action
    from kiosk.game.snapshot import MachinePhase
    from kiosk.service.device_commands import Pass
    from kiosk.ui.scenes.table.geometry import SPOTS

    app = floor.app
    app.feed(Command("bill", 5_000))
    floor.frames(lambda: app.model.snap.credits == 5_000)
    for n in (2, 3, 4, 5, 6):
        assert floor.others[n].insert_note(10_000, 10).accepted
    for n in (2, 3, 4, 5):
        floor.others[n].execute(PlaceChip("ante", 500 * (n - 1)))
        floor.others[n].execute(Deal())
    floor.others[6].execute(Pass())
    floor.others[2].wait_for(lambda s: all(s.seats[i].ready for i in (1, 2, 3, 4)), 10)
    x, y, _r = SPOTS["ante"]
    app.feed(Touch(app.layout.pos(x, y)))
    floor.frames(lambda: floor.controller.station_view().betting_seconds is not None)
    yield "station-betting"
    floor.press("deal")
    floor.frames(lambda: app.model.snap.phase is MachinePhase.IN_ROUND)
    floor.others[2].wait_for(lambda s: bool(s.offers), 10)
    floor.others[2].execute(Decide(Action.PLAY_4X))
    floor.frames(lambda: not app.scenes["table"].busy)
    yield "station-deciding"
    floor.frames(lambda: app.model.snap.phase is MachinePhase.RESULT, timeout=30)
    floor.frames(lambda: not app.scenes["table"].busy, timeout=15)
    yield "station-settled"


def main(argv: list[str] | None = None) -> int:
    """Write the cabinet's and the tournament's screens as PNG files; print the audit."""
    import argparse
    import os
    import tempfile
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--languages", default="en,fr,ja,th")
    parser.add_argument("--sizes", default="800x480,1920x1080")
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="uth-screens-"))  # a private home, PAR cache and ledger
    os.environ.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), UTH_PAR_CACHE=str(home / "par"),
                      SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", UTH_HEADLESS="1")
    from support.text_audit import problems

    from kiosk.ui import i18n
    from kiosk.ui.layout import MIN_TEXT

    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for size in [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]:
        for lang in args.languages.split(","):
            for kind in ("cabinet", "tournament"):
                folder = Path(tempfile.mkdtemp(dir=home))
                if kind == "cabinet":
                    obj = Kiosk(folder, size, WIN, LOSE, KICKER, NO_QUALIFY, PUSH, STRAIGHT, NO_QUALIFY_BETTER, WIN,
                                language=lang)
                    tour = cabinet_tour(obj)
                else:
                    obj = Cabinet(folder, size, seed=13, language=lang)
                    tour = tournament_tour(obj)
                try:
                    for name in tour:
                        log = look(obj.app)
                        obj.app.screenshot(args.out / f"{name}_{lang}_{size[0]}x{size[1]}.png")
                        for p in problems(log, size, obj.app.layout.px(MIN_TEXT)):
                            print(f"{name} [{lang} {size[0]}x{size[1]}] {p}")
                            total += 1
                finally:
                    obj.close()
                    i18n.set_language("en")
    print(f"{total} problem(s)")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
