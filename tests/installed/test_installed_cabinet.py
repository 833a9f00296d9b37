"""The cabinet as it ships: ``systemd/install.sh`` on a booted Debian bookworm (the base of
Raspberry Pi OS), and the kiosk run by its own unit, tested through the service.

The root is built once by ``debootstrap`` and cached (:mod:`support.booted_debian`); the
checkout is copied in and installed with the witness folder on a filesystem of its own
(a tmpfs), the operators from ``UTH_OPERATORS``, and the unit exactly as shipped plus
one drop-in for what a container lacks (:data:`CONTAINER_DROP_IN`).  Then, through the
installed service: READY and the watchdog, rounds played by the kiosk's scripted player
on its simulated devices (pseudo-terminals), a kill in the middle of a round resumed and
settled once, the SAS link's own process answering a host on the line from inside the
sandbox, an orderly stop recorded, the audit passing as the service user, the files'
owners and modes, and the sandbox's exposure score.
"""

from __future__ import annotations

import json
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
RESUMED = "SELECT count(*) FROM events WHERE kind = 'round_resumed' AND round_id = {round}"
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


#: the casino's system inside the box (tests/installed/sas_host_in_box.py, as copied in)
SAS_HOST = "/root/uth-src/tests/installed/sas_host_in_box.py"
SAS_PORT_FILE, SAS_OUT = "/run/uth-sas.port", "/run/uth-sas.json"


def link_processes(cab: Installed) -> list[str]:
    """``user cgroup args`` of every SAS link process running in the box."""
    ps = cab.box.run("ps", "-eo", "user:16,cgroup:300,args", "--no-headers").stdout
    return [line for line in ps.splitlines() if "kiosk.sas.remote" in line]


def test_the_sas_link_answers_from_its_own_process_inside_the_sandbox(installed: Installed):
    """``sas_port`` set in the installed configuration: the kiosk starts its SAS link in
    a process of its own, as the service user and inside the unit (its sandbox and
    control group); a host on the line (the installed program's interpreter, as root)
    gets every general poll answered, the paytable's proven base % in 1F and a games
    meter between the ledger's rounds before and after."""
    cab, box = installed, installed.box
    box.run("rm", "-f", SAS_PORT_FILE, SAS_OUT)
    box.sh(
        f"setsid -f /opt/uth/.venv/bin/python -I {SAS_HOST} --port-file {SAS_PORT_FILE}"
        f" --out {SAS_OUT} --seconds 20 > /run/uth-sas.log 2>&1 < /dev/null"
    )
    port = cab.wait_for(
        "the host's line",
        lambda: box.run("cat", SAS_PORT_FILE, check=False).stdout.strip(),
        timeout=60,
    )
    original = box.run("cat", CONFIG).stdout
    assert "sas_port" not in original
    try:
        box.run("sed", "-i", f'/^printer_port = /a sas_port = "{port}"', CONFIG)
        box.run("systemctl", "restart", SERVICE, timeout=120)
        links = cab.wait_for("the link's process", lambda: link_processes(cab), timeout=180)
        before = settled(cab)
        done = cab.wait_for(
            "the host's polls",
            lambda: box.run("cat", SAS_OUT, check=False).stdout,
            timeout=360,
            every=1.0,
        )
        after = int(cab.sql("SELECT count(*) FROM rounds") or 0)
    finally:
        box.run("sh", "-c", f"cat > {CONFIG}", stdin=original)
        box.run("systemctl", "restart", SERVICE, timeout=120)
        cab.wait_for("the kiosk again", lambda: cab.show("SubState")["SubState"] == "running")
    host_log = box.run("cat", "/run/uth-sas.log", check=False).stdout
    seen = json.loads(done)
    assert "error" not in seen, (seen, host_log)
    assert len(links) == 1, links
    user, cgroup, _ = links[0].split(None, 2)
    assert user == "uth" and SERVICE in cgroup, links[0]
    assert seen["polls"] >= 200 and seen["unanswered"] == 0, seen
    print(f"SAS in the box: {seen['polls']} polls, answer start max {max(seen['starts_ms'])} ms")
    assert seen["identity"]["game_id"] == "UT" and seen["identity"]["base_pct"] == "9947"
    assert 0 < before <= seen["meters"]["games_played"] <= after, (before, seen["meters"], after)


def kill_in_a_round(cab: Installed) -> tuple[str, int]:
    """SIGKILL the kiosk while a round is open; the round's id and how often it had been
    resumed before (an earlier test's restart may have cut the same round).  The ledger does not move
    between the kill and the restart (RestartSec=2), so a round that settled just before
    the kill shows there, and the kill is tried again on the next round."""
    for _ in range(5):
        pid = cab.show("MainPID")["MainPID"]
        in_play = cab.wait_for(
            "a round in play", lambda: cab.sql(OPEN_ROUND), timeout=120, every=0.05
        )
        before = int(cab.sql(RESUMED.format(round=in_play)) or 0)
        cab.box.run("systemctl", "kill", "-s", "KILL", SERVICE)
        cab.wait_for(
            "the killed kiosk", lambda pid=pid: cab.show("MainPID")["MainPID"] != pid, every=0.05
        )
        still_open = cab.sql(f"SELECT state FROM rounds WHERE id = {in_play}") == "open"
        cab.wait_for("the restarted kiosk", lambda: cab.show("SubState")["SubState"] == "running")
        if still_open:
            return in_play, before
    raise AssertionError("five kills in a row landed between two rounds")


def test_a_kill_in_the_middle_of_a_round_resumes_and_settles_it_once(installed: Installed):
    cab = installed
    restarts = int(cab.show("NRestarts")["NRestarts"])
    killed, before = kill_in_a_round(cab)

    def state() -> str | None:
        found = cab.sql(f"SELECT state FROM rounds WHERE id = {killed}")
        return found if found in ("settled", "voided") else None

    assert cab.wait_for("the round settled", state) == "settled"
    assert int(cab.sql(RESUMED.format(round=killed))) == before + 1  # once, by this cut
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


# -- the attacks, repeated on the installed system ----------------------------------------

LEDGER_DIR = "/var/lib/uth"
KEY_DIR = "/etc/uth/key"
COUNTER = f"{WITNESS}/uth.counter"
#: where the test keeps its copies of the media, inside the container
COPIES = "/root/media-copies"
#: the PAR cache (in the ledger folder): a cache, not part of a medium's copy
PAR_CACHE = "par-cache"


def test_the_cabinet_key_and_the_ledger_are_closed_to_another_user(installed: Installed):
    """Another user of the system (``nobody``) reads neither the cabinet key, nor the
    ledger, nor its anchor."""
    box = installed.box
    for path in (f"{KEY_DIR}/ledger.key", DB, f"{WITNESS}/uth.anchor"):
        read = box.run("runuser", "-u", "nobody", "--", "head", "-c", "1", path, check=False)
        assert read.returncode != 0 and "Permission denied" in read.stderr, (path, read)
    listed = box.run("runuser", "-u", "nobody", "--", "ls", KEY_DIR, check=False)
    assert listed.returncode != 0, listed.stdout


def test_a_witness_folder_on_the_ledgers_own_filesystem_is_refused_by_the_installer(
    installed: Installed,
):
    """``install.sh --witness-dir /var/lib/uth-witness``: the ledger's own filesystem (one
    image of the card would put both back) is refused with its reason, before anything is
    installed: no witness folder made, the configuration and the unit's drop-ins as they
    were."""
    box = installed.box
    kept = f"{CONFIG} /etc/systemd/system/{SERVICE}.d/*.conf /opt/uth/.venv/bin/uth"
    before = box.sh(f"sha256sum {kept}").stdout
    run = box.run("bash", "/root/uth-src/systemd/install.sh", "--witness-dir", "/var/lib/uth-witness",
                  check=False, timeout=300, env=INSTALL_ENV)  # fmt: skip
    assert run.returncode == 2, run.stdout + run.stderr
    assert "the same filesystem" in run.stderr, run.stderr
    assert "mount another device there" in run.stderr, run.stderr
    assert box.run("test", "-e", "/var/lib/uth-witness", check=False).returncode != 0
    assert box.sh(f"sha256sum {kept}").stdout == before


#: a module that leaves a marker named after itself when it is ever imported
DROPPED = 'open("{marker}", "w").write("imported")\n'
#: the names a dropped module would take the place of: the cabinet's packages, one it
#: imports, and the modules Python imports by itself at start
DROPPED_NAMES = ("kiosk/__init__.py", "engine/__init__.py", "pydantic.py", "sitecustomize.py",
                 "usercustomize.py")  # fmt: skip


def child_pids(box: BootedDebian) -> list[str]:
    found = box.run("pgrep", "-f", "kiosk.game.paytables.maths_child", check=False).stdout
    return found.split()


def test_code_dropped_in_the_ledger_folder_or_the_working_folder_is_never_imported(
    installed: Installed,
):
    """Modules dropped where the service user writes (the ledger folder) and in the
    unit's working folder are imported neither by the kiosk nor by its maths child: the
    PAR cache moved away, the first deal after the start runs the child (the optimal
    analysis into the cache), and no marker appears; the service user's own commands run
    from the ledger folder import none either."""
    cab, box = installed, installed.box
    box.run("systemctl", "stop", SERVICE, timeout=60)
    work = cab.show("WorkingDirectory")["WorkingDirectory"].lstrip("!-") or "/"
    folders = {"ledger": LEDGER_DIR, "working": work}
    markers = [
        f"{LEDGER_DIR}/ran-{where}-{name.replace('/', '-')}"
        for where in folders
        for name in DROPPED_NAMES
    ]
    dropped = []
    for where, folder in folders.items():
        owner = "uth" if folder == LEDGER_DIR else "root"
        for name in DROPPED_NAMES:
            path = f"{folder}/{name}"
            marker = f"{LEDGER_DIR}/ran-{where}-{name.replace('/', '-')}"
            box.run("runuser", "-u", owner, "--", "sh", "-c", f'mkdir -p "$(dirname {path})" && cat > {path}',
                    stdin=DROPPED.format(marker=marker))  # fmt: skip
            dropped.append(path)
    box.run("mv", f"{LEDGER_DIR}/{PAR_CACHE}", f"{LEDGER_DIR}/{PAR_CACHE}.aside")
    try:
        box.run("systemctl", "start", SERVICE, timeout=90)
        ran = f"ls {' '.join(markers)} 2>/dev/null; true"
        # the child started: seen running, or gone already having left a marker
        child = cab.wait_for("the maths child", lambda: child_pids(box) or box.sh(ran).stdout.split(),
                             timeout=180, every=0.2)  # fmt: skip
        # its imports are done within seconds; it may run on (the whole analysis)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and set(child) & set(child_pids(box)):
            time.sleep(0.5)
        audit = box.run("runuser", "-u", "uth", "--", "sh", "-c", f"cd {LEDGER_DIR} && {UTH} audit verify --config "
                        f"{CONFIG}", check=False, env={"UTH_WITNESS_WITHOUT_DISK": "1"})  # fmt: skip
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert cab.show("SubState")["SubState"] == "running"
        assert box.sh(ran).stdout.split() == [], f"dropped code ran: {box.sh(ran).stdout}"
    finally:
        box.run("systemctl", "stop", SERVICE, timeout=60)
        box.run("rm", "-rf", *dropped, *markers, f"{LEDGER_DIR}/kiosk", f"{LEDGER_DIR}/engine", f"{work}/kiosk",
                f"{work}/engine", f"{LEDGER_DIR}/{PAR_CACHE}")  # fmt: skip
        box.run("mv", f"{LEDGER_DIR}/{PAR_CACHE}.aside", f"{LEDGER_DIR}/{PAR_CACHE}")


def _slug(folder: str) -> str:
    return folder.strip("/").replace("/", "_")


def copy_media(box: BootedDebian, name: str, folders: tuple[str, ...]) -> None:
    """A copy of each of ``folders`` (the PAR cache left out), as an imager takes it."""
    for folder in folders:
        box.sh(f"mkdir -p {COPIES}/{name} && tar -C {folder} --exclude=./{PAR_CACHE} -cpf "
               f"{COPIES}/{name}/{_slug(folder)}.tar .")  # fmt: skip


def put_back(
    box: BootedDebian, name: str, folders: tuple[str, ...], spare: tuple[str, ...] = ()
) -> None:
    """The copy ``name`` of each of ``folders`` put back in place of what is there (the
    PAR cache and ``spare`` left as they are)."""
    for folder in folders:
        keep = [PAR_CACHE, *spare]
        box.sh(f"find {folder} -mindepth 1 -maxdepth 1 {' '.join(f'! -name {k}' for k in keep)} -exec rm -rf {{}} + "
               f"&& tar -C {folder} {' '.join(f'--exclude=./{k}' for k in keep)} -xpf "
               f"{COPIES}/{name}/{_slug(folder)}.tar")  # fmt: skip


def money_events(cab: Installed) -> int:
    kinds = "'bill_in', 'ticket_in', 'cashout', 'ticket_out', 'handpay'"
    return int(cab.sql(f"SELECT count(*) FROM events WHERE kind IN ({kinds})") or 0)


#: the standard table's smallest round (Ante, Blind and a 1x Play at the minimum Ante of
#: 500): with fewer credits the scripted player inserts a note
SMALLEST_ROUND = 3 * 500
COPY_ATTEMPTS = 3


def credits(cab: Installed) -> int:
    """The cabinet's credit meter (cents), as its ledger holds it."""
    return int(
        cab.sql("SELECT value FROM station_meters WHERE station = 1 AND name = 'credits'") or 0
    )


def short_of_a_round(cab: Installed) -> None:
    """Wait until the scripted player, between rounds, is short of the smallest round: the
    next thing it does is insert a note.  The player's luck is not seeded (an installed
    cabinet refuses ``--seed``): its credits can stay above the smallest round for
    many minutes, so the wait is long."""
    cab.wait_for(
        "the credits short of a round, between rounds",
        lambda: credits(cab) < SMALLEST_ROUND and not cab.sql(OPEN_ROUND),
        timeout=1200,
        every=0.05,
    )


def counter_value(box: BootedDebian) -> int:
    return int(box.run("cat", COUNTER).stdout.strip())


def power_up_fault(cab: Installed) -> str:
    """Start the unit and return the ledger fault its power-up logs (the kiosk stays up,
    showing the tilt: it neither exits nor makes a new ledger)."""
    since = cab.box.run("date", "+%s").stdout.strip()
    cab.box.run("systemctl", "start", SERVICE, timeout=90)

    def fault() -> str | None:
        out = cab.box.run(
            "journalctl", "-u", SERVICE, "-o", "cat", "--no-pager", f"--since=@{since}"
        ).stdout
        found = re.search(r"LEDGER FAULT - play stopped: .*", out)
        return found.group(0) if found else None

    return cab.wait_for("the ledger fault at power-up", fault, timeout=120)


def power_cut(cab: Installed) -> None:
    """The kiosk killed (no orderly power-down), and not restarted."""
    cab.box.run("systemctl", "kill", "-s", "KILL", SERVICE)
    cab.box.run("systemctl", "stop", SERVICE, timeout=60)


def test_the_ledger_folder_put_back_alone_is_caught_and_not_recreated(installed: Installed):
    """A copy of the ledger folder (the card), taken with the kiosk stopped, put back
    after notes were credited and rounds played: the power-up refuses it (the database
    behind its anchor on the second medium, the counter ahead of it); the kiosk shows the
    ledger fault, stays up, and neither repairs nor recreates the ledger."""
    cab, box = installed, installed.box
    for _ in range(COPY_ATTEMPTS):
        # stopped when the scripted player is short of a round: the first thing it does
        # after the next start is a note, however long its credits would otherwise last
        box.run("systemctl", "start", SERVICE, timeout=90)
        short_of_a_round(cab)
        box.run("systemctl", "stop", SERVICE, timeout=60)
        if credits(cab) < SMALLEST_ROUND:
            break
        # the note went in just before the stop: wait for the next shortage
    else:
        raise AssertionError(f"no stop with the credits short of a round in {COPY_ATTEMPTS} tries")
    copy_media(box, "stopped", (LEDGER_DIR,))
    old_events = int(cab.sql("SELECT count(*) FROM events"))
    old_money = money_events(cab)
    box.run("systemctl", "start", SERVICE, timeout=90)
    rounds = settled(cab)
    cab.wait_for("a note credited and a round played",
                 lambda: money_events(cab) > old_money and settled(cab) > rounds, timeout=300)  # fmt: skip
    box.run("systemctl", "stop", SERVICE, timeout=60)
    copy_media(box, "latest", (LEDGER_DIR, KEY_DIR, WITNESS))
    put_back(box, "stopped", (LEDGER_DIR,))
    try:
        fault = power_up_fault(cab)
        print(fault)
        assert re.search(r"behind its anchor|counter ahead of the ledger", fault), fault
        time.sleep(3)
        assert cab.show("SubState")["SubState"] == "running"
        assert int(cab.sql("SELECT count(*) FROM events")) == old_events  # the copy, untouched
    finally:
        box.run("systemctl", "stop", SERVICE, timeout=60)
        put_back(box, "latest", (LEDGER_DIR, KEY_DIR, WITNESS))


def test_both_media_copied_while_running_are_caught_once_money_moved(installed: Installed):
    """What :mod:`kiosk.ledger.witness` claims: a copy of both media (the ledger folder,
    the key folder, the witness folder) taken while the kiosk runs, as an imager would (the
    kiosk frozen for the copy: a crash-consistent image), is behind the witness counter as
    soon as one more note or cash-out has gone through (the counter moves with the money,
    not only at power-up and power-down); put back after a power cut, it is refused as
    the counter ahead of the ledger.

    What it cannot catch: the counter here is a file on the witness medium (no TPM in the
    container), so whoever images that medium too and puts the counter file back with the
    rest rolls the counter back with them: unseen.  This test keeps the counter (as a TPM
    NV counter, which cannot be put back, would be kept)."""
    cab, box = installed, installed.box
    box.run("systemctl", "start", SERVICE, timeout=90)
    cab.wait_for("the kiosk running", lambda: cab.show("SubState")["SubState"] == "running")
    for _ in range(COPY_ATTEMPTS):
        # the copy taken when the scripted player is about to insert a note: the money
        # moves right after it, however long its credits would otherwise last
        short_of_a_round(cab)
        box.run("systemctl", "kill", "-s", "STOP", "--kill-whom=main", SERVICE)
        try:
            copy_media(box, "running", (LEDGER_DIR, KEY_DIR, WITNESS))
            copied = counter_value(box)
        finally:
            box.run("systemctl", "kill", "-s", "CONT", "--kill-whom=main", SERVICE)
        deadline = time.monotonic() + 120
        while counter_value(box) <= copied and time.monotonic() < deadline:
            time.sleep(0.5)
        if counter_value(box) > copied:
            break
        # the note went in just before the copy: copy again before the next one
    else:
        raise AssertionError(
            f"the counter did not move with the money after {COPY_ATTEMPTS} copies"
        )
    power_cut(cab)
    copy_media(box, "latest", (LEDGER_DIR, KEY_DIR, WITNESS))
    put_back(box, "running", (LEDGER_DIR, KEY_DIR, WITNESS), spare=("uth.counter",))
    try:
        fault = power_up_fault(cab)
        print(fault)
        assert "counter ahead of the ledger" in fault, fault
        time.sleep(3)
        assert cab.show("SubState")["SubState"] == "running"
    finally:
        box.run("systemctl", "stop", SERVICE, timeout=60)
        put_back(box, "latest", (LEDGER_DIR, KEY_DIR, WITNESS))


def program_tilts(cab: Installed) -> int:
    return int(
        cab.sql("SELECT count(*) FROM events WHERE kind = 'tilt' AND detail LIKE '%program%'") or 0
    )


def test_the_program_check_as_installed_and_a_flipped_byte_tilts_the_next_power_up(
    installed: Installed,
):
    """``uth verify program --seed 00`` and ``uth verify manifest`` pass on the program as
    installed; one byte flipped (by root) in an installed program file fails the manifest
    and makes the next power-up tilt ``program`` (recorded in the ledger); the byte put
    back, the next power-up records no such tilt."""
    cab, box = installed, installed.box
    as_uth = ("runuser", "-u", "uth", "--", UTH, "verify")
    for verb in (("program", "--seed", "00"), ("manifest",)):
        done = box.run(*as_uth, *verb, check=False)
        assert done.returncode == 0, (verb, done.stdout + done.stderr)
    box.run("systemctl", "stop", SERVICE, timeout=60)
    target = box.sh(
        "ls /opt/uth/.venv/lib/python3*/site-packages/kiosk/ledger/media.py"
    ).stdout.strip()
    flip = f"import sys; p = {target!r}; b = bytearray(open(p, 'rb').read()); b[3] ^= 0x20; open(p, 'wb').write(b)"
    before = program_tilts(cab)
    box.run("python3", "-c", flip)
    try:
        assert box.run(*as_uth, "manifest", check=False).returncode != 0
        box.run("systemctl", "start", SERVICE, timeout=90)
        cab.wait_for("the program tilt", lambda: program_tilts(cab) > before, timeout=120)
    finally:
        box.run("systemctl", "stop", SERVICE, timeout=60)
        box.run("python3", "-c", flip)
    tilted = program_tilts(cab)
    assert box.run(*as_uth, "manifest", check=False).returncode == 0
    powered = cab.sql("SELECT count(*) FROM events WHERE kind = 'power_up'")
    box.run("systemctl", "start", SERVICE, timeout=90)
    cab.wait_for(
        "the next power-up",
        lambda: cab.sql("SELECT count(*) FROM events WHERE kind = 'power_up'") != powered,
    )
    time.sleep(3)
    assert program_tilts(cab) == tilted
