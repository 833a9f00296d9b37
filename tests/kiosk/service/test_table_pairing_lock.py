"""Guessing pairing codes at a real host process (``uth table serve --pair-code``, which
shows a new code whenever a window closes): wrong codes from anywhere, across windows,
lock pairing until a technician reopens it at the host with their PIN, and neither a
restart nor deleting the host's pairing folder lifts the lock (it is in the ledger).
The guesser is the project's own client (:func:`kiosk.link.pair_station`) over TLS."""

from __future__ import annotations

import shutil

import pytest
from support.cli_process import Proc

from kiosk.config import DEMO_PINS
from kiosk.link import PairingRefused, pair_station
from kiosk.link.pairing import MAX_PAIRING_MISSES


@pytest.fixture
def procs():
    started: list[Proc] = []
    yield started
    for proc in started:
        print(f"--- {proc.name}\n" + "\n".join(proc.lines[-40:]))
        if proc.p.poll() is None:
            proc.p.kill()
            proc.p.wait(10)


def serve(tmp_path, procs, *extra: str, stdin: str | None = None) -> tuple[Proc, int]:
    db = tmp_path / "host" / "uth.db"
    host = Proc(
        "host",
        "table",
        "serve",
        "--db",
        str(db),
        "--stations",
        "1-2",
        "--port",
        "0",
        "--pair-code",
        *extra,
        stdin=stdin,
    )
    procs.append(host)
    port = int(host.wait_line(r"listening on 127\.0\.0\.1:(\d+)").group(1))
    return host, port


@pytest.mark.heavy
def test_wrong_codes_across_windows_lock_pairing_until_a_technician_reopens_it(tmp_path, procs):
    host, port = serve(tmp_path, procs)
    shown = host.wait_line(r"pairing code (\d{4}-\d{4})").group(1)
    refusals: list[str] = []
    i = 0
    while refusals.count("bad-code") < MAX_PAIRING_MISSES and i < 500:
        i += 1
        guess = f"{i:04d}-{i:04d}"
        if guess == shown:
            continue
        with pytest.raises(PairingRefused) as info:
            pair_station("127.0.0.1", port, guess, "thief", 1, tmp_path / "thief")
        refusals.append(info.value.reason)  # bad-code, or no-window between two windows
    assert refusals.count("bad-code") == MAX_PAIRING_MISSES
    host.wait_line("pairing locked")
    for _ in range(3):
        with pytest.raises(PairingRefused) as info:
            pair_station("127.0.0.1", port, "1234-5678", "thief", 1, tmp_path / "thief")
        assert info.value.reason == "locked"
    codes = [ln for ln in host.lines if "pairing code" in ln and "display" not in ln]
    # the host showed no new code after the lock, and no code pairs any more
    with pytest.raises(PairingRefused) as info:
        latest = codes[-1].split("pairing code ")[1].split()[0]
        pair_station("127.0.0.1", port, latest, "bar-1", 1, tmp_path / "s1")
    assert info.value.reason in ("locked", "no-window")
    assert not (tmp_path / "s1" / "station.json").exists()
    host.p.terminate()
    host.p.wait(20)
    # a restart keeps the lock
    again, port = serve(tmp_path, procs)
    again.wait_line("pairing locked")
    assert not any("pairing code" in ln and "display" not in ln for ln in again.lines)
    again.p.terminate()
    again.p.wait(20)
    # every file of the host's pairing folder deleted (the old count among them): still locked
    shutil.rmtree(tmp_path / "host" / "link-host")
    again, port = serve(tmp_path, procs)
    again.wait_line("pairing locked")
    again.p.terminate()
    again.p.wait(20)
    # a wrong PIN, or none, reopens nothing
    for typed in ("", "999999\n"):
        refused = Proc(
            "host",
            "table",
            "serve",
            "--db",
            str(tmp_path / "host" / "uth.db"),
            "--port",
            "0",
            "--reopen-pairing",
            stdin=typed,
        )
        procs.append(refused)
        assert refused.finish(30) == 1
        assert any("wrong_pin" in ln for ln in refused.lines), refused.lines
    # a technician at the host reopens it with their PIN
    reopened, port = serve(
        tmp_path, procs, "--reopen-pairing", stdin=DEMO_PINS["technician"] + "\n"
    )
    reopened.wait_line("pairing reopened")
    code = reopened.wait_line(r"pairing code (\d{4}-\d{4})").group(1)
    pair_station("127.0.0.1", port, code, "bar-1", 1, tmp_path / "s1")
    assert (tmp_path / "s1" / "station.json").exists()
