"""Exact analysis: Trips, pay-line sensitivity, re-derived decisions, report, cache, CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from engine.hands.categories import HandCategory
from engine.maths.cache import cached_par, cached_rtp, load_par_baseline
from engine.maths.optimal import river_terms
from engine.maths.par import main_analysis, par, seven_card_category_counts, trips_rtp
from engine.maths.par_flop import main_params
from engine.maths.par_main import analyse_with_baseline
from engine.maths.par_report import cell_values
from engine.maths.river_table import N_BOARD_CLASSES
from engine.maths.simulate import simulate
from engine.maths.strategies import get_strategy
from engine.uth.paytable import PAYTABLE_DIR, load_paytable, parse_paytable, shipped_paytables
from engine.uth.settlement import settle
from kiosk.cli import main as cli

C = HandCategory
STANDARD_PATH = PAYTABLE_DIR / "standard.toml"
STANDARD = load_paytable(STANDARD_PATH)
# 7..A in clubs and diamonds: flushes, straights, dealers who do not qualify (see test_par_reduced)
SMALL_DECK = tuple(sorted(4 * r + s for r in range(5, 13) for s in range(2)))
SMALL_DECK_TEXT = " ".join("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in SMALL_DECK)

# Published counts of the 133,784,560 seven-card hands by category.
SEVEN_CARD_COUNTS = {
    C.ROYAL_FLUSH: 4_324,
    C.STRAIGHT_FLUSH: 37_260,
    C.FOUR_OF_A_KIND: 224_848,
    C.FULL_HOUSE: 3_473_184,
    C.FLUSH: 4_047_644,
    C.STRAIGHT: 6_180_020,
    C.THREE_OF_A_KIND: 6_461_620,
    C.TWO_PAIR: 31_433_400,
    C.PAIR: 58_627_800,
    C.HIGH_CARD: 23_294_460,
}


@pytest.fixture(autouse=True, scope="module")
def _private_par_cache(tmp_path_factory):
    """Keep the tests' results out of the user's PAR cache (and its stale results out of them)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UTH_PAR_CACHE", str(tmp_path_factory.mktemp("par-cache")))
        yield


def with_lines(table_text: str, section: str, **lines: str) -> str:
    """The TOML text with some pay lines of ``section`` replaced."""
    out, current = [], None
    for line in table_text.splitlines():
        s = line.strip()
        if s.startswith("["):
            current = s.strip("[]")
        key = s.split("=")[0].strip()
        if current == section and key in lines:
            line = f'{key} = "{lines[key]}"'
        out.append(line)
    return "\n".join(out) + "\n"


# -- Trips -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seven_card_counts(tmp_path_factory):
    """Computed, not read from a cache: the enumeration itself is under test."""
    return seven_card_category_counts(cache=tmp_path_factory.mktemp("cats"), fresh=True)


@pytest.mark.heavy
def test_seven_card_category_counts(seven_card_counts):
    assert {C(k): int(v) for k, v in enumerate(seven_card_counts)} == SEVEN_CARD_COUNTS


def test_trips_rtp_of_the_published_tables(seven_card_counts):
    assert trips_rtp(STANDARD) == sum(
        Fraction(int(seven_card_counts[c]), 133_784_560) * (1 + p.ratio)
        for c, p in STANDARD.trips.lines().items()
    )
    assert round(float(trips_rtp(STANDARD)) * 100, 3) == 96.502  # 50-40-30-8-7-4-3
    alt = load_paytable(PAYTABLE_DIR / "trips-50-40-30-8-6-5-3.toml")
    assert round(float(trips_rtp(alt)) * 100, 3) == 98.096


@pytest.mark.heavy
@pytest.mark.parametrize("path", shipped_paytables(), ids=lambda p: p.stem)
def test_trips_rtp_of_every_shipped_table(path, seven_card_counts):
    table = load_paytable(path)
    total = sum(SEVEN_CARD_COUNTS.values())
    want = sum(
        Fraction(SEVEN_CARD_COUNTS[c], total) * (1 + p.ratio)
        for c, p in table.trips.lines().items()
    )
    assert trips_rtp(table) == want
    assert 0.9 < want < 1.0


# -- the payoff model is the settlement's ------------------------------------------------------


def _cases():
    """A (player, dealer) strength pair for every reachable (category, outcome) cell."""
    from engine.hands.categories import category_floors

    floors = category_floors()
    pair = floors[C.PAIR]
    for k in range(10):
        ps = 7462 if k == C.ROYAL_FLUSH else floors[k] + 1
        dealers = {
            0: max(pair, ps - 1) if ps - 1 >= pair else None,  # win, dealer qualifies
            1: 1,  # win, dealer does not qualify
            2: ps if ps >= pair else None,  # push, qualifying
            3: ps if ps < pair else None,  # push, not qualifying
            4: max(ps + 1, pair) if ps < 7462 else None,  # loss, qualifying
            5: ps + 1 if ps + 1 < pair else None,  # loss, dealer does not qualify
        }
        for o, ds in dealers.items():
            if ds is not None:
                yield k, o, ps, ds


def test_cell_values_agree_with_settle():
    """Every (Play multiple, category, outcome) cell: the analysis's returns are settle's."""
    values = cell_values(STANDARD)
    cases = list(_cases())
    assert {o for _, o, _, _ in cases} == set(range(6))
    for k, o, ps, ds in cases:
        for m in range(5):
            res = settle(2, 2 * m, 2, m == 0, ps, ds, STANDARD)
            got = [
                Fraction(int(getattr(res, f"{f}_return")), 2)
                for f in ("ante", "blind", "play", "trips")
            ]
            want = [values[f][m][k][o] for f in ("ante", "blind", "play", "trips")]
            assert got == want, (
                f"multiple {m}",
                C(k).name,
                ["WQ", "WNQ", "PQ", "PNQ", "LQ", "LNQ"][o],
            )


# -- pay lines and decisions -------------------------------------------------------------------


def _exact(rep, key):
    n, d = rep.main["exact"][key].split("/")
    return Fraction(int(n), int(d))


def _line(rep, name):
    n, d = rep.main["blind_lines"][name]["contribution_exact"].split("/")
    return Fraction(int(n), int(d))


@pytest.mark.heavy
def test_raising_a_blind_line_moves_the_rtp_by_its_contribution(tmp_path):
    text = STANDARD_PATH.read_text()
    richer = parse_paytable(with_lines(text, "blind", straight="2:1"), "richer")
    for strategy in ("simple", "cautious"):
        old = par(STANDARD, strategy, deck=SMALL_DECK, workers=1, cache=tmp_path)
        new = par(richer, strategy, deck=SMALL_DECK, workers=1, cache=tmp_path)
        moved = _exact(new, "rtp_initial_main_bet") - _exact(old, "rtp_initial_main_bet")
        assert moved > 0
        assert moved == _line(new, "straight") - _line(old, "straight")
        assert moved == _line(old, "straight")  # the straight pays 1 more: its 1:1 contribution
    # optimal play re-optimises: the move lies between the line's hit rate before and after
    old = par(STANDARD, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path)
    new = par(richer, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path)
    moved = _exact(new, "rtp_initial_main_bet") - _exact(old, "rtp_initial_main_bet")
    assert _line(old, "straight") <= moved <= _line(new, "straight") / 2


@pytest.mark.heavy
def test_optimal_decisions_are_re_derived_for_each_blind_table(tmp_path):
    text = STANDARD_PATH.read_text()
    # a Blind paying 50:1 on straights: playing a straight on a scary board gets better
    generous = parse_paytable(with_lines(text, "blind", straight="50:1"), "generous")
    a = main_analysis(STANDARD, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path)
    b = main_analysis(generous, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path)
    played = a.game_counts()[1:].sum(), b.game_counts()[1:].sum()
    assert played[1] > played[0]  # more hands played to the showdown: decisions re-derived
    values_a, values_b = cell_values(STANDARD), cell_values(generous)
    for ev, analysis in ((a.option_ev(values_a), a), (b.option_ev(values_b), b)):
        for c, options in enumerate(ev):  # pre-flop: the best option for this table
            best = max(options, key=lambda k: (options[k], k == "check"))
            assert {"4x": 4, "3x": 3, "check": 0}[best] == analysis.preflop[c]
    # optimal beats every other strategy, on each table
    for table in (STANDARD, generous):
        best = par(table, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path).main[
            "rtp_initial_main_bet"
        ]
        for other in ("simple", "cautious"):
            assert (
                best
                >= par(table, other, deck=SMALL_DECK, workers=1, cache=tmp_path).main[
                    "rtp_initial_main_bet"
                ]
            )


def test_report_is_consistent(tmp_path):
    rep = par(STANDARD, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path)
    m = rep.main
    assert sum(m["decisions"].values()) == pytest.approx(1)
    o = m["outcomes"]
    assert o["win"] + o["push"] + o["loss"] + o["fold"] == pytest.approx(1)
    assert m["decisions"]["fold"] == o["fold"]
    assert m["element_of_risk"] == pytest.approx(
        m["house_edge_per_ante"] / m["average_total_wager"]
    )
    assert m["rtp_total_main_bet"] == pytest.approx(1 - m["element_of_risk"])
    assert m["rtp_initial_main_bet"] == pytest.approx(1 - m["house_edge_per_ante"])
    bets = m["bets"]
    total = (
        bets["ante"]["rtp"]
        + bets["blind"]["rtp"]
        + bets["play"]["rtp"] * bets["play"]["average_stake"]
    )
    assert total / m["average_total_wager"] == pytest.approx(m["rtp_total_main_bet"])
    edges = sum(b["house_edge_per_ante"] for b in bets.values())
    assert edges == pytest.approx(m["house_edge_per_ante"])
    assert len(rep.preflop) == 8 + 28 + 28  # two suits: 8 pairs, 28 suited and 28 offsuit hands
    for p in rep.preflop.values():
        best = max(p["ev"].values())
        assert p["ev"][p["decision"]] == best


def test_player_categories_match_the_seven_card_counts(tmp_path):
    """Summed over every deal, the player's final category follows the 7-card counts."""
    a = main_analysis(STANDARD, "simple", deck=SMALL_DECK, workers=1, cache=tmp_path)
    by_cat = a.game_counts().sum(axis=(0, 2))
    cats = seven_card_category_counts(SMALL_DECK, cache=tmp_path)
    assert np.array_equal(by_cat * int(cats.sum()), cats * int(by_cat.sum()))
    assert np.array_equal(a.category_counts, cats)


# -- cache and command line --------------------------------------------------------------------


def test_cache_is_keyed_by_paytable_and_strategy(tmp_path):
    assert cached_par(STANDARD, "simple", deck=SMALL_DECK, cache=tmp_path) is None
    rep = par(STANDARD, "simple", deck=SMALL_DECK, workers=1, cache=tmp_path)
    again = cached_par(STANDARD, "simple", deck=SMALL_DECK, cache=tmp_path)
    assert again is not None and again.main == rep.main
    assert cached_par(STANDARD, "cautious", deck=SMALL_DECK, cache=tmp_path) is None
    # same Blind table, other Trips: built at once from the cached main analysis
    other = load_paytable(PAYTABLE_DIR / "trips-50-40-30-8-6-5-3.toml")
    rep2 = cached_par(other, "simple", deck=SMALL_DECK, cache=tmp_path)
    assert rep2 is not None and rep2.paytable_sha256 == other.sha256
    assert rep2.main == rep.main and rep2.trips["rtp"] != rep.trips["rtp"]
    # another Blind table is not in the cache
    richer = parse_paytable(
        with_lines(STANDARD_PATH.read_text(), "blind", straight="2:1"), "richer"
    )
    assert cached_par(richer, "simple", deck=SMALL_DECK, cache=tmp_path) is None
    assert cached_rtp(STANDARD, cache=tmp_path) is None  # full-deck optimal not cached here


def test_cli_par_json(tmp_path, capsys):
    code = cli(
        [
            "par",
            str(STANDARD_PATH),
            "--deck",
            SMALL_DECK_TEXT,
            "--json",
            "--workers",
            "1",
            "--cache-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("strategy", "paytable_sha256", "preflop", "seconds", "main", "trips"):
        assert key in out
    for key in (
        "house_edge_per_ante",
        "element_of_risk",
        "rtp_total_main_bet",
        "rtp_initial_main_bet",
        "sd_antes",
        "decisions",
        "outcomes",
    ):
        assert key in out["main"]
    assert "rtp" in out["trips"] and "lines" in out["trips"]
    assert out["strategy"] == "optimal" and out["paytable_sha256"] == STANDARD.sha256
    assert set(out["main"]["decisions"]) == {"4x", "3x", "2x", "1x", "fold"}
    first = next(iter(out["preflop"].values()))
    assert set(first["ev"]) == {"4x", "3x", "check"} and first["decision"] in ("4x", "3x", "check")


def test_cli_par_text(tmp_path, capsys):
    assert (
        cli(
            [
                "par",
                str(STANDARD_PATH),
                "--deck",
                SMALL_DECK_TEXT,
                "--strategy",
                "cautious",
                "--workers",
                "1",
                "--cache-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "RTP, total main bet" in out and "Trips" in out and "strategy cautious" in out


def test_cli_par_bad_paytable(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\n")
    assert cli(["par", str(bad)]) == 2
    assert "error" in capsys.readouterr().err


def _fake_optimal_report(tmp_path, main_total: float, trips: float) -> None:
    """Put an optimal report for the standard table in a cache (the check's plumbing is under
    test here, not the numbers)."""
    import dataclasses

    from engine.maths.cache import report_path as _report_path

    rep = par(STANDARD, "optimal", deck=SMALL_DECK, workers=1, cache=tmp_path / "small")
    main = dict(rep.main, rtp_total_main_bet=main_total)
    fake = dataclasses.replace(rep, main=main, trips=dict(rep.trips, rtp=trips), deck_size=52)
    path = _report_path(STANDARD, "optimal", tuple(range(52)), tmp_path)
    path.write_text(fake.to_json())


def test_paytable_check_prints_rtps_and_accepts(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("UTH_CONFIG", raising=False)
    _fake_optimal_report(tmp_path, 0.9947, 0.9650)
    assert cli(["paytable", "check", str(STANDARD_PATH), "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Standard" in out and "Royal Flush" in out  # the validation output is kept
    assert "99.4700%" in out and "96.5000%" in out and "within" in out


def test_paytable_check_refuses_out_of_bounds(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("UTH_CONFIG", raising=False)
    _fake_optimal_report(tmp_path, 0.9947, 0.9650)
    assert (
        cli(
            [
                "paytable",
                "check",
                str(STANDARD_PATH),
                "--cache-dir",
                str(tmp_path),
                "--min-rtp",
                "97",
            ]
        )
        == 2
    )
    out = capsys.readouterr().out
    assert "Trips RTP 96.5000% is outside the bounds 97% to 100%" in out
    _fake_optimal_report(tmp_path, 1.0123, 0.9650)
    assert cli(["paytable", "check", str(STANDARD_PATH), "--cache-dir", str(tmp_path)]) == 2
    assert "main game RTP 101.2300% is outside" in capsys.readouterr().out


def test_paytable_check_reads_bounds_from_the_cabinet_config(tmp_path, capsys, monkeypatch):
    pytest.importorskip("kiosk.config")
    cfg = tmp_path / "cabinet.toml"
    cfg.write_text("rtp_min_pct = 99.5\nrtp_max_pct = 100.0\n")
    monkeypatch.setenv("UTH_CONFIG", str(cfg))
    _fake_optimal_report(tmp_path, 0.9947, 0.9960)
    assert cli(["paytable", "check", str(STANDARD_PATH), "--cache-dir", str(tmp_path)]) == 2
    assert "main game RTP 99.4700% is outside the bounds 99.5% to 100%" in capsys.readouterr().out


# -- the full analysis (about two minutes on two cores; CI runs it) ----------------------------


@pytest.mark.slow
def test_full_optimal_analysis_reproduces_seed_002(standard_optimal_par):
    """Seed 002: total main bet 99.47%, initial main bet 97.82%, Trips 96.50% (perfect play)."""
    rep, _ = standard_optimal_par
    assert round(100 * rep.main["rtp_total_main_bet"], 2) == 99.47
    assert round(100 * rep.main["rtp_initial_main_bet"], 2) == 97.82
    assert round(100 * rep.trips["rtp"], 2) == 96.50
    assert rep.preflop["AA"]["decision"] == "4x" and rep.preflop["72o"]["decision"] == "check"


@pytest.mark.slow
def test_optimal_play_simulated_agrees_with_the_exact_figures(standard_optimal_par):
    """The whole river table equals the exact river values on random spots, and optimal
    play simulated at speed (pre-flop and flop from the analysis, the river from the
    table) finds the exact figures inside its 99% intervals."""
    rep, cache = standard_optimal_par
    opt = get_strategy("optimal", STANDARD)
    opt.analysis = main_analysis(STANDARD, "optimal", cache=cache)
    river = opt.get_river_table(cache=cache)
    assert len(river.keys) == N_BOARD_CLASSES
    rng = np.random.default_rng(8)
    spots = np.argsort(rng.random((3000, 52)), axis=1)[:, :7]
    A, C, fold = river_terms(spots[:, :2], spots[:, 2:], opt.params)
    assert np.array_equal(river.plays(spots[:, :2], spots[:, 2:]), A + C > fold)
    sim = simulate(STANDARD, 3_000_000, opt, seed=15, workers=2)
    for key in ("rtp_total_main_bet", "rtp_initial_main_bet"):
        lo, hi = sim.extra["ci99"][key]
        assert lo <= rep.main[key] <= hi, (key, rep.main[key], (lo, hi))
    lo, hi = sim.extra["ci99"]["trips"]
    assert lo <= rep.trips["rtp"] <= hi


@pytest.mark.heavy
@pytest.mark.slow
def test_the_baseline_gives_the_whole_analysis_of_another_blind_table(tmp_path):
    """Every flop analysed for a table whose Blind pays differ (straights 50:1, quads 20:1)
    gives the analysis read from the shipped baseline plus its pay-dependent flops, and
    the same baseline: the flops without a pay-dependent spot do not depend on the pays."""
    text = STANDARD_PATH.read_text()
    generous = parse_paytable(
        with_lines(text, "blind", straight="50:1", four_of_a_kind="20:1"), "generous"
    )
    full, rebuilt = analyse_with_baseline(generous)
    shipped = load_par_baseline(main_params(generous).qualify, cache=tmp_path)
    assert shipped is not None
    for name, value in rebuilt.arrays().items():
        assert np.array_equal(value, shipped.arrays()[name]), name
    fast = main_analysis(generous, "optimal", cache=tmp_path)
    for name in ("check_counts", "preflop", "category_counts", "flop_bits"):
        assert np.array_equal(getattr(fast, name), getattr(full, name)), name
    standard = main_analysis(STANDARD, "optimal", cache=tmp_path)
    assert not np.array_equal(standard.game_counts(), fast.game_counts())  # re-optimised
