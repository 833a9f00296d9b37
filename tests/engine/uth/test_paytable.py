from fractions import Fraction
from pathlib import Path

import pytest

from engine.hands.categories import HandCategory
from engine.uth.paytable import PaytableError, load_paytable, parse_paytable, shipped_paytables

STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"


def test_standard_table_is_seed_002():
    t = load_paytable(STANDARD)
    blind = {c: p.ratio for c, p in t.blind.lines().items()}
    assert blind == {
        HandCategory.ROYAL_FLUSH: 500,
        HandCategory.STRAIGHT_FLUSH: 50,
        HandCategory.FOUR_OF_A_KIND: 10,
        HandCategory.FULL_HOUSE: 3,
        HandCategory.FLUSH: Fraction(3, 2),
        HandCategory.STRAIGHT: 1,
    }
    trips = {c: p.ratio for c, p in t.trips.lines().items()}
    assert trips == {
        HandCategory.ROYAL_FLUSH: 50,
        HandCategory.STRAIGHT_FLUSH: 40,
        HandCategory.FOUR_OF_A_KIND: 30,
        HandCategory.FULL_HOUSE: 8,
        HandCategory.FLUSH: 7,
        HandCategory.STRAIGHT: 4,
        HandCategory.THREE_OF_A_KIND: 3,
    }
    assert t.dealer.category == HandCategory.PAIR
    assert t.pay_denominator == 2
    assert isinstance(t.blind.flush.numerator, int)


def test_shipped_variants_load():
    names = {p.stem for p in shipped_paytables()}
    assert {"standard", "trips-50-40-30-8-6-5-3", "trips-50-40-30-9-7-4-3", "trips-50-40-20-7-6-5-3"} <= names
    for p in shipped_paytables():
        t = load_paytable(p)
        assert len(t.sha256) == 64
    variant = load_paytable(STANDARD.with_name("trips-50-40-20-7-6-5-3.toml"))
    assert [int(p.ratio) for p in variant.trips.lines().values()] == [50, 40, 20, 7, 6, 5, 3]


def _edit(old: str, new: str) -> str:
    text = STANDARD.read_text()
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('flush = "3:2"\n', "", "blind.flush", "line is missing"),
        ('full_house = "3:1"', 'full_house = "0:1"', "blind.full_house", "must be positive"),
        ('full_house = "3:1"', 'full_house = "-3:1"', "blind.full_house", "must be positive"),
        ('full_house = "3:1"', 'full_house = "three"', "blind.full_house", "N:D"),
        ('full_house = "3:1"', "full_house = 1.5", "blind.full_house", "N:D"),
        ("ante_min = 500", "ante_min = 90000", "limits", "above ante_max"),
        ("trips_max = 25000", "trips_max = 50", "limits", "above trips_max"),
        ("ante_step = 100", "ante_step = 300", "limits", "multiples of ante_step"),
        ("chips = [100, 500, 2500, 10000]", "chips = [500, 100]", "limits", "increasing"),
        ('qualifies_with = "pair"', 'qualifies_with = "jacks"', "dealer.qualifies_with", "unknown hand"),
        ('name = "Standard"', 'name = "Standard"\nbonus = 1', "bonus", "unknown field"),
        ('straight = "1:1"\n\n[trips]', 'straight = "1:1\n\n[trips]', "(syntax)", ""),
    ],
)
def test_malformed_tables_name_file_field_and_reason(old, new, field, reason):
    with pytest.raises(PaytableError) as err:
        parse_paytable(_edit(old, new), "bad.toml")
    assert err.value.file == "bad.toml"
    assert err.value.field == field
    assert reason in err.value.reason
    assert str(err.value).startswith(f"bad.toml: {field}: ")


def test_missing_file_is_a_paytable_error(tmp_path):
    with pytest.raises(PaytableError) as err:
        load_paytable(tmp_path / "nope.toml")
    assert "nope.toml" in err.value.file


def test_pays_are_reduced_exact_ratios():
    t = parse_paytable(_edit('flush = "3:2"', 'flush = "6:4"'), "x")
    assert (t.blind.flush.numerator, t.blind.flush.denominator) == (3, 2)
    t = parse_paytable(_edit('straight = "1:1"\n\n[trips]', 'straight = "6:5"\n\n[trips]'), "x")
    assert t.pay_denominator == 10


def test_a_modified_copy_gets_a_new_hash_and_new_pays():
    from engine.uth.settlement import pay_arrays

    t = load_paytable(STANDARD)
    blind = t.blind.model_copy(update={"flush": t.blind.straight})
    u = t.model_copy(update={"blind": blind})
    assert u.sha256 != t.sha256
    assert u.blind.flush.ratio == 1
    assert int(pay_arrays(u).blind_num[HandCategory.FLUSH]) == 1
    assert int(pay_arrays(t).blind_num[HandCategory.FLUSH]) == 3
    assert t.model_copy().sha256 == t.sha256


def test_hash_identifies_the_file_bytes():
    a = parse_paytable(STANDARD.read_text(), "a")
    b = parse_paytable(STANDARD.read_text() + "\n# comment\n", "b")
    assert a.sha256 != b.sha256
    assert a.sha256 == load_paytable(STANDARD).sha256


@pytest.mark.slow
def test_cli_check_prints_table_and_exact_rtp_or_error(tmp_path, capsys, standard_optimal_par, monkeypatch):
    from kiosk.cli import main

    monkeypatch.delenv("UTH_CONFIG", raising=False)
    report, cache = standard_optimal_par
    assert main(["paytable", "check", str(STANDARD), "--cache-dir", str(cache)]) == 0
    out = capsys.readouterr().out
    assert "Standard" in out and "3:2" in out
    assert f"{100 * report.main['rtp_total_main_bet']:.4f}%" in out
    assert "99.47" in out and "96.50" in out
    bad = tmp_path / "bad.toml"
    bad.write_text(_edit('flush = "3:2"\n', ""))
    assert main(["paytable", "check", str(bad)]) == 2
    out = capsys.readouterr().out
    assert "bad.toml: blind.flush: line is missing" in out
