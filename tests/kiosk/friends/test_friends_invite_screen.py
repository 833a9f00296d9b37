"""The cabinet's Invite screen encodes a link a phone can open: its QR code, read back
from the screen by an independent reader (zxing-cpp), names the venue network's
address when the friends' server listens on every interface, and a phone (headless
Chromium) that opens it takes a seat; with the default configuration (loopback) the
screen says that phones cannot open the link and whom to ask, in a player's words.  Real pygame
screens (dummy driver), a real game server, a real browser."""

from __future__ import annotations

import ipaddress
import urllib.parse

import numpy as np
import pygame
import pytest
import zxingcpp
from support.browser_page import by_id, wait_for
from support.cabinet_screens import CabinetScreens

from kiosk.friends.addresses import lan_address

WARNING = "Phones cannot open this link"


def _qr_link(cab: CabinetScreens) -> str:
    """The link in the QR code on the screen as it is drawn now."""
    cab.scene.invalidate()
    cab.app.step(0.01)
    grey = pygame.surfarray.array3d(cab.app.screen).mean(axis=2).astype(np.uint8).T
    texts = [r.text for r in zxingcpp.read_barcodes(np.ascontiguousarray(grey))]
    assert len(texts) == 1, texts
    return texts[0]


def _invite(cab: CabinetScreens) -> None:
    cab.run(0.1)
    cab.touch("tournament")
    cab.touch("invite")
    assert cab.scene.name == "tournament_invite"


@pytest.fixture
def cabinets(tmp_path):
    made: list[CabinetScreens] = []

    def make(bind: str) -> CabinetScreens:
        cab = CabinetScreens(tmp_path / f"cab{len(made)}", (1280, 720), shots="friends3")
        cab.ctx.friends_bind = bind
        made.append(cab)
        return cab

    yield make
    for cab in made:
        cab.close()


def test_on_loopback_the_invite_screen_says_phones_cannot_open_the_link(cabinets):
    cab = cabinets("127.0.0.1")
    _invite(cab)
    link = _qr_link(cab)
    assert link == cab.ctx.friends.link and ipaddress.ip_address(urllib.parse.urlsplit(link).hostname).is_loopback
    words = cab.drawn_words()
    assert WARNING in words and "Ask an attendant" in words, words
    assert "friends_bind" not in words and "0.0.0.0" not in words, words  # a player's words, not settings


@pytest.mark.heavy
def test_on_every_interface_the_qr_names_the_venue_address_and_a_phone_takes_a_seat_with_it(cabinets, browser):
    cab = cabinets("0.0.0.0")
    _invite(cab)
    link = _qr_link(cab)
    host = urllib.parse.urlsplit(link).hostname
    venue = lan_address()
    if venue is None:  # a machine with no network but loopback: the screen says so
        assert WARNING in cab.drawn_words()
        return
    assert host == venue and host != "0.0.0.0" and not ipaddress.ip_address(host).is_loopback, link
    assert WARNING not in cab.drawn_words()
    assert link.endswith("/g/" + cab.ctx.friends.code)
    phone = browser(390, 844)
    phone.get(link)  # the address the QR code names, as a phone opens it

    def joining() -> bool:  # the cabinet's frame loop serves the lobby
        cab.run(0.05)
        return by_id(phone, "screen-join").is_displayed()

    wait_for(joining, what="the join page")
    by_id(phone, "name").send_keys("Mia")
    by_id(phone, "take-seat").click()

    def seated() -> bool:
        cab.run(0.05)
        return [f.name for f in cab.ctx.friends.friends()] == ["Mia"]

    wait_for(seated, what="Mia at the table")
    assert "• Mia" in cab.drawn_words()
    cab.shot("invite-lan")
