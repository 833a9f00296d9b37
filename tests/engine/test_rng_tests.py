"""The RNG dossier's game-level tests pass on the cabinet's shuffle and fail on biased ones."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from engine.rng import DrawTap, SeededRandomSource, SystemRandomSource
from engine.rng_tests import (
    GameTally,
    ModuloBiasedSource,
    chi2_sf,
    cut_card_decks,
    decks,
    dump_bytes,
    game_results,
    run_game_tests,
    tapped_dump,
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


def test_the_dump_is_the_tap_on_the_cabinet_source_running_the_shuffle():
    """The OS bytes the cabinet's source reads, cut to each draw's k bits, are the dump;
    replaying them through the rejection sampling gives the decks the source dealt."""
    rng = random.Random(5)
    read: list[bytes] = []

    def urandom(n: int) -> bytes:
        read.append(rng.randbytes(n))
        return read[-1]

    from engine.rng import shuffled_deck

    tap = DrawTap()
    source = SystemRandomSource(tap, urandom)
    dealt = [shuffled_deck(source), shuffled_deck(source)]
    data = tap.take()
    draws = iter(read)
    widths = [(i + 1).bit_length() for i in range(51, 0, -1)]
    bits = []
    for expected in dealt:  # every byte read is one draw of the step's width (k <= 8)
        deck = list(range(52))
        for i, k in zip(range(51, 0, -1), widths, strict=True):
            while True:
                r = next(draws)[0] >> (8 - k)
                bits.append(f"{r:0{k}b}")
                if r <= i:
                    break
            deck[i], deck[r] = deck[r], deck[i]
        assert deck == expected
    assert "".join(f"{b:08b}" for b in data) == "".join(bits)[: len(data) * 8]
    assert dump_bytes(1000, random.Random(6).randbytes) == b"".join(
        tapped_dump(1000, random.Random(6).randbytes)
    )
    assert len(dump_bytes(1000)) == 1000


def _reader(chunks: list[bytes]):
    it = iter(chunks)

    def urandom(n: int) -> bytes:
        chunk = next(it)
        assert len(chunk) == n
        return chunk

    return urandom


def test_the_cabinet_source_draws_what_secrets_randbits_draws():
    """One draw reads ceil(k / 8) bytes and keeps the top k bits, as secrets.randbits
    does (CPython's SystemRandom.getrandbits)."""
    for n in (2, 3, 52, 200, 256, 1000, 70_000):
        k, size = n.bit_length(), (n.bit_length() + 7) // 8
        data = random.Random(n).randbytes(64 * size)
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        expected = [int.from_bytes(c, "big") >> (8 * size - k) for c in chunks]
        source = SystemRandomSource(urandom=_reader(chunks))
        first_ok = next(v for v in expected if v < n)
        assert source.randbelow(n) == first_ok


@pytest.mark.skipif(shutil.which("ent") is None, reason="Debian's ent is not installed")
def test_ent_sees_the_dump_as_random(tmp_path):
    path = tmp_path / "dump.bin"
    path.write_bytes(dump_bytes(400_000))
    out = subprocess.run(
        ["ent", "-t", str(path)], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    fields = dict(zip(out[0].split(","), out[1].split(","), strict=False))
    assert float(fields["Entropy"]) > 7.99
    assert (
        chi2_sf(float(fields["Chi-square"]), 255) > 0.001
        and abs(float(fields["Serial-Correlation"])) < 0.01
    )


def test_the_dump_command(tmp_path):
    from kiosk.cli import main

    out = tmp_path / "d.bin"
    assert main(["rng", "dump", "--bytes", "4096", "--out", str(out)]) == 0
    assert len(out.read_bytes()) == 4096
    assert main(["rng", "dump", "--bytes", "-1"]) == 2


def test_a_tally_counted_in_batches_equals_one_count_and_streams_merge():
    d = decks(SeededRandomSource(4), 6000)
    whole = {t.name: t for t in run_game_tests(d)}
    tally = GameTally()
    for start in range(0, 6000, 1700):
        tally.add(d[start : start + 1700])
    assert [(t.name, t.statistic) for t in game_results(tally)] == [
        (t.name, pytest.approx(whole[t.name].statistic, rel=1e-9)) for t in game_results(tally)
    ]
    first, second = GameTally(), GameTally()
    first.add(d[:2500])
    second.add(d[2500:])
    first.merge(second)
    assert first.decks == 6000 and first.serial_pairs == 5998  # no pair across streams
    assert (first.positions == tally.positions).all()
    assert first.stream_lengths() == [2500, 3500]
