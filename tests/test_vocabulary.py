"""One port, one vocabulary: money between a station and the game service travels as
typed values, never as text to parse.

The source checks read ``kiosk/`` (AST): no refusal ``reason`` built from a money value,
no ``settled: `` / ``amount: `` prefixes, no reason parsed back, the driver's reason words
read in one module and the word ``vend_valid`` spelt once.  The model checks feed the
link's bodies bad input, in Python and as frames, and expect a refusal naming the field.
"""

from __future__ import annotations

import ast
import functools
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from devices.host import DeviceEventKind, PrintOutcome
from kiosk.config import load_config
from kiosk.link.codec import decode
from kiosk.link.errors import MalformedFrame
from kiosk.link.messages import (
    PROTOCOL_VERSION,
    DeviceFault,
    EscrowAck,
    PrinterReport,
    TestCreditsReport,
    ValidatorReport,
)
from kiosk.link.outcomes import ACCEPTED, EscrowEnd, MoneyOutcome
from kiosk.service.device_commands import AcceptEscrow, SettleEscrow
from kiosk.service.escrows import escrow_end
from kiosk.service.table import Table

ROOT = Path(__file__).resolve().parents[1]
KIOSK = ROOT / "kiosk"
#: Names that hold money or a report's outcome: never formatted into a reason.
MONEY_NAMES = ("cents", "amount", "outcome", "how", "credits", "settled")
#: The text prefixes money once travelled in.
OLD_PREFIXES = ("settled: ", "amount: ")
#: The packages of the port's two ends and its wire (a screen's ``SETTLED`` is a layout).
PORT = frozenset({"table", "station", "link"})
#: The string methods that parse a text back into a value.
PARSERS = frozenset({"removeprefix", "startswith", "isdigit", "split", "partition", "lstrip"})


def _trees() -> list[tuple[Path, ast.Module]]:
    return [
        (path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for path in sorted(KIOSK.rglob("*.py"))
    ]


def _in_port(path: Path) -> bool:
    return path.relative_to(KIOSK).parts[0] in PORT


def _names(node: ast.AST) -> set[str]:
    """Every variable and attribute name in ``node``."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
    return found


def _money_in_reason(tree: ast.Module) -> list[int]:
    """Lines where a ``reason=`` f-string formats a money name."""
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.keyword) and node.arg == "reason"):
            continue
        if not isinstance(node.value, ast.JoinedStr):
            continue
        for part in node.value.values:
            if isinstance(part, ast.FormattedValue):
                names = {n.lower() for n in _names(part.value)}
                if any(m in n for n in names for m in MONEY_NAMES):
                    lines.append(node.value.lineno)
    return lines


def test_no_money_value_travels_in_a_reason():
    found = [f"{p.relative_to(ROOT)}:{n}" for p, t in _trees() for n in _money_in_reason(t)]
    assert not found, "a money value formatted into a reason:\n" + "\n".join(found)


def test_the_check_sees_a_money_value_in_a_reason():
    probe = ast.parse('EscrowAck(txn=t, accepted=True, reason=f"amount: {cents}")')
    assert _money_in_reason(probe) == [1]
    assert _money_in_reason(ast.parse('ack(reason=f"late by {seconds} s")')) == []


def test_the_old_text_prefixes_are_gone():
    found = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value.startswith(OLD_PREFIXES):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
            elif isinstance(node, ast.Name | ast.alias) and _in_port(path):
                name = node.id if isinstance(node, ast.Name) else node.name
                if name in ("SETTLED", "TICKET_AMOUNT"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not found, "money as text again:\n" + "\n".join(found)


def test_no_reason_is_parsed_back():
    found = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            target = node.func.value
            if node.func.attr in PARSERS and "reason" in _names(target):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "a reason read back as data:\n" + "\n".join(found)


def test_the_drivers_reason_words_are_read_in_one_module():
    readers = set()
    spelt = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in ("STACKED_REASONS", "RETURNED_REASONS"):
                readers.add(path.relative_to(ROOT).as_posix())
            if isinstance(node, ast.Constant) and node.value == "vend_valid":
                spelt.append(path.relative_to(ROOT).as_posix())
    assert readers == {"kiosk/service/escrows.py"}
    assert spelt == ["kiosk/link/outcomes.py"]  # EscrowEnd.VEND_VALID, nowhere else


def test_the_outcome_words_are_the_ones_the_ledger_and_logs_always_read():
    assert {o.value for o in MoneyOutcome} == {
        "credited", "rejected", "returned", "in_doubt", "open", "unknown", "issued",
        "handpay", "ticket", "refused",
    }  # fmt: skip
    assert MoneyOutcome.CREDITED == "credited" and f"{MoneyOutcome.IN_DOUBT}" == "in_doubt"
    assert ACCEPTED == {MoneyOutcome.CREDITED, MoneyOutcome.ISSUED}
    assert {e.value for e in EscrowEnd} == {"vend_valid", "stacked", "returned", "in_doubt"}


@pytest.mark.parametrize(
    "reason, end",
    [
        ("power_up_bill_in_stacker", EscrowEnd.STACKED),
        ("stacked_without_vend_valid", EscrowEnd.STACKED),
        ("rejected", EscrowEnd.RETURNED),
        ("power_up", EscrowEnd.RETURNED),
        ("port_lost", EscrowEnd.IN_DOUBT),
        ("acceptor_jam", EscrowEnd.IN_DOUBT),
        ("", EscrowEnd.IN_DOUBT),
    ],
)
def test_one_reading_of_the_drivers_reasons(reason, end):
    assert escrow_end(reason) is end


def test_the_service_answers_money_commands_with_the_enum(tmp_path):
    table = Table.open(load_config(db_path=tmp_path / "uth.db"), (1, 2))
    try:
        table.execute(1, AcceptEscrow("s1-a", 2000))
        for _ in range(2):  # the report and its repeat
            how = table.execute(1, SettleEscrow("s1-a", EscrowEnd.VEND_VALID))
            assert how is MoneyOutcome.CREDITED
        assert table.execute(2, SettleEscrow("s1-a", EscrowEnd.RETURNED)) is MoneyOutcome.UNKNOWN
        table.execute(1, AcceptEscrow("s1-b", 5000))
        how = table.execute(1, SettleEscrow("s1-b", EscrowEnd.RETURNED, "rejected"))
        assert how is MoneyOutcome.RETURNED and table.credits(1) == 2000
        ledger = table.ledger
        assert ledger is not None
        (aborted,) = ledger.events(("escrow_aborted",))
        assert aborted.detail["reason"] == "rejected" and type(aborted.detail["reason"]) is str
    finally:
        table.close()


# -- the models refuse bad input, with the field named ------------------------------------


def _refused(model: type, field: str, **fields: object) -> str:
    with pytest.raises(ValidationError) as info:
        model(**fields)
    errors = info.value.errors()
    assert any(field in (str(p) for p in e["loc"]) or field in e["msg"] for e in errors), errors
    return str(info.value)


@pytest.mark.parametrize(
    "model, field, fields",
    [
        # an amount that is not an integer, a bool for cents, a negative amount
        (EscrowAck, "amount_cents", {"txn": "a", "accepted": True, "amount_cents": "500"}),
        (EscrowAck, "amount_cents", {"txn": "a", "accepted": True, "amount_cents": 500.0}),
        (EscrowAck, "amount_cents", {"txn": "a", "accepted": True, "amount_cents": True}),
        (EscrowAck, "amount_cents", {"txn": "a", "accepted": True, "amount_cents": -500}),
        (EscrowAck, "amount_cents", {"txn": "a", "accepted": True, "amount_cents": 0}),
        (ValidatorReport, "cents", {"txn": "a", "end": EscrowEnd.VEND_VALID, "cents": "500"}),
        (ValidatorReport, "cents", {"txn": "a", "end": EscrowEnd.VEND_VALID, "cents": True}),
        (ValidatorReport, "cents", {"txn": "a", "end": EscrowEnd.VEND_VALID, "cents": -1}),
        (TestCreditsReport, "cents", {"txn": "a", "cents": 5000.0}),
        (TestCreditsReport, "cents", {"txn": "a", "cents": False}),
        (TestCreditsReport, "cents", {"txn": "a", "cents": -5000}),
        (TestCreditsReport, "cents", {"txn": "a", "cents": 0}),
        # an outcome, an end, a print outcome or a fault the vocabulary does not have
        (EscrowAck, "outcome", {"txn": "a", "accepted": False, "outcome": "settled: credited"}),
        (EscrowAck, "outcome", {"txn": "a", "accepted": False, "outcome": "paid"}),
        (ValidatorReport, "end", {"txn": "a", "end": "credited"}),
        (PrinterReport, "outcome", {"txn": "a", "outcome": "done"}),
        (DeviceFault, "kind", {"device": "validator", "kind": "teleport", "active": True}),
        (DeviceFault, "device", {"device": "hopper", "kind": DeviceEventKind.FAILURE, "active": True}),
        # a transaction name the link does not carry
        (ValidatorReport, "txn", {"txn": 12345, "end": EscrowEnd.RETURNED}),
    ],
)
def test_the_money_bodies_refuse_bad_input(model, field, fields):
    _refused(model, field, **fields)


@pytest.mark.parametrize(
    "fields, why",
    [
        ({"accepted": False, "amount_cents": 500}, "only an accepted escrow"),
        ({"accepted": True, "amount_cents": 500, "outcome": MoneyOutcome.CREDITED}, "only an"),
        ({"accepted": True, "outcome": MoneyOutcome.RETURNED}, "not accepted so"),
        ({"accepted": True, "outcome": MoneyOutcome.REFUSED}, "not accepted so"),
        ({"accepted": False, "outcome": MoneyOutcome.CREDITED}, "not accepted so"),
    ],
)
def test_an_answer_says_one_phase_and_agrees_with_itself(fields, why):
    with pytest.raises(ValidationError, match=why):
        EscrowAck(txn="a", **fields)


def test_the_good_answers_are_taken():
    assert EscrowAck(txn="a", accepted=True, amount_cents=2500).amount_cents == 2500
    refused = EscrowAck(
        txn="a", accepted=False, reason="over the limit", code="credit_limit",
        outcome=MoneyOutcome.REFUSED,
    )  # fmt: skip
    assert refused.reason == "over the limit"  # words for people, never parsed
    printed = PrinterReport(txn="cashout-1", outcome=PrintOutcome.PRINTED, validation="1" * 18)
    assert printed.outcome is PrintOutcome.PRINTED


def _frame(kind: str, body: dict[str, object]) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, "type": kind, "seq": 1, "ack": 0, "body": body})


@pytest.mark.parametrize(
    "sender, kind, body, field",
    [
        ("host", "escrow_ack", {"txn": "a", "accepted": True, "amount_cents": "500"}, "amount_cents"),
        ("host", "escrow_ack", {"txn": "a", "accepted": True, "amount_cents": True}, "amount_cents"),
        ("host", "escrow_ack", {"txn": "a", "accepted": True, "amount_cents": -5}, "amount_cents"),
        ("host", "escrow_ack", {"txn": "a", "accepted": False, "outcome": "paid"}, "outcome"),
        ("station", "validator_report", {"txn": "a", "end": "vend_valid", "cents": 5.5}, "cents"),
        ("station", "validator_report", {"txn": "a", "end": "vend_valid", "cents": True}, "cents"),
        ("station", "validator_report", {"txn": "a", "end": "credited"}, "end"),
        ("station", "test_credits", {"txn": "a", "cents": "5000"}, "cents"),
        ("station", "test_credits", {"txn": "a", "cents": -5000}, "cents"),
        ("station", "printer_report", {"txn": "a", "outcome": "maybe"}, "outcome"),
        ("station", "device_fault", {"device": "validator", "kind": "x", "active": 1}, "kind"),
    ],
)  # fmt: skip
def test_ill_typed_frames_are_refused_with_the_field_named(sender, kind, body, field):
    with pytest.raises(MalformedFrame) as info:
        decode(_frame(kind, body), sender)
    assert f"{kind}.{field}" in str(info.value)


def test_the_old_text_answers_and_reports_are_refused():
    old_ack = {"txn": "a", "accepted": True, "reason": "amount: 500", "extra": 1}
    with pytest.raises(MalformedFrame):
        decode(_frame("escrow_ack", old_ack), "host")
    old_report = {"device": "validator", "event": "vend_valid", "detail": {"txn": "a"}}
    with pytest.raises(Exception, match="device_event"):
        decode(_frame("device_event", old_report), "station")


# -- one input style: a screen's buttons and keys ask for typed intents ---------------------

UI = KIOSK / "ui"
#: Modules of ``kiosk/ui`` that are no screen: the catalogues' command line
#: (``extract|compile``) and the text log's source file names.
NOT_SCREENS = ("kiosk/ui/catalogues.py", "kiosk/ui/textlog.py")
#: Screens not yet converted to typed intents: their buttons still carry command names
#: compared as text.  Empty this list as they are converted (a listed screen that no
#: longer compares a name fails :func:`test_the_unconverted_list_names_only_screens_that_compare_names`).
UNCONVERTED_SCREENS: tuple[str, ...] = ()
#: The names a button's command, a key or a shortcut travels under.
NAME_WORDS = frozenset({"name", "command", "cmd"})


def _is_a_name(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id in NAME_WORDS) or (
        isinstance(node, ast.Attribute) and node.attr in NAME_WORDS
    )


def _is_text(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_is_text(e) for e in node.elts)
    return False


def _name_comparisons(tree: ast.Module) -> list[int]:
    """Lines that compare a name (``name``, ``key.name``, ``cmd.name``, ``b.command``) to
    a text literal: ``name == "back"``, ``key.name in ("up", "down")``, ``name != "x"``."""
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(_is_a_name(o) for o in (node.left, *node.comparators))
        and any(_is_text(o) for o in (node.left, *node.comparators))
    )


@functools.cache
def _ui_trees() -> tuple[tuple[Path, ast.Module], ...]:
    """Every screen module of ``kiosk/ui`` (path relative to the checkout), parsed."""
    return tuple(
        (rel, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for path in sorted(UI.rglob("*.py"))
        for rel in [path.relative_to(ROOT)]
        if str(rel) not in NOT_SCREENS
    )


def _unconverted(rel: Path) -> bool:
    return any(rel.match(pattern) for pattern in UNCONVERTED_SCREENS)


def test_screens_ask_for_typed_intents_not_button_names():
    """A scene maps its buttons to typed intents (frozen records or an enum) and its keys
    to them through a table (``KEYS.get(key.name)``), never ``elif name == "..."``."""
    found = {
        str(rel): lines
        for rel, tree in _ui_trees()
        if not _unconverted(rel)
        for lines in [_name_comparisons(tree)]
        if lines
    }
    assert found == {}, f"compare a button or key name to a text, file: lines {found}"


def test_the_check_sees_a_button_name_compared():
    tree = ast.parse(
        'if name == "back": pass\n'
        'if key.name in ("up", "down"): pass\n'
        'ok = event.name not in {"x"}\n'
        'fine = KEYS.get(key.name) is Nav.BACK and name == OTHER and b.id == "back"\n'
    )
    assert _name_comparisons(tree) == [1, 2, 3]


def test_the_unconverted_list_names_only_screens_that_compare_names():
    for pattern in UNCONVERTED_SCREENS:
        trees = [tree for rel, tree in _ui_trees() if rel.match(pattern)]
        assert trees, f"{pattern} names no file"
        assert any(_name_comparisons(tree) for tree in trees), (
            f"{pattern} no longer compares a button name: take it off UNCONVERTED_SCREENS"
        )
