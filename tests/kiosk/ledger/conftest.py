"""The ledger tests share the cabinet test helpers of ``tests/kiosk`` (``tito_helpers``):
that folder is put on the import path, as pytest does for the tests that live in it."""

from __future__ import annotations

import sys
from pathlib import Path

_KIOSK_TESTS = str(Path(__file__).resolve().parents[1])
if _KIOSK_TESTS not in sys.path:
    sys.path.insert(0, _KIOSK_TESTS)
