"""The RNG dossier's game-level tests pass on the cabinet's shuffle and fail on biased ones."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from engine.rng import SeededRandomSource
from engine.rng_tests import (
    GameTally,
    ModuloBiasedSource,
    RecordingSource,
    chi2_sf,
    cut_card_decks,
    decks,
    dump_bytes,
    game_results,
    run_game_tests,
)

N = 20_000


@pytest.fixture(scope="module")
def good():
    return {t.name: t for t in run_game_tests(decks(SeededRandomSource(1), N))}


def test_every_game_test_passes_on_the_cabinet_shuffle(good):
    failed = [(n, t.p_value) for n, t in good.items() if not t.passed]
    assert failed == []
    assert len(good["card x position"].p_values) == 52


def test_the_modulo_biased_source_fails_the_position_tests():
    result = {t.name: t for t in run_game_tests(decks(ModuloBiasedSource(1), N))}
    assert not result["card x position"].passed
    assert not result["seat first card (7 seats)"].passed


def test_the_cut_card_shuffle_fails_every_test():
    result = run_game_tests(cut_card_decks(1, N))
    assert [t.name for t in result if t.passed] == []


def test_chi2_tail_matches_the_reference():
    # reference values: scipy.stats.chi2.sf
    assert chi2_sf(2700, 2601) == pytest.approx(0.08615871653443165, rel=1e-9)
    assert chi2_sf(30, 9) == pytest.approx(0.00043872177097947936, rel=1e-9)
    assert chi2_sf(0.5, 1) == pytest.approx(0.47950012218695337, rel=1e-9)


def test_the_dump_is_the_raw_bits_the_shuffle_draws():
    """Replaying the recorded k-bit draws through the rejection sampling gives the deck."""
    rng = random.Random(5)
    draws: list[tuple[int, int]] = []

    def randbits(k: int) -> int:
        r = rng.getrandbits(k)
        draws.append((k, r))
        return r

    source = RecordingSource(randbits)
    from engine.rng import shuffled_deck

    shuffled_deck(source)
    shuffled_deck(source)
    data = source.take()
    bits = "".join(f"{r:0{k}b}" for k, r in draws)
    assert "".join(f"{b:08b}" for b in data) == bits[: len(data) * 8]
    assert len(dump_bytes(1000)) == 1000


@pytest.mark.skipif(shutil.which("ent") is None, reason="Debian's ent is not installed")
def test_ent_sees_the_dump_as_random(tmp_path):
    path = tmp_path / "dump.bin"
    path.write_bytes(dump_bytes(400_000))
    out = subprocess.run(["ent", "-t", str(path)], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    fields = dict(zip(out[0].split(","), out[1].split(","), strict=False))
    assert float(fields["Entropy"]) > 7.99
    assert chi2_sf(float(fields["Chi-square"]), 255) > 0.001 and abs(float(fields["Serial-Correlation"])) < 0.01


def test_the_dump_command(tmp_path):
    from kiosk.cli import main

    out = tmp_path / "d.bin"
    assert main(["rng", "dump", "--bytes", "4096", "--out", str(out)]) == 0
    assert len(out.read_bytes()) == 4096
    assert main(["rng", "dump", "--bytes", "0"]) == 2


def test_a_tally_counted_in_batches_equals_one_count_and_streams_merge():
    d = decks(SeededRandomSource(4), 6000)
    whole = {t.name: t for t in run_game_tests(d)}
    tally = GameTally()
    for start in range(0, 6000, 1700):
        tally.add(d[start:start + 1700])
    assert [(t.name, t.statistic) for t in game_results(tally)] == [
        (t.name, pytest.approx(whole[t.name].statistic, rel=1e-9)) for t in game_results(tally)]
    first, second = GameTally(), GameTally()
    first.add(d[:2500])
    second.add(d[2500:])
    first.merge(second)
    assert first.decks == 6000 and first.serial_pairs == 5998  # no pair across streams
    assert (first.positions == tally.positions).all()
    assert first.stream_lengths() == [2500, 3500]
