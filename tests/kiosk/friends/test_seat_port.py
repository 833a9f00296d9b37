"""The seat port's two ends show the same table: one game, the cabinet player's seat
seen through :class:`LocalSeat` (the session in this process) and through
:class:`LinkSeat` (the host's ``state`` messages for that seat, as the friends link
delivers them: :class:`support.seat_link.GameLink`), driven by the same decisions, sent through either end in turn.  Both
say the same facts (phase, hand, blinds, board, hole cards, hand name, seats, pots,
whose turn, the options and their bounds, a finished hand's outcome), and both say when
something changed.  Then the table scene, given either end, offers the same decision
buttons."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from support.cabinet_screens import CabinetScreens
from support.seat_link import GameLink

from engine.holdem.actions import Action, ActionKind
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from engine.rng import SeededRandomSource
from kiosk.friends.game import FriendsGame
from kiosk.friends.roster import FriendsTimers
from kiosk.friends.seat.link import LinkSeat
from kiosk.friends.seat.local import LocalSeat
from kiosk.tournament.seat_port import Phase, SeatPort, TableView
from kiosk.ui.raise_range import RaiseRange


@pytest.fixture
def game(fast_pacing) -> FriendsGame:
    seats = [SeatSpec("Ana", kind="human")] + [SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max", "Rosa")]
    g = FriendsGame(
        TournamentConfig("custom", tuple(seats), 600, 1, 3),
        ai_speed="fast",
        rng=SeededRandomSource(11),
        bot_samples=0,
        timers=FriendsTimers(next_hand_s=0.3),
    )
    g.start()
    return g


def facts(v: TableView | None) -> TableView | None:
    """What both ends must agree on (the next hand's vote and the game's code are the
    link's alone)."""
    return replace(v, next_open=False, code="") if v is not None else None


def decide(n: int, port: SeatPort) -> Action:
    """The ``n``-th decision of the script: raise the minimum, all in, or check or call."""
    la = port.legal()
    assert la is not None
    rr = RaiseRange.offered(la)
    if rr is not None and n % 5 == 1:
        return rr.action(rr.min_to)
    if rr is not None and n % 11 == 7:
        return rr.action(rr.max_to)
    return Action.check() if la.can_check else Action.call()


def test_both_ends_show_the_same_table_through_the_same_decisions(game) -> None:
    s = game.session
    assert s is not None
    link_client = GameLink(game, s.human_seat)
    local, link = LocalSeat(s), LinkSeat(link_client)  # type: ignore[arg-type]
    ends: tuple[SeatPort, SeatPort] = (local, link)
    decisions = hands_over = 0
    kinds: set[ActionKind] = set()
    for _ in range(20_000):
        local.advance(0.02)
        link.advance(0.02)
        assert facts(link.view()) == facts(local.view())
        assert link.legal() == local.legal()
        v = local.view()
        assert v is not None
        if v.phase is Phase.OVER:
            break
        if v.phase is Phase.HAND_OVER:
            assert v.outcome is not None and sum(v.outcome.won) == sum(v.outcome.pots)
            hands_over += 1
            (local, link)[hands_over % 2].next_hand()
            continue
        if not v.your_turn:
            assert local.legal() is None
            continue
        assert v.to_act == v.you and v.decision == (s.t.hand_number, len(s.t.hand.history))
        end = ends[decisions % 2]  # the decision goes through either end in turn
        for e in ends:
            e.changed()
        action = decide(decisions, end)
        kinds.add(action.kind)
        end.act(action)
        link.advance(0.0)
        assert local.changed() and link.changed(), "a decision is a change at both ends"
        assert not local.changed() and not link.changed()
        decisions += 1
    assert v.phase is Phase.OVER and v.standings, "played to the end"
    assert decisions >= 10 and hands_over >= 3
    assert {ActionKind.CALL, ActionKind.RAISE} <= kinds or {ActionKind.CALL, ActionKind.BET} <= kinds
    assert {k for k, _ in link_client.sent} <= {k.value for k in ActionKind}


def test_the_link_end_sends_what_the_scene_chose_as_the_host_words_it(game) -> None:
    s = game.session
    assert s is not None
    client = GameLink(game, s.human_seat)
    link = LinkSeat(client)  # type: ignore[arg-type]
    for _ in range(5_000):
        link.advance(0.0)
        if link.legal() is not None and RaiseRange.offered(link.legal()) is not None:
            break
        s.update(0.02)
    rr = RaiseRange.offered(link.legal())
    assert rr is not None
    link.act(rr.action(rr.max_to))
    assert client.sent == [("allin", None)]


def _decision_buttons(scene) -> list[tuple]:
    return [(b.id, b.label, b.enabled, b.sublabel, b.command) for b in scene.buttons()
            if b.id in ("fold", "call", "raise")]


def test_the_scene_offers_the_same_decisions_at_both_ends(tmp_path: Path, game) -> None:
    s = game.session
    assert s is not None
    while not s.my_turn:
        s.update(0.02)
    home = CabinetScreens(tmp_path / "home")
    joined = CabinetScreens(tmp_path / "joined")
    try:
        home.ctx.session = s
        home.app.go("tournament")
        joined.ctx.joined = GameLink(game, s.human_seat)  # type: ignore[assignment]
        joined.app.go("tournament_remote")
        for cab in (home, joined):
            cab.app.step(0.0, draw=False)
        shown = _decision_buttons(home.scene)
        assert shown and _decision_buttons(joined.scene) == shown
        for cab in (home, joined):
            cab.app.scene.on_intent(shown[2][4])  # Raise opens the panel at the minimum
        assert home.scene.panel and joined.scene.panel and home.scene.amount == joined.scene.amount
    finally:
        home.close()
        joined.close()


def test_both_ends_paint_the_same_table(tmp_path: Path, game) -> None:
    """The felt, the seats, the board, the pots and this seat's rail are painted by one
    painter from the port's view: the same words at both ends, in the same order, but
    the ends' own buttons (the cabinet's top bar, a joined seat's Leave the game) and
    the cabinet's equity assist (off here)."""
    s = game.session
    assert s is not None
    s.set_equity_assist(False)
    while not s.my_turn:
        s.update(0.02)
    home = CabinetScreens(tmp_path / "home")
    joined = CabinetScreens(tmp_path / "joined")
    try:
        home.ctx.session = s
        home.app.go("tournament")
        joined.ctx.joined = GameLink(game, s.human_seat)  # type: ignore[assignment]
        joined.app.go("tournament_remote")

        def words() -> list[list[str]]:
            for cab in (home, joined):
                cab.app.step(0.0, draw=False)
            own = {b.label for cab in (home, joined) for b in cab.scene.buttons()}
            return [
                [w for w in cab.drawn_words().split(" | ") if w not in own]
                for cab in (home, joined)
            ]

        seen = words()
        assert seen[0] and seen[0] == seen[1]
        assert "Your turn" in seen[0] and any(w.startswith("Pot ") for w in seen[0])
        for _ in range(20_000):  # to the end of the hand: who won what, at both ends
            if s.hand_over:
                break
            la = s.legal() if s.my_turn else None
            if la is not None:
                s.act(Action.check() if la.can_check else Action.call())
            s.update(0.02)
        assert s.hand_over
        seen = words()
        assert seen[0] and seen[0] == seen[1]
        assert "Touch NEXT HAND when you are ready." in seen[0]
        assert any(" win" in w for w in seen[0]), seen[0]
    finally:
        home.close()
        joined.close()
