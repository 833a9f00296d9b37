"""Fuzzing the configuration loader with mutated copies of a full cabinet configuration.

Each example starts from a valid configuration (every field set, operator accounts with
plain and hashed PINs), changes values' types and magnitudes, deletes, adds and renames
keys, nests values (some thousands deep), writes the result as TOML to a file and may
then damage its bytes (odd characters, invalid UTF-8, NUL, cut or doubled lines).
Invariant: :func:`kiosk.config.load_config` returns a configuration that keeps every
bound, or raises a :class:`ConfigError` whose file, field and reason are set and
printable; never any other exception.  The seed is fixed (``derandomize``).
"""

from __future__ import annotations

import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.toml_writer import Deep, document

from kiosk.config import ROLES, CabinetConfig, ConfigError, load_config
from kiosk.pins import hash_pin, pin_problem

EXAMPLES = 1200
INT64_MAX = 2**63 - 1
HASHED = hash_pin("975310", salt=bytes(range(16)))
BASE: dict[str, Any] = {
    "demo": False,
    "db_path": "var/uth.db",
    "install_marker": "var/uth.db.install",
    "ledger_key_path": "/etc/uth/key/ledger.key",
    "anchor_path": "/mnt/anchor/uth.anchor",
    "paytable": "paytables/standard.toml",
    "machine_number": "0042",
    "casino_name": "Casino Royale",
    "casino_address": "1 Casino Way",
    "rtp_min_pct": 80.0,
    "rtp_max_pct": 100.0,
    "ticket_expiry_days": 30,
    "validator_port": "/dev/serial/by-id/usb-JCM-if00",
    "printer_port": "sim",
    "accepted_bills": [100, 500, 1000, 2000, 5000, 10000],
    "credit_limit_cents": 1_000_000,
    "jackpot_limit_cents": 120_000,
    "operators": [
        {"name": "Ann Smith", "role": "attendant", "pin": "246810"},
        {"name": "Bob Jones", "role": "technician", "pin": "135792"},
        {"name": "Cy Young", "role": "manager", "pin": HASHED},
    ],
}
PINS = ("246810", "135792", "975310")

ODD = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u200d\ufeff"
    "\x00\x07\t\n\r\x1b\x7f\u2028\u2029\u00a0\u00ad\ue000\U0001f0a1\u0663\uff15"
    ":\"'\\[]{}=.#, "
)
chars = st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(ODD))
texts = st.one_of(
    st.text(chars, max_size=12),
    st.text(chars, min_size=60, max_size=70),
    st.sampled_from(["sim", "/dev/ttyUSB0", "COM3", "1111", "111111", "12345", "", "manager",
                     "pbkdf2_sha256$1$00$00", "sha256:" + "0" * 64, "true", "500"]),
)  # fmt: skip
ints = st.one_of(
    st.integers(-3, 3),
    st.integers(1, 10**6),
    st.integers(-(2**70), 2**70),
    st.sampled_from([74, 75, 100, 101, 3650, 3651, 10**6, 10**6 + 1, INT64_MAX, INT64_MAX + 1]),
)
scalars = st.one_of(st.booleans(), ints, st.floats(), texts)
keys = st.one_of(
    st.sampled_from(["demo", "operators", "name", "role", "pin", "accepted_bills", "operator_pins",
                     "credit_limit_cents", "casino_name", "__class__", "model_config"]),
    st.text(chars, min_size=1, max_size=10),
)  # fmt: skip
values = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(keys, kids, max_size=3)),
    max_leaves=8,
)


# -- mutations ---------------------------------------------------------------------------------
def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    out = []
    for k, v in items:
        out.append((*prefix, k))
        out += _paths(v, (*prefix, k))
    return out


def _mutate(doc: dict[str, Any], data: st.DataObject) -> None:
    paths = _paths(doc)
    if not paths:
        doc[data.draw(keys)] = data.draw(values)
        return
    path = data.draw(st.sampled_from(paths))
    parent: Any = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    old = parent[last]
    op = data.draw(st.sampled_from(["set", "coerce", "coerce", "tweak", "delete", "add", "rename", "nest"]))
    if op == "set":
        parent[last] = data.draw(values)
    elif op == "coerce" and isinstance(old, int | float) and not isinstance(old, bool):
        parent[last] = data.draw(st.sampled_from(
            [True, str(old), float(old), int(old) if isinstance(old, float) else old * 10**15, -old, 0,
             old + 1, INT64_MAX, INT64_MAX + 1]
        ))  # fmt: skip
    elif op == "coerce" and isinstance(old, str):
        parent[last] = data.draw(st.sampled_from(
            [old + "\u202e", old * 20, " " + old, old + "\x07", "", old.upper(), 246810, True,
             data.draw(st.sampled_from(PINS)), data.draw(st.sampled_from(ROLES))]
        ))  # fmt: skip
    elif op == "tweak" and isinstance(old, str):
        parent[last] = data.draw(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=70))
    elif op == "tweak" and isinstance(old, int) and not isinstance(old, bool):
        parent[last] = data.draw(st.integers(1, 10**7))
    elif op == "delete":
        del parent[last]
    elif op == "add":
        target = old if isinstance(old, dict | list) else parent
        if isinstance(target, dict):
            target[data.draw(keys)] = data.draw(values)
        else:
            target.append(data.draw(st.one_of(values, st.just(dict(BASE["operators"][0])))))
    elif op == "rename" and isinstance(parent, dict):
        parent[data.draw(keys)] = parent.pop(last)
    elif op == "nest":
        depth = data.draw(st.sampled_from([1, 2, 3, 50, 999, 1001, 5000]))
        parent[last] = Deep(old, depth, data.draw(st.sampled_from("[{")))
    else:
        parent[last] = data.draw(values)


def _damage(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    op = data.draw(st.sampled_from(["insert", "insert", "delete", "double", "cut"]))
    if op == "insert":
        piece = data.draw(st.one_of(
            st.binary(min_size=1, max_size=4),
            st.text(st.sampled_from(ODD), min_size=1, max_size=3).map(str.encode),
        ))  # fmt: skip
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
    doc = tomllib.loads(document(BASE, tables=False))
    for _ in range(draw(st.integers(0, 4))):
        _mutate(doc, data)
    raw = document(doc, tables=False).encode()
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        raw = _damage(raw, data)
    return raw


# -- the invariant -----------------------------------------------------------------------------
def _keeps_its_bounds(c: CabinetConfig) -> None:
    amounts = (*c.accepted_bills, c.credit_limit_cents, c.jackpot_limit_cents)
    assert all(type(a) is int and 0 < a <= c.credit_limit_cents <= INT64_MAX for a in amounts)
    assert 75 <= c.rtp_min_pct <= c.rtp_max_pct <= 100
    assert type(c.ticket_expiry_days) is int and type(c.demo) is bool
    for text in (c.casino_name, c.casino_address, c.machine_number, *(a.name for a in c.operators)):
        assert isinstance(text, str) and 0 < len(text) <= 64 and text.isprintable()
    pins = [a.pin for a in c.operators]
    assert len(set(pins)) == len(pins)
    for pin in pins:
        assert pin.startswith("pbkdf2_sha256$") or pin_problem(pin) is None or c.demo


def outcome(path: Path, raw: bytes) -> str:
    """``"valid"`` or the refused field's top level; fails on anything else."""
    path.write_bytes(raw)
    try:
        config = load_config(path)
    except ConfigError as err:
        assert err.file == str(path)
        assert isinstance(err.field, str) and err.field and err.field.isprintable()
        assert isinstance(err.reason, str) and err.reason and err.reason.isprintable()
        assert str(err) == f"{path}: {err.field}: {err.reason}"
        if err.field.endswith(".pin"):
            assert not any(pin in err.reason for pin in PINS)
        return err.field.split(".")[0]
    _keeps_its_bounds(config)
    return "valid"


def test_the_writer_round_trips_the_base_configuration(tmp_path):
    assert tomllib.loads(document(BASE, tables=False)) == BASE
    assert outcome(tmp_path / "cabinet.toml", document(BASE, tables=False).encode()) == "valid"


@pytest.mark.heavy
def test_mutated_configurations_never_raise_anything_but_a_config_error(tmp_path):
    seen: Counter[str] = Counter()
    path = tmp_path / "cabinet.toml"

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutated_files())
    def run(raw: bytes) -> None:
        seen[outcome(path, raw)] += 1

    t0 = time.perf_counter()
    run()
    elapsed = time.perf_counter() - t0
    print(f"\n{sum(seen.values())} mutated configurations in {elapsed:.1f} s: {dict(seen.most_common())}")
    assert sum(seen.values()) >= 1000
    assert seen["valid"] >= 10  # some mutations keep a valid configuration
    assert seen["(syntax)"] >= 20 and seen["(file)"] >= 10 and seen["operators"] >= 20
