"""Every refusal a player can meet draws its own sentence on the table screen, in English
and in Japanese: each :class:`ErrorCode` but the ones only an operator, the casino's
system, a device driver or a program meets (:data:`NOT_A_PLAYERS`).

The refusal is shown the way every refused command and returned note or ticket is, as
the model's note (:meth:`kiosk.ui.model.Model.error`); the screen is painted whole with
the painter's record on, and the sentence must be among the texts drawn (its lines
joined).  How each refusal is raised is the machine's tests' (and test_note_refusals,
test_ticket_refusals, test_table_refusals for the screens' real paths)."""

from __future__ import annotations

import pytest
from screen_tour import look
from test_ui import Kiosk

from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, TicketRefused
from kiosk.ui import i18n
from kiosk.ui.machine_messages import GENERIC, describe

#: Codes no player meets at the table, each with who does.
NOT_A_PLAYERS = {
    ErrorCode.NOT_AUTHORISED: "an operator's PIN or role",
    ErrorCode.CONFIGURATION_ERROR: "an operator's paytable or limits change",
    ErrorCode.BAD_AMOUNT: "a device driver's or the system's amount",
    ErrorCode.BAD_CREDIT_SOURCE: "a program crediting from an unknown source",
    ErrorCode.NOT_AT_STATION: "a program asking a station for credits",
    ErrorCode.NO_TEST_CREDITS: "a technician's test credits",
    ErrorCode.ESCROW_FINISHED: "a device driver reporting an escrow twice",
    ErrorCode.BAD_NUMBER: "the casino's system",
    ErrorCode.NOT_WAITING: "the casino's system",
    ErrorCode.NO_PAYOUT_PENDING: "the printer's or an attendant's report",
    ErrorCode.TICKET_PRINTING: "an attendant's handpay",
    ErrorCode.NO_TILT: "an attendant clearing a tilt",
    ErrorCode.NO_STATION: "a table host's configuration",
    ErrorCode.OPERATOR_REQUIRED: "an operator",
    ErrorCode.ROLE_REQUIRED: "an operator",
    ErrorCode.WRONG_PIN: "an operator",
    ErrorCode.PIN_LOCKED: "an operator",
    ErrorCode.LOGIN_DISABLED: "an operator",
    ErrorCode.DOOR_CLOSED: "an operator",
    ErrorCode.CREDITS_ON_METER: "an operator",
    ErrorCode.SAME_OPERATOR: "an operator",
    ErrorCode.WITNESS_REQUIRED: "an operator",
    ErrorCode.RAM_CLEAR_NOT_REQUESTED: "an operator",
    ErrorCode.WRONG_CODE: "an operator",
    ErrorCode.RTP_UNKNOWN: "an operator's paytable",
    ErrorCode.RTP_UNPROVEN: "an operator's paytable",
    ErrorCode.OUT_OF_BOUNDS: "an operator's paytable",
    ErrorCode.NO_DRAFT: "an operator's paytable",
    ErrorCode.FILE_EXISTS: "an operator's paytable",
    ErrorCode.SAME_PAYTABLE: "an operator's paytable",
    ErrorCode.NO_PAYTABLE: "an operator's paytable",
    ErrorCode.BET_NOT_OFFERED: "an operator's paytable",
    ErrorCode.EXPORT_FAILED: "an operator's paytable",
}
PLAYERS = [c for c in ErrorCode if c not in NOT_A_PLAYERS]
#: The parameters a code's sentence names (cents).
PARAMS = {
    ErrorCode.CREDIT_LIMIT: {"limit": 500_000},
    ErrorCode.INSUFFICIENT_CREDITS: {"needed": 1600, "credits": 1500},
    ErrorCode.BET_OUT_OF_LIMITS: {"rule": "ante_max", "cents": 50_000},
    ErrorCode.METER_OUT_OF_RANGE: {"cents": 10_000_000},
}
#: Codes whose sentence is the generic one: a refusal with no more precise reason.
GENERIC_CODES = {ErrorCode.REFUSED, ErrorCode.WRONG_STATE}


def squeeze(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory):
    k = Kiosk(tmp_path_factory.mktemp("refusals"), (800, 480))
    k.app.go("table")
    k.run(0.1)
    yield k
    k.close()
    i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("code", PLAYERS, ids=[c.value for c in PLAYERS])
def test_a_players_refusal_draws_its_sentence(kiosk, code, language):
    i18n.set_language(language)
    cls = (
        TicketRefused
        if code.value.startswith("ticket_") or code is ErrorCode.AWAITING_SYSTEM
        else MachineError
    )
    exc = cls("refused", code=code, params=PARAMS.get(code))
    kiosk.app.model.error(exc)
    sentence = describe(exc)
    assert sentence.strip() and (code in GENERIC_CODES or sentence != i18n._(GENERIC)), code
    drawn = squeeze(" ".join(t.text for t in look(kiosk.app).texts))
    assert squeeze(sentence) in drawn, f"{code}: {sentence!r} not drawn"
    kiosk.app.model.note = None


def test_every_code_is_a_players_or_named_as_not():
    assert set(PLAYERS) | set(NOT_A_PLAYERS) == set(ErrorCode)
    assert {
        ErrorCode.BILL_NOT_ACCEPTED,
        ErrorCode.TICKET_REDEEMED,
        ErrorCode.BET_OUT_OF_LIMITS,
        ErrorCode.CREDIT_LIMIT,
        ErrorCode.DOOR_OPEN,
        ErrorCode.TILTED,
    } <= set(PLAYERS)
