"""The second medium is another DEVICE: a witness on another partition of the ledger's
disk (or an image file on it) is refused at power-up and by the installer, naming both
devices; a tmpfs (no disk under it) is refused on an installed cabinet unless a test
or a container says so; a witness medium not mounted is a tilt on the screen, not a
configuration refused at every restart; a file counter that names a ledger file is
refused at load."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.signed_paytables import signed

from engine.uth.paytable import PAYTABLE_DIR
from kiosk.cli import main as uth
from kiosk.config import ConfigError, load_config
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.media import NO_DISK_ALLOWED, Medium, disks_under, second_medium_problem
from kiosk.wiring.lone_cabinet import LoneCabinet

ROOT = Path(__file__).resolve().parents[3]
OPERATORS = '[[operators]]\nname = "Ann Smith"\nrole = "manager"\npin = "975310"\n'


def fake_sysfs(root: Path) -> Path:
    """A sysfs laid out as a Raspberry Pi's: a card (mmcblk0, partitions 179:1 and
    179:2), a USB key (sda, partition 8:1), an LVM volume over the card's third
    partition (dm-0, 254:0) and a loop device whose image is on the card (7:0)."""
    sys_root = root / "sys"
    devices = sys_root / "devices" / "platform"
    blocks = sys_root / "dev" / "block"
    blocks.mkdir(parents=True)

    def block(path: Path, dev: str, partition: bool = False) -> None:
        path.mkdir(parents=True)
        (path / "dev").write_text(dev + "\n")
        if partition:
            (path / "partition").write_text("1\n")
        (blocks / dev).symlink_to(path)

    card = devices / "mmc" / "mmcblk0"
    block(card, "179:0")
    for n in (1, 2, 3):
        block(card / f"mmcblk0p{n}", f"179:{n}", partition=True)
    block(devices / "usb" / "sda", "8:0")
    block(devices / "usb" / "sda" / "sda1", "8:1", partition=True)
    dm = devices / "virtual" / "dm-0"
    block(dm, "254:0")
    (dm / "slaves").mkdir()
    (dm / "slaves" / "mmcblk0p3").symlink_to(card / "mmcblk0p3")
    loop = devices / "virtual" / "loop0"
    block(loop, "7:0")
    (loop / "loop").mkdir()
    (loop / "loop" / "backing_file").write_text(str(root / "gone.img") + "\n")
    return sys_root


def test_the_parent_disk_of_each_kind_of_device(tmp_path):
    sys_root = fake_sysfs(tmp_path)
    assert disks_under("179:1", sys_root) == {"mmcblk0"}  # a partition: its disk
    assert disks_under("179:0", sys_root) == {"mmcblk0"}  # a whole disk: itself
    assert disks_under("8:1", sys_root) == {"sda"}
    assert disks_under("254:0", sys_root) == {"mmcblk0"}  # LVM: the disk under it
    assert disks_under("7:0", sys_root) == frozenset()  # a loop image out of sight
    assert disks_under("0:27", sys_root) == frozenset()  # tmpfs: no block device


def probe_on(sys_root: Path, devices: dict[str, str]) -> object:
    """A probe that places each folder on the device ``devices`` names for it."""

    def probe(folder: Path) -> Medium:
        dev = devices[Path(folder).name]
        return Medium(dev, "ext4", f"/dev/{dev}", disks_under(dev, sys_root))

    return probe


def test_a_witness_on_another_partition_of_the_ledgers_card_is_refused(tmp_path):
    sys_root = fake_sysfs(tmp_path)
    (tmp_path / "var").mkdir()
    (tmp_path / "boot").mkdir()
    (tmp_path / "usb").mkdir()
    db, witness = tmp_path / "var" / "uth.db", tmp_path / "boot" / "uth.anchor"
    probe = probe_on(sys_root, {"var": "179:2", "boot": "179:1", "usb": "8:1"})
    name, problem = second_medium_problem(db, {"anchor_path": witness}, probe, no_disk=False)
    assert name == "anchor_path"
    assert "the ledger's own disk mmcblk0" in problem and "another partition" in problem
    assert "device 179:1" in problem and "device 179:2" in problem  # both devices named
    probe = probe_on(sys_root, {"var": "254:0", "boot": "179:1", "usb": "8:1"})
    assert "own disk mmcblk0" in second_medium_problem(db, {"a": witness}, probe, no_disk=True)[1]
    usb = {"anchor_path": tmp_path / "usb" / "uth.anchor"}
    assert second_medium_problem(db, usb, probe, no_disk=False) == ("", "")


@pytest.fixture
def tmpfs_folder() -> Iterator[Path]:
    base = Path("/dev/shm")
    if not base.is_dir():
        pytest.skip("no tmpfs at /dev/shm on this machine")
    folder = Path(tempfile.mkdtemp(prefix="uth-witness-", dir=base))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def installed_toml(tmp_path: Path, witness: Path, extra: str = "") -> Path:
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'installed = true\ndb_path = "{tmp_path / "var" / "uth.db"}"\n'
        f'ledger_key_path = "{tmp_path / "key" / "ledger.key"}"\n'
        f'anchor_path = "{witness / "uth.anchor"}"\n'
        f'install_marker = "{witness / "uth.install"}"\n' + extra + OPERATORS
    )
    return path


def ledger_tilt(m: LoneCabinet) -> str:
    return next((t.message for t in m.station.snapshot().tilts if t.code == "ledger"), "")


def test_a_tmpfs_witness_is_refused_at_power_up_of_an_installed_cabinet(
    tmp_path, tmpfs_folder, monkeypatch
):
    monkeypatch.delenv(NO_DISK_ALLOWED, raising=False)
    config = load_config(installed_toml(tmp_path, tmpfs_folder))
    m = LoneCabinet.open(config)
    try:
        tilt = ledger_tilt(m)
        assert "no disk under it" in tilt and "cannot be shown to be another device" in tilt
        assert "tmpfs" in tilt and str(config.db_path) in tilt  # both devices named
        assert m.table.ledger is None
    finally:
        m.close()
    assert not config.db_path.exists()


def test_a_witness_medium_not_mounted_is_a_tilt_on_screen_not_an_exit(tmp_path, tmpfs_folder):
    """The witness folder is absent (its medium not mounted): the configuration loads,
    the kiosk runs its screens with the ledger tilt and its cause (it used to exit 2 at
    the configuration, and systemd restarted it again and again)."""
    witness = tmpfs_folder / "not-mounted"
    path = installed_toml(tmp_path, witness)
    config = load_config(path)
    m = LoneCabinet.open(config)
    try:
        tilt = ledger_tilt(m)
        assert f"its folder {witness} is missing" in tilt and "not mounted" in tilt
    finally:
        m.close()
    code = uth(
        ["kiosk", "--config", str(path), "--window", "800x480", "--frames", "3", "--no-sound"]
    )
    assert code == 0


def test_a_witness_folder_beside_the_database_is_still_refused_at_load(tmp_path):
    path = installed_toml(tmp_path, tmp_path / "var")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.field == "anchor_path" and "ledger's folder" in err.value.reason


@pytest.mark.parametrize(
    "target, field",
    [
        ("var/uth.db", "db_path"),
        ("witness/uth.anchor", "anchor_path"),
        ("witness/uth.install", "install_marker"),
        ("key/ledger.key", "ledger_key_path"),
        ("var/uth.db-wal", "db_path's write-ahead log"),
    ],
)
def test_a_file_counter_naming_a_ledger_file_is_refused_at_load(tmp_path, target, field):
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'db_path = "{tmp_path / "var" / "uth.db"}"\n'
        f'ledger_key_path = "{tmp_path / "key" / "ledger.key"}"\n'
        f'anchor_path = "{tmp_path / "witness" / "uth.anchor"}"\n'
        f'install_marker = "{tmp_path / "witness" / "uth.install"}"\n'
        f'witness_counter = "file:{tmp_path / target}"\n'
    )
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.field == "witness_counter"
    assert f"is also the {field}" in err.value.reason


def test_an_installed_file_counter_on_the_ledgers_filesystem_is_a_tilt(
    tmp_path, tmpfs_folder, monkeypatch
):
    monkeypatch.setenv(NO_DISK_ALLOWED, "1")  # the tmpfs plays another device here
    counter = tmp_path / "counter" / "uth.counter"
    counter.parent.mkdir()
    path = installed_toml(tmp_path, tmpfs_folder, f'witness_counter = "file:{counter}"\n')
    config = load_config(path)
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    signed(CabinetKey.create(config.key_path), PAYTABLE_DIR / "standard.toml")
    m = LoneCabinet.open(config)
    try:
        tilt = ledger_tilt(m)
        assert "witness_counter" in tilt and "the same filesystem" in tilt
    finally:
        m.close()


def installer(tmp_path: Path, witness: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--witness-dir", str(witness), "--no-start"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": os.environ["PATH"], "UTH_STATE_DIR": str(tmp_path / "state"), **env},
    )


def test_the_installer_refuses_a_tmpfs_unless_told_it_is_a_test(tmp_path, tmpfs_folder):
    """The installer's check is the power-up's (``python -m kiosk.ledger.media``); the
    script is run only where it stops at that check (it installs packages as root)."""
    out = installer(tmp_path, tmpfs_folder / "uth")
    assert out.returncode == 2 and "no disk under it" in out.stderr
    assert not (tmpfs_folder / "uth").exists() and not (tmp_path / "state").exists()
    env = {**os.environ, NO_DISK_ALLOWED: "1"}
    args = [sys.executable, "-m", "kiosk.ledger.media", str(tmp_path / "state"), str(tmpfs_folder)]
    out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0 and "tmpfs" in out.stdout


@pytest.fixture
def image_on_the_ledgers_disk(tmp_path: Path) -> Iterator[Path]:
    """A real second filesystem on the ledger's own disk: an image file beside the
    ledger, formatted and mounted through a loop device.  Root only (skipped
    elsewhere)."""
    tools = ("losetup", "mkfs.ext4", "mount", "umount")
    if os.geteuid() != 0 or not all(shutil.which(t) for t in tools):
        pytest.skip("needs root and " + ", ".join(tools))
    image, where = tmp_path / "witness.img", tmp_path / "mnt"
    with open(image, "wb") as fh:
        fh.truncate(16 * 1024 * 1024)
    loop = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True)
    if loop.returncode != 0:
        pytest.skip(f"no loop device: {loop.stderr.strip()}")
    device = loop.stdout.strip()
    where.mkdir()
    mounted = False
    try:
        subprocess.run(["mkfs.ext4", "-q", device], check=True, capture_output=True)
        mounted = subprocess.run(["mount", device, str(where)], check=False).returncode == 0
        if not mounted:
            pytest.skip(f"cannot mount {device}")
        yield where
    finally:
        if mounted:
            subprocess.run(["umount", str(where)], check=False)
        subprocess.run(["losetup", "-d", device], check=False)


def test_an_image_file_on_the_ledgers_disk_is_refused_by_power_up_and_installer(
    tmp_path, image_on_the_ledgers_disk
):
    witness = image_on_the_ledgers_disk
    (tmp_path / "var").mkdir()
    problem = second_medium_problem(tmp_path / "var" / "uth.db", {"a": witness / "uth.anchor"})[1]
    assert "the ledger's own disk" in problem and "device 7:" in problem, problem
    out = subprocess.run(
        [sys.executable, "-m", "kiosk.ledger.media", str(tmp_path / "var"), str(witness / "uth")],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 2 and "the ledger's own disk" in out.stderr
