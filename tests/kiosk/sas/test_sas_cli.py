"""``uth sas probe``, ``uth sas serve`` and ``uth sas host`` as a technician runs them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from devices.sas.line import PtyPair
from kiosk.cli import main


def test_probe_reports_each_check_and_fails_on_a_pty(capsys):
    with PtyPair() as pair:
        assert main(["sas", "probe", pair.port]) == 1
    out = capsys.readouterr().out
    assert "parity marking (INPCK + PARMRK)" in out and "cannot carry" in out
    assert main(["sas", "probe", "/nonexistent/tty"]) == 1


def test_host_refuses_a_port_it_cannot_open(capsys):
    assert main(["sas", "host", "/nonexistent/tty", "--seconds", "0"]) == 2
    assert "cannot open" in capsys.readouterr().err


@pytest.mark.heavy
def test_serve_and_host_over_a_pty(tmp_path, capsys):
    child = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "sas", "serve", "--pty", "--db", str(tmp_path / "u.db"),
         "--rounds", "2", "--seconds", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        port = child.stdout.readline().split(" on ", 1)[1].split(":", 1)[0]
        assert main(["sas", "host", port, "--meters", "--seconds", "3", "--every", "50",
                     "--timeout", "200"]) == 0  # fmt: skip
        out = capsys.readouterr().out
        assert "'version': '602'" in out and "'games_played':" in out
        assert "game started" in out or "game ended" in out or "bill accepted" in out
    finally:
        child.terminate()
        child.wait(timeout=30)


def _serve_rounds(db, rounds: int) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "sas", "serve", "--pty", "--db", str(db),
         "--rounds", str(rounds), "--seconds", "0.1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "round not played" not in done.stderr, done.stderr
    return done.stdout


@pytest.mark.heavy
def test_serve_rounds_inserts_notes_as_needed_and_finishes_a_round_left_open(tmp_path):
    from support.cabinet import insert_note, place

    from engine.rng import SeededRandomSource
    from kiosk.config import load_config
    from kiosk.game.snapshot import MachinePhase
    from kiosk.wiring.lone_cabinet import LoneCabinet

    def meters(cab: LoneCabinet) -> dict[str, int]:
        return cab.table.read(lambda a: a.meters())

    config = load_config(db_path=tmp_path / "u.db")
    m = LoneCabinet.open(config, rng=SeededRandomSource(3))
    for note in (500, 100, 100):  # 7.00: an ante, not a blind
        insert_note(m, note)
    m.close()
    assert "rounds played: 3" in _serve_rounds(config.db_path, 3)
    m = LoneCabinet.open(config, rng=SeededRandomSource(4))
    assert meters(m)["games_played"] == 3
    insert_note(m, 10_000)
    place(m, ("ante", 500))
    assert m.station.snapshot().phase == MachinePhase.IN_ROUND
    m.table.ledger.close()  # the power goes mid-round
    assert "rounds played: 4" in _serve_rounds(config.db_path, 4)
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    try:
        assert meters(m)["games_played"] == 3 + 4
        assert m.station.snapshot().phase != MachinePhase.IN_ROUND
    finally:
        m.close()
