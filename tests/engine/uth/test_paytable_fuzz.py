"""Fuzzing the paytable loader with mutated copies of the standard table.

Each example starts from ``paytables/standard.toml`` read as data, changes values' types
and magnitudes, deletes, adds and renames keys, nests values (some thousands deep),
writes the result back as TOML and may then damage the bytes (odd characters, invalid
UTF-8, NUL, cut or doubled lines).  Invariant: every input gives either a valid
:class:`Paytable`, which then settles its largest bets on every hand without overflow,
or a :class:`PaytableError` whose file, field and reason are set and printable; never
any other exception.
"""

from __future__ import annotations

import datetime as dt
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.toml_writer import Deep, document

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_floors
from engine.uth.paytable import Paytable, PaytableError, parse_paytable_bytes
from engine.uth.paytable_rules import INT64_MAX
from engine.uth.settlement import settle

STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"
BASE = tomllib.loads(STANDARD.read_text())
EXAMPLES = 1200
SOURCE = "fuzz.toml"


ODD = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u200d\ufeff"
    "\x00\x07\t\n\r\x1b\x7f\u2028\u2029\u00a0\u00ad\ue000\U0001f0a1\u0663\uff15"
    ":\"'\\[]{}=.#, "
)
chars = st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(ODD))
texts = st.one_of(
    st.text(chars, max_size=12),
    st.text(chars, min_size=60, max_size=70),
    st.sampled_from(["Standard", "pair", "flush", "USD", "usd", "1.0", "source_sha256", ""]),
)
ints = st.one_of(
    st.integers(-3, 3),
    st.integers(1, 10**5),
    st.integers(-(2**70), 2**70),
    st.sampled_from(
        [100, 500, 1000, 1001, 10**6, 10**6 + 1, 10**11, 10**11 + 1, 2**63 - 1, 2**63, 10**30]
    ),
)
pay_texts = st.builds(
    lambda n, d, sep: f"{n}{sep}{d}",
    ints,
    ints,
    st.sampled_from([":", ":", ":", " : ", "/", "::", "", ":\u0663"]),
)
scalars = st.one_of(
    st.booleans(),
    ints,
    st.floats(),
    texts,
    pay_texts,
    st.dates(),
    st.datetimes(timezones=st.none() | st.just(dt.UTC)),
)
keys = st.one_of(
    st.sampled_from(
        ["name", "limits", "chips", "ante_min", "flush", "blind", "trips", "numerator",
         "denominator", "source_sha256", "source_name", "sha256", "pay_denominator",
         "model_config", "__class__"]
    ),
    st.text(chars, min_size=1, max_size=10),
)  # fmt: skip
values = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(keys, kids, max_size=3)),
    max_leaves=8,
)


# -- mutations ----------------------------------------------------------------------


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for k, v in items:
        out.append((*prefix, k))
        out += _paths(v, (*prefix, k))
    return out


def _parent(data: dict[str, Any], path: tuple[Any, ...]) -> Any:
    node: Any = data
    for k in path[:-1]:
        node = node[k]
    return node


def _scaled(v: Any, data: st.DataObject) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return data.draw(
            st.sampled_from([v * 10**3, v * 10**9, -v, v + 1, v - 1, v // 7, 0, float(v), str(v)])
        )
    if isinstance(v, str) and ":" in v:
        n, _, d = v.partition(":")
        return data.draw(
            st.sampled_from(
                [f"{n}:{d}000", f"{n}000000:{d}", f"{n}:99999", f"-{n}:{d}", f"{n}:0", f"{n}.5:{d}",
                 f"{n}:{d}:{d}", f"{n}:997", f"{n}:991", f"{n}:983", int(n) if n.isdigit() else n,
                 {"numerator": n, "denominator": d}]
            )
        )  # fmt: skip
    return data.draw(values)


def _tweaked(v: Any, data: st.DataObject) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return data.draw(st.integers(1, 10**6)) * data.draw(st.sampled_from([1, 100]))
    if isinstance(v, str) and ":" in v:
        return f"{data.draw(st.integers(1, 10**6))}:{data.draw(st.integers(1, 1000))}"
    if isinstance(v, str):
        return data.draw(
            st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=70)
        )
    return v


def _mutate(doc: dict[str, Any], data: st.DataObject) -> None:
    paths = _paths(doc)
    if not paths:
        doc[data.draw(keys)] = data.draw(values)
        return
    path = data.draw(st.sampled_from(paths))
    parent, last = _parent(doc, path), path[-1]
    op = data.draw(
        st.sampled_from(["set", "scale", "scale", "tweak", "delete", "add", "rename", "nest"])
    )
    if op == "tweak":  # a value of the same kind, often still valid
        parent[last] = _tweaked(parent[last], data)
    elif op == "set":
        parent[last] = data.draw(values)
    elif op == "scale":
        parent[last] = _scaled(parent[last], data)
    elif op == "delete":
        del parent[last]
    elif op == "add":
        target = parent[last] if isinstance(parent[last], dict) else parent
        if isinstance(target, dict):
            target[data.draw(keys)] = data.draw(values)
        else:
            target.append(data.draw(values))
    elif op == "rename" and isinstance(parent, dict):
        parent[data.draw(keys)] = parent.pop(last)
    elif op == "nest":
        depth = data.draw(st.sampled_from([1, 1, 2, 3, 50, 999, 1001, 5000]))
        parent[last] = Deep(parent[last], depth, data.draw(st.sampled_from("[{")))


def _damage(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    op = data.draw(st.sampled_from(["insert", "insert", "delete", "double", "cut"]))
    if op == "insert":
        piece = data.draw(
            st.one_of(
                st.binary(min_size=1, max_size=4),
                st.text(st.sampled_from(ODD), min_size=1, max_size=3).map(str.encode),
            )
        )
        return raw[:at] + piece + raw[at:]
    if op == "delete":
        return raw[:at] + raw[at + data.draw(st.integers(1, 20)) :]
    if op == "double":
        lines = raw.split(b"\n")
        i = data.draw(st.integers(0, len(lines) - 1))
        return b"\n".join(lines[: i + 1] + lines[i:])
    return raw[:at]


@st.composite
def mutated_files(draw: Any) -> bytes:
    data = draw(st.data())
    doc = tomllib.loads(STANDARD.read_text())
    for _ in range(draw(st.integers(0, 4))):
        _mutate(doc, data)
    raw = document(doc).encode()
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        raw = _damage(raw, data)
    return raw


# -- the invariant ------------------------------------------------------------------

STRENGTHS = np.array([category_floors()[c] for c in HandCategory], np.int64)


def _settles_its_largest_bets(table: Paytable) -> None:
    n, lim = len(STRENGTHS), table.limits
    res = settle(
        np.full(n, lim.ante_max), np.full(n, 4 * lim.ante_max), np.full(n, lim.trips_max),
        np.zeros(n, bool), STRENGTHS, np.zeros(n, np.int64), table,
    )  # fmt: skip
    assert np.all(res.returned >= 0) and int(res.returned.max()) < INT64_MAX // 40
    for cat, pay in table.blind.lines().items():
        expect = lim.ante_max + lim.ante_max * pay.numerator // pay.denominator
        assert int(res.blind_return[cat]) == expect


def outcome(raw: bytes) -> str:
    """``"valid"`` or the refused field's top level; fails on anything else."""
    try:
        table = parse_paytable_bytes(raw, SOURCE)
    except PaytableError as err:
        assert err.file == SOURCE
        assert isinstance(err.field, str) and err.field and err.field.isprintable()
        assert isinstance(err.reason, str) and err.reason and err.reason.isprintable()
        assert str(err) == f"{SOURCE}: {err.field}: {err.reason}"
        return err.field.split(".")[0]
    _settles_its_largest_bets(table)
    return "valid"


def test_the_writer_round_trips_the_standard_table():
    assert tomllib.loads(document(BASE)) == BASE
    assert outcome(document(BASE).encode()) == "valid"


@pytest.mark.heavy
def test_mutated_paytables_never_raise_anything_but_a_paytable_error():
    seen: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutated_files())
    def run(raw: bytes) -> None:
        seen[outcome(raw)] += 1

    t0 = time.perf_counter()
    run()
    elapsed = time.perf_counter() - t0
    print(
        f"\n{sum(seen.values())} mutated paytables in {elapsed:.1f} s: {dict(seen.most_common())}"
    )
    assert sum(seen.values()) >= 1000
    assert seen["valid"] >= 10  # some mutations keep a valid table
    assert seen["(syntax)"] >= 20 and seen["(file)"] >= 20 and seen["limits"] >= 20
