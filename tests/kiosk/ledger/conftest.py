"""The ledger tests share the cabinet test helpers of ``tests/kiosk`` (``tito_helpers``):
that folder is put on the import path, as pytest does for the tests that live in it."""

from __future__ import annotations

import sys
from pathlib import Path

_KIOSK_TESTS = str(Path(__file__).resolve().parents[1])
if _KIOSK_TESTS not in sys.path:
    sys.path.insert(0, _KIOSK_TESTS)


import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from kiosk.ledger.media import NO_DISK_ALLOWED  # noqa: E402


@pytest.fixture
def other_medium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on another filesystem than ``tmp_path`` (a tmpfs under /dev/shm), which
    plays the cabinet's second medium; removed after the test.  A tmpfs has no disk
    under it: the test accepts it as another device (:data:`NO_DISK_ALLOWED`)."""
    base = Path("/dev/shm")
    if not base.is_dir() or os.stat(base).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second filesystem (/dev/shm) on this machine")
    monkeypatch.setenv(NO_DISK_ALLOWED, "1")
    folder = Path(tempfile.mkdtemp(prefix="uth-witness-", dir=base))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
