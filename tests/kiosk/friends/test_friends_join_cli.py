"""``uth tournament join`` as a process against the ``uth tournament host`` process: a
``--db`` file that does not exist yet is created and gets the result; a folder that does
not exist is said in a line (exit 2, no traceback); a host killed mid-game and started
again with the same command is found again and the seat is taken back by its token."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.cli_process import Proc
from support.friends_cli_host import CliHost

from kiosk.tournament.store import TournamentStore


def _until_hand(db: Path, hand: int, timeout: float = 30.0) -> None:
    """Wait until the host's saved game is at ``hand`` or later."""
    end = time.monotonic() + timeout
    while True:
        store = TournamentStore.open(db)
        try:
            saved = store.load()
        finally:
            store.close()
        if saved is not None and saved[1]["hand_number"] >= hand:
            return
        assert time.monotonic() < end, "the host's game did not reach hand {hand}"
        time.sleep(0.1)  # polling the saved game, not waiting for time to pass


@pytest.mark.heavy
def test_join_creates_a_new_records_file_and_comes_back_after_a_power_cut_of_the_host(tmp_path):
    command = ("--port", "0", "--db", str(tmp_path / "host.db"), "--speed", "fast", "--players", "3",
               "--chips", "600", "--every", "2", "--start-after", "0")
    host = CliHost(*command)
    records = tmp_path / "new.db"
    assert not records.exists()
    join = Proc("join", "tournament", "join", "--host", f"127.0.0.1:{host.port}", "--code", host.code,
                "--name", "Eve", "--autoplay", "random", "--seed", "4", "--headless", "--db", str(records),
                "--wait", "30")
    try:
        host.proc.wait_line("Started", timeout=30)
        _until_hand(tmp_path / "host.db", 2)
        host.kill()  # the power cut, mid-game
        host = CliHost(*command, name="host again")
        host.proc.wait_line(r"^Resumed game", timeout=10)
        assert join.finish(120) == 0, "\n".join(join.lines[-20:])
    finally:
        if host.proc.p.poll() is None:
            host.kill()
        if join.p.poll() is None:
            join.kill()
    assert any("recorded for Eve" in line for line in join.lines)
    assert not any("Traceback" in line for line in join.lines)
    store = TournamentStore.open(records)
    try:
        assert store.records("Eve") is not None and len(store.kept_games("Eve")) + len(store.games("Eve")) >= 1
    finally:
        store.close()


def test_join_with_a_records_file_in_a_missing_folder_says_so_in_a_line(tmp_path):
    join = Proc("join", "tournament", "join", "--host", "127.0.0.1:9", "--code", "ABCDEF", "--autoplay",
                "random", "--headless", "--db", str(tmp_path / "nowhere" / "new.db"))
    assert join.finish(30) == 2
    out = "\n".join(join.lines)
    assert "Traceback" not in out and "nowhere" in out and "make the folder" in out, out


def test_host_on_a_port_in_use_says_so_in_a_line(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        host = Proc("host", "tournament", "host", "--port", str(port), "--db", str(tmp_path / "host.db"))
        assert host.finish(30) == 2
    out = "\n".join(host.lines)
    assert "Traceback" not in out and f"cannot listen on 127.0.0.1:{port}" in out and "--port" in out, out
