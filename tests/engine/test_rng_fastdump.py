"""The battery-speed dump is the tap on the cabinet's source, bit for bit."""

from __future__ import annotations

import numpy as np

from engine.rng import DrawTap, SystemRandomSource, shuffled_deck
from engine.rng_tests.fastdump import ROW_BYTES, draw_bits, dump_stream, pack_draws, shuffle_draws


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
