"""``uth table`` and ``uth kiosk --station``: arguments, pairing by code against a real
host on loopback, and the refusals a technician sees."""

from __future__ import annotations

import argparse
import json

import pytest

from kiosk.cli import main
from kiosk.commands.table import parse_stations
from kiosk.config import load_config
from kiosk.link.pairing import HostPairing
from kiosk.service.table import Table
from kiosk.tablehost.service import TableHost


def test_stations_are_ranges_or_lists_of_one_to_seven():
    assert parse_stations("1-3") == (1, 2, 3)
    assert parse_stations("1,3,5-7") == (1, 3, 5, 6, 7)
    for bad in ("0-2", "8", "a", "3-1", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_stations(bad)


def test_pairing_by_the_code_the_host_shows(tmp_path, capsys):
    table = Table.open(load_config(db_path=tmp_path / "host" / "uth.db"), (1, 2))
    pairing = HostPairing(tmp_path / "host" / "link-host")
    host = TableHost(table, pairing)
    port = str(host.start())
    try:
        code = pairing.open_window()
        folder = tmp_path / "station-2"
        args = ["table", "pair", "--host", "127.0.0.1", "--port", port, "--station", "2"]
        wrong = "0000-0000" if code != "0000-0000" else "1111-1111"
        assert main([*args, "--code", wrong, "--folder", str(folder)]) == 1
        assert "bad-code" in capsys.readouterr().err
        assert main([*args, "--code", code, "--folder", str(folder)]) == 0
        assert "paired station-2 to seat 2" in capsys.readouterr().out
        saved = json.loads((folder / "station.json").read_text())
        assert saved["seat"] == 2 and saved["fingerprint"] == pairing.fingerprint
        assert [s.station_id for s in pairing.stations()] == ["station-2"]
        # the station's folder is paired to seat 2, not 3
        other = ["table", "station", "--host", "127.0.0.1", "--port", port]
        assert (
            main([*other, "--station", "3", "--folder", str(folder), "--autoplay", "random"]) == 2
        )
        assert "paired to seat 2" in capsys.readouterr().err
    finally:
        host.stop()
        table.close()


def test_a_station_needs_its_host_its_pairing_and_autoplay(tmp_path, capsys):
    assert main(["kiosk", "--station", "2"]) == 2
    assert "--host" in capsys.readouterr().err
    # without --autoplay it is the station's screens: they need the station's pairing
    station = ["kiosk", "--station", "2", "--host", "127.0.0.1", "--headless"]
    assert main([*station, "--pairing", str(tmp_path / "none")]) == 2
    assert "pair first" in capsys.readouterr().err
    unpaired = ["table", "station", "--host", "127.0.0.1", "--port", "1", "--station", "4"]
    assert main([*unpaired, "--folder", str(tmp_path / "none"), "--autoplay", "random"]) == 2
    assert "pair first" in capsys.readouterr().err
