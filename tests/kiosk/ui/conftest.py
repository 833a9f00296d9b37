"""The screen tests' one kiosk maker (the harness of ``test_ui.py``)."""

from __future__ import annotations

import pytest
from test_ui import Kiosk

from kiosk.ui import i18n


@pytest.fixture
def kiosks(tmp_path):
    """Make kiosks (``kiosks(*decks, size=(w, h))``) for a test; closed after it, and the
    language set back to English."""
    made: list[Kiosk] = []

    def make(*decks, size=(800, 480)) -> Kiosk:
        k = Kiosk(tmp_path / f"k{len(made)}", size, *decks)
        made.append(k)
        return k

    yield make
    for k in made:
        k.close()
    i18n.set_language("en")
