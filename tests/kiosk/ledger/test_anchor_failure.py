"""An anchor that cannot be written stops play with the ``ledger`` tilt: the database
could otherwise run ahead of its anchor unnoticed.  Played on a real read-only
directory: a tmpfs remounted read-only when running as root (root ignores file modes),
else a directory without write permission."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cabinet import insert_note

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import PlaceChip
from kiosk.game.errors import PlayDisabled
from kiosk.wiring.lone_cabinet import LoneCabinet


@contextlib.contextmanager
def read_only_later(folder: Path) -> Iterator[contextlib.AbstractContextManager[None]]:
    """``folder`` writable now; the yielded context makes it read-only for real."""
    folder.mkdir(parents=True)
    if os.geteuid() != 0:

        @contextlib.contextmanager
        def chmod() -> Iterator[None]:
            folder.chmod(0o500)
            try:
                yield
            finally:
                folder.chmod(0o700)

        yield chmod()
        return
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.decode().strip()}")

    @contextlib.contextmanager
    def remount() -> Iterator[None]:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield

    try:
        yield remount()
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_an_anchor_write_failure_is_a_ledger_tilt(tmp_path):
    anchors = tmp_path / "anchor-medium"
    with read_only_later(anchors) as read_only:
        config = load_config(
            db_path=tmp_path / "var" / "uth.db", anchor_path=anchors / "uth.anchor"
        )
        cab = LoneCabinet.open(config, rng=SeededRandomSource(3))
        ledger = cab.table.ledger
        assert ledger is not None and not cab.station.snapshot().tilts
        insert_note(cab, 2000)
        with read_only:
            insert_note(cab, 2000)  # committed; the anchor write fails
            assert ledger.anchor_problem.startswith("cannot write the anchor")
            tilts = {t.code: t.message for t in cab.station.snapshot().tilts}
            assert "cannot write the anchor" in tilts.get("ledger", "")
            with pytest.raises(PlayDisabled):
                cab.station.execute(PlaceChip("ante", 500))
            ledger.close()
            # at the next power-up the anchor still cannot be brought up to date
            again = LoneCabinet.open(config)
            assert "cannot write the anchor" in {
                t.code: t.message for t in again.station.snapshot().tilts
            }.get("ledger", "")
            again.close()
