"""Operator PINs: the rules every PIN meets, and the salted hash a configuration stores.

A PIN is :data:`PIN_MIN` to :data:`PIN_MAX` digits and not all one digit; no two operator
accounts share one (the PIN alone names the person at the PIN pad).  A configuration
stores a PIN either as :func:`hash_pin` writes it,
``pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>`` (PBKDF2-HMAC-SHA256, a 16-byte
random salt per PIN, at least :data:`MIN_ITERATIONS` iterations), or as plain digits
(checked against the rules when the configuration is loaded).  A hashed PIN is checked
against the rules when it is hashed: :func:`hash_pin` refuses a PIN that breaks them.

The demo PINs (:data:`DEMO_PINS`) break the rules on purpose; the configuration accepts
them in demo mode only.

``python -m kiosk.pins`` reads ``name role pin`` lines on stdin (one account a line; the
name may contain spaces) and prints the ``[[operators]]`` tables of a configuration with
the PINs hashed; it refuses (exit 2, the reason on stderr) a PIN that breaks the rules or
is given twice.  ``systemd/install.sh`` uses it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
from collections.abc import Iterable

#: Fewest and most digits in a PIN.
PIN_MIN = 6
PIN_MAX = 12
#: Demo mode's PINs, by role (accepted in demo mode only).
DEMO_PINS: dict[str, str] = {"attendant": "1111", "technician": "2222", "manager": "3333"}
#: The scheme tag of a hashed PIN and its iteration counts (written; least accepted).
HASH_SCHEME = "pbkdf2_sha256"
ITERATIONS = 100_000
MIN_ITERATIONS = 50_000
SALT_BYTES = 16


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` breaks the rules (a short reason), or None when it meets them."""
    if not pin.isascii() or not pin.isdigit():
        return "a PIN is digits only"
    if len(pin) < PIN_MIN:
        return f"shorter than {PIN_MIN} digits"
    if len(pin) > PIN_MAX:
        return f"longer than {PIN_MAX} digits"
    if len(set(pin)) == 1:
        return "all the same digit"
    return None


def is_hashed(stored: str) -> bool:
    """Whether a configuration's PIN value is a hash (else plain digits)."""
    return stored.startswith(HASH_SCHEME + "$")


def hash_problem(stored: str) -> str | None:
    """Why the hashed PIN ``stored`` cannot be used (a short reason), or None."""
    parts = stored.split("$")
    if len(parts) != 4 or parts[0] != HASH_SCHEME:
        return f"a hashed PIN is {HASH_SCHEME}$<iterations>$<salt hex>$<hash hex>"
    _scheme, iterations, salt, digest = parts
    if not (iterations.isascii() and iterations.isdigit()) or len(iterations) > 9:
        return "the iteration count is not a number"
    if int(iterations) < MIN_ITERATIONS:
        return f"fewer than {MIN_ITERATIONS} iterations"
    try:
        salt_bytes, digest_bytes = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        return "the salt and the hash are hexadecimal"
    if len(salt_bytes) < SALT_BYTES:
        return f"the salt is shorter than {SALT_BYTES} bytes"
    if len(digest_bytes) != 32:
        return "the hash is not 32 bytes"
    return None


def _derive(pin: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)


def hash_pin(pin: str, *, iterations: int = ITERATIONS, salt: bytes | None = None) -> str:
    """The configuration value storing ``pin`` (raises ``ValueError`` with the reason
    when the PIN breaks the rules)."""
    problem = pin_problem(pin)
    if problem is not None:
        raise ValueError(problem)
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = _derive(pin, salt, iterations)
    return f"{HASH_SCHEME}${iterations}${salt.hex()}${digest.hex()}"


def pin_matches(stored: str, pin: str) -> bool:
    """Whether ``pin`` is the PIN stored as ``stored`` (hashed or plain; constant-time
    compare).  A malformed ``stored`` matches nothing."""
    if not pin.isascii() or not pin.isdigit() or len(pin) > PIN_MAX:
        return False
    if not is_hashed(stored):
        return hmac.compare_digest(stored.encode(), pin.encode())
    if hash_problem(stored) is not None:
        return False
    _scheme, iterations, salt, digest = stored.split("$")
    got = _derive(pin, bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(got, bytes.fromhex(digest))


def operator_tables(lines: Iterable[str]) -> str:
    """``[[operators]]`` TOML tables from ``name role pin`` lines, PINs hashed (raises
    ``ValueError`` naming the line and the reason)."""
    out: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        words = line.split()
        if len(words) < 3:
            raise ValueError(f"line {number}: expected 'name role pin'")
        *name_words, role, pin = words
        name = " ".join(name_words)
        if pin in seen:
            raise ValueError(f"line {number} ({name}): the same PIN as another account")
        seen.add(pin)
        try:
            stored = hash_pin(pin)
        except ValueError as exc:
            raise ValueError(f"line {number} ({name}): PIN {exc}") from None
        out.append(
            f"[[operators]]\nname = {json.dumps(name)}\nrole = {json.dumps(role)}\n"
            f'pin = "{stored}"\n'
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.pins``: see the module docstring."""
    try:
        print(operator_tables(sys.stdin), end="")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
