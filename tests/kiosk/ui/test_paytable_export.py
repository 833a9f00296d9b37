"""A manager exports a paytable's TOML and its PAR sheet from the paytable page to a USB
stick (a real folder listed in a mounts file standing for ``/proc/mounts``) or to the
cabinet's disk, through the Export page's media chooser; the ledger records it."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.operator_screens import OperatorScreens

from engine.uth.paytable import load_paytable

STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"


@pytest.fixture
def stick(tmp_path):
    media = tmp_path / "media" / "usb0"
    media.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(
        f"/dev/mmcblk0p2 / ext4 rw,relatime 0 0\n/dev/sda1 {media} vfat rw,nosuid,nodev 0 0\n"
    )
    return media, mounts


@pytest.fixture
def screens(tmp_path, monkeypatch, standard_optimal_par):
    _report, cache = standard_optimal_par
    monkeypatch.setenv("UTH_PAR_CACHE", str(cache))
    folder = tmp_path / "cabinet"
    folder.mkdir()
    s = OperatorScreens(folder)
    yield s
    s.close()


def open_export(s: OperatorScreens, mounts: Path, pin: str = "975310") -> None:
    s.login(pin, door=False)
    s.scene.pages["paytable"].mounts_file = mounts
    s.touch("page_paytable")
    s.touch("export_standard")


def test_a_manager_exports_the_toml_and_the_par_sheet_to_a_usb_stick(screens, stick):
    s, (media, mounts) = screens, stick
    open_export(s, mounts)
    table = load_paytable(STANDARD)
    stem = f"standard-{table.sha256[:8]}"
    drawn = s.drawn()
    assert stem in drawn and "usb0" in drawn and "This cabinet" in drawn
    assert f"SHA-256 {table.sha256[:16]}…" in drawn
    s.shot("/tmp/shots/paytable_export_800x480.png")
    s.touch("export")
    toml, par = media / f"{stem}.toml", media / f"{stem}-par.txt"
    assert toml.read_bytes() == STANDARD.read_bytes()
    sheet = par.read_text()
    assert table.sha256 in sheet and "99.47" in sheet
    text, ok = s.scene.result
    assert ok and text.startswith("Exported to ") and str(toml) in text
    (ev,) = s.cabinet.station.ledger_events(("paytable_exported",))
    assert ev.detail["operator"] == "Cy Young" and ev.detail["sha256"] == table.sha256
    assert ev.detail["files"] == [toml.name, par.name] and ev.detail["folder"] == str(media)
    assert sorted(p.name for p in media.iterdir()) == sorted(
        [toml.name, par.name]
    )  # no temporary file left


def test_the_cabinets_disk_and_back_to_the_list(screens, stick):
    s, (_media, mounts) = screens, stick
    open_export(s, mounts)
    s.touch("medium_1")  # the cabinet's own disk
    s.touch("export")
    assert s.scene.result[1], s.scene.result
    out = s.config.db_path.parent / "exports"
    assert {p.suffix for p in out.iterdir()} == {".toml", ".txt"}
    s.touch("export_back")
    assert "export_standard" in s.buttons() and "export" not in s.buttons()


def test_a_stick_pulled_out_or_unwritable_is_refused_and_nothing_recorded(screens, stick):
    s, (media, mounts) = screens, stick
    open_export(s, mounts)
    mounts.write_text("/dev/mmcblk0p2 / ext4 rw,relatime 0 0\n")  # the stick is gone
    s.touch("export")
    assert s.scene.result == ("Choose where to export: the USB stick is no longer there.", False)
    assert s.cabinet.station.ledger_events(("paytable_exported",)) == []
    assert list(media.iterdir()) == []


def test_below_a_manager_export_is_not_offered(screens, stick):
    s, (_media, mounts) = screens, stick
    s.login("135790", door=False)  # a technician
    s.scene.pages["paytable"].mounts_file = mounts
    s.touch("page_paytable")
    assert not s.buttons()["export_standard"].enabled
