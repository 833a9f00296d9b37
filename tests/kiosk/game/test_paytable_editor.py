"""A paytable made from another: ``uth paytable new`` and the cabinet's editing session.

The exact analysis is replaced by a fixed report where only the plumbing is tested; the
figures of a real derived table are computed once (seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.maths.par_report import ParReport
from engine.uth.paytable import (
    PAYTABLE_DIR,
    Paytable,
    PaytableError,
    load_paytable,
    parse_paytable,
)
from kiosk.cli import main as cli
from kiosk.config import load_config
from kiosk.game.paytables.draft import (
    EditError,
    derive,
    line_refusals,
    parse_edit,
    paytable_toml,
    rtp_refusals,
)
from kiosk.game.paytables.par_proof import proven_rtp
from kiosk.ledger.key import CabinetKey

STANDARD_PATH = PAYTABLE_DIR / "standard.toml"
EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"


def report_of(table: Paytable, main_total: float = 0.9978, trips: float = 0.991) -> ParReport:
    bets = {"ante": {"rtp": 0.834}, "blind": {"rtp": 0.698}, "play": {"rtp": 1.213}}
    return ParReport(
        strategy="optimal",
        paytable_sha256=table.sha256,
        paytable_name=table.name,
        exact=True,
        main={"rtp_total_main_bet": main_total, "rtp_initial_main_bet": 0.991, "bets": bets},
        trips={"rtp": trips},
        preflop={"hands": 169},
        seconds=3.0,
    )


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "par"
    monkeypatch.setenv("UTH_PAR_CACHE", str(folder))
    monkeypatch.delenv("UTH_CONFIG", raising=False)
    return folder


def cabinet_config(tmp_path: Path, extra: str = "") -> tuple[Path, CabinetKey]:
    key_path = tmp_path / "keys" / "cabinet.key"
    key = CabinetKey.create(key_path)
    path = tmp_path / "cabinet.toml"
    path.write_text(
        f'demo = true\ndb_path = "{tmp_path / "uth.db"}"\nledger_key_path = "{key_path}"\n'
        + extra
    )
    return path, key


# -- drafts -------------------------------------------------------------------------------
def test_a_derived_table_is_the_base_with_its_edits_and_reads_back_identically():
    base = load_paytable(STANDARD_PATH)
    edits = [parse_edit("blind.flush=2:1"), parse_edit("trips.full_house = 9:1")]
    edits.append(parse_edit("limits.ante_max=100000"))
    table = derive(base, edits)
    assert str(table.blind.flush) == "2:1" and str(table.trips.full_house) == "9:1"
    assert table.limits.ante_max == 100000
    assert table.blind.straight == base.blind.straight and table.trips.flush == base.trips.flush
    again = derive(table, [])
    assert again.sha256 == table.sha256  # canonical text, canonical hash
    assert paytable_toml(table) == paytable_toml(again)


def test_a_derived_table_keeps_its_progressive_and_writes_it_back():
    base = load_paytable(EXAMPLE)
    assert base.progressive is not None
    table = derive(base, [parse_edit("blind.flush=2:1"), ("name", "Custom")])
    assert table.progressive == base.progressive and str(table.blind.flush) == "2:1"
    text = paytable_toml(table)
    assert "[progressive]" in text and "[progressive.awards]" in text
    written = parse_paytable(text, "custom.toml")
    assert written.progressive == base.progressive and written.sha256 == table.sha256
    assert derive(table, []).sha256 == table.sha256  # canonical text, canonical hash
    with pytest.raises(EditError, match="only blind"):  # kept as it is: no edit names it
        derive(base, [parse_edit("progressive.reset=2000000")])
    assert "progressive" not in paytable_toml(load_paytable(STANDARD_PATH))


@pytest.mark.parametrize(
    ("edit", "error", "reason"),
    [
        ("blind.flush", EditError, "FIELD=VALUE"),
        ("blind.flsh=2:1", EditError, "unknown field"),
        ("dealer.qualifies_with=ace", EditError, "only blind"),
        ("limits.ante_max=big", EditError, "whole number"),
        ("blind.flush=0:1", PaytableError, "positive"),
        ("limits.ante_max=123", PaytableError, "above ante_max"),
    ],
)
def test_an_edit_the_rules_refuse_is_refused_with_its_reason(edit, error, reason):
    with pytest.raises(error, match=reason):
        derive(load_paytable(STANDARD_PATH), [parse_edit(edit)])


def test_the_bounds_refuse_a_pay_value_a_limit_and_an_rtp_outside_them(tmp_path):
    config = load_config(
        cabinet_config(
            tmp_path,
            '[paytable_bounds]\npays = {"blind.flush" = ["3:2", "2:1"]}\n'
            "rtp_pct = {blind = [60.0, 69.0]}\nlimits = {ante_max = [500, 60000]}\n",
        )[0]
    )
    base = load_paytable(STANDARD_PATH)
    assert line_refusals(derive(base, [("blind.flush", "4:2")]), config) == []  # 4:2 is 2:1
    bad = derive(base, [("blind.flush", "5:2"), ("limits.ante_max", "100000")])
    assert [r.field for r in line_refusals(bad, config)] == ["blind.flush", "limits.ante_max"]
    rtps = report_of(bad).rtps()
    assert [r.field for r in rtp_refusals(rtps, config)] == ["rtp.blind"]
    assert [r.field for r in rtp_refusals({**rtps, "trips": 1.001}, config)] == [
        "rtp.blind",
        "rtp.trips",
    ]


# -- uth paytable new ---------------------------------------------------------------------
def test_paytable_new_writes_a_valid_file_prints_its_rtp_and_signs_it(
    tmp_path, cache, capsys, monkeypatch
):
    config, key = cabinet_config(tmp_path)
    computed = []

    def par(table, strategy, **kw):
        computed.append(table.sha256)
        return report_of(table)

    monkeypatch.setattr("engine.maths.par.par", par)
    out = tmp_path / "custom.toml"
    argv = ["paytable", "new", str(STANDARD_PATH), "--set", "blind.flush=2:1"]
    argv += ["--set", "trips.full_house=9:1", "--name", "Custom", "-o", str(out)]
    assert cli([*argv, "--config", str(config), "--cache-dir", str(cache)]) == 0
    text = capsys.readouterr().out
    table = load_paytable(out)
    assert (table.name, str(table.blind.flush), str(table.trips.full_house)) == (
        "Custom",
        "2:1",
        "9:1",
    )
    assert computed == [table.sha256] and table.sha256 in text
    assert "99.7800%" in text and "Proof: signed with the cabinet key" in text
    assert proven_rtp(key, table, cache=cache) == report_of(table).rtps()
    # an existing file is kept; a refused edit writes nothing
    assert cli([*argv, "--config", str(config)]) == 2
    assert "exists" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    assert cli(["paytable", "new", str(STANDARD_PATH), "--set", "blind.flush=0:1", "-o", str(bad)]) == 2
    assert "positive" in capsys.readouterr().out and not bad.exists()


@pytest.mark.heavy
def test_paytable_new_prints_the_exact_par_of_the_derived_table(tmp_path, cache, capsys):
    out = tmp_path / "custom.toml"
    argv = ["paytable", "new", str(STANDARD_PATH), "--set", "blind.flush=2:1"]
    assert cli([*argv, "--set", "trips.full_house=9:1", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Main game, per total wager    99.7834%" in text
    assert "Trips                         99.0982%" in text
    assert "Proof: unsigned" in text
