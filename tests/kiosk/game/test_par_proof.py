"""The exact RTP a paytable change relies on is bound to that paytable and to this cabinet:
the PAR cache's report must name the table's SHA-256 and carry a proof MAC'd with the
cabinet key.  Real cabinets here: a real ledger and key, a real cache folder."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from engine.maths.cache import cached_rtp, report_path, store_report
from engine.maths.par_report import ParReport
from engine.maths.par_tables import FULL_DECK
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, Paytable, load_paytable
from kiosk.cli import main as cli
from kiosk.config import load_config
from kiosk.game.commands import OperatorLogin, SetDoor, SetPaytable
from kiosk.game.errors import ConfigurationError
from kiosk.game.paytables.par_proof import (
    ProofError,
    proof_path,
    proven_rtp,
    sign_proof,
    verify_proof,
)
from kiosk.ledger.key import CabinetKey
from kiosk.wiring.lone_cabinet import LoneCabinet

STANDARD_PATH = PAYTABLE_DIR / "standard.toml"
GOOD_PATH = PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml"
FIGURES = {"main_total": 0.9947, "trips": 0.965}


def report_of(table: Paytable, main_total: float = 0.9947, trips: float = 0.965) -> ParReport:
    """A full-deck exact optimal report of ``table`` with the given RTPs (fractions of 1)."""
    bets = {"ante": {"rtp": 0.51}, "blind": {"rtp": -0.07}, "play": {"rtp": 1.21}}
    return ParReport(
        strategy="optimal",
        paytable_sha256=table.sha256,
        paytable_name=table.name,
        exact=True,
        main={"rtp_total_main_bet": main_total, "rtp_initial_main_bet": 0.9782, "bets": bets},
        trips={"rtp": trips},
        preflop={"hands": 169},
        seconds=12.5,
    )


def rogue_table(folder: Path) -> Path:
    """The standard table with the Blind straight paying 40:1."""
    text = STANDARD_PATH.read_text()
    blind = text.index("[blind]")
    head, tail = text[:blind], text[blind:]
    path = folder / "rogue.toml"
    path.write_text(head + tail.replace('straight = "1:1"', 'straight = "40:1"', 1))
    return path


def stored(table: Paytable, cache: Path) -> Path:
    return report_path(table, "optimal", FULL_DECK, cache)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "par"
    monkeypatch.setenv("UTH_PAR_CACHE", str(folder))
    return folder


@pytest.fixture
def cabinet(tmp_path, cache):
    config = load_config(db_path=tmp_path / "uth.db")
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    m.station.execute(OperatorLogin("2222"))  # a technician
    m.station.execute(SetDoor(True))  # configuration changes need the main door open
    yield m, CabinetKey.load(config.key_path)
    m.close()


def refused(m: LoneCabinet, path: Path, code: str, reason: str) -> None:
    with pytest.raises(ConfigurationError, match=reason) as err:
        m.station.execute(SetPaytable(path))
    assert err.value.code == code, err.value


# -- the engine ---------------------------------------------------------------------------
def test_the_engine_ignores_a_report_copied_under_another_tables_name(tmp_path, cache):
    standard, rogue = load_paytable(STANDARD_PATH), load_paytable(rogue_table(tmp_path))
    assert rogue.sha256 != standard.sha256
    store_report(report_of(standard), stored(standard, cache))
    assert cached_rtp(standard)["main_total"] == 0.9947
    shutil.copy(stored(standard, cache), stored(rogue, cache))
    assert cached_rtp(rogue) is None


# -- proofs -------------------------------------------------------------------------------
def test_a_signed_proof_holds_only_for_its_table_its_report_and_its_key(tmp_path, cache):
    key, other_key = CabinetKey(b"k" * 32), CabinetKey(b"o" * 32)
    standard, rogue = load_paytable(STANDARD_PATH), load_paytable(rogue_table(tmp_path))
    assert proven_rtp(key, standard) is None  # nothing signed yet
    with pytest.raises(ProofError, match="no PAR report"):
        verify_proof(key, standard)
    with pytest.raises(ProofError, match="names paytable"):
        sign_proof(key, rogue, report_of(standard))  # a report of another table
    with pytest.raises(ProofError, match="exact full-deck"):
        sign_proof(key, standard, dataclasses.replace(report_of(standard), deck_size=16))
    sign_proof(key, standard, report_of(standard))
    assert proven_rtp(key, standard) == report_of(standard).rtps()
    with pytest.raises(ProofError, match="another|this cabinet's key"):
        verify_proof(other_key, standard)
    with pytest.raises(ProofError, match="no cabinet key"):
        verify_proof(None, standard)
    # the report and its proof copied under the rogue table's name
    shutil.copy(stored(standard, cache), stored(rogue, cache))
    shutil.copy(proof_path(standard), proof_path(rogue))
    with pytest.raises(ProofError, match="names paytable"):
        verify_proof(key, rogue)
    # ... and edited by hand to the rogue's hash: the MAC fails
    doc = json.loads(stored(rogue, cache).read_text())
    doc["paytable_sha256"] = rogue.sha256
    stored(rogue, cache).write_text(json.dumps(doc))
    with pytest.raises(ProofError, match="altered"):
        verify_proof(key, rogue)
    # the standard's report edited after signing
    doc = json.loads(stored(standard, cache).read_text())
    doc["trips"]["rtp"] = 0.99
    stored(standard, cache).write_text(json.dumps(doc))
    assert proven_rtp(key, standard) is None


# -- the cabinet --------------------------------------------------------------------------
def test_a_rogue_table_under_the_standard_tables_report_is_refused(tmp_path, cache, cabinet):
    m, key = cabinet
    standard, path = load_paytable(STANDARD_PATH), rogue_table(tmp_path)
    rogue = load_paytable(path)
    sign_proof(key, standard, report_of(standard))
    # the standard's signed report and proof copied under the rogue's name
    shutil.copy(stored(standard, cache), stored(rogue, cache))
    shutil.copy(proof_path(standard), proof_path(rogue))
    refused(m, path, "rtp_unknown", "is not known")
    # ... edited to name the rogue table: the engine reads it, the proof refuses it
    doc = json.loads(stored(rogue, cache).read_text())
    doc["paytable_sha256"] = rogue.sha256
    stored(rogue, cache).write_text(json.dumps(doc))
    assert cached_rtp(rogue)["main_total"] == 0.9947
    refused(m, path, "rtp_unproven", r"not proven on this cabinet: .*altered after signing")
    # ... or proven with another cabinet's key
    sign_proof(CabinetKey(b"x" * 32), rogue, report_of(rogue))
    refused(m, path, "rtp_unproven", "not signed with this cabinet's key")
    # ... or not signed at all
    proof_path(rogue).unlink()
    refused(m, path, "rtp_unproven", "no signed proof")
    assert m.station.snapshot().paytable.sha256 == standard.sha256
    assert m.table.ledger.last_event("paytable_changed") is None


def test_a_table_proven_on_this_cabinet_is_accepted_and_an_edited_one_refused(cache, cabinet):
    m, key = cabinet
    good = load_paytable(GOOD_PATH)
    sign_proof(key, good, report_of(good, 0.9947, 0.9650))
    m.station.execute(SetPaytable(GOOD_PATH))
    assert m.station.snapshot().paytable.sha256 == good.sha256
    ev = m.table.ledger.last_event("paytable_changed")
    assert ev.detail["new"]["sha256"] == good.sha256
    assert ev.detail["rtp"]["main_total"] == 99.47 and ev.detail["rtp"]["trips"] == 96.5
    # the report edited after signing: the next change to it is refused
    standard = load_paytable(STANDARD_PATH)
    sign_proof(key, standard, report_of(standard))
    doc = json.loads(stored(standard, cache).read_text())
    doc["main"]["rtp_total_main_bet"] = 0.9990
    stored(standard, cache).write_text(json.dumps(doc))
    refused(m, STANDARD_PATH, "rtp_unproven", "altered after signing")
    assert m.station.snapshot().paytable.sha256 == good.sha256


# -- uth paytable check -------------------------------------------------------------------
def cabinet_config(tmp_path: Path) -> tuple[Path, CabinetKey]:
    key_path = tmp_path / "keys" / "cabinet.key"
    key = CabinetKey.create(key_path)
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'demo = true\ndb_path = "{tmp_path / "uth.db"}"\nledger_key_path = "{key_path}"\n'
    )
    return path, key


def test_paytable_check_signs_what_it_computed_and_not_the_cache(
    tmp_path, cache, capsys, monkeypatch
):
    monkeypatch.delenv("UTH_CONFIG", raising=False)
    config, key = cabinet_config(tmp_path)
    good = load_paytable(GOOD_PATH)
    store_report(report_of(good, 0.9999, 0.9999), stored(good, cache))  # planted in the cache
    computed = []

    def par(table, strategy, **kw):
        assert Path(kw["cache"]) != cache  # a scratch folder: nothing cached is trusted
        computed.append(table.sha256)
        return report_of(table)

    monkeypatch.setattr("engine.maths.par.par", par)
    argv = ["paytable", "check", str(GOOD_PATH), "--cache-dir", str(cache)]
    assert cli([*argv, "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert computed == [good.sha256]
    assert "99.4700%" in out and "Proof: signed with the cabinet key" in out
    assert key.fingerprint in out
    assert proven_rtp(key, good) == report_of(good).rtps()  # the planted figures are gone
    assert cli([*argv, "--config", str(config)]) == 0  # proven already: nothing computed
    assert "already signed" in capsys.readouterr().out and len(computed) == 1
    # without the cabinet's key: the figures as cached, and said to be unsigned
    other = tmp_path / "elsewhere.toml"
    other.write_text(f'demo = true\ndb_path = "{tmp_path / "none" / "uth.db"}"\n')
    assert cli([*argv, "--config", str(other)]) == 0
    out = capsys.readouterr().out
    assert "Proof: unsigned" in out and "will not accept" in out and len(computed) == 1
