"""The cabinet as it ships: ``systemd/install.sh`` on a booted Debian bookworm (the base of
Raspberry Pi OS), and the kiosk run by its own unit, tested through the service.

The root is built once by ``debootstrap`` and cached (:mod:`support.booted_debian`); the
checkout is copied in and installed with the witness folder on a filesystem of its own
(a tmpfs), the operators from ``UTH_OPERATORS``, and the unit exactly as shipped plus
one drop-in for what a container lacks (:data:`CONTAINER_DROP_IN`).  Then, through the
installed service: READY and the watchdog, rounds played by the kiosk's scripted player
on its simulated devices (pseudo-terminals), a kill in the middle of a round resumed and
settled once, an orderly stop recorded, the audit passing as the service user, the
files' owners and modes, and the sandbox's exposure score.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.booted_debian import (
    WITNESS,
    BootedDebian,
    cached_root,
    copy_checkout,
    unpack_root,
    why_not,
)

# the first run on a machine also builds the root (about 3 minutes, more under load)
pytestmark = [pytest.mark.heavy, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
SERVICE = "uth-kiosk.service"
UTH = "/opt/uth/.venv/bin/uth"
CONFIG = "/etc/uth/cabinet.toml"
DB = "/var/lib/uth/uth.db"
OPERATORS = "alice attendant 246813\nbob technician 135792\ncarol manager 975318\n"
#: install.sh's environment: the operators, and the container's tmpfs accepted as the
#: witness medium (no disk under it; see CONTAINER_DROP_IN)
INSTALL_ENV = {"UTH_OPERATORS": OPERATORS, "UTH_WITNESS_WITHOUT_DISK": "1"}
#: the only change to the shipped unit: what a container lacks, and the test's player
CONTAINER_DROP_IN = """\
[Service]
# a container has no DRM/KMS device: SDL draws on its invisible dummy driver
Environment=SDL_VIDEODRIVER=dummy
# nor a sound card
Environment=SDL_AUDIODRIVER=dummy
# the witness folder is a tmpfs of the container (another filesystem, but no disk under
# it to compare with the ledger's): the power-up's media check accepts it in a container
Environment=UTH_WITNESS_WITHOUT_DISK=1
# test only: --headless lets the kiosk run on the invisible driver, --autoplay random is
# the kiosk's scripted player (bills into the simulated validator, random decisions);
# --fps 20 spares the test machine's CPU (the watchdog is fed from the same loop)
ExecStart=
ExecStart=/opt/uth/.venv/bin/uth kiosk --config /etc/uth/cabinet.toml --headless --autoplay random --rounds 100000 --fps 20
"""
OPEN_ROUND = "SELECT id FROM rounds WHERE state = 'open'"
#: folders the kiosk's sandbox lets it write (True) or not (False)
WRITE_PROBES = {
    "/var/lib/uth": True, WITNESS: True, "/etc/uth/key": True,
    "/opt/uth": False, "/etc/uth": False, "/etc": False, "/usr/local/bin": False, "/var/lib": False,
    "/root": False,
}  # fmt: skip
#: the exposure score ``systemd-analyze security`` gives the unit, at most
EXPOSURE_GOAL = 2.0


@dataclass
class Installed:
    box: BootedDebian
    install_log: str
    seconds: float

    def sql(self, query: str) -> str:
        return self.box.run("sqlite3", f"file:{DB}?mode=ro", query).stdout.strip()

    def show(self, *props: str) -> dict[str, str]:
        out = self.box.run("systemctl", "show", SERVICE, *[f"--property={p}" for p in props]).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def wait_for(self, what: str, check, timeout: float = 120.0, every: float = 0.5):  # noqa: ANN001
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(every)
        journal = self.box.run(
            "journalctl", "-u", SERVICE, "--no-pager", "-n", "60", check=False
        ).stdout
        raise AssertionError(
            f"timed out after {timeout:.0f} s waiting for {what}; the kiosk's journal:\n{journal}"
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    reason = why_not("amd64")
    if reason is not None:
        pytest.skip(f"the installed-cabinet test cannot run on this machine: {reason}")
    base = tmp_path_factory.mktemp("installed")
    root = unpack_root(cached_root("amd64"), base / "root")
    copy_checkout(ROOT, root)
    drop_in = root / "etc/systemd/system" / f"{SERVICE}.d" / "container.conf"
    drop_in.parent.mkdir(parents=True)
    drop_in.write_text(CONTAINER_DROP_IN)
    try:
        with BootedDebian(root, base / "console.log") as box:
            started = time.monotonic()
            run = box.run("bash", "/root/uth-src/systemd/install.sh", "--witness-dir", WITNESS, check=False,
                          timeout=1200, env=INSTALL_ENV)  # fmt: skip
            log = run.stdout + run.stderr
            if run.returncode != 0:
                journal = box.run(
                    "journalctl", "-u", SERVICE, "--no-pager", "-n", "40", check=False
                )
                raise AssertionError(
                    f"install.sh exited {run.returncode}:\n{log[-2500:]}\n"
                    f"the kiosk's journal:\n{journal.stdout[-5000:]}"
                )
            yield Installed(box, log, time.monotonic() - started)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def settled(cab: Installed) -> int:
    return int(cab.sql("SELECT count(*) FROM rounds WHERE state = 'settled'") or 0)


def test_the_install_completes_and_says_which_witness_counter(installed: Installed):
    print(f"install.sh took {installed.seconds:.0f} s")
    assert re.search(r"witness counter: file:/mnt/witness/\S+", installed.install_log), (
        installed.install_log[-3000:]
    )
    toml = installed.box.run("cat", CONFIG).stdout
    assert 'witness_counter = "file:/mnt/witness/' in toml


def test_the_unit_is_ready_and_the_watchdog_keeps_it_alive(installed: Installed):
    cab = installed
    first = cab.wait_for("the kiosk to be ready", lambda: (s := cab.show("ActiveState", "SubState", "MainPID",
                         "NRestarts", "WatchdogUSec"))["SubState"] == "running" and s)  # fmt: skip
    assert first["ActiveState"] == "active" and first["WatchdogUSec"] == "10s"
    time.sleep(25)  # more than twice the watchdog's 10 s: a kiosk that stopped feeding it is killed
    later = cab.show("ActiveState", "SubState", "MainPID", "NRestarts")
    assert (later["SubState"], later["MainPID"], later["NRestarts"]) == (
        "running",
        first["MainPID"],
        "0",
    )


def test_the_installed_kiosk_plays_rounds(installed: Installed):
    cab = installed
    cab.wait_for("three settled rounds", lambda: settled(cab) >= 3, timeout=240)
    assert int(cab.sql("SELECT count(*) FROM events WHERE kind = 'bill_in'")) >= 1


def kill_in_a_round(cab: Installed) -> str:
    """SIGKILL the kiosk while a round is open; the round's id.  The ledger does not move
    between the kill and the restart (RestartSec=2), so a round that settled just before
    the kill shows there, and the kill is tried again on the next round."""
    for _ in range(5):
        pid = cab.show("MainPID")["MainPID"]
        in_play = cab.wait_for(
            "a round in play", lambda: cab.sql(OPEN_ROUND), timeout=120, every=0.05
        )
        cab.box.run("systemctl", "kill", "-s", "KILL", SERVICE)
        cab.wait_for(
            "the killed kiosk", lambda pid=pid: cab.show("MainPID")["MainPID"] != pid, every=0.05
        )
        still_open = cab.sql(f"SELECT state FROM rounds WHERE id = {in_play}") == "open"
        cab.wait_for("the restarted kiosk", lambda: cab.show("SubState")["SubState"] == "running")
        if still_open:
            return in_play
    raise AssertionError("five kills in a row landed between two rounds")


def test_a_kill_in_the_middle_of_a_round_resumes_and_settles_it_once(installed: Installed):
    cab = installed
    restarts = int(cab.show("NRestarts")["NRestarts"])
    killed = kill_in_a_round(cab)

    def state() -> str | None:
        found = cab.sql(f"SELECT state FROM rounds WHERE id = {killed}")
        return found if found in ("settled", "voided") else None

    assert cab.wait_for("the round settled", state) == "settled"
    resumed = f"SELECT count(*) FROM events WHERE kind = 'round_resumed' AND round_id = {killed}"
    assert cab.sql(resumed) == "1"
    assert cab.sql(f"SELECT count(*) FROM rounds WHERE id = {killed}") == "1"
    assert int(cab.show("NRestarts")["NRestarts"]) > restarts


def test_the_running_kiosk_writes_exactly_its_ledger_witness_and_key_folders(installed: Installed):
    cab = installed
    props = cab.show("ReadWritePaths", "WorkingDirectory", "ProtectSystem", "MainPID")
    assert props["ProtectSystem"] == "strict"
    assert set(props["ReadWritePaths"].split()) == {"/var/lib/uth", WITNESS, "/etc/uth/key"}
    work = props["WorkingDirectory"].lstrip("!")
    probe = cab.box.run("runuser", "-u", "uth", "--", "test", "-w", work, check=False)
    assert probe.returncode != 0, f"the working folder {work} is writable by the service user"
    # in the running kiosk's own mount namespace, even as root, only those folders take a file
    for folder, writable in WRITE_PROBES.items():
        probe = f"{folder}/.uth-write-probe"
        wrote = cab.box.run("nsenter", "-t", props["MainPID"], "-m", "sh", "-c",
                            f": > {probe} && rm {probe}", check=False)  # fmt: skip
        assert (wrote.returncode == 0) == writable, f"{folder}: {wrote.stderr}"


def test_a_stop_is_an_orderly_power_down_and_the_audit_passes_as_the_service_user(
    installed: Installed,
):
    cab = installed
    cab.box.run("systemctl", "stop", SERVICE, timeout=60)
    assert cab.show("Result")["Result"] == "success"
    last = cab.sql("SELECT kind FROM events ORDER BY id DESC LIMIT 1")
    assert last == "power_down"
    audit = cab.box.run(
        "runuser", "-u", "uth", "--", UTH, "audit", "verify", "--config", CONFIG, check=False,
        env={"UTH_WITNESS_WITHOUT_DISK": "1"},
    )  # fmt: skip
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_the_files_owners_and_modes(installed: Installed):
    box = installed.box

    def stat(path: str) -> tuple[str, str, int]:
        owner, group, mode = box.run("stat", "-c", "%U %G %a", path).stdout.split()
        return owner, group, int(mode, 8)

    key = "/etc/uth/key/ledger.key"
    owner, _, mode = stat(key)
    assert owner == "uth" and mode & 0o077 == 0, (owner, oct(mode))
    assert stat("/etc/uth/key")[2] & 0o077 == 0
    # the program: root's, and nothing under it writable by the service user
    assert stat("/opt/uth")[0] == "root"
    writable = box.run(
        "runuser", "-u", "uth", "--", "find", "/opt/uth", "-writable", "-print", "-quit"
    ).stdout
    assert writable.strip() == ""
    for path in ("/var/lib/uth", DB, f"{WITNESS}/uth.anchor"):
        assert stat(path)[2] & 0o007 == 0, f"{path} is open to others"


def test_the_sandbox_exposure_score(installed: Installed):
    out = installed.box.run(
        "systemd-analyze", "security", SERVICE, "--no-pager", check=False
    ).stdout
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", out)
    assert found, out[-2000:]
    score = float(found.group(1))
    print(f"systemd-analyze security {SERVICE}: {score}")
    assert score <= EXPOSURE_GOAL, out


def test_the_installer_off_a_running_system_installs_for_the_next_boot(installed: Installed):
    """Where neither systemd nor udevd runs (a chroot building an SD image): ``/run``
    empty, as there; the rules and the enabled unit wait for the next boot."""
    box = installed.box
    box.run("systemctl", "disable", SERVICE)
    script = (
        "mount -t tmpfs tmpfs /run && exec bash /root/uth-src/systemd/install.sh --witness-dir "
        + WITNESS
    )
    run = box.run("unshare", "-m", "sh", "-c", script, check=False, timeout=1200, env=INSTALL_ENV)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log[-4000:]
    assert "udevd is not running here: the rules take effect at the next boot" in log
    assert f"systemd is not running here: {SERVICE} starts at the next boot" in log
    assert box.run("systemctl", "is-enabled", SERVICE, check=False).stdout.strip() == "enabled"
    assert box.run("systemctl", "is-active", SERVICE, check=False).stdout.strip() == "inactive"
    assert (
        box.run("test", "-f", "/etc/udev/rules.d/99-uth-devices.rules", check=False).returncode == 0
    )
