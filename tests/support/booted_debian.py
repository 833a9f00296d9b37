"""A Debian bookworm root with systemd, built once with ``debootstrap`` and booted with
``systemd-nspawn``: the installed cabinet's test bench.

    root = cached_root("amd64")                  # /var/cache/uth-tests/bookworm-amd64-<key>.tar
    with BootedDebian(root, work, witness=True) as box:
        box.run("systemctl", "is-system-running")

The root is built by ``debootstrap`` with :data:`PACKAGES` (systemd, Python, the SDL
libraries ``systemd/install.sh`` installs) and kept as a tarball named by a digest of the
architecture, the suite and the package list under :data:`CACHE` (outside the checkout
and outside the tests' private home, so a later run unpacks it in seconds instead of
building it in minutes).  :func:`why_not` says why this machine cannot boot one (not
root, a tool missing, no network to build the first root) or ``None`` when it can.

The container shares the host's network (pip inside reaches the package index); it
trusts the host's certificate authorities (the host's bundle is copied in) and the host's
``/etc/pip.conf``.  The witness folder ``/mnt/witness`` is a tmpfs of the container's own:
another filesystem than the ledger's folder, as the cabinet's second medium must be.
Commands run inside through ``nsenter`` into the booted system's namespaces.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
#: built roots, kept between runs (outside the checkout and the tests' home)
CACHE = Path(os.environ.get("UTH_ROOT_CACHE", "/var/cache/uth-tests"))
#: what the root holds besides debootstrap's minbase: an init, the tools the install and
#: the test use, and the packages ``systemd/install.sh`` installs (so its apt step is quick)
PACKAGES = (
    "systemd", "systemd-sysv", "dbus", "udev", "ca-certificates", "procps", "sqlite3",
    "python3", "python3-venv", "python3-dev",
    "libsdl2-2.0-0", "libsdl2-ttf-2.0-0", "libsdl2-mixer-2.0-0", "libsdl2-image-2.0-0",
    "libdrm2", "libgbm1", "alsa-utils",
)  # fmt: skip
HOST_TOOLS = ("debootstrap", "systemd-nspawn", "nsenter", "tar")
WITNESS = "/mnt/witness"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
PIP_CONF = Path("/etc/pip.conf")
#: a clean environment for commands inside (none of the host's variables leak in)
INSIDE_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/root",
    "DEBIAN_FRONTEND": "noninteractive",
    "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt",
}


class BootError(RuntimeError):
    """The root could not be built, booted, or a command inside it failed."""


def cache_key(arch: str) -> str:
    """The digest naming a built root: the architecture, the suite and the package list."""
    text = "\n".join([arch, SUITE, MIRROR, *sorted(PACKAGES)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def root_tarball(arch: str) -> Path:
    return CACHE / f"{SUITE}-{arch}-{cache_key(arch)}.tar"


def why_not(arch: str = "amd64") -> str | None:
    """Why this machine cannot build and boot the root, or ``None`` when it can."""
    if os.geteuid() != 0:
        return "needs root (debootstrap, systemd-nspawn and nsenter run as root)"
    missing = [tool for tool in HOST_TOOLS if shutil.which(tool) is None]
    if missing:
        return f"missing host tools: {', '.join(missing)} (apt-get install debootstrap systemd-container)"
    if arch != host_arch() and not Path(f"/usr/bin/qemu-{_qemu_name(arch)}-static").exists():
        return f"no qemu-{_qemu_name(arch)}-static for an {arch} root (apt-get install qemu-user-static)"
    if not root_tarball(arch).exists():
        try:
            subprocess.run(
                ["getent", "hosts", "deb.debian.org"], check=True, capture_output=True, timeout=20
            )
        except (subprocess.SubprocessError, OSError):
            return f"no cached root at {root_tarball(arch)} and no network to build one (deb.debian.org)"
    return None


def host_arch() -> str:
    out = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=False
    )
    return out.stdout.strip() or "amd64"


def _qemu_name(arch: str) -> str:
    return {"arm64": "aarch64", "armhf": "arm", "amd64": "x86_64"}.get(arch, arch)


def cached_root(arch: str = "amd64", log=print) -> Path:
    """The tarball of a built root for ``arch``, built by ``debootstrap`` when missing."""
    tarball = root_tarball(arch)
    if tarball.exists():
        return tarball
    CACHE.mkdir(parents=True, exist_ok=True)
    build = CACHE / f"build-{arch}-{os.getpid()}"
    shutil.rmtree(build, ignore_errors=True)
    started = time.monotonic()
    log(f"building the {SUITE} {arch} root with debootstrap (cached at {tarball})")
    cmd = ["debootstrap", "--variant=minbase", f"--arch={arch}", f"--include={','.join(PACKAGES)}", SUITE,
           str(build), MIRROR]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        shutil.rmtree(build, ignore_errors=True)
        raise BootError(
            f"debootstrap failed ({run.returncode}): {run.stdout[-2000:]}{run.stderr[-2000:]}"
        )
    # the apt lists stay: install.sh's apt-get install finds its packages without a download
    partial = tarball.with_suffix(f".{os.getpid()}.partial")
    subprocess.run(
        ["tar", "-C", str(build), "--numeric-owner", "--xattrs", "-cf", str(partial), "."],
        check=True,
    )
    partial.rename(tarball)
    shutil.rmtree(build, ignore_errors=True)
    log(f"built in {time.monotonic() - started:.0f} s")
    return tarball


def unpack_root(tarball: Path, into: Path) -> Path:
    into.mkdir(parents=True)
    subprocess.run(
        ["tar", "-C", str(into), "--numeric-owner", "--xattrs", "-xpf", str(tarball)], check=True
    )
    return into


def copy_checkout(source: Path, root: Path, inside: str = "/root/uth-src") -> str:
    """The checkout's files (no virtual environment, git data, caches or local data) at
    ``inside`` in the root."""
    target = root / inside.lstrip("/")
    target.mkdir(parents=True)
    excludes = [".venv", ".git", "var", "test-artifacts", "__pycache__", "*.egg-info", ".ruff_cache",
                ".pytest_cache", ".mypy_cache"]  # fmt: skip
    pack = subprocess.Popen(["tar", "-C", str(source), *[f"--exclude={e}" for e in excludes], "-cf", "-", "."],
                            stdout=subprocess.PIPE)  # fmt: skip
    subprocess.run(["tar", "-C", str(target), "-xf", "-"], stdin=pack.stdout, check=True)
    pack.wait()
    return inside


class BootedDebian:
    """The root at ``root`` booted under ``systemd-nspawn`` (the host's network, a tmpfs
    at :data:`WITNESS`); :meth:`run` runs a command inside it."""

    def __init__(self, root: Path, log_path: Path) -> None:
        self.root = root
        self.log_path = log_path
        self.nspawn: subprocess.Popen[bytes] | None = None
        self.leader = 0

    def __enter__(self) -> BootedDebian:
        self._trust_host_index()
        env = dict(os.environ, SYSTEMD_NSPAWN_UNIFIED_HIERARCHY="1")
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in __exit__)
        cmd = ["systemd-nspawn", "--register=no", "--keep-unit", "--boot", "--console=pipe", "-D", str(self.root),
               f"--tmpfs={WITNESS}:mode=0755", "--machine=uth-installed"]  # fmt: skip
        self.nspawn = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                       env=env)  # fmt: skip
        try:
            self.leader = self._find_leader(timeout=60)
            self._wait_booted(timeout=120)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.nspawn is not None and self.nspawn.poll() is None:
            if self.leader:
                subprocess.run(["nsenter", "-t", str(self.leader), "-a", "systemctl", "poweroff", "--no-block"],
                               capture_output=True, check=False, timeout=30)  # fmt: skip
            try:
                self.nspawn.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.nspawn.kill()
                self.nspawn.wait()
        self._log.close()

    def _trust_host_index(self) -> None:
        """The host's certificate authorities and pip configuration, so pip inside reaches
        the same package index as the host."""
        shutil.copy2(CA_BUNDLE, self.root / CA_BUNDLE.relative_to("/"))
        if PIP_CONF.exists():
            shutil.copy2(PIP_CONF, self.root / PIP_CONF.relative_to("/"))

    def _find_leader(self, timeout: float) -> int:
        """The container's init (the host's PID of the systemd it booted)."""
        assert self.nspawn is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.nspawn.poll() is not None:
                raise BootError(
                    f"systemd-nspawn exited {self.nspawn.returncode}: {self.log_path.read_text()[-3000:]}"
                )
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    status = (entry / "status").read_text()
                    comm = (entry / "comm").read_text().strip()
                except OSError:
                    continue
                ppid = next(
                    (line.split()[1] for line in status.splitlines() if line.startswith("PPid:")),
                    "",
                )
                if ppid == str(self.nspawn.pid) and comm == "systemd":
                    return int(entry.name)
            time.sleep(0.2)
        raise BootError(
            f"no init under systemd-nspawn after {timeout:.0f} s: {self.log_path.read_text()[-3000:]}"
        )

    def _wait_booted(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            state = self.run("systemctl", "is-system-running", check=False).stdout.strip()
            if state in ("running", "degraded"):
                return
            time.sleep(0.5)
        raise BootError(
            f"the container did not finish booting ({state!r}): {self.log_path.read_text()[-3000:]}"
        )

    def run(self, *cmd: str, check: bool = True, timeout: float = 600, env: dict[str, str] | None = None,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
        """``cmd`` inside the booted system, as root, in a clean environment."""
        inside = dict(INSIDE_ENV, **(env or {}))
        full = [
            "nsenter",
            "-t",
            str(self.leader),
            "-a",
            "env",
            "-i",
            *[f"{k}={v}" for k, v in inside.items()],
            *cmd,
        ]
        done = subprocess.run(
            full, capture_output=True, text=True, timeout=timeout, input=stdin, check=False
        )
        if check and done.returncode != 0:
            raise BootError(
                f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
            )
        return done

    def sh(
        self, script: str, check: bool = True, timeout: float = 600
    ) -> subprocess.CompletedProcess[str]:
        return self.run("sh", "-c", script, check=check, timeout=timeout)


def run_in_root(root: Path, *cmd: str, env: dict[str, str] | None = None, timeout: float = 3600,
                log=None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``cmd`` in the root under ``systemd-nspawn`` without booting it (as a chroot that
    builds an SD image: no systemd and no udevd running), with a tmpfs at :data:`WITNESS`."""
    inside = dict(INSIDE_ENV, **(env or {}))
    shutil.copy2(CA_BUNDLE, root / CA_BUNDLE.relative_to("/"))
    if PIP_CONF.exists():
        shutil.copy2(PIP_CONF, root / PIP_CONF.relative_to("/"))
    full = ["systemd-nspawn", "--register=no", "--keep-unit", "--quiet", "--console=pipe", "-D", str(root),
            f"--tmpfs={WITNESS}:mode=0755", *[f"--setenv={k}={v}" for k, v in inside.items()], *cmd]  # fmt: skip
    host_env = dict(os.environ, SYSTEMD_NSPAWN_UNIFIED_HIERARCHY="1")
    return subprocess.run(full, stdin=subprocess.DEVNULL, capture_output=log is None, stdout=log,
                          stderr=subprocess.STDOUT if log is not None else None, text=True, timeout=timeout,
                          env=host_env, check=False)  # fmt: skip
