"""The invitation the cabinet shows: a QR code of the game's link and its short code.

Why ``segno``: a maintained, pure-Python QR encoder with no dependencies (ISO/IEC 18004,
error correction levels, PNG output of its own); the cabinet needs nothing but the
module matrix and a PNG.  :func:`invite_png` gives PNG bytes; :func:`invite_surface`
a pygame surface for the setup screen (pygame is imported only there).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import segno

if TYPE_CHECKING:
    import pygame

#: Quiet zone around the code, in modules (the standard asks for 4).
QUIET = 4


def qr_matrix(link: str) -> list[list[bool]]:
    """The QR code of ``link`` as rows of dark (True) and light modules, quiet zone
    included; error correction M (15 % of the code may be hidden or dirty)."""
    code = segno.make_qr(link, error="m", boost_error=False)
    return [[bool(v) for v in row] for row in code.matrix_iter(scale=1, border=QUIET)]


def invite_png(link: str, *, scale: int = 8) -> bytes:
    """PNG bytes of the QR code of ``link``, ``scale`` pixels a module, black on white."""
    out = io.BytesIO()
    segno.make_qr(link, error="m", boost_error=False).save(out, kind="png", scale=scale, border=QUIET)
    return out.getvalue()


def invite_surface(link: str, size: int) -> pygame.Surface:
    """A ``size`` x ``size`` pygame surface of the QR code of ``link`` (whole pixels a
    module, centred on white); draw the short game code beside it."""
    import pygame

    rows = qr_matrix(link)
    n = len(rows)
    scale = max(1, size // n)
    surface = pygame.Surface((size, size))
    surface.fill((255, 255, 255))
    offset = (size - n * scale) // 2
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), (offset + x * scale, offset + y * scale, scale, scale))
    return surface
