"""``uth rng deal``: the outcome file holds what the game service deals, in the layout the
README documents."""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

from engine.rng import SeededRandomSource
from engine.rng_tests.outcomes import (
    HEADER_BYTES,
    MAGIC,
    OutcomeFileError,
    decode_outcomes,
    read_outcomes,
    record_bytes,
    write_outcomes,
)
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from engine.uth.round import BOARD_POSITIONS, DEALER_POSITIONS, HOLE_POSITIONS, Action

README = Path(__file__).resolve().parents[2] / "README.md"


def outcomes(seed: int, rounds: int, seats: int):
    buffer = io.BytesIO()
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    write_outcomes(buffer, SeededRandomSource(seed), table, rounds, seats)
    return buffer.getvalue()


def test_the_file_holds_the_round_the_cabinet_deals_from_the_same_source(tmp_path):
    from support.cabinet import insert_note

    from kiosk.config import load_config
    from kiosk.game import commands as cmd
    from kiosk.wiring.lone_cabinet import LoneCabinet

    config = load_config(db_path=tmp_path / "uth.db", decision_values=False)
    cab = LoneCabinet.open(config, rng=SeededRandomSource(11))
    machine = cab.station  # the screens' controller
    ante = machine.snapshot().limits.ante_min
    insert_note(cab, 10_000)
    machine.execute(cmd.PlaceChip("ante", ante))
    machine.execute(cmd.Deal())
    machine.execute(cmd.Decide(Action.CHECK))
    machine.execute(cmd.Decide(Action.CHECK))
    machine.execute(cmd.Decide(Action.FOLD))
    shown = machine.snapshot()
    cab.close()
    got = decode_outcomes(outcomes(11, 1, 1))
    assert got.rounds == 1 and got.seats == 1
    assert tuple(got.holes[0, 0]) == shown.hole
    assert tuple(got.dealer[0]) == shown.dealer
    assert tuple(got.board[0]) == shown.board
    assert bytes(got.commitments[0]).hex() == shown.commitment


def test_seven_seats_decode_to_their_deck_positions_and_commitments():
    got = decode_outcomes(outcomes(5, 40, 7))
    assert got.rounds == 40 and got.holes.shape == (40, 7, 2)
    for i in range(got.rounds):
        deck = got.decks[i]
        assert sorted(deck.tolist()) == list(range(52))
        for seat in range(1, 8):
            assert tuple(got.holes[i, seat - 1]) == tuple(deck[list(HOLE_POSITIONS[seat])])
        assert tuple(got.dealer[i]) == tuple(deck[list(DEALER_POSITIONS)])
        assert tuple(got.board[i]) == tuple(deck[list(BOARD_POSITIONS)])
        digest = hashlib.sha256(bytes(got.salts[i]) + bytes(deck)).digest()
        assert digest == bytes(got.commitments[i])
    assert len(set(map(bytes, got.decks))) == 40


def test_the_layout_is_the_one_the_readme_documents():
    data = outcomes(1, 3, 2)
    assert data[:8] == MAGIC and data[8] == 2 and data[9:16] == bytes(7)
    assert len(data) == HEADER_BYTES + 3 * record_bytes(2) == 16 + 3 * (2 * 2 + 107)
    text = README.read_text()
    assert "`UTHDEAL1`" in text and re.search(r"2 S \+ 107", text)
    with pytest.raises(OutcomeFileError):
        decode_outcomes(data[:-1])
    with pytest.raises(OutcomeFileError):
        decode_outcomes(b"NOTADEAL" + data[8:])


def test_the_command_writes_the_file(tmp_path, capsys):
    from kiosk.cli import main

    out = tmp_path / "outcomes.bin"
    assert main(["rng", "deal", "--rounds", "200", "--seats", "3", "--out", str(out)]) == 0
    got = read_outcomes(out)
    assert got.rounds == 200 and got.seats == 3
    assert np.all(np.sort(got.decks, axis=1) == np.arange(52))
    assert "rounds/s" in capsys.readouterr().err
    assert main(["rng", "deal", "--rounds", "1", "--seats", "8", "--out", str(out)]) == 2
