"""The ledger's files and the money devices in a configuration, refused at load with
the field and the reason: every file the ledger uses is its own, a folder is not a
database, network or loopback ports are for demo mode only; and a database file that
is empty or text is named as such at power-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import ConfigError, load_config
from kiosk.wiring.lone_cabinet import LoneCabinet


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("field", "value", "clash"),
    [
        ("anchor_path", "{db}", "db_path"),
        ("anchor_path", "{db}-wal", "write-ahead log"),
        ("ledger_key_path", "{db}", "db_path"),
        ("anchor_path", "{key}", "ledger_key_path"),
        ("install_marker", "{anchor}", "anchor_path"),
        ("install_marker", "{key}", "ledger_key_path"),
    ],
)
def test_every_ledger_file_is_its_own(tmp_path, field, value, clash):
    db, key, anchor = tmp_path / "uth.db", tmp_path / "k" / "uth.key", tmp_path / "uth.anchor"
    fields = {"db_path": db, "ledger_key_path": key, "anchor_path": anchor}
    fields[field] = Path(value.format(db=db, key=key, anchor=anchor))
    text = "".join(f'{k} = "{v}"\n' for k, v in fields.items())
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    assert err.value.field == field
    assert clash in err.value.reason and "its own" in err.value.reason
    assert not db.exists() and not key.exists()  # nothing was touched


def test_a_relative_path_naming_the_database_is_caught_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = f'db_path = "uth.db"\nanchor_path = "{tmp_path / "x" / ".." / "uth.db"}"\n'
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    assert err.value.field == "anchor_path"


@pytest.mark.parametrize("port", ["socket://10.0.0.9:7777", "loop://", "rfc2217://h:1"])
@pytest.mark.parametrize("field", ["validator_port", "printer_port"])
def test_network_and_loopback_ports_are_refused_outside_demo(tmp_path, field, port):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, f'{field} = "{port}"\n'))
    assert err.value.field == field and "local serial port" in err.value.reason
    demo = load_config(write(tmp_path, f'demo = true\n{field} = "{port}"\n'))
    assert getattr(demo, field) == port  # the bench and the tests may still use them


def test_a_folder_as_db_path_is_refused_at_load(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, f'db_path = "{tmp_path}"\n'))
    assert err.value.field == "db_path" and "folder" in err.value.reason


@pytest.mark.parametrize(
    ("content", "said"),
    [(b"", "empty file"), (b"db = here\n", "not an SQLite database")],
)
def test_an_empty_or_text_database_file_is_named_for_what_it_is(tmp_path, content, said):
    db = tmp_path / "uth.db"
    db.write_bytes(content)
    m = LoneCabinet.open(load_config(None, db_path=db))
    try:
        (tilt,) = [t.message for t in m.station.snapshot().tilts if t.code == "ledger"]
        assert said in tilt and "key" not in tilt
    finally:
        m.close()
    assert db.read_bytes() == content  # nothing lost
