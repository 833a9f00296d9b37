"""The joining cabinet's table has the host table's raise panel: a press on the slider and
a drag (mouse or finger, as pygame delivers them) choose the amount, and the raise the
host's rules receive is that amount.  Real pygame (dummy driver), the host's game server
on loopback, the station's own SQLite file.  Screenshots: /tmp/shots/friends3-*.png."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest
from support.cabinet_screens import CabinetScreens

from engine.holdem.config import TournamentConfig
from engine.holdem.records import BetMade, Raised
from engine.holdem.seats import SeatSpec
from engine.rng import SeededRandomSource
from kiosk.friends import FriendsGame, FriendsHost, FriendsTimers
from kiosk.ui.events import Touch
from kiosk.ui.scenes.tournament.table_layout import SLIDER


@pytest.fixture
def hosted(fast_pacing):
    seats = [SeatSpec("Host", kind="human")] + [
        SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max")
    ]
    game = FriendsGame(
        TournamentConfig("custom", tuple(seats), 3000, 0, 10),
        ai_speed="fast",
        host_plays="bot",
        rng=SeededRandomSource(9),
        bot_samples=0,
        timers=FriendsTimers(next_hand_s=0.3),
    )
    host = FriendsHost(game)
    host.start()
    host.run_in_background(0.01)
    yield host
    host.stop()


def _joined(tmp_path: Path, hosted: FriendsHost, size: tuple[int, int]) -> CabinetScreens:
    hosts = [f"127.0.0.1:{hosted.port}"]
    st = CabinetScreens(tmp_path / "station", size, shots="friends3", friends_hosts=hosts)
    st.run(0.1)
    st.touch("tournament")
    st.touch("join")
    for ch in hosted.game.code:
        st.touch(f"key_{ch}")
    st.touch("join")
    assert st.scene.name == "tournament_remote"
    st.until(lambda: st.ctx.joined.welcome is not None, what="a seat")
    return st


def _my_raises(hosted: FriendsHost, seat: int) -> list[int]:
    """Every bet or raise total ``seat`` made, as the host's rules recorded them."""
    del seat  # the listener keeps only this seat's
    return hosted.call(lambda g: list(g.raises))


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_slider_follows_a_drag_and_the_raise_sent_is_its_amount(tmp_path, hosted, size) -> None:
    st = _joined(tmp_path, hosted, size)
    client = st.ctx.joined
    seat = client.welcome["seat"]

    def start(g):
        g.raises = []

        def watch(session):
            h = session.t.hand
            for r in h.history if h is not None else ():
                if (
                    isinstance(r, (BetMade, Raised))
                    and r.seat == seat
                    and (session.t.hand_number, r) not in g.seen
                ):
                    g.seen.add((session.t.hand_number, r))
                    g.raises.append(r.total)

        g.seen = set()
        g.start().listeners.append(watch)

    hosted.call(start)
    try:
        st.until(lambda: st.scene.raise_range() is not None, what="a decision with a raise")
        rr = st.scene.raise_range()
        assert rr.max_to > rr.min_to + 4 * rr.big_blind
        st.touch("raise")
        assert st.scene.panel and st.scene.amount == rr.min_to
        assert st.button("confirm_raise").enabled and st.button("preset_pot").enabled
        lay = st.app.layout
        track = lay.rect(*SLIDER).inflate(-lay.px(40), 0)
        y = track.centery
        # a mouse press on the slider's left end, then a drag towards the right
        st.pygame_events(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(track.x, y), button=1, touch=False)
        )
        assert st.scene.sliding and st.scene.amount == rr.min_to
        seen = []
        for f in (0.2, 0.4, 0.6):
            x = track.x + round(f * track.width)
            st.pygame_events(
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=(x, y), rel=(5, 0), buttons=(1, 0, 0), touch=False
                )
            )
            seen.append(st.scene.amount)
        assert seen == sorted(seen) and len(set(seen)) == 3, seen
        # a finger carries on the same drag (FINGERMOTION, in fractions of the screen)
        x = track.x + round(0.5 * track.width)
        st.pygame_events(
            pygame.event.Event(
                pygame.FINGERMOTION,
                x=(x + 0.5) / size[0],
                y=(y + 0.5) / size[1],
                dx=-0.01,
                dy=0.0,
                finger_id=1,
                touch_id=1,
            )
        )
        chosen = st.scene.amount
        assert seen[1] <= chosen <= seen[2]
        assert chosen == rr.at((x - track.x) / track.width) and rr.min_to < chosen < rr.max_to
        assert chosen % rr.small_blind == 0
        assert st.shot("raise-panel").exists()
        st.touch("confirm_raise")
        assert not st.scene.panel
        end = time.monotonic() + 10
        while chosen not in _my_raises(hosted, seat):
            assert time.monotonic() < end, f"the host saw {_my_raises(hosted, seat)}, not {chosen}"
            st.run(0.05)
        st.run(0.1)
        assert st.shot("after-raise").exists()
    finally:
        st.close()


def test_a_drag_that_did_not_begin_on_the_slider_moves_nothing(tmp_path, hosted) -> None:
    st = _joined(tmp_path, hosted, (800, 480))
    hosted.call(lambda g: g.start())
    try:
        st.until(lambda: st.scene.raise_range() is not None, what="a decision with a raise")
        rr = st.scene.raise_range()
        st.touch("raise")
        st.pygame_events(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(40, 40), button=1, touch=False)
        )
        lay = st.app.layout
        r = lay.rect(*SLIDER)
        st.pygame_events(
            pygame.event.Event(
                pygame.MOUSEMOTION,
                pos=(r.right - 5, r.centery),
                rel=(5, 0),
                buttons=(1, 0, 0),
                touch=False,
            )
        )
        assert st.scene.amount == rr.min_to and not st.scene.sliding
        st.app.feed(Touch(lay.rect(*st.button("plus").rect).center))
        assert st.scene.amount == rr.nudge(rr.min_to, 1)
        st.touch("cancel_raise")
        assert not st.scene.panel and st.button("fold").enabled
    finally:
        st.close()
