"""``uth par`` and ``uth simulate --progressive`` on a paytable with a progressive."""

import json
from pathlib import Path

from kiosk.cli import main as cli

DATA = Path(__file__).resolve().parents[2] / "data" / "paytables"
EXAMPLE = DATA / "progressive-example.toml"
QUADS = DATA / "progressive-quads.toml"
STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"
#: Twelve cards of three ranks: the exact analysis of the main game takes no time.
SMALL = "Ac Ad Ah Kc Kd Kh Qc Qd Qh As Ks Qs"


def _par(*extra: str, path: Path = EXAMPLE, cache: Path) -> list[str]:
    return [
        "par",
        str(path),
        "--deck",
        SMALL,
        "--strategy",
        "cautious",
        "--workers",
        "1",
        "--cache-dir",
        str(cache),
        *extra,
    ]


def test_par_prints_the_progressive_and_its_return_curve(tmp_path, capsys):
    assert cli(_par("--wagers-per-hour", "100", cache=tmp_path)) == 0
    out = capsys.readouterr().out
    assert "Progressive: 1.00 wager on the first five cards" in out
    assert "royal_flush              4      1.5391e-06  100% of the meter" in out
    assert "break-even meter: 160,530.53" in out
    assert "6,497 at 100 wagers/h" in out
    assert "return curve: 10,000: 55.98%" in out


def test_par_json_carries_the_progressive(tmp_path, capsys):
    assert cli(_par("--json", cache=tmp_path)) == 0
    data = json.loads(capsys.readouterr().out)
    prog = data["progressive"]
    assert prog["wager"] == 100 and prog["top"] == "royal_flush"
    assert prog["lines"][1]["count"] == 36
    assert round(prog["break_even_meter"]) == 16_053_053
    assert prog["return_curve"][0] == {"meter": 1_000_000, "return": 1783 / 3185}
    assert set(prog["hours_between_top"]) == {"60", "420", "1680"}


def test_a_table_without_a_progressive_prints_none(tmp_path, capsys):
    assert cli(_par("--json", path=STANDARD, cache=tmp_path)) == 0
    assert "progressive" not in json.loads(capsys.readouterr().out)
    assert cli(_par(path=STANDARD, cache=tmp_path)) == 0
    assert "Progressive" not in capsys.readouterr().out


def test_a_bad_wagers_per_hour_is_refused(tmp_path, capsys):
    for bad in ("0", "ten", "60,-1"):
        try:
            cli(_par("--wagers-per-hour", bad, cache=tmp_path))
        except SystemExit as exc:
            assert exc.code == 2
        assert "--wagers-per-hour" in capsys.readouterr().err


def test_the_sheet_has_the_progressive_and_its_plot(tmp_path, capsys):
    sheet = tmp_path / "sheet.html"
    args = _par("--sheet", str(sheet), "--strategies", "cautious", cache=tmp_path)
    assert cli(args) == 0
    text = sheet.read_text()
    assert "<h2>Progressive</h2>" in text
    assert "data-id='progressive-plot'" in text and "<polyline" in text
    assert "<span data-id='break-even'>160,530.53</span>" in text


def test_simulate_progressive_checks_the_meter_against_the_exact_figures(capsys):
    args = ["simulate", str(QUADS), "--progressive", "--rounds", "40000", "--seed", "20261206"]
    assert cli([*args, "--stations", "7", "--tables", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["wagers"] == 840_000 and data["top_hits_inside"] and data["meter_at_top_inside"]
    assert cli([*args, "--stations", "2"]) == 0
    assert "top awards (four_of_a_kind)" in capsys.readouterr().out


def test_simulate_progressive_refuses_a_table_without_one_and_a_bad_shape(capsys):
    base = ["simulate", "--progressive", "--rounds", "10", "--seed", "1"]
    assert cli([*base, str(STANDARD)]) == 2
    assert "has no [progressive] table" in capsys.readouterr().err
    assert cli([*base, str(QUADS), "--stations", "8"]) == 2
    assert cli([*base, str(QUADS), "--tables", "0"]) == 2
    assert "--stations takes 1 to 7" in capsys.readouterr().err
