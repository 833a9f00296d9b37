"""Interleaved 2 of 5 (ITF) barcode patterns.

ITF encodes digits in pairs: the first digit of a pair in the five bars, the second in the
five spaces between them, each element narrow or wide (two wide per digit).  A start
pattern (narrow bar, space, bar, space) and a stop pattern (wide bar, narrow space, narrow
bar) frame the data.  The digit count must be even: the 18-digit validation number is.

Patterns are tuples of element widths in modules, alternating bar, space, bar, ...,
starting with a bar.  ``wide`` is the wide-to-narrow ratio (2 or 3, integer modules).
"""

from __future__ import annotations

#: Narrow (N) / wide (W) elements of each digit.
DIGIT_PATTERNS: dict[str, str] = {
    "0": "NNWWN",
    "1": "WNNNW",
    "2": "NWNNW",
    "3": "WWNNN",
    "4": "NNWNW",
    "5": "WNWNN",
    "6": "NWWNN",
    "7": "NNNWW",
    "8": "WNNWN",
    "9": "NWNWN",
}
START = "NNNN"
STOP = "WNN"
_BY_PATTERN = {v: k for k, v in DIGIT_PATTERNS.items()}


def _widths(elements: str, wide: int) -> tuple[int, ...]:
    return tuple(wide if e == "W" else 1 for e in elements)


def itf_pattern(digits: str, wide: int = 3) -> tuple[int, ...]:
    """Element widths (bar first) of the ITF symbol for ``digits`` (even count, ASCII)."""
    if wide not in (2, 3):
        raise ValueError(f"wide/narrow ratio must be 2 or 3, got {wide}")
    if not digits or len(digits) % 2 or not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"ITF needs a non-empty, even number of digits: {digits!r}")
    elements = [START]
    for i in range(0, len(digits), 2):
        bars, spaces = DIGIT_PATTERNS[digits[i]], DIGIT_PATTERNS[digits[i + 1]]
        elements.append("".join(b + s for b, s in zip(bars, spaces, strict=True)))
    elements.append(STOP)
    return _widths("".join(elements), wide)


def itf_modules(digits: str, wide: int = 3) -> str:
    """The symbol as a string of modules, ``1`` for bar and ``0`` for space."""
    return "".join(
        ("1" if i % 2 == 0 else "0") * w for i, w in enumerate(itf_pattern(digits, wide))
    )


def itf_decode(pattern: tuple[int, ...]) -> str:
    """Digits encoded by an ITF element-width pattern (inverse of :func:`itf_pattern`)."""
    if len(pattern) < 7 or (len(pattern) - 7) % 10:
        raise ValueError(f"not an ITF pattern: {len(pattern)} elements")
    narrow = min(pattern)
    elements = "".join("N" if w == narrow else "W" for w in pattern)
    if elements[:4] != START or elements[-3:] != STOP:
        raise ValueError("bad start or stop pattern")
    body = elements[4:-3]
    out = []
    for i in range(0, len(body), 10):
        chunk = body[i : i + 10]
        try:
            out.append(_BY_PATTERN[chunk[0::2]])
            out.append(_BY_PATTERN[chunk[1::2]])
        except KeyError:
            raise ValueError(f"bad digit pattern {chunk}") from None
    return "".join(out)
