"""The cabinet's configuration turns on friends over the table link: the wiring puts the
network settings on the tournament, and the game the cabinet's screens host (the
tournament context's invitation) lets a paired cabinet join through the link."""

from __future__ import annotations

from pathlib import Path

from test_friends_link import FAST_LINK, pair, seated

from kiosk.config import ConfigError, load_config
from kiosk.friends import FriendsClient
from kiosk.friends.context import TournamentContext
from kiosk.link.pairing import HostPairing
from kiosk.wiring.cabinet import friends_network


def write(folder: Path, text: str) -> Path:
    path = folder / "cabinet.toml"
    path.write_text(f'db_path = "{folder / "uth.db"}"\n' + text)
    return path


def test_the_configuration_reaches_the_tournament(tmp_path):
    config = load_config(
        write(
            tmp_path,
            'friends_bind = "0.0.0.0"\nfriends_port = 8765\nfriends_hosts = ["bar-2:8765"]\n'
            f'friends_link_host_pairing = "{tmp_path / "host"}"\nfriends_link_port = 8766\n'
            f'friends_link_pairing = "{tmp_path / "station"}"\n'
            'friends_link_hosts = ["bar-2:8766"]\n',
        )
    )
    tournament = TournamentContext(config.db_path)
    friends_network(tournament, config)
    assert (tournament.friends_bind, tournament.friends_port) == ("0.0.0.0", 8765)
    assert tournament.friends_hosts == ["bar-2:8765"]
    assert tournament.friends_link_host_pairing == tmp_path / "host"
    assert tournament.friends_link_port == 8766
    assert tournament.friends_link_pairing == tmp_path / "station"
    assert tournament.friends_link_hosts == ["bar-2:8766"]


def test_a_bad_friends_setting_names_the_field(tmp_path):
    for text, field in (("friends_port = 70000\n", "friends_port"),
                        ('friends_port = "8765"\n', "friends_port"),
                        ('friends_hosts = ["a\\u0007b"]\n', "friends_hosts")):
        try:
            load_config(write(tmp_path, text))
        except ConfigError as exc:
            assert field in str(exc), (text, exc)
        else:
            raise AssertionError(f"accepted {text!r}")


def test_the_invited_game_takes_a_paired_cabinet_through_the_link(tmp_path):
    config = load_config(
        write(tmp_path, f'friends_link_host_pairing = "{tmp_path / "host"}"\n')
    )
    tournament = TournamentContext(config.db_path)
    friends_network(tournament, config)
    pair(HostPairing(tmp_path / "host"), tmp_path / "cab", "cab-2", 2)  # at the table host
    hosted = tournament.invite()
    hosted.host.run_in_background()  # as while the cabinet's player is on another screen
    try:
        seats = hosted.host.link_seats
        assert seats is not None
        client = FriendsClient.open_link(
            tmp_path / "cab", "127.0.0.1", seats.port, hosted.code, limits=FAST_LINK
        )
        try:
            client.join("Cab")
            welcome = seated(client)
            assert welcome["code"] == hosted.code
            assert hosted.host.call(lambda g: [f.name for f in g.friends()]) == ["Cab"]
        finally:
            client.close()
    finally:
        tournament.close_friends()

