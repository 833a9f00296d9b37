"""A paytable with a ``[progressive]`` section is refused where the cabinet does not play
it, naming the file and the section: the RTP check of a caller that does not play the
bet.  The game service plays it (its paytable change, and the first paytable of a new
ledger: ``tests/kiosk/service/test_progressive_first_paytable.py``), and the editor's
draft keeps it and is put in force through that change
(``tests/kiosk/game/test_paytable_editor_session.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.uth.paytable import load_paytable
from kiosk.config import load_config
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError
from kiosk.game.rules.settings import check_rtp

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"


def test_putting_a_progressive_table_in_force_is_refused_with_its_code(tmp_path):
    config = load_config(None, db_path=tmp_path / "uth.db")
    with pytest.raises(ConfigurationError) as refused:
        check_rtp(load_paytable(EXAMPLE), config, None)
    assert refused.value.code is ErrorCode.BET_NOT_OFFERED
    assert "progressive-example.toml: progressive:" in str(refused.value)
