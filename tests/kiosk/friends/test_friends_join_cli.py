"""``uth tournament join`` as a process against the ``uth tournament host`` process: a
``--db`` file that does not exist yet is created and gets the result; a folder that does
not exist is said in a line (exit 2, no traceback); a host killed mid-game and started
again with the same command is found again and the seat is taken back by its token."""

from __future__ import annotations

import pytest
from support.cli_process import Proc
from support.friends_cli_host import CliHost

from kiosk.tournament.store import TournamentStore


@pytest.mark.heavy
def test_join_creates_a_new_records_file_and_comes_back_after_a_power_cut_of_the_host(tmp_path):
    # The joining seat checks or folds: it never risks more than its blinds, so with it
    # still in, the game cannot end before the blinds have eaten 2,000 chips (dozens of
    # hands); the power cut comes at hand 2 whatever the computer players do.
    command = ("--port", "0", "--db", str(tmp_path / "host.db"), "--speed", "fast", "--players", "3",
               "--chips", "2000", "--every", "3", "--start-after", "0")
    host = CliHost(*command)
    records = tmp_path / "new.db"
    assert not records.exists()
    join = Proc("join", "tournament", "join", "--host", f"127.0.0.1:{host.port}", "--code", host.code,
                "--name", "Eve", "--autoplay", "passive", "--headless", "--db", str(records), "--wait", "60")
    try:
        host.proc.wait_line("Started", timeout=60)
        join.wait_line(r"^hand 2$", timeout=120)  # the seat was dealt hand 2: the game is on
        code = host.code
        host.kill()  # the power cut, mid-game
        host = CliHost(*command, name="host again")
        resumed = host.proc.wait_line(r"^Resumed game (\S+) at hand (\d+)", timeout=60)
        assert resumed.group(1) == code and int(resumed.group(2)) >= 2, "the same game, at the hand it was at"
        assert join.finish(300) == 0, "\n".join(join.lines[-20:])
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


@pytest.mark.heavy
def test_join_with_a_records_file_in_a_missing_folder_says_so_in_a_line(tmp_path):
    join = Proc("join", "tournament", "join", "--host", "127.0.0.1:9", "--code", "ABCDEF", "--autoplay",
                "random", "--headless", "--db", str(tmp_path / "nowhere" / "new.db"))
    assert join.finish(30) == 2
    out = "\n".join(join.lines)
    assert "Traceback" not in out and "nowhere" in out and "make the folder" in out, out


@pytest.mark.heavy
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
