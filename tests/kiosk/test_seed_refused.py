"""``--seed`` (the predictable Mersenne Twister) is refused outside demo mode, on the
cabinet, a station's screens and the table host, before anything is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main


@pytest.fixture
def cabinet_config(tmp_path: Path) -> Path:
    path = tmp_path / "cabinet.toml"  # a file: demo is false unless it says so
    path.write_text(f'db_path = "{tmp_path / "var" / "uth.db"}"\n')
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["kiosk", "--headless", "--seed", "7"],
        ["kiosk", "--headless", "--station", "2", "--host", "127.0.0.1", "--seed", "7"],
        ["table", "serve", "--seed", "7"],
    ],
)
def test_seed_is_refused_outside_demo_mode(argv, cabinet_config, tmp_path, capsys):
    assert main([*argv, "--config", str(cabinet_config)]) == 2
    err = capsys.readouterr().err
    assert "--seed is refused" in err and "demo mode only" in err
    assert not (tmp_path / "var" / "uth.db").exists()  # nothing was opened


def test_seed_is_allowed_in_demo_mode(tmp_path):
    from kiosk.commands.seeding import check_seed
    from kiosk.config import load_config

    check_seed(load_config(None, db_path=str(tmp_path / "d.db")), 7, "uth kiosk")
    check_seed(load_config(None, db_path=str(tmp_path / "d.db"), demo=False), None, "uth kiosk")
