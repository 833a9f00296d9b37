"""The link names an address a phone can open: a server on every interface is named by
the venue network's address (never 0.0.0.0), one on loopback says phones cannot reach it."""

from __future__ import annotations

import urllib.request

from kiosk.friends.addresses import client_key, is_loopback, lan_address
from kiosk.friends.game import FriendsGame
from kiosk.friends.host import FriendsHost


def test_a_host_on_every_interface_names_the_venue_address_and_it_answers(small_table):
    with FriendsHost(FriendsGame(small_table(players=2)), bind="0.0.0.0") as host:
        assert "0.0.0.0" not in host.link
        lan = lan_address()
        if lan is not None:
            assert host.advertise == lan and host.phones_can_reach
        with urllib.request.urlopen(host.link, timeout=5) as page:  # the link as a phone opens it
            assert page.status == 200


def test_a_host_on_loopback_says_phones_cannot_reach_it(small_table):
    with FriendsHost(FriendsGame(small_table(players=2)), bind="127.0.0.1") as host:
        assert not host.phones_can_reach
    assert is_loopback("localhost") and is_loopback("127.0.0.5") and not is_loopback("192.168.1.20")


def test_an_ipv6_client_is_counted_by_its_64_so_it_cannot_walk_codes_from_many_addresses():
    assert client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::5") != client_key("2001:db8:1:2::5")
    assert client_key("::ffff:192.168.1.20") == "192.168.1.20" and client_key("192.168.1.20") == "192.168.1.20"
    assert client_key("?") == "?"
