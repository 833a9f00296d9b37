"""TCL command syntax: ``^<letter>|<field>|<field>|...|^``.

The subset implemented (FutureLogic GEN2/GEN5 TCL, template mode):

======================  ===================================================================
``ENQ`` (0x05)          status request, answered by ``*S|...|*`` (see :mod:`.status`)
``^S|^``                the same status request as a command
``^C|^``                clear error and reset flags (``^C|j|^`` also asks to clear a jam)
``^R|$|DR|^``           delete all print regions; ``^R|<id>|DR|^`` deletes one
``^R|<id>|R|...|^``     define a print region in RAM (15 fields, see :class:`Region`)
``^T|<id>|R|da|pa|...`` define a template in RAM from region ids; ``^T|<id>|DR|^`` deletes
``^P|<t>|<n>|f1|..|^``  print template ``t``, ``n`` copies, one data field per region
``^r|^``                reset the printer (RAM regions and templates are lost)
``^f|I|^``, ``^F|A|^``  form feed, flush all jobs (accepted; no effect in the simulator)
======================  ===================================================================

Field escaping (decided here, tested): print data is printable ASCII (0x20..0x7E) only;
anything else is rejected with :class:`~devices.errors.TicketDataError`.  The three
characters that are syntax -- ``|`` (separator), ``^`` (frame) and ``~`` (escape) -- are
sent as ``~124``, ``~094`` and ``~126`` (``~`` + three-digit decimal code).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from devices.errors import TicketDataError

ENQ = b"\x05"
STATUS_COMMAND = b"^S|^"
CLEAR_ERRORS = b"^C|^"
CLEAR_ERRORS_AND_JAM = b"^C|j|^"
DELETE_ALL_REGIONS = b"^R|$|DR|^"
RESET_PRINTER = b"^r|^"
FORM_FEED = b"^f|I|^"
FLUSH_ALL = b"^F|A|^"

_ESCAPES = {"~": "~126", "^": "~094", "|": "~124"}
_ESCAPE_RE = re.compile(r"~(\d{3})")
#: characters allowed in region and template ids: '0'..'}' except '^' and '|'
_ID_CHARS = {chr(c) for c in range(0x30, 0x7E)} - {"^", "|"}


def escape_field(text: str) -> str:
    """Print-data form of ``text``; raises TicketDataError for non-printable characters."""
    if not isinstance(text, str):
        raise TicketDataError(f"field must be text: {text!r}")
    bad = [c for c in text if not 0x20 <= ord(c) <= 0x7E]
    if bad:
        raise TicketDataError(f"unprintable characters {bad!r} in field {text!r}")
    return "".join(_ESCAPES.get(c, c) for c in text)


def unescape_field(text: str) -> str:
    """Inverse of :func:`escape_field`; raises ValueError on a bad escape or raw syntax."""
    if "|" in text or "^" in text:
        raise ValueError(f"unescaped syntax character in field {text!r}")
    out, pos = [], 0
    for match in _ESCAPE_RE.finditer(text):
        out.append(text[pos : match.start()])
        code = int(match.group(1))
        if not 0x20 <= code <= 0x7E:
            raise ValueError(f"escape of a non-printable code {code} in {text!r}")
        out.append(chr(code))
        pos = match.end()
    rest = text[pos:]
    if "~" in rest:
        raise ValueError(f"bad escape in field {text!r}")
    out.append(rest)
    return "".join(out)


def check_id(value: str) -> str:
    """A one-character region/template id; raises ValueError otherwise."""
    if len(value) != 1 or value not in _ID_CHARS:
        raise ValueError(f"TCL ids are one character '0'..'}}' except ^ and |: {value!r}")
    return value


def build_command(*parts: str) -> bytes:
    """``build_command("C")`` -> ``b"^C|^"``.  Parts must already be escaped."""
    for part in parts:
        if "|" in part or "^" in part:
            raise ValueError(f"unescaped syntax character in command part {part!r}")
    return ("^" + "|".join(parts) + "|^").encode("ascii")


def parse_command(raw: bytes) -> list[str]:
    """``b"^P|C|1|x|^"`` -> ``["P", "C", "1", "x"]`` (fields still escaped)."""
    if len(raw) < 4 or not raw.startswith(b"^") or not raw.endswith(b"|^"):
        raise ValueError(f"not a TCL command: {raw!r}")
    try:
        text = raw[1:-2].decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"non-ASCII TCL command: {raw!r}") from None
    if "^" in text:
        raise ValueError(f"'^' inside a TCL command: {raw!r}")
    return text.split("|")


@dataclass(frozen=True, slots=True)
class Region:
    """A print region.  Distances are printer dots (203 dpi): ``da`` along the paper path,
    ``pa`` across it.  ``font`` is a printer font id, or ``l`` for an interleaved 2 of 5
    barcode.  ``max_chars`` is checked by the driver before printing (not sent)."""

    region_id: str
    da_start: int
    pa_start: int
    da_len: int
    pa_len: int
    font: str
    max_chars: int
    rotation: int = 0  # 0 right, 1 down, 2 left, 3 up
    justify: int = 1  # 0 left, 1 centre, 2 right
    mul_1: int = 1
    mul_2: int = 1
    attribute: int = 0

    @property
    def is_barcode(self) -> bool:
        return self.font == BARCODE_I2OF5

    def command(self) -> bytes:
        """``^R|id|R|da_start|pa_start|da_len|pa_len||rot|just|font|m1|m2|att|0||^``."""
        check_id(self.region_id)
        return build_command(
            "R",
            self.region_id,
            "R",
            *(str(v) for v in (self.da_start, self.pa_start, self.da_len, self.pa_len)),
            "",
            str(self.rotation),
            str(self.justify),
            self.font,
            str(self.mul_1),
            str(self.mul_2),
            str(self.attribute),
            "0",  # dynamic data: supplied by each print command
            "",
        )


@dataclass(frozen=True, slots=True)
class Template:
    """A template: its id, size in dots and the ids of its regions in data-field order."""

    template_id: str
    da_dim: int
    pa_dim: int
    region_ids: tuple[str, ...]

    def command(self) -> bytes:
        """``^T|id|R|da_dim|pa_dim|r1|r2|...|^``."""
        check_id(self.template_id)
        for r in self.region_ids:
            check_id(r)
        return build_command(
            "T", self.template_id, "R", str(self.da_dim), str(self.pa_dim), *self.region_ids
        )


BARCODE_I2OF5 = "l"


def print_command(template_id: str, fields: Sequence[str], copies: int = 1) -> bytes:
    """``^P|<template>|<copies>|<escaped fields>...|^``; escapes every field."""
    if not 1 <= copies <= 9999:
        raise ValueError(f"copies must be 1..9999: {copies}")
    return build_command(
        "P", check_id(template_id), str(copies), *(escape_field(f) for f in fields)
    )
