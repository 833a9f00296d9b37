"""The battery-speed dump is the tap on the cabinet's source, bit for bit."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from engine.rng import DrawTap, SystemRandomSource, shuffled_deck
from engine.rng_tests.fastdump import (
    BATCH_DECKS,
    ROW_BYTES,
    _join,
    draw_bits,
    dump_stream,
    pack_draws,
    shuffle_draws,
)


def reference(rows: np.ndarray) -> tuple[np.ndarray, bytes]:
    """Each row of bytes as the OS generator's output for one deck, through the cabinet's
    own source with its tap running the cabinet's shuffle: the decks and the whole bytes
    the tap recorded."""
    cur: list = [None]

    def urandom(n: int) -> bytes:
        return bytes(next(cur[0]) for _ in range(n))

    tap = DrawTap()
    source = SystemRandomSource(tap, urandom)
    out, data = [], b""
    for row in rows:
        cur[0] = iter(row.tolist())
        out.append(shuffled_deck(source))
        data += tap.take()
    return np.array(out), data


def test_the_fast_draws_are_the_tap_on_the_cabinet_source_bit_for_bit():
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 256, (300, 40), dtype=np.uint8)  # short rows: extended on the way
    spare = rng.integers(0, 256, 100_000, dtype=np.uint8)
    given: list[np.ndarray] = []

    def more(n: int) -> np.ndarray:
        start = sum(len(g) for g in given)
        given.append(spare[start : start + n])
        return given[-1]

    draws = shuffle_draws(rows, more, with_decks=True)
    assert given, "some row ran out and was extended"
    full = np.concatenate([rows] + [g.reshape(300, -1) for g in given], axis=1)
    decks, data = reference(full)
    assert (draws.decks == decks).all()
    bits = draw_bits(draws.values, draws.widths)
    assert (np.unpackbits(np.frombuffer(data, np.uint8)) == bits[: len(data) * 8]).all()
    assert draws.per_deck.sum() == len(draws.values) and set(draws.widths) <= {2, 3, 4, 5, 6}
    packed, rest_value, rest_bits = pack_draws(draws.values, draws.widths)
    assert (np.unpackbits(np.frombuffer(packed, np.uint8)) == bits[: len(packed) * 8]).all()
    assert rest_bits == len(bits) - 8 * len(packed)
    assert format(rest_value, f"0{rest_bits}b") == "".join(map(str, bits[len(packed) * 8 :]))


def test_the_stream_carries_bits_across_batches():
    rng = np.random.default_rng(9)
    source = rng.integers(0, 256, 4_000_000, dtype=np.uint8).tobytes()

    def reader():
        at = [0]

        def urandom(n: int) -> bytes:
            at[0] += n
            return source[at[0] - n : at[0]]

        return urandom

    small = b"".join(dump_stream(20_000, reader(), batch=100))
    urandom = reader()
    rows = [
        np.frombuffer(urandom(100 * ROW_BYTES), np.uint8).reshape(100, ROW_BYTES) for _ in range(12)
    ]
    bits = np.concatenate(
        [draw_bits(*(lambda d: (d.values, d.widths))(shuffle_draws(r))) for r in rows]
    )
    assert (np.unpackbits(np.frombuffer(small, np.uint8)) == bits[: len(small) * 8]).all()


def skewed(seed: int):
    """Bytes whose every other one is at least 0xF0: rejected at most steps, so rows run
    out and are extended."""
    r = random.Random(seed)

    def urandom(n: int) -> bytes:
        b = bytearray(r.randbytes(n))
        for i in range(0, n, 2):
            b[i] |= 0xF0
        return bytes(b)

    return urandom


def last_deck_stuck(seed: int):
    """Random bytes, but the first batch's last deck rejects its whole row: that batch's
    last part runs out after its first parts were shuffled."""
    r = random.Random(seed)
    calls = [0]

    def urandom(n: int) -> bytes:
        b = bytearray(r.randbytes(n))
        if calls[0] == 0:
            b[-ROW_BYTES:] = b"\xff" * ROW_BYTES
        calls[0] += 1
        return bytes(b)

    return urandom


@pytest.mark.parametrize(
    ("count", "urandom", "batch", "digest", "reads"),
    [
        (300_000, random.Random(5).randbytes, 1000, "791dfd8ae6c610750758d043", [128_000] * 7),
        (60_000, skewed(6), 64, "2e14180e56b3814919727ef3", None),
        (2_000_000, random.Random(7).randbytes, BATCH_DECKS, "78d6d98da5ab24b27f18d3d9", None),
        (
            700_000,
            last_deck_stuck(12),
            10_000,
            "44f8a2b71075956f84a4ebae",
            [1_280_000, 320_000, 320_000, 320_000, 1_280_000],
        ),
    ],
)
def test_the_stream_is_the_same_function_of_the_os_bytes_as_the_per_step_loop(
    count, urandom, batch, digest, reads
):
    """The digests and OS reads are those of the per-step rejection loop this module had
    before the column pass (bincount packing): a plain source over several batches, a
    skewed one whose rows run out (extension reads of 64 x 32 bytes between batches), the
    default batch size, and a batch of three parts whose last one runs out."""
    log: list[int] = []

    def counted(n: int) -> bytes:
        log.append(n)
        return urandom(n)

    data = b"".join(dump_stream(count, counted, batch=batch))
    assert len(data) == count
    assert hashlib.sha256(data).hexdigest().startswith(digest)
    if reads is not None:
        assert log == reads
    elif batch == 64:
        assert len(log) == 33 and sum(log) == 129_024 and set(log) == {64 * 128, 64 * 32}
    else:
        assert log == [batch * ROW_BYTES] * 3


def test_packing_any_widths_up_to_eight_bits():
    rng = np.random.default_rng(4)
    for n in (0, 1, 7, 8, 9, 1000):
        widths = rng.integers(0, 9, n).astype(np.uint8)
        values = (rng.integers(0, 256, n) & ((1 << widths.astype(int)) - 1)).astype(np.uint8)
        bits = draw_bits(values, widths)
        packed, rest_value, rest_bits = pack_draws(values, widths)
        assert len(packed) * 8 + rest_bits == len(bits)
        assert (np.unpackbits(np.frombuffer(packed, np.uint8)) == bits[: len(packed) * 8]).all()
        rest = "".join(map(str, bits[len(packed) * 8 :]))
        assert (format(rest_value, f"0{rest_bits}b") if rest_bits else "") == rest


def test_a_batch_packed_on_its_own_joins_its_leftover_lead():
    rng = np.random.default_rng(8)
    for n in (0, 1, 2, 50):
        for lead_bits in range(8):
            for rest_bits in range(8):
                bits = rng.integers(0, 2, lead_bits + 8 * n + rest_bits).astype(np.uint8)
                lead = int("".join(map(str, bits[:lead_bits])) or "0", 2)
                chunk = np.packbits(bits[lead_bits : lead_bits + 8 * n]).tobytes()
                rest = int("".join(map(str, bits[lead_bits + 8 * n :])) or "0", 2)
                whole, rest_value, left = _join(lead, lead_bits, (chunk, rest, rest_bits))
                assert len(whole) * 8 + left == len(bits)
                assert whole == np.packbits(bits[: len(whole) * 8]).tobytes()
                assert rest_value == int("".join(map(str, bits[len(whole) * 8 :])) or "0", 2)


class Repeating:
    """Bytes that depend only on how many are asked for (pickles for the workers)."""

    def __call__(self, n: int) -> bytes:
        return random.Random(n).randbytes(n)


def test_workers_write_whole_batches_in_order_with_their_leftover_bits():
    """Every batch reads the same bytes here, so the stream is one batch's draws over and
    over, carried across batches as one process carries them."""
    one = b"".join(dump_stream(120_000, Repeating(), batch=300))
    assert b"".join(dump_stream(120_000, Repeating(), batch=300, workers=2)) == one
    assert len(one) == 120_000
    endless = dump_stream(None, batch=300, workers=2)
    first, second = next(endless), next(endless)
    endless.close()
    assert len(first) > 10_000 and first[:1000] != second[:1000]
    with pytest.raises(ValueError, match="workers"):
        next(dump_stream(10, workers=0))


def test_the_fast_dump_command_with_workers(tmp_path, capsys):
    from kiosk.cli import main

    out = tmp_path / "d.bin"
    assert (
        main(["rng", "dump", "--fast", "--workers", "2", "--bytes", "50000", "--out", str(out)])
        == 0
    )
    assert len(out.read_bytes()) == 50_000
    assert main(["rng", "dump", "--fast", "--workers", "0", "--bytes", "10"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
    assert main(["rng", "dump", "--workers", "2", "--bytes", "10"]) == 2
    assert "--workers needs --fast" in capsys.readouterr().err
