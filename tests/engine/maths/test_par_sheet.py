"""The PAR sheet and the simulation sheet: every figure read back from the HTML equals
``uth par --json`` (``uth simulate --json``), the exact fractions are the report's, the
intervals follow from the exact variances, and on the full deck the standard table's
sheet shows seed 002's published figures and the published pre-flop chart."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import shutil
import subprocess
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from engine.maths.par_sheet import LEVELS, RETURNS, SHEET_ROUNDS, interval, lookup
from engine.uth.paytable import PAYTABLE_DIR
from kiosk.cli import main as cli

pytestmark = pytest.mark.heavy  # three exact analyses and a simulation: about 25 s

STANDARD = str(PAYTABLE_DIR / "standard.toml")
# 7..A in clubs and diamonds: every rule of the game happens (see test_par_reduced)
SMALL_DECK = " ".join(r + s for r in "789TJQKA" for s in "cd")
STRATEGIES = ("optimal", "simple", "cautious")


class Cells(HTMLParser):
    """Every element with a ``data-key``: its attributes and text."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[str, dict[str, str]] = {}
        self.titles: list[str] = []
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "td" and "title" in a:
            self.titles.append(a["title"])
        if "data-key" in a:
            key = a["data-key"]
            if key in self.cells:  # a figure shown twice: the same value, maybe with its fraction
                assert self.cells[key]["data-value"] == a.get("data-value"), key
                self.cells[key].update({k: v for k, v in a.items() if k == "data-exact"})
                self._open = None
                return
            self.cells[key] = {**a, "text": ""}
            self._open = key

    def handle_data(self, data: str) -> None:
        if self._open:
            self.cells[self._open]["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._open = None


def parse(path) -> Cells:
    cells = Cells()
    cells.feed(path.read_text(encoding="utf-8"))
    return cells


def json_of(capsys, args: list[str]) -> dict:
    capsys.readouterr()
    assert cli(args) == 0
    return json.loads(capsys.readouterr().out)


def shown_matches(text: str, value: float) -> bool:
    """The cell's text is the value, rounded as displayed."""
    text = text.strip()
    if text.endswith("%"):
        places = len(text[:-1].split(".")[1])
        return abs(float(text[:-1]) - 100 * value) <= 0.5 * 10**-places + 1e-12
    places = len(text.split(".")[1]) if "." in text else 0
    return abs(float(text) - value) <= 0.5 * 10**-places + 1e-12


def check_against_json(cells: Cells, column: str, data: dict) -> int:
    """Every figure of ``column`` equals the JSON at its path; returns how many."""
    exact_in_json = {f"main.{k}": v for k, v in data["main"].get("exact", {}).items()}
    exact_in_json.update(
        {
            "main.bets.ante.rtp": data["main"].get("exact", {}).get("ante_rtp"),
            "main.bets.blind.rtp": data["main"].get("exact", {}).get("blind_rtp"),
            "main.bets.play.rtp": data["main"].get("exact", {}).get("play_rtp"),
            "trips.rtp": data["trips"].get("rtp_exact"),
        }
    )
    checked = 0
    for key, cell in cells.cells.items():
        owner, _, path = key.partition(":")
        if owner != column or path.startswith(("ci95.", "ci99.")):
            continue
        if path.startswith("interval."):
            _, name, n, level = path.split(".")
            if n not in data["interval"][name]:  # a simulation's own N: from the JSON's figures
                rtp = lookup(data, dict(RETURNS)[name])
                var = Fraction(data["return_variance"][name])
                value = list(interval(rtp, var, int(n), dict(LEVELS)[level]))
            else:
                value = lookup(data, path)
            assert [float(cell["data-low"]), float(cell["data-high"])] == value, key
            checked += 1
            continue
        value = lookup(data, path)  # every figure of the sheet has a path in the JSON
        if path.startswith("sigma."):  # its exact variance is in the JSON too
            assert float(cell["data-value"]) == value, key
            assert cell["data-variance"] == data["return_variance"][path.split(".")[1]], key
        elif isinstance(value, str):  # a pre-flop decision
            assert cell["data-value"] == value, key
        else:
            assert float(cell["data-value"]) == value, key
            assert shown_matches(cell["text"], value) or cell.get("data-exact"), (key, cell)
            exact = cell.get("data-exact")
            if exact:
                assert math.isclose(float(Fraction(exact)), value, rel_tol=1e-12, abs_tol=1e-15), (
                    key
                )
                if exact_in_json.get(path):
                    assert Fraction(exact) == Fraction(exact_in_json[path]), key
        checked += 1
    return checked


REQUIRED = [path for _, path in RETURNS] + [
    "main.bets.ante.house_edge_per_ante",
    "main.bets.blind.house_edge_per_ante",
    "main.bets.play.house_edge_per_ante",
    "main.house_edge_per_ante",
    "main.element_of_risk",
    "main.sd_antes",
    "main.variance_antes",
    "trips.sd",
    "trips.house_edge",
    *(f"main.decisions.{d}" for d in ("4x", "3x", "2x", "1x", "fold")),
    *(
        f"main.blind_lines.{n}.{w}"
        for n in (
            "royal_flush",
            "straight_flush",
            "four_of_a_kind",
            "full_house",
            "flush",
            "straight",
        )
        for w in ("hit_frequency", "contribution")
    ),
]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The small deck's sheet and JSON of the three strategies."""
    tmp = tmp_path_factory.mktemp("sheet")
    cache, sheet = tmp / "cache", tmp / "par.html"
    base = ["par", STANDARD, "--deck", SMALL_DECK, "--workers", "1", "--cache-dir", str(cache)]
    assert cli([*base, "--sheet", str(sheet)]) == 0
    return sheet, cache, base


def test_every_figure_of_the_sheet_is_the_json(small, capsys):
    sheet, _, base = small
    cells = parse(sheet)
    for strategy in STRATEGIES:
        data = json_of(capsys, [*base, "--strategy", strategy, "--json"])
        assert check_against_json(cells, strategy, data) >= 60
        for path in REQUIRED:
            assert f"{strategy}:{path}" in cells.cells, (strategy, path)
    text = sheet.read_text()
    for part in (
        "Paytable and rules",
        "qualifies with a pair",
        "500:1",
        "Trips",
        "uth par",
        "--strategy simple --json",
        "uth simulate",
    ):
        assert part in text, part


def test_exact_variances_and_intervals_follow_from_the_json(small, capsys):
    sheet, _, base = small
    cells = parse(sheet).cells
    for strategy in STRATEGIES:
        data = json_of(capsys, [*base, "--strategy", strategy, "--json"])
        sigma = {
            name: Fraction(cells[f"{strategy}:sigma.{name}"]["data-variance"])
            for name, _ in RETURNS
        }
        assert math.isclose(
            math.sqrt(sigma["rtp_initial_main_bet"]), data["main"]["sd_antes"], rel_tol=1e-12
        )
        assert math.isclose(math.sqrt(sigma["trips"]), data["trips"]["sd"], rel_tol=1e-12)
        variance = Fraction(cells[f"{strategy}:main.variance_antes"]["data-exact"])
        assert sigma["rtp_initial_main_bet"] == variance
        for name, path in RETURNS:
            rtp = lookup(data, path)
            for n in SHEET_ROUNDS:
                for level, z in LEVELS:
                    c = cells[f"{strategy}:interval.{name}.{n}.{level}"]
                    half = z * math.sqrt(float(sigma[name]) / n)
                    assert math.isclose(float(c["data-low"]), rtp - half, rel_tol=1e-12)
                    assert math.isclose(float(c["data-high"]), rtp + half, rel_tol=1e-12)


def test_the_grid_holds_169_cells_and_the_decks_hands(small, capsys):
    sheet, _, base = small
    cells = parse(sheet)
    data = json_of(capsys, [*base, "--strategy", "optimal", "--json"])
    grid = [k for k in cells.cells if k.startswith("optimal:preflop.") and k.endswith(".decision")]
    assert len(cells.titles) == 3 * 169  # a grid per strategy
    assert len(grid) == len(data["preflop"]) == 8 + 28 + 28
    for hand, p in data["preflop"].items():
        assert cells.cells[f"optimal:preflop.{hand}.decision"]["data-value"] == p["decision"]


def test_the_simulation_sheet_is_its_json_and_falls_where_the_exact_figures_say(
    small, tmp_path, capsys
):
    _, cache, _ = small
    args = [
        "simulate",
        STANDARD,
        "--deck",
        SMALL_DECK,
        "--rounds",
        "200000",
        "--strategy",
        "simple",
        "--seed",
        "3",
        "--workers",
        "1",
        "--cache-dir",
        str(cache),
    ]
    data = json_of(capsys, [*args, "--json"])
    sheet = tmp_path / "sim.html"
    assert cli([*args, "--sheet", str(sheet)]) == 0
    cells = parse(sheet)
    assert check_against_json(cells, "simulated", data) >= 40
    exact = json_of(
        capsys,
        [
            "par",
            STANDARD,
            "--deck",
            SMALL_DECK,
            "--strategy",
            "simple",
            "--workers",
            "1",
            "--cache-dir",
            str(cache),
            "--json",
        ],
    )
    assert check_against_json(cells, "exact", exact) >= 40
    for name, path in RETURNS:
        for level in ("ci95", "ci99"):
            c = cells.cells[f"simulated:{level}.{name}"]
            assert [float(c["data-low"]), float(c["data-high"])] == data[level][name]
        ci = cells.cells[f"exact:interval.{name}.200000.99%"]
        assert float(ci["data-low"]) <= lookup(data, path) <= float(ci["data-high"]), name
    assert "NO" not in sheet.read_text().split("against the exact figures")[1].split("</table>")[0]


#: A4 in PostScript points (210 x 297 mm), and how far a PDF's page may differ from it.
A4 = (595.28, 841.89)
TOLERANCE_PT = 1.0


def printed_words(sheet, pdf) -> tuple[list[tuple[float, float]], list[tuple[float, float, str]]]:
    """Print ``sheet`` to ``pdf`` with headless Chromium, as a browser's print would, and
    read it back with poppler's ``pdftotext -bbox``: each page's size and each word's
    left and right edges (points) and text."""
    chromium, pdftotext = shutil.which("chromium"), shutil.which("pdftotext")
    if not chromium or not pdftotext:
        pytest.skip("needs chromium and pdftotext (poppler-utils), as scripts/test installs")
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={pdf}", sheet.resolve().as_uri()],
        capture_output=True, timeout=180, check=True,
    )  # fmt: skip
    boxes = subprocess.run([pdftotext, "-bbox", str(pdf), "-"], capture_output=True,
                           text=True, timeout=60, check=True).stdout  # fmt: skip
    pages = [(float(w), float(h)) for w, h in
             re.findall(r'<page width="([\d.]+)" height="([\d.]+)">', boxes)]  # fmt: skip
    words = [(float(a), float(b), html_text) for a, b, html_text in re.findall(
        r'<word xMin="([\d.-]+)" yMin="[\d.-]+" xMax="([\d.-]+)" yMax="[\d.-]+">([^<]*)</word>',
        boxes)]  # fmt: skip
    return pages, words


def assert_printable_on_a4(sheet, pdf) -> list[str]:
    """Every page A4, every word inside it, and every table's right-hand column (its
    "JSON path" heading) printed; returns the words."""
    pages, words = printed_words(sheet, pdf)
    assert pages and all(abs(w - A4[0]) <= TOLERANCE_PT and abs(h - A4[1]) <= TOLERANCE_PT
                         for w, h in pages), pages  # fmt: skip
    outside = [(a, b, t) for a, b, t in words if a < 0 or b > A4[0]]
    assert outside == []
    # each table's right-hand column is headed "JSON path" (and the commands say it once)
    headings = sheet.read_text(encoding="utf-8").count("JSON path")
    texts = [t for *_, t in words]
    pairs = sum(a == "JSON" and b == "path" for a, b in zip(texts, texts[1:], strict=False))
    assert headings > 5 and pairs == headings
    # and every cell of that column whole (a clipped one prints as "main.rtp_total_m")
    paths = re.findall(r"<td class='l path'><code>([^<]+)</code>", sheet.read_text("utf-8"))
    assert len(paths) > 40 and [p for p in paths if p not in set(texts)] == []
    return texts


def test_the_sheet_prints_on_a4_with_its_identification(small, tmp_path):
    sheet, _, _ = small
    words = assert_printable_on_a4(sheet, tmp_path / "sheet.pdf")
    text = sheet.read_text(encoding="utf-8")
    ident = dict(re.findall(r"<code data-id='([^']+)'>([^<]*)</code>", text))
    from kiosk.integrity.digest import program_digest
    from kiosk.integrity.manifest import software_version

    assert ident["Date"] == dt.datetime.now(dt.UTC).date().isoformat()
    assert ident["Program"] == f"uth-cabinet {software_version()}"
    assert ident["Program SHA-256"] == program_digest(b"", runtime=False)
    assert ident["Paytable SHA-256"] in text and len(ident["Paytable SHA-256"]) == 64
    assert "data-id='approval'></td>" in text  # a blank field to fill in by hand
    for shown in (ident["Date"], "Approval"):
        assert shown in words
    joined = "".join(words)
    assert ident["Program SHA-256"] in joined and ident["Paytable SHA-256"] in joined


def test_the_approval_identity_can_be_printed_in_its_field(small, tmp_path):
    _, cache, base = small
    sheet = tmp_path / "approved.html"
    assert cli([*base, "--sheet", str(sheet), "--strategies", "optimal",
                "--approval", "GLI-11 cert <MO-123-UTH-25-01>"]) == 0  # fmt: skip
    assert "data-id='approval'>GLI-11 cert &lt;MO-123-UTH-25-01&gt;</td>" in sheet.read_text(
        encoding="utf-8"
    )


def test_a_bad_strategy_or_sheet_path_is_refused(small, tmp_path, capsys):
    _, cache, base = small
    assert cli([*base, "--sheet", str(tmp_path / "x.html"), "--strategies", "optimal,bold"]) == 2
    assert "unknown strategy 'bold'" in capsys.readouterr().err
    assert cli([*base, "--sheet", str(tmp_path / "no" / "x.html"), "--strategies", "simple"]) == 2
    assert "cannot write the sheet" in capsys.readouterr().err


#: The published pre-flop chart's edges (raise 4x with 33+, any ace, K2s+, K5o+, Q6s+,
#: Q8o+, J8s+, JTo; check the rest).
PUBLISHED_CHART = {
    "AA": "4x",
    "33": "4x",
    "22": "check",
    "A2o": "4x",
    "A2s": "4x",
    "K2s": "4x",
    "K5o": "4x",
    "K4o": "check",
    "Q6s": "4x",
    "Q5s": "check",
    "Q8o": "4x",
    "Q7o": "check",
    "J8s": "4x",
    "J7s": "check",
    "JTo": "4x",
    "J9o": "check",
    "T9s": "check",
    "72o": "check",
}


def test_the_standard_tables_sheet_shows_seed_002(standard_optimal_par, tmp_path, capsys):
    """Seed 002: total main bet 99.47%, initial main bet 97.82%, Trips 96.50%."""
    _, cache = standard_optimal_par
    sheet = tmp_path / "standard.html"
    base = ["par", STANDARD, "--cache-dir", str(cache)]
    assert cli([*base, "--sheet", str(sheet), "--strategies", "optimal"]) == 0
    cells = parse(sheet)
    data = json_of(capsys, [*base, "--json"])
    assert check_against_json(cells, "optimal", data) >= 500
    shown = {
        p: cells.cells[f"optimal:{p}"]
        for p in ("main.rtp_total_main_bet", "main.rtp_initial_main_bet", "trips.rtp")
    }
    assert {p: c["text"] for p, c in shown.items()} == {
        "main.rtp_total_main_bet": "99.4738%",
        "main.rtp_initial_main_bet": "97.8150%",
        "trips.rtp": "96.5021%",
    }
    assert {p: round(100 * float(c["data-value"]), 2) for p, c in shown.items()} == {
        "main.rtp_total_main_bet": 99.47,
        "main.rtp_initial_main_bet": 97.82,
        "trips.rtp": 96.50,
    }
    grid = {
        k.split(".")[1]: c["data-value"]
        for k, c in cells.cells.items()
        if k.startswith("optimal:preflop.") and k.endswith(".decision")
    }
    assert len(grid) == 169 and sum(d == "4x" for d in grid.values()) == 69
    assert {h: grid[h] for h in PUBLISHED_CHART} == PUBLISHED_CHART
    # the full deck's long exact fractions, printed on A4: every column inside the page
    assert_printable_on_a4(sheet, tmp_path / "standard.pdf")
