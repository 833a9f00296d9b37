"""The CI-sized RNG dossier: every part runs, the cabinet's shuffle passes, the biased
shuffles and the weak generator are caught, and the report holds it all."""

from __future__ import annotations

import random
import re
import shutil

import pytest

from engine.rng import SeededRandomSource
from kiosk.commands.rng import QUICK, WEAK_SOURCE, run_dossier
from kiosk.rng_report import CABINET, report_html
from kiosk.rng_tools import parse_dieharder

pytestmark = pytest.mark.heavy


@pytest.fixture(scope="module")
def dossier():
    r = random.Random(7)
    return run_dossier(
        QUICK, "uth rng test --quick", source=SeededRandomSource(3), urandom=r.randbytes
    )


def test_the_seeded_dossier_passes_and_every_test_can_fail(dossier):
    assert [t.name for t in dossier.game if not t.passed] == []
    assert all(dossier.caught_by_bias().values()), dossier.caught_by_bias()
    nist = {run.source: run.verdict for run in dossier.nist}
    assert nist[CABINET].ok and not nist[WEAK_SOURCE].ok
    assert dossier.ok


@pytest.mark.skipif(
    not (shutil.which("ent") and shutil.which("dieharder")),
    reason="Debian's ent and dieharder are not installed",
)
def test_ent_and_dieharder_ran_on_the_draws_and_on_the_weak_generator(dossier):
    tools = {t.name: t for t in dossier.tools}
    assert tools["ent"].ok and "Entropy" in tools["ent"].output
    final = parse_dieharder(tools["dieharder"].output)
    assert tools["dieharder"].ok and final and all(r.assessment != "FAILED" for r in final)
    assert re.search(r"\d+ PASSED", tools["dieharder"].summary)
    assert tools["dieharder"].rewinds == 0  # streamed: never rewound
    weak = tools[f"dieharder, {WEAK_SOURCE}"]
    assert weak.ok and "FAILED" in weak.output


def test_the_report_is_one_file_with_plots_tables_and_commands(dossier, tmp_path):
    text = report_html(dossier)
    for part in (
        "card x position",
        "coupon collector",
        "cut-card shuffle",
        "modulo-biased draws",
        "NIST SP 800-22",
        "NonOverlappingTemplate",
        "uth rng test --quick",
        "uth rng dump --fast --bytes 0 | dieharder -d 0 -p 100 -Y 1 -g 200",
        "Verdict: <b>PASS",
    ):
        assert part in text, part
    images = text.count("data:image/png;base64")
    assert images == 4 or "need matplotlib" in text  # heat map, two game and NIST histograms


def test_the_command_writes_the_report_and_exits_by_its_verdict(tmp_path, capsys):
    from kiosk.cli import main

    report = tmp_path / "dossier.html"
    code = main(["rng", "test", "--quick", "--decks", "5000", "--report", str(report)])
    out = capsys.readouterr().out
    verdict = re.search(r"dossier: (PASS|FAIL)", out)
    assert verdict and code == (0 if verdict.group(1) == "PASS" else 1)
    assert "5,000 decks" in report.read_text()
