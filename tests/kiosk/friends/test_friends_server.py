"""The host's web server on real loopback sockets: only the game's page, assets and
socket are served; bad input of every kind is refused and logged and the game goes on;
two seats play a tournament to the end over the wire seeing only their own cards; the
seats are closed when the game ends."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from engine.rng import SeededRandomSource
from kiosk.friends import FriendsGame, FriendsHost, FriendsTimers, ServerLimits


@pytest.fixture
def hosted(small_table, fast_pacing):
    made = []

    def make(limits=None, **kw):
        game = FriendsGame(small_table(**kw), ai_speed="fast", host_plays="bot", rng=SeededRandomSource(11),
                           bot_samples=0, timers=FriendsTimers(next_hand_s=0.3, finish_s=0.5))
        host = FriendsHost(game, limits=limits)
        host.start()
        host.run_in_background()
        made.append(host)
        return host

    yield make
    for host in made:
        host.stop()


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read()


_SOCKETS = contextlib.ExitStack()


@pytest.fixture(autouse=True)
def _close_sockets():
    yield
    _SOCKETS.close()


def _ws(host: FriendsHost, code: str | None = None):
    url = f"ws://127.0.0.1:{host.port}/g/{code or host.game.code}/ws"
    return _SOCKETS.enter_context(connect(url, open_timeout=5))


def _recv(ws, kind: str, timeout: float = 5.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        msg = json.loads(ws.recv(timeout=end - time.monotonic()))
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind}")


def test_only_the_games_page_its_assets_and_its_socket_are_served(hosted):
    host = hosted(players=3)
    base = f"http://127.0.0.1:{host.port}"
    status, ctype, body = _get(host.link)
    assert status == 200 and ctype.startswith("text/html") and b"/assets/app.js" in body
    for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css"), ("strings.js", "text/javascript")):
        status, ctype, _ = _get(f"{base}/assets/{name}")
        assert status == 200 and ctype.startswith(kind)
    for path in ("/assets/../server.py", "/assets/nothing.js", "/etc/passwd", "/g/ZZZZ", "/g/ZZZZ/ws", "/admin"):
        assert _get(base + path)[0] == 404, path
    with pytest.raises(InvalidStatus) as info:
        _ws(host, "ZZZZ")
    assert info.value.response.status_code == 404
    assert host.server.refusals["http.code"] >= 2


def test_bad_input_is_refused_and_logged_and_the_game_goes_on(hosted, caplog):
    host = hosted(players=3, limits=ServerLimits(max_connections=6, rate_per_s=5, rate_burst=10,
                                                  seat_timeout_s=1.0))
    player = _ws(host)
    _recv(player, "hello")
    player.send(json.dumps({"type": "join", "name": "Mia"}))
    _recv(player, "welcome")
    host.call(lambda g: g.start())
    first = _recv(player, "state")
    while first["phase"] != "play":
        first = _recv(player, "state")
    # malformed, wrong types, unknown fields: refused on that socket only
    bad = _ws(host)
    for frame in ("not json", "[]", '{"type":"act","hand":"1","seq":0,"action":"fold"}',
                  '{"type":"join","name":"x","admin":true}', '{"type":"join","name":"' + "N" * 200 + '"}',
                  '{"type":"join","name":"bad\\u0007"}'):
        bad.send(frame)
        assert _recv(bad, "refused")["code"] in ("frame.malformed", "name.control")
    # oversized: closed with 1009
    big = _ws(host)
    big.send("x" * 5000)
    with pytest.raises(ConnectionClosed) as info:
        while True:
            big.recv(timeout=5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1009
    # a flood of frames: closed with 1008
    flood = _ws(host)
    with pytest.raises(ConnectionClosed):
        for _ in range(100):
            flood.send('{"type":"lang","lang":"en"}')
        while True:
            flood.recv(timeout=5)
    # a flood of connections: past the limit, 503
    time.sleep(0.2)
    extra, refused = [], 0
    for _ in range(10):
        try:
            extra.append(_ws(host))
        except InvalidStatus as exc:
            assert exc.response.status_code == 503
            refused += 1
    assert refused > 0
    # a connection that takes no seat is closed (after seat_timeout_s, 1 s)
    for ws in extra:
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=3)
    assert host.server.refusals["seat.timeout"] >= 1
    # the player still plays
    t = host.call(lambda g: g.session.t.hand_number)
    end = time.monotonic() + 20
    msg = host.call(lambda g: g.message_for(next(iter(g.friends()[0].conns))))
    while host.call(lambda g: g.session.t.hand_number) == t and time.monotonic() < end:
        if msg["type"] == "state" and msg.get("your_turn"):
            player.send(json.dumps({"type": "act", "hand": msg["hand"], "seq": msg["seq"], "action": "fold"}))
        msg = json.loads(player.recv(timeout=5))
    assert host.call(lambda g: g.session.t.hand_number) > t
    for code in ("frame.malformed", "frame.large", "rate", "http.busy", "seat.timeout"):
        assert host.server.refusals[code] >= 1, code
    assert "refused" in caplog.text
    for ws in (player, bad):
        ws.close()


def _play(ws, seen: list[dict], stop: threading.Event) -> None:
    try:
        while not stop.is_set():
            msg = json.loads(ws.recv(timeout=30))
            seen.append(msg)
            if msg["type"] != "state":
                continue
            if msg["phase"] == "play" and msg["your_turn"]:
                la = msg["legal"]
                action = "check" if la["can_check"] else ("allin" if msg["hand"] > 4 and len(seen) % 4 == 0 else "call")
                ws.send(json.dumps({"type": "act", "hand": msg["hand"], "seq": msg["seq"], "action": action}))
            elif msg["phase"] == "hand_over" and msg["vote"]["counts"] and not msg["vote"]["voted"]:
                ws.send(json.dumps({"type": "next", "hand": msg["hand"]}))
    except ConnectionClosed:
        pass


def test_two_seats_play_to_the_end_over_the_wire_seeing_only_their_own_cards(hosted, truth):
    host = hosted(players=4, chips=300, every=1)
    seats, sockets = [], []
    for name in ("Mia", "Tom"):
        ws = _ws(host)
        _recv(ws, "hello")
        ws.send(json.dumps({"type": "join", "name": name}))
        seats.append(_recv(ws, "welcome")["seat"])
        sockets.append(ws)
    host.call(lambda g: truth.watch(g.start()))
    stop = threading.Event()
    logs: list[list[dict]] = [[], []]
    threads = [threading.Thread(target=_play, args=(ws, log, stop), daemon=True) for ws, log in zip(sockets, logs, strict=True)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(90)
    stop.set()
    assert host.call(lambda g: g.over)
    for seat, log in zip(seats, logs, strict=True):
        assert log[-1]["phase"] == "over", "the results came before the socket closed"
        for msg in log:
            truth.check(seat, msg)
    hands = {m["hand"] for log in logs for m in log if m.get("phase") in ("play", "hand_over")}
    assert len(hands) >= 2, (hands, host.call(lambda g: (g.session.t.hand_number, g.session.t.places)))
    # the game's seats are closed at the end, and no new socket is taken
    with pytest.raises(InvalidStatus) as info:
        _ws(host)
    assert info.value.response.status_code == 410
