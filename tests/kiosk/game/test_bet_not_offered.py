"""A paytable with a ``[progressive]`` section is refused where the cabinet does not play
it yet, naming the file and the section: the RTP check of a caller that does not play
the bet, and the editor's draft (it would be written without its progressive).  The game
service plays it (its paytable change, and the first paytable of a new ledger:
``tests/kiosk/service/test_progressive_first_paytable.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.uth.paytable import load_paytable
from kiosk.config import load_config
from kiosk.game.commands import OperatorLogin, SetDoor
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError
from kiosk.game.paytables.editor import PaytableEditor
from kiosk.game.rules.settings import check_rtp
from kiosk.game.vocabulary import SEAT
from kiosk.pins import DEMO_PINS
from kiosk.station.operator_local import TableOperations
from kiosk.wiring.lone_cabinet import LoneCabinet

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"
MANAGER = DEMO_PINS["manager"]


def test_putting_a_progressive_table_in_force_is_refused_with_its_code(tmp_path):
    config = load_config(None, db_path=tmp_path / "uth.db")
    with pytest.raises(ConfigurationError) as refused:
        check_rtp(load_paytable(EXAMPLE), config, None)
    assert refused.value.code is ErrorCode.BET_NOT_OFFERED
    assert "progressive-example.toml: progressive:" in str(refused.value)


def test_the_editor_does_not_start_a_draft_it_would_write_without_its_progressive(tmp_path):
    cab = LoneCabinet.open(load_config(None, db_path=tmp_path / "uth.db", demo=True))
    try:
        cab.station.execute(SetDoor(True))
        cab.station.execute(OperatorLogin(MANAGER))
        editor = PaytableEditor(TableOperations(cab.table, SEAT, cab.station))
        with pytest.raises(ConfigurationError) as refused:
            editor.start(EXAMPLE)
        assert refused.value.code is ErrorCode.BET_NOT_OFFERED and editor.table is None
    finally:
        cab.close()
