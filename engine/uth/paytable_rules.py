"""The bounds a paytable keeps and the checks of its values, independent of the models.

Bounds (all amounts in cents):

* an amount (a limit or a chip) is an ``int`` (never a bool, a float or a string) in
  ``1..MAX_AMOUNT``;
* a pay ``N:D`` has ``1 <= N <= MAX_PAY_NUMERATOR`` and ``1 <= D <= MAX_PAY_DENOMINATOR``
  as written, and the least common multiple of a table's denominators (its breakage unit)
  is at most ``MAX_PAY_UNIT``;
* a name, version or other text is printable (no control, format or bidi characters,
  no separator but the ASCII space), at most ``MAX_TEXT_LENGTH`` characters, not blank
  and without surrounding spaces; a currency is three ASCII capitals (ISO 4217);
* a paytable file is at most ``MAX_FILE_BYTES`` bytes of UTF-8 without NUL, with at most
  ``MAX_LINE_DOTS`` dots outside strings and comments on a line (dotted keys).

Invariant: with these bounds the largest return of one seat,
``worst_seat_return(MAX_AMOUNT, MAX_AMOUNT, MAX_PAY_NUMERATOR)``, and so every product
``stake * numerator``, fit an int64 with a factor of more than 40 to spare, and the
simulator's stakes (one breakage unit, at most ``MAX_PAY_UNIT`` cents) times any pay
with a factor of more than 10^6: settlement never overflows.
"""

from __future__ import annotations

import math
import re
import reprlib
import unicodedata

INT64_MAX = 2**63 - 1
MAX_AMOUNT = 10**11
MAX_PAY_NUMERATOR = 10**6
MAX_PAY_DENOMINATOR = 1000
MAX_PAY_UNIT = 10**6
MAX_TEXT_LENGTH = 64
MAX_CHIPS = 16
MAX_FILE_BYTES = 64 * 1024
#: Play multiples a seat can wager, in Antes (pre-flop 3x or 4x is the largest).
MAX_PLAY_MULTIPLE = 4
#: Model fields the loader computes; a file that sets them is refused.
INTERNAL_FIELDS = ("source_sha256", "source_name")

#: Dots a line may hold outside strings and comments (a dotted key of more parts is refused
#: before parsing: the TOML reader takes time quadratic in a key's parts).
MAX_LINE_DOTS = 64

_TOKENS = re.compile(
    r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|#[^\n]*|\n|\.',
    re.DOTALL,
)
_PAY_TEXT = re.compile(r"\s*(-?[0-9]{1,30})\s*:\s*(-?[0-9]{1,30})\s*", re.ASCII)
_CURRENCY = re.compile(r"[A-Z]{3}", re.ASCII)
_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4


class RuleError(ValueError):
    """A rule broken by a whole table; ``field`` is the dotted path of the value at fault."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


def shown(value: object) -> str:
    """A short ``repr`` of ``value`` for a refusal (bounded length and depth, escaped)."""
    try:
        return _REPR.repr(value)
    except (RecursionError, ValueError):
        return f"<{type(value).__name__}>"


def worst_seat_return(ante: int, trips: int, numerator: int) -> int:
    """Upper bound, in cents, of what one seat gets back at these stakes and largest pay
    numerator (denominator 1): Ante 2x, Blind 1 + N, Play 2 x 4 Antes, Trips 1 + N."""
    return ante * (2 + 1 + numerator + 2 * MAX_PLAY_MULTIPLE) + trips * (1 + numerator)


def check_key_depth(text: str) -> None:
    """Refuse TOML ``text`` with more than :data:`MAX_LINE_DOTS` dots outside strings and
    comments on one line (:class:`RuleError` for field ``(syntax)`` naming the line)."""
    line, dots = 1, 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == ".":
            dots += 1
            if dots > MAX_LINE_DOTS:
                raise RuleError(
                    "(syntax)",
                    f"line {line} has more than {MAX_LINE_DOTS} dots outside strings "
                    "(a key nested too deeply)",
                )
        elif "\n" in token:
            line += token.count("\n")
            dots = 0


def check_text(value: str) -> str:
    """``value`` unchanged if it is a valid name; else :class:`ValueError` with the reason."""
    if not value.strip():
        raise ValueError("must not be blank")
    if len(value) > MAX_TEXT_LENGTH:
        raise ValueError(f"is {len(value)} characters long; at most {MAX_TEXT_LENGTH} are allowed")
    for ch in value:
        if not ch.isprintable():
            name = unicodedata.name(ch, unicodedata.category(ch))
            raise ValueError(f"contains the non-printable character U+{ord(ch):04X} ({name})")
    if value != value.strip(" "):
        raise ValueError("must not start or end with a space")
    return value


def check_currency(value: str) -> str:
    """``value`` unchanged if it is an ISO 4217 code such as ``USD``."""
    if not _CURRENCY.fullmatch(value):
        raise ValueError(
            f"{shown(value)} is not a currency code of three capital letters (e.g. 'USD')"
        )
    return value


def pay_parts(value: object) -> tuple[int, int]:
    """``(numerator, denominator)`` as written: ``"N:D"``, a whole number ``N`` (``N:1``)
    or a table ``{numerator = N, denominator = D}`` of whole numbers."""
    if isinstance(value, dict) and set(value) == {"numerator", "denominator"}:
        num, den = value["numerator"], value["denominator"]
        if type(num) is not int or type(den) is not int:
            raise ValueError(
                f"numerator and denominator must be whole numbers, not {shown(num)} and {shown(den)}"
            )
        return num, den
    if type(value) is int:
        return value, 1
    if isinstance(value, str):
        match = _PAY_TEXT.fullmatch(value)
        if match is None:
            raise ValueError(f"{shown(value)} is not of the form 'N:D' with whole numbers")
        return int(match[1]), int(match[2])
    raise ValueError(
        f"a pay is written 'N:D' (for example \"3:2\") or a whole number N (N:1), not {shown(value)}"
    )


def reduced_pay(num: int, den: int) -> tuple[int, int]:
    """``num:den`` in lowest terms after checking the bounds; :class:`ValueError` if out."""
    if num <= 0 or den <= 0:
        raise ValueError(f"pay {num}:{den} must be positive")
    if num > MAX_PAY_NUMERATOR:
        raise ValueError(f"pay {num}:{den}: the numerator is above {MAX_PAY_NUMERATOR:,}")
    if den > MAX_PAY_DENOMINATOR:
        raise ValueError(f"pay {num}:{den}: the denominator is above {MAX_PAY_DENOMINATOR:,}")
    g = math.gcd(num, den)
    return num // g, den // g


def check_pay_unit(denominators: list[tuple[str, int]]) -> int:
    """The least common multiple of ``(field, denominator)`` pairs, at most
    :data:`MAX_PAY_UNIT`; else :class:`RuleError` naming the first field that breaks it."""
    unit = 1
    for field, den in denominators:
        unit = math.lcm(unit, den)
        if unit > MAX_PAY_UNIT:
            raise RuleError(
                field,
                f"the pay denominators' least common multiple (the breakage unit) reaches "
                f"{unit:,}, above {MAX_PAY_UNIT:,}",
            )
    return unit


def check_chips(chips: tuple[int, ...], ante_step: int, ante_max: int) -> None:
    """Every chip is a multiple of ``ante_step`` and at most ``ante_max`` (cents)."""
    for i, chip in enumerate(chips):
        if chip % ante_step:
            raise RuleError(
                f"limits.chips.{i}", f"chip {chip} is not a multiple of ante_step {ante_step}"
            )
        if chip > ante_max:
            raise RuleError(f"limits.chips.{i}", f"chip {chip} is above ante_max {ante_max}")


def field_name(part: object) -> str:
    """One part of a field path as printed: a plain key as is, anything odd escaped."""
    text = str(part)
    if len(text) <= MAX_TEXT_LENGTH and text.isprintable() and text.strip() == text and text:
        return text
    return shown(text)
