"""The progressive side bet on the screens: its spot on the felt (only when the paytable
in force offers it), one touch placing the paytable's exact wager and a second taking it
back, refused without an Ante with the rule's own words, repeated by REPEAT, dealt at a
lone cabinet and at a table's station over the link (the host checking it again); the
meter on the felt.  Real pygame scenes on the SDL dummy driver, a real service on SQLite.
Screenshots go to /tmp/shots/progressive-*.png."""

from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
from support.cabinet import insert_note  # noqa: E402
from support.cabinet_screens import CabinetScreens  # noqa: E402
from support.decks import DeckSource, deck_with  # noqa: E402
from support.progressive_table import (  # noqa: E402
    RESET,
    TO_METER,
    WAGER,
    put_in_force,
)
from support.progressive_table import write_paytable as progressive_paytable  # noqa: E402
from support.station_floor import StationFloor  # noqa: E402
from support.table_money import credit  # noqa: E402

from engine.rng import SeededRandomSource  # noqa: E402
from engine.uth.paytable import load_paytable  # noqa: E402
from kiosk.config import load_config  # noqa: E402
from kiosk.game.commands import Deal, Decide, PlaceChip  # noqa: E402
from kiosk.game.errors import BetOutOfLimits  # noqa: E402
from kiosk.game.snapshot import MachinePhase  # noqa: E402
from kiosk.ledger.kinds import EventKind  # noqa: E402
from kiosk.service.device_commands import Pass  # noqa: E402
from kiosk.service.display import TableSnapshot  # noqa: E402
from kiosk.service.table import Table  # noqa: E402
from kiosk.service.timing import ManualClock, TableTiming  # noqa: E402
from kiosk.service.wire import from_json, to_json  # noqa: E402
from kiosk.ui.dealer_display import DealerDisplay  # noqa: E402
from kiosk.ui.events import Touch  # noqa: E402
from kiosk.ui.i18n import LANGUAGES, set_language  # noqa: E402
from kiosk.ui.scenes.intents import Nav  # noqa: E402
from kiosk.ui.scenes.paytable import return_words  # noqa: E402
from kiosk.ui.scenes.recall import Step  # noqa: E402
from kiosk.ui.scenes.table.drawing import draw_hit_banner  # noqa: E402
from kiosk.ui.scenes.table.geometry import SPOTS  # noqa: E402
from kiosk.ui.scenes.table.intents import Choose  # noqa: E402
from kiosk.ui.text import TextCache  # noqa: E402
from kiosk.ui.textlog import TextLog  # noqa: E402
from kiosk.ui.widgets import DamageSurface  # noqa: E402


def touch_spot(cab: CabinetScreens, spot: str) -> None:
    x, y, _r = SPOTS[spot]
    cab.app.feed(Touch(cab.app.layout.pos(x, y)))
    cab.run(0.05)


def test_a_lone_cabinet_places_the_progressive_by_touch_and_deals_it(tmp_path):
    cab = CabinetScreens(tmp_path / "cab", size=(1280, 720), shots="progressive")
    try:
        table = cab.cabinet.table
        # no progressive in force: no spot, a touch there places nothing
        cab.app.go("table")
        cab.run(0.1)
        touch_spot(cab, "progressive")
        cab.scene.on_command("chip", "progressive")  # nor its key
        assert cab.app.model.snap.bet_progressive == 0 and cab.app.model.current_note() is None
        assert cab.app.model.snap.progressive_wager == 0
        assert cab.app.model.snap.progressive_meter is None
        assert "PROGRESSIVE" not in cab.drawn_words()
        put_in_force(table, progressive_paytable(tmp_path / "tables"))
        insert_note(cab.cabinet, 10_000)
        cab.app.go("table")
        cab.until(lambda: cab.app.model.snap.progressive_wager == WAGER, what="the progressive")
        assert cab.app.model.snap.progressive_meter == RESET
        # without an Ante: refused, with the rule's words
        touch_spot(cab, "progressive")
        assert cab.app.model.snap.bet_progressive == 0
        note = cab.app.model.current_note()
        assert note is not None and "Ante" in note.text and "progressive" in note.text
        touch_spot(cab, "ante")
        touch_spot(cab, "progressive")
        assert cab.app.model.snap.bet_progressive == WAGER  # one touch: the exact wager
        touch_spot(cab, "progressive")
        assert cab.app.model.snap.bet_progressive == 0  # a second: taken back
        touch_spot(cab, "progressive")
        snap = cab.app.model.snap
        assert snap.bet_progressive == WAGER and snap.bet_ante > 0
        assert "$1,000.00" in cab.drawn_words()  # the meter on its plaque
        cab.shot("placed")
        credits = snap.credits
        cab.touch("deal")
        cab.until(lambda: cab.app.model.snap.phase is MachinePhase.IN_ROUND, what="the deal")
        (wager,) = table.ledger.events((EventKind.PROGRESSIVE_WAGER,))
        assert wager.amount == WAGER
        assert table.credits(1) == credits - 2 * snap.bet_ante - WAGER
        assert cab.app.model.snap.progressive == WAGER
        while cab.app.model.snap.phase is MachinePhase.IN_ROUND:
            cab.until(lambda: not cab.scene.busy, what="the cards")
            legal = cab.app.model.snap.legal
            cab.touch("act_fold" if "fold" in legal else "act_check")
        cab.until(lambda: not cab.scene.busy, what="the result")
        assert cab.app.model.snap.progressive_meter == RESET + TO_METER  # fed at settlement
        cab.shot("result")
        # REPEAT places the progressive again with the Ante
        cab.touch("repeat")
        assert cab.app.model.snap.bet_progressive == WAGER
    finally:
        cab.close()


def test_a_station_over_the_link_bets_the_progressive_and_the_host_deals_it(tmp_path):
    floor = StationFloor(
        tmp_path, (800, 480), stations=(1, 2), timing=TableTiming(30, 20), shots="progressive"
    )
    try:
        put_in_force(floor.table, progressive_paytable(tmp_path / "tables"))
        app = floor.app
        floor.frames(lambda: app.model.snap.progressive_wager == WAGER)
        assert app.model.snap.progressive_meter == RESET
        assert floor.others[2].insert_note(5_000, 10).accepted
        assert floor.first.insert_note(10_000, 10).accepted
        floor.frames(lambda: app.model.snap.credits == 10_000)
        x, y, _r = SPOTS["ante"]
        floor.touch_design(x, y)
        x, y, _r = SPOTS["progressive"]
        floor.touch_design(x, y)
        assert app.model.snap.bet_progressive == WAGER
        floor.shot("station-placed")
        floor.others[2].execute(Pass())
        floor.press("deal")
        floor.frames(lambda: app.model.snap.phase is MachinePhase.IN_ROUND)
        (wager,) = floor.table.ledger.events((EventKind.PROGRESSIVE_WAGER,))
        assert wager.amount == WAGER and wager.station == 1
        seat = next(s for s in floor.table.snapshot(1).seats if s.seat == 1)
        assert seat.progressive == WAGER
        assert app.model.snap.progressive == WAGER
    finally:
        floor.close()


def test_the_host_checks_a_stations_progressive_again(tmp_path):
    """A wager off the paytable's, sent past the station's own check (straight through
    its port), is refused by the host: nothing is wagered, the refusal comes back."""
    floor = StationFloor(tmp_path, (800, 480), stations=(1, 2), shots="progressive")
    try:
        put_in_force(floor.table, progressive_paytable(tmp_path / "tables"))
        remote = floor.others[2]
        assert remote.wait_for(lambda s: s.progressive_wager == WAGER, 10)
        assert remote.insert_note(5_000, 10).accepted
        assert remote.wait_for(lambda s: s.credits == 5_000, 10)
        seen = len(remote.errors)
        remote.execute(PlaceChip("ante", 500))
        remote.execute(PlaceChip("progressive", WAGER + 100))
        remote.execute(Deal())
        assert remote.wait_for(lambda s: len(remote.errors) > seen, 10)
        assert "exactly" in remote.errors[-1].detail
        assert not floor.table.ledger.events((EventKind.PROGRESSIVE_WAGER,))
        assert floor.table.snapshot(2).pending.progressive == 0
    finally:
        floor.close()


def drawn(display, snap) -> list[str]:
    """The words ``display`` draws for ``snap`` (each ``fitted`` call's text)."""
    seen: list[str] = []
    fitted = display.painter.fitted

    def spy(surface, text, *a, **k):
        seen.append(text)
        return fitted(surface, text, *a, **k)

    display.painter.fitted = spy
    try:
        display.draw(pygame.Surface((1280, 720)), snap)
    finally:
        del display.painter.fitted
    return seen


def test_the_dealer_display_shows_the_meter_counting_up_when_it_grows(tmp_path):
    pygame.init()
    set_language("en")
    table = Table.open(
        load_config(db_path=tmp_path / "var" / "uth.db"),
        (1, 2),
        rng=SeededRandomSource(4),
        clock=ManualClock(),
    )
    try:
        now = [0.0]
        display = DealerDisplay((1280, 720), clock=lambda: now[0])
        plain = table.display()
        assert not plain.has_progressive and "PROGRESSIVE" not in drawn(display, plain)
        put_in_force(table, progressive_paytable(tmp_path / "tables"))
        snap = table.display()
        assert snap.has_progressive and snap.progressive_meter == RESET
        assert "$1,000.00" in drawn(display, snap)
        assert "—" in drawn(display, replace(snap, progressive_meter=None))  # linked, not known
        assert "$1,000.00" in drawn(display, snap)
        for n in (1, 2):
            credit(table, n, 10_000)
        for n in (1, 2):
            table.execute(n, PlaceChip("ante", 500))
            table.execute(n, PlaceChip("progressive", WAGER))
            table.execute(n, Deal())
        for _ in range(3):
            for n in (1, 2):
                if table.snapshot(n).offers:
                    table.execute(n, Decide(table.snapshot(n).offers[-1].action))
        grown = table.display()
        assert grown.progressive_meter == RESET + 2 * TO_METER
        assert "$1,000.00" in drawn(display, grown)  # it counts up from the last amount
        now[0] = 0.3  # ... through the amounts between
        words = drawn(display, grown)
        assert "$1,000.00" not in words and "$1,000.30" not in words
        now[0] = 5.0
        assert "$1,000.30" in drawn(display, grown)
        pygame.image.save(display_surface(display, grown), "/tmp/shots/progressive-dealer.png")
    finally:
        table.close()


def display_surface(display, snap) -> pygame.Surface:
    surface = pygame.Surface((1280, 720))
    display.draw(surface, snap)
    return surface


def test_the_pays_page_lists_the_progressive_with_the_meter_and_what_it_pays_now(tmp_path):
    cab = CabinetScreens(tmp_path / "cab", size=(1280, 720), shots="progressive")
    try:
        cab.app.go("paytable")
        cab.run(0.05)
        assert "page" not in {b.id for b in cab.scene.buttons()}  # no progressive: no page
        put_in_force(cab.cabinet.table, progressive_paytable(tmp_path / "tables"))
        cab.app.go("table")
        cab.run(0.05)
        cab.app.go("paytable")
        cab.until(lambda: cab.app.model.snap.paytable.progressive is not None, what="in force")
        cab.touch("page")
        words = cab.drawn_words()
        assert "Meter now: $1,000.00" in words
        assert "100% of the meter" in words and "10% of the meter" in words
        assert "$1,000.00 | Straight flush | 10% of the meter | $100.00" in words
        assert "Four of a kind | $300.00" in words  # a fixed line pays its amount
        # the exact return at $1,000 (fixed lines 137,892,800 / (2,598,960 x 100); each
        # cent of meter 76,000 / (2,598,960 x 10,000 x 100)); 100% needs $160,530.53,
        # above the $100,000 ceiling: never
        assert "Theoretical return at this meter: 53.35%." in words
        cab.shot("pays")
        cab.touch("page")
        assert "Meter now" not in cab.drawn_words()
    finally:
        cab.close()


def test_a_hit_is_celebrated_at_every_station_and_louder_at_the_winners(tmp_path):
    """Station 1 (the screens) holds a royal flush on the flop, station 2 a pair: the
    hit is in every station's snapshot; station 1 shows YOU HIT THE PROGRESSIVE, its
    award in the round's result and on the credit meter only once revealed; station 2's
    screens would show whose hit it was."""
    floor = royal_floor(tmp_path, (1280, 720))
    try:
        app, other = floor.app, floor.others[2]
        floor.frames(lambda: app.model.snap.progressive_hit is not None)
        hit = app.model.snap.progressive_hit
        assert [(w.seat, w.hand.name, w.cents) for w in hit.wins] == [
            (1, "ROYAL_FLUSH", RESET + 2 * TO_METER)
        ]
        assert app.model.snap.progressive_hit_here
        award = app.model.snap.progressive_award
        assert award is not None and award.cents == RESET + 2 * TO_METER and award.on_meter
        floor.frames(lambda: app.scenes["table"].hit_shown(), timeout=20)
        assert "YOU HIT THE PROGRESSIVE!" in table_words(app)
        floor.shot("hit-here")
        # station 2's own snapshot: the same hit, not its own
        theirs = other.wait_for(lambda s: s.progressive_hit is not None, 10)
        assert theirs is not None and theirs.progressive_hit == hit
        assert theirs.progressive_award is None  # a pair of sevens wins nothing
        # the dealer display celebrates a hit it sees arrive (not one older than itself)
        now = [0.0]
        display = DealerDisplay((1280, 720), clock=lambda: now[0])
        seen = floor.table.display()
        assert seen.progressive_hit == hit
        assert from_json(TableSnapshot, to_json(seen)) == seen  # as the display link carries it
        assert "PROGRESSIVE HIT AT THE TABLE!" not in drawn(display, seen)
        display = DealerDisplay((1280, 720), clock=lambda: now[0])
        drawn(display, replace(seen, progressive_hit=None))
        words = drawn(display, seen)
        assert "PROGRESSIVE HIT AT THE TABLE!" in words
        assert "Seat 1: Royal flush $1,000.30" in words
        pygame.image.save(display_surface(display, seen), "/tmp/shots/progressive-dealer-hit.png")
        now[0] = 11.0
        assert "PROGRESSIVE HIT AT THE TABLE!" not in drawn(display, seen)
        # the History (the host's recall over the link) shows the wager and the award
        (recalled,) = floor.controller.recall(1)
        assert (recalled.progressive, recalled.progressive_award) == (WAGER, award.cents)
        assert recalled.progressive_hand == "royal_flush"
        app.go("recall")
        floor.frames(lambda: bool(app.scene.rounds))
        app.scene.on_intent(Step.ALL)
        floor.frames(lambda: True)
        words = scene_words(app, app.scene)
        assert "Progressive: Royal flush $1,000.30" in words
        floor.shot("recall")
    finally:
        floor.close()


def table_words(app) -> str:
    return scene_words(app, app.scenes["table"])


def scene_words(app, scene) -> str:
    seen: list[str] = []
    fitted = scene.ui.fitted

    def spy(surface, text, *a, **k):
        seen.append(text)
        return fitted(surface, text, *a, **k)

    scene.ui.fitted = spy
    try:
        scene.invalidate()
        scene.draw(app.screen)
    finally:
        del scene.ui.fitted
    return " | ".join(seen)


def royal_floor(tmp_path, size) -> StationFloor:
    """A table of two stations (1: the screens at ``size``) with the test progressive,
    after a round in which both bet it and station 1 held a royal flush on the flop
    (station 2 a pair of sevens): each checked twice and folded at the river."""
    rng = DeckSource()
    floor = StationFloor(tmp_path, size, stations=(1, 2), rng=rng, shots="progressive")
    try:
        put_in_force(floor.table, progressive_paytable(tmp_path / "tables"))
        app, other = floor.app, floor.others[2]
        floor.frames(lambda: app.model.snap.progressive_wager == WAGER)
        assert other.insert_note(5_000, 10).accepted
        assert floor.first.insert_note(10_000, 10).accepted
        floor.frames(lambda: app.model.snap.credits == 10_000)
        rng.stack(deck_with({1: "As Ks", 2: "7d 7c"}, flop="Qs Js Ts"))
        other.execute(PlaceChip("ante", 500))
        other.execute(PlaceChip("progressive", WAGER))
        other.execute(Deal())
        for spot in ("ante", "progressive"):
            x, y, _r = SPOTS[spot]
            floor.touch_design(x, y)
        floor.press("deal")
        floor.frames(lambda: app.model.snap.phase is MachinePhase.IN_ROUND)
        decided: set[tuple[int, object]] = set()  # (station, phase): check, check, fold
        while app.model.snap.phase is MachinePhase.IN_ROUND:
            floor.frames(lambda: not app.scenes["table"].busy)
            mine, theirs = app.model.snap, other.snapshot()
            if mine.legal and (1, mine.game_phase) not in decided:
                decided.add((1, mine.game_phase))
                app.scenes["table"].skip()  # a touch while cards fly only skips them
                app.scene.on_intent(Choose((mine.legal[-1],)))
            if theirs is not None and theirs.offers and (2, theirs.phase) not in decided:
                decided.add((2, theirs.phase))
                other.execute(Decide(theirs.offers[-1].action))
            floor.frames(lambda: True)
    except BaseException:
        floor.close()
        raise
    return floor


SEQUENTIAL = "Seats with the same meter hand in one round are paid in seat order."
#: The progressive's texts on the screens (English).
TEXTS = (
    "A {wager} bet placed with the Ante, paid on your two cards and the flop.",
    "JACKPOT",
    "MAIN PAYS",
    "Meter now: {amount}",
    "PAYS NOW",
    "PROGRESSIVE HIT AT THE TABLE!",
    "PROGRESSIVE",
    "Progressive",
    "Progressive: {hand} {amount}",
    "Seat {n}: {hand} {amount}",
    SEQUENTIAL,
    "Seats with the same meter hand in one round share its award.",
    "The progressive bet goes with an Ante: place an Ante first.",
    "The progressive bet is exactly {cents}.",
    "This paytable offers no progressive bet now.",
    "YOU HIT THE PROGRESSIVE!",
    "{pct} of the meter",
    "Touch DEAL. This bet needs {needed}: Ante, Blind, progressive and the 1x Play.",
    "Theoretical return at this meter: {pct}.",
)


def test_every_progressive_text_fits_its_box_in_every_language(tmp_path):
    """The progressive's screens at 800x480 (the felt with the bet placed and refused, the
    round's result and the hit banner, both ways, the Pays page, the History, the dealer
    display) recorded in English; each of their texts laid into its box in every
    language by the widgets' own rule (:mod:`test_text_fit`)."""
    from test_text_fit import catalogues, overflows, template_regex

    log = TextLog()
    floor = royal_floor(tmp_path, (800, 480))
    try:
        app = floor.app
        app.painter.log = log
        table = app.scenes["table"]
        floor.frames(lambda: table.hit_shown(), timeout=20)
        table.invalidate()
        app.step(1 / 30)
        floor.press("repeat")  # the Ante and the progressive again: what the deal needs
        assert app.model.snap.bet_progressive == WAGER
        table.invalidate()
        app.step(1 / 30)
        hit = app.model.snap.progressive_hit
        surface = pygame.Surface(app.layout.size)
        draw_hit_banner(app, DamageSurface(surface), hit, here=False, lit=False)
        app.model.error(BetOutOfLimits("x", params={"rule": "progressive_wager", "cents": WAGER}))
        table.invalidate()
        app.step(1 / 30)
        for rule in ("no_ante", "progressive_not_offered"):
            params = {"rule": rule, "spot": "progressive"}
            app.model.error(BetOutOfLimits("x", params=params))
            table.invalidate()
            app.step(1 / 30)
        app.go("paytable")
        app.step(1 / 30)
        app.scene.on_intent(Nav.NEXT)
        app.step(1 / 30)
        app.go("recall")
        floor.frames(lambda: bool(app.scene.rounds))
        app.scene.on_intent(Step.ALL)
        floor.frames(lambda: True)
        display = DealerDisplay((800, 480))
        display.painter.log = log
        shown = floor.table.display()
        display.draw(pygame.Surface((800, 480)), replace(shown, progressive_hit=None))
        display.draw(pygame.Surface((800, 480)), shown)  # with the hit's banner
    finally:
        floor.close()
    cats = catalogues()
    ours = {key: text for key, text in cats["en"].items() if text in TEXTS}
    templates = [(template_regex(text), key) for key, text in ours.items()]
    cache = TextCache()
    problems, seen = [], set()
    for box in log.boxes:
        keys = [k for k, text in ours.items() if text == box.text]
        fields: dict[str, str] = {}
        if not keys:
            for rx, key in templates:
                m = rx.match(box.text) if rx is not None else None
                if m is not None:
                    keys, fields = [key], m.groupdict()
                    break
        for key in keys:
            seen.add(ours[key])
            for lang in LANGUAGES:
                text = cats[lang].get(key)
                why = text and overflows(cache, box, text.format(**fields), lang)
                if why:
                    problems.append(f"{box.where} [{lang}] {why}")
    set_language("en")
    assert set(TEXTS) - {"JACKPOT", SEQUENTIAL} == seen, sorted(seen)
    assert problems == [], "texts overflow their boxes at 800x480:\n" + "\n".join(
        sorted(set(problems))
    )


def test_the_pays_page_says_from_which_meter_the_bet_returns_more_than_the_wager(tmp_path):
    table = load_paytable(progressive_paytable(tmp_path)).progressive
    assert table is not None

    def money(cents: int) -> str:
        return f"${cents / 100:,.2f}"

    set_language("en")
    assert return_words(table, None, money) == ""  # a linked meter not known yet
    assert return_words(table, RESET, money) == "Theoretical return at this meter: 53.35%."
    higher = table.model_copy(update={"ceiling": 20_000_000})  # break-even $160,530.53 below
    assert return_words(higher, RESET, money) == (
        "Theoretical return at this meter: 53.35%; more than the wager back from a meter of "
        "$160,530.53."
    )
