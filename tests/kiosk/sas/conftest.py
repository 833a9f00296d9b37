"""The cabinet on its SAS line (see :mod:`tests.support.sas_rig`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.sas_rig import Rig, start_rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = start_rig(tmp_path / "uth.db")
    yield r
    r.stop()
