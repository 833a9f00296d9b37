"""The phone page's layout, measured in headless Chromium at a phone's size (390 × 844
CSS px) against the ``uth tournament host`` process, friends at other seats on raw
sockets from loopback addresses of their own: every touch target on every screen is at
least 48 × 48 px, the dealer and blind markers are legible, names of 16 characters are
shown whole, the table fills the screen down to its bottom edge, a game code is typed
as people type it (any case, a hyphen between groups), and at a showdown each hand is
at its own seat with what the winners won."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from support.browser_page import by_id, wait_for, ws_frames
from support.friends_cli_host import CliHost, Seat

#: The least touch target, CSS px (44 is the platforms' floor; the page keeps 48).
TARGET = 48
NAMES = ("Maximiliana-Rose", "WWWWWWWWWWWWWWWW", "Bartholomew Jr.", "Anneliese-Marie")

#: Every visible control of the page, with its size (CSS px) and how to name it.
CONTROLS = """
const out = [];
for (const e of document.querySelectorAll('button, select, input, a[href]')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === 'hidden') continue;
  out.push([e.id || e.className || e.tagName, Math.round(r.width), Math.round(r.height)]);
}
return out;
"""

#: Each opponent's name as shown, whether it is cut (wider than its box or spilling out
#: of its seat), and the sizes of the markers' text.
NAMES_SHOWN = """
return {
  names: Array.from(document.querySelectorAll('.seat')).map(seat => {
    const e = seat.querySelector('.name'); const r = e.getBoundingClientRect(); const s = seat.getBoundingClientRect();
    return [e.textContent, e.scrollWidth > e.clientWidth + 1 || r.bottom > s.bottom + 1];
  }),
  marks: Array.from(document.querySelectorAll('.mark')).map(e => parseFloat(getComputedStyle(e).fontSize)),
};
"""

BOTTOM = """
const me = document.getElementById('me').getBoundingClientRect();
const actions = document.getElementById('actions').getBoundingClientRect();
return {me: me.bottom, actions: actions.bottom, height: innerHeight};
"""


def _small(page) -> list:
    return [c for c in page.execute_script(CONTROLS) if c[1] < TARGET or c[2] < TARGET]


def _passive(seats: list[Seat]) -> None:
    """The raw seats check, else fold, and vote for the next hand."""
    for seat in seats:
        seat.poll(0.01)
        s = seat.state
        if not s:
            continue
        if s.get("phase") == "play" and s.get("your_turn"):
            seat.send(type="act", hand=s["hand"], seq=s["seq"], action="check" if s["legal"]["can_check"] else "fold")
            seat.state = dict(s, your_turn=False)
        elif s.get("phase") == "hand_over" and s.get("vote") and not s["vote"]["voted"] and s["vote"]["counts"]:
            seat.send(type="next", hand=s["hand"])
            seat.state = dict(s, vote=dict(s["vote"], voted=True))


@pytest.fixture
def made() -> Iterator[list]:
    things: list = []
    yield things
    for thing in things:
        if isinstance(thing, CliHost):
            thing.kill()
        else:
            thing.close()


@pytest.mark.heavy
def test_targets_markers_names_and_the_bottom_of_the_screen(made, tmp_path, browser):
    host = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "6", "--start-after", "8",
                   "--turn-s", "120", "--chips", "20000", "--speed", "fast")
    made.append(host)
    page = browser(390, 844)
    # the code page: a code typed in lower case with a hyphen between its groups opens the game
    page.get(host.link.rsplit("/g/", 1)[0] + "/")
    wait_for(lambda: by_id(page, "screen-code").is_displayed(), what="the code page")
    assert not _small(page), f"under {TARGET} px on the code page: {_small(page)}"
    by_id(page, "code").send_keys(f"{host.code[:3].lower()}-{host.code[3:].lower()}")
    page.find_element("css selector", "#code-form button").click()
    wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
    assert page.current_url == host.link
    assert not _small(page), f"under {TARGET} px on the join page: {_small(page)}"
    by_id(page, "name").send_keys("Wolfgang-Amadeus")
    by_id(page, "take-seat").click()
    wait_for(lambda: page.execute_script("return document.body.dataset.phase") == "lobby", what="the lobby")
    assert not _small(page), f"under {TARGET} px in the lobby: {_small(page)}"
    seats = [Seat(host.link, f"127.0.0.{n + 2}") for n in range(len(NAMES))]
    made.extend(seats)
    for seat, name in zip(seats, NAMES, strict=True):
        seat.send(type="join", name=name, lang="en")
        seat.wait_for(lambda c: c.welcome is not None)

    def my_turn() -> bool:
        _passive(seats)
        return page.execute_script("return document.body.dataset.turn") == "1"

    wait_for(my_turn, timeout=90, what="the page's turn")
    page.save_screenshot(str(tmp_path / "turn.png"))
    assert not _small(page), f"under {TARGET} px at the table: {_small(page)}"
    shown = page.execute_script(NAMES_SHOWN)
    assert sorted(n for n, _ in shown["names"]) == sorted([*NAMES, "Host"]), shown
    assert not [n for n, cut in shown["names"] if cut], f"names cut: {shown['names']}"
    assert shown["marks"] and min(shown["marks"]) >= 12, shown["marks"]
    bottom = page.execute_script(BOTTOM)
    assert bottom["actions"] >= 0.75 * bottom["height"], f"the buttons are not at the bottom: {bottom}"
    assert bottom["me"] >= bottom["height"] - 24, f"an empty band under the table: {bottom}"
    # the raise panel, and the Leave dialog
    by_id(page, "btn-raise").click()
    wait_for(lambda: by_id(page, "preset-half").is_displayed(), what="the raise panel")
    assert not _small(page), f"under {TARGET} px on the raise panel: {_small(page)}"
    by_id(page, "btn-back").click()
    by_id(page, "btn-leave").click()
    wait_for(lambda: by_id(page, "leave-no").is_displayed(), what="the Leave dialog")
    assert not _small(page), f"under {TARGET} px in the Leave dialog: {_small(page)}"
    by_id(page, "leave-no").click()


SHOWDOWN = """
const r = document.getElementById('result');
if (!r || r.hidden || !document.querySelector('.seat .hand')) return null;
return {
  seats: Array.from(document.querySelectorAll('.seat')).map(e => ({
    seat: Number(e.dataset.seat),
    hand: (e.querySelector('.hand') || {}).textContent || null,
    won: (e.querySelector('.won') || {}).textContent || null,
    winner: e.classList.contains('winner')})),
  me: document.getElementById('me-tags').textContent,
  lines: Array.from(r.querySelectorAll('.win-line')).map(e => e.textContent),
  pots: document.getElementById('pots').textContent,
  hand: Number(document.body.dataset.hand),
};
"""


@pytest.mark.heavy
def test_at_showdown_each_hand_is_at_its_seat_and_the_winners_have_their_amount(made, tmp_path, browser):
    host = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "3", "--start-after", "0",
                   "--chips", "20000", "--speed", "fast")
    made.append(host)
    page = browser(390, 844)
    page.get(host.link)
    wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
    by_id(page, "name").send_keys("Mia")
    by_id(page, "take-seat").click()
    frames: list[dict] = []

    def showdown() -> dict | None:
        frames.extend(ws_frames(page))
        if page.execute_script("return document.body.dataset.turn") == "1":
            for button in ("btn-call", "btn-check"):
                e = page.execute_script(f"return document.getElementById('{button}')")
                if e is not None and e.is_displayed() and e.is_enabled():
                    e.click()
                    break
        return page.execute_script(SHOWDOWN)

    seen = wait_for(showdown, timeout=90, what="a showdown")
    frames.extend(ws_frames(page))
    table = next(f for f in reversed(frames) if f.get("type") == "state" and f.get("phase") == "hand_over"
                 and f["hand"] == seen["hand"])
    result, me = table["result"], table["you"]
    shown = {h["seat"] for h in result["shown"]}
    for s in seen["seats"]:
        assert (s["hand"] is not None) == (s["seat"] in shown), f"seat {s['seat']}'s hand at its own seat: {seen}"
        won = result["won"][s["seat"]]
        assert s["winner"] == (won > 0) and s["won"] == (f"+{won:,}" if won > 0 else None), (s, result["won"])
    if result["won"][me] > 0:
        assert f"+{result['won'][me]:,}" in seen["me"], seen["me"]
    winners = [(table["seats"][i]["name"], n) for i, n in enumerate(result["won"]) if n > 0]
    assert len(seen["lines"]) == len(winners), "one line per winner"
    for line, (name, amount) in zip(seen["lines"], winners, strict=True):
        assert line.startswith(f"{name} wins {amount:,}"), (line, name, amount)
    pots = [p["amount"] for p in result["pots"]]
    assert re.sub(r"\D", "", seen["pots"]) == "".join(str(p) for p in pots) and sum(pots) > 0, \
        f"the felt shows the pots won, not Pot 0: {seen['pots']}"
