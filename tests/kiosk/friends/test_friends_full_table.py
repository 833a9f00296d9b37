"""The whole table over the wire, every part a real one: the host is a process of its own
(the game hosted as the cabinet hosts it, saved in SQLite), two cabinet seats are
station processes (``uth tournament join --autoplay random --headless``), two web seats
are headless Chromium windows clicking the page's real buttons, and computer players
take the other two seats.  They play a tournament to the end: every player gets a
result (the cabinets' in their records, the web seats' on the results page, with a JSON
download), the chips on the table never change within a hand, and no seat was ever
sent another seat's hole cards before the showdown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.browser_page import by_id, clicked, shown, wait_for, ws_frames

from kiosk.tournament.store import TournamentStore

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
TOTAL = 6 * 200  # six seats of 200 chips
DEADLINE_S = 90.0








def _click_what_is_offered(driver, n: int) -> str | None:
    """On the seat's turn: check when it may, else mostly fold (the web seats stay in the
    game longer), sometimes call or raise by a preset; Next hand after a hand.  What was
    clicked: ``move``, ``next`` or ``None`` (nothing offered, or the page changed under
    the tap)."""
    turn = driver.execute_script("return document.body.dataset.turn") == "1"
    if turn and shown(driver, "btn-call"):
        checks = "check" in by_id(driver, "btn-call").text.lower()
        if n % 4 == 1 and shown(driver, "btn-raise"):
            taps = ("btn-raise", "preset-min" if n % 8 == 1 else "preset-half", "btn-confirm")
        elif not checks and n % 3 != 0 and shown(driver, "btn-fold"):
            taps = ("btn-fold",)
        else:
            taps = ("btn-call",)
        return "move" if clicked(driver, *taps) else None
    if shown(driver, "btn-next"):
        return "next" if clicked(driver, "btn-next") else None
    return None


def _env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(HERE), env.get("PYTHONPATH", "")])
    return env


def _load_truth(t, saved: dict) -> None:
    """Fill ``t`` (the ``truth`` fixture) with what the host process wrote."""
    t.holes = {
        int(n): {int(s): set(c) for s, c in seats.items()} for n, seats in saved["holes"].items()
    }
    t.boards = {int(n): b for n, b in saved["boards"].items()}
    t.shown = {int(n): set(c) for n, c in saved["shown"].items()}


def _conserved(message: dict) -> None:
    if message.get("type") == "state" and message.get("phase") == "play":
        on_table = sum(s["chips"] for s in message["seats"]) + sum(message["pots"])
        assert on_table == TOTAL, f"hand {message['hand']}: {on_table} chips on the table"


@pytest.mark.heavy
def test_two_cabinets_two_browsers_and_bots_play_a_tournament_to_the_end(tmp_path, browser, truth):
    started = time.monotonic()
    env = _env()
    host = subprocess.Popen(
        [sys.executable, str(HERE / "friends_host_process.py"), str(tmp_path), "4", "31"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    stations: list[subprocess.Popen] = []
    try:
        hello = json.loads(host.stdout.readline())
        mia, tom = browser(390, 844), browser(390, 844)  # the browsers start while the host listens
        for i, name in enumerate(("Cab1", "Cab2")):
            db = tmp_path / f"{name}.db"
            TournamentStore.open(db, create=True).close()  # the station cabinet's own database
            stations.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "kiosk.cli",
                        "tournament",
                        "join",
                        "--host",
                        f"127.0.0.1:{hello['port']}",
                        "--code",
                        hello["code"],
                        "--name",
                        name,
                        "--autoplay",
                        "random",
                        "--seed",
                        str(7 + i),
                        "--headless",
                        "--db",
                        str(db),
                        "--trace",
                        str(tmp_path / f"{name}.jsonl"),
                        "--timeout",
                        "120",
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=env,
                )
            )
        drivers = {"Mia": mia, "Tom": tom}
        for name, d in drivers.items():
            d.get(hello["link"])
            wait_for(lambda d=d: by_id(d, "screen-join").is_displayed(), what="the join page")
            by_id(d, "name").send_keys(name)
            by_id(d, "take-seat").click()
        frames: dict[str, list[dict]] = {n: [] for n in drivers}
        clicks = {n: {"move": 0, "next": 0} for n in drivers}
        while any(
            d.execute_script("return document.body.dataset.phase") != "results"
            for d in drivers.values()
        ):
            assert time.monotonic() - started < DEADLINE_S, "the tournament did not end in time"
            assert host.poll() is None or host.returncode == 0, "the host failed"
            for name, d in drivers.items():
                if d.execute_script("return document.body.dataset.phase") == "table":
                    what = _click_what_is_offered(d, sum(clicks[name].values()))
                    if what is not None:
                        clicks[name][what] += 1
                frames[name] += ws_frames(d)
            time.sleep(0.02)
        for name, d in drivers.items():
            frames[name] += ws_frames(d)
        assert host.wait(30) == 0
        outs = [s.communicate(timeout=30)[0] for s in stations]
        assert [s.returncode for s in stations] == [0, 0], outs
    finally:
        for p in (host, *stations):
            if p.poll() is None:
                p.kill()
                p.wait()
    saved = json.loads((tmp_path / "truth.json").read_text())
    _load_truth(truth, saved)
    places = {int(s): p for s, p in saved["places"].items()}
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 6]
    assert all(c["move"] >= 1 and sum(c.values()) >= 2 for c in clicks.values()), clicks
    # chips: the same on the table at every change of every hand, on the host ...
    assert saved["hands"] >= 3
    assert all(totals == [TOTAL] for totals in saved["chips"].values()), saved["chips"]
    # ... and in every table each seat was sent; no seat saw another's hole cards
    seats_seen = set()
    for name in ("Cab1", "Cab2"):
        lines = [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
        seat = next(m["seat"] for m in lines if m["type"] == "welcome")
        assert sum(1 for m in lines if m.get("phase") == "play") > 3
        for m in lines:
            truth.check(seat, m)
            _conserved(m)
        over = (
            lines[-1]
            if lines[-1].get("phase") == "over"
            else next(m for m in lines if m.get("phase") == "over")
        )
        assert over["summary"]["place"] == places[seat]
        store = TournamentStore.open(tmp_path / f"{name}.db")
        games = store.games(player=name)
        store.close()
        assert len(games) == 1 and games[0][1].place == places[seat] and games[0][1].online
        seats_seen.add(seat)
    for name, d in drivers.items():
        seat = next(m["seat"] for m in frames[name] if m["type"] == "welcome")
        assert sum(1 for m in frames[name] if m.get("phase") == "play") > 3
        for m in frames[name]:
            truth.check(seat, m)
            _conserved(m)
        assert "TOURNAMENT OVER" in by_id(d, "screen-results").text
        assert by_id(d, "download").get_attribute("href").startswith("blob:")
        kept = json.loads(
            d.execute_script(
                "return localStorage.getItem(arguments[0])", f"friends:{hello['code']}:results"
            )
        )
        assert kept["summary"]["place"] == places[seat] and len(kept["standings"]) == 6
        seats_seen.add(seat)
    assert len(seats_seen) == 4 and 0 not in seats_seen
    # the host cabinet's own player is in its records too
    store = TournamentStore.open(tmp_path / "host.db")
    host_games = store.games(player="Host")
    store.close()
    assert len(host_games) == 1 and host_games[0][1].place == places[0]
    assert time.monotonic() - started < DEADLINE_S
