"""A player station's History (game recall) read from a real table host over loopback:
a real :class:`Table` on a SQLite file, its TLS :class:`TableHost`, station 2 as a
:class:`RemoteTable` client, and station 1 as the cabinet's pygame screens (SDL dummy
driver) over a :class:`StationController`.  Screenshots go to
/tmp/shots/station-recall-*.png."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.link_rig import raw_station  # noqa: E402
from support.station_floor import StationFloor  # noqa: E402

from engine.uth.round import Action, Phase  # noqa: E402
from kiosk.game.commands import Deal, Decide, PlaceChip  # noqa: E402
from kiosk.ledger.records import RoundRecord  # noqa: E402
from kiosk.link.codec import MAX_FRAME_BYTES, decode, encode  # noqa: E402
from kiosk.link.messages import (  # noqa: E402
    PROTOCOL_VERSION,
    RECALL_ROUNDS,
    RecallReply,
    RecallRequest,
)
from kiosk.link.pairing import StationPairing  # noqa: E402
from kiosk.service.snapshot import StationSnapshot  # noqa: E402
from kiosk.tablehost.recall_service import round_from_json, round_json  # noqa: E402

ANTE = 500
#: What each station decides in rounds 1 and 2 (one action per phase it decides in).
PLAYS = {
    1: ([Action.CHECK, Action.CHECK, Action.PLAY_1X], [Action.PLAY_4X]),
    2: ([Action.PLAY_4X], [Action.CHECK, Action.CHECK, Action.FOLD]),
}


def _own(snap: StationSnapshot) -> object:
    return next(s for s in snap.seats if s.seat == snap.station)


class Floor(StationFloor):
    """A host with stations 1 and 2; station 1 is the screens."""

    def __init__(self, tmp_path: Path, size: tuple[int, int]) -> None:
        super().__init__(tmp_path, size, stations=(1, 2), shots="station-recall")
        self.second = self.others[2]
        self.second_pairing = self.second.pairing

    # -- play ------------------------------------------------------------------------------
    def fund(self) -> None:
        for remote in (self.first, self.second):
            assert remote.insert_note(10_000, 10).accepted
            assert remote.wait_for(lambda s: s.credits == 10_000, 10)

    def bet(self) -> dict[int, int]:
        """Both stations bet the Ante and press Deal: a round is dealt; each seat's row
        id in it (its ``round_id``)."""
        before = {}
        for remote in (self.first, self.second):
            idle = remote.wait_for(lambda s: not s.round_open, 10)
            assert idle is not None
            before[remote.station] = idle.round_id or 0
            remote.execute(PlaceChip("ante", ANTE))
            remote.execute(Deal())
        rows = {}
        for remote in (self.first, self.second):
            old = before[remote.station]
            dealt = remote.wait_for(lambda s, old=old: s.round_open and (s.round_id or 0) > old, 10)
            assert dealt is not None and dealt.round_id is not None, "the round was not dealt"
            rows[remote.station] = dealt.round_id
        return rows

    def play(self, which: int) -> None:
        """A round: both bet, each station decides as :data:`PLAYS` says, settled."""
        rows = self.bet()
        phases = (Phase.PREFLOP, Phase.FLOP, Phase.RIVER)
        for i, phase in enumerate(phases):  # the table moves on when every seat decided

            def deciding(s: StationSnapshot, phase: Phase = phase) -> bool:
                return s.phase is phase and bool(s.offers) and not _own(s).decided

            for remote in (self.first, self.second):
                actions = PLAYS[remote.station][which]
                if i < len(actions):
                    assert remote.wait_for(deciding, 10), f"seat {remote.station}: no {phase}"
                    remote.execute(Decide(actions[i]))
        for remote in (self.first, self.second):
            row = rows[remote.station]
            done = remote.wait_for(
                lambda s, row=row: not s.round_open and s.round_id == row and s.result is not None,
                10,
            )
            assert done is not None, f"round {row} was not settled"

    def history(self) -> object:
        """Open the History by touch on station 1 and wait for the host's answer."""
        self.frames(lambda: self.app.scene.name == "table")
        self.press("top_recall")
        assert self.app.scene.name == "recall"
        self.frames(lambda: self.app.scene.asking is None)
        return self.app.scene


@pytest.fixture
def floor(tmp_path):
    made: list[Floor] = []

    def make(size: tuple[int, int]) -> Floor:
        made.append(Floor(tmp_path / f"{size[0]}x{size[1]}", size))
        return made[-1]

    yield make
    for f in made:
        f.close()


def _station_copy(record: RoundRecord) -> RoundRecord:
    return replace(record, deck=(), salt="")


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_station_history_shows_its_own_rounds_and_the_dealer_never_another_seat(floor, size):
    f = floor(size)
    f.fund()
    f.play(0)
    f.play(1)
    f.bet()  # the third round stays open: its cards are in play
    own = f.table.recall(10, station=1)
    assert [r.state for r in own][0] == "open" and len(own) == 3
    settled = [r for r in own if r.state != "open"]
    scene = f.history()
    # exactly the host's rows of seat 1 (cards, decisions, dealer, payouts), newest
    # first, without the deck (it holds the other seat's cards) and without the open round
    assert scene.rounds == [_station_copy(r) for r in settled]
    assert [len(r.decisions) for r in scene.rounds] == [1, 3]
    assert all(r.seat == 1 and r.deck == () and r.salt == "" for r in scene.rounds)
    assert all(len(r.player_hole) == 2 and len(r.dealer_hole) == 2 for r in scene.rounds)
    assert all(len(r.board) == 5 and r.outcome for r in scene.rounds)
    # station 2's hole cards of the same round (the same deck: the same commitment)
    # appear nowhere in station 1's history of it; the dealer's are the same for both
    theirs = {r.commitment: r for r in f.table.recall(10, station=2)}
    assert len(theirs) == 3
    for r in scene.rounds:
        other = theirs[r.commitment]
        assert len(other.player_hole) == 2 and r.dealer_hole == other.dealer_hole
        assert not {*r.player_hole, *r.dealer_hole, *r.board, *r.deck} & {*other.player_hole}
    f.shot("newest")
    f.press("older")
    assert scene.index == 1
    f.press("step_back")
    f.press("step_back")
    f.app.step(1 / 30)
    f.shot("older-stepping")
    f.press("back")
    assert f.app.scene.name == "table"


def test_a_full_history_fits_one_link_frame(floor):
    f = floor((800, 480))
    f.fund()
    f.play(0)
    played = max(f.table.recall(10, station=1), key=lambda r: len(r.decisions))
    assert len(played.decisions) == 3
    # each decision with exact values (as a cabinet stores them) of every action, each a
    # fraction of 12-digit terms: more than any UTH spot's exact value needs
    worth = {a: Fraction(-(10**11) - i, 10**11 + 7 * i + 3) for i, a in enumerate(Action)}
    decisions = tuple(replace(d, values=worth, best=Action.FOLD) for d in played.decisions)
    longest = replace(played, decisions=decisions)
    reply = RecallReply(ref=1, ok=True, rounds=[round_json(longest)] * RECALL_ROUNDS)
    frame = encode(reply, 1, 0)
    assert len(frame.encode("utf-8")) < MAX_FRAME_BYTES / 2
    back = decode(frame, "host").body
    assert isinstance(back, RecallReply)
    assert [round_from_json(r) for r in back.rounds] == [_station_copy(longest)] * RECALL_ROUNDS
    with pytest.raises(ValueError, match="fields"):
        round_from_json({**round_json(longest), "station": 2})
    with pytest.raises(ValueError, match="expected int"):
        round_from_json({**round_json(longest), "paid": "5"})


async def _raw_recalls(port: int, pairing: StationPairing, frames: list[dict]) -> list[object]:
    """Send ``frames`` over an authenticated raw connection as ``pairing``; the bodies
    the host answered (errors and recall replies), until one per frame came."""
    answers: list[object] = []
    async with raw_station(port, pairing) as (ws, _challenge):
        for frame in frames:
            await ws.send(json.dumps(frame))
            while True:
                body = decode(await asyncio.wait_for(ws.recv(), 5.0), "host").body
                if body.type in ("error", "recall_reply"):
                    answers.append(body)
                    break
    return answers


def test_a_forged_recall_naming_another_seat_gets_nothing_of_it(floor, caplog):
    f = floor((800, 480))
    f.fund()
    f.play(0)
    f.second.stop()  # the raw connection below is station 2's own
    envelope = {"v": PROTOCOL_VERSION, "type": "recall_request", "seq": 1, "ack": 0}
    frames = [
        {**envelope, "body": {"ref": 7, "last": 10, "seat": 1}},  # names a seat
        {**envelope, "body": {"ref": 8, "last": 10, "station": 1}},
        {**envelope, "body": {"ref": 9, "last": 11}},  # more than the standards' 10
        {**envelope, "body": {"ref": 10, "last": "10"}},  # not strictly an int
        {**envelope, "body": {"ref": 11, "last": 10}},  # its own recall
    ]
    with caplog.at_level(logging.WARNING):
        answers = asyncio.run(_raw_recalls(f.port, f.second_pairing, frames))
    assert [a.type for a in answers] == ["error"] * 4 + ["recall_reply"]
    assert all(a.code == "malformed" for a in answers[:4])
    assert sum("link refused malformed" in r.getMessage() for r in caplog.records) == 4
    reply = answers[-1]
    assert isinstance(reply, RecallReply) and reply.ok and reply.ref == 11
    rounds = [round_from_json(r) for r in reply.rounds]
    assert rounds == [_station_copy(r) for r in f.table.recall(10, station=2)]
    mine = {r.commitment: set(r.player_hole) for r in f.table.recall(10, station=1)}
    assert all(r.seat == 2 and not set(r.player_hole) & mine[r.commitment] for r in rounds)
    # the model itself has no field for a seat
    with pytest.raises(ValueError):
        RecallRequest.model_validate({"ref": 1, "last": 10, "seat": 1})


def test_without_its_host_the_history_says_it_could_not_be_read(floor):
    f = floor((800, 480))
    f.fund()
    f.play(0)
    assert len(f.controller.recall()) == 1
    f.stop_host()
    f.frames(lambda: not f.controller.remote.connected)
    assert f.controller.recall() == []
    f.app.go("recall")
    f.frames(lambda: f.app.scene.asking is None)
    assert f.app.scene.rounds == [] and f.app.scene.unreadable
    f.shot("unreadable")
